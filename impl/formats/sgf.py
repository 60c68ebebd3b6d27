"""Game records in SGF: read any Go record into a graph and a move list, write one.

A record is read with sgfmill.  Its board is the ``rows x columns`` grid of
:mod:`spec.graph` (point ``r * columns + c``, row 0 at the top, as SGF counts rows),
its setup is the position that the root's ``AB``/``AW``/``AE`` properties give (handicap
stones included), and its moves are the (player, point) pairs of the main line, a pass
being :data:`PASS`; the first player is the first move's, else the one the root's ``PL``
names, else White in a handicap game and Black otherwise.  Players need not alternate in a record (handicap games start with
White, some records have two moves of one colour in a row), so every move carries its
player.

Files with the ``.mgt`` suffix (the old "MGT" Go editor) are SGF text too, and are read the
same way.

A record that cannot be read gives :class:`RecordError`, a one-line message naming the
file and the problem.  A record that reads but does not replay cleanly (a move on an
occupied point, a repeated board, setup stones in the middle of the game) is not an error:
the replays of ``impl.formats.sgf_replay`` report where and why.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from sgfmill import sgf

from gorules.impl.formats.files import write_bytes_atomically
from gorules.spec.graph import Graph, GraphError, grid
from gorules.spec.tromp_taylor import BLACK, EMPTY, PASS, WHITE, Player, opponent

PLAYER_OF_SGF = {"b": "B", "w": "W"}
SMALLEST_SIZE = 1
LARGEST_SIZE = 25  # the grids of spec.graph (GTP letters) end at 25x25
LARGEST_RECORD = 20_000_000  # bytes: a record file larger than this is refused unread
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
    first_player: Player = BLACK
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
    r, c = graph.grid[v]
    return rows - 1 - r, c


def _read_game(data: bytes, source: str) -> sgf.Sgf_game:
    """The first game tree of SGF bytes, or RecordError naming what is wrong."""
    try:
        game = sgf.Sgf_game.from_bytes(data)
    except ValueError as error:
        raise RecordError(f"{source}: not a readable SGF record ({error})") from None
    root = game.get_root()
    if root.has_property("GM") and _number(root, "GM", "game type", source) != 1:
        raise RecordError(f"{source}: SGF game type GM[{_raw(root, 'GM')}] is not Go (GM[1])")
    return game


def _raw(node, name: str) -> str:
    """A property's value as written (cut to 40 characters), for error messages."""
    text = node.get_raw(name).decode("utf-8", errors="replace")
    return text if len(text) <= 40 else text[:40] + "…"


def _number(node, name: str, what: str, source: str) -> int:
    """A number-valued property; RecordError naming it if its value is not a number."""
    try:
        return int(node.get(name))
    except (ValueError, TypeError):
        raise RecordError(f"{source}: {what} {name}[{_raw(node, name)}] is not a number") from None


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


def _to_play(root, source: str) -> Player | None:
    """The player the root's ``PL`` property names to move, or None without one."""
    if not root.has_property("PL"):
        return None
    try:
        player = root.get("PL")
    except ValueError:
        player = None
    if player not in PLAYER_OF_SGF:
        raise RecordError(f"{source}: PL names no player (B or W)")
    return BLACK if player == "b" else WHITE


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
    """The Record of SGF text: its grid, setup, main line, komi, handicap and result;
    RecordError, one line naming the source, for anything that cannot be read."""
    try:
        return _parse_sgf(data, source)
    except RecordError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, RecursionError) as error:  # sgfmill's own refusals
        problem = " ".join(f"{type(error).__name__}: {error}".split())[:200]
        raise RecordError(f"{source}: not a readable SGF record ({problem})") from None


def _parse_sgf(data: bytes | str, source: str) -> Record:
    """:func:`parse_sgf` without its last guard."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    game = _read_game(data, source)
    try:
        size = game.get_size()
    except ValueError as error:
        raise RecordError(f"{source}: bad board size ({error})") from None
    if not SMALLEST_SIZE <= size <= LARGEST_SIZE:
        raise RecordError(
            f"{source}: board size SZ[{size}] is outside {SMALLEST_SIZE}..{LARGEST_SIZE}, the boards records are replayed on"
        )
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
    handicap = _number(root, "HA", "handicap", source) if root.has_property("HA") else 0
    result = root.get("RE") if root.has_property("RE") else None
    first_player: Player = moves[0][0] if moves else _to_play(root, source) or (WHITE if handicap else BLACK)
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
            data = handle.read(LARGEST_RECORD + 1)
    except OSError as error:
        raise RecordError(f"{source}: cannot read the file ({error.strerror})") from None
    if len(data) > LARGEST_RECORD:
        raise RecordError(
            f"{os.path.basename(source)}: more than {LARGEST_RECORD // 1_000_000} MB; not a game record this reader takes"
        )
    return parse_sgf(data, os.path.basename(source))


def record_sgf(
    graph: Graph,
    moves: Sequence,
    setup: Sequence | None = None,
    komi: float = 0.0,
    result: str | None = None,
    comment: str | None = None,
    ruleset_line: str | None = None,
) -> bytes:
    """SGF text of a game on a square grid.

    ``moves`` are (player, point-or-PASS) pairs, or bare points and PASS, whose players
    then alternate from Black (or from the player of the pair before); ``setup`` is an
    optional board placed with AB/AW; ``ruleset_line`` (the ruleset and its options) is written in ``RU``.
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
    if ruleset_line is not None:
        root.set("RU", ruleset_line)
    if setup is not None:
        black = {sgfmill_row_col(graph, v) for v in graph.points if setup[v] == "B"}
        white = {sgfmill_row_col(graph, v) for v in graph.points if setup[v] == "W"}
        root.set_setup_stones(black, white)
    player: Player = BLACK
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
    write_bytes_atomically(path, record_sgf(graph, moves, **options))
