"""``gorules replay-sgf``: replay game records in the engine and compare with other opinions.

The ruleset's ``sgf`` capability checks each record (Tromp–Taylor, the default: as below); a
ruleset of Black and White without it plays each record's moves from its start through the
ruleset interface and reports where the record stops and why, with no other opinion; any
other ruleset is refused naming the capability.

Each record (SGF, or MGT which is SGF text) is replayed in the engine; sgfmill's board is
compared after every move, and on request the executable spec (after every move) and GNU
Go over GTP (after every N-th move and the last).  A directory stands for the records in
it.  Records that do not replay cleanly (a move on an occupied point, a file that cannot
be read) are listed with the reason; one broken record never stops the others.

A record of the gorules form (``play --record``, ``solve --sgf`` off square grids; see
``gorules.records``) is replayed through the ruleset it names, and its result compared
with the one it states.

Exit code: 0 when every record was read and every compared position agrees, 1 when a
record could not be read or replayed or an opinion disagrees, 2 on bad input (a missing
path, or a single record that cannot be read).
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor

from tqdm import tqdm

from gorules import flags, rulesets
from gorules.errors import UsageError
from gorules.impl.formats.sgf import RecordError, load_sgf
from gorules.impl.formats.sgf_replay import check_record
from gorules.processes import workers_for
from gorules.records import holds_game_record, read_game_record, replay_game_record
from gorules.spec.api import Ruleset

RECORD_SUFFIXES = (".sgf", ".mgt")
GNUGO_LARGEST = 19  # GNU Go as distributed plays boards up to 19x19


def register(subparsers) -> None:
    """Add the ``replay-sgf`` subcommand."""
    parser = subparsers.add_parser(
        "replay-sgf",
        help="replay SGF records in the engine; compare with sgfmill, the spec and GNU Go",
        description="Replay game records in the engine and compare every position with "
        "sgfmill's board, and optionally the spec and GNU Go (over GTP).",
    )
    parser.add_argument("paths", nargs="+", metavar="FILE", help="SGF/MGT files or directories of them")
    parser.add_argument(
        "--spec", action="store_true", help="also replay in the executable spec (slow: tens of ms a move on 19x19)"
    )
    parser.add_argument("--gnugo", action="store_true", help="also replay in GNU Go over GTP")
    parser.add_argument(
        "--gnugo-every", type=int, default=1, metavar="N", help="read GNU Go's board after every N-th move (default 1)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="records replayed at once (default 2)")
    flags.add_ruleset_flags(parser)
    flags.add_output(parser, "one report")
    parser.set_defaults(func=run)


def record_files(paths) -> list[str]:
    """The record files named by the arguments: files as given, directories expanded.  Only
    regular files are read (a FIFO or a device would block or never end): one named is
    refused, one met in a directory is skipped with a note on stderr."""
    files: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            names = sorted(n for n in os.listdir(path) if n.lower().endswith(RECORD_SUFFIXES))
            for name in names:
                found = os.path.join(path, name)
                if os.path.isfile(found):
                    files.append(found)
                else:
                    print(f"gorules replay-sgf: note: skipped {found}: not a regular file", file=sys.stderr)
        elif os.path.isfile(path):
            files.append(path)
        elif os.path.exists(path):
            raise UsageError(f"{path} is not a regular file: only record files are read")
        else:
            raise UsageError(f"{path}: no such file or directory")
    if not files:
        raise UsageError("no SGF or MGT records found in " + ", ".join(paths))
    return files


def read_record(path: str, gnugo: bool):
    """The record in a file, refused (RecordError) when GNU Go is asked for and cannot play
    its board."""
    record = load_sgf(path)
    rows, _ = record.graph.shape
    if gnugo and rows > GNUGO_LARGEST:
        raise RecordError(
            f"{os.path.basename(path)}: GNU Go plays boards up to {GNUGO_LARGEST}x{GNUGO_LARGEST}; "
            f"this record is {rows}x{rows} (leave out --gnugo)"
        )
    return record


def check_file(path: str, args, check=None) -> dict:
    """The report of one record file by ``check(record)`` (default: the engine's replay with
    the opinions the flags ask for); a file that cannot be read or replayed gives a report
    with its reason, so that one bad record never stops the others."""
    name = os.path.basename(path)
    try:
        if holds_game_record(path):
            return replay_game_record(read_game_record(path), name)
        record = read_record(path, args.gnugo)
        if check is not None:
            return check(record)
        return check_record(record, spec=args.spec, gnugo_every=args.gnugo_every if args.gnugo else None)
    except RecordError as error:
        return {"record": name, "unreadable": str(error), "agree": False}
    except Exception as error:  # a replay that failed on this record: reported, the others go on
        what = " ".join(f"{type(error).__name__}: {error}".split())[:200]
        return {"record": name, "unreadable": f"{name}: the replay failed ({what})", "agree": False}


def summary(reports) -> dict:
    """Counts over all reports: records, positions compared per opinion, problems."""
    opinions: dict = {}
    for report in reports:
        for name, o in report.get("opinions", {}).items():
            total = opinions.setdefault(name, {"compared": 0, "disagreements": 0})
            total["compared"] += o["compared"]
            total["disagreements"] += o["disagreement"] is not None
    return {
        "records": len(reports),
        "moves": sum(r.get("moves", 0) for r in reports),
        "unreadable": [r["unreadable"] for r in reports if "unreadable" in r],
        "unclean": [f"{r['record']}: {r['unclean']}" for r in reports if r.get("unclean")],
        "repetitions": [f"{r['record']}: moves {r['repetitions']}" for r in reports if r.get("repetitions")],
        "opinions": opinions,
    }


def text_report(reports, totals) -> str:
    """Human-readable lines: one per record with a problem, then the totals."""
    lines = []
    for r in reports:
        if "unreadable" in r:
            lines.append(f"{r['record']}: cannot be read: {r['unreadable']}")
            continue
        notes = []
        if r["unclean"]:
            notes.append(f"stops at {r['unclean']}")
        if r["repetitions"]:
            notes.append(f"repeats a board at moves {r['repetitions']}")
        for name, o in r["opinions"].items():
            if o["disagreement"]:
                notes.append(f"{name}: {o['disagreement']}")
        if "ruleset" in r:  # replayed through the interface: no opinion compared
            notes.append(
                f"under {r['ruleset']}, result {r['result']}" if r["result"] is not None else f"under {r['ruleset']}"
            )
        if notes or len(reports) == 1:
            verdict = "; ".join(notes) if notes else "every compared position agrees"
            lines.append(f"{r['record']} ({r['board']}, {r['moves']} moves): {verdict}")
    lines.append(f"{totals['records']} records, {totals['moves']} moves")
    for name, o in totals["opinions"].items():
        lines.append(f"  {name}: {o['compared']} positions compared, {o['disagreements']} records disagree")
    lines.append(f"  unreadable: {len(totals['unreadable'])}, stop early: {len(totals['unclean'])}")
    return "\n".join(lines)


def record_check(ruleset: Ruleset, args):
    """How each record is checked: the ruleset's ``sgf`` capability with the opinions the
    flags ask for, else its moves played through the interface (a two-player ruleset of
    Black and White; no other opinion); UsageError naming the capability otherwise."""
    from gorules.impl.formats.interface import replay_record

    own = ruleset.capability("sgf")
    if own is not None:
        gnugo_every = args.gnugo_every if args.gnugo else None
        return lambda record: own(ruleset, record, spec=args.spec, gnugo_every=gnugo_every)
    gap = ruleset.capability_gap("sgf")
    if ruleset.players != ("B", "W"):
        raise UsageError(f"replay-sgf is refused: {gap}, and its players are not the records' Black and White")
    asked = [flag for flag, given in (("--spec", args.spec), ("--gnugo", args.gnugo)) if given]
    if asked:
        raise UsageError(f"{asked[0]} is refused: {gap} (the spec and GNU Go play Tromp–Taylor's boards)")
    return lambda record: replay_record(ruleset, record)


def run(args) -> int:
    """Replay the records; exit 0 if every compared position agrees, 1 otherwise."""
    if args.gnugo_every < 1 or args.jobs < 1:
        raise UsageError("--gnugo-every and --jobs must be at least 1")
    check = record_check(rulesets.from_arguments(args), args)
    files = record_files(args.paths)
    if len(files) == 1:  # a single broken file is a usage error: one line, exit 2
        if holds_game_record(files[0]):
            read_game_record(files[0])
        else:
            read_record(files[0], args.gnugo)
    with ThreadPoolExecutor(workers_for(args.jobs, len(files))) as pool:
        work = pool.map(lambda path: check_file(path, args, check), files)
        reports = list(
            tqdm(work, total=len(files), desc="replay-sgf", unit="record", disable=args.json or None, file=sys.stderr)
        )
    totals = summary(reports)
    flags.emit(args, {"summary": totals, "records": reports}, text_report(reports, totals), indent=2)
    disagreements = sum(o["disagreements"] for o in totals["opinions"].values())
    return 0 if disagreements == 0 and not totals["unreadable"] else 1
