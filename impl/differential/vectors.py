"""Test vectors: what the executable spec says about one sequence of moves, as JSON files.

A test vector is a JSON file recording what the executable spec (``spec.tromp_taylor``)
says about one sequence of moves on one graph: the state after every move, and at the
end whether the sequence is a game and who won.  A vector whose last move is not
allowed is named ``invalid_*`` and records the move and the reason.  The format is
described in ``tests/vectors/README.md``.  Vectors are replayed against any module
with the Tromp–Taylor API (``replay``).  ``python -m gorules.impl.differential.vectors DIRECTORY``
writes the corpus of the repository (``corpus``) again.

Differential fuzzing, whose disagreements are written as vectors, is ``impl.differential.fuzzing``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from pathlib import Path

import gorules.spec.tromp_taylor as spec_rules
from gorules.impl.differential.oracle import legal_reason
from gorules.impl.formats.files import write_text_atomically
from gorules.spec.graph import Graph, graph_from_json, graph_to_json, parse_graph
from gorules.spec.tromp_taylor import PASS, Move, State

FORMAT = "gorules-vector/1"


# --------------------------------------------------------------------------- the spec's record


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
    problems: list[str] = []
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


def replay_engine_game(vector: dict, preset: str = "tromp-taylor") -> list[str]:
    """The ways in which the engine's Game, under the preset of that name, disagrees with a
    vector (empty if none)."""
    from gorules.impl.engine.rules import Game, IllegalMove

    graph = graph_from_json(vector["graph"])
    g = Game(graph, preset)
    problems: list[str] = []
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


def write_vector(path: Path, data) -> Path:
    """Write a vector to ``path`` through a temporary file and a rename: never half-written."""
    return write_text_atomically(path, vector_text(data))


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
        chosen: Move = PASS
        s_next = None
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
    by_reason: dict[str, int] = {}
    for v in points:
        s_next, reason = legal_reason(rules, graph, history, v)
        if s_next is None:
            by_reason.setdefault(reason, v)
    for reason in ("the board repeats an earlier board", "the point is occupied"):
        if reason in by_reason:
            return by_reason[reason]
    return graph.order


HAND_MADE: dict[str, tuple[str, list]] = {
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
        write_vector(path, vector)
        paths.append(path)
    return paths


def main(argv: Iterable[str] | None = None) -> int:
    """``python -m gorules.impl.differential.vectors DIRECTORY``: regenerate the vector corpus into DIRECTORY."""
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
