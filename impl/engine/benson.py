"""Benson's unconditional life on any undirected graph, on the engine's bitsets.

A set of chains of one colour is *unconditionally alive* (Benson, 1976) when the opponent
cannot capture any of them even if their owner passes every turn.  Benson's fixed point
finds the largest such set from the board alone:

- the owner's chains X, and the regions: the connected sets of points that are not the
  owner's stones (empty points and the opponent's stones);
- a region is *vital* to a chain when it has an empty point and each of its empty points
  is a liberty of the chain (next to it), and every chain next to the region is still in X;
  where suicide is allowed, each of its points must be next to the chain (the opponent may
  remove its own stones inside the region by suicide, and the points they leave must be
  liberties too: on 1×5, ``.B.WW`` would otherwise count Black's stone as alive, and
  White's suicide at the third point followed by play at the first captures it);
- drop from X each chain with fewer than two vital regions, and repeat until nothing drops.

What the solver uses (``impl/solving/solve.py``): the alive stones of a colour stay on the board
to the end of the game if their owner passes from now on, and pass is always legal, so
their owner can always keep them; under area and stone scoring alike each of them counts
for its owner at the end.  Under area scoring so does each one-point eye of alive stones
(an empty point all of whose neighbours are alive stones of the owner): an opponent's
stone there has no liberty and captures nothing, so it cannot stay, and the point ends
empty and reaching only the owner.  Hence, with K_B and K_W the points Black and White
keep so (alive stones, and their one-point eyes under area scoring) on a graph of n
points, the perfect-play margin (Black minus White, before komi) lies in
[2|K_B| − n, n − 2|K_W|].  The invariant this rests on (an opponent's move never removes
an alive chain and leaves the set alive) is checked exhaustively on small graphs in
``tests/test_solve_benson.py``.  Directed graphs are left out (liberties are not
symmetric there), and the bound is then the trivial one.
"""

from __future__ import annotations

from gorules.impl.engine.bitset import Kernel, popcount


def components(kernel: Kernel, points: int) -> list[int]:
    """The connected components of the set ``points`` (each a bit mask)."""
    found = []
    while points:
        component = frontier = points & -points
        while frontier:
            frontier = kernel.dilate_in(frontier) & points & ~component
            component |= frontier
        found.append(component)
        points &= ~component
    return found


def neighbours(kernel: Kernel, points: int) -> int:
    """The points next to some point of ``points`` (possibly in it)."""
    return kernel.dilate_in(points)


def alive(kernel: Kernel, mine: int, theirs: int, suicide: bool = True) -> int:
    """The stones of ``mine`` that are unconditionally alive by Benson's fixed point.  Where
    ``suicide`` is allowed the opponent can empty its own stones inside a region at will,
    so a region is vital to a chain only if every point of it (not only every empty one)
    is next to the chain."""
    if not kernel.symmetric or not mine:
        return 0
    empty = kernel.all & ~(mine | theirs)
    chains = components(kernel, mine)
    touching = [neighbours(kernel, c) for c in chains]
    regions = []
    for region in components(kernel, kernel.all & ~mine):
        region_empty = region & empty
        if not region_empty:
            continue
        border = neighbours(kernel, region) & mine
        must_touch = region if suicide else region_empty
        vital_to = [i for i, c in enumerate(chains) if must_touch & ~touching[i] == 0]
        regions.append((border, vital_to))
    living = set(range(len(chains)))
    while True:
        stones = 0
        for i in living:
            stones |= chains[i]
        counts = dict.fromkeys(living, 0)
        for border, vital_to in regions:
            if border & ~stones:
                continue
            for i in vital_to:
                if i in counts:
                    counts[i] += 1
        dropped = {i for i, k in counts.items() if k < 2}
        if not dropped:
            return stones
        living -= dropped


def eyes(kernel: Kernel, living: int, empty: int) -> int:
    """The one-point eyes of the alive stones ``living``: the empty points that have a
    neighbour and all of whose neighbours are in ``living``.  The opponent cannot keep a stone there
    (it has no liberty and captures nothing, since no opponent move removes an alive stone),
    so while the owner passes such a point stays empty, surrounded by the owner's alive
    stones, and counts for the owner under area scoring."""
    found = 0
    out = kernel.out
    for v in range(kernel.n):
        if empty >> v & 1:
            around = out[v]
            if around and not around & ~living:
                found |= 1 << v
    return found


def enclosed(kernel: Kernel, living: int, theirs: int) -> int:
    """The secure regions of the alive stones ``living``: the connected sets of points
    that are not alive stones (components of the complement of ``living``) each of whose
    points is next to ``living`` and none of which holds a stone of the opponent
    (``theirs``).  Their outer neighbours are all in ``living``, so the owner holds no
    stone in them either (a stone of hers next to ``living`` would belong to an alive
    chain): they are empty, and every point of them is a liberty of an alive chain.  A
    one-point eye is such a region of one point."""
    found = 0
    touching = kernel.dilate_in(living)
    for region in components(kernel, kernel.all & ~living):
        if not region & ~touching and not region & theirs:
            found |= region
    return found


def owned(
    kernel: Kernel, mine: int, theirs: int, suicide: bool = True, area: bool = True, territory: bool = False
) -> int:
    """The points the owner of ``mine`` keeps to the end: the unconditionally alive
    stones, and under area scoring their one-point eyes, which she keeps by passing; with
    ``territory``, under area scoring, every secure region of the alive stones
    (:func:`enclosed`), which she keeps by answering the opponent's stones there
    (``docs/solver.md``, "Unconditional territory")."""
    living = alive(kernel, mine, theirs, suicide)
    if area and living:
        living |= enclosed(kernel, living, theirs) if territory else eyes(kernel, living, kernel.all & ~(mine | theirs))
    return living


def margin_bounds(
    kernel: Kernel, black: int, white: int, suicide: bool = True, area: bool = True, territory: bool = False
) -> tuple[int, int]:
    """Bounds on the perfect-play margin (Black's score minus White's, no komi) from this
    board: [2·(points Black keeps) − n, n − 2·(points White keeps)], the points kept being
    the alive stones and, under area scoring, their one-point eyes, or with ``territory``
    their secure regions (:func:`owned`)."""
    n = kernel.n
    return (
        2 * popcount(owned(kernel, black, white, suicide, area, territory)) - n,
        n - 2 * popcount(owned(kernel, white, black, suicide, area, territory)),
    )
