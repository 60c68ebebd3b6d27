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
# # Differential fuzzing: the engine against the spec, and a counterexample replayed
#
# The engine (`impl/engine/rules.py`) keeps boards as bitsets and looks only at the chains
# next to the point played; the spec (`spec/tromp_taylor.py`) follows the mathematics
# literally. The fuzzer (`impl/differential/vectors.py`, behind `gorules fuzz`) plays random games
# on random graphs on both and compares the whole state after every move, plus
# `clear`, `reaches`, `score`, `game` and `winner`.
#
# A fuzzer that cannot fail shows nothing, so the second half gives it a broken engine:
# the real engine, except that its `Game` forbids suicide (as GNU Go's and OpenSpiel's
# defaults do), which the Tromp–Taylor rules allow. The fuzzer must find the difference,
# shrink it to a short move sequence, and we replay that sequence in the spec and in
# both engines and draw the board.

# %%
import functools
import types

from IPython.display import SVG, display

from gorules.impl.differential.fuzzing import compare_game, disagreement_vector, fuzz
from gorules.impl.differential.vectors import replay, replay_engine_game
from gorules.impl.engine import rules as engine
from gorules.impl.engine.options import PRESETS
from gorules.pictures import board_svg
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import point_name

# %% [markdown]
# ## The real engine: no disagreement
#
# Random graphs of up to 8 points (grids up to 4×4, cycles, stars, the Petersen graph,
# digraphs), from a fixed seed, until ten thousand moves have been compared.

# %%
report = fuzz(None, seed=0, max_order=8, max_side=4, min_moves=10_000)
print(report.as_json())
print("disagreements:", [d.what for d in report.disagreements])
assert report.disagreements == [] and report.moves >= 10_000

# %% [markdown]
# ## A broken engine
#
# The broken engine is assembled from library parts only: the engine module's functions
# as they are, with `Game` bound to the `no-suicide` preset of `gorules.spec.tromp_taylor`. Every
# module-level function still agrees with the spec; only the game's legality check
# differs.

# %%
print("no-suicide preset:", PRESETS["no-suicide"].describe())
broken = types.SimpleNamespace(**vars(engine))
broken.Game = functools.partial(engine.Game, options="no-suicide")
broken_report = fuzz(300, seed=1, engine=broken, max_order=6, max_side=3)
print(broken_report.as_json())
assert broken_report.disagreements
shortest = min(broken_report.disagreements, key=lambda d: len(d.moves))
print(f"shortest case: {shortest.graph.name}, moves {shortest.moves}")
print(f"what differs: {shortest.what}")

# %% [markdown]
# ## The counterexample, replayed
#
# The shrunk case is written as a test vector from the spec's point of view (the states
# the spec goes through). The real engine replays it without a difference; the broken
# engine's `Game` refuses a move that the spec allows, and names its reason.

# %%
vector = disagreement_vector(shortest, 0)
print("vector:", vector["name"], "| moves", vector["moves"], "| winner", vector["winner"])
print("real engine, module functions:", replay(vector, engine) or "no difference")
print("real engine, Game:           ", replay_engine_game(vector) or "no difference")
print("broken engine, Game:         ", replay_engine_game(vector, preset="no-suicide"))
print("fuzzer's comparison, real engine:  ", compare_game(shortest.graph, shortest.moves)[1])
print("fuzzer's comparison, broken engine:", compare_game(shortest.graph, shortest.moves, broken)[1])
assert replay(vector, engine) == [] and replay_engine_game(vector) == []
assert replay_engine_game(vector, preset="no-suicide") != []

# %% [markdown]
# ## The boards of the counterexample
#
# The spec's states, move by move. The last move is the suicide that the broken engine
# refuses: under the Tromp–Taylor rules the stone is placed and then removed with its
# chain (its point is ringed).

# %%
graph = shortest.graph
states = [tt.initial_state(graph)]
for v in shortest.moves:
    states.append(tt.move(graph, states[-1], v))
    label = v if v == tt.PASS else point_name(graph, v)
    title = f"{graph.name}: after {states[-2].player} {label}"
    marks = [] if v == tt.PASS else [v]
    display(SVG(board_svg(graph, states[-1].board, title=title, marks=marks)))
