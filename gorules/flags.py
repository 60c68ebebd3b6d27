"""The flags that several commands share, each built here once: the graph, the ruleset with
its preset and options, the budget, the range of a sweep and the output.

One vocabulary across the commands:

- ``--preset NAME`` names a set of options (``--rules`` is its older spelling), ``--option
  NAME=VALUE`` changes one option (``--reading`` is its spelling where the options read a
  source's ambiguous clauses);
- ``--seconds`` (older spelling ``--timeout``) and ``--nodes`` (``--max-nodes``) are budgets
  of time and search nodes; ``--max-points N`` refuses a larger graph before any work;
- ``--points N`` or ``--points A..B`` is the range of sizes a sweep covers (``--max-points``
  or ``--max-order`` where a command spelt its range so);
- ``--no-progress`` turns off a command's progress bar on stderr;
- ``--json`` prints the result as one JSON document on stdout; ``--out FILE`` writes the
  result (JSON with ``--json``, else the text) to FILE, whole or not at all, and still prints
  the text on stdout (:func:`printing_to_out`, for a command that prints for itself, has no
  text to print with ``--json``); ``--out -`` is stdout alone.  ``--json FILE``, where a
  command took a file there, writes the JSON to FILE as ``--json --out FILE`` does, with one
  line on stderr saying so.
- every flag naming an output (``--out``, ``--json FILE``, ``--record``, ``--certificate``,
  ``--picture``, ``--pictures``) is checked when the arguments are read, before any work, by
  one check (:func:`output_problem`; :func:`add_output_path` builds such a flag): a device or
  FIFO is written in place, a link followed, a directory, a socket or an empty path refused.

Where a flag's default differs between commands, the command's ``--help`` says why.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import sys
from collections.abc import Callable
from typing import NamedTuple

from gorules import rulesets
from gorules.arguments import positive_finite
from gorules.errors import UsageError, json_text
from gorules.impl.formats import files
from gorules.impl.formats.files import write_text_atomically

GRAPH_HELP = "a graph, e.g. grid:2x2, path:5, cycle:4, atlas:40, petersen, digraph:0>1,1>0"
STDOUT = files.STDOUT
BOUNDED_BY_SIZE = "unlike solve's, for the size limit on the graphs bounds these searches"
"""Why a budget of a command over source 003's yes/no searches has no default."""


def add_spellings(parser, names: tuple[str, ...], help: str, **settings) -> None:
    """A flag under its name and its other spellings (``names[1:]``): the help lists the
    name and says the others, and an error names the spelling that was given."""
    first, *others = names
    if others:
        help = f"{help}; also spelt {', '.join(others)}"
    parser.add_argument(first, help=help, **settings)
    for name in others:
        parser.add_argument(name, help=argparse.SUPPRESS, **settings)


def with_default(text: str, default, reason: str | None = None, shown: str | None = None) -> str:
    """A help line ending with its default, and why this command's default is what it is."""
    if shown is None:
        shown = "none" if default is None else f"{default:,}" if isinstance(default, int) else f"{default:g}"
    return f"{text} (default {shown}{': ' + reason if reason else ''})"


# --------------------------------------------------------------------------- the graph


def add_graph(parser, *, flag: bool = False, help: str = GRAPH_HELP, **settings) -> None:
    """The graph a command works on: the positional ``GRAPH`` (``flag=False``) or ``--graph G``;
    further ``add_argument`` settings (``default``, ``nargs``, ``dest``, ``required``) pass through."""
    if flag:
        parser.add_argument("--graph", help=help, **settings)
    else:
        parser.add_argument(settings.pop("dest", "graph"), help=help, **settings)


# --------------------------------------------------------------------------- ruleset, preset, options


def add_ruleset(parser, default: str | None = "tromp-taylor", *, choices=None, help: str | None = None) -> None:
    """``--ruleset NAME`` (default ``default``; the names ``choices``, else every known ruleset)."""
    known = ", ".join(choices or rulesets.names())
    parser.add_argument(
        "--ruleset", default=default, choices=choices, help=help or f"the ruleset (default {default}): {known}"
    )


def add_preset(
    parser, default: str | None = None, help: str = "a named set of options", shown: str | None = None
) -> None:
    """``--preset NAME`` (older spelling ``--rules``); ``shown`` says what the default is
    when it is not a name (default: the ruleset's own preset)."""
    shown = shown or (default if default is not None else "the ruleset's own")
    add_spellings(parser, ("--preset", "--rules"), f"{help} (default: {shown})", dest="preset", default=default)


def add_options(
    parser,
    help: str = "set options of the ruleset, e.g. --option ko=simple; repeatable, or several at once: "
    "--option ko=simple,suicide=forbidden",
    aliases: tuple[str, ...] = (),
) -> None:
    """``--option NAME=VALUE``, repeatable, into ``args.options`` (a list of words, or None);
    ``aliases`` are other spellings of the same flag (``--reading``)."""
    add_spellings(parser, ("--option", *aliases), help, dest="options", action="append", metavar="NAME=VALUE")


def add_ruleset_flags(parser, default: str | None = "tromp-taylor") -> None:
    """Every flag that chooses a ruleset: ``--ruleset`` (unless the command takes it as its
    first argument: ``default=None``), ``--preset`` (``--rules``), ``--option NAME=VALUE``,
    ``--komi``, ``--implementation`` and ``--ruleset-file``; read by
    :func:`gorules.rulesets.from_arguments`."""
    if default is not None:
        add_ruleset(parser, default)
    add_preset(parser)
    add_options(parser)
    parser.add_argument("--komi", default=None, help="the ruleset's komi option (shorthand for --option komi=K)")
    parser.add_argument(
        "--implementation", default=None, help="which implementation of the ruleset to run (default: the fastest)"
    )
    add_ruleset_file(parser)


def add_ruleset_file(parser) -> None:
    """``--ruleset-file FILE``: a Python file defining rulesets of one's own."""
    parser.add_argument("--ruleset-file", metavar="FILE", help="a Python file defining rulesets of your own")


# --------------------------------------------------------------------------- budgets


def add_budget(parser, names: tuple[str, ...], kind, metavar: str, default, reason: str | None, help: str) -> None:
    """A budget flag under its spellings, into ``args.<name>`` (``--seconds``: ``args.seconds``),
    its help ending with the default and why."""
    add_spellings(
        parser,
        names,
        with_default(help, default, reason),
        dest=names[0].removeprefix("--"),
        type=kind,
        default=default,
        metavar=metavar,
    )


def add_seconds(parser, default: float | None, reason: str | None = None, help: str = "time budget in seconds") -> None:
    """``--seconds S`` (older spelling ``--timeout``): a positive finite time budget."""
    add_budget(parser, ("--seconds", "--timeout"), positive_finite, "S", default, reason, help)


def add_nodes(
    parser, default: int | None, reason: str | None = None, help: str = "node budget: search nodes in all"
) -> None:
    """``--nodes N`` (older spelling ``--max-nodes``): a budget of search nodes, into ``args.nodes``."""
    add_budget(parser, ("--nodes", "--max-nodes"), int, "N", default, reason, help)


def add_max_points(parser, default: int | None, reason: str | None = None, shown: str | None = None) -> None:
    """``--max-points N``: a graph of more points is refused before any work (``shown`` says
    the default in words where it is not one number)."""
    parser.add_argument(
        "--max-points",
        type=int,
        default=default,
        metavar="N",
        help=with_default("refuse a larger graph before any work", default, reason, shown),
    )


def nodes_at_least_one(args) -> None:
    """UsageError for a node budget below 1 (None is no budget)."""
    if args.nodes is not None and args.nodes < 1:
        raise UsageError(f"--nodes must be at least 1, got {args.nodes}")


# --------------------------------------------------------------------------- the range of a sweep


class PointRange(NamedTuple):
    """The sizes a sweep covers: graphs (or spaces) of ``first`` to ``last`` points."""

    first: int
    last: int

    def __str__(self) -> str:
        """``A..B`` as the flag takes it."""
        return f"{self.first}..{self.last}"


def point_range(text: str) -> PointRange:
    """``N`` (1 to N) or ``A..B``, whole numbers with 1 <= A <= B."""
    first, dots, last = text.strip().partition("..")
    try:
        bounds = PointRange(int(first), int(last)) if dots else PointRange(1, int(first))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected N or A..B (whole numbers), got {text!r}") from None
    if not 1 <= bounds.first <= bounds.last:
        raise argparse.ArgumentTypeError(f"expected 1 <= A <= B in A..B, or N at least 1, got {text!r}")
    return bounds


def add_points(
    parser, default: int, help: str, aliases: tuple[str, ...] = (), reason: str | None = None, least: int = 1
) -> None:
    """``--points N`` or ``--points A..B``: the range of sizes a sweep covers, into
    ``args.points`` (a :class:`PointRange`); ``aliases`` are the command's older spellings,
    which take the same values (``--max-points 3`` is ``--points 1..3``)."""
    add_spellings(
        parser,
        ("--points", *aliases),
        with_default(help, default, reason),
        dest="points",
        type=point_range,
        default=PointRange(least, default),
        metavar="N|A..B",
    )


def largest(args, least: int = 1) -> int:
    """The top of ``--points`` where the sweep always starts at ``least`` points; UsageError
    for a range that starts elsewhere."""
    first, last = args.points
    if first not in (1, least):
        raise UsageError(f"--points starts at {least} here: write --points {last} or --points {least}..{last}")
    return last


# --------------------------------------------------------------------------- progress


def add_no_progress(parser) -> None:
    """``--no-progress``: no progress bar on stderr, for a command that draws one while it works."""
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def shows_progress(args) -> bool:
    """Whether a command draws its progress bar: stderr is a terminal, and neither ``--json``
    nor ``--no-progress`` was given (a bar would mix with a result read by a program)."""
    return not getattr(args, "json", False) and not getattr(args, "no_progress", False) and sys.stderr.isatty()


# --------------------------------------------------------------------------- output


class JsonOrFile(argparse.Action):
    """``--json`` as a switch; ``--json FILE``, where a command took a file there, also sets
    the file (one line on stderr says to write ``--json --out FILE``); ``--json -`` is stdout."""

    def __call__(self, parser, namespace, values, option_string=None):
        """Set the switch, and the file when one is named."""
        namespace.json = True
        if values is None:
            return
        if values == STDOUT:
            print(f"{parser.prog}: note: --json - is deprecated: --json prints to stdout", file=sys.stderr)
            return
        problem = output_problem(values)
        if problem:
            parser.error(f"--json {values!r} cannot be written: {problem}")
        print(f"{parser.prog}: note: --json FILE is deprecated: use --json --out {values}", file=sys.stderr)
        namespace.json_file = values


def output_problem(path: str, directory: bool = False) -> str | None:
    """Why a result file (``directory``: a directory of files) could not be written at
    ``path``, or None: the one check of every output flag, by the rules of
    :mod:`gorules.impl.formats.files` (a device or FIFO written in place, a link followed,
    a directory, a socket or an empty path refused)."""
    return files.output_problem(path, directory=directory)


def output_file(text: str) -> str:
    """An output file flag's argument (``--out``, ``--record``, ``--certificate``,
    ``--picture``): ``-`` (stdout) or a path a file can be written at, checked at once."""
    problem = output_problem(text)
    if problem:
        raise argparse.ArgumentTypeError(f"{text!r} cannot be written: {problem}")
    return text


def output_directory(text: str) -> str:
    """An output directory flag's argument (``--pictures``, ``fuzz --out``): a directory
    that is there or can be made, checked at once."""
    problem = output_problem(text, directory=True)
    if problem:
        raise argparse.ArgumentTypeError(f"{text!r} cannot be written: {problem}")
    return text


def add_output_path(parser, name: str, help: str, *, directory: bool = False, **settings) -> None:
    """An output flag naming a file (or, ``directory=True``, a directory of files), its path
    checked when the arguments are read, before any work."""
    parser.add_argument(
        name,
        type=output_directory if directory else output_file,
        metavar="DIR" if directory else "FILE",
        help=help,
        **settings,
    )


def add_output(parser, what: str = "the result", *, json_file: bool = False, out: bool = True) -> None:
    """``--json`` (print ``what`` as JSON on stdout) and ``--out FILE`` (unless the command
    gives ``--out`` another meaning: ``out=False``); ``json_file=True`` where the command took
    ``--json FILE``, which stays accepted."""
    help = f"print {what} as one JSON document on stdout"
    if json_file:
        parser.add_argument(
            "--json",
            nargs="?",
            default=False,
            action=JsonOrFile,
            metavar="FILE",
            help=help + " (--json FILE, deprecated, is --json --out FILE)",
        )
        parser.set_defaults(json_file=None)
    else:
        parser.add_argument("--json", action="store_true", help=help)
    if out:
        parser.add_argument(
            "--out",
            type=output_file,
            default=None,
            metavar="FILE",
            help="write the result (JSON with --json, else the text) to FILE, whole or not at all, and print "
            "the text on stdout; - for stdout alone",
        )


def destination(args) -> str | None:
    """The file the result goes to (``--out FILE`` or ``--json FILE``), or None for stdout."""
    out, legacy = getattr(args, "out", None), getattr(args, "json_file", None)
    if isinstance(out, str) and legacy is not None and out != legacy:
        raise UsageError(f"--json {legacy} and --out {out} name two files: give --json --out FILE")
    chosen = out if isinstance(out, str) else legacy
    return None if chosen in (None, STDOUT) else chosen


def emit(args, data, text: str | None = None, **dumps) -> None:
    """Give the command's result: JSON of ``data`` with ``--json`` (``json.dumps`` options in
    ``dumps``, strict: no NaN), else ``text``; to the ``--out`` file with the text still
    printed on stdout, or on stdout alone."""
    document = json_text(data, **dumps) if args.json else text
    target = destination(args)
    if target is not None and document is not None:
        write_text_atomically(target, document + "\n")
        if text:
            print(text)
    elif document:
        print(document)


def printing_to_out(run: Callable[..., int]) -> Callable[..., int]:
    """``run``, a command's function that prints its result itself, with ``--out FILE``:
    what it prints on stdout is written to FILE whole (nothing if it fails) and, unless it
    is JSON, printed as well."""

    @functools.wraps(run)
    def with_out(args) -> int:
        target = destination(args)
        if target is None:
            return run(args)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            code = run(args)
        write_text_atomically(target, printed.getvalue())
        if not args.json:
            sys.stdout.write(printed.getvalue())
        return code

    return with_out
