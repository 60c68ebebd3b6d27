"""The Tromp–Taylor options as the engine uses them, and the GNU Go flags of each preset.

The options (``ko``, ``suicide``, ``scoring``, ``komi``) and the presets are defined beside
the rules, in :mod:`gorules.spec.tromp_taylor` (``Options``, ``PRESETS``): the source
``002_8835c2492dce8849.txt`` is the preset ``tromp-taylor``; the presets named ``gnugo-*``
and ``openspiel`` are the rules that GNU Go plays with the given flags and that OpenSpiel's
``go`` game plays, so that the engine can be compared with them under equal rules.  This
module names them for the engine and adds what only the engine needs.
"""

from __future__ import annotations

from gorules.spec.api import OptionError
from gorules.spec.tromp_taylor import PRESETS, Options

TROMP_TAYLOR = PRESETS["tromp-taylor"]

# The GNU Go command-line flags that make GNU Go play under a preset.
GNUGO_FLAGS: dict[str, list[str]] = {
    "gnugo-tromp-taylor": ["--chinese-rules", "--allow-all-suicide", "--positional-superko", "--komi", "0"],
    "gnugo-chinese": ["--chinese-rules", "--komi", "0"],
}


def gnugo_flags(chosen: str | Options) -> list[str]:
    """The GNU Go flags for a preset or options; OptionError if GNU Go cannot play them (stone scoring)."""
    options = options_of(chosen)
    if options.scoring != "area":
        raise OptionError("GNU Go has no stone scoring")
    ko_flag = {
        "positional": ["--positional-superko"],
        "situational": ["--situational-superko"],
        "simple": ["--simple-ko"],
        "none": ["--no-ko"],
    }[options.ko]
    suicide_flag = ["--allow-all-suicide"] if options.suicide == "allowed" else ["--forbid-suicide"]
    return ["--chinese-rules", *suicide_flag, *ko_flag, "--komi", f"{options.komi:g}"]


def options_of(chosen: str | Options | None = None) -> Options:
    """The options a preset's name denotes (``None`` is ``tromp-taylor``); options as they are."""
    if chosen is None:
        return TROMP_TAYLOR
    if isinstance(chosen, Options):
        return chosen
    if isinstance(chosen, str) and chosen in PRESETS:
        return PRESETS[chosen]
    raise OptionError(f"unknown preset {chosen!r}: expected one of {', '.join(PRESETS)}, or Options")
