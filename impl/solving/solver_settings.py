"""The settings of one Tromp–Taylor solve (:class:`gorules.impl.solving.solve.Solver`), in one
frozen record, and the choice of the core and search that run its threshold tests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gorules.impl.engine.options import Options
from gorules.impl.solving.stops import SolveError
from gorules.impl.solving.threshold_walk import DESCENTS
from gorules.spec.graph import Graph

MAX_POINTS = 30
"""The largest graph the solver takes unless asked: the largest boards solved by anyone
(rectangles of up to 30 intersections, van der Werf and Winands, ICGA Journal 2009).  Below
it every solve runs within its budget and reports the value or the bounds proved; above it
no budget this solver can be given finishes, so the graph is refused before any work."""
DEFAULT_CORE = "compiled"
"""The core used where it supports the game (finite ko rules, undirected graphs, at most 64
points) unless one is asked for: the same tests in numba, measured faster than the Python
core (docs/solver.md, "The compiled core")."""
SEARCHES = ("deepening", "dfpn")
DEFAULT_SEARCH = "dfpn"
"""The compiled core decides its threshold tests by df-pn unless asked otherwise: it takes
far fewer nodes than the deepening and solves boards the deepening leaves open
(docs/solver.md, "Proof-number search for the threshold tests")."""


@dataclass(frozen=True)
class SolverSettings:
    """How to solve ``graph`` under ``options`` (Options, or a preset's name; None: Tromp–Taylor):
    from the empty board with Black to move, or from ``start`` = (black points, white points,
    side to move: 0 Black, 1 White) taken as a position without earlier history; SolveError if
    the graph has more than ``max_points`` points.  The search stops (BudgetSpent) after
    ``max_nodes`` nodes or ``max_seconds`` seconds; ``progress(solver)`` is called every
    ``TICK`` nodes and after each null-window test.  ``transpositions`` switches the tables,
    ``benson`` and ``symmetry`` the Benson bounds and the automorphism folding (each used only
    where it is sound); ``territory`` counts, with the Benson bounds under area scoring, the
    secure regions of the alive stones and not only their one-point eyes (``docs/solver.md``).
    ``max_depth`` is the deepening's last horizon (default six turns per point).  ``core`` is
    "compiled" (the threshold tests run in ``impl/kernels/solve.py``, the default where the
    rules allow: ``DEFAULT_CORE``) or "python"; ``table_bits`` sets the compiled table's size.
    ``search`` is how the compiled core decides a threshold test: "dfpn" (depth-first
    proof-number search, ``impl/kernels/dfpn.py``; ``DEFAULT_SEARCH``) or "deepening"
    (iterative deepening, then the proof search without a horizon; the Python core's way).
    ``table_ways`` is how many slots of the compiled table one state may fill (default
    ``TABLE_WAYS`` under df-pn, 1 under the deepening).  ``jobs`` > 1 lets a df-pn test that
    resists ``split_after`` nodes be split over that many worker processes
    (:mod:`gorules.impl.solving.split`; SolveError where the table they share and the private
    arrays of each and of this process would not fit in memory), None over the cores, as
    many as fit; 1 searches in this process alone.  ``descent`` is how the tests walk down in
    their turns (``DESCENTS``): from the upper bound (``step``) or from the middle of the
    bounds (``bisect``).  ``scheduler``, a Dask scheduler's address, splits such tests over
    that cluster's workers instead (:mod:`gorules.impl.solving.split_dask`; ``jobs`` is then
    the threads of its workers)."""

    graph: Graph
    options: str | Options | None = None
    max_nodes: int | None = None
    transpositions: bool = True
    max_points: int = MAX_POINTS
    start: tuple | None = None
    max_seconds: float | None = None
    progress: Callable[[Any], None] | None = None
    benson: bool = True
    symmetry: bool = True
    max_depth: int | None = None
    core: str | None = None
    table_bits: int | None = None
    territory: bool = False
    search: str | None = None
    table_ways: int | None = None
    jobs: int | None = 1
    descent: str = "step"
    scheduler: str | None = None

    def __post_init__(self) -> None:
        """SolveError for an unknown descent or a graph above ``max_points`` points."""
        if self.descent not in DESCENTS:
            raise SolveError(f"no descent {self.descent!r}: one of {', '.join(DESCENTS)}")
        if self.graph.order > self.max_points:
            raise SolveError(
                f"{self.graph.name} has {self.graph.order} points: the solver takes at most {self.max_points} "
                "(raise the limit with --max-points at your own risk)"
            )


def compiled_unsupported(ko: str, symmetric: bool, n: int) -> str | None:
    """Why the compiled core cannot run a game under the ko rule ``ko`` on a graph of ``n``
    points (``symmetric``: undirected), or None if it can."""
    if ko in ("simple", "none"):
        return f"ko={ko} (play can cycle)"
    if not symmetric:
        return "a directed graph"
    if n > 64:
        return "more than 64 points"
    from gorules.impl.engine.compiled import compiled_available

    if not compiled_available():
        return "numba is not installed"
    return None


def choose_core(core: str | None, ko: str, symmetric: bool, n: int) -> str:
    """The core that runs the threshold tests: ``core`` if given (SolveError if the
    compiled core is asked for a game it does not support), else ``DEFAULT_CORE`` where
    the compiled core supports the game and "python" where it does not."""
    if core not in (None, "python", "compiled"):
        raise SolveError(f"unknown core {core!r}: the cores are python and compiled")
    why = compiled_unsupported(ko, symmetric, n) if core != "python" else None
    if core == "compiled" and why is not None:
        raise SolveError(f"the compiled core does not support {why}: use the python core")
    if core is None:
        return DEFAULT_CORE if why is None else "python"
    return core


def choose_search(search: str | None, core: str) -> str:
    """The compiled core's way of deciding a threshold test: ``search`` if given
    (SolveError if unknown, or if df-pn is asked of the Python core), else
    ``DEFAULT_SEARCH`` for the compiled core and "deepening" for the Python core."""
    if search not in (None, *SEARCHES):
        raise SolveError(f"unknown search {search!r}: the searches are {' and '.join(SEARCHES)}")
    if search == "dfpn" and core != "compiled":
        raise SolveError("df-pn runs in the compiled core only: drop --core python or use --search deepening")
    if search is None:
        return DEFAULT_SEARCH if core == "compiled" else "deepening"
    return search
