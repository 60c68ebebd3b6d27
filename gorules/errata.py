"""The exhaustive errata checker: which statements of the source hold as written, which as corrected.

Every definition of ``002_8835c2492dce8849.txt`` that has a literal reading in
``spec/errata.py`` is compared, as written and as corrected, with an independent reference
written here from Tromp and Taylor's English ("a point P reaches C if there is a path of
points of P's colour from P to a point of colour C"; a player's area is her stones plus the
empty points that reach only her colour): on every board of every small graph.  Every
theorem statement of the source is checked as written and as corrected on every board,
state or game prefix of small graphs, within stated bounds.

A row that holds has been *checked* exhaustively on the graphs it names; that is not a
proof for all graphs.  A row that fails carries the smallest counterexample found
(fewest points, then fewest arcs, then fewest stones), with a game that leads to it.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from gorules.spec import errata as literal
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import Graph, make_graph, parse_graph

COLOURS = (tt.BLACK, tt.WHITE, tt.EMPTY)
PLAYERS = (tt.BLACK, tt.WHITE)


# --------------------------------------------------------------------------- graphs


@dataclass(frozen=True)
class Bounds:
    """How far the checker searches: graph sizes for boards, states and game prefixes."""

    atlas_points: int = 5  # every graph of networkx's atlas with at most this many points
    grids: tuple[str, ...] = ("grid:2x3",)  # grids checked on every board
    digraph_points: int = 3  # every digraph without isolated points up to this size
    state_points: int = 4  # graphs whose reachable states are searched (theorems)
    state_grids: tuple[str, ...] = ("grid:2x3",)
    prefix_points: int = 3  # graphs whose game prefixes are enumerated one by one


QUICK = Bounds()
THOROUGH = Bounds(grids=("grid:2x3", "grid:3x3"), state_points=5, state_grids=("grid:2x3", "grid:2x4"))


@lru_cache(maxsize=None)
def atlas_graphs(max_points: int) -> tuple[Graph, ...]:
    """Every graph of networkx's graph atlas with 1 to ``max_points`` points (one per class)."""
    import networkx as nx

    found = []
    for index, g in enumerate(nx.graph_atlas_g()):
        if 1 <= g.number_of_nodes() <= max_points:
            found.append(familiar_name(parse_graph(f"atlas:{index}")))
    return tuple(found)


def familiar_name(graph: Graph) -> Graph:
    """The same graph under a familiar name (path:N, cycle:N, complete:N, star:K) when its
    points are numbered as that name numbers them; otherwise unchanged."""
    import dataclasses

    n = graph.order
    candidates = [f"path:{n}", f"complete:{n}", f"star:{n - 1}" if n > 1 else "path:1"]
    if n >= 3:
        candidates.append(f"cycle:{n}")
    for name in candidates:
        named = parse_graph(name)
        if named.neighbours == graph.neighbours:
            return dataclasses.replace(graph, name=name)
    return graph


@lru_cache(maxsize=None)
def small_digraphs(max_points: int) -> tuple[Graph, ...]:
    """Every directed graph on 2..max_points points with no isolated point and at least one
    one-way arc, one per isomorphism class."""
    import networkx as nx

    found: list[Graph] = []
    seen: list = []
    for n in range(2, max_points + 1):
        pairs = [(a, b) for a in range(n) for b in range(n) if a != b]
        for chosen in itertools.product((0, 1), repeat=len(pairs)):
            arcs = [pair for pair, bit in zip(pairs, chosen) if bit]
            touched = {x for arc in arcs for x in arc}
            if len(touched) < n or all((b, a) in arcs for a, b in arcs):
                continue
            g = nx.DiGraph(arcs)
            if any(nx.is_isomorphic(g, h) for h in seen):
                continue
            seen.append(g)
            name = "digraph:" + ",".join(f"{a}>{b}" for a, b in arcs)
            found.append(make_graph(n, arcs, name, directed=True))
    return tuple(found)


def by_size(graphs: Iterable[Graph]) -> list[Graph]:
    """Graphs from smallest to largest: fewer points, then fewer arcs."""
    return sorted(graphs, key=lambda g: (g.order, len(g.edges()), g.directed))


def board_graphs(bounds: Bounds) -> list[Graph]:
    """The graphs on which definitions are compared on every board."""
    return by_size(
        list(atlas_graphs(bounds.atlas_points))
        + [parse_graph(name) for name in bounds.grids]
        + list(small_digraphs(bounds.digraph_points))
    )


def state_graphs(bounds: Bounds) -> list[Graph]:
    """The graphs on which theorems are checked on every reachable state."""
    return by_size(
        list(atlas_graphs(bounds.state_points))
        + [parse_graph(name) for name in bounds.state_grids]
        + list(small_digraphs(bounds.digraph_points))
    )


def prefix_graphs(bounds: Bounds) -> list[Graph]:
    """The graphs on which every game prefix is enumerated."""
    return by_size(list(atlas_graphs(bounds.prefix_points)) + list(small_digraphs(min(bounds.prefix_points, 3))))


def all_boards(graph: Graph) -> list[tuple]:
    """Every board of a graph, fewest stones first."""
    boards = itertools.product(COLOURS, repeat=graph.order)
    return sorted(boards, key=lambda b: (sum(c != tt.EMPTY for c in b), b[::-1]))


def describe(graph: Graph) -> str:
    """A graph's name, with its arcs when the name alone does not show them."""
    if graph.name.startswith("atlas:"):
        arcs = ",".join(f"{a}-{b}" for a, b in graph.edges()) or "no edges"
        points = "1 point" if graph.order == 1 else f"{graph.order} points"
        return f"{graph.name} ({points}: {arcs})"
    return graph.name


# --------------------------------------------------------------------------- the reference


@lru_cache(maxsize=1 << 16)
def same_colour_region(graph: Graph, b: Sequence[str], v: int) -> set[int]:
    """The points a path from v through points of v's colour can visit (along arcs)."""
    seen = {v}
    queue = deque([v])
    while queue:
        u = queue.popleft()
        for w in graph.neighbours[u]:
            if w not in seen and b[w] == b[v]:
                seen.add(w)
                queue.append(w)
    return seen


def reference_reaches(graph: Graph, b: Sequence[str], v: int, c: str) -> bool:
    """P reaches C: a path of points of P's colour leads from P to a point of colour C."""
    region = same_colour_region(graph, tuple(b), v)
    return any(b[u] == c or any(b[w] == c for w in graph.neighbours[u]) for u in region)


def reference_clear(graph: Graph, b: Sequence[str], p: str) -> tuple:
    """b without the stones of p whose chain has no liberty."""
    return tuple(tt.EMPTY if b[v] == p and not reference_reaches(graph, b, v, tt.EMPTY) else b[v] for v in graph.points)


def reference_move(graph: Graph, s: tt.State, v) -> tt.State | None:
    """Tromp–Taylor's step: pass, or place a stone, remove opponent stones that do not reach
    empty, then own stones that do not reach empty; ⊥ on an occupied point."""
    b, p, n = s
    if v == tt.PASS:
        return tt.State(b, tt.opponent(p), n + 1)
    if b[v] != tt.EMPTY:
        return None
    placed = tuple(p if u == v else b[u] for u in graph.points)
    return tt.State(reference_clear(graph, reference_clear(graph, placed, tt.opponent(p)), p), tt.opponent(p), 0)


def reference_score(graph: Graph, b: Sequence[str], p: str) -> int:
    """Area score by flood fill: p's stones, plus empty points whose empty region borders only p."""
    total = 0
    for v in graph.points:
        if b[v] == p:
            total += 1
        elif b[v] == tt.EMPTY:
            region = same_colour_region(graph, b, v)
            bordering = {b[w] for u in region for w in graph.neighbours[u]} - {tt.EMPTY}
            total += bordering == {p}
    return total


def well_formed(graph: Graph, b: Sequence[str], reaches: Callable) -> bool:
    """The source's well-formedness: reaches(b, v, Empty) for every point v."""
    return all(reaches(graph, b, v, tt.EMPTY) for v in graph.points)


# --------------------------------------------------------------------------- rules as data


@dataclass(frozen=True)
class Rules:
    """A reading of the source's definitions: the move and reaches it uses."""

    name: str
    move: Callable
    reaches: Callable


AS_WRITTEN = Rules("as written", literal.move_as_written, literal.reaches_as_written)
CORRECTED = Rules("corrected", tt.move, tt.reaches)


def continues(graph: Graph, rules: Rules, history: Sequence[tt.State], v) -> tt.State | None:
    """The state after v if a game prefix with these states may go on with v (rules 3.1–3.3
    of the source's game), else None."""
    s = history[-1]
    if s.passes >= 2:
        return None
    s_next = rules.move(graph, s, v)
    if s_next is None:
        return None
    if v != tt.PASS and any(s_next.board == earlier.board for earlier in history):
        return None
    return s_next


def moves_of(graph: Graph) -> list:
    """Every move on a graph: Pass and each point."""
    return [tt.PASS, *graph.points]


def game_prefixes(graph: Graph, rules: Rules) -> Iterator[tuple[tuple, tuple]]:
    """Every game prefix (moves, states) on a graph, depth first; a prefix with two closing
    passes is a whole game."""
    stack = [((), (tt.initial_state(graph),))]
    while stack:
        moves, states = stack.pop()
        yield moves, states
        for v in moves_of(graph):
            s_next = continues(graph, rules, states, v)
            if s_next is not None:
                stack.append((moves + (v,), states + (s_next,)))


def reachable_states(graph: Graph, rules: Rules) -> dict[tt.State, tuple]:
    """Every state reachable from s₀ by moves that obey rules 3.1 and 3.3 (not the no-repeat
    rule 3.2, so this over-approximates the states of games), each with a shortest move list."""
    start = tt.initial_state(graph)
    found = {start: ()}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        if s.passes >= 2:
            continue
        for v in moves_of(graph):
            s_next = rules.move(graph, s, v)
            if s_next is not None and s_next not in found:
                found[s_next] = found[s] + (v,)
                queue.append(s_next)
    return found


def witness_game(graph: Graph, board: Sequence[str]) -> tuple | None:
    """A game prefix (moves) under the corrected rules whose last board is ``board``: the
    stones of each chain placed outward from a liberty, passes keeping colours alternate.
    None if the board is not well-formed."""
    board = tuple(board)
    if not well_formed(graph, board, reference_reaches):
        return None
    order = []
    placed: set[int] = set()
    frontier = deque(
        v for v in graph.points if board[v] != tt.EMPTY and any(board[w] == tt.EMPTY for w in graph.neighbours[v])
    )
    placed.update(frontier)
    while frontier:
        v = frontier.popleft()
        order.append(v)
        for u in graph.points:
            if u not in placed and board[u] == board[v] and v in graph.neighbours[u]:
                placed.add(u)
                frontier.append(u)
    moves: list = []
    to_move = tt.BLACK
    for v in order:
        if board[v] != to_move:
            moves.append(tt.PASS)
            to_move = tt.opponent(to_move)
        moves.append(v)
        to_move = tt.opponent(to_move)
    history = [tt.initial_state(graph)]
    for v in moves:
        s_next = continues(graph, CORRECTED, history, v)
        if s_next is None:
            return None
        history.append(s_next)
    return tuple(moves) if history[-1].board == board else None


def move_names(graph: Graph, moves: Sequence, first: str = tt.BLACK) -> list[str]:
    """Moves written as "B 0", "W pass", ..., colours alternating from ``first``."""
    from gorules.spec.graph import point_name

    names = []
    player = first
    for v in moves:
        names.append(f"{player} {'pass' if v == tt.PASS else point_name(graph, v)}")
        player = tt.opponent(player)
    return names


# --------------------------------------------------------------------------- findings


@dataclass
class Counterexample:
    """A board (on a graph) where a statement fails, what goes wrong, and a game leading there."""

    graph: Graph
    board: tuple
    explanation: str
    moves: tuple | None = None
    marks: tuple = ()

    def to_json(self) -> dict:
        """The counterexample as JSON: graph, board string, moves, explanation, diagram."""
        from gorules.pictures import board_text

        return {
            "graph": self.graph.name,
            "board": "".join(self.board),
            "moves": None if self.moves is None else move_names(self.graph, self.moves),
            "explanation": self.explanation,
            "diagram": board_text(self.graph, self.board),
        }

    def text(self) -> str:
        """The counterexample for people: the graph, the board drawn, the moves, what fails."""
        from gorules.pictures import board_text

        lines = [f"on {describe(self.graph)}, board {''.join(self.board)!r}:"]
        lines += ["    " + line for line in board_text(self.graph, self.board).splitlines()]
        if self.moves is not None:
            lines.append("  reached by: " + (", ".join(move_names(self.graph, self.moves)) or "(no moves)"))
        lines.append("  " + self.explanation)
        return "\n".join(lines)


@dataclass
class Verdict:
    """Whether a statement held on everything checked, how much that was, and the first failure."""

    holds: bool
    checked: int
    counterexample: Counterexample | None = None

    @property
    def word(self) -> str:
        """ "holds" or "fails"."""
        return "holds" if self.holds else "fails"


@dataclass
class Finding:
    """One row of the errata table."""

    key: str
    statement: str
    as_written: Verdict
    corrected: Verdict
    checked: str
    note: str = ""

    def to_json(self) -> dict:
        """The row as JSON."""
        return {
            "key": self.key,
            "statement": self.statement,
            "as_written": self.as_written.word,
            "corrected": self.corrected.word,
            "counterexample": (self.as_written.counterexample or self.corrected.counterexample).to_json()
            if (self.as_written.counterexample or self.corrected.counterexample)
            else None,
            "checked": self.checked,
            "note": self.note,
        }


PROGRESS: list[Callable[[int], object]] = []  # callbacks told how many cases were checked


def first_failure(cases: Iterable, test: Callable) -> Verdict:
    """Run ``test`` over the cases in order; it returns None when a case passes or a
    Counterexample when it fails.  Stops at the first failure."""
    count = 0
    for case in cases:
        count += 1
        if count % 256 == 0:
            for tell in PROGRESS:
                tell(256)
        found = test(case)
        if found is not None:
            return Verdict(False, count, found)
    return Verdict(True, count)


def with_game(graph: Graph, board: tuple, explanation: str, marks=()) -> Counterexample:
    """A counterexample on a board, with a game leading to it when there is one."""
    return Counterexample(graph, board, explanation, witness_game(graph, board), tuple(marks))


def board_cases(graphs: Sequence[Graph]) -> Iterator[tuple[Graph, tuple]]:
    """(graph, board) for every board of every graph, smallest first."""
    for graph in graphs:
        for b in all_boards(graph):
            yield graph, b


def well_formed_cases(graphs: Sequence[Graph]) -> Iterator[tuple[Graph, tuple]]:
    """(graph, board) for every well-formed board of every graph, smallest first."""
    for graph, b in board_cases(graphs):
        if well_formed(graph, b, reference_reaches):
            yield graph, b


# --------------------------------------------------------------------------- definitions


def reaches_against_reference(reaches: Callable, graphs: Sequence[Graph]) -> Verdict:
    """reaches(b, v, c) agrees with the reference on every board, point and colour."""

    def test(case):
        """None if the statement holds here, else a Counterexample."""
        graph, b = case
        for v in graph.points:
            for c in COLOURS:
                got, want = reaches(graph, b, v, c), reference_reaches(graph, b, v, c)
                if got != want:
                    return with_game(
                        graph,
                        b,
                        f"reaches(b, {v}, {c!r}) is {got}, but a path of {b[v]!r} points from {v} "
                        f"{'does' if want else 'does not'} lead to a {c!r} point",
                        [v],
                    )
        return None

    return first_failure(board_cases(graphs), test)


def clear_against_reference(clear: Callable, graphs: Sequence[Graph]) -> Verdict:
    """clear(b, p) removes exactly the stones of p whose chain has no liberty."""

    def test(case):
        """None if the statement holds here, else a Counterexample."""
        graph, b = case
        for p in PLAYERS:
            got, want = clear(graph, b, p), reference_clear(graph, b, p)
            if got != want:
                return with_game(
                    graph,
                    b,
                    f"clear(b, {p!r}) gives {''.join(got)!r}; removing the {p} chains without "
                    f"a liberty gives {''.join(want)!r}",
                )
        return None

    return first_failure(board_cases(graphs), test)


def move_against_reference(move: Callable, graphs: Sequence[Graph]) -> Verdict:
    """move(s, v) agrees with Tromp–Taylor's step on every well-formed board, player and move."""

    def test(case):
        """None if the statement holds here, else a Counterexample."""
        graph, b = case
        for p in PLAYERS:
            s = tt.State(b, p, 0)
            for v in moves_of(graph):
                got, want = move(graph, s, v), reference_move(graph, s, v)
                if got != want:
                    shown = lambda r: "⊥" if r is None else "".join(r.board)  # noqa: E731
                    return with_game(
                        graph,
                        b,
                        f"{p} plays {v}: move gives board {shown(got)!r}, Tromp–Taylor's step gives {shown(want)!r}",
                        [] if v == tt.PASS else [v],
                    )
        return None

    return first_failure(well_formed_cases(graphs), test)


def score_against_reference(score: Callable, graphs: Sequence[Graph]) -> Verdict:
    """score(b, p) agrees with area scoring by flood fill on every board and player."""

    def test(case):
        """None if the statement holds here, else a Counterexample."""
        graph, b = case
        for p in PLAYERS:
            got, want = score(graph, b, p), reference_score(graph, b, p)
            if got != want:
                return with_game(graph, b, f"score(b, {p!r}) is {got}; {p}'s stones and area number {want}")
        return None

    return first_failure(well_formed_cases(graphs), test)


def fixed_points(graph: Graph, b: tuple, c: str, step: Callable) -> tuple[frozenset, frozenset]:
    """The least and greatest sets R with R = step(R), by iteration from ∅ and from all points."""
    results = []
    for start in (frozenset(), frozenset(graph.points)):
        R = start
        while True:
            R_next = step(R)
            if R_next == R:
                break
            R = R_next
        results.append(R)
    return results[0], results[1]


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


def equation_has_one_solution(as_written: bool, graphs: Sequence[Graph]) -> Verdict:
    """reaches's equation, read as a definition with no index, has exactly one solution."""

    def test(case):
        """None if the statement holds here, else a Counterexample."""
        graph, b = case
        for c in COLOURS:
            least, greatest = fixed_points(graph, b, c, equation_step(graph, b, c, as_written))
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

    return first_failure(board_cases(graphs), test)


def indexed_reaches(graph: Graph, b: tuple, v: int, c: str, n: int) -> bool:
    """reaches_n(b, v, c): a path of at most n steps through v's colour ends at colour c."""
    if b[v] == c:
        return True
    if n == 0:
        return False
    return any(b[w] in (b[v], c) and indexed_reaches(graph, b, w, c, n - 1) for w in graph.neighbours[v])


def indexed_equation_is_least_solution(graphs: Sequence[Graph]) -> Verdict:
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

    return first_failure(board_cases(graphs), test)


# --------------------------------------------------------------------------- theorems


def occurs_versus_well_formed(rules: Rules, graphs: Sequence[Graph]) -> Verdict:
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

    return first_failure(graphs, test)


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


def occurs_by_enumeration(rules: Rules, graphs: Sequence[Graph]) -> Verdict:
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

    return first_failure(graphs, test)


def prefix_count(rules: Rules, graphs: Sequence[Graph]) -> int:
    """How many game prefixes the enumeration visits on these graphs."""
    return sum(1 for graph in graphs for _ in game_prefixes(graph, rules))


def definedness(rules: Rules, compare_states: bool, graphs: Sequence[Graph]) -> Verdict:
    """For every non-final state s_i of every game prefix and every move v: the game may go on
    with v iff v is Pass, or b_i(v) = Empty and the new state (or board) differs from every
    earlier one."""
    counter = [0]

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
        counter[0] += 1
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

    return first_failure(cases(), test)


def step_claim_as_written(graph: Graph, b: tuple, p: str, v_played, w: int) -> tuple[bool, str]:
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


def step_claim_separated(graph: Graph, b: tuple, p: str, v_played, w: int) -> tuple[bool, str]:
    """The one-step theorem with the played point and the inspected point told apart, but
    still testing b_i where b_i' is meant."""
    q = tt.opponent(p)
    b_prime = b if v_played == tt.PASS else tt.update(b, v_played, p)
    cleared = tt.clear(graph, b_prime, q)
    to_empty = (b[w] == q and not tt.reaches(graph, b_prime, w, tt.EMPTY)) or (
        b[w] == p and b_prime == cleared and not tt.reaches(graph, cleared, w, tt.EMPTY)
    )
    return to_empty, b[w]


def step_claim_corrected(graph: Graph, b: tuple, p: str, v_played, w: int) -> tuple[bool, str]:
    """The corrected one-step theorem (the source's displayed formula, completed): with
    b' = b_i[v_i ↦ p_i] and b'' = clear(b', p_i*), point w becomes Empty iff
    b'(w) = p_i* and ¬reaches(b', w, Empty), or b''(w) = p_i and ¬reaches(b'', w, Empty);
    otherwise it keeps b'(w)."""
    q = tt.opponent(p)
    b_prime = b if v_played == tt.PASS else tt.update(b, v_played, p)
    cleared = tt.clear(graph, b_prime, q)
    to_empty = (b_prime[w] == q and not tt.reaches(graph, b_prime, w, tt.EMPTY)) or (
        cleared[w] == p and not tt.reaches(graph, cleared, w, tt.EMPTY)
    )
    return to_empty, b_prime[w]


def step_claim_no_capture_condition(graph: Graph, b: tuple, p: str, v_played, w: int) -> tuple[bool, str]:
    """The corrected one-step theorem, keeping the source's condition b_i' = clear(b_i', p_i*)
    on the removal of p_i's own stones (own stones go only when nothing was captured)."""
    q = tt.opponent(p)
    b_prime = b if v_played == tt.PASS else tt.update(b, v_played, p)
    cleared = tt.clear(graph, b_prime, q)
    to_empty = (b_prime[w] == q and not tt.reaches(graph, b_prime, w, tt.EMPTY)) or (
        b_prime[w] == p and b_prime == cleared and not tt.reaches(graph, cleared, w, tt.EMPTY)
    )
    return to_empty, b_prime[w]


def one_step(claim: Callable, graphs: Sequence[Graph]) -> Verdict:
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

    return first_failure(cases(), test)


def states_unique(graphs: Sequence[Graph]) -> Verdict:
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

    return first_failure(cases(), test)


def winner_of_the_set(graphs: Sequence[Graph]) -> Verdict:
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

    return first_failure(graphs, test)


def winner_of_each_game(graphs: Sequence[Graph], longest: int = 5) -> Verdict:
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

    return first_failure(cases(), test)


# --------------------------------------------------------------------------- the table


def graph_summary(graphs: Sequence[Graph]) -> str:
    """A short account of a list of graphs: how many, and of how many points at most."""
    undirected = [g for g in graphs if not g.directed]
    directed = [g for g in graphs if g.directed]
    grids = [g.name for g in undirected if g.is_grid]
    atlas = [g for g in undirected if not g.is_grid]
    parts = []
    if atlas:
        parts.append(f"all {len(atlas)} graphs of ≤{max(g.order for g in atlas)} points")
    if grids:
        parts.append(", ".join(grids))
    if directed:
        parts.append(f"all {len(directed)} digraphs of ≤{max(g.order for g in directed)} points")
    return "; ".join(parts)


@lru_cache(maxsize=None)
def scope(bounds: Bounds) -> dict:
    """The graphs of each kind of check, and how much each kind covers (computed once)."""
    graphs = board_graphs(bounds)
    states = state_graphs(bounds)
    prefixes = prefix_graphs(bounds)
    return {
        "boards": graphs,
        "small": [g for g in graphs if g.order <= 4],
        "states": states,
        "prefixes": prefixes,
        "n_boards": sum(3**g.order for g in graphs),
        "n_well_formed": sum(1 for _ in well_formed_cases(graphs)),
        "n_state_boards": sum(1 for _ in well_formed_cases(states)),
    }


@lru_cache(maxsize=None)
def prefixes_enumerated(bounds: Bounds, rules_name: str) -> int:
    """How many game prefixes the enumeration visits, under the corrected or literal rules."""
    rules = CORRECTED if rules_name == CORRECTED.name else AS_WRITTEN
    return prefix_count(rules, scope(bounds)["prefixes"])


def on_every_board(bounds: Bounds, what: str) -> str:
    """'every board (N) of <graphs>, <what>'."""
    k = scope(bounds)
    return f"every board ({k['n_boards']}) of {graph_summary(k['boards'])}, {what}"


def on_well_formed_boards(bounds: Bounds, what: str) -> str:
    """'every well-formed board (N) of <graphs>, <what>'."""
    k = scope(bounds)
    return f"every well-formed board ({k['n_well_formed']}) of {graph_summary(k['boards'])}, {what}"


def reaches_row(bounds: Bounds) -> Finding:
    """reaches, as written and corrected, against breadth-first search."""
    graphs = scope(bounds)["boards"]
    return Finding(
        "reaches",
        "reaches(b, v, c) = (b(v) = c) ∨ ∃v'. v ↔ v' ∧ b(v) = b(v') ∧ reaches(b, v', c)",
        reaches_against_reference(literal.reaches_as_written, graphs),
        reaches_against_reference(tt.reaches, graphs),
        on_every_board(bounds, "every point and colour, against breadth-first search"),
        "as written every step stays on v's colour, so reaches(b, v, c) holds iff b(v) = c: "
        "no stone reaches Empty; corrected: the last step may land on colour c",
    )


def fixed_point_row(bounds: Bounds) -> Finding:
    """reaches's equation without an index: one solution or several?"""
    small = scope(bounds)["small"]
    return Finding(
        "reaches-fixed-point",
        "reaches defined by its recursive equation alone (the stray 'for n ≥ 1')",
        equation_has_one_solution(True, small),
        indexed_equation_is_least_solution(small),
        f"every board ({sum(3**g.order for g in small)}) of {graph_summary(small)}, every colour: "
        "least and greatest solutions compared; corrected: reaches_n with n = |Point| against the spec",
        "the equation has several solutions; the intended one is the least (a path of finite "
        "length n ≥ 1), which the index n would have fixed",
    )


def clear_row(bounds: Bounds) -> Finding:
    """clear, as written and corrected, against removal of chains without a liberty."""
    graphs = scope(bounds)["boards"]
    return Finding(
        "clear",
        "clear(b, p)(v) = Empty if b(v) = p ∧ ¬reaches(b, v, Empty), else b(v)",
        clear_against_reference(literal.clear_as_written, graphs),
        clear_against_reference(tt.clear, graphs),
        on_every_board(bounds, "both players, against removal of chains without a liberty"),
        "the definition is right; as written it inherits reaches's fault and removes every stone of p",
    )


def move_row(bounds: Bounds) -> Finding:
    """move, as written and corrected, against Tromp–Taylor's step."""
    graphs = scope(bounds)["boards"]
    return Finding(
        "move",
        "move((b, p, n), v) with b' = clear(clear(b[v ↦ p], p*), p)",
        move_against_reference(literal.move_as_written, graphs),
        move_against_reference(tt.move, graphs),
        on_well_formed_boards(bounds, "both players, every move, against Tromp–Taylor's step"),
        "the definition is right; as written it inherits reaches's fault and no stone survives",
    )


def score_row(bounds: Bounds) -> Finding:
    """score, as written and corrected, against area scoring by flood fill."""
    graphs = scope(bounds)["boards"]
    return Finding(
        "score",
        "score(b, p) = |{v : b(v) = p ∨ (b(v) = Empty ∧ reaches(b, p, v) ∧ ¬reaches(b, p*, v))}|",
        score_against_reference(literal.score_as_written, graphs),
        score_against_reference(tt.score, graphs),
        on_well_formed_boards(bounds, "both players, against area scoring by flood fill"),
        "reaches(b, p, v) swaps point and colour; read literally it never holds and the score "
        "counts stones only; corrected: reaches(b, v, p) ∧ ¬reaches(b, v, p*)",
    )


def well_formed_row(bounds: Bounds) -> Finding:
    """b occurs in some game iff b is well-formed, as written and corrected."""
    k = scope(bounds)
    states, prefixes = k["states"], k["prefixes"]
    return Finding(
        "well-formed-iff-occurs",
        "b occurs in some game g iff b is well-formed (reaches(b, v, Empty) for all v)",
        combine(occurs_versus_well_formed(AS_WRITTEN, states), occurs_by_enumeration(AS_WRITTEN, prefixes)),
        combine(occurs_versus_well_formed(CORRECTED, states), occurs_by_enumeration(CORRECTED, prefixes)),
        f"every board of {graph_summary(states)} (occurrence decided by reachable states "
        f"and a replayed game); every game prefix of {graph_summary(prefixes)} enumerated "
        f"({prefixes_enumerated(bounds, CORRECTED.name)} prefixes corrected, "
        f"{prefixes_enumerated(bounds, AS_WRITTEN.name)} as written)",
        "holds as written only vacuously: with reaches as written the only well-formed board is "
        "the empty one, and with move as written the only board in any game is the empty one",
    )


def definedness_row(bounds: Bounds) -> Finding:
    """The move-definedness theorem, comparing states (as written) or boards (corrected)."""
    prefixes = scope(bounds)["prefixes"]
    return Finding(
        "move-definedness",
        "s_(i+1) = move(s_i, v) is defined iff v = Pass or b_i(v) = Empty and s_(i+1) ≠ s_j for j ≤ i",
        definedness(CORRECTED, True, prefixes),
        definedness(CORRECTED, False, prefixes),
        f"every non-final state of every game prefix ({prefixes_enumerated(bounds, CORRECTED.name)}) "
        f"of {graph_summary(prefixes)}, every move",
        "the game forbids repeating a board (3.2), the statement compares states, which also "
        "hold the player and the passes; corrected: b_(i+1) ≠ b_j",
    )


def one_step_row(bounds: Bounds) -> Finding:
    """The one-step clearing theorem, as written and as corrected."""
    k = scope(bounds)
    states = k["states"]
    return Finding(
        "one-step-clearing",
        "b_i(v) = b_(i+1)(v) unless b_i(v) = p_i* ∧ ¬reaches(b_i[v ↦ p_i], v, Empty) or "
        "b_i(v) = p_i ∧ b_i' = clear(b_i', p_i*) ∧ ¬reaches(clear(b_i', p_i*), v, Empty)",
        one_step(step_claim_as_written, states),
        one_step(step_claim_corrected, states),
        f"every well-formed board ({k['n_state_boards']}) of {graph_summary(states)}, both players, "
        "every legal move, every point",
        "v is both the played and the inspected point, and b_i stands where b_i' is meant; "
        "with the two points told apart but b_i kept, the statement "
        + one_step(step_claim_separated, states).word
        + "; corrected: the source's displayed formula, b_(i+1)(v) from b_i' = b_i[v_i ↦ p_i]",
    )


def states_unique_row(bounds: Bounds) -> Finding:
    """The remark that conditions 1 and 3.1 make the states unique."""
    prefixes = scope(bounds)["prefixes"]
    verdict = states_unique(prefixes)
    return Finding(
        "states-unique",
        "(1. and 3.1. imply that the states are unique)",
        verdict,
        verdict,
        f"every game prefix ({prefixes_enumerated(bounds, CORRECTED.name)}) of {graph_summary(prefixes)}: "
        "each step recomputed with move",
        "true because move is a (partial) function; nothing to correct",
    )


def winner_row(bounds: Bounds) -> Finding:
    """winner(G) as written (one value for the set of games) and winner(g) as meant."""
    prefixes = scope(bounds)["prefixes"]
    return Finding(
        "winner-of-g",
        "winner(G) = Black | White | Draw by S_p = score(b_N, p)",
        winner_of_the_set(prefixes),
        winner_of_each_game([g for g in prefixes if g.order <= 2]),
        f"every game of {graph_summary(prefixes)}; corrected: every move list of ≤5 moves on graphs of ≤2 points",
        "winner is applied to the set G; meant: winner(g) for each game g, with b_N its final board",
    )


def brief(example: Counterexample) -> str:
    """A counterexample in one line: graph, board, the game leading there, what fails."""
    game = ", ".join(move_names(example.graph, example.moves or ())) or "no moves"
    return f"on {example.graph.name}, board {''.join(example.board)!r} (after {game}), {example.explanation}"


def no_capture_condition_row(bounds: Bounds) -> Finding:
    """The one-step theorem's side condition b_i' = clear(b_i', p_i*): on the undirected graphs
    the source speaks of, and on the directed graphs of source 000."""
    states = scope(bounds)["states"]
    undirected = [g for g in states if not g.directed]
    directed = [g for g in states if g.directed]
    on_digraphs = one_step(step_claim_no_capture_condition, directed)
    if on_digraphs.holds:
        digraph_note = f"it also holds on {graph_summary(directed)}"
    else:
        digraph_note = "on directed graphs (source 000) it fails, a move can capture and be suicide at once: " + brief(
            on_digraphs.counterexample
        )
    return Finding(
        "one-step-no-capture-condition",
        "in the one-step theorem, p_i's own stones go only if b_i' = clear(b_i', p_i*) (nothing captured)",
        one_step(step_claim_no_capture_condition, undirected),
        one_step(step_claim_corrected, states),
        f"every well-formed board of {graph_summary(undirected)}, both players, every legal move; "
        f"corrected (no side condition) also on {graph_summary(directed)}",
        "true on undirected graphs, where a capture always leaves the played stone a liberty; " + digraph_note,
    )


def combine(first: Verdict, second: Verdict) -> Verdict:
    """Two checks of one statement: it holds if both do; the first counterexample found stands."""
    if not first.holds:
        return Verdict(False, first.checked + second.checked, first.counterexample)
    return Verdict(second.holds, first.checked + second.checked, second.counterexample)


ROWS = {
    "reaches": reaches_row,
    "reaches-fixed-point": fixed_point_row,
    "clear": clear_row,
    "move": move_row,
    "score": score_row,
    "well-formed-iff-occurs": well_formed_row,
    "move-definedness": definedness_row,
    "one-step-clearing": one_step_row,
    "one-step-no-capture-condition": no_capture_condition_row,
    "states-unique": states_unique_row,
    "winner-of-g": winner_row,
}


@lru_cache(maxsize=None)
def errata_row(key: str, bounds: Bounds = QUICK) -> Finding:
    """One row of the table, by its key (computed once per bounds)."""
    return ROWS[key](bounds)


def errata_table(bounds: Bounds = QUICK) -> list[Finding]:
    """Every row: the source's definitions, then its theorem statements."""
    return [errata_row(key, bounds) for key in ROWS]
