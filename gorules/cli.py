"""The ``gorules`` command: discovers the subcommands in ``gorules.commands`` and runs one.

There is one error path (``docs/exit-codes.md``): bad input of any kind (a malformed
graph, an unknown point, an illegal move, a broken SGF, a bad option) and a refused or
exhausted budget end with one line on stderr naming the problem, exit code 2; a failed
check is exit 1; success 0.  Anything else is a bug, shown as one line
``internal error: …; run with --debug for the traceback`` with exit code 3.  ``--debug``
(or the environment variable ``GORULES_DEBUG=1``) shows the traceback instead.

A memory ceiling guards every command: the address space of the process (and of the
workers it starts) is limited to a fraction of the machine's memory (``--memory-limit``,
or ``GORULES_MEMORY_LIMIT``; default 0.75), so that exhausting it is a one-line error and
never a machine that swaps or kills processes.
"""

from __future__ import annotations

import argparse
import codecs
import importlib
import io
import os
import pkgutil
import signal
import sys
import threading
import traceback
from collections.abc import Iterator
from contextlib import contextmanager

import gorules.commands
from gorules.errors import BAD_INPUT, INTERNAL_ERROR, UsageError, one_line, shown
from gorules.spec.api import IllegalMove, OptionError
from gorules.spec.graph import GraphError

DEBUG_VARIABLE = "GORULES_DEBUG"
MEMORY_VARIABLE = "GORULES_MEMORY_LIMIT"
DEFAULT_MEMORY_FRACTION = 0.75

# Errors that are the user's input (or budget), whatever module raised them: one line, exit 2.
INPUT_ERRORS: tuple[type[BaseException], ...] = (UsageError, GraphError, OptionError, IllegalMove)


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``gorules count: error: …``), exit 2,
    without the usage text that argparse prints first.  Flags are taken only as written:
    argparse's prefix matching would read ``--ko simple`` as ``--komi simple``."""

    def __init__(self, *args, **kwargs):
        """A parser that does not expand abbreviated flags."""
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        """Print the problem on one line and exit 2."""
        self.exit(BAD_INPUT, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one subcommand per module of ``gorules.commands``."""
    parser = OneLineParser(
        prog="gorules",
        description="A formal-methods toolkit for the rules of Go on arbitrary graphs.",
        epilog="Exit codes: 0 success, 1 a check failed, 2 bad input or a refused budget, 3 internal error.",
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        help=f"show the traceback of an error (also: {DEBUG_VARIABLE}=1)",
    )
    parser.add_argument(
        "--memory-limit",
        metavar="FRACTION",
        default=None,
        help="the most memory a command may use, as a fraction of the machine's memory "
        f"(default {DEFAULT_MEMORY_FRACTION}; also {MEMORY_VARIABLE}; 0 or none: no ceiling)",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    for module in sorted(pkgutil.iter_modules(gorules.commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"gorules.commands.{module.name}").register(subparsers)
    return parser


def debugging(args) -> bool:
    """Whether tracebacks are shown: ``--debug`` or GORULES_DEBUG set to something true."""
    wanted = os.environ.get(DEBUG_VARIABLE, "").strip().lower() not in ("", "0", "no", "false")
    return bool(getattr(args, "debug", False)) or wanted


def memory_fraction(text: str | None) -> float | None:
    """The memory ceiling as a fraction of the machine's memory (None: no ceiling), from the
    flag's text, else the environment, else the default; UsageError naming a bad value."""
    source = "--memory-limit"
    if text is None:
        text, source = os.environ.get(MEMORY_VARIABLE), MEMORY_VARIABLE
    if text is None or not text.strip():
        return DEFAULT_MEMORY_FRACTION
    if text.strip().lower() in ("0", "none", "off"):
        return None
    try:
        fraction = float(text)
    except ValueError:
        fraction = -1.0
    if not 0 < fraction <= 1:
        raise UsageError(f"{source} must be a fraction in (0, 1] or 0 for none, got {shown(text)}")
    return fraction


def machine_memory() -> int | None:
    """The machine's physical memory in bytes, or None where it cannot be read."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def address_space() -> int | None:
    """The bytes of address space this process uses now (Linux), or None."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


@contextmanager
def memory_ceiling(fraction: float | None) -> Iterator[int | None]:
    """Limit this process's address space (its soft limit) to ``fraction`` of the machine's
    memory while the block runs, and put the old limit back after (commands also run inside
    test processes).  Yields the ceiling in bytes, or None where none is set."""
    try:
        import resource
    except ImportError:  # not a Unix: no ceiling
        yield None
        return
    total = machine_memory()
    if fraction is None or total is None:
        yield None
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    ceiling = int(total * fraction)
    used = address_space()
    if used is not None and ceiling < used:
        raise UsageError(
            f"--memory-limit {fraction:g} allows {ceiling / 1e9:.2g} GB, less than the {used / 1e9:.2g} GB "
            "the program already uses"
        )
    if hard != resource.RLIM_INFINITY:
        ceiling = min(ceiling, hard)
    if soft != resource.RLIM_INFINITY and soft <= ceiling:
        yield soft  # already tighter
        return
    resource.setrlimit(resource.RLIMIT_AS, (ceiling, hard))
    try:
        yield ceiling
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


FAILED_NATIVE_CALL = ("returned NULL without setting an exception", "error return without exception set")
"""What CPython says when compiled code fails without raising a Python exception, as the load of
a native library that cannot map its memory under the ceiling does."""


def native_failure(text: str) -> bool:
    """Whether a SystemError's text is CPython's for compiled code that failed silently (a
    plain loop: under an exhausted ceiling not even a generator can be made)."""
    for said in FAILED_NATIVE_CALL:
        if said in text:
            return True
    return False


def caused_by_memory(error: BaseException) -> bool:
    """Whether an error was raised while handling (or because of) a MemoryError, or is the
    failed load of a native extension: an import that ran out of memory is reported as what
    it is."""
    seen = set()
    link: BaseException | None = error
    while link is not None and id(link) not in seen:
        if isinstance(link, MemoryError):
            return True
        if isinstance(link, SystemError) and native_failure(str(link)):
            return True
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return False


def report(args, message: str) -> None:
    """Print one error line for the command that was running."""
    command = getattr(args, "command", None)
    prefix = f"gorules {command}" if command else "gorules"
    print(f"{prefix}: error: {one_line(message)}", file=sys.stderr)


# ---------------------------------------------------------------- the standard streams

TRANSLITERATION = {
    "×": "x",
    "·": ".",
    "≤": "<=",
    "≥": ">=",
    "≠": "!=",
    "→": "->",
    "←": "<-",
    "↔": "<->",
    "⇒": "=>",
    "–": "-",
    "—": "--",
    "…": "...",
    "’": "'",
    "‘": "'",
    "“": '"',
    "”": '"',
    "∞": "inf",
    "√": "sqrt",
    "±": "+-",
    "−": "-",
    "∈": " in ",
    "∅": "{}",
    "⋅": ".",
    "●": "B",
    "○": "W",
    "∨": " or ",
    "∧": " and ",
    "¬": "not ",
    "∃": "exists ",
    "∀": "for all ",
    "↦": "|->",
    "Σ": "sum",
    "∑": "sum",
    "✓": "yes",
    "✗": "no",
}
"""ASCII for the characters the output uses, where the terminal's encoding lacks them."""

TRANSLITERATE = "gorules.transliterate"


def transliterate(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler: a character the encoding lacks becomes its ASCII spelling
    from :data:`TRANSLITERATION`, else its backslash escape (``\\u2588``)."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end]
    spelt = "".join(TRANSLITERATION.get(c) or c.encode("ascii", "backslashreplace").decode("ascii") for c in text)
    return spelt, error.end


codecs.register_error(TRANSLITERATE, transliterate)


def standard_streams() -> None:
    """Make the standard streams safe to use whatever the caller left: a closed stdin,
    stdout or stderr is opened on the null device (so no file the command opens takes its
    number, and an error line never lands on stdout, where a script reads data), and text a
    terminal's encoding cannot show is transliterated rather than failing."""
    for number in (0, 1, 2):
        try:
            os.fstat(number)
        except OSError:
            opened = os.open(os.devnull, os.O_RDWR)
            if opened != number:
                os.dup2(opened, number)
                os.close(opened)
    if sys.stdin is None:
        sys.stdin = open(0, encoding="utf-8", closefd=False)
    if sys.stderr is None:
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors=TRANSLITERATE)


# ---------------------------------------------------------------- signals that end the process


class Terminated(BaseException):
    """The process was asked to end (SIGTERM, SIGHUP): raised where the work is, so that
    every clean-up runs (no temporary file left, pool workers stopped) before the exit with
    code 128 + the signal's number (143, 129), as a shell reports a process ended so."""

    def __init__(self, number: int):
        """The signal's number."""
        super().__init__(number)
        self.number = number

    def __str__(self) -> str:
        """The signal's name."""
        return signal.Signals(self.number).name


ENDING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def terminate(number: int, frame) -> None:
    """The handler of SIGTERM and SIGHUP: raise :class:`Terminated` in the main thread."""
    raise Terminated(number)


@contextmanager
def ending_signals() -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP raise :class:`Terminated` (in the main
    thread only; the old handlers are put back after, as commands also run in test processes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.signal(number, terminate) for number in ENDING_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def single_threaded_blas() -> None:
    """Ask OpenBLAS (loaded by numpy, scipy and numba's linear algebra, none of which the
    commands use for speed) for one thread unless the user chose otherwise: its threads map
    their buffers when the library loads, and under a tight memory ceiling a multi-threaded
    OpenBLAS that cannot map them spins for ever instead of failing."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main(argv: list[str] | None = None) -> int:
    """Run ``gorules`` with the given arguments; return the exit code."""
    single_threaded_blas()
    standard_streams()
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv  # accepted after the command name too
    try:
        args = parser.parse_args([a for a in argv if a != "--debug"])
        args.debug = debug
    except SystemExit as stop:  # --help (0) or a one-line argument error (2)
        return stop.code if isinstance(stop.code, int) else BAD_INPUT
    if not getattr(args, "func", None):
        report(args, "name a command (gorules --help lists them)")
        return BAD_INPUT
    code: int | None = None
    try:
        read_graph_files(args)
        with memory_ceiling(memory_fraction(args.memory_limit)), ending_signals(), quiet_memory_errors():
            code = run(args)
    except INPUT_ERRORS as error:
        if debugging(args):
            traceback.print_exc()
        report(args, str(error))
        return BAD_INPUT
    except MemoryError:  # leaving the ceiling, with the memory still exhausted: said if the work had ended
        if code is None:
            os.write(2, EXHAUSTED_LINE)
    return BAD_INPUT if code is None else code


INTERRUPTED = 130
"""The exit code after Ctrl-C (SIGINT), 128 + 2 as a shell reports it."""


def read_graph_files(args) -> None:
    """Put the graph read from a file in place of each graph argument (``GRAPH``, ``--graph``,
    the graphs of a list) that names a graph file; every command then takes a file where it
    takes a graph's name (``docs/cli.md``, "Graphs")."""
    from gorules.impl.formats.graph_files import is_graph_file, read_graph_file

    graph = getattr(args, "graph", None)
    if isinstance(graph, str) and is_graph_file(graph):
        args.graph = read_graph_file(graph)
    graphs = getattr(args, "graphs", None)
    if isinstance(graphs, list):
        args.graphs = [read_graph_file(g) if isinstance(g, str) and is_graph_file(g) else g for g in graphs]


OUT_OF_MEMORY = "out of memory: the work needs more memory than the ceiling allows (raise it with --memory-limit)"
TOO_DEEP = "the work recursed too deeply for this input (it is too large for this method)"


EXHAUSTED_LINE = b"gorules: error: out of memory (raise the ceiling with --memory-limit)\n"
"""The line written, without building anything, when there is no room even for the error line."""


@contextmanager
def quiet_memory_errors() -> Iterator[None]:
    """While the block runs, an error that cannot be raised (in a destructor, or a generator
    closed as its frame is freed) is printed as usual unless it is a MemoryError: that is the
    exhaustion the command reports in its one line.  The hook tests the type only, since
    under an exhausted ceiling it cannot build anything; the previous hook is put back after
    unless the work left one of its own."""
    previous = sys.unraisablehook

    def hook(unraisable) -> None:
        if unraisable.exc_type is not None and issubclass(unraisable.exc_type, MemoryError):
            return
        previous(unraisable)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        if sys.unraisablehook is hook:
            sys.unraisablehook = previous


def same_exhaustion(unraisable) -> None:
    """Say nothing of an error raised while the work's frames are freed after the memory ran
    out (a generator that cannot close for want of memory): it is the exhaustion already
    reported in the one line."""


def run(args) -> int:
    """Run the chosen command under the one error path (see the module docstring)."""
    exhausted = OUT_OF_MEMORY  # or TOO_DEEP: what ran out, when the work stops on it
    try:
        return int(args.func(args) or 0)
    except INPUT_ERRORS:
        raise
    except BrokenPipeError:
        # the reader went away (``gorules ... | head``): stop quietly, as Unix tools do
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        report(args, "interrupted")
        return INTERRUPTED
    except Terminated as stop:
        try:
            report(args, f"terminated by {stop}")
        except OSError:  # a hung-up terminal takes stderr with it: the exit code still says
            pass
        return 128 + stop.number
    except MemoryError:
        # Nothing is allocated here: the work's memory is held by this exception's frames,
        # and is given back once the except block ends; the line is printed after.
        exhausted = OUT_OF_MEMORY
        sys.unraisablehook = same_exhaustion
        if debugging(args):
            traceback.print_exc()
    except RecursionError:
        exhausted = TOO_DEEP
        if debugging(args):
            traceback.print_exc()
    except OSError as error:  # a path that cannot be read or written: the user's to fix
        if debugging(args):
            traceback.print_exc()
        where = f": {error.filename}" if error.filename else ""
        report(args, f"{error.strerror or error}{where}")
        return BAD_INPUT
    except Exception as error:
        if caused_by_memory(error):
            exhausted = OUT_OF_MEMORY
            sys.unraisablehook = same_exhaustion
        else:
            if debugging(args):
                traceback.print_exc()
            what = one_line(f"{type(error).__name__}: {error}")
            report(args, f"internal error: {what[:300]}; run with --debug for the traceback")
            return INTERNAL_ERROR
    try:
        report(args, exhausted)
    except MemoryError:  # still no room: write the line without building anything
        os.write(2, EXHAUSTED_LINE)
    return BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
