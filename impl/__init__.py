"""The fast implementation: the spec's rules on bitsets and compiled kernels, and what runs on them.

Its rooms, one concern each:

- ``engine``: the source's move on bitsets, games in progress, Benson's life, the options;
- ``kernels``: the numba kernels (a game step, playouts, threshold tests, df-pn, the
  Ultimate/Fundamental questions) and their disk cache;
- ``solving``: search and solving over the ruleset interface, budgets, splitting, certificates;
- ``counting``: legal positions, games, transfer matrices, game graphs;
- ``rulesets``: each ruleset's fast twin and its own algorithms (Tromp–Taylor, topological,
  directed, Ultimate/Fundamental, Political);
- ``formats``: SGF, GTP (client and server), OpenSpiel's board, files written whole;
- ``differential``: the spec's answers, test vectors, mutants and the fuzzing campaign.

Modules that lived directly in ``gorules.impl`` keep their old import path
(``gorules.impl.solve``, ``gorules.impl.ultimate_search``...): :data:`MOVED` maps each to
its room, and importing the old name gives the very module object of the new one, so that
notebooks and users' ruleset files written against the old paths keep working.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys

MOVED = {
    "bitset": "engine.bitset",
    "benson": "engine.benson",
    "game": "engine.playing",
    "compiled": "engine.compiled",
    "options": "engine.options",
    "_numba_cache": "kernels.cache",
    "_numba_game": "kernels.game",
    "_numba_playout": "kernels.playout",
    "_numba_solve": "kernels.solve",
    "_numba_dfpn": "kernels.dfpn",
    "_numba_ultimate": "kernels.ultimate",
    "_numba_ultimate_dfpn": "kernels.ultimate_dfpn",
    "search": "solving.search",
    "solve": "solving.solve",
    "split": "solving.split",
    "certificate": "solving.certificate",
    "certificate_check": "solving.certificate_check",
    "budget": "solving.budget",
    "games": "counting.games",
    "games_longest": "counting.longest",
    "games_repeating": "counting.repeating",
    "games_situational": "counting.situational",
    "game_graph": "counting.game_graph",
    "transfer": "counting.transfer",
    "tromp_taylor": "rulesets.tromp_taylor",
    "topological": "rulesets.topological",
    "directed_arena": "rulesets.directed.arena",
    "directed_conjectures": "rulesets.directed.conjectures",
    "directed_graphs": "rulesets.directed.graphs",
    "directed_pairs": "rulesets.directed.pairs",
    "ultimate_search": "rulesets.ultimate.search",
    "ultimate_compiled": "rulesets.ultimate.compiled",
    "ultimate_analysis": "rulesets.ultimate.analysis",
    "ultimate_claims": "rulesets.ultimate.claims",
    "ultimate_examples": "rulesets.ultimate.examples",
    "multiplayer": "rulesets.political.best_play",
    "political_record": "rulesets.political.record",
    "sgf": "formats.sgf",
    "sgf_replay": "formats.sgf_replay",
    "gtp": "formats.gtp",
    "gtp_server": "formats.gtp_server",
    "spiel": "formats.spiel",
    "files": "formats.files",
    "fuzzing": "differential.fuzzing",
    "vectors": "differential.vectors",
    "mutants": "differential.mutants",
    "oracle": "differential.oracle",
}
"""A flat module name of ``gorules.impl`` (as notebooks and users' files import it) -> the
module's path inside its room of ``gorules.impl``.  (``engine`` and ``counting`` are rooms,
and give their flat names themselves.)"""


class OldPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``gorules.impl.OLD`` for every OLD of :data:`MOVED`: the module of its new path."""

    def find_spec(self, fullname, path=None, target=None):
        """A spec for an old path, None for every other name."""
        package, _, name = fullname.rpartition(".")
        if package != __name__ or name not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        """The module of the new path, imported if need be."""
        return importlib.import_module(f"{__name__}.{MOVED[spec.name.rpartition('.')[2]]}")

    def exec_module(self, module):
        """Nothing to run: the new path's module is loaded already."""


def room_attributes(room: str, facade: str):
    """The module ``__getattr__`` of a room that also stands for one of its modules: a
    submodule of ``room`` by its name, or else a name of module ``facade``, imported when first
    asked for (so that importing one module of the room does not import them all)."""

    def attribute(name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return importlib.import_module(f"{room}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{room}.{name}":
                raise
        return getattr(importlib.import_module(facade), name)

    return attribute


if not any(isinstance(finder, OldPaths) for finder in sys.meta_path):
    sys.meta_path.append(OldPaths())
