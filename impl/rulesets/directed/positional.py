"""Strategies positional on the situations less the scores, and the exhaustive search for one
that is reasonable, win-or-draw and lazy (source 000's score-maximising conjecture).

A node of :mod:`gorules.impl.rulesets.directed.full_arena` less its score difference e is
what a score-independent strategy sees (:func:`projection`).  Such a strategy of one side is
one choice, an arc label, per class of the side's nodes that agree but for e
(:class:`Uniform`).  :func:`search` decides whether some choice of this kind is, from a start,

* *good*: every play it allows meets the side's goal (reasonable and win-or-draw), and
* *lazy*: some play it allows reaches an offer from which the side guarantees more than a
  floor c ≥ 0, then ends in a cycle of sustainable nodes where the side's final score is
  the other's plus at most c.

It asks a SAT solver (CaDiCaL, through python-sat) for a choice per class together with a lazy play that the choice
allows (:class:`Encoding`), and checks each strategy proposed against every reply on the
product with the arena (:func:`~gorules.impl.rulesets.directed.arena.check_plan`).  A
strategy that fails the check has a losing play: a path from the start and a set of nodes
visited for ever, on which the side's own nodes belong to a few classes.  Every strategy
that makes the same choices on those classes allows the same play and fails too.  Fewer
classes are often enough: the opponent may win the game in which the side's choices are
fixed on some of them only and free everywhere else (:func:`generalise`, solved by
Zielonka's algorithm), and then it beats every strategy that makes those choices.  The
solver is told never to make them all again (:func:`refutations` finds several such sets
per strategy refuted).  The search ends with a checked good and lazy strategy, or when
the solver finds no choice left, and then no good lazy strategy exists.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, pairwise

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from gorules.impl.rulesets.directed.arena import Plan, attractor, losing_cycle, plays_against, solve
from gorules.impl.rulesets.directed.full_arena import FullArena
from gorules.impl.rulesets.directed.full_game import Condition
from gorules.spec.tromp_taylor import BLACK, WHITE

SITUATIONS = ("offer", "turn", "answer", "reset")
"""The kinds of node at which a player decides; "via" and "sink" nodes have one successor."""


def projection(key: tuple) -> tuple:
    """A node less its score difference: what a score-independent strategy sees."""
    if key[0] in SITUATIONS:
        return key[:4] + key[5:]
    return key


def node_itself(key: tuple) -> tuple:
    """A node as it is, scores included: the classes of a strategy that may read the scores."""
    return key


def target_of(arena: FullArena, v: int, label: tuple) -> int | None:
    """The successor of node v along the arc labelled `label`, or None if v has no such arc."""
    for found, target in arena.arcs(arena.positions[v]):
        if found == label:
            return arena.index[target]
    return None


class Uniform(Plan):
    """A positional strategy that makes the same choice (an arc label) at every node of one
    class (by default a projection), whatever the scores."""

    def __init__(self, arena: FullArena, player: int, choice: dict, key: Callable[[tuple], tuple] = projection):
        self.arena = arena
        self.player = player
        self.choice = choice
        self.key = key

    def step(self, v, memory):
        """The chosen arc's successor at the player's own nodes."""
        if self.arena.owner[v] != self.player:
            return None, None
        label = self.choice.get(self.key(self.arena.positions[v]))
        if label is None:
            return None, self.arena.successors[v][0]
        return None, target_of(self.arena, v, label)


def region_edges(arena: FullArena, region: frozenset, side: int) -> dict:
    """The arcs a play can take inside `side`'s winning region: the side's own choices that
    stay in it, and every choice of the opponent (the region is a trap for the opponent)."""
    return {
        v: [w for w in arena.successors[v] if arena.owner[v] != side or w in region]
        for v in region
        if arena.positions[v][0] != "sink"
    }


def reachable(edges: dict, starts) -> set:
    """The nodes of `edges` reachable from a node of `starts` (the starts included)."""
    seen = set(starts)
    queue = list(seen)
    while queue:
        v = queue.pop()
        for w in edges.get(v, []):
            if w not in seen:
                seen.add(w)
                queue.append(w)
    return seen


def forward(edges: dict, start: int) -> set:
    """The nodes of `edges` reachable from `start`."""
    return reachable(edges, [start])


def backward(edges: dict, targets: set) -> set:
    """The nodes of `edges` from which a node of `targets` is reachable."""
    reverse: dict = {}
    for v, ws in edges.items():
        for w in ws:
            reverse.setdefault(w, []).append(v)
    return reachable(reverse, targets)


@dataclass
class Question:
    """Is there a strategy of `side`, one choice per class of `key`, good from `start` (every
    play it allows meets `good`, the side's goal on the recurring colours) and lazy?
    `better(c)` is the set of nodes from which the side guarantees more than the floor c;
    `floors` the floors c ≥ 0 to try (every relative final score a cycle can have).
    `condition`, Black's side of `good` for Zielonka's algorithm, lets a refuted strategy
    exclude every strategy that shares a few of its choices (:func:`generalise`); without it
    only those that share the choices on its losing play are excluded."""

    arena: FullArena
    side: int
    start: int
    region: frozenset
    good: Callable[[int], bool]
    better: Callable[[Fraction], frozenset]
    floors: list[Fraction]
    key: Callable[[tuple], tuple] = projection
    condition: Condition | None = None


@dataclass
class Found:
    """A good and lazy strategy, with its lazy play: the nodes from the start to the cycle
    (`way`, through the offer `reached`) and the cycle, where the play ends at `floor`."""

    strategy: Uniform
    reached: int
    floor: Fraction
    way: list[int]
    cycle: list[int]


@dataclass
class Search:
    """The answer of :func:`search`, with its sizes: the classes of the side's nodes the
    start can reach inside its region, their choices (arc labels, summed over classes), and
    the strategies proposed and refuted by a losing play, the rounds of loop constraints,
    whether the search finished (found one, or the solver had no choice left), and the clauses
    that excluded the refuted strategies with the classes they name, summed over them."""

    found: Found | None
    classes: int
    choices: int
    refuted: int = 0
    unfounded: int = 0
    finished: bool = False
    excluded: int = 0
    clauses: int = 0


def own(arena: FullArena, v: int, side: int) -> bool:
    """Whether v is a decision of `side`."""
    return arena.owner[v] == side and arena.positions[v][0] in SITUATIONS


def sustainable(arena: FullArena, v: int) -> bool:
    """Whether v carries no unsustainable action and is no sink."""
    return arena.positions[v][0] in SITUATIONS


def relative_tie(arena: FullArena, seen: int, side: int) -> Fraction:
    """The side's final score minus the other's on a play without unsustainable actions whose
    recurring colours are `seen`: ± (e plus the live margin)."""
    n = arena.order
    margin = sum(1 for i in range(n) if not seen & (1 << i)) - sum(1 for i in range(n) if not seen & (1 << (n + i)))
    e = max((e for e, bit in arena.e_bits.items() if seen & bit), default=Fraction(0))
    return e + margin if side == 0 else -(e + margin)


class Encoding:
    """The SAT problem of a :class:`Question`: a choice per class, a set closed under the
    choice that holds the start and inside which the choice keeps the play in the region, and
    a lazy play that the choice allows.

    The lazy play is a path on (node, phase): phase 0 up to an offer of ``better(c)`` for the
    floor c chosen, phase 1 from there, phase 2 on the cycle.  Each node marked on the play
    has exactly one successor on it, the strategy's choice at the side's nodes, and at most
    one predecessor (in phase 2, from phase 2), none for the start: the play from the start
    cannot come back to a node of phases 0 and 1, so it reaches phase 2, and phase 2 is made
    of disjoint cycles.  Every node marked but the start has a predecessor marked.  Its
    nodes are sustainable (no bid, so e is one value).  A point counts as lost to the side
    only if some offer of phase 2 does not hold the side's stone there, and as the other's
    only if every offer of phase 2 holds the other's stone; with these counts the side's
    final score is the other's plus at most c.  What SAT cannot say at once, that every node
    marked is on the play from the start, is added as loop constraints when a model breaks
    it (:meth:`unfounded`): every play of the definition meets them, so none is lost."""

    def __init__(self, question: Question):
        self.q = question
        arena = question.arena
        self.edges = region_edges(arena, question.region, question.side)
        self.reach = forward(self.edges, question.start)
        self.groups: dict = {}
        self.targets: dict[int, dict] = {}
        for v in sorted(self.reach):
            if own(arena, v, question.side):
                self.groups.setdefault(question.key(arena.positions[v]), []).append(v)
                arcs = arena.arcs(arena.positions[v])
                self.targets[v] = {label: arena.index[target] for label, target in reversed(arcs)}
        self.labels = {p: list(self.targets[nodes[0]]) for p, nodes in self.groups.items()}
        self.pool = IDPool()
        self.solver = Solver(name="cadical153")
        self.x = {(p, label): self.pool.id(("x", p, label)) for p, labels in self.labels.items() for label in labels}
        for p, labels in self.labels.items():
            self.exactly_one([self.x[p, label] for label in labels])
        self._closure()
        self.floors = [c for c in question.floors if self._offers(question.better(c))]
        if self.floors:
            self._lazy_play()
        else:
            self.solver.add_clause([])

    def exactly_one(self, literals: list[int]) -> None:
        """Exactly one of `literals` is true."""
        self.solver.add_clause(literals)
        self.at_most_one(literals)

    def at_most_one(self, literals: list[int]) -> None:
        """At most one of `literals` is true."""
        if len(literals) > 1:
            self.solver.append_formula(
                CardEnc.atmost(literals, 1, vpool=self.pool, encoding=EncType.seqcounter).clauses
            )

    def _offers(self, nodes: frozenset) -> set:
        """The offers among `nodes` that the start can reach inside the region."""
        return {v for v in nodes if v in self.reach and self.q.arena.positions[v][0] == "offer"}

    def _closure(self) -> None:
        """r: a set closed under the strategy's arcs that holds the start; the strategy's
        choice at each of its nodes stays in the region."""
        arena, side, add = self.q.arena, self.q.side, self.solver.add_clause
        r = {v: self.pool.id(("r", v)) for v in self.reach}
        add([r[self.q.start]])
        for v in self.reach:
            if own(arena, v, side):
                p = self.q.key(arena.positions[v])
                for label, t in self.targets[v].items():
                    add([-r[v], -self.x[p, label], r[t]] if t in self.q.region else [-r[v], -self.x[p, label]])
            else:
                for w in arena.successors[v]:
                    add([-r[v], r[w]] if w in self.reach else [-r[v]])

    def guard(self, v: int, w: int) -> list[int] | None:
        """The choices of the strategy that step from v to w (None: the opponent's choice, or
        no choice)."""
        if not own(self.q.arena, v, self.q.side):
            return None
        p = self.q.key(self.q.arena.positions[v])
        return [self.x[p, label] for label, t in self.targets[v].items() if t == w]

    def _steps(self) -> dict:
        """(node, phase) -> [(next (node, phase), guard)] of the lazy play's product."""
        arena = self.q.arena
        self.lazy_at = {c: self._offers(self.q.better(c)) for c in self.floors}
        self.z = {c: self.pool.id(("z", c)) for c in self.floors}
        steps: dict = {}
        for v in self.reach:
            arcs = self.edges.get(v, [])
            for phase in (0, 1, 2):
                if phase == 2 and not sustainable(arena, v):
                    continue
                out = [((w, phase), self.guard(v, w)) for w in arcs if phase < 2 or sustainable(arena, w)]
                floors = [self.z[c] for c in self.floors if v in self.lazy_at[c]]
                if phase == 0 and floors:
                    out.append(((v, 1), floors))
                if phase == 1 and sustainable(arena, v):
                    out.append(((v, 2), None))
                steps[v, phase] = out
        return steps

    def _lazy_play(self) -> None:
        """The lazy play's constraints (see the class)."""
        add = self.solver.add_clause
        steps = self._steps()
        self.inside = {u: self.pool.id(("in", u)) for u in steps}
        self.phases: dict = {}
        self.into: dict = {}
        for u, out in steps.items():
            ds = []
            for t, guard in out:
                d = self.pool.id(("d", u, t))
                ds.append(d)
                add([-d, self.inside[u]])
                add([-d, self.inside[t]])
                if guard is not None:
                    add([-d, *guard])
                self.into.setdefault(t, []).append((u, d))
            self.phases[u] = [(t, d) for (t, _), d in zip(out, ds)]
            add([-self.inside[u], *ds])
            self.at_most_one(ds)
        add([self.inside[self.q.start, 0]])
        for t in steps:
            if t != (self.q.start, 0):
                add([-self.inside[t], *(d for _, d in self.into.get(t, []))])
        self.exactly_one(list(self.z.values()))
        for t, sources in self.into.items():
            if t == (self.q.start, 0):
                for _, d in sources:
                    add([-d])
            self.at_most_one([d for u, d in sources if u[1] == 2 or t[1] < 2])
        self._ends_at_most_floor([u[0] for u in steps if u[1] == 2 and self.q.arena.positions[u[0]][0] == "offer"])

    def _ends_at_most_floor(self, offers: list[int]) -> None:
        """The cycle's relative final score (± e plus the live margin) is at most the floor."""
        add, arena, side = self.solver.add_clause, self.q.arena, self.q.side
        mine, theirs = (BLACK, WHITE) if side == 0 else (WHITE, BLACK)
        e_of = {e: self.pool.id(("e", e)) for e in sorted({arena.positions[v][4] for v in offers})}
        self.exactly_one(list(e_of.values()))
        for v in offers:
            add([-self.inside[v, 2], e_of[arena.positions[v][4]]])
        counted = []
        for i in range(arena.order):
            lost, held = self.pool.id(("lost", i)), self.pool.id(("held", i))
            add([-lost, *(self.inside[v, 2] for v in offers if arena.positions[v][1][i] != mine)])
            for v in offers:
                if arena.positions[v][1][i] != theirs:
                    add([-held, -self.inside[v, 2]])
            counted += [lost, held]
        for c in self.floors:
            for e, b in e_of.items():
                need = math.ceil((e if side == 0 else -e) + arena.order - c)
                if need > len(counted):
                    add([-self.z[c], -b])
                for some in combinations(counted, len(counted) - need + 1) if 0 < need <= len(counted) else []:
                    add([-self.z[c], -b, *some])

    def choice(self, true: set) -> dict:
        """The strategy of a model (the set of its true variables): class -> label."""
        return {p: label for (p, label), b in self.x.items() if b in true}

    def play(self, true: set) -> list[tuple[int, int]]:
        """The lazy play of a model as (node, phase), from the start until it repeats."""
        u = (self.q.start, 0)
        order = [u]
        while True:
            u = next(t for t, d in self.phases[u] if d in true)
            if u in order:
                return [*order, u]
            order.append(u)

    def unfounded(self, true: set) -> list[list[int]]:
        """Constraints that the model breaks and every lazy play of the definition meets, or
        [] if the model's lazy play is one: a loop of phases 0 or 1 on the play must be left
        (the play reaches phase 2), and when the play's cycle ends above the floor, the nodes
        marked off the play must be entered from outside them (every node marked is on the
        play).  Nodes marked off the play are left alone otherwise: they only restrict the
        strategy, which is checked as it is."""
        play = self.play(true)
        again = play.index(play[-1])
        found = []
        if play[-1][1] < 2:
            found += self.entered_or_left(set(play[again:-1]), leaving=True)
        elif self.ends_above_floor(play[again:-1], true):
            off = {u for u, b in self.inside.items() if b in true} - set(play)
            found += self.entered_or_left(off, leaving=False)
        return found

    def ends_above_floor(self, cycle: list[tuple[int, int]], true: set) -> bool:
        """Whether the play's cycle ends above the model's floor (nodes of phase 2 off the play
        then met the constraints about the points in its place)."""
        seen = 0
        for v, _ in cycle:
            seen |= self.q.arena.colour[v]
        floor = next(c for c, z in self.z.items() if z in true)
        return relative_tie(self.q.arena, seen, self.q.side) > floor

    def entered_or_left(self, nodes: set, leaving: bool) -> list[list[int]]:
        """For each of `nodes`: marked only if some step leaves the set (`leaving`) or enters
        it from outside."""
        if leaving:
            ways = [d for u in nodes for t, d in self.phases[u] if t not in nodes]
        else:
            ways = [d for t in nodes for u, d in self.into.get(t, []) if u not in nodes]
        return [[-self.inside[u], *ways] for u in nodes]


def losing_play(arena: FullArena, strategy: Uniform, side: int, start: int, good: Callable[[int], bool]) -> list | None:
    """The nodes of a play the strategy allows that does not meet `good`: a path from the start
    to a set of nodes the play can visit for ever, then that set; None if every play meets it."""
    edges, colour = plays_against(arena, strategy, side, start)
    bad = losing_cycle(edges, colour, good)
    if bad is None:
        return None
    first = next(state for state in edges if state[0] == start and state[1] is None)
    inside = {state: [w for w in edges[state] if w in bad] for state in bad}
    carriers = []
    seen = 0
    for state in sorted(bad, key=lambda state: state[0]):
        if colour[state] & ~seen:
            carriers.append(state)
            seen |= colour[state]
    walk = [carriers[0]]
    for target in [*carriers[1:], carriers[0]]:
        walk += path_to(inside, inside[walk[-1]], {target})
    way = path_to(edges, [first], set(walk))
    return [state[0] for state in way + walk]


def path_to(edges: dict, sources: list, targets: set) -> list:
    """A shortest path (its nodes) in `edges` from one of `sources` to one of `targets`."""
    parent: dict = dict.fromkeys(sources)
    queue = list(sources)
    for state in queue:
        if state in targets:
            found = [state]
            while parent[found[-1]] is not None:
                found.append(parent[found[-1]])
            return found[::-1]
        for nxt in edges[state]:
            if nxt not in parent:
                parent[nxt] = state
                queue.append(nxt)
    raise ValueError("no path to the targets")


def search(question: Question, rounds: int | None = None) -> Search:
    """Whether some strategy positional on the classes of `question.key` is good and lazy from
    the start (see the module): the strategy and its lazy play, or None when the solver has
    no choice left; with `rounds`, stopped unfinished after that many calls of the solver."""
    arena, side = question.arena, question.side
    encoding = Encoding(question)
    sizes = Search(None, len(encoding.groups), sum(len(labels) for labels in encoding.labels.values()))
    base = None
    while rounds is None or sizes.refuted + sizes.unfounded < rounds:
        if not encoding.solver.solve():
            sizes.finished = True
            break
        true = {lit for lit in encoding.solver.get_model() if lit > 0}
        unfounded = encoding.unfounded(true)
        if unfounded:
            encoding.solver.append_formula(unfounded)
            sizes.unfounded += 1
            continue
        choice = encoding.choice(true)
        strategy = Uniform(arena, side, choice, question.key)
        losing = losing_play(arena, strategy, side, question.start, question.good)
        if losing is None:
            sizes.found = lazy_found(question, strategy, encoding.play(true))
            sizes.finished = True
            break
        used = list(dict.fromkeys(question.key(arena.positions[v]) for v in losing if own(arena, v, side)))
        clauses = [used]
        if question.condition is not None:
            base = base or region_game(question)
            clauses = refutations(question, question.condition, base, choice, used)
        for used in clauses:
            encoding.solver.add_clause([-encoding.x[p, choice[p]] for p in used])
            sizes.excluded += len(used)
            sizes.clauses += 1
        sizes.refuted += 1
    encoding.solver.delete()
    return sizes


class Fixed:
    """A game graph for Zielonka's algorithm: the arena with some nodes' arcs cut down
    (:meth:`keep`), the rest as in `base`."""

    def __init__(self, base: Fixed | FullArena):
        self.positions: list = base.positions
        self.owner: list[int] = base.owner
        self.colour: list[int] = base.colour
        self.successors: list = list(base.successors)
        self.predecessors: list = list(base.predecessors)

    def keep(self, v: int, kept: tuple) -> None:
        """Node v keeps only its arcs to `kept`."""
        for u in self.successors[v]:
            if u not in kept:
                self.predecessors[u] = tuple(x for x in self.predecessors[u] if x != v)
        self.successors[v] = kept


def region_game(question: Question) -> Fixed:
    """The arena in which the side's arcs that leave its winning region are cut: a win-or-draw
    strategy never takes them where the play can go, since the opponent wins from outside."""
    arena, region = question.arena, question.region
    game = Fixed(arena)
    for v in region:
        if own(arena, v, question.side):
            game.keep(v, tuple(w for w in arena.successors[v] if w in region))
    return game


def fixed_game(base: Fixed, chosen: dict[int, int], region: frozenset) -> Fixed:
    """`base` with the side's choice fixed at the nodes of `chosen`: only the arc chosen is
    kept, and none if it leaves the region."""
    game = Fixed(base)
    for v, w in chosen.items():
        game.keep(v, (w,) if w in region else ())
    return game


def members(question: Question, classes: list) -> dict:
    """The side's nodes of the region in each of `classes` (class -> nodes)."""
    arena = question.arena
    found: dict = {p: [] for p in classes}
    for v in question.region:
        if own(arena, v, question.side) and question.key(arena.positions[v]) in found:
            found[question.key(arena.positions[v])].append(v)
    return found


def chosen_arcs(arena: FullArena, choice: dict, nodes: dict, classes: list) -> dict[int, int]:
    """The arc that `choice` takes at each node of `classes` (`nodes`: class -> its nodes), as
    node -> successor, wherever the arena has that arc."""
    chosen = {}
    for p in classes:
        for v in nodes[p]:
            w = target_of(arena, v, choice[p])
            if w is not None:
                chosen[v] = w
    return chosen


def playable(game: Fixed, start: int) -> set:
    """The nodes of `game` reachable from `start`."""
    seen = {start}
    queue = [start]
    while queue:
        for w in game.successors[queue.pop()]:
            if w not in seen:
                seen.add(w)
                queue.append(w)
    return seen


def beaten(question: Question, condition: Condition, game: Fixed) -> tuple[bool, Plan | None]:
    """Whether the opponent wins `game` from the start (Black's goal `condition`): the side's
    region with the side's choice fixed at some nodes and free elsewhere, any strategy with
    any memory; and the opponent's winning plan when one solve found it.  A node left without
    arcs (its choice leaves the region) is lost for the side, so the opponent's attractor to
    those nodes is taken first, and Zielonka's algorithm solves what is left, where every node
    has an arc."""
    if question.start not in question.region:
        return True, None
    nodes = frozenset(playable(game, question.start))
    stuck = [v for v in nodes if not game.successors[v]]
    lost = attractor(game, nodes, stuck, 1 - question.side)[0]
    if question.start in lost:
        return True, None
    solved = solve(game, condition, nodes - lost, condition.children)
    won = question.start in solved.regions[1 - question.side]
    return won, solved.plans[1 - question.side] if won and not lost else None


def met(question: Question, game: Fixed, plan: Plan) -> set:
    """The side's nodes that a play can meet when the opponent follows `plan` in `game` and the
    side moves as it likes."""
    edges, _ = plays_against(game, plan, 1 - question.side, question.start)
    return {state[0] for state in edges if own(question.arena, state[0], question.side)}


def generalise(question: Question, condition: Condition, base: Fixed, choice: dict, classes: list) -> list:
    """A subset of `classes` on which the strategy's choices alone already lose, where the
    opponent is known to win with the strategy's choices fixed on all of `classes` (the
    classes of a losing play, or those met by a winning plan): each class in turn is set free
    and left out if the opponent still wins (:func:`beaten`).  What is left is a set on which
    it wins, and it beats every strategy that makes those choices (`base`:
    :func:`region_game`).  When the opponent's winning plan is known, the classes whose nodes
    no play of that plan meets are left out at once: against the plan the side never stands
    at them, so the plan wins whatever is chosen there."""
    nodes = members(question, classes)
    kept = list(classes)
    for p in classes:
        if p not in kept:
            continue
        trial = [c for c in kept if c != p]
        game = fixed_game(base, chosen_arcs(question.arena, choice, nodes, trial), question.region)
        won, plan = beaten(question, condition, game)
        if won:
            kept = trial
            if plan is not None:
                seen = met(question, game, plan)
                kept = [c for c in kept if any(v in seen for v in nodes[c])]
    return kept


def refutations(question: Question, condition: Condition, base: Fixed, choice: dict, classes: list) -> list[list]:
    """Sets of classes on each of which the strategy `choice` already loses (:func:`generalise`),
    each found with the classes of the sets before it set free: the first from the classes of
    a losing play; each next one from the classes that the opponent's winning plan meets
    when the strategy's choices are fixed on every class but those already named, as long as
    the opponent still wins there and its plan is known."""
    found = [generalise(question, condition, base, choice, classes)]
    every = list(question_classes(question))
    nodes = members(question, every)
    while True:
        named = {p for kept in found for p in kept}
        rest = [p for p in every if p not in named and p in choice]
        game = fixed_game(base, chosen_arcs(question.arena, choice, nodes, rest), question.region)
        won, plan = beaten(question, condition, game)
        if not won or plan is None:
            return found
        seen = met(question, game, plan)
        kept = generalise(question, condition, base, choice, [p for p in rest if any(v in seen for v in nodes[p])])
        if not kept:
            return [kept]
        found.append(kept)


def question_classes(question: Question) -> dict:
    """The classes of the side's nodes in the region, in the order of their first node."""
    arena = question.arena
    return dict.fromkeys(
        question.key(arena.positions[v]) for v in sorted(question.region) if own(arena, v, question.side)
    )


def lazy_found(question: Question, strategy: Uniform, play: list[tuple[int, int]]) -> Found:
    """The lazy play of a good strategy, checked: each of the side's steps is the strategy's,
    the cycle is sustainable, and the side guarantees more than the cycle's final score at
    the offer where phase 1 begins.  RuntimeError if any of this fails."""
    arena, side = question.arena, question.side
    again = play.index(play[-1])
    way, cycle = distinct(play[:again]), distinct(play[again:-1])
    if way and way[-1] == cycle[0]:
        way.pop()
    walk = [*way, *cycle, cycle[0]]
    for v, w in pairwise(walk):
        if own(arena, v, side) and strategy.step(v, None)[1] != w:
            raise RuntimeError("the lazy play leaves the strategy")
    reached = next(v for v, phase in play if phase == 1)
    seen = 0
    for v in cycle:
        seen |= arena.colour[v]
    floor = relative_tie(arena, seen, side)
    if not all(sustainable(arena, v) for v in cycle) or floor < 0 or reached not in question.better(floor):
        raise RuntimeError("the lazy play found is not lazy")
    return Found(strategy, reached, floor, way, cycle)


def distinct(play: list[tuple[int, int]]) -> list[int]:
    """The nodes of a stretch of (node, phase), a node kept once where only the phase changes."""
    return [v for k, (v, _) in enumerate(play) if k == 0 or play[k - 1][0] != v]
