"""The statements of the source, checked: each a function that runs over cases to a Verdict.

Definitions are compared, on every board, with the independent reference of
``gorules.errata.reference``; theorem statements are checked on every reachable board,
state or game prefix.  Each check stops at its first failure, which comes from the smallest
graph and board (the cases run smallest first).  ``progress``, where given, is told every
256 cases how many were checked.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence

from gorules.errata.cases import (
    CORRECTED,
    Rules,
    board_cases,
    continues,
    game_prefixes,
    moves_of,
    reachable_states,
    well_formed,
    well_formed_cases,
    witness_game,
)
from gorules.errata.graphs import COLOURS, all_boards
from gorules.errata.reference import reference_clear, reference_move, reference_reaches, reference_score
from gorules.errata.report import Counterexample, Verdict, move_names
from gorules.spec import errata as literal
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import Graph

PLAYERS = (tt.BLACK, tt.WHITE)
Progress = Callable[[int], object] | None  # told how many more cases were checked


def first_failure(cases: Iterable, test: Callable, progress: Progress = None) -> Verdict:
    """Run ``test`` over the cases in order; it returns None when a case passes or a
    Counterexample when it fails.  Stops at the first failure."""
    count = 0
    for case in cases:
        count += 1
        if count % 256 == 0 and progress is not None:
            progress(256)
        found = test(case)
        if found is not None:
            return Verdict(False, count, found)
    return Verdict(True, count)


def with_game(graph: Graph, board: tuple, explanation: str, marks=()) -> Counterexample:
    """A counterexample on a board, with a game leading to it when there is one."""
    return Counterexample(graph, board, explanation, witness_game(graph, board), tuple(marks))


def combine(first: Verdict, second: Verdict) -> Verdict:
    """Two checks of one statement: it holds if both do; the first counterexample found stands."""
    if not first.holds:
        return Verdict(False, first.checked + second.checked, first.counterexample)
    return Verdict(second.holds, first.checked + second.checked, second.counterexample)


# --------------------------------------------------------------------------- definitions


def against_reference(
    function: Callable,
    reference: Callable,
    cases: Iterable,
    arguments: Callable,
    explain: Callable,
    progress: Progress = None,
) -> Verdict:
    """``function(graph, *a)`` equals ``reference(graph, *a)`` for every case (graph, b) and
    every ``a`` in ``arguments(graph, b)``; at the first difference, ``explain(a, got, want)``
    gives the counterexample's explanation and marked points."""

    def test(case):
        """None if the statement holds here, else a Counterexample."""
        graph, b = case
        for a in arguments(graph, b):
            got, want = function(graph, *a), reference(graph, *a)
            if got != want:
                explanation, marks = explain(a, got, want)
                return with_game(graph, b, explanation, marks)
        return None

    return first_failure(cases, test, progress)


def reaches_against_reference(reaches: Callable, graphs: Sequence[Graph], progress: Progress = None) -> Verdict:
    """reaches(b, v, c) agrees with the reference on every board, point and colour."""

    def explain(a, got, want):
        """What differs, and the point asked about."""
        b, v, c = a
        return (
            f"reaches(b, {v}, {c!r}) is {got}, but a path of {b[v]!r} points from {v} "
            f"{'does' if want else 'does not'} lead to a {c!r} point",
            [v],
        )

    def arguments(graph, b):
        """Every point and colour."""
        return ((b, v, c) for v in graph.points for c in COLOURS)

    return against_reference(reaches, reference_reaches, board_cases(graphs), arguments, explain, progress)


def clear_against_reference(clear: Callable, graphs: Sequence[Graph], progress: Progress = None) -> Verdict:
    """clear(b, p) removes exactly the stones of p whose chain has no liberty."""

    def explain(a, got, want):
        """What differs."""
        _, p = a
        return (
            f"clear(b, {p!r}) gives {''.join(got)!r}; removing the {p} chains without "
            f"a liberty gives {''.join(want)!r}",
            (),
        )

    def arguments(graph, b):
        """Both players."""
        return ((b, p) for p in PLAYERS)

    return against_reference(clear, reference_clear, board_cases(graphs), arguments, explain, progress)


def move_against_reference(move: Callable, graphs: Sequence[Graph], progress: Progress = None) -> Verdict:
    """move(s, v) agrees with Tromp–Taylor's step on every well-formed board, player and move."""

    def shown(result) -> str:
        """A move's result as the explanation shows it: its board, or ⊥."""
        return "⊥" if result is None else "".join(result.board)

    def explain(a, got, want):
        """What differs, and the point played."""
        s, v = a
        return (
            f"{s.player} plays {v}: move gives board {shown(got)!r}, Tromp–Taylor's step gives {shown(want)!r}",
            [] if v == tt.PASS else [v],
        )

    def arguments(graph, b):
        """Both players, every move."""
        return ((tt.State(b, p, 0), v) for p in PLAYERS for v in moves_of(graph))

    return against_reference(move, reference_move, well_formed_cases(graphs), arguments, explain, progress)


def score_against_reference(score: Callable, graphs: Sequence[Graph], progress: Progress = None) -> Verdict:
    """score(b, p) agrees with area scoring by flood fill on every board and player."""

    def explain(a, got, want):
        """What differs."""
        _, p = a
        return f"score(b, {p!r}) is {got}; {p}'s stones and area number {want}", ()

    def arguments(graph, b):
        """Both players."""
        return ((b, p) for p in PLAYERS)

    return against_reference(score, reference_score, well_formed_cases(graphs), arguments, explain, progress)


def fixed_points(graph: Graph, b: tuple, c: str, as_written: bool) -> tuple[frozenset, frozenset]:
    """The least and the greatest solution R of reaches's equation (as written, or as
    corrected): the least is the spec's ``reaching`` (or ``reaching_as_written``), the
    greatest is found by applying the equation from the set of all points until it stays."""
    least = (literal.reaching_as_written if as_written else tt.reaching)(graph, b, c)
    step = equation_step(graph, b, c, as_written)
    greatest = frozenset(graph.points)
    while (smaller := step(greatest)) != greatest:
        greatest = smaller
    return least, greatest


def equation_step(graph: Graph, b: tuple, c: str, as_written: bool) -> Callable:
    """One application of reaches's recursive equation (as written, or as corrected)."""

    def step(R: frozenset) -> frozenset:
        """The right-hand side of the equation, evaluated with R for reaches."""
        return frozenset(
            v
            for v in graph.points
            if b[v] == c
            or any(w in R and (b[w] == b[v] if as_written else b[w] in (b[v], c)) for w in graph.neighbours[v])
        )

    return step


def equation_has_one_solution(as_written: bool, graphs: Sequence[Graph], progress: Progress = None) -> Verdict:
    """reaches's equation, read as a definition with no index, has exactly one solution."""

    def test(case):
        """None if the statement holds here, else a Counterexample."""
        graph, b = case
        for c in COLOURS:
            least, greatest = fixed_points(graph, b, c, as_written)
            if least != greatest:
                extra = sorted(greatest - least)
                return with_game(
                    graph,
                    b,
                    f"for c = {c!r} both R = {sorted(least)} and R = {sorted(greatest)} solve the "
                    f"equation: points {extra} reach {c!r} in one solution and not in the other",
                    extra,
                )
        return None

    return first_failure(board_cases(graphs), test, progress)


def indexed_reaches(graph: Graph, b: tuple, v: int, c: str, n: int) -> bool:
    """reaches_n(b, v, c): a path of at most n steps through v's colour ends at colour c."""
    if b[v] == c:
        return True
    if n == 0:
        return False
    return any(b[w] in (b[v], c) and indexed_reaches(graph, b, w, c, n - 1) for w in graph.neighbours[v])


def indexed_equation_is_least_solution(graphs: Sequence[Graph], progress: Progress = None) -> Verdict:
    """reaches_n with n = |Point| equals the spec's reaches (the least solution) and is stable."""

    def test(case):
        """None if the statement holds here, else a Counterexample."""
        graph, b = case
        for v in graph.points:
            for c in COLOURS:
                n = graph.order
                at_n = indexed_reaches(graph, b, v, c, n)
                if at_n != tt.reaches(graph, b, v, c) or at_n != indexed_reaches(graph, b, v, c, n + 1):
                    return with_game(graph, b, f"reaches_{n}(b, {v}, {c!r}) differs", [v])
        return None

    return first_failure(board_cases(graphs), test, progress)


# --------------------------------------------------------------------------- theorems


def occurs_versus_well_formed(rules: Rules, graphs: Sequence[Graph], progress: Progress = None) -> Verdict:
    """b occurs in some game iff b is well-formed (well-formed read with the rules' reaches).

    "Occurs" is decided soundly both ways: a board outside every state reachable without the
    no-repeat rule occurs in no game; a board with a game prefix accepted by the rules does."""

    def test(graph):
        """None if the statement holds here, else a Counterexample."""
        reachable = reachable_states(graph, rules)
        reachable_boards: dict[tuple, tuple] = {}
        for s, moves in reachable.items():
            reachable_boards.setdefault(s.board, moves)
        for b in all_boards(graph):
            formed = well_formed(graph, b, rules.reaches)
            if b in reachable_boards and not formed:
                return Counterexample(
                    graph, b, "this board occurs in a game but is not well-formed", reachable_boards[b]
                )
            if formed and not occurs(graph, rules, b, reachable_boards.get(b)):
                return Counterexample(graph, b, "this board is well-formed but occurs in no game")
        return None

    return first_failure(graphs, test, progress)


def occurs(graph: Graph, rules: Rules, board: tuple, candidate: tuple | None) -> bool:
    """Whether some game prefix under ``rules`` ends on ``board``: the shortest move list found
    without the no-repeat rule is replayed with it; failing that, a placement order is tried."""
    for moves in (candidate, witness_game(graph, board) if rules is CORRECTED else None):
        if moves is None:
            continue
        history = [tt.initial_state(graph)]
        for v in moves:
            s_next = continues(graph, rules, history, v)
            if s_next is None:
                break
            history.append(s_next)
        else:
            if history[-1].board == board:
                return True
    return False


def occurs_by_enumeration(rules: Rules, graphs: Sequence[Graph], progress: Progress = None) -> Verdict:
    """Over every game prefix (enumerated one by one), the boards that occur are exactly the
    well-formed boards."""

    def test(graph):
        """None if the statement holds here, else a Counterexample."""
        seen: dict[tuple, tuple] = {}
        for moves, states in game_prefixes(graph, rules):
            seen.setdefault(states[-1].board, moves)
        for b in all_boards(graph):
            formed = well_formed(graph, b, rules.reaches)
            if (b in seen) != formed:
                what = (
                    "occurs in a game but is not well-formed" if b in seen else "is well-formed but occurs in no game"
                )
                return Counterexample(graph, b, f"this board {what}", seen.get(b))
        return None

    return first_failure(graphs, test, progress)


def prefix_count(rules: Rules, graphs: Sequence[Graph]) -> int:
    """How many game prefixes the enumeration visits on these graphs."""
    return sum(1 for graph in graphs for _ in game_prefixes(graph, rules))


def definedness(rules: Rules, compare_states: bool, graphs: Sequence[Graph], progress: Progress = None) -> Verdict:
    """For every non-final state s_i of every game prefix and every move v: the game may go on
    with v iff v is Pass, or b_i(v) = Empty and the new state (or board) differs from every
    earlier one."""

    def cases():
        """The cases to check, smallest first."""
        for graph in graphs:
            for moves, states in game_prefixes(graph, rules):
                if states[-1].passes < 2:
                    for v in moves_of(graph):
                        yield graph, moves, states, v

    def test(case):
        """None if the statement holds here, else a Counterexample."""
        graph, moves, states, v = case
        s_i = states[-1]
        legal = continues(graph, rules, states, v) is not None
        if v == tt.PASS:
            claimed = True
        elif s_i.board[v] != tt.EMPTY:
            claimed = False
        else:
            s_next = rules.move(graph, s_i, v)
            if compare_states:
                claimed = all(s_next != s_j for s_j in states)
            else:
                claimed = all(s_next.board != s_j.board for s_j in states)
        if legal != claimed:
            said = "states" if compare_states else "boards"
            return Counterexample(
                graph,
                s_i.board,
                f"{s_i.player} to play {v}: comparing {said}, the statement says the move is "
                f"{'defined' if claimed else 'not defined'}, but the game "
                f"{'allows' if legal else 'forbids'} it",
                moves,
                () if v == tt.PASS else (v,),
            )
        return None

    return first_failure(cases(), test, progress)


def step_claim_as_written(graph: Graph, b: tuple, p: tt.Player, v_played, w: int) -> tuple[bool, str]:
    """The one-step theorem read literally, at point w: (changes to Empty?, else b_i(w)).

    One letter v is both the point inspected and the point of b_i' = b_i[v ↦ p], and the
    conditions test b_i where b_i' is meant."""
    q = tt.opponent(p)
    b_prime = tt.update(b, w, p)
    cleared = tt.clear(graph, b_prime, q)
    to_empty = (b[w] == q and not tt.reaches(graph, tt.update(b, w, p), w, tt.EMPTY)) or (
        b[w] == p and b_prime == cleared and not tt.reaches(graph, cleared, w, tt.EMPTY)
    )
    return to_empty, b[w]


def step_boards(graph: Graph, b: tuple, p: tt.Player, v_played) -> tuple[str, tuple, tuple]:
    """(p_i*, b' = b_i[v_i ↦ p_i] (b_i itself on a pass), clear(b', p_i*)): the boards the
    readings of the one-step theorem below speak of."""
    q = tt.opponent(p)
    b_prime = b if v_played == tt.PASS else tt.update(b, v_played, p)
    return q, b_prime, tt.clear(graph, b_prime, q)


def step_claim_separated(graph: Graph, b: tuple, p: tt.Player, v_played, w: int) -> tuple[bool, str]:
    """The one-step theorem with the played point and the inspected point told apart, but
    still testing b_i where b_i' is meant."""
    q, b_prime, cleared = step_boards(graph, b, p, v_played)
    to_empty = (b[w] == q and not tt.reaches(graph, b_prime, w, tt.EMPTY)) or (
        b[w] == p and b_prime == cleared and not tt.reaches(graph, cleared, w, tt.EMPTY)
    )
    return to_empty, b[w]


def step_claim_corrected(graph: Graph, b: tuple, p: tt.Player, v_played, w: int) -> tuple[bool, str]:
    """The corrected one-step theorem (the source's displayed formula, completed): with
    b' = b_i[v_i ↦ p_i] and b'' = clear(b', p_i*), point w becomes Empty iff
    b'(w) = p_i* and ¬reaches(b', w, Empty), or b''(w) = p_i and ¬reaches(b'', w, Empty);
    otherwise it keeps b'(w)."""
    q, b_prime, cleared = step_boards(graph, b, p, v_played)
    to_empty = (b_prime[w] == q and not tt.reaches(graph, b_prime, w, tt.EMPTY)) or (
        cleared[w] == p and not tt.reaches(graph, cleared, w, tt.EMPTY)
    )
    return to_empty, b_prime[w]


def step_claim_no_capture_condition(graph: Graph, b: tuple, p: tt.Player, v_played, w: int) -> tuple[bool, str]:
    """The corrected one-step theorem, keeping the source's condition b_i' = clear(b_i', p_i*)
    on the removal of p_i's own stones (own stones go only when nothing was captured)."""
    q, b_prime, cleared = step_boards(graph, b, p, v_played)
    to_empty = (b_prime[w] == q and not tt.reaches(graph, b_prime, w, tt.EMPTY)) or (
        b_prime[w] == p and b_prime == cleared and not tt.reaches(graph, cleared, w, tt.EMPTY)
    )
    return to_empty, b_prime[w]


def one_step(claim: Callable, graphs: Sequence[Graph], progress: Progress = None) -> Verdict:
    """b_{i+1} is as the claim says, at every point, after every legal move from every
    well-formed board (with either player to move)."""

    def cases():
        """The cases to check, smallest first."""
        for graph, b in well_formed_cases(graphs):
            for p in PLAYERS:
                for v in moves_of(graph):
                    if v == tt.PASS or b[v] == tt.EMPTY:
                        yield graph, b, p, v

    def test(case):
        """None if the statement holds here, else a Counterexample."""
        graph, b, p, v = case
        after = tt.move(graph, tt.State(b, p, 0), v).board
        for w in graph.points:
            to_empty, otherwise = claim(graph, b, p, v, w)
            expected = tt.EMPTY if to_empty else otherwise
            if after[w] != expected:
                prefix = witness_game(graph, b)
                if prefix is not None and (len(move_names(graph, prefix)) % 2 == 1) != (p == tt.WHITE):
                    prefix = prefix + (tt.PASS,)
                return Counterexample(
                    graph,
                    b,
                    f"{p} plays {v}: the statement gives b_(i+1)({w}) = {expected!r}, the move gives {after[w]!r}",
                    prefix,
                    () if v == tt.PASS else (v,),
                )
        return None

    return first_failure(cases(), test, progress)


def states_unique(graphs: Sequence[Graph], progress: Progress = None) -> Verdict:
    """Conditions 1 and 3.1 fix the states: s₀ is given, and move returns the same one state
    each time it is asked about the same state and move — checked on the last step of every
    prefix enumerated (so, by induction, on every step)."""

    def cases():
        """The cases to check, smallest first."""
        for graph in graphs:
            for moves, states in game_prefixes(graph, CORRECTED):
                yield graph, moves, states

    def test(case):
        """None if the statement holds here, else a Counterexample."""
        graph, moves, states = case
        if not moves:
            fits = states == (tt.initial_state(graph),)
        else:
            fits = tt.move(graph, states[-2], moves[-1]) == states[-1]
        if not fits:
            return Counterexample(graph, states[-1].board, "two state sequences fit", moves)
        return None

    return first_failure(cases(), test, progress)


def winner_of_the_set(graphs: Sequence[Graph], progress: Progress = None) -> Verdict:
    """winner(G), read literally, is one value for the whole set G of games: every game would
    have the same winner."""

    def test(graph):
        """None if the statement holds here, else a Counterexample."""
        outcomes: dict[str, tuple] = {}
        for moves, states in game_prefixes(graph, CORRECTED):
            if states[-1].passes == 2:
                outcomes.setdefault(tt.winner(graph, moves), moves)
        if len(outcomes) > 1:
            (first, g1), (second, g2) = sorted(outcomes.items(), key=lambda kv: len(kv[1]))[:2]
            return Counterexample(
                graph,
                tt.game(graph, g2)[-1].board,
                f"two games with different winners: {', '.join(move_names(graph, g1))} gives "
                f"{first}; {', '.join(move_names(graph, g2))} gives {second}",
                g2,
            )
        return None

    return first_failure(graphs, test, progress)


def winner_of_each_game(graphs: Sequence[Graph], longest: int = 5, progress: Progress = None) -> Verdict:
    """winner(g) is defined exactly on the games g: on every move list up to ``longest`` moves."""

    def cases():
        """The cases to check, smallest first."""
        for graph in graphs:
            for length in range(longest + 1):
                for moves in itertools.product(moves_of(graph), repeat=length):
                    yield graph, moves

    def test(case):
        """None if the statement holds here, else a Counterexample."""
        graph, moves = case
        is_game = tt.game(graph, moves) is not None
        if (tt.winner(graph, moves) is not None) != is_game:
            return Counterexample(graph, tt.initial_state(graph).board, "winner(g) defined off G", moves)
        return None

    return first_failure(cases(), test, progress)
