"""Real games: the 596 professional records of Debian's goban-original-games, and the SGF
files in the tests of the kombilo sdist, replayed in the engine and compared with sgfmill,
GNU Go and the spec.

What runs here (the test suite's share; see docs/known_differences.md):

- every record: the engine's board after every move against sgfmill's; GNU Go's board
  (``list_stones``) after every 100th move and the last; unclean records must be exactly the
  ones docs/known_differences.md lists, for the reason it gives;
- 4 fixed records: GNU Go's board after every move; 5 fixed records: the spec's board after
  every move (the spec takes milliseconds a move on 19×19);
- kombilo's 37 records (fetched with ``pip download`` from PyPI): engine and sgfmill after
  every move, GNU Go after every 25th and the last, the spec on one.

``gorules replay-sgf /usr/share/goban --gnugo`` compares GNU Go after every move of every game.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from gorules.impl.formats.sgf import RecordError, load_sgf
from gorules.impl.formats.sgf_replay import check_record

GOBAN = Path("/usr/share/goban")
DOC = Path(__file__).resolve().parent.parent / "docs" / "known_differences.md"
CHUNKS = 6
GNUGO_EVERY = 100
GNUGO_EVERY_MOVE = ["Hon-45-1.sgf", "M-62-l04.sgf", "Nih-73-1.mgt", "M-92-5.mgt"]
SPEC_EVERY_MOVE = ["Hon-45-1.sgf", "Hon-41-2.mgt", "M-70-1.sgf", "T-01-2.mgt", "M-87-3.mgt"]


def goban_files() -> list[Path]:
    """The record files of goban-original-games, sorted by name."""
    return sorted(p for p in GOBAN.iterdir() if p.suffix.lower() in (".sgf", ".mgt"))


def documented_records() -> dict[str, str]:
    """The rows of docs/known_differences.md whose opinion is ``record`` with one file:
    file name → the difference as written."""
    rows = {}
    for line in DOC.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] == "record":
            files = re.findall(r"`([^`]+\.(?:sgf|mgt))`", cells[2])
            if len(files) == 1:
                rows[files[0]] = cells[1]
    return rows


def outcome_text(path: Path, gnugo_every) -> tuple[dict | None, str | None]:
    """The replay report of one record, and its problem as the table words it (or None)."""
    try:
        record = load_sgf(path)
    except RecordError as error:
        match = re.search(r"move (\d+)", str(error))
        return None, f"unreadable: move {match.group(1) if match else '?'}"
    report = check_record(record, gnugo_every=gnugo_every)
    if report["unclean"]:
        number = re.match(r"move (\d+)", report["unclean"]).group(1)
        return report, f"move {number} is on an occupied point"
    return report, None


def test_the_collection_is_there():
    """Debian's goban-original-games holds 596 records, and every record row of the table
    names one of them."""
    names = {p.name for p in goban_files()}
    assert len(names) == 596
    documented = documented_records()
    assert len(documented) >= 5 and set(documented) <= names


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_professional_games_replay_alike(chunk):
    """Every record of a sixth of the collection: sgfmill agrees after every move, GNU Go
    after every 100th move and the last; the unclean records are exactly the documented ones."""
    files = goban_files()[chunk::CHUNKS]
    documented = documented_records()
    found = {}
    compared = {"sgfmill": 0, "gnugo": 0}
    for path in files:
        report, problem = outcome_text(path, GNUGO_EVERY)
        if problem:
            found[path.name] = problem
        if report is None:
            continue
        assert report["repetitions"] == [] and report["suicides"] == [], path.name
        for name, opinion in report["opinions"].items():
            assert opinion["disagreement"] is None, (path.name, name, opinion)
            compared[name] += opinion["compared"]
    expected = {name: words for name, words in documented.items() if name in {p.name for p in files}}
    assert set(found) == set(expected)
    for name, problem in found.items():
        assert expected[name].startswith(problem), (name, problem, expected[name])
    assert compared["sgfmill"] > 100 * len(files)  # positions, not just records


@pytest.mark.parametrize("name", GNUGO_EVERY_MOVE)
def test_gnugo_agrees_after_every_move(name):
    """A fixed sample: GNU Go's board equals the engine's after every move."""
    report = check_record(load_sgf(GOBAN / name), sgfmill=False, gnugo_every=1)
    gnugo = report["opinions"]["gnugo"]
    assert gnugo["disagreement"] is None
    assert gnugo["compared"] == report["replayed"] + 1


@pytest.mark.parametrize("name", SPEC_EVERY_MOVE)
def test_spec_agrees_after_every_move(name):
    """A fixed sample: the executable spec's board equals the engine's after every move."""
    report = check_record(load_sgf(GOBAN / name), spec=True, sgfmill=False)
    spec = report["opinions"]["spec"]
    assert spec["disagreement"] is None
    assert spec["compared"] == report["replayed"] + 1 > 100


@pytest.fixture(scope="module")
def kombilo_records(tmp_path_factory) -> list[Path]:
    """The SGF files of the kombilo sdist's tests, fetched from PyPI with pip."""
    where = tmp_path_factory.mktemp("kombilo")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--no-binary",
            ":all:",
            "kombilo",
            "-d",
            str(where),
        ],
        check=True,
        timeout=300,
    )
    (archive,) = where.glob("kombilo-*.tar.gz")
    records = where / "sgf"
    records.mkdir()
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if member.isfile() and "/tests/" in member.name and member.name.lower().endswith(".sgf"):
                (records / os.path.basename(member.name)).write_bytes(tar.extractfile(member).read())
    return sorted((where / "sgf").glob("*.sgf"))


@pytest.mark.slow
def test_kombilo_records_replay_alike(kombilo_records):
    """kombilo's test records: engine and sgfmill agree after every move, GNU Go after
    every 25th move and the last, the spec after every move of the first record."""
    assert len(kombilo_records) >= 30
    for i, path in enumerate(kombilo_records):
        report = check_record(load_sgf(path), spec=i == 0, gnugo_every=25)
        assert report["unclean"] is None, path.name
        moves = report["replayed"]
        for name, opinion in report["opinions"].items():
            assert opinion["disagreement"] is None, (path.name, name, opinion)
            every = 25 if name == "gnugo" else 1
            assert opinion["compared"] == moves // every + 1 + (moves % every != 0)
