"""A long random GTP session against the endpoint, with the spec as referee.

Commands are drawn from valid, invalid and out-of-order GTP (moves for either colour,
passes, undo after the end of the game, sizes and vertices of thousands of digits, control
characters, unknown commands).  After every command the endpoint's game is checked
against the executable spec: each of its moves is legal under the spec's Tromp–Taylor
rules (occupancy, positional superko, nothing after two passes) and its board is the
spec's board after those moves; a ``play`` the spec allows is accepted, one it forbids
is refused.  No answer may be an internal error.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from gorules.impl.formats.gtp_server import GtpEndpoint
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import Graph, parse_graph, point_name

RULES = tt.PRESETS["tromp-taylor"]
HUGE = "9" * 5000

JUNK = [
    "",
    "   ",
    "# a comment",
    "frobnicate",
    "42",
    "7 name",
    "play",
    "play b",
    "play x A1",
    "play b Z99",
    f"play b A{HUGE}",
    f"play b {HUGE}",
    "play b ²",
    "genmove",
    "genmove purple",
    "boardsize",
    "boardsize ²",
    "boardsize 0",
    "boardsize 26",
    f"boardsize {HUGE}",
    "boardsize -3",
    "komi",
    "komi nan",
    "komi inf",
    "komi 1e400",
    f"komi {HUGE}",
    "komi 6.5",
    "known_command",
    "known_command play",
    "list_stones",
    "list_stones green",
    "\x00\x01play b A1",
    "play\tb\tpass",
    "undo undo",
    "final_score",
    "showboard",
    "name",
    "version",
    "protocol_version",
    "list_commands",
]


@dataclass
class Referee:
    """The spec's states along the endpoint's moves, extended as the game grows."""

    graph: Graph
    moves: list = field(default_factory=list)
    states: list = field(default_factory=list)

    def __post_init__(self) -> None:
        self.states = [tt.initial_state(self.graph)]

    def after(self, states: list, v) -> tt.State | None:
        """The state after v from the last of ``states``, or None if the spec forbids it."""
        last = states[-1]
        if last.passes >= 2:
            return None
        following = tt.move(self.graph, last, v)
        if following is None:
            return None
        if v != tt.PASS and tt.repeated_state(RULES, states, following) is not None:
            return None
        return following

    def follow(self, moves) -> None:
        """Bring the states up to ``moves`` (the endpoint's game); AssertionError at the
        first move the spec forbids."""
        common = 0
        while common < min(len(moves), len(self.moves)) and moves[common] == self.moves[common]:
            common += 1
        del self.states[common + 1 :]
        self.moves = list(moves[:common])
        for v in moves[common:]:
            following = self.after(self.states, v)
            assert following is not None, f"the endpoint played {v!r}, which the spec forbids"
            self.states.append(following)
            self.moves.append(v)


def random_command(rng: random.Random, endpoint: GtpEndpoint) -> str:
    """One command: mostly plays, genmoves, passes and undos for either colour (so often
    out of turn), sometimes junk, sometimes a new board."""
    graph = endpoint.graph
    colour = rng.choice(["b", "w", "B", "W", "black", "white"])
    roll = rng.random()
    if roll < 0.40:
        v = rng.choice([*graph.points, "pass"])
        return f"play {colour} {v if v == 'pass' else point_name(graph, v)}"
    if roll < 0.55:
        return f"genmove {colour}"
    if roll < 0.62:
        return f"play {colour} pass"
    if roll < 0.72:
        return "undo"
    if roll < 0.74:
        return f"boardsize {rng.choice([1, 2, 3, 4, 5])}"
    if roll < 0.76:
        return "clear_board"
    if roll < 0.78:
        return f"list_stones {colour}"
    prefix = f"{rng.randrange(1000)} " if rng.random() < 0.2 else ""
    return prefix + rng.choice(JUNK)


def run_session(commands: int, seed: int, graph: str = "grid:3x3") -> dict:
    """Send ``commands`` random commands; check the endpoint against the spec after each.
    Returns counts of answers (successes, failures)."""
    rng = random.Random(seed)
    endpoint = GtpEndpoint(parse_graph(graph), "tromp-taylor", seed)
    referee = Referee(endpoint.graph)
    counts = {"commands": 0, "successes": 0, "failures": 0}
    for _ in range(commands):
        command = random_command(rng, endpoint)
        before = tuple(endpoint.game.moves)
        graph_before = endpoint.graph
        expected = expected_play(referee, endpoint, command)
        answer = endpoint.respond(command)
        counts["commands"] += 1
        if answer is None:
            continue
        assert answer.endswith("\n\n") and answer[0] in "=?", (command, answer)
        assert "internal error" not in answer, (command, answer)
        counts["successes" if answer[0] == "=" else "failures"] += 1
        if endpoint.graph is not graph_before:
            referee = Referee(endpoint.graph)
        elif answer[0] == "?":
            assert tuple(endpoint.game.moves) == before, f"{command!r} failed but changed the game"
        if expected is not None and endpoint.graph is graph_before:
            assert (answer[0] == "=") == expected, (command, answer, before)
        referee.follow(endpoint.game.moves)
        assert endpoint.game.board == referee.states[-1].board
        if endpoint.finished:  # quit: start again, as a controller would
            endpoint.finished = False
    return counts


def expected_play(referee: Referee, endpoint: GtpEndpoint, command: str) -> bool | None:
    """Whether the spec allows a well-formed ``play`` (the mover passing first when out of
    turn, as GTP requires); None for any other command."""
    words = command.split()
    if len(words) != 3 or words[0] != "play" or words[1].lower() not in ("b", "w", "black", "white"):
        return None
    try:
        from gorules.spec.graph import parse_point

        v = tt.PASS if words[2].lower() == "pass" else parse_point(endpoint.graph, words[2])
    except ValueError:
        return None
    referee.follow(endpoint.game.moves)
    player = words[1][0].upper()
    states = list(referee.states)
    if states[-1].player != player:
        passed = referee.after(states, tt.PASS)
        if passed is None:
            return False
        states.append(passed)
    return referee.after(states, v) is not None
