"""The commands and outputs shown in the README and the guides are run, and must match.

A fenced block marked ``console`` holds commands, each on a line that starts with ``$ ``,
each followed by the output it prints.  The test runs every command in a subprocess, with
this interpreter's ``gorules`` (``python -m gorules``), in one temporary directory per
document (so that a file written by one command is there for the next; ``docs/`` is linked
into it, for the example files), and compares what it printed with the lines shown:

- the shown output is the command's stdout; when the exit code is not 0, a line
  ``[exit N]`` follows it, then what the command printed on stderr (its one error line);
- ``…`` in a shown line stands for any text within that line: it masks what varies from
  run to run (times, rates, progress).  A printed line that is there in some runs only is
  left out before the comparison (DROPPED: the time ``solve`` took to ready its compiled
  core, printed when it took a second or more).  Nothing else is masked: a changed value,
  count, node count or line fails.

A block marked ``pycon`` is Python at its prompt (``>>>`` and ``...``), run as a
doctest, where ``…`` also stands for any text.  A block marked ``sh`` lists commands that
are not run (they take minutes, or need a machine's files); each line that starts with
``gorules`` is read by the command's own argument parser, so a renamed or removed flag
fails here too.

When an output changes on purpose, regenerate the shown outputs and review the diff::

    python tests/test_readme.py --regenerate            # README.md and the guides
    python tests/test_readme.py --regenerate docs/guide-solving.md

Regeneration keeps each shown line whose mask still matches, and writes ``…`` in place of
times (``0.42s``, ``1.5 s``) and rates (``1234 nodes/s``) in the lines it writes anew.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = (
    "README.md",
    "docs/guide-spec.md",
    "docs/guide-proofs.md",
    "docs/guide-fuzzing.md",
    "docs/guide-solving.md",
    "docs/guide-rulesets.md",
    "docs/guide-notebooks.md",
)
"""The documents whose shown commands are run."""
LINKED = ("docs",)
"""The folders of the repository linked into the directory the commands run in."""
MASK = "…"
PROMPT = "$ "
FENCE = re.compile(r"^```(\w*)\s*$")
VARYING = [
    (re.compile(r"\b\d+(?:\.\d+)?\s?(?:nodes|moves|graphs?|positions)?/s\b"), MASK + "/s"),
    (re.compile(r"\b\d+\.\d+\s?s\b"), MASK + "s"),
    (re.compile(r"^(\s*seconds:\s*)\d+(?:\.\d+)?$"), r"\1" + MASK),
]
"""What regeneration masks in a line it writes anew: rates, times with decimals, and the
value of a ``seconds:`` field."""
DROPPED = (re.compile(r"before the search: .* readying the compiled core"),)
"""Printed lines that appear in some runs only, left out of every comparison."""
ENVIRONMENT = {"COLUMNS": "100", "NO_COLOR": "1", "PYTHONHASHSEED": "0"}


@dataclass
class Block:
    """A fenced block: its document, kind (``console``, ``pycon``, ``sh``), the line its
    fence opens on (1-based) and the lines between the fences."""

    document: str
    kind: str
    line: int
    lines: list[str]

    @property
    def name(self) -> str:
        """How the block is named in a test's id: document and line."""
        return f"{self.document}:{self.line}"


def blocks(document: str) -> list[Block]:
    """The fenced blocks of a document, in order."""
    found: list[Block] = []
    current: Block | None = None
    for number, line in enumerate((ROOT / document).read_text(encoding="utf-8").splitlines(), 1):
        fence = FENCE.match(line)
        if current is None and fence:
            current = Block(document, fence.group(1), number, [])
        elif current is not None and line.startswith("```"):
            found.append(current)
            current = None
        elif current is not None:
            current.lines.append(line)
    return found


def commands(block: Block) -> list[tuple[str, list[str]]]:
    """The (command, shown output lines) pairs of a console block."""
    pairs: list[tuple[str, list[str]]] = []
    for line in block.lines:
        if line.startswith(PROMPT):
            pairs.append((line[len(PROMPT) :], []))
        elif pairs:
            pairs[-1][1].append(line)
        elif line.strip():
            raise ValueError(f"{block.name}: output before the first '$ ' command: {line!r}")
    return pairs


def matches(pattern: str, line: str) -> bool:
    """Whether a shown line matches a printed one, ``…`` standing for any text."""
    regex = ".*".join(re.escape(part) for part in pattern.split(MASK))
    return re.fullmatch(regex, line) is not None


def run(command: str, where: Path) -> list[str]:
    """The lines a shown command prints: stdout, then ``[exit N]`` and stderr if it fails."""
    words = shlex.split(command)
    if not words or words[0] != "gorules":
        raise ValueError(f"a shown command runs gorules, got {command!r}")
    environment = {**os.environ, **ENVIRONMENT}
    done = subprocess.run(
        [sys.executable, "-m", "gorules", *words[1:]],
        cwd=where,
        capture_output=True,
        text=True,
        env=environment,
        check=False,
    )
    lines = [line for line in done.stdout.splitlines() if not any(p.match(line) for p in DROPPED)]
    if done.returncode != 0:
        lines += [f"[exit {done.returncode}]", *done.stderr.splitlines()]
    return [line.rstrip() for line in lines]


def differences(shown: list[str], printed: list[str]) -> list[str]:
    """The lines where shown and printed output part (empty when they agree)."""
    shown = _trimmed(shown)
    printed = _trimmed(printed)
    found = []
    for i in range(max(len(shown), len(printed))):
        want = shown[i] if i < len(shown) else "(nothing)"
        got = printed[i] if i < len(printed) else "(nothing)"
        if i >= len(shown) or i >= len(printed) or not matches(want, got):
            found.append(f"line {i + 1}: shown {want!r}, printed {got!r}")
    return found


def _trimmed(lines: list[str]) -> list[str]:
    """Lines without trailing blank lines, each without trailing spaces."""
    lines = [line.rstrip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def workspace(directory: Path) -> Path:
    """A directory to run a document's commands in, with the repository's LINKED folders."""
    for name in LINKED:
        (directory / name).symlink_to(ROOT / name, target_is_directory=True)
    return directory


def regenerated(shown: list[str], printed: list[str]) -> list[str]:
    """The shown lines for a printed output: a shown line kept where its mask still matches
    (in order), else the printed line with its times and rates masked."""
    result: list[str] = []
    start = 0
    for line in _trimmed(printed):
        kept = next((k for k in range(start, len(shown)) if MASK in shown[k] and matches(shown[k], line)), None)
        if kept is None and start < len(shown) and matches(shown[start], line):
            kept = start
        if kept is not None:
            result.append(shown[kept])
            start = kept + 1
            continue
        for pattern, replacement in VARYING:
            line = pattern.sub(replacement, line)
        result.append(line)
    return result


# --------------------------------------------------------------------------- the tests

ALL_BLOCKS = [block for document in DOCUMENTS for block in blocks(document)]
CONSOLE = [block for block in ALL_BLOCKS if block.kind == "console"]
PYCON = [block for block in ALL_BLOCKS if block.kind == "pycon"]
SH = [block for block in ALL_BLOCKS if block.kind == "sh"]


@pytest.fixture(scope="module")
def places(tmp_path_factory) -> dict[str, Path]:
    """One working directory per document, shared by its blocks in order."""
    return {document: workspace(tmp_path_factory.mktemp(Path(document).stem)) for document in DOCUMENTS}


def _marked(block: Block):
    """A guide's block as a slow test (several commands of a few seconds each); the README's
    blocks run in the quick suite too."""
    return block if block.document == "README.md" else pytest.param(block, marks=pytest.mark.slow)


@pytest.mark.parametrize("block", [_marked(block) for block in CONSOLE], ids=lambda block: block.name)
def test_shown_output_is_printed(block: Block, places: dict[str, Path]) -> None:
    """Every command of the block prints what the block shows, masks aside."""
    pairs = commands(block)
    assert pairs, f"{block.name}: a console block without a command"
    for command, shown in pairs:
        found = differences(shown, run(command, places[block.document]))
        assert not found, f"{block.name}: $ {command}\n" + "\n".join(found)


@pytest.mark.parametrize("block", PYCON, ids=lambda block: block.name)
def test_python_at_the_prompt_runs(block: Block) -> None:
    """Every expression of the block prints what it shows."""
    text = "\n".join(block.lines).replace(MASK, "...") + "\n"
    test = doctest.DocTestParser().get_doctest(text, {}, block.name, block.document, block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert test.examples, f"{block.name}: a pycon block without an example"
    assert runner.failures == 0, f"{block.name}: {runner.failures} example(s) printed something else (see above)"


def refused(block: Block) -> list[str]:
    """The ``gorules`` lines of a block that the argument parser refuses."""
    from gorules.cli import build_parser

    parser = build_parser()
    found = []
    for line in block.lines:
        words = shlex.split(line, comments=True)
        if not words or words[0] != "gorules":
            continue
        try:
            parser.parse_args([w for w in words[1:] if w != "--debug"])
        except SystemExit:
            found.append(line)
    return found


@pytest.mark.parametrize("block", SH, ids=lambda block: block.name)
def test_listed_commands_parse(block: Block) -> None:
    """Each ``gorules`` line of a block not run is accepted by the argument parser."""
    assert refused(block) == [], f"{block.name}: refused by the parser"


def test_a_removed_flag_is_refused(capsys) -> None:
    """A listed command with a flag the parser does not know is found; others are not."""
    block = Block("example.md", "sh", 1, ["gorules solve grid:2x2 --no-such-flag", "gorules count grid:2x2  # fine"])
    assert refused(block) == ["gorules solve grid:2x2 --no-such-flag"]
    capsys.readouterr()


def test_documents_show_commands() -> None:
    """Each document checked here shows at least one command that is run."""
    shown = {block.document for block in CONSOLE}
    assert shown == set(DOCUMENTS)


def test_a_changed_count_fails() -> None:
    """A shown count that is not the printed one is a difference; a masked time is not."""
    printed = ["12,675 legal positions in 0.02 s"]
    assert differences(["12,675 legal positions in … s"], printed) == []
    assert differences(["12,676 legal positions in … s"], printed) != []
    assert differences(["12,675 legal positions in … s", "one more line"], printed) != []


def test_regeneration_keeps_masks_and_masks_times() -> None:
    """A regenerated block keeps a still-matching mask and masks a new line's time."""
    shown = ["value +1 in … (fast)", "old line"]
    printed = ["value +1 in 0.3s (fast)", "163 nodes in 0.01s (67388 nodes/s)"]
    assert regenerated(shown, printed) == ["value +1 in … (fast)", "163 nodes in …s (…/s)"]


# --------------------------------------------------------------------------- regeneration


def regenerate(document: str) -> int:
    """Rewrite the shown outputs of a document's console blocks; the number of blocks changed."""
    path = ROOT / document
    lines = path.read_text(encoding="utf-8").splitlines()
    changed = 0
    with tempfile.TemporaryDirectory() as directory:
        where = workspace(Path(directory))
        rewritten = []
        for block in [b for b in blocks(document) if b.kind == "console"]:
            new: list[str] = []
            for command, shown in commands(block):
                new += [PROMPT + command, *regenerated(shown, run(command, where))]
            rewritten.append((block, new))
        for block, new in reversed(rewritten):  # from the end, so that earlier line numbers hold
            if new != block.lines:
                changed += 1
                lines[block.line : block.line + len(block.lines)] = new
    if changed:
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return changed


def main(argv: list[str]) -> int:
    """``--regenerate [DOCUMENT...]``: rewrite the shown outputs (all documents by default)."""
    if not argv or argv[0] != "--regenerate":
        print("usage: python tests/test_readme.py --regenerate [DOCUMENT...]", file=sys.stderr)
        return 2
    for document in argv[1:] or DOCUMENTS:
        print(f"{document}: {regenerate(document)} block(s) rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
