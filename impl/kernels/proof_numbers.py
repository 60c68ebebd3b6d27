"""The rules of proof numbers shared by every depth-first proof-number search in ``kernels``.

A df-pn walk has two parts.  One is the game's: how a position is entered, which moves it
has, how a child's position is made and unmade, what a stored proof says and under which
history it is reused.  The other is this module's and the same for every game: a node's
proof and disproof numbers from its children's, and the thresholds its chosen child is
searched under.  ``kernels.dfpn`` (Tromp–Taylor's threshold tests) and
``kernels.ultimate_dfpn`` (the yes/no questions of Ultimate and Fundamental Go) both call
these two kernels, so the two searches differ only in their games.

Every node is seen from its player to move: its proof number ``pn`` estimates the work to
show that she reaches her goal, its disproof number ``dn`` the work to show she does not.
Her pn is the least dn of her open children (one child that cannot reach its own goal
suffices).  Her dn counts that every child must reach its goal: df-pn takes the sum of
their pn, weak proof-number search (Ueda et al.) the largest plus one for each other open
child.  The chosen child is the open one of least dn; it is searched while its dn stays
below ``min(thpn, dn₂ + 1 + dn₂ / 2^ε)`` (dn₂ the second least: the 1 + ε trick of
Pawlewicz and Lew) and its pn below ``thdn − (open children − 1)`` (weak; with the sum,
``thdn − dn + pn(child)``).

The walks keep their children's numbers and statuses in arrays by ply and child; a status
of ``OPEN`` (0 in both) is an undecided child.  ``inf`` is the number of a decided node and
``cap`` the largest number an undecided one may hold (each walk states its own).
"""

from __future__ import annotations

from gorules.impl.kernels.cache import njit

kernel = njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # a flag the stubs do not list

OPEN = 0
"""The status of a child not yet decided."""
NO_STATUS = -1
"""A status no child has: passed as ``decisive`` by a walk that decides a node on the spot
when it meets a child that cannot reach its goal."""
NO_EPSILON = 63
"""The shift that stands for no 1 + ε trick: the chosen child's dn limit is dn₂ + 1."""


@kernel
def combine(ply, count, status, cpn, cdn, decisive, weak, inf, cap):
    """The numbers of the node at ``ply`` from its first ``count`` children: (pn, dn, the
    open child of least dn, the second least dn, the open children).  A child whose status
    is ``decisive`` (it cannot reach its goal) proves the node at once: (0, inf, that child,
    inf, 0); a node without open children is disproved: (inf, 0, −1, inf, 0)."""
    pn = inf
    second = inf
    best = -1
    largest = 0
    total = 0
    open_ = 0
    for i in range(count):
        s = status[ply, i]
        if s == decisive:
            return 0, inf, i, inf, 0
        if s != OPEN:
            continue
        open_ += 1
        d = cdn[ply, i]
        if d < pn:
            second = pn
            pn = d
            best = i
        elif d < second:
            second = d
        total = min(total + cpn[ply, i], cap)
        largest = max(largest, cpn[ply, i])
    if open_ == 0:
        return inf, 0, -1, inf, 0
    dn = min(largest + open_ - 1, cap) if weak else total
    return pn, dn, best, second, open_


@kernel
def child_thresholds(thpn, thdn, dn, second, open_, child_pn, weak, epsilon_shift, inf, cap):
    """The thresholds (thpn, thdn) of the chosen child of a node searched under (thpn,
    thdn) whose numbers are (·, dn), whose second least dn is ``second`` and which has
    ``open_`` open children, the chosen one's pn being ``child_pn``."""
    if weak:
        child_thpn = min(thdn - open_ + 1, cap)
    else:
        child_thpn = min(thdn - dn + child_pn, cap)
    if epsilon_shift < NO_EPSILON and second < inf:
        limit = second + 1 + (second >> epsilon_shift)
    else:
        limit = second + 1
    return child_thpn, min(thpn, limit)
