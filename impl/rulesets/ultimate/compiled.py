"""The compiled core of the yes/no searches of Ultimate/Fundamental Go (``kernels.ultimate``).

``CompiledQuestions`` works out, once per graph, everything the kernel needs that depends on
the board alone (the placements of every board and player in the search's order, the delay
races' ``solo``, the graph's automorphisms and each board's representative), keeps the
kernel's table between questions (it holds proofs only, so every later question may use
it), and answers ``Engine.decide``'s questions in slices of nodes, counting them on the
engine (its budget, its probe cap, its progress).
"""

from __future__ import annotations

import itertools

import numpy as np

from gorules.impl.kernels import ultimate as kernel
from gorules.impl.kernels import ultimate_dfpn as dfpn

MAX_POINTS = 7
"""The largest graphs the compiled core takes (3^7 boards, every one numbered)."""
MAX_AUTOMORPHISMS = 5040
"""Every automorphism of a graph of at most 7 points."""
SLICE = 20_000
"""The nodes of one slice: the budget, the cap and the progress are checked between slices."""
FIXING = 24
"""The most automorphisms fixing a board under which a history is moved to its least image
(the rest of a larger stabiliser is left out: any automorphism fixing the board is sound,
fewer only find fewer histories alike).  Each costs a pass over the history at every node."""
DFPN = 2
"""The order that stands for the proof-number search (``kernels.ultimate_dfpn``) in ``orders``."""
RACE = 5_000
"""The nodes each move order first gets when they race (as ``Engine.decide``); four times
as many at each round after."""
DFPN_SHARE = 32
"""How many times a depth-first order's nodes the proof-number search gets in a race: its
nodes (entries, many settled by their numbers alone) cost far less time each.  With df-pn
emptying its numbers every ``NUMBERS_REFRESH`` nodes, this share answered the hard 6-point
graphs soonest of those compared, and every connected graph of up to 6 points within the
table's time per graph (docs/ultimate.md, "The cadence and df-pn's share of the race")."""


DFPN_APART = True
"""Whether df-pn keeps its proofs in a table of its own when it races the depth-first orders:
sharing one, their many narrow proofs overwrite df-pn's in the keys' rings (``KEEP``)."""
NUMBERS_REFRESH = 1 << 18
"""The proof-number search empties its table of numbers (not its proofs) each time it has
taken this many more nodes (0: never), as the Tromp–Taylor solver's df-pn does every 2^20
(``impl/solving/solve.py``): numbers kept along one line lead the search back into subtrees
it has left, and questions open while they are kept are answered when they are emptied; this
cadence, with ``DFPN_SHARE``, answered every connected graph of up to 6 points (docs/ultimate.md,
"Emptying the numbers as the search goes" and "The cadence and df-pn's share of the race")."""
PAUSED_STATE = np.array([kernel.S_PLY, kernel.S_ACTION, kernel.S_RESULT, dfpn.S_PN, dfpn.S_DN])
"""Where ``st`` holds a paused df-pn search's state (the rest is in its own stack)."""


class Overflowed(Exception):
    """A line longer than the kernel's stack: the question is left to the Python search."""


class CompiledQuestions:
    """The kernel's tables for one engine's graph, and its questions asked in slices."""

    def __init__(
        self,
        engine,
        switched_off: tuple[int, ...] = (),
        orders: tuple[int, ...] = (0, 1, DFPN),
        stabiliser: bool = False,
    ):
        """Number every board of the engine's graph (3^n of them) and work out their moves,
        ``solo``, automorphic images and representatives.  ``switched_off`` lists parts of
        the search (``kernels.ultimate.F_*``) left out: mutants, for the tests.  ``orders``
        are the move orders that race (``decide``): 0 the fixed one, 1 the hinted one, 2
        (``DFPN``) the proof-number search; a single order searches alone.  ``stabiliser`` folds each history under the automorphisms
        that fix its board (``kernels.ultimate``; off by default: with ``KEEP`` proofs per key
        it leaves some questions open that are answered without it, though it shortens others;
        docs/ultimate.md, "Solving: two yes/no searches", the compiled core)."""
        self.orders = orders
        n = engine.n
        self.engine = engine  # while the tables are worked out (no cycle kept after)
        self.n = n
        self.history_codes = engine.codes  # the board code of each engine history bit
        boards = 3**n
        self.number_of = np.full(1 << (2 * n), -1, dtype=np.int64)  # board code -> number
        codes = []
        for number, digits in enumerate(itertools.product((0, 1, 2), repeat=n)):
            black = sum(1 << v for v, c in enumerate(reversed(digits)) if c == 1)
            white = sum(1 << v for v, c in enumerate(reversed(digits)) if c == 2)
            code = engine.code(black, white)
            self.number_of[code] = number
            codes.append((black, white))
        self.codes = codes
        placements = np.zeros((boards, 2), dtype=np.int64)
        children = np.zeros((boards, 2, n), dtype=np.int64)
        taken = np.zeros((boards, 2, n), dtype=np.int64)
        solo = np.zeros((boards, 2), dtype=np.int64)
        for number, (black, white) in enumerate(codes):
            for player in (0, 1):
                for j, (_, nb, nw, took) in enumerate(self.greedy(black, white, player)):
                    children[number, player, j] = self.number_of[engine.code(nb, nw)]
                    taken[number, player, j] = took
                    placements[number, player] = j + 1
                if not black & white and self.legal_board(black, white):
                    solo[number, player] = engine.solo(black, white, player)
        symmetries = self.automorphisms()
        perm = np.zeros((len(symmetries), boards), dtype=np.int64)
        for s, sigma in enumerate(symmetries):
            for number, (black, white) in enumerate(codes):
                image = engine.image(sigma, engine.code(black, white))
                perm[s, number] = self.number_of[image]
        where = {sigma: i for i, sigma in enumerate(symmetries)}
        inverse = np.array([where[invert(sigma)] for sigma in symmetries], dtype=np.int64)
        canon = np.arange(boards, dtype=np.int64)
        frame = np.full(boards, -1, dtype=np.int64)
        for number in range(boards):
            images = perm[:, number]
            s = int(np.argmin(images))
            if images[s] < number:
                canon[number], frame[number] = images[s], s
        fixing = self.stabilisers(perm, canon)
        flags = np.ones(kernel.FLAGS_SIZE, dtype=np.int64)
        flags[kernel.F_STABILISER] = int(stabiliser)
        for flag in switched_off:
            flags[flag] = 0
        self.game = (placements, children, taken, solo, canon, frame, perm, inverse, flags, fixing)
        self.words = (boards + 63) // 64
        self.keys = boards * 2 * 4 * 3 * 3 * 2
        self.tables = self.new_tables()
        self.aside: tuple | None = None  # the other table and its chunks in use (``swap_tables``)
        plies = kernel.MAX_PLY
        small = [np.zeros(plies, dtype=np.int64) for _ in range(12)]
        self.stack = (
            *small,
            np.zeros((plies, self.words), dtype=np.uint64),
            np.zeros((plies, self.words), dtype=np.uint64),
            np.zeros((2, self.words), dtype=np.uint64),
            np.zeros(plies, dtype=np.int64),
        )
        self.st = np.zeros(dfpn.ST_SIZE, dtype=np.int64)
        self.proof_numbers: tuple | None = None  # the df-pn's stack and numbers, when first needed
        self.paused: tuple | None = None  # the root and state of a df-pn search cut off (``dfpn_search``)
        self.numbers_refresh = NUMBERS_REFRESH
        self.numbers_since = 0  # the proof-number search's nodes since its numbers were emptied
        del self.engine

    @staticmethod
    def stabilisers(perm: np.ndarray, canon: np.ndarray) -> np.ndarray:
        """Per representative board, the automorphisms other than the identity that fix it
        (at most ``FIXING``, the rest of the row −1); nothing for other boards (never searched as such)."""
        boards = perm.shape[1]
        identity = np.arange(boards)
        moving = [s for s in range(perm.shape[0]) if not np.array_equal(perm[s], identity)]
        fixing = np.full((boards, FIXING), -1, dtype=np.int64)
        for number in np.flatnonzero(canon == identity):
            found = [s for s in moving if perm[s, number] == number]
            if len(found) <= FIXING:
                fixing[number, : len(found)] = found
        return fixing

    def new_tables(self) -> tuple[np.ndarray, ...]:
        """An empty table of proofs (``kernels.ultimate``), ``kernel.CHUNKS`` keys able to hold them."""
        keys, chunks = self.keys, kernel.CHUNKS
        return (
            np.full(keys, -1, dtype=np.int64),
            np.zeros(chunks, dtype=np.int64),
            np.zeros(chunks, dtype=np.int64),
            np.zeros((chunks, kernel.KEEP), dtype=np.int64),
            np.zeros((chunks, kernel.KEEP), dtype=np.int64),
            np.zeros((chunks, kernel.KEEP, self.words), dtype=np.uint64),
            np.zeros((chunks, kernel.KEEP, self.words), dtype=np.uint64),
            np.full(keys, -1, dtype=np.int64),  # per key, the move that last reached the goal
            np.zeros((chunks, kernel.KEEP, kernel.FOLD), dtype=np.uint64),  # per proof, its D folded
        )

    def swap_tables(self) -> None:
        """Put the table of proofs set aside in use and the one in use aside (an empty one the
        first time), each with the count of its keys' chunks taken."""
        tables, chunks = (self.new_tables(), 0) if self.aside is None else self.aside
        self.aside = (self.tables, int(self.st[kernel.S_CHUNKS]))
        self.tables, self.st[kernel.S_CHUNKS] = tables, chunks

    def grow(self) -> None:
        """Twice as many table keys able to hold proofs (up to ``MAX_CHUNKS``), the proofs
        kept, after the kernel found no key free."""
        self.st[kernel.S_FULL] = 0
        chunks = self.tables[1].shape[0]
        if chunks >= kernel.MAX_CHUNKS:
            return
        grown = []
        for i, array in enumerate(self.tables):
            if i in (0, 7):  # indexed by key: unchanged
                grown.append(array)
                continue
            bigger = np.zeros((2 * chunks, *array.shape[1:]), dtype=array.dtype)
            bigger[:chunks] = array
            grown.append(bigger)
        self.tables = tuple(grown)

    def greedy(self, black: int, white: int, player: int) -> list[tuple[int, int, int, int]]:
        """The placements of ``player`` that leave her stone a liberty, as (point, black,
        white, stones taken), those that take the most stones first (by point among equals):
        ``Engine.ordered_children``'s order."""
        if black & white:
            return []
        found = self.engine.placed(black, white, player)
        return sorted(found, key=lambda m: -m[3])

    def legal_board(self, black: int, white: int) -> bool:
        """Whether every stone of the board reaches an empty point (a board play can reach)."""
        engine = self.engine
        empty = engine.full & ~(black | white)
        for stones in (black, white):
            rest = stones
            while rest:
                low = rest & -rest
                string = engine.group(stones, low.bit_length() - 1)
                if not engine.breathes(string, empty):
                    return False
                rest &= ~string
        return True

    def automorphisms(self) -> list[tuple[int, ...]]:
        """Every automorphism of the graph (at most 7! of them) as point permutations."""
        import networkx as nx
        from networkx.algorithms.isomorphism import GraphMatcher

        graph = self.engine.graph
        g = nx.Graph()
        g.add_nodes_from(graph.points)
        g.add_edges_from(graph.edges())
        found = itertools.islice(GraphMatcher(g, g).isomorphisms_iter(), MAX_AUTOMORPHISMS)
        return [tuple(m[v] for v in range(self.n)) for m in found]

    def history_words(self, history: int) -> np.ndarray:
        """An engine history (a bitset over the engine's board numbers) over the kernel's."""
        words = np.zeros(self.words, dtype=np.uint64)
        while history:
            low = history & -history
            number = int(self.number_of[self.history_codes[low.bit_length() - 1]])
            words[number >> 6] |= np.uint64(1 << (number & 63))
            history ^= low
        return words

    def decide(self, goal: int, p: tuple, on_nodes, room) -> bool:
        """Whether the player to move at p reaches her goal (0 a win, 1 at least a draw).
        ``room()`` gives the nodes of the next slice; ``on_nodes(k)`` is told of the k nodes
        of each slice after it and may raise to stop the search; Overflowed if a line
        outgrows the kernel's stack.

        With several ``orders``, as ``Engine.decide``: the fixed move order, the hinted one (the
        move that last reached the goal at a table key tried there first) and the
        proof-number search if listed each get ``RACE`` nodes (df-pn ``DFPN_SHARE`` times as
        many), then four times as many, and so on, until one answers; an attempt cut off
        leaves in the table only what it proved, so each starts from the proofs before (and
        df-pn from its numbers)."""
        black, white, player, bb, wb, ult, first, draw, history, forced = p
        if forced:
            raise Overflowed("owed delays are left to the Python search")
        board = int(self.number_of[black | white << self.n])
        d = bb - wb if player == 0 else wb - bb
        root = (board, player, d, ult, first, draw, goal, self.history_words(history))
        if len(self.orders) == 1:
            return self.attempt(root, self.orders[0], None, on_nodes, room)  # type: ignore[return-value]
        budget = RACE
        while True:
            for hints in self.orders:
                answer = self.attempt(root, hints, budget * (DFPN_SHARE if hints == DFPN else 1), on_nodes, room)
                if answer is not None:
                    return answer
            budget *= 4

    def attempt(self, root: tuple, hints: int, budget: int | None, on_nodes, room) -> bool | None:
        """One search from the root position, in the hinted order or the fixed one, within
        ``budget`` nodes (None: no limit but the caller's): its answer, or None if cut off."""
        apart = hints == DFPN and DFPN_APART and len(self.orders) > 1
        if apart:
            self.swap_tables()
        try:
            if hints == DFPN:
                search = self.dfpn_search(root)
            else:
                self.st[kernel.S_HINTS] = hints
                kernel.begin(self.stack, self.st, *root)

                def search(limit: int) -> int:
                    """The depth-first kernel on until ``limit`` nodes."""
                    return kernel.resume(self.game, self.tables, self.stack, self.st, limit)

            end = None if budget is None else int(self.st[kernel.S_NODES]) + budget
            while end is None or self.st[kernel.S_NODES] < end:
                before = int(self.st[kernel.S_NODES])
                step = room() if end is None else min(room(), end - before)
                status = search(before + step)
                if self.st[kernel.S_FULL]:
                    self.grow()
                on_nodes(int(self.st[kernel.S_NODES]) - before)
                if status == kernel.FINISHED:
                    return bool(self.st[kernel.S_RESULT])
                if status == kernel.OVERFLOWED:
                    raise Overflowed(f"a line longer than {kernel.MAX_PLY} moves")
            return None
        finally:
            if apart:
                self.swap_tables()

    def dfpn_search(self, root: tuple):
        """The proof-number search put on the root position: a function that searches on
        until a given number of nodes (its status as the depth-first kernel's).  A search of
        the same root cut off before (a race's earlier round) goes on from where it stopped,
        its stack intact, rather than from the root: every child it found decided stays
        decided (proofs are facts whatever was stored since), and only its numbers order
        the rest."""
        if self.proof_numbers is None:
            zobrist = dfpn.new_zobrist(self.game[0].shape[0])
            self.proof_numbers = (dfpn.new_stack(kernel.MAX_PLY, self.words), dfpn.new_numbers(), zobrist)
        stack, numbers, zobrist = self.proof_numbers
        identity = root_identity(root)
        if self.paused is not None and self.paused[0] == identity:
            self.st[PAUSED_STATE] = self.paused[1]
        else:
            dfpn.begin(stack, self.st, *root)
            dfpn.root_hash(stack, self.game[4], zobrist)
        self.paused = None

        def search(limit: int) -> int:
            """The proof-number search on until ``limit`` nodes (or until its numbers are
            next emptied, :meth:`refreshed`); its state kept if cut off."""
            before = int(self.st[kernel.S_NODES])
            stop = self.refreshed(numbers, before, limit)
            status = dfpn.resume(self.game, self.tables, numbers, zobrist, stack, self.st, stop)
            self.numbers_since += int(self.st[kernel.S_NODES]) - before
            self.paused = (identity, self.st[PAUSED_STATE].copy()) if status == kernel.RUNNING else None
            return status

        return search

    def refreshed(self, numbers: tuple, nodes: int, limit: int) -> int:
        """The node count ``limit`` where a proof-number search standing at ``nodes`` stops,
        cut to where its table of numbers is next emptied (every ``numbers_refresh`` nodes of
        the proof-number search), the table emptied first if that time has come.  The
        numbers only order the search: its proofs, and so its answers, are kept."""
        if not self.numbers_refresh:
            return limit
        if self.numbers_since >= self.numbers_refresh:
            dfpn.empty_numbers(numbers)
            self.numbers_since = 0
        return min(limit, nodes + self.numbers_refresh - self.numbers_since)


def root_identity(root: tuple) -> tuple:
    """A root position as a hashable value (its history words as bytes)."""
    *position, history = root
    return (*position, history.tobytes())


def invert(sigma: tuple[int, ...]) -> tuple[int, ...]:
    """The inverse of a point permutation."""
    back = [0] * len(sigma)
    for v, w in enumerate(sigma):
        back[w] = v
    return tuple(back)
