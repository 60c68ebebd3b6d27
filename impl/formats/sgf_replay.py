"""Game records replayed and compared: the engine against sgfmill, the spec and GNU Go.

A :class:`impl.formats.sgf.Record` is replayed move by move (:func:`replay` with any module of the
spec's API, :func:`engine_positions` in the engine's bitset kernel), and the engine's
boards are compared with sgfmill's board after every move, with the spec's, and with GNU
Go's every so many moves (:func:`check_record`, behind ``gorules replay-sgf``).  A move on
an occupied point stops a replay; a repeated board or a suicide is noted and the replay
goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gorules.impl.engine.bitset import kernel, to_bits, to_board
from gorules.impl.formats.sgf import SGF_OF_PLAYER, Record, sgfmill_row_col
from gorules.spec.text import move_name
from gorules.spec.tromp_taylor import PASS, Player, State


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


def _walk(record: Record, start, board_of, play) -> Replay:
    """Replay a record from the position ``start``: ``play(position, player, v)`` gives the
    position after the move and whether the played stone stayed on the board, or None on an
    occupied point; ``boards`` are ``board_of`` each position.  The first problem the reader
    met (setup stones in mid-game) stops the replay at its move, as an occupied point does;
    a repeated board or a suicide is noted and the replay goes on."""
    graph = record.graph
    outcome = Replay([board_of(start)])
    if record.problems:
        outcome.problem = record.problems[0]
        outcome.stopped_at = int(record.problems[0].split(":")[0].split()[1])
    seen = set(outcome.boards)
    position = start
    for number, (player, v) in enumerate(record.moves, start=1):
        if outcome.stopped_at is not None and number >= outcome.stopped_at:
            break
        after = play(position, player, v)
        if after is None:
            outcome.problem = f"move {number}: {player} plays on the occupied point {move_name(graph, v)}"
            outcome.stopped_at = number
            break
        position, stayed = after
        board = board_of(position)
        if v != PASS:
            if not stayed:
                outcome.suicides.append(number)
            if board in seen:
                outcome.repetitions.append(number)
            seen.add(board)
        outcome.boards.append(board)
    return outcome


def replay(record: Record, rules=None) -> Replay:
    """Replay a record with the ``move`` function of ``rules`` (the spec by default);
    ``boards`` are tuples of colours."""
    if rules is None:
        from gorules.spec import tromp_taylor as rules
    graph = record.graph

    def play(s: State, player: Player, v):
        """The spec's state after the move, and whether the stone stayed; None if occupied."""
        after = rules.move(graph, State(s.board, player, s.passes), v)
        return None if after is None else (after, v == PASS or after.board[v] == player)

    return _walk(record, State(tuple(record.setup), record.first_player, 0), lambda s: s.board, play)


def engine_positions(record: Record) -> Replay:
    """Replay a record in the engine's bitset kernel (``Kernel.play``: clear the opponent,
    then the mover); ``boards`` are (Black, White) bitsets."""
    graph = record.graph
    k = kernel(graph)

    def play(position: tuple[int, int], player: str, v):
        """The position after the move, and whether the stone stayed; None if occupied."""
        if v == PASS:
            return position, True
        black, white = position
        if (black | white) >> v & 1:
            return None
        black, white = k.play(black, white, v, player == "W")
        return (black, white), bool((black | white) >> v & 1)

    return _walk(record, to_bits(graph, tuple(record.setup)), lambda position: position, play)


SGFMILL_SMALLEST = 2


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
                        f"move {number}: sgfmill refuses {player} on the occupied point {move_name(graph, v)}",
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
        if to_board(record.graph, *positions[number]) != tuple(board):
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
    report: dict[str, Any] = {
        "record": record.source,
        "board": record.graph.name,
        "moves": len(record.moves),
        "replayed": len(played),
        "unclean": engine.problem,
        "repetitions": engine.repetitions,
        "suicides": engine.suicides,
        "opinions": {},
    }
    if sgfmill and record.graph.shape[0] >= SGFMILL_SMALLEST:  # sgfmill has no 1x1 board
        compared, problem = sgfmill_agreement(record, engine.boards)
        report["opinions"]["sgfmill"] = {"compared": compared, "disagreement": problem}
    if spec:
        compared, problem = spec_agreement(record, engine.boards)
        report["opinions"]["spec"] = {"compared": compared, "disagreement": problem}
    if gnugo_every:
        from gorules.impl.formats.gtp import gnugo_command, replay_in_engine

        command = list(gnugo) if gnugo else gnugo_command()
        boards, refused = replay_in_engine(command, record.graph, record.setup, played, gnugo_every)
        compared, problem = engine_agreement(record, engine.boards, boards)
        report["opinions"]["gnugo"] = {"compared": compared, "disagreement": refused or problem}
    report["agree"] = all(o["disagreement"] is None for o in report["opinions"].values())
    return report
