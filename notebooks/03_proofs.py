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
# # Proofs with Z3 and SAT: timings per encoding, and a refuted statement drawn
#
# `proofs/` states the source's theorems over a symbolic board: one variable per point,
# and `reaches` as a least fixed point. A *proof* on a graph means the solver showed
# that no board of that graph breaks the statement (the negation is unsatisfiable);
# a refutation comes with a concrete board, which can be replayed on the spec (as
# below).
#
# The least fixed point can be encoded several ways. For Z3 (`proofs/encoding.py`):
# `ranked` (every reaching point is supported by a neighbour of smaller rank) and
# `layered` (the iteration unrolled to depth n). For CDCL SAT solvers (`proofs/sat.py`,
# CaDiCaL through python-sat): `layers`, `unary` ranks and `binary` ranks. Below, the
# same statement, the step of the well-formedness theorem (every move keeps a
# well-formed board well-formed), is proved on grids of growing size with each.

# %%
import time

import matplotlib.pyplot as plt
from IPython.display import SVG, display

from gorules.pictures import board_svg
from gorules.proofs import well_formedness
from gorules.proofs.extras import rebuild_graph
from gorules.proofs.graphs import SymbolicGraph
from gorules.proofs.registry import theorem
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import parse_graph

# %% [markdown]
# ## Seconds against board size
#
# Times are the processor time of this process around each `prove` call (the solvers
# run in-process, single-threaded), so that other work on the machine does not distort
# them. The slow `layered` encoding stops at 3×3 to keep the notebook quick;
# `python benchmarks/bench_proofs.py` runs the comparison on larger boards, with time
# limits and the solver's optional lemmas and reductions. Both sides prove the statement
# in one query: the CNF runs leave the played point and the player to the solver, as Z3
# does (``split=True`` would give one cube per played point and player, the points reduced
# to one per orbit of the grid's automorphisms). Each figure is one run on this machine,
# not an average.

# %%
grids = ["grid:2x2", "grid:2x3", "grid:3x3", "grid:3x4", "grid:4x4"]
runs = {
    "z3 ranked": (well_formedness.prove_step, "ranked", grids),
    "z3 layered": (well_formedness.prove_step, "layered", grids[:3]),
    "cnf layers": (theorem("well-formedness-step-cnf").prove, "layers", grids),
    "cnf unary": (theorem("well-formedness-step-cnf").prove, "unary", grids),
    "cnf binary": (theorem("well-formedness-step-cnf").prove, "binary", grids),
}
timings = {}
for label, (prove, encoding, names) in runs.items():
    prove(parse_graph("grid:1x2"), encoding=encoding)  # warm up: the first call builds caches
    for name in names:
        graph = parse_graph(name)
        start = time.process_time()
        result = prove(graph, encoding=encoding)
        timings.setdefault(label, []).append((graph.order, time.process_time() - start, result.status))
for label, rows in timings.items():
    print(f"{label:11}", "  ".join(f"{n} points: {s:.2f}s {status}" for n, s, status in rows))
assert all(status == "proved" for rows in timings.values() for _, _, status in rows)

# %%
fig, ax = plt.subplots(figsize=(7, 4.5))
for label, rows in timings.items():
    ax.plot([n for n, _, _ in rows], [s for _, s, _ in rows], marker="o", label=label)
ax.set_yscale("log")
ax.set_xlabel("points of the grid (2×2, 2×3, 3×3, 3×4, 4×4)")
ax.set_ylabel("processor seconds")
ax.set_title("T1's step proved on grids, per encoding of reaches")
ax.legend()
plt.show()

# %% [markdown]
# ## A statement refuted as written
#
# The source's one-step clearing theorem says which points a move empties. As written,
# one letter `v` names both the played point and the inspected point, and the
# conditions look at `b_i(v)`, which at the played point is Empty: no exception applies
# there, so the statement claims that the played point stays empty, and any stone that
# survives its own move refutes it. Z3 refutes the written statement on the 2×2 grid
# and on every graph of four points at once (the adjacency symbolic too), while the
# corrected statement (played point `m` and inspected point `v` kept apart, the second
# clearing read on `clear(b', p*)`) is proved on both.

# %%
clearing = theorem("clear-characterization")
print(clearing.statement_as_written)
for target in (parse_graph("grid:2x2"), SymbolicGraph(4)):
    written = clearing.prove(target, as_written=True)
    corrected = clearing.prove(target)
    print(f"{written.graph}: as written {written.status}, corrected {corrected.status} ({corrected.scope})")
    assert written.refuted and corrected.proved
    drawn = rebuild_graph(written.counterexample["graph"])
    for item in written.counterexample["boards"]:
        title = f"{drawn.name}: {item['label']}"
        display(SVG(board_svg(drawn, item["board"], title=title, marks=item.get("marks", []))))

# %% [markdown]
# The counterexample is a real move: the spec, replayed on the board the solver chose,
# gives the board drawn after it.

# %%
cx = written.counterexample
before = tuple(cx["boards"][0]["board"])
after = tt.move(drawn, tt.State(before, cx["player"], 0), cx["point"]).board
print("spec's board after the move:", "".join(after), "| solver's:", cx["boards"][-1]["board"])
assert "".join(after) == cx["boards"][-1]["board"]

# %% [markdown]
# ## Mutants: a proof that cannot fail proves nothing
#
# Each theorem comes with deliberately broken rules that it must refute. On the 3×3 grid:

# %%
for name in ("well-formedness", "clear-characterization"):
    module = theorem(name)
    for mutant in module.mutants:
        result = module.prove(parse_graph("grid:3x3"), mutant=mutant)
        board = result.counterexample["boards"][-1]["board"] if result.counterexample else ""
        print(f"{name:24} mutant {mutant:20} {result.status:8} {board}")
        assert result.refuted
