"""Differential fuzzing of the engine against the executable spec.

Fuzzing (``fuzz``) draws random graphs (undirected and directed, up to 12 points, and
grids up to 19×19) and random move sequences, plays each sequence on the spec and on
the engine, and compares the whole state after every move, plus the module functions
(``move``, ``clear``, ``reaches``, ``score``, ``game``, ``winner``).  A disagreement is
shrunk to a shortest move sequence that still shows it and can be written as a test
vector (``impl.differential.vectors``) and, on a square grid, as an SGF file.

This module reads the spec's functions, not only its types: it is the bridge between
the spec and the engine, and the engine itself (``impl.engine.rules``) does not depend on it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import gorules.spec.tromp_taylor as spec_rules
from gorules.impl.differential.oracle import legal_reason
from gorules.impl.differential.vectors import record, write_vector
from gorules.impl.formats.files import write_bytes_atomically
from gorules.impl.formats.sgf import record_sgf
from gorules.spec.graph import Graph, grid, make_graph, parse_graph
from gorules.spec.tromp_taylor import EMPTY, PASS

# --------------------------------------------------------------------------- random cases


def random_graph(rng: random.Random, max_order: int = 12, max_side: int = 19) -> Graph:
    """A random graph: mostly small undirected or directed graphs and small grids,
    sometimes a named family, rarely a large grid."""
    kind = rng.random()
    if kind < 0.35:
        n = rng.randint(1, max_order)
        p = rng.choice((0.2, 0.35, 0.5, 0.8))
        arcs = [(v, w) for v in range(n) for w in range(v + 1, n) if rng.random() < p]
        return make_graph(n, arcs, f"random:{n}")
    if kind < 0.6:
        n = rng.randint(1, max_order)
        p = rng.choice((0.15, 0.3, 0.5))
        arcs = [(v, w) for v in range(n) for w in range(n) if v != w and rng.random() < p]
        return make_graph(n, arcs, f"random-digraph:{n}", directed=True)
    if kind < 0.9 or max_side < 7:
        return grid(rng.randint(1, min(5, max_side)), rng.randint(1, min(5, max_side)))
    if kind < 0.985:
        return parse_graph(rng.choice(("petersen", "cycle:5", "cycle:8", "complete:4", "star:4", "path:7", "grid:6x6")))
    side = rng.randint(7, max_side)
    return grid(side, rng.randint(7, max_side))


def random_moves(rng: random.Random, graph: Graph, length: int) -> list:
    """A random sequence of moves, some of them illegal (passes are rarer than points)."""
    points = graph.order
    return [PASS if rng.random() < 0.08 else rng.randrange(points) for _ in range(length)]


def random_board(rng: random.Random, graph: Graph) -> tuple:
    """A random board of the graph, well-formed or not."""
    weights = rng.choice(("BW.", "BW..", "BBW.", "BWW.", "BW...."))
    return tuple(rng.choice(weights) for _ in graph.points)


# --------------------------------------------------------------------------- fuzzing


@dataclass
class Disagreement:
    """A graph and a move sequence on which spec and engine differ, and how."""

    graph: Graph
    moves: list
    what: str
    board: tuple | None = None


@dataclass
class FuzzReport:
    """The totals of a fuzzing run."""

    examples: int = 0
    moves: int = 0
    disagreements: list = field(default_factory=list)

    def as_json(self) -> dict:
        """The JSON summary: examples, moves compared, disagreements found."""
        return {"examples": self.examples, "moves": self.moves, "disagreements": len(self.disagreements)}


def compare_functions(graph: Graph, b: tuple, rng: random.Random, engine) -> str | None:
    """How clear, reaches and score differ between spec and engine on a board (None if not)."""
    for p in ("B", "W"):
        if spec_rules.clear(graph, b, p) != engine.clear(graph, b, p):
            return f"clear(b, {p}) differs"
        if spec_rules.score(graph, b, p) != engine.score(graph, b, p):
            return f"score(b, {p}) differs"
    v = rng.randrange(graph.order)
    for c in ("B", "W", EMPTY):
        if spec_rules.reaches(graph, b, v, c) != engine.reaches(graph, b, v, c):
            return f"reaches(b, {v}, {c!r}) differs"
    return None


def compare_game(graph: Graph, moves: list, engine=None) -> tuple[int, str | None]:
    """Play the moves on spec and engine side by side (skipping moves the spec refuses) and
    compare after every move; return (moves compared, first difference or None)."""
    if engine is None:
        from gorules.impl.engine import rules as engine
    g = engine.Game(graph)
    history = [spec_rules.initial_state(graph)]
    played = []
    compared = 0
    for v in moves:
        compared += 1
        s = history[-1]
        s_next, reason = legal_reason(spec_rules, graph, history, v)
        if spec_rules.move(graph, s, v) != engine.move(graph, s, v):
            return compared, f"move(s, {v}) differs"
        engine_reason = g.why_illegal(v)
        if (s_next is None) != (engine_reason is not None):
            return compared, f"legality of {v} differs: spec {reason or 'legal'}, engine {engine_reason or 'legal'}"
        if s_next is None:
            continue
        g.play(v)
        history.append(s_next)
        played.append(v)
        if g.state() != s_next:
            return compared, f"state after {v} differs"
        if g.score()[:2] != tuple(spec_rules.score(graph, s_next.board, p) for p in ("B", "W")):
            return compared, f"score after {v} differs"
    if spec_rules.game(graph, played) != engine.game(graph, played):
        return compared, "game() differs"
    if spec_rules.winner(graph, played) != engine.winner(graph, played):
        return compared, "winner() differs"
    if played and played[-1] != PASS:
        g.undo()
        if g.state() != history[-2]:
            return compared, "undo does not restore the state"
    return compared, None


def shrink(graph: Graph, moves: list, fails: Callable[[list], bool]) -> list:
    """A shorter move sequence that still fails: drop chunks, then single moves, while it does."""
    chunk = max(1, len(moves) // 2)
    while chunk >= 1:
        i = 0
        while i < len(moves):
            candidate = moves[:i] + moves[i + chunk :]
            if fails(candidate):
                moves = candidate
            else:
                i += chunk
        chunk //= 2
    return moves


def fuzz_one(
    rng: random.Random, engine=None, max_order: int = 12, max_side: int = 19
) -> tuple[int, Disagreement | None]:
    """One example: a random graph, a random board and a random move sequence compared."""
    if engine is None:
        from gorules.impl.engine import rules as engine
    graph = random_graph(rng, max_order, max_side)
    board = random_board(rng, graph)
    difference = compare_functions(graph, board, rng, engine)
    if difference is not None:
        return 0, Disagreement(graph, [], difference, board)
    length = rng.randint(1, 40) if graph.order <= 36 else rng.randint(1, 12)
    moves = random_moves(rng, graph, length)
    if rng.random() < 0.5:
        moves += [PASS, PASS]
    compared, difference = compare_game(graph, moves, engine)
    if difference is None:
        return compared, None
    minimal = shrink(graph, moves, lambda ms: compare_game(graph, ms, engine)[1] is not None)
    return compared, Disagreement(graph, minimal, compare_game(graph, minimal, engine)[1] or difference)


def fuzz(
    examples: int | None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    engine=None,
    max_order: int = 12,
    max_side: int = 19,
    min_moves: int = 0,
) -> FuzzReport:
    """Run ``examples`` random examples from ``seed`` (or, with ``examples`` None, as many
    as it takes to compare ``min_moves`` moves); ``progress(1, moves)`` after each."""
    rng = random.Random(seed)
    report = FuzzReport()
    while (report.examples < examples) if examples is not None else (report.moves < min_moves):
        compared, disagreement = fuzz_one(rng, engine, max_order, max_side)
        report.examples += 1
        report.moves += compared
        if disagreement is not None:
            report.disagreements.append(disagreement)
        if progress is not None:
            progress(1, compared)
    return report


def disagreement_vector(d: Disagreement, index: int) -> dict:
    """A disagreement as a vector recording what the spec says (named after its kind)."""
    name = f"fuzz_disagreement_{index}"
    vector = record(d.graph, d.moves, name)
    vector["disagreement"] = d.what
    if d.board is not None:
        vector["board"] = "".join(d.board)
    return vector


def _is_point_or_pass(graph: Graph, v) -> bool:
    """Whether v can stand in a game record of the graph: a pass or one of its points."""
    return v == PASS or (type(v) is int and 0 <= v < graph.order)


def write_disagreements(report: FuzzReport, directory: Path) -> list[Path]:
    """Write each disagreement as a vector (and on square grids as SGF, by ``impl.formats.sgf.record_sgf``); return the paths written."""
    paths = []
    for i, d in enumerate(report.disagreements):
        vector = disagreement_vector(d, i)
        path = Path(directory) / f"{vector['name']}.json"
        write_vector(path, vector)
        paths.append(path)
        if d.graph.is_grid and d.graph.shape[0] == d.graph.shape[1] <= 25:
            sgf_path = path.with_suffix(".sgf")
            moves = list(vector["moves"])
            if "invalid" in vector and _is_point_or_pass(d.graph, vector["invalid"]["move"]):
                moves.append(vector["invalid"]["move"])
            write_bytes_atomically(sgf_path, record_sgf(d.graph, moves, comment=f"{d.graph.name}; rules Tromp-Taylor"))
            paths.append(sgf_path)
    return paths
