"""Checks of the counting code against published figures (copied here as constants; the
counts themselves are computed by the toolkit each time).

Sources: John Tromp's tables of legal positions (OEIS A094777, A102620, A266278); Tromp &
Farnebäck, "Combinatorics of Go" (2016), Table 7, for games under positional superko;
Farnebäck's GoGameGraphs for game graphs.
"""

from __future__ import annotations

from gorules.impl.counting.game_graph import game_graph
from gorules.impl.counting.games import count_games
from gorules.impl.counting.positions import count_legal, enumerate_legal
from gorules.impl.counting.transfer import derive, strip_system
from gorules.spec.graph import parse_graph
from gorules.verify import Check, Outcome

PUBLISHED_LEGAL = {"grid:2x2": 57, "grid:3x3": 12675, "grid:4x4": 24318165, "grid:5x5": 414295148741}
PUBLISHED_GAMES = {"grid:1x2": 9, "grid:1x3": 907}
PUBLISHED_GAME_GRAPHS = {"grid:1x2": (5, 12), "grid:1x3": (15, 42), "grid:2x2": (57, 192)}
PUBLISHED_STRIP = [1, 5, 15, 41, 113, 313, 867, 2401]
PUBLISHED_RECURRENCE = [3, -1, 1]


def compare(found, published) -> Outcome:
    """A passing outcome when the computed value equals the published one."""
    if found == published:
        return Outcome(True, f"{found} = published")
    return Outcome(False, f"computed {found}, published {published}")


def legal_check(name: str, published: int) -> Check:
    """The frontier dynamic program gives the published number of legal positions."""
    return Check(
        "legal positions (frontier DP)", name, lambda: compare(count_legal(parse_graph(name)), published), "count"
    )


def enumeration_check() -> Check:
    """Enumeration and the dynamic program agree on a non-grid graph."""

    def run() -> Outcome:
        graph = parse_graph("petersen")
        by_enumeration, by_dp = enumerate_legal(graph), count_legal(graph)
        return Outcome(by_enumeration == by_dp, f"enumeration {by_enumeration}, DP {by_dp}")

    return Check("legal positions: enumeration = DP", "petersen", run, "count")


def strip_check() -> Check:
    """The 1×n transfer matrix gives the published terms and recurrence."""

    def run() -> Outcome:
        derivation = derive(strip_system(1))
        terms_ok = derivation.terms[:8] == PUBLISHED_STRIP
        recurrence_ok = derivation.recurrence == PUBLISHED_RECURRENCE
        return Outcome(
            terms_ok and recurrence_ok,
            f"{derivation.recurrence_text()}; growth {derivation.growth_value:.6f}",
        )

    return Check("1×n transfer matrix and recurrence", "grid:1xn", run, "count")


def games_check(name: str, published: int) -> Check:
    """The superko game search (plain Python: no compilation) gives the published number of games."""
    return Check(
        "games under positional superko",
        name,
        lambda: compare(count_games(parse_graph(name), compiled=False).games, published),
        "count",
    )


def game_graph_check(name: str, published: tuple[int, int]) -> Check:
    """The game graph has the published numbers of nodes and edges."""

    def run() -> Outcome:
        summary = game_graph(parse_graph(name)).summary()
        return compare((summary["nodes"], summary["edges"]), published)

    return Check("game graph nodes, edges", name, run, "count")


def checks() -> list[Check]:
    """Counts of legal positions, games and game graphs, against the published figures."""
    found = [legal_check(name, value) for name, value in PUBLISHED_LEGAL.items()]
    found += [enumeration_check(), strip_check()]
    found += [games_check(name, value) for name, value in PUBLISHED_GAMES.items()]
    found += [game_graph_check(name, value) for name, value in PUBLISHED_GAME_GRAPHS.items()]
    return found
