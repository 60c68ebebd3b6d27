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
# # A tour of the Tromp–Taylor spec and its errata
#
# This notebook walks through the executable specification of the Tromp–Taylor rules
# (`spec/tromp_taylor.md` and `spec/tromp_taylor.py`), set beside the formalization it
# follows, `002_8835c2492dce8849.txt`. It plays a short game with the spec, draws the
# boards, and then shows where the source, read literally, says something other than
# what it means: each literal reading is kept in `spec/errata.py`, and the errata
# checker (`gorules errata`) finds the smallest board on which it goes wrong.

# %%
import re

from IPython.display import SVG, Markdown, display

from gorules.errata import errata_table
from gorules.impl.engine import rules as engine
from gorules.pictures import board_svg
from gorules.spec import errata as literal
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import parse_graph, point_name
from gorules.spec.literate import SPEC_DIR, compare, markdown_definitions

# %% [markdown]
# ## The spec is written twice, and both say the same
#
# `spec/tromp_taylor.md` has one heading per definition of the source, in the source's
# order, each with the mathematics, our prose and a Python block; `spec/tromp_taylor.py`
# holds exactly those blocks. `spec.literate.compare` lists every way the two differ:
# an empty list means the markdown and the module agree, definition by definition.

# %%
spec_text = (SPEC_DIR / "tromp_taylor.md").read_text()
definitions = markdown_definitions(spec_text)
print("differences between tromp_taylor.md and tromp_taylor.py:", compare("tromp_taylor"))
for d in definitions:
    print(f"{d.heading:28} {', '.join(d.names)}")
assert compare("tromp_taylor") == []

# %% [markdown]
# ## One definition beside the source: `reaches`
#
# The source defines `reaches(b, v, c)` by a recursive equation in which every step
# stays on the colour of `v`. Read literally, a stone can then never reach an empty
# point, since the path may not leave the stone's colour. The spec keeps the source's
# name for the corrected equation: the last step may land on colour `c`. Here is the
# section as `spec/tromp_taylor.md` states it, then the erratum as `spec/errata.md`
# records it.

# %%
sections = re.split(r"^## ", spec_text, flags=re.M)
display(Markdown("## " + next(s for s in sections if s.startswith("reaches"))))
errata_text = (SPEC_DIR / "errata.md").read_text()
display(Markdown("## " + next(s for s in re.split(r"^## ", errata_text, flags=re.M) if s.startswith("E1"))))

# %% [markdown]
# ## A short game, played by the spec
#
# On the 3×3 grid (points numbered row by row from the top left), Black plays 1,
# White 0 in the corner, Black 3 takes White's last liberty, and both pass. `game`
# returns the states s₀ … s_N of the source's definition; `winner` compares the area
# scores of the final board. The engine (`impl.engine.rules`) gives the same answers.

# %%
grid = parse_graph("grid:3x3")
moves = [1, 0, 3, tt.PASS, tt.PASS]
states = tt.game(grid, moves)
for i, v in enumerate(moves):
    label = v if v == tt.PASS else point_name(grid, v)
    marks = [] if v == tt.PASS else [v]
    display(SVG(board_svg(grid, states[i + 1].board, title=f"after {states[i].player} {label}", marks=marks)))
final = states[-1].board
print("score B:", tt.score(grid, final, tt.BLACK), " score W:", tt.score(grid, final, tt.WHITE))
print("winner (spec):", tt.winner(grid, moves), " winner (engine):", engine.winner(grid, moves))
print("engine's states equal the spec's:", engine.game(grid, moves) == states)
assert tt.winner(grid, moves) == engine.winner(grid, moves) == tt.BLACK

# %% [markdown]
# ## E1: `reaches` as written never lets a stone reach an empty point
#
# On the path with two points, a lone Black stone beside an empty point has a liberty.
# The corrected `reaches` says so; the literal reading does not, so `clear` as written
# removes the stone, and `move` as written removes every stone as soon as it is played.

# %%
path = parse_graph("path:2")
b = ("B", ".")
print(
    "reaches(b, 0, Empty): corrected",
    tt.reaches(path, b, 0, tt.EMPTY),
    "| as written",
    literal.reaches_as_written(path, b, 0, tt.EMPTY),
)
print(
    "clear(b, Black):      corrected",
    tt.clear(path, b, tt.BLACK),
    "| as written",
    literal.clear_as_written(path, b, tt.BLACK),
)
s0 = tt.initial_state(path)
print(
    "move(s0, 0):          corrected",
    tt.move(path, s0, 0).board,
    "| as written",
    literal.move_as_written(path, s0, 0).board,
)
display(SVG(board_svg(path, b, title="B at 0 has a liberty at 1", marks=[0])))

# %% [markdown]
# ## E2: `score` swaps the arguments of `reaches`
#
# The source writes `reaches(b, p, v)`: a player where a point belongs and a point
# where a colour belongs. Run literally, that condition never holds, and the score
# counts stones only. The corrected score adds the empty points that reach `p` and not
# `p*`. On the 3×3 board of the game above:

# %%
for p in (tt.BLACK, tt.WHITE):
    print(p, "corrected:", tt.score(grid, final, p), " as written:", literal.score_as_written(grid, final, p))

# %% [markdown]
# ## The whole errata table
#
# `errata_table()` checks every definition and every theorem statement of the source,
# as written and as corrected, against an independent reference on every board (or
# state, or game prefix) of all small graphs. A row that holds was *checked*
# exhaustively within the bounds it states; that is not a proof for every graph (the
# proofs notebook does that with Z3 for fixed graphs and for all graphs of an order).

# %%
findings = errata_table()
rows = ["| statement | as written | corrected |", "|---|---|---|"]
rows += [f"| {f.key} | {f.as_written.word} | {f.corrected.word} |" for f in findings]
display(Markdown("\n".join(rows)))
print("every corrected statement holds:", all(f.corrected.holds for f in findings))
assert all(f.corrected.holds for f in findings)

# %% [markdown]
# ## The smallest counterexamples
#
# For every statement that fails as written, the checker keeps the smallest board on
# which it fails (fewest points, then arcs, then stones), with a game that reaches it
# when there is one.

# %%
for f in findings:
    example = f.as_written.counterexample or f.corrected.counterexample
    if example is None:
        continue
    print(f"{f.key}: {f.statement}")
    print("   " + example.text().replace("\n", "\n   "))
    title = f"{f.key} on {example.graph.name}"
    display(SVG(board_svg(example.graph, example.board, title=title, marks=example.marks)))
