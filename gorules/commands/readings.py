"""``gorules readings SOURCE``: where the readings of a source's ambiguous clauses part ways.

For each clause of the source that the toolkit reads two ways (an option with
``reading_of``) and each pair of its readings, the source's finder compares them on
spaces, boards or alliance structures of increasing size; this command prints the
smallest situation where they lead to different play or scores, with the line of play
that shows it and a picture (text here; SVG files with ``--pictures DIR``), and writes
every size's smallest case and count of disagreeing plays as JSON (``--json``, into a file
with ``--out FILE``).

A source's finder module provides ``disagreements(max_points, seconds, progress)``; it may
also provide ``search_readings`` (the same arguments, returning an object with
``disagreements``, ``compared`` — what was compared per pair and size, so that pairs that
never disagree are reported too —, ``complete_up_to`` and ``note``) and ``diagram(d)``,
the text picture of a disagreement.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from gorules import flags
from gorules.errors import UsageError
from gorules.impl.formats.files import write_text_atomically

FINDERS = {"001": "gorules.readings_topological", "004": "gorules.readings_political"}
SOURCE_STEMS = {"001": "001_463c45151ac4bff4", "004": "004_0820ac7cd15cdfb1"}


def register(subparsers) -> None:
    """Add the ``readings`` subcommand."""
    parser = subparsers.add_parser(
        "readings", help="the smallest situations where two readings of a source's clause disagree"
    )
    parser.add_argument("source", help="the source: 001 (Topological Go) or 004 (Political Go), or its file stem")
    flags.add_points(
        parser,
        3,
        "compare on spaces or graphs of 1..N points",
        aliases=("--max-points",),
        reason="the comparisons grow fast with the size; topological-sweep, which checks two propositions only, "
        "covers 4",
    )
    flags.add_seconds(
        parser,
        600.0,
        reason="a run estimated to take longer is refused, one that runs out reports the sizes it finished",
        help="the time allowed",
    )
    flags.add_output(parser, "every disagreement and the counts per size", json_file=True)
    flags.add_output_path(
        parser, "--pictures", "write an SVG picture of each smallest disagreement here", directory=True
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def source_key(text: str) -> str:
    """``001`` for ``001``, ``1`` or ``001_463c45151ac4bff4`` (and .txt); UsageError otherwise."""
    word = Path(text.strip()).name.removesuffix(".txt")
    for key, stem in SOURCE_STEMS.items():
        if word in (key, stem, key.lstrip("0")):
            return key
    raise UsageError(f"no finder for source {text!r}: expected one of {', '.join(SOURCE_STEMS)} (or its file stem)")


def finder(key: str):
    """The finder module of a source, imported when asked for."""
    name = FINDERS[key]
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name == name:
            raise UsageError(f"the finder for source {key} ({name}) is not installed") from None
        raise


def smallest(disagreements: list) -> list:
    """For each clause and pair of readings, the disagreement of fewest points, in the order found."""
    best: dict = {}
    for d in disagreements:
        key = (d.clause, d.readings)
        if key not in best or d.points < best[key].points:
            best[key] = d
    return list(best.values())


def picture_name(d) -> str:
    """A file name for a disagreement's picture: source, clause, readings and size."""
    words = f"{d.source} {d.clause} {d.readings[0]} vs {d.readings[1]} {d.points} points"
    return re.sub(r"[^a-z0-9]+", "-", words.lower()).strip("-") + ".svg"


def counts(disagreements: list) -> dict:
    """Disagreeing plays per clause, pair of readings and size: ``{clause: {"a vs b": {n: count}}}``."""
    table: dict = {}
    for d in disagreements:
        pair = f"{d.readings[0]} vs {d.readings[1]}"
        table.setdefault(d.clause, {}).setdefault(pair, {})[str(d.points)] = d.count
    return table


def entry(d, picture_file: str | None) -> dict:
    """A disagreement as JSON, its SVG left to the picture file."""
    data = d.as_dict()
    data.pop("picture", None)
    data["line"] = list(d.line)
    data["readings"] = list(d.readings)
    data["picture_file"] = picture_file
    return data


def report_text(d, diagram: str | None) -> str:
    """A disagreement for the terminal."""
    lines = [
        f"{d.clause}: {d.readings[0]} vs {d.readings[1]}",
        f"  smallest: {d.points} points; {d.count} disagreeing cases at this size",
        f"  situation: {d.situation}",
        f"  line: {' '.join(d.line) if d.line else '(none)'}",
        f"  difference: {d.difference}",
    ]
    if diagram:
        lines += ["  picture:"] + ["    " + row for row in diagram.splitlines()]
    return "\n".join(lines)


def run(args) -> int:
    """Run the source's finder and print (and write) what it found."""
    key = source_key(args.source)
    max_points = flags.largest(args)
    module = finder(key)
    progress = not args.quiet
    if hasattr(module, "search_readings"):
        finding = module.search_readings(max_points, args.seconds, progress)
        found, compared, complete, note = finding.disagreements, finding.compared, finding.complete_up_to, finding.note
    else:
        found, compared, complete, note = module.disagreements(max_points, args.seconds, progress), None, None, ""
    firsts = smallest(found)
    pictures: dict = {}
    if args.pictures:
        for d in found:
            if d.picture is not None:
                pictures[id(d)] = picture_name(d)
                write_text_atomically(Path(args.pictures) / pictures[id(d)], d.picture)
    diagram = getattr(module, "diagram", None)
    lines = []
    for d in firsts:
        lines.append(report_text(d, diagram(d) if diagram else None))
        if id(d) in pictures:
            lines.append(f"  svg: {Path(args.pictures) / pictures[id(d)]}")
        lines.append("")
    if compared:
        lines.append("compared, per pair of readings and size (disagreeing / compared):")
        for pair, sizes in compared.items():
            cells = ", ".join(f"{n} pts {c['disagreeing']}/{c['compared']}" for n, c in sizes.items())
            lines.append(f"  {pair}: {cells}")
            if not any(c["disagreeing"] for c in sizes.values()):
                lines.append(
                    f"    no disagreement on any of the {sum(c['go_spaces'] for c in sizes.values())} spaces compared"
                )
    if complete is not None:
        lines.append(f"complete up to {complete} points" + (f" ({note})" if note else ""))
    data = None
    if args.json:
        data = {
            "source": key,
            "max_points": max_points,
            "complete_up_to": complete,
            "note": note,
            "smallest": [entry(d, pictures.get(id(d))) for d in firsts],
            "by_size": [entry(d, pictures.get(id(d))) for d in found],
            "counts": counts(found),
        }
        if compared is not None:
            data["compared"] = compared
    flags.emit(args, data, "\n".join(lines), indent=2)
    return 0
