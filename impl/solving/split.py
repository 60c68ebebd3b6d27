"""A threshold test split over worker processes: a small AND/OR tree on top, df-pn below.

A test "can the player to move force at least t?" that resists the search in one process
is split (PN²-style): the driver keeps an explicit tree of the test's first plies, each
node a test of its own ("can *its* player to move force at least its threshold?", the
threshold of a child being ``1 - t``, negamax), and each leaf of the tree is decided by the
compiled core's df-pn (:meth:`impl.solving.solve.Solver.compiled_dfpn`) from its exact position
and its exact history, within a node budget, by one of ``jobs`` worker processes.  A leaf
still open when its budget runs out gets twice the budget next time; a leaf that has
resisted ``split_expand`` nodes in all is expanded one ply: its legal moves under its
history become its children.  The leaves that have had the fewest nodes go first.

Combination.  A node's player reaches its threshold exactly when one of its moves leaves
the opponent below the opponent's threshold: a node is proved when one child is disproved,
disproved when every child is proved.  The moves of a node are those legal under its
history (the game before the test, and the moves of the path from the test's root: a move
whose position repeats it is no move), folded by the automorphisms that fix every position
of that history, as the search folds them; a child that ends the game (two passes) is
decided by its score.  A leaf's answer is the df-pn kernel's answer at the leaf's position
*with the leaf's history pushed*, so it is the negamax value's relation to the threshold
at exactly that node of the game tree, under positional superko (the history holds the
boards) and situational superko (the boards with the player to move) alike; no answer is
ever used at another node, so the combination is the negamax of the tree's top and exact.
The table of answers, shared by the workers, keeps what earlier leaves proved in any of
them, and an answer is reused only where its history queries hold (H ∩ Q = D,
``impl/kernels/solve.py``) and from a copy its check word confirms.

Turns.  The walk of thresholds gives each direction a share of nodes in turn; a split test
keeps to its turn's share too: no leaf is given more nodes than the share has left, and
once the share is spent and the workers are back the driver raises ``ShareSpent``.  The
tree, with every leaf's answer, nodes and budget, is kept (``Solver.split_trees``) and
goes on at the test's next turn, so that a test that resists does not hold the workers
while the other direction waits.

Workers (:class:`Pool`) are forked from the solving process when the first test is split
(Linux: they inherit its compiled kernels and its tables, so what the root's search proved
is theirs too), share one table of answers with it and with each other from then on
(``SHARE_TABLE``, ``kernels.solve.share``), keep their other arrays (copies on write) from
leaf to leaf and from split to split, and end with the solve; a worker still searching a leaf
whose answer is not wanted (its test has been decided meanwhile) is ended and forked again when
next needed.  The workers of a Dask cluster are the other pool
(:mod:`gorules.impl.solving.split_dask`, ``--scheduler``): each keeps a table of its own, and
the driver, :class:`Split`, is the same for both.
"""

from __future__ import annotations

import multiprocessing
import os
from dataclasses import dataclass, field
from typing import Protocol

from gorules.impl.solving.budget import BudgetSpent
from gorules.impl.solving.stops import ShareSpent, SolveError

SPLIT_AFTER = 1 << 21
"""The nodes a test may take in the solving process before it is split (with ``jobs`` > 1)."""
SPLIT_FIRST = 1 << 18
"""A new leaf's first budget of nodes; doubled each time it comes back open."""
SPLIT_EXPAND = 1 << 23
"""The nodes a leaf may resist in all before it is expanded one ply."""
RESUME = False
"""With this switch a worker is given again the leaf it searched last while that leaf has
had at most twice the nodes of the least searched one, and its df-pn goes on where it
stopped instead of starting again from the leaf.  Off: going on leaves open leaves that
starting again decides on 1×12, and with the table shared (``SHARE_TABLE``) small leaves
stop settling at all: the keys first seen after the fork take the bits of their hashes,
which on long lines meet the bits of the history more often than numbered keys do, and
more answers are refused (docs/solver.md, "Splitting a test over processes" and "One
table shared by the processes, soundly")."""
FRESH_NUMBERS = True
"""A worker empties its table of df-pn numbers (not its decided answers) before each leaf
it does not simply go on with: the numbers of the other leaves and of the root's search
order a leaf's search badly, and leaves that stay open with them are decided with fresh
ones (docs/solver.md, "Splitting a test over processes")."""
LEAF_ORDER = "fewest"
"""Which open leaf a worker searches next: ``"numbers"``, the most-proving leaf of the tree's
proof numbers (PN²: from the root down, always the open child of least disproof number; a
leaf's numbers are its df-pn root's where its last search stopped, 1 and 1 before any),
or ``"fewest"``, the leaf that has had the fewest nodes.  On 1×12 both leave the same
bounds, and taken by their numbers every node of the leaves was needed by the tree's
answers so far (``needed``): the leaves are dear, not badly chosen.  So the default is the
simpler ``"fewest"`` (docs/solver.md, "Splitting a test over processes")."""
SHARE_TABLE = True
"""The solving process and its workers share one table of answers (``kernels.solve.share``):
each reuses what the others proved, where its queries hold under its own history; a row
is reused only from a copy its check word confirms (a row being written by another process
is refused, not read torn), and the numbering of keys is frozen at the first fork so that
an answer's Q means the same keys in every process.  Off: each worker copies the table as
it writes and sees only what it and the root's search before the fork proved."""
MAX_JOBS = 64
"""The most worker processes ``--jobs`` may ask for: each is a fork of the solving process,
its private arrays copied as it writes them (their size: docs/solver.md, "Splitting a
test over processes")."""
WAIT_SECONDS = 0.25
"""How long the driver waits for a worker before it looks at the clock again."""
OR_FOR_AND = 1
"""Mutant for the tests (``Solver.split_mutant``): a node proved only when *every* child is
disproved, disproved as soon as one child is proved (the combination turned round)."""


def fork_available() -> bool:
    """Whether worker processes can be forked here (they are, on Linux and most Unixes)."""
    return "fork" in multiprocessing.get_all_start_methods()


@dataclass
class Node:
    """A test of the explicit tree: the moves from the test's root, the position reached
    (the solver's state tuple), the automorphisms fixing its history, and the threshold
    ``t`` for its player to move; ``answer`` 1 proved, -1 disproved, 0 open."""

    path: tuple
    state: tuple
    group: tuple
    t: int
    parent: Node | None = None
    children: list = field(default_factory=list)
    answer: int = 0
    spent: int = 0
    budget: int = 0
    running: bool = False
    worker: int = -1
    pn: int = 1
    dn: int = 1


def combined(children: list, mutant: int = 0) -> int:
    """A node's answer from its children's: 1 if one is disproved, -1 if all are proved,
    else 0 (with the mutant ``OR_FOR_AND``, the other way round)."""
    answers = [c.answer for c in children]
    if mutant == OR_FOR_AND:
        if 1 in answers:
            return -1
        return 1 if all(a == -1 for a in answers) else 0
    if -1 in answers:
        return 1
    return -1 if all(a == 1 for a in answers) else 0


def needed(node: Node) -> int:
    """The nodes of leaf searches that ``node``'s answer rests on: a proved node needs its
    cheapest disproved child, a disproved or open one all its children, and each node its
    own searches before it was expanded.  What a proved node's other children took was
    spent on moves its answer did not need (the order of the leaves decides how much)."""
    below = [needed(child) for child in node.children]
    if node.answer == 1 and node.children:
        return node.spent + min(n for n, c in zip(below, node.children, strict=True) if c.answer == -1)
    return node.spent + sum(below)


def renumber(node: Node | None) -> None:
    """Recompute the proof numbers of the open nodes from ``node`` up to the root (the
    decided ones are passed over) as df-pn's weak rule does: pn the least dn of the open
    children, dn the largest pn plus one for each other open child."""
    while node is not None:
        if node.answer == 0 and node.children:
            kids = [child for child in node.children if child.answer == 0]
            node.pn = min(child.dn for child in kids)
            node.dn = max(child.pn for child in kids) + len(kids) - 1
        node = node.parent


def most_proving(node: Node) -> Node | None:
    """The most-proving open leaf below ``node`` not being searched: from ``node`` down, the
    open child of least disproof number (then of fewest nodes) that still has such a leaf;
    None if there is none."""
    if node.answer:
        return None
    if not node.children:
        return None if node.running else node
    for child in sorted((c for c in node.children if c.answer == 0), key=lambda c: (c.dn, c.spent)):
        leaf = most_proving(child)
        if leaf is not None:
            return leaf
    return None


def quiet(solver) -> None:
    """Make ``solver`` a worker's: no progress shown, no probe or share of the walk to keep to
    (the driver keeps to them)."""
    solver.progress = None
    solver.probe_until = solver.share_until = None


def decide_leaf(solver, task: tuple, cut: tuple | None) -> tuple:
    """A worker's search of one leaf: ``task`` is (path, t, budget, deadline), the leaf's
    moves from the test's root, its threshold, the nodes it may take and the time by which
    it stops (``time.perf_counter``'s clock, None: none); ``cut`` is the (path, t) of the
    leaf this solver's df-pn stopped on last, None if its last search was decided.  Returns
    the reply (answer, nodes, (pn, dn)), the numbers where an open search stopped, and the
    next ``cut``.  The leaf is decided by df-pn from the test's root along ``path``, its
    history pushed, so the answer holds at exactly that node of the game tree, whichever
    process and table decided it."""
    path, t, budget, deadline = task
    state, group = solver.replay(path)
    if FRESH_NUMBERS and cut != (path, t) and solver.dfpn_state is not None:
        from gorules.impl.kernels.dfpn import forget

        solver.dfpn_state = forget(solver.dfpn_state)
    before = solver.nodes
    solver.max_nodes = before + budget
    solver.next_tick = before + 1
    solver.deadline = deadline
    numbers = (0, 0)
    try:
        answer = solver.compiled_dfpn(state, t, group, going_on=cut == (path, t))
    except BudgetSpent:
        from gorules.impl.kernels.dfpn import root_numbers

        answer = 0
        pn, dn = root_numbers(solver.dfpn_state)
        numbers = (int(pn), int(dn))
    return (answer, solver.nodes - before, numbers), ((path, t) if answer == 0 else None)


def _work(conn, solver) -> None:
    """A forked worker's loop: receive (path, t, budget, deadline), decide the leaf
    (:func:`decide_leaf`), send back its reply; None ends the loop.  The solver is the forked
    copy of the solving process's, its tables kept from leaf to leaf."""
    from gorules.processes import die_with_parent

    die_with_parent()
    quiet(solver)
    cut = None
    while True:
        task = conn.recv()
        if task is None:
            break
        reply, cut = decide_leaf(solver, task, cut)
        conn.send(reply)


class Workers(Protocol):
    """What :class:`Split` asks of a pool of workers, forked (:class:`Pool`) or on a Dask
    cluster (:class:`impl.solving.split_dask.DaskPool`), so that one driver serves both."""

    def slots(self) -> range:
        """The workers' indices, each worker searching one leaf at a time."""
        ...

    def hand(self, index: int, task: tuple) -> None:
        """Give worker ``index`` the leaf ``task`` (path, t, budget, deadline)."""
        ...

    def answers(self, busy: list, seconds: float) -> list:
        """(index, reply) of the busy workers that answer within ``seconds``; a reply is
        (answer, nodes, numbers), or None for a task lost with its workers."""
        ...

    def end(self, index: int) -> None:
        """Drop worker ``index``'s task: its answer is not wanted."""
        ...

    def close(self) -> None:
        """End the pool's work."""
        ...


class Pool:
    """The forked worker processes that split tests share (see the module docstring), a
    pool of :class:`Workers`: ``workers`` holds each worker's process and the driver's end of
    its pipe, None where a worker is to be forked when next needed."""

    def __init__(self, solver, jobs: int):
        """Room for ``jobs`` workers, none forked yet."""
        self.solver = solver
        self.workers: list = [None] * jobs

    def slots(self) -> range:
        """The workers' indices, the missing workers forked from the solving process now."""
        context = multiprocessing.get_context("fork")
        for index, worker in enumerate(self.workers):
            if worker is None:
                mine, theirs = context.Pipe()
                process = context.Process(target=_work, args=(theirs, self.solver), daemon=True)
                process.start()
                theirs.close()
                self.workers[index] = (process, mine)
        return range(len(self.workers))

    def hand(self, index: int, task: tuple) -> None:
        """Give worker ``index`` the leaf ``task`` (path, t, budget, deadline)."""
        self.workers[index][1].send(task)

    def answers(self, busy: list, seconds: float) -> list:
        """(index, reply) of the busy workers that answer within ``seconds``; SolveError if
        one of them ended (its pipe closed: out of memory, or killed)."""
        from multiprocessing.connection import wait

        by_conn = {self.workers[index][1]: index for index in busy}
        replies = []
        for ready in wait(list(by_conn), seconds):
            index = by_conn[ready]
            try:
                replies.append((index, self.workers[index][1].recv()))
            except (EOFError, OSError):
                self.end(index)
                raise SolveError(
                    f"{self.solver.graph.name}: a worker process of a split test ended (out of memory?)"
                ) from None
        return replies

    def end(self, index: int) -> None:
        """Kill worker ``index`` (it is searching a leaf whose answer is not wanted, or the budget ran
        out); it is forked again when next needed."""
        if self.workers[index] is None:
            return
        process, conn = self.workers[index]
        process.kill()
        process.join()
        conn.close()
        self.workers[index] = None

    def close(self) -> None:
        """End every worker: an idle one is told to stop, one that does not listen is killed."""
        for index, worker in enumerate(self.workers):
            if worker is None:
                continue
            process, conn = worker
            try:
                conn.send(None)
                process.join(WAIT_SECONDS * 4)
            except OSError:
                pass
            if process.is_alive():
                process.kill()
                process.join()
            conn.close()
            self.workers[index] = None


class Split:
    """The driver of one split test (see the module docstring)."""

    def __init__(self, solver, state, t: int, group: tuple):
        """The tree of the test "at least ``t``?" at ``state``, the solver's root with its
        history, its root expanded at once (it has resisted the search already)."""
        self.solver = solver
        self.root = Node((), state, group, t)
        self.leaves = 0
        self.expansions = 0
        self.depth = 0
        self.nodes = 0
        self.turns = 0
        self.expand(self.root)

    def expand(self, node: Node) -> None:
        """Give ``node`` its children: its legal moves under its history, folded by its
        automorphisms; children that end the game are decided by their score."""
        solver = self.solver
        state, _ = solver.replay(node.path)
        group = node.group
        moves = solver.legal(state)
        if group:
            moves = [m for m in moves if m == "pass" or all(sigma[m] >= m for sigma in group)]
        for move in moves:
            child, _ = solver.step(state, move)
            kid = Node(
                (*node.path, move),
                child,
                solver.child_group(group, child, move),
                1 - node.t,
                parent=node,
                budget=solver.split_first,
            )
            if child[3] >= 2:
                d = solver.difference(child[0], child[1])
                kid.answer = 1 if (-d if child[2] else d) >= kid.t else -1
            node.children.append(kid)
            self.depth = max(self.depth, len(kid.path))
        solver.root()
        self.expansions += 1
        self.propagate(node)
        renumber(node)

    def propagate(self, node: Node | None) -> None:
        """Combine answers upwards from ``node`` as far as they change."""
        while node is not None and node.answer == 0:
            node.answer = combined(node.children, self.solver.split_mutant)
            if node.answer == 0:
                return
            node = node.parent

    def open_leaves(self, node: Node | None = None) -> list:
        """The open leaves not being searched whose ancestors are all open."""
        node = node or self.root
        if node.answer:
            return []
        if not node.children:
            return [] if node.running else [node]
        found = []
        for child in node.children:
            found.extend(self.open_leaves(child))
        return found

    def next_leaf(self, worker: int) -> Node | None:
        """The open leaf ``worker`` searches next: the one it searched last if that one has
        had at most twice the nodes of the least searched leaf (its search then goes on
        where it stopped, ``RESUME``), else by ``LEAF_ORDER`` the most-proving leaf or the
        one that has had the fewest nodes, the shallowest of those."""
        leaves = self.open_leaves()
        if not leaves:
            return None
        least = min(leaves, key=lambda n: (n.spent, len(n.path)))
        if RESUME:
            for leaf in leaves:
                if leaf.worker == worker and leaf.spent <= 2 * least.spent + self.solver.split_first:
                    return leaf
        if LEAF_ORDER == "numbers":
            return most_proving(self.root)
        return least

    def returned(self, leaf: Node, answer: int, nodes: int, asked: int, numbers: tuple = (1, 1)) -> None:
        """A leaf's search of ``asked`` nodes came back: decided, or open with its root's
        proof ``numbers`` (expanded once it has resisted ``split_expand`` nodes, its budget
        doubled if it had the whole of it; a search cut short by its turn's share keeps the
        budget)."""
        leaf.running = False
        leaf.spent += nodes
        self.nodes += nodes
        self.leaves += 1
        if leaf.children or not self.open_path(leaf):
            return
        if answer:
            leaf.answer = answer
            self.propagate(leaf.parent)
            renumber(leaf.parent)
            return
        leaf.pn, leaf.dn = max(1, numbers[0]), max(1, numbers[1])
        if leaf.spent >= self.solver.split_expand:
            self.expand(leaf)
        else:
            if asked >= leaf.budget:
                leaf.budget *= 2
            renumber(leaf.parent)

    def summary(self, shown: int = 8) -> dict:
        """The split as JSON-able data: its threshold and answer, the turns it ran in, the
        leaves searched and their nodes, and of those the nodes its answers needed
        (:func:`needed`), the expansions, the deepest ply, and the ``shown`` open leaves
        that took the most nodes (their moves from the test's root, nodes, threshold for
        their player to move)."""
        leaves = sorted(self.open_leaves(), key=lambda n: -n.spent)[:shown]
        return {
            "t": self.root.t,
            "answer": self.root.answer,
            "turns": self.turns,
            "leaves": self.leaves,
            "nodes": self.nodes,
            "needed": needed(self.root),
            "expansions": self.expansions,
            "depth": self.depth,
            "open": [{"moves": list(n.path), "nodes": n.spent, "t": n.t} for n in leaves],
        }

    @staticmethod
    def open_path(node: Node | None) -> bool:
        """Whether ``node`` and all its ancestors are open."""
        while node is not None:
            if node.answer:
                return False
            node = node.parent
        return True

    def room(self, busy: dict) -> int:
        """The nodes that may still be handed out: what the node budget and the turn's share
        have left (``Solver.nodes_left``), less the budgets of the searches running."""
        return self.solver.nodes_left() - sum(asked for _, asked in busy.values())

    def dispatch(self, pool: Workers, busy: dict) -> bool:
        """Hand each idle worker the open leaf it searches next, within the room left;
        whether any leaf was handed out."""
        solver = self.solver
        sent = False
        for index in pool.slots():
            if index in busy:
                continue
            room = self.room(busy)
            leaf = self.next_leaf(index) if room > 0 else None
            if leaf is None:
                break
            asked = min(leaf.budget, room)
            leaf.running = True
            leaf.worker = index
            pool.hand(index, (leaf.path, leaf.t, asked, solver.deadline))
            busy[index] = (leaf, asked)
            sent = True
        return sent

    def collect(self, pool: Workers, busy: dict) -> None:
        """Wait a little for the busy workers and take in the answers that came back; a leaf
        whose reply is None (its task lost with its workers) is open again, to be handed out
        anew."""
        solver = self.solver
        for index, reply in pool.answers(list(busy), WAIT_SECONDS):
            leaf, asked = busy.pop(index)
            if reply is None:
                leaf.running = False
                continue
            answer, nodes, numbers = reply
            solver.nodes += nodes
            self.returned(leaf, answer, nodes, asked, numbers)

    def check_budget(self) -> None:
        """The solver's BudgetSpent if its node or time budget has run out."""
        self.solver.check_node_budget()
        self.solver.check_time_budget()

    def run(self, pool: Workers) -> int:
        """Go on deciding the test with the pool's workers: 1 or -1; ``ShareSpent`` when the
        turn's share is spent (the tree kept for the next turn); the solver's BudgetSpent when
        its node or time budget runs out.  A turn in which a leaf was searched is counted
        in ``turns``."""
        solver = self.solver
        busy: dict = {}
        counted = False
        try:
            while self.root.answer == 0:
                if self.dispatch(pool, busy) and not counted:
                    self.turns += 1
                    counted = True
                if not busy:
                    if self.room(busy) > 0:
                        raise AssertionError("an open split test without an open leaf")
                    self.check_budget()
                    raise ShareSpent
                self.collect(pool, busy)
                if solver.progress is not None:
                    solver.progress(solver)
                self.check_budget()
        finally:
            for index, (leaf, _) in busy.items():
                leaf.running = False  # cut off with its worker
                pool.end(index)
        return self.root.answer


def default_jobs() -> int:
    """The worker processes a split test uses by default: the machine's cores (fewer where
    memory is short, :func:`jobs_within`)."""
    return os.cpu_count() or 1


def memory_available() -> int | None:
    """The bytes of memory this process may still take: the system's ``MemAvailable``,
    lowered to what the control group's limit leaves where one is set; None where neither
    can be read (then nothing is checked)."""
    found = []
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    found.append(int(line.split()[1]) * 1024)
    except (OSError, ValueError, IndexError):
        pass
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as limit_file:
            limit = limit_file.read().strip()
        with open("/sys/fs/cgroup/memory.current", encoding="ascii") as current_file:
            current = int(current_file.read().strip())
        if limit != "max":
            found.append(max(0, int(limit) - current))
    except (OSError, ValueError):
        pass
    return min(found) if found else None


def gigabytes(size: int) -> str:
    """A size in bytes as gigabytes with two decimals, e.g. ``0.95 GB``."""
    return f"{size / 1e9:.2f} GB"


def jobs_within(jobs: int | None, copy_bytes: int, shared_bytes: int, available: int | None) -> int:
    """The worker processes a split may use when ``shared_bytes`` of tables are shared by
    all, each process may copy ``copy_bytes`` of private arrays, and ``available`` bytes are
    free: the shared table and ``jobs + 1`` copies (the solving process and its ``jobs``
    workers).  ``jobs`` None (the default) is the machine's cores, as many as fit, at least
    1; ``jobs`` asked for that do not fit raise ValueError, whose message names ``--jobs``
    and how many fit."""
    fitting = MAX_JOBS
    if available is not None:
        fits = [
            count for count in range(2, MAX_JOBS + 1) if memory_needed(count, copy_bytes, shared_bytes) <= available
        ]
        fitting = max([1, *fits])
    if jobs is None:
        return min(default_jobs(), fitting)
    needed = memory_needed(jobs, copy_bytes, shared_bytes)
    if jobs == 1 or available is None or needed <= available:
        return jobs
    advice = f"at most --jobs {fitting} fits" if fitting > 1 else "use --jobs 1 (no split)"
    raise ValueError(
        f"--jobs {jobs}: the table of answers ({gigabytes(shared_bytes)}) and the private arrays of the "
        f"solving process and of each of its {jobs} workers ({gigabytes(copy_bytes)} each) may take "
        f"{gigabytes(needed)}, but {gigabytes(available)} is available: {advice}"
    )


def memory_needed(jobs: int, copy_bytes: int, shared_bytes: int) -> int:
    """The most memory a split over ``jobs`` workers may take: the solving process and each
    worker with its private arrays (``copy_bytes``), and the table of answers once when it
    is shared (``SHARE_TABLE``), else in every process."""
    if SHARE_TABLE:
        return shared_bytes + (jobs + 1) * copy_bytes
    return (jobs + 1) * (shared_bytes + copy_bytes)
