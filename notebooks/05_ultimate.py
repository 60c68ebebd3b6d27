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
# # Area scoring against Ultimate Go on small graphs
#
# Ultimate Go (source `003_ba4357ff6ddc9904.txt`) adds an *ultimate prisoner* to no-pass Go
# with prisoner return so that a close game's result no longer depends on the parity of the
# neutral (dame) points, as it does under area scoring. This notebook sets side by side, for
# every connected graph of at most 6 points: the Tromp–Taylor area value under perfect play,
# section IV's Fundamental score, and the Ultimate Go result, and looks at where area scoring
# and Ultimate Go disagree. Graphs of at most 4 points are computed here; the 5- and 6-point
# rows are read from `docs/ultimate-table-6.md`, which `gorules ultimate-table --points 6`
# wrote.

# %%
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import matplotlib.pyplot as plt
from IPython.display import Markdown, display

import gorules
from gorules import rulesets
from gorules.commands.ultimate_table import connected_graphs, markdown, table_row
from gorules.impl.rulesets.ultimate.search import solve
from gorules.impl.solving.search import solve as solve_area
from gorules.spec.graph import parse_graph

# %% [markdown]
# ## The table
#
# `table_row` is what the command computes per graph. Live, with 10 s per search (the
# graphs of at most 4 points need far less):

# %%
budget = SimpleNamespace(seconds=10.0, nodes=None, area_nodes=1_000_000)
live = [table_row(graph, budget) for graph in connected_graphs(4)]
display(Markdown(markdown(live)))
assert all("ultimate_result" in row and "fundamental_score" in row for row in live)

# %% [markdown]
# The larger graphs come from the markdown file. A cell reads "unknown" or a bound
# (`[+3.5, +4.5]`, `draw or B`) where a budget ran out; only known values are used below.


# %%
def parse_cell(text: str):
    """A table cell as a number, a word, or None for unknown or bounded values."""
    text = text.strip()
    if text in ("unknown", "?") or text.startswith("[") or " or " in text:
        return None
    try:
        return float(text)
    except ValueError:
        return text


def read_table(path: Path) -> list[dict]:
    """The rows of a table written by `gorules ultimate-table`."""
    names = ["graph", "points", "edges", "area", "territory", "score", "ultimate", "differ"]
    rows = []
    for line in path.read_text().splitlines():
        if line.startswith("| atlas:"):
            cells = line.strip().strip("|").split("|")
            rows.append(dict(zip(names, (parse_cell(c) if i > 2 else c.strip() for i, c in enumerate(cells)))))
    return rows


source = Path(gorules.__file__).resolve().parent.parent / "docs" / "ultimate-table-6.md"
stored = read_table(source) if source.exists() else []
rows = [
    {
        "graph": r["graph"],
        "points": r["points"],
        "area": r.get("area_value"),
        "territory": r.get("territory"),
        "score": r.get("fundamental_score"),
        "ultimate": r.get("ultimate_result"),
    }
    for r in live
]
rows += [{**r, "points": int(r["points"])} for r in stored if int(r["points"]) > 4]
print(f"{len(rows)} graphs ({len(stored)} rows read from {source.name})")
for n in sorted({r["points"] for r in rows}):
    of = [r for r in rows if r["points"] == n]
    known = {k: sum(r[k] is not None for r in of) for k in ("area", "score", "ultimate")}
    print(
        f"{n} points: {len(of)} graphs; known: area {known['area']}, score {known['score']}, Ultimate {known['ultimate']}"
    )

# %% [markdown]
# ## Where area scoring and Ultimate Go disagree
#
# The area winner is the sign of the area value. Where it and the Ultimate result are both
# known, we list the graphs where they differ, with the Fundamental score.


# %%
def area_winner(value: float) -> str:
    """B, W or draw from an area value."""
    return "B" if value > 0 else "W" if value < 0 else "draw"


both = [r for r in rows if r["area"] is not None and r["ultimate"] is not None]
differ = [r for r in both if area_winner(r["area"]) != r["ultimate"]]
print(f"area and Ultimate both known on {len(both)} graphs; they differ on {len(differ)}")
lines = ["| graph | points | area value | Fundamental score | Ultimate result |", "|---|---|---|---|---|"]
lines += [f"| {r['graph']} | {r['points']} | {r['area']:+g} | {r['score']:+g} | {r['ultimate']} |" for r in differ]
display(Markdown("\n".join(lines)))
print("Fundamental scores where they differ:", Counter(r["score"] for r in differ))
assert differ and all(abs(r["score"]) == 0.5 for r in differ if r["score"] is not None)

# %% [markdown]
# Every disagreement found has Fundamental score +½ and Ultimate result draw: Black is ahead
# by the least possible margin (one more prisoner for White would turn Fundamental Go), and
# the area count still gives her the win, because area scoring gives the last neutral point
# (or the odd point out) to whoever fills it first: dame parity. The ultimate delays make
# such a least-margin game a draw unless one side has more territory in Ultimate Go's own
# sense (section VII). A score of ±½ does not always mean a draw: where it is +½ and Black
# still wins Ultimate Go (some 6-point graphs), area scoring and Ultimate Go agree.

# %%
colours = {"B": "black", "draw": "tab:orange", "W": "tab:blue"}
fig, ax = plt.subplots(figsize=(7, 4.5))
for result, colour in colours.items():
    pts = [
        (r["area"], r["score"])
        for r in rows
        if r["ultimate"] == result and r["area"] is not None and r["score"] is not None
    ]
    if pts:
        ax.scatter(*zip(*pts), c=colour, label=f"Ultimate result {result}", s=40, alpha=0.6)
marked = [(r["area"], r["score"]) for r in differ if r["score"] is not None]
ax.scatter(*zip(*marked), facecolors="none", edgecolors="red", s=160, label="area winner ≠ Ultimate result")
ax.axhline(0, color="grey", lw=0.5)
ax.axvline(0, color="grey", lw=0.5)
ax.set_xlabel("Tromp–Taylor area value (Black's margin)")
ax.set_ylabel("Fundamental score (section IV)")
ax.set_title("Connected graphs of at most 6 points")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ## One small example: the path of 3 points
#
# Under Tromp–Taylor rules Black plays the middle point and both pass: Black owns the whole
# board, area +3. In Ultimate Go the same first move leaves White no placement (each end
# point would be surrounded), yet the score is only +½ and White forces a draw: she plays
# her ultimate delay; Black has no plain prisoner and filling an end would let White take
# both Black stones, so she plays her ultimate delay too, and the second ultimate delay
# hands White the right to declare a draw.

# %%
graph = parse_graph("path:3")
ultimate_game = solve(rulesets.make("ultimate").initial(graph))
print("Ultimate Go on path:3:", ultimate_game.value, "by", ultimate_game.principal_variation)
area_game = solve_area(rulesets.make("tromp-taylor").initial(graph), max_nodes=10_000)
print("Tromp–Taylor on path:3: area value", area_game.value, "by", area_game.principal_variation)
assert ultimate_game.value == "draw" and area_game.value == 3
