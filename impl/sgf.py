"""Game records in SGF: read any Go record into a graph and a move list, replay it, write one.

A record is read with sgfmill.  Its board is the ``rows x columns`` grid of
:mod:`spec.graph` (point ``r * columns + c``, row 0 at the top, as SGF counts rows),
its setup is the position that the root's ``AB``/``AW``/``AE`` properties give (handicap
stones included), and its moves are the (player, point) pairs of the main line, a pass
being :data:`PASS`.  Players need not alternate in a record (handicap games start with
White, some records have two moves of one colour in a row), so every move carries its
player.

Files with the ``.mgt`` suffix (the old "MGT" Go editor) are SGF text too, and are read the
same way.

A record that cannot be read gives :class:`RecordError`, a one-line message naming the
file and the problem.  A record that reads but does not replay cleanly (a move on an
occupied point, a repeated board, setup stones in the middle of the game) is not an error:
:func:`replay` reports where and why.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field

from sgfmill import sgf

from gorules.spec.graph import Graph, GraphError, grid
from gorules.spec.tromp_taylor import EMPTY, PASS, State, opponent

PLAYER_OF_SGF = {"b": "B", "w": "W"}
SGF_OF_PLAYER = {"B": "b", "W": "w"}


class RecordError(GraphError):
    """A game record that cannot be read: a broken file, another game than Go, a bad size."""


@dataclass(frozen=True)
class Record:
    """A Go game record: the grid, the setup position, and the main line's moves.

    ``moves`` are (player, point-or-PASS) pairs; ``setup`` is a board (a tuple of
    colours indexed by point).  ``problems`` lists what the reader met that a replay
    cannot follow, each as text naming the move number (setup in mid-game, say).
    """

    graph: Graph
    setup: tuple
    moves: tuple
    komi: float = 0.0
    handicap: int = 0
    result: str | None = None
    first_player: str = "B"
    source: str = "<sgf>"
    problems: tuple = ()

    @property
    def players(self) -> tuple:
        """The player of each move, in order."""
        return tuple(p for p, _ in self.moves)


def sgf_point(graph: Graph, row_col) -> int:
    """The point of an sgfmill (row, column) pair, whose row 0 is the bottom line."""
    rows, columns = graph.shape
    row, column = row_col
    return (rows - 1 - row) * columns + column


def sgfmill_row_col(graph: Graph, v: int) -> tuple[int, int]:
    """The sgfmill (row, column) pair of a grid point (row 0 at the bottom)."""
    rows, _ = graph.shape
    r, c = graph.coordinates[v]
    return rows - 1 - r, c


def _read_game(data: bytes, source: str) -> sgf.Sgf_game:
    """The first game tree of SGF bytes, or RecordError naming what is wrong."""
    try:
        game = sgf.Sgf_game.from_bytes(data)
    except ValueError as error:
        raise RecordError(f"{source}: not a readable SGF record ({error})") from None
    root = game.get_root()
    if root.has_property("GM") and root.get("GM") != 1:
        raise RecordError(f"{source}: SGF game type GM[{root.get('GM')}] is not Go (GM[1])")
    return game


def _komi(root, source: str) -> float:
    """The record's komi (0 if absent); RecordError if it is not a number."""
    if not root.has_property("KM"):
        return 0.0
    try:
        return float(root.get("KM"))
    except ValueError:
        raise RecordError(f"{source}: komi KM[{root.get_raw('KM').decode(errors='replace')}] is not a number") from None


def _setup_board(graph: Graph, node, source: str) -> list:
    """The colours that the root's AB/AW/AE properties put on an empty board."""
    board = [EMPTY] * graph.order
    black, white, empty = _setup_points(graph, node, source)
    for v in black:
        board[v] = "B"
    for v in white:
        board[v] = "W"
    for v in empty:
        board[v] = EMPTY
    return board


def _setup_points(graph: Graph, node, source: str):
    """The points of a node's AB, AW and AE properties, checked to lie on the board."""
    try:
        black, white, empty = node.get_setup_stones()
    except ValueError as error:
        raise RecordError(f"{source}: bad setup stones ({error})") from None
    return (
        [sgf_point(graph, p) for p in black],
        [sgf_point(graph, p) for p in white],
        [sgf_point(graph, p) for p in empty],
    )


def _node_move(graph: Graph, node, number: int, source: str):
    """The (player, point-or-PASS) of a node, or None if it has no move."""
    try:
        colour, row_col = node.get_move()
    except ValueError:
        rows, columns = graph.shape
        raise RecordError(
            f"{source}: move {number} is neither a pass nor a point of the {rows}x{columns} board"
        ) from None
    if colour is None:
        return None
    return PLAYER_OF_SGF[colour], PASS if row_col is None else sgf_point(graph, row_col)


def parse_sgf(data: bytes | str, source: str = "<sgf>") -> Record:
    """The Record of SGF text: its grid, setup, main line, komi, handicap and result."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    game = _read_game(data, source)
    try:
        size = game.get_size()
    except ValueError as error:
        raise RecordError(f"{source}: bad board size ({error})") from None
    graph = grid(size, size)
    root = game.get_root()
    setup = _setup_board(graph, root, source)
    moves, problems = [], []
    try:
        sequence = game.get_main_sequence()
    except ValueError as error:
        raise RecordError(f"{source}: broken game tree ({error})") from None
    first = _node_move(graph, root, 0, source)
    if first is not None:
        moves.append(first)
    for node in sequence[1:]:
        if node.has_setup_stones():
            problems.append(f"move {len(moves) + 1}: setup stones (AB/AW/AE) after the root")
        played = _node_move(graph, node, len(moves) + 1, source)
        if played is not None:
            moves.append(played)
    handicap = root.get("HA") if root.has_property("HA") else 0
    result = root.get("RE") if root.has_property("RE") else None
    first_player = moves[0][0] if moves else ("W" if handicap else "B")
    return Record(
        graph,
        tuple(setup),
        tuple(moves),
        _komi(root, source),
        int(handicap or 0),
        result,
        first_player,
        source,
        tuple(problems),
    )


def load_sgf(path: str | os.PathLike) -> Record:
    """The Record stored in an SGF (or MGT) file; RecordError if it cannot be read."""
    source = os.fspath(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise RecordError(f"{source}: cannot read the file ({error.strerror})") from None
    return parse_sgf(data, os.path.basename(source))


@dataclass
class Replay:
    """A record replayed move by move.

    ``boards[0]`` is the setup and ``boards[i]`` the board after move i.  ``problem`` is
    the first reason the record stops replaying (a move on an occupied point), with
    ``stopped_at`` its move number; ``repetitions`` are the moves (numbered from 1) after
    which a board repeats an earlier one, which positional superko would forbid.
    """

    boards: list
    problem: str | None = None
    stopped_at: int | None = None
    repetitions: list = field(default_factory=list)
    suicides: list = field(default_factory=list)

    @property
    def clean(self) -> bool:
        """Whether every move replayed, none repeating a board."""
        return self.problem is None and not self.repetitions


def replay(record: Record, rules=None) -> Replay:
    """Replay a record with the ``move`` function of ``rules`` (the spec by default).

    A stone on an occupied point stops the replay; a board that repeats an earlier one, or
    a move whose own stones are removed (suicide), is noted and the replay goes on.
    """
    if rules is None:
        from gorules.spec import tromp_taylor as rules
    graph = record.graph
    board = tuple(record.setup)
    boards = [board]
    seen = {board}
    outcome = Replay(boards)
    if record.problems:
        outcome.problem = record.problems[0]
        outcome.stopped_at = int(record.problems[0].split(":")[0].split()[1])
    passes = 0
    for number, (player, v) in enumerate(record.moves, start=1):
        if outcome.stopped_at is not None and number >= outcome.stopped_at:
            break
        after = rules.move(graph, State(board, player, passes), v)
        if after is None:
            outcome.problem = f"move {number}: {player} plays on the occupied point {point_label(graph, v)}"
            outcome.stopped_at = number
            break
        if v != PASS and after.board[v] != player:
            outcome.suicides.append(number)
        if v != PASS and after.board in seen:
            outcome.repetitions.append(number)
        board, passes = after.board, after.passes
        seen.add(board)
        boards.append(board)
    return outcome


def point_label(graph: Graph, v) -> str:
    """A point as messages show it: its GTP name (``D4``) on a grid, its number elsewhere."""
    if v == PASS:
        return "pass"
    from gorules.spec.graph import gtp_name

    return f"{gtp_name(graph, v)}" if graph.is_grid else str(v)


def record_sgf(
    graph: Graph,
    moves: Sequence,
    setup: Sequence | None = None,
    komi: float = 0.0,
    result: str | None = None,
    comment: str | None = None,
) -> bytes:
    """SGF text of a game on a square grid.

    ``moves`` are (player, point-or-PASS) pairs, or bare points and PASS, whose players
    then alternate from Black (or from the player of the pair before); ``setup`` is an
    optional board placed with AB/AW.
    """
    if not graph.is_grid:
        raise RecordError(f"SGF records grids only; {graph.name} is not a grid")
    rows, columns = graph.shape
    if rows != columns:
        raise RecordError(f"SGF export is for square boards; {graph.name} is {rows}x{columns}")
    if rows > 25:
        raise RecordError(f"SGF export is for boards up to 25x25; {graph.name} is larger")
    game = sgf.Sgf_game(size=rows)
    root = game.get_root()
    root.set("KM", float(komi))
    if result is not None:
        root.set("RE", result)
    if comment is not None:
        root.set("C", comment)
    if setup is not None:
        black = {sgfmill_row_col(graph, v) for v in graph.points if setup[v] == "B"}
        white = {sgfmill_row_col(graph, v) for v in graph.points if setup[v] == "W"}
        root.set_setup_stones(black, white)
    player = "B"
    for item in moves:
        if isinstance(item, tuple):
            player, v = item
        else:
            v = item
        _check_move(graph, v)
        node = game.extend_main_sequence()
        node.set_move(SGF_OF_PLAYER[player], None if v == PASS else sgfmill_row_col(graph, v))
        player = opponent(player)
    return game.serialise()


def _check_move(graph: Graph, v) -> None:
    """RecordError unless v is a pass or a point of the graph."""
    if v != PASS and not (isinstance(v, int) and 0 <= v < graph.order):
        raise RecordError(f"cannot record move {v!r}: not a point of {graph.name} or a pass")


def save_sgf(graph: Graph, moves: Sequence, path: str | os.PathLike, **options) -> None:
    """Write a game (see :func:`record_sgf`) to ``path``, atomically: a temporary file, renamed."""
    data = record_sgf(graph, moves, **options)
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=".sgf-", dir=directory)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def engine_positions(record: Record) -> Replay:
    """Replay a record in the engine's bitset kernel: ``boards`` are (Black, White) bitsets.

    The kernel's ``place`` is the engine's move (clear the opponent, then the mover);
    the replay stops at a move on an occupied point and notes repetitions and suicides
    as :func:`replay` does.
    """
    from gorules.impl.engine import kernel, to_bits

    graph = record.graph
    k = kernel(graph)
    black, white = to_bits(graph, tuple(record.setup))
    outcome = Replay([(black, white)])
    if record.problems:
        outcome.problem = record.problems[0]
        outcome.stopped_at = int(record.problems[0].split(":")[0].split()[1])
    seen = {(black, white)}
    for number, (player, v) in enumerate(record.moves, start=1):
        if outcome.stopped_at is not None and number >= outcome.stopped_at:
            break
        if v != PASS:
            if (black | white) >> v & 1:
                outcome.problem = f"move {number}: {player} plays on the occupied point {point_label(graph, v)}"
                outcome.stopped_at = number
                break
            black, white = k.play(black, white, v, player == "W")
            if not (black | white) >> v & 1:
                outcome.suicides.append(number)
            if (black, white) in seen:
                outcome.repetitions.append(number)
            seen.add((black, white))
        outcome.boards.append((black, white))
    return outcome


def bits_as_board(graph: Graph, position: tuple) -> tuple:
    """The board (tuple of colours) of a (Black, White) bitset pair."""
    black, white = position
    return tuple("B" if black >> v & 1 else "W" if white >> v & 1 else EMPTY for v in graph.points)


def sgfmill_agreement(record: Record, positions: Sequence) -> tuple[int, str | None]:
    """Replay a record in sgfmill's Board and compare it with the engine's positions.

    ``positions`` are the engine's (Black, White) bitsets, the setup first.  The whole
    board is compared after every move: a mirror of the engine's board in sgfmill's
    layout is kept up to date from the points that changed, and compared to sgfmill's.
    Returns (positions compared, first disagreement or refusal as text, or None).
    """
    from sgfmill import boards as sgfmill_board_module

    graph = record.graph
    rows, columns = graph.shape
    board = sgfmill_board_module.Board(rows)
    black = [sgfmill_row_col(graph, v) for v in graph.points if record.setup[v] == "B"]
    white = [sgfmill_row_col(graph, v) for v in graph.points if record.setup[v] == "W"]
    board.apply_setup(black, white, [])
    mirror = [[None] * columns for _ in range(rows)]
    where = [sgfmill_row_col(graph, v) for v in graph.points]
    previous = (0, 0)
    compared = 0
    for number, position in enumerate(positions):
        if number > 0:
            player, v = record.moves[number - 1]
            if v != PASS:
                try:
                    board.play(*where[v], SGF_OF_PLAYER[player])
                except ValueError:
                    return (
                        compared,
                        f"move {number}: sgfmill refuses {player} on the occupied point {point_label(graph, v)}",
                    )
        changed = (previous[0] ^ position[0]) | (previous[1] ^ position[1])
        while changed:
            low = changed & -changed
            v = low.bit_length() - 1
            r, c = where[v]
            mirror[r][c] = "b" if position[0] & low else "w" if position[1] & low else None
            changed ^= low
        previous = position
        if mirror != board.board:
            return compared, f"move {number}: sgfmill's board differs from the engine's"
        compared += 1
    return compared, None


def engine_agreement(record: Record, positions: Sequence, boards: Sequence) -> tuple[int, str | None]:
    """Compare another engine's boards, given as (move number, board) pairs, with the
    engine's positions; (boards compared, first disagreement as text, or None)."""
    compared = 0
    for number, board in boards:
        if number >= len(positions):
            return compared, f"move {number}: the engine stopped before this move"
        if bits_as_board(record.graph, positions[number]) != tuple(board):
            return compared, f"move {number}: the board differs from the engine's"
        compared += 1
    return compared, None


def spec_agreement(record: Record, positions: Sequence) -> tuple[int, str | None]:
    """Replay a record in the executable spec and compare every board with the engine's
    positions; (boards compared, first disagreement or refusal as text, or None)."""
    from gorules.spec import tromp_taylor

    spec_replay = replay(record, tromp_taylor)
    numbered = list(enumerate(spec_replay.boards))
    compared, problem = engine_agreement(record, positions, numbered)
    if problem is None and spec_replay.problem and len(spec_replay.boards) < len(positions):
        problem = f"spec: {spec_replay.problem}"
    return compared, problem


def check_record(
    record: Record,
    spec: bool = False,
    sgfmill: bool = True,
    gnugo_every: int | None = None,
    gnugo: Sequence[str] | None = None,
) -> dict:
    """Replay a record in the engine and compare its boards with other opinions.

    sgfmill's board is compared after every move, the spec (if asked) after every move,
    GNU Go (if ``gnugo_every`` is given) after every ``gnugo_every``-th move and the last.
    Returns a dict: the record's name, moves, where it stops replaying cleanly and why,
    repeated boards and suicides, and for each opinion the boards compared and the
    first disagreement (None when all agree).
    """
    engine = engine_positions(record)
    played = record.moves[: len(engine.boards) - 1]
    report = {
        "record": record.source,
        "board": record.graph.name,
        "moves": len(record.moves),
        "replayed": len(played),
        "unclean": engine.problem,
        "repetitions": engine.repetitions,
        "suicides": engine.suicides,
        "opinions": {},
    }
    if sgfmill:
        compared, problem = sgfmill_agreement(record, engine.boards)
        report["opinions"]["sgfmill"] = {"compared": compared, "disagreement": problem}
    if spec:
        compared, problem = spec_agreement(record, engine.boards)
        report["opinions"]["spec"] = {"compared": compared, "disagreement": problem}
    if gnugo_every:
        from gorules.impl.gtp import gnugo_command, replay_in_engine

        command = list(gnugo) if gnugo else gnugo_command()
        boards, refused = replay_in_engine(command, record.graph, record.setup, played, gnugo_every)
        compared, problem = engine_agreement(record, engine.boards, boards)
        report["opinions"]["gnugo"] = {"compared": compared, "disagreement": refused or problem}
    report["agree"] = all(o["disagreement"] is None for o in report["opinions"].values())
    return report
