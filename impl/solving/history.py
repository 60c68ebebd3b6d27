"""The history of a line of play as the Tromp–Taylor solver keeps it, and the test that lets a
stored proof be reused under another history (:mod:`gorules.impl.solving.solve`, "History and
the transposition table").

Each position entering the history gets a key (what the ko rule compares) and a bit: keys are
numbered on first sight, key number i getting bit i modulo ``MASK_BITS``.  A proof records
the set Q of keys whose membership in the history it asked (a mask of their bits) and the
subset D of them that were in the history; it holds again under any history H' with
H' ∩ Q = D, which :meth:`History.reusable` tests exactly and conservatively.
"""

from __future__ import annotations

MASK_BITS = 2048
FULL_MASK = (1 << MASK_BITS) - 1


def bit_positions(mask: int):
    """The positions of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class History:
    """The keys of the positions of the line searched, root first, with their folded bits."""

    def __init__(self, n: int, ko: str):
        """An empty history for a graph of ``n`` points under the ko rule ``ko``."""
        self.n = n
        self.ko = ko
        self.bits: dict = {}
        self.key_bits: list = []
        self.keys: list = []
        self.index: dict = {}
        self.masks: list = [0]
        self.bit_count: dict = {}

    def key(self, black: int, white: int, side: int, passes: int, before):
        """The key under which a position enters the history for this ko rule."""
        if self.ko == "positional":
            return black | (white << self.n)
        if self.ko == "situational":
            return ((black | (white << self.n)) << 1) | side
        return (black, white, side, passes, before)

    def bit(self, key) -> int:
        """The bit of a history key in the folded masks."""
        b = self.bits.get(key)
        if b is None:
            b = self.bits[key] = 1 << (len(self.bits) % MASK_BITS)
        return b

    def push(self, key) -> bool:
        """Add a key to the history; False (nothing added) if it is there already."""
        if key in self.index:
            return False
        self.enter(key, self.bit(key))
        return True

    def enter(self, key, b: int) -> None:
        """Add a key known to be absent from the history, with its bit ``b``."""
        self.index[key] = len(self.keys)
        self.keys.append(key)
        self.key_bits.append(b)
        self.masks.append(self.masks[-1] | b)
        self.bit_count[b] = self.bit_count.get(b, 0) + 1

    def pop(self) -> None:
        """Remove the most recent key from the history."""
        del self.index[self.keys.pop()]
        self.masks.pop()
        b = self.key_bits.pop()
        count = self.bit_count[b] - 1
        if count:
            self.bit_count[b] = count
        else:
            del self.bit_count[b]

    def clear(self) -> None:
        """Empty the history (the numbering of keys and their bits is kept)."""
        self.keys.clear()
        self.index.clear()
        self.masks[:] = [0]
        self.bit_count.clear()
        self.key_bits.clear()

    def reusable(self, entry) -> bool:
        """Whether a table entry's bounds hold under the current history (H' ∩ Q = D):

        1. every key of D is in the current history;
        2. (bits of the current history) ∩ Q = bits of D;
        3. no other key of the current history shares a bit with a key of D.

        Then any history key k outside D has its bit outside Q, so k ∉ Q; with 1, H' ∩ Q = D."""
        _, _, _, d_keys, d_bits, q = entry
        index = self.index
        for key in d_keys:
            if key not in index:
                return False
        if self.masks[-1] & q != d_bits:
            return False
        bit_count = self.bit_count
        bits = self.bits
        for key in d_keys:
            if bit_count[bits[key]] != 1:
                return False
        return True

    def hits_of(self, d_keys) -> int:
        """The history positions (as a bit mask over indices) of the keys of D."""
        hits = 0
        for key in d_keys:
            hits |= 1 << self.index[key]
        return hits

    def found(self, hits: int) -> tuple:
        """The keys D at the history positions ``hits`` and the mask of their bits."""
        d_keys = tuple(self.keys[i] for i in bit_positions(hits))
        d_bits = 0
        for key in d_keys:
            d_bits |= self.bits[key]
        return d_keys, d_bits

    def boards(self):
        """The history as three arrays (black, white, player to move) for the compiled kernels."""
        import numpy as np

        n, every = self.n, (1 << self.n) - 1
        boards = []
        for key in self.keys:
            side = 0
            if self.ko == "situational":
                key, side = key >> 1, key & 1
            boards.append((key & every, key >> n, side))
        return (
            np.array([b for b, _, _ in boards], dtype=np.uint64),
            np.array([w for _, w, _ in boards], dtype=np.uint64),
            np.array([s for _, _, s in boards], dtype=np.int64),
        )


class SettledProofs:
    """The decided answers to "at least t?" of the proof search, per state: the strongest
    proof and the strongest disproof found, each with the queries under which it holds."""

    def __init__(self, history: History):
        """No answers yet; their reuse is tested against ``history``."""
        self.history = history
        self.entries: dict = {}

    def get(self, state):
        """The [proof, disproof] stored for ``state``, or None."""
        return self.entries.get(state)

    def clear(self) -> None:
        """Forget every answer."""
        self.entries.clear()

    def answer(self, known, t):
        """The answer to "at least ``t``?" that a decided proof stored for this position gives
        under the current history, with its queries, or None: a proof that the player to move
        forces at least t' answers yes for every t ≤ t', a disproof at t' (the opponent holds
        them below t') answers no for every t ≥ t'."""
        proved, disproved = known
        history = self.history
        if proved is not None and proved[0] >= t and history.reusable(proved):
            return 1, proved[5], history.hits_of(proved[3])
        if disproved is not None and disproved[0] <= t and history.reusable(disproved):
            return -1, disproved[5], history.hits_of(disproved[3])
        return None

    @staticmethod
    def move(known):
        """The move of the strongest proof stored for a position (order only), or None."""
        proved = known[0]
        return proved[2] if proved is not None else None

    def store(self, state_key, answer: int, t: int, move, d_keys, d_bits: int, q: int) -> None:
        """Store a decided answer to "at least ``t``?" in the slot of its kind (proved or
        disproved), replacing the one there unless that one is stronger and still reusable."""
        known = self.entries.get(state_key)
        if known is None:
            known = self.entries[state_key] = [None, None]
        slot = 0 if answer > 0 else 1
        old = known[slot]
        if old is not None:
            stronger = old[0] >= t if answer > 0 else old[0] <= t
            if stronger and self.history.reusable(old):
                return
        known[slot] = (t, 0, move, d_keys, d_bits, q)
