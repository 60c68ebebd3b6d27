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

RuleSet = Options
"""The engine's name for the Tromp–Taylor options (see :class:`gorules.spec.tromp_taylor.Options`)."""

RuleError = OptionError
"""An option or preset name that does not exist."""

TROMP_TAYLOR = PRESETS["tromp-taylor"]

# The GNU Go command-line flags that make GNU Go play under a preset.
GNUGO_FLAGS: dict[str, list[str]] = {
    "gnugo-tromp-taylor": ["--chinese-rules", "--allow-all-suicide", "--positional-superko", "--komi", "0"],
    "gnugo-chinese": ["--chinese-rules", "--komi", "0"],
}


def gnugo_flags(rules: str | RuleSet) -> list[str]:
    """The GNU Go flags for a ruleset; RuleError if GNU Go cannot play it (stone scoring)."""
    rules = ruleset(rules)
    if rules.scoring != "area":
        raise RuleError("GNU Go has no stone scoring")
    ko_flag = {
        "positional": ["--positional-superko"],
        "situational": ["--situational-superko"],
        "simple": ["--simple-ko"],
        "none": ["--no-ko"],
    }[rules.ko]
    suicide_flag = ["--allow-all-suicide"] if rules.suicide == "allowed" else ["--forbid-suicide"]
    return ["--chinese-rules", *suicide_flag, *ko_flag, "--komi", f"{rules.komi:g}"]


def ruleset(rules: str | RuleSet | None = None) -> RuleSet:
    """The RuleSet a preset name denotes (``None`` is ``tromp-taylor``); a RuleSet as is."""
    if rules is None:
        return TROMP_TAYLOR
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str) and rules in PRESETS:
        return PRESETS[rules]
    raise RuleError(f"unknown ruleset {rules!r}: expected one of {', '.join(PRESETS)} or a RuleSet")
