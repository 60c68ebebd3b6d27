"""Test vectors from the spec, and differential fuzzing of the engine against the spec.

A test vector is a JSON file recording what the executable spec (``spec.tromp_taylor``)
says about one sequence of moves on one graph: the state after every move, and at the
end whether the sequence is a game and who won.  A vector whose last move is not
allowed is named ``invalid_*`` and records the move and the reason.  The format is
described in ``tests/vectors/README.md``.  Vectors are replayed against any module
with the Tromp–Taylor API (``replay``).

Fuzzing (``fuzz``) draws random graphs (undirected and directed, up to 12 points, and
grids up to 19×19) and random move sequences, plays each sequence on the spec and on
the engine, and compares the whole state after every move, plus the module functions
(``move``, ``clear``, ``reaches``, ``score``, ``game``, ``winner``).  A disagreement is
shrunk to a shortest move sequence that still shows it and can be written as a vector
(and, on a square grid, as an SGF file).

This module reads the spec's functions, not only its types: it is the bridge between
the spec and the engine, and the engine itself (``impl.engine``) does not depend on it.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import gorules.spec.tromp_taylor as spec_rules
from gorules.impl.sgf import record_sgf
from gorules.spec.graph import Graph, GraphError, grid, make_graph, parse_graph
from gorules.spec.tromp_taylor import EMPTY, PASS, State

FORMAT = "gorules-vector/1"


# --------------------------------------------------------------------------- graphs as data


def graph_to_json(graph: Graph) -> dict:
    """A graph as JSON data: its name, order, whether directed, and its arcs."""
    return {
        "name": graph.name,
        "order": graph.order,
        "directed": graph.directed,
        "arcs": [list(arc) for arc in graph.edges()],
    }


def graph_from_json(data: dict) -> Graph:
    """The graph that ``graph_to_json`` wrote (a grid gets its coordinates back)."""
    try:
        order, directed = int(data["order"]), bool(data["directed"])
        arcs = [tuple(int(x) for x in arc) for arc in data["arcs"]]
        name = str(data.get("name", "graph"))
    except (KeyError, TypeError, ValueError) as error:
        raise GraphError(f"a graph in a vector needs order, directed and arcs: {error}") from None
    graph = make_graph(order, arcs, name, directed=directed)
    try:
        named = parse_graph(name)
    except GraphError:
        return graph
    return named if named.neighbours == graph.neighbours and named.directed == directed else graph


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


# --------------------------------------------------------------------------- the spec's record


def legal_reason(rules, graph: Graph, history: list[State], v) -> tuple[State | None, str]:
    """The next state when the player to move plays v after ``history`` (the states so far)
    under the game conditions of the source, or None and the reason v is not allowed."""
    s = history[-1]
    if v != PASS and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < graph.order):
        return None, "unknown point"
    if s.passes >= 2:
        return None, "the game is over"
    s_next = rules.move(graph, s, v)
    if s_next is None:
        return None, "the point is occupied"
    if v != PASS and any(s_next.board == earlier.board for earlier in history):
        return None, "the board repeats an earlier board"
    return s_next, ""


def legal_under(ruleset, graph: Graph, history: list[State], v) -> tuple[State | None, str]:
    """Like ``legal_reason`` with the spec's move, but under the options of a RuleSet: the
    oracle for the engine's ko and suicide options, written from their definitions in
    ``impl/rules.py`` on top of the spec's ``move``."""
    s = history[-1]
    if v != PASS and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < graph.order):
        return None, "unknown point"
    if s.passes >= 2:
        return None, "the game is over"
    s_next = spec_rules.move(graph, s, v)
    if s_next is None:
        return None, "the point is occupied"
    if v == PASS:
        return s_next, ""
    if ruleset.suicide == "forbidden" and s_next.board[v] == EMPTY:
        return None, "suicide"
    if ruleset.ko == "positional" and any(s_next.board == t.board for t in history):
        return None, "the board repeats an earlier board"
    if ruleset.ko == "situational" and any(s_next.board == t.board and s_next.player == t.player for t in history):
        return None, "the position repeats with the same player to move"
    if ruleset.ko == "simple" and len(history) >= 2 and s_next.board == history[-2].board:
        return None, "the board before the opponent's move comes back"
    return s_next, ""


def scores_under(ruleset, graph: Graph, b: tuple) -> tuple[int, int]:
    """(Black's score, White's score) of a board under a RuleSet's scoring, by the spec."""
    if ruleset.scoring == "stone":
        return b.count("B"), b.count("W")
    return spec_rules.score(graph, b, "B"), spec_rules.score(graph, b, "W")


def state_to_json(s: State) -> dict:
    """A state as JSON: the board as a string of B, W and . by point, player, passes."""
    return {"board": "".join(s.board), "player": s.player, "passes": s.passes}


def record(graph: Graph, moves: list, name: str, rules=spec_rules) -> dict:
    """The vector of a move sequence as the rules (the spec by default) see it.  If some
    move is not allowed the vector stops there and is an ``invalid_*`` case."""
    history = [rules.initial_state(graph)]
    played = []
    invalid = None
    for v in moves:
        s_next, reason = legal_reason(rules, graph, history, v)
        if s_next is None:
            invalid = {"move": v, "reason": reason}
            break
        history.append(s_next)
        played.append(v)
    final = history[-1].board
    vector = {
        "format": FORMAT,
        "name": name if invalid is None or name.startswith("invalid_") else f"invalid_{name}",
        "graph": graph_to_json(graph),
        "moves": played,
        "states": [state_to_json(s) for s in history],
        "score": {p: rules.score(graph, final, p) for p in ("B", "W")},
        "game": rules.game(graph, played) is not None,
        "winner": rules.winner(graph, played),
    }
    if invalid is not None:
        vector["invalid"] = invalid
    return vector


def replay(vector: dict, rules) -> list[str]:
    """The ways in which an implementation of the API disagrees with a vector (empty if none)."""
    graph = graph_from_json(vector["graph"])
    problems = []
    history = [rules.initial_state(graph)]
    if state_to_json(history[0]) != vector["states"][0]:
        problems.append("initial state differs")
    for i, v in enumerate(vector["moves"]):
        s_next, reason = legal_reason(rules, graph, history, v)
        if s_next is None:
            problems.append(f"move {i} ({v}) refused: {reason}")
            return problems
        if state_to_json(s_next) != vector["states"][i + 1]:
            problems.append(f"state after move {i} ({v}) differs")
        history.append(s_next)
    if "invalid" in vector:
        v = vector["invalid"]["move"]
        s_next, reason = legal_reason(rules, graph, history, v)
        if s_next is not None:
            problems.append(f"the invalid move {v} was allowed")
    final = history[-1].board
    for p in ("B", "W"):
        if rules.score(graph, final, p) != vector["score"][p]:
            problems.append(f"score of {p} differs")
    if (rules.game(graph, vector["moves"]) is not None) != vector["game"]:
        problems.append("game() differs")
    if rules.winner(graph, vector["moves"]) != vector["winner"]:
        problems.append("winner() differs")
    return problems


def replay_engine_game(vector: dict, rules: str = "tromp-taylor") -> list[str]:
    """The ways in which the engine's Game disagrees with a vector (empty if none)."""
    from gorules.impl.engine import Game, IllegalMove

    graph = graph_from_json(vector["graph"])
    g = Game(graph, rules)
    problems = []
    for i, v in enumerate(vector["moves"]):
        try:
            g.play(v)
        except IllegalMove as error:
            return problems + [f"move {i} ({v}) refused by Game: {error}"]
        if state_to_json(g.state()) != vector["states"][i + 1]:
            problems.append(f"Game state after move {i} ({v}) differs")
    if "invalid" in vector:
        v = vector["invalid"]["move"]
        try:
            g.play(v)
            problems.append(f"Game allowed the invalid move {v}")
        except IllegalMove:
            pass
    return problems


# --------------------------------------------------------------------------- files


def vector_text(data: dict) -> str:
    """A vector as JSON text: one key per line, one state per line."""
    lines = []
    for key, value in data.items():
        if key == "states":
            inner = ",\n  ".join(json.dumps(s) for s in value)
            lines.append(f' "{key}": [\n  {inner}\n ]')
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_json_atomically(path: Path, data) -> None:
    """Write a vector to ``path`` through a temporary file and a rename: never half-written."""
    write_text_atomically(path, vector_text(data))


def write_text_atomically(path: Path, text: str) -> None:
    """Write text to ``path`` through a temporary file and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def load_vector(path: Path) -> dict:
    """Read one vector file, checking its format tag."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"cannot read vector {path}: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path} is not a {FORMAT} vector")
    return data


def vector_files(directory: Path) -> list[Path]:
    """The vector files under a directory, sorted."""
    return sorted(Path(directory).rglob("*.json"))


# --------------------------------------------------------------------------- the corpus


def random_game(rng: random.Random, graph: Graph, length: int, rules=spec_rules) -> list:
    """A random sequence of allowed moves (under the rules, the spec by default): at each
    turn a uniformly chosen allowed point, or a pass when none is left or with small
    probability, for ``length`` turns; then two passes end it."""
    history = [rules.initial_state(graph)]
    moves = []
    for _ in range(length):
        candidates = list(graph.points)
        rng.shuffle(candidates)
        chosen, s_next = PASS, None
        if rng.random() >= 0.05:
            for v in candidates:
                s_next, _ = legal_reason(rules, graph, history, v)
                if s_next is not None:
                    chosen = v
                    break
        if chosen == PASS:
            s_next, _ = legal_reason(rules, graph, history, PASS)
            if s_next is None or s_next.passes >= 2:
                break
        moves.append(chosen)
        history.append(s_next)
    while history[-1].passes < 2:
        moves.append(PASS)
        history.append(legal_reason(rules, graph, history, PASS)[0])
    return moves


def refused_move(rng: random.Random, graph: Graph, moves: list, rules=spec_rules):
    """A move the rules refuse after the game prefix ``moves``: a repetition of an earlier
    board if one is at hand, else an occupied point, else an unknown point."""
    history = [rules.initial_state(graph)]
    for v in moves:
        history.append(legal_reason(rules, graph, history, v)[0])
    points = list(graph.points)
    rng.shuffle(points)
    by_reason = {}
    for v in points:
        s_next, reason = legal_reason(rules, graph, history, v)
        if s_next is None:
            by_reason.setdefault(reason, v)
    for reason in ("the board repeats an earlier board", "the point is occupied"):
        if reason in by_reason:
            return by_reason[reason]
    return graph.order


HAND_MADE = {
    # name: (graph, moves)
    "capture_grid3x3": ("grid:3x3", [1, 4, 3, PASS, 5, PASS, 7, PASS, PASS]),
    "capture_two_chains_cycle6": ("cycle:6", [2, 1, 4, 5, 0, PASS, PASS]),
    "suicide_multi_stone_grid2x3": ("grid:2x3", [0, 3, PASS, 4, PASS, 2, 1, PASS, PASS]),
    "ko_taken_grid3x4": ("grid:3x4", [1, 2, 4, 5, 9, 7, PASS, 10, 6, PASS, PASS]),
    "ko_retaken_after_exchange_grid3x4": ("grid:3x4", [1, 2, 4, 5, 9, 7, PASS, 10, 6, 3, 0, 5, PASS, PASS]),
    "directed_cycle_capture": ("digraph:0>1,1>2,2>0", [PASS, 1, 2, PASS, PASS]),
    "petersen_capture": ("petersen", [1, 0, 4, PASS, 5, PASS, PASS]),
    "empty_game_grid1x1": ("grid:1x1", [PASS, PASS]),
    "invalid_occupied": ("grid:2x2", [0, 0]),
    "invalid_superko_ko_retake": ("grid:3x4", [1, 2, 4, 5, 9, 7, PASS, 10, 6, 5]),
    "invalid_single_stone_suicide": ("cycle:4", [PASS, 1, PASS, 3, 0]),
    "invalid_after_two_passes": ("grid:2x2", [PASS, PASS, 0]),
    "invalid_unknown_point": ("path:3", [0, 3]),
    "invalid_directed_repeat": ("digraph:0>1,1>2", [2]),
}

RANDOM_GRAPHS = (
    "grid:2x2",
    "grid:3x3",
    "grid:4x4",
    "grid:2x5",
    "cycle:7",
    "petersen",
    "complete:4",
    "star:4",
    "digraph:0>1,1>2,2>0,2>3,3>1",
    "digraph:0>1,1>0,1>2,2>3,3>2,3>0",
)


def corpus(seed: int = 0, per_graph: int = 4) -> list[dict]:
    """The vectors of the repository: the hand-made cases, then on grids, cycles, the
    Petersen graph and digraphs random complete games and random refused moves
    (a random game cut short, then a move the spec does not allow: ``invalid_*``)."""
    rng = random.Random(seed)
    vectors = []
    for name, (graph_name, moves) in HAND_MADE.items():
        vectors.append(record(parse_graph(graph_name), moves, name))
    for graph_name in RANDOM_GRAPHS:
        graph = parse_graph(graph_name)
        slug = graph_name.replace(":", "_").replace(",", "_").replace(">", "to")
        for i in range(per_graph):
            moves = random_game(rng, graph, rng.randint(2, 3 * graph.order))
            vectors.append(record(graph, moves, f"game_{slug}_{i}"))
        for i in range(per_graph // 2):
            prefix = random_game(rng, graph, rng.randint(1, 3 * graph.order))[:-2]
            refused = refused_move(rng, graph, prefix)
            vectors.append(record(graph, prefix + [refused], f"invalid_{slug}_{i}"))
    return vectors


def write_corpus(directory: Path, seed: int = 0, per_graph: int = 4) -> list[Path]:
    """Write the corpus into ``directory`` (one file per vector); return the paths."""
    paths = []
    for vector in corpus(seed, per_graph):
        path = Path(directory) / f"{vector['name']}.json"
        write_json_atomically(path, vector)
        paths.append(path)
    return paths


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
        from gorules.impl import engine
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
        from gorules.impl import engine
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
    """Write each disagreement as a vector (and on square grids as SGF, by ``impl.sgf.record_sgf``); return the paths written."""
    paths = []
    for i, d in enumerate(report.disagreements):
        vector = disagreement_vector(d, i)
        path = Path(directory) / f"{vector['name']}.json"
        write_json_atomically(path, vector)
        paths.append(path)
        if d.graph.is_grid and d.graph.shape[0] == d.graph.shape[1] <= 25:
            sgf_path = path.with_suffix(".sgf")
            moves = list(vector["moves"])
            if "invalid" in vector and _is_point_or_pass(d.graph, vector["invalid"]["move"]):
                moves.append(vector["invalid"]["move"])
            record = record_sgf(d.graph, moves, comment=f"{d.graph.name}; rules Tromp-Taylor")
            write_text_atomically(sgf_path, record.decode())
            paths.append(sgf_path)
    return paths


def main(argv: Iterable[str] | None = None) -> int:
    """``python -m impl.vectors DIRECTORY``: regenerate the vector corpus into DIRECTORY."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    directory = Path(args[0] if args else "tests/vectors")
    for stale in directory.glob("*.json"):
        stale.unlink()
    paths = write_corpus(directory)
    print(f"wrote {len(paths)} vectors to {directory}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


class NoSuicideMutant:
    """The engine with one rule broken on purpose: a played stone is never removed, even
    when it has no liberty after the captures (suicide forgotten).  Differential fuzzing
    must tell it from the spec; a fuzzer that cannot would prove nothing."""

    def __getattr__(self, name):
        from gorules.impl import engine

        return getattr(engine, name)

    @staticmethod
    def move(graph: Graph, s: State, v) -> State | None:
        """The engine's move, with the played point put back if the move removed it."""
        from gorules.impl import engine

        result = engine.move(graph, s, v)
        if result is None or v == PASS or result.board[v] != EMPTY:
            return result
        board = result.board[:v] + (s.player,) + result.board[v + 1 :]
        return State(board, result.player, 0)
