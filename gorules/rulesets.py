"""The rulesets gorules knows, by name, and how a ruleset is made from a preset and options.

Each ruleset is one registration: its name and the classes that implement it (a subclass of
:class:`gorules.spec.api.Ruleset`), the fastest first.  ``gorules solve``, ``play``,
``sweep`` and the other commands find rulesets here and nowhere else.  A ruleset of your
own joins with :func:`register` (from Python) or ``--ruleset-file FILE`` (from the CLI);
``docs/adding-a-ruleset.md`` walks through it.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from gorules.spec.api import OptionError, Options, Ruleset
from gorules.user_files import load_python_file

# name -> {implementation: "module:Class"}, the default implementation first.
REGISTRY: dict[str, dict[str, str | type[Ruleset]]] = {}


def register(name: str, **implementations: str | type[Ruleset]) -> None:
    """Make a ruleset known under ``name``: each keyword names an implementation
    (``engine=...``, ``spec=...``) as a class or a ``"module:Class"`` path; the first one
    given is the default."""
    if not implementations:
        raise OptionError(f"ruleset {name!r} needs at least one implementation")
    REGISTRY[name] = dict(implementations)


register(
    "tromp-taylor",
    engine="gorules.impl.rulesets.tromp_taylor:TrompTaylor",
    spec="gorules.spec.tromp_taylor:TrompTaylor",
)
register("directed", engine="gorules.impl.rulesets.directed.ruleset:Directed", spec="gorules.spec.directed:Directed")
register(
    "topological", engine="gorules.impl.rulesets.topological:Topological", spec="gorules.spec.topological:Topological"
)
register("ultimate", engine="gorules.impl.rulesets.ultimate.ruleset:Ultimate", spec="gorules.spec.ultimate:Ultimate")
register(
    "fundamental",
    engine="gorules.impl.rulesets.ultimate.ruleset:Fundamental",
    spec="gorules.spec.ultimate:Fundamental",
)
register(
    "political", engine="gorules.impl.rulesets.political.ruleset:Political", spec="gorules.spec.political:Political"
)


def names() -> list[str]:
    """The names of the known rulesets, in registration order."""
    return list(REGISTRY)


def implementations(name: str) -> list[str]:
    """The implementations of a ruleset, the default first."""
    return list(_entry(name))


def _entry(name: str) -> dict[str, str | type[Ruleset]]:
    """The registry entry of a ruleset; OptionError naming the known ones otherwise."""
    if name not in REGISTRY:
        raise OptionError(f"unknown ruleset {name!r}: expected one of {', '.join(REGISTRY)}")
    return REGISTRY[name]


def ruleset_class(name: str, implementation: str | None = None) -> type[Ruleset]:
    """The class implementing a ruleset (its default implementation unless one is named)."""
    entry = _entry(name)
    chosen = implementation or next(iter(entry))
    if chosen not in entry:
        raise OptionError(f"the {name} ruleset has no {chosen!r} implementation: it has {', '.join(entry)}")
    target = entry[chosen]
    if isinstance(target, str):
        module_name, _, class_name = target.partition(":")
        target = getattr(importlib.import_module(module_name), class_name)
        entry[chosen] = target
    return target


def option_value(field: dataclasses.Field, text: Any) -> Any:
    """An option's value read from a command-line word, by the option's declared type."""
    if not isinstance(text, str):
        return text
    kind = field.type if isinstance(field.type, str) else getattr(field.type, "__name__", str(field.type))
    try:
        if kind == "int":
            return int(text)
        if kind == "float":
            value = float(text)
            if not math.isfinite(value):
                raise ValueError("not finite")
            return int(value) if value.is_integer() else value
        if kind == "Fraction":
            return Fraction(text)
        if kind == "bool":
            if text.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise ValueError("not a truth value")
            return text.lower() in ("true", "yes", "1")
        if kind.startswith("tuple"):
            return tuple(word.strip() for word in text.split(",") if word.strip())
    except (ValueError, ZeroDivisionError):
        raise OptionError(f"option {field.name} cannot be {text!r}: expected a value of type {kind}") from None
    return text


def parse_options(words: list[str] | None) -> dict[str, str]:
    """``["ko=simple", "komi=7.5"]`` as a mapping; a word may hold several options separated
    by commas (``ko=simple,suicide=forbidden``), a comma followed by no ``=`` belonging to the
    value (``players=A,B,C``).  OptionError for a word without "=", and for an option given
    twice with two values."""
    options: dict[str, str] = {}
    for word in words or []:
        for item in option_items(word):
            name, equals, value = item.partition("=")
            if not equals or not name.strip():
                raise OptionError(f"bad option {item!r}: write NAME=VALUE, e.g. ko=simple")
            name, value = name.strip(), value.strip()
            if options.get(name, value) != value:
                raise OptionError(f"option {name} is given twice ({options[name]} and {value}): give it once")
            options[name] = value
    return options


def option_items(word: str) -> list[str]:
    """The NAME=VALUE items of one ``--option`` word: split at each comma that a NAME=
    follows."""
    items: list[str] = []
    for piece in word.split(","):
        if items and "=" not in piece:
            items[-1] += "," + piece
        else:
            items.append(piece)
    return items


def set_option(options: dict[str, str], name: str, value: str, flag: str) -> None:
    """Give option ``name`` the value of a dedicated flag (``--players`` for ``players``);
    OptionError when ``--option`` already gave it another value, so neither wins silently."""
    given = options.get(name)
    if given is not None and given != value:
        raise OptionError(f"{flag} {value!r} contradicts --option {name}={given}: give the {name} once")
    options[name] = value


def spelt_anew(options_type: type, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options with each older name of an option (the options type's ``renamed``:
    ``{old: new}``) written as its name; OptionError when both spellings are given."""
    renamed: Mapping[str, str] = getattr(options_type, "renamed", {})
    spelt: dict[str, Any] = {}
    for key, value in options.items():
        name = renamed.get(key, key)
        if name in spelt and spelt[name] != value:
            raise OptionError(f"option {name} is given twice (once as {key}): give it once")
        spelt[name] = value
    return spelt


def make(
    name: str = "tromp-taylor",
    preset: str | None = None,
    options: Mapping[str, Any] | None = None,
    implementation: str | None = None,
) -> Ruleset:
    """The ruleset ``name`` with a preset's options (its default preset when None), some of
    them changed by ``options`` (values as words or typed)."""
    cls = ruleset_class(name, implementation)
    chosen = preset or cls.default_preset
    if chosen not in cls.presets:
        raise OptionError(f"the {name} ruleset has no preset {chosen!r}: expected one of {', '.join(cls.presets)}")
    base: Options = cls.presets[chosen]
    if options:
        options = spelt_anew(type(base), options)
        fields = {f.name: f for f in dataclasses.fields(base) if f.compare}
        unknown = [key for key in options if key not in fields]
        if unknown:
            raise OptionError(
                f"the {name} ruleset has no option {unknown[0]!r}: its options are {', '.join(fields) or 'none'}"
            )
        base = base.replace(**{key: option_value(fields[key], value) for key, value in options.items()})
    return cls(base)


def load_ruleset_file(path: str | Path) -> list[str]:
    """Register every Ruleset subclass that a Python file defines (under its ``name``);
    return their names.  OptionError if the file cannot be loaded or defines none."""
    path = Path(path)
    module = load_python_file(path, "ruleset file", f"gorules_user_rulesets_{path.stem}", OptionError, keep=True)
    found = [
        value
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, Ruleset) and value.__module__ == module.__name__
    ]
    if not found:
        raise OptionError(f"ruleset file {path.name} defines no Ruleset subclass")
    for cls in found:
        register(cls.name, spec=cls)
    return [cls.name for cls in found]


# --------------------------------------------------------------------------- the command line
# (the flags themselves are built by gorules.flags.add_ruleset_flags)


def from_arguments(args) -> Ruleset:
    """The ruleset that the parsed command-line arguments choose."""
    if getattr(args, "ruleset_file", None):
        load_ruleset_file(args.ruleset_file)
    options = parse_options(getattr(args, "options", None))
    if getattr(args, "komi", None) is not None:
        options["komi"] = args.komi
    return make(args.ruleset, args.preset, options, getattr(args, "implementation", None))
