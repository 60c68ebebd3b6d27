# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Counting and solving on tiny graphs
#
# Exact figures for small boards, computed by the toolkit and set beside the published
# ones: the number of legal positions (every chain has a liberty) and its growth on
# 1×n strips, the number of games and the game graph of tiny boards, and the value of
# 2×2 under perfect play.

# %%
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import sympy
from IPython.display import SVG, Markdown, display

from gorules.conjectures import built_in
from gorules.impl.counting.game_graph import game_graph
from gorules.impl.counting.games import count_games, longest_game
from gorules.impl.counting.positions import count_legal
from gorules.impl.counting.transfer import derivation_text, derive, strip_system
from gorules.impl.solving.solve import solve
from gorules.pictures import board_svg
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import grid, parse_graph
from gorules.store import Store
from gorules.sweep import run_sweep, summary_table

# %% [markdown]
# ## Legal positions
#
# `count_legal` counts the well-formed boards by a frontier dynamic program over the
# points. Published figures (John Tromp's tables; OEIS A094777, A102620, A266278):
# 1×1: 1, 2×2: 57, 3×3: 12,675, 4×4: 24,318,165; 2×n: 5, 57, 489, 4125.

# %%
published = {
    (1, 1): 1,
    (2, 2): 57,
    (3, 3): 12_675,
    (4, 4): 24_318_165,
    (2, 1): 5,
    (2, 3): 489,
    (2, 4): 4125,
    (5, 5): None,
}
computed = {(r, c): count_legal(grid(r, c)) for r, c in published}
rows = ["| board | legal positions | published |", "|---|---|---|"]
rows += [
    f"| {r}×{c} | {computed[r, c]:,} | {'' if published[r, c] is None else format(published[r, c], ',')} |"
    for r, c in published
]
display(Markdown("\n".join(rows)))
assert all(computed[k] == v for k, v in published.items() if v is not None)

# %% [markdown]
# ## L(1×n) and its growth constant
#
# On a strip the same columns are added again and again, so the counts are a transfer
# matrix's powers. `impl.counting.transfer` builds the matrix, finds the shortest recurrence of
# its counts (Berlekamp–Massey over the rationals), and has sympy derive the
# generating function and the growth constant λ, the largest root of the recurrence's
# characteristic polynomial (Tromp's recurrence L(n+3) = 3·L(n+2) − L(n+1) + L(n)
# comes out of it). The generating function G(x) = P(x)/Q(x) has its pole nearest to 0
# at x₀ = 1/λ, simple, so L(1×n) ≈ C·λⁿ with C = −λ·P(x₀)/Q′(x₀). The plot sets the
# counts of `count_legal` for n = 1..20 (each strip counted on its own, not through
# powers of the matrix)
# against C·λⁿ.

# %%
strip = strip_system(1)
derivation = derive(strip)
print(derivation_text(derivation))
x = sympy.Symbol("x")
lam = derivation.growth
P, Q = sympy.fraction(sympy.cancel(derivation.generating_function))
C = sympy.simplify(-lam * P.subs(x, 1 / lam) / sympy.diff(Q, x).subs(x, 1 / lam))
print("λ =", lam.evalf(30))
print("C =", sympy.N(C, 30))

# %%
ns = list(range(1, 21))
counts = [count_legal(grid(1, n)) for n in ns]
growth, constant = float(lam), float(C)
print("L(1×n), n = 1..20:", counts)
assert counts[:8] == [1, 5, 15, 41, 113, 313, 867, 2401]  # published: OEIS A102620
print("the transfer matrix gives the same:", strip.terms(20) == counts)
print(
    "Tromp's recurrence L(n+3) = 3·L(n+2) − L(n+1) + L(n) holds for n = 1..17:",
    all(counts[i + 3] == 3 * counts[i + 2] - counts[i + 1] + counts[i] for i in range(17)),
)
print(
    "L(n) / (C·λⁿ) for n = 1, 5, 10, 20:", [round(counts[n - 1] / (constant * growth**n), 12) for n in (1, 5, 10, 20)]
)

fig, ax = plt.subplots(figsize=(7, 4.5))
ax.semilogy(ns, counts, "o", label="L(1×n), count_legal")
ax.semilogy(ns, [constant * growth**n for n in ns], "-", label=f"C·λⁿ, λ = {growth:.6f}, C = {constant:.6f}")
ax.set_xticks(range(1, 21, 2))
ax.set_xlabel("n")
ax.set_ylabel("legal positions")
ax.set_title("Legal positions of the 1×n strip")
ax.legend()
plt.show()

# %% [markdown]
# ## Games and game graphs
#
# `count_games` counts the games of the source's definition (positional superko, suicide
# allowed, two passes end the game); Tromp and Farnebäck's Table 7 gives 1, 9 and 907 for
# 1×1, 1×2 and 1×3. `game_graph` builds the graph whose nodes are legal positions and
# whose edges are moves, under Farnebäck's GoGameGraphs conventions (published: 1×2 has
# 5 nodes and 12 edges, 1×3 15 and 42, 2×2 57 and 192). Each longest game found is
# checked to be a game by the spec's `game`. (`gorules count` goes further, to 1×4 and
# 2×2, in seconds to minutes; this notebook stays with the quick ones.)

# %%
published_games = {1: 1, 2: 9, 3: 907}
for n, figure in published_games.items():
    counted = count_games(grid(1, n))
    longest = longest_game(grid(1, n))
    print(f"games on 1×{n}: {counted.games} (published {figure}); a longest game has {len(longest)} turns")
    assert counted.games == figure and tt.game(grid(1, n), longest) is not None
published_graphs = {"grid:1x2": (5, 12), "grid:1x3": (15, 42), "grid:2x2": (57, 192)}
for name, figure in published_graphs.items():
    size = game_graph(parse_graph(name)).summary()
    print(f"game graph of {name}: {size} (published nodes, edges: {figure})")
    assert (size["nodes"], size["edges"]) == figure

# %% [markdown]
# ## 2×2 solved
#
# The exact solver (`impl.solving.solve`) searches the game tree under positional superko, with a
# transposition table that is sound for histories. Tromp's 2×2 solver finds a Black win
# by 1 point (area scoring, suicide allowed, no komi). The principal variation is
# replayed by the spec and drawn.

# %%
board_2x2 = grid(2, 2)
solution = solve(board_2x2)
print(
    f"value {solution.value} (Black minus White), principal variation {solution.principal_variation}, "
    f"{solution.nodes} nodes"
)
states = tt.game(board_2x2, solution.principal_variation)
final = states[-1].board
print(
    "spec's winner of that game:",
    tt.winner(board_2x2, solution.principal_variation),
    "| scores",
    tt.score(board_2x2, final, "B"),
    tt.score(board_2x2, final, "W"),
)
display(SVG(board_svg(board_2x2, final, title="2×2 after perfect play")))
assert solution.value == 1  # published: a Black win by 1 point

# %% [markdown]
# ## A conjecture swept over tiny graphs
#
# Source 000 conjectures that going first is good: on every graph that starts empty,
# a win-or-draw strategy chooses a non-negative komi (its rules divide and choose the
# komi). `gorules.conjectures` states the form the solver can test: Black's
# perfect-play value on the empty board is at least 0 (area scoring, no komi; a second
# form uses stone scoring, as 000 does). `gorules.sweep` tests it graph by graph over a family,
# writing each graph's figures to a SQLite store as soon as they are computed. Here:
# paths, cycles, stars, complete graphs, every connected graph of up to 4 points and
# the grids up to 2×3, solved in this process. A sweep that holds has *checked* the
# statement on those graphs only; it proves nothing about larger ones.

# %%
scratch = tempfile.TemporaryDirectory()
store = Store(Path(scratch.name) / "sweep.sqlite")
family = "paths:1-6+cycles:3-6+stars:1-5+complete:1-4+atlas-connected:4+grids:2x3"
going_first = built_in("going-first-is-good")
print(going_first.description)
summary = run_sweep(going_first, family, store, workers=0, progress=False)
rows = ["| graph | value | search nodes | holds |", "|---|---|---|---|"]
rows += [
    f"| {r.graph} | {r.figures['value']['value']} | {r.figures['value']['nodes']} | {r.holds} |" for r in summary.rows
]
display(Markdown("\n".join(rows)))
print(summary_table(summary).splitlines()[-1])
assert not summary.counterexamples and len(summary.rows) == len({r.graph for r in summary.rows})

# %% [markdown]
# The store makes a sweep resumable: run again on the same file, it computes nothing
# and reads every row back. The stone-scoring form and the source's own theorem (a
# board occurs in some game iff it is well-formed, here decided by search over the
# boards rather than proved) are swept the same way.

# %%
again = run_sweep(going_first, family, store, workers=0, progress=False)
print(f"second run: {again.computed} computed, {again.skipped} already in the store")
assert again.computed == 0 and again.skipped == len(summary.rows)
other_sweeps = {
    "going-first-is-good-stone": "paths:1-5+atlas-connected:4",
    "well-formed-iff-occurs": "atlas-connected:5+grids:2x3",
}
for name, other in other_sweeps.items():
    swept = run_sweep(built_in(name), other, store, workers=0, progress=False)
    print(summary_table(swept).splitlines()[-1], f"— {name} on {other}")
scratch.cleanup()

# %% [markdown]
# ## Values under other rules
#
# The same solver under other presets of `gorules.spec.tromp_taylor`, on a few tiny graphs. Under
# `simple` ko play can cycle; the solver scores a repeated state as a draw and says so
# (its `cycle_rule`).

# %%
rows = ["| graph | rules | value | nodes | cycle rule |", "|---|---|---|---|---|"]
for name in ("path:3", "grid:1x4", "cycle:4", "grid:2x2", "star:5"):
    for preset in ("tromp-taylor", "no-suicide", "situational", "gnugo-chinese"):
        s = solve(parse_graph(name), preset)
        rows.append(f"| {name} | {preset} | {s.value:g} | {s.nodes} | {s.cycle_rule or ''} |")
display(Markdown("\n".join(rows)))
