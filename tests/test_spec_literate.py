"""The markdown of every ruleset and its Python module say the same thing, in the same order."""

import pytest

from gorules.checks.spec_checks import LITERATE_RULESETS
from gorules.spec.literate import SPEC_DIR, compare, markdown_definitions, module_definitions

TROMP_TAYLOR_HEADINGS = [
    "Point and adjacency",
    "Player",
    "Color",
    "Move",
    "Board",
    "opponent (p*)",
    "State",
    "move",
    "clear",
    "reaches",
    "score",
    "game",
    "winner",
]

# After the source's definitions, what the toolkit adds: options, presets, the ruleset interface.
BEYOND_THE_SOURCE = [
    "Options beyond the source",
    "Presets",
    "repeated_state",
    "final_score",
    "The ruleset interface",
]


@pytest.mark.parametrize("ruleset", LITERATE_RULESETS)
def test_markdown_equals_module(ruleset):
    assert compare(ruleset) == []


def test_tromp_taylor_follows_the_source_order():
    headings = [d.heading.split(" — ")[0] for d in markdown_definitions((SPEC_DIR / "tromp_taylor.md").read_text())]
    assert headings == TROMP_TAYLOR_HEADINGS + BEYOND_THE_SOURCE


def test_a_changed_block_is_noticed(tmp_path, monkeypatch):
    """The comparison can fail: alter one line of the markdown and it reports that section."""
    from gorules.spec import literate

    md = (SPEC_DIR / "tromp_taylor.md").read_text().replace("return WHITE if p == BLACK else BLACK", "return BLACK")
    (tmp_path / "tromp_taylor.md").write_text(md)
    (tmp_path / "tromp_taylor.py").write_text((SPEC_DIR / "tromp_taylor.py").read_text())
    monkeypatch.setattr(literate, "SPEC_DIR", tmp_path)
    assert any("opponent" in p for p in literate.compare("tromp_taylor"))


def test_a_missing_definition_is_noticed(tmp_path, monkeypatch):
    from gorules.spec import literate

    source = (SPEC_DIR / "tromp_taylor.py").read_text() + "\n\ndef extra():\n    return 1\n"
    (tmp_path / "tromp_taylor.md").write_text((SPEC_DIR / "tromp_taylor.md").read_text())
    (tmp_path / "tromp_taylor.py").write_text(source)
    monkeypatch.setattr(literate, "SPEC_DIR", tmp_path)
    assert any("extra" in p for p in literate.compare("tromp_taylor"))


def test_module_definitions_include_decorators():
    source = (SPEC_DIR / "tromp_taylor.py").read_text()
    assert dict(module_definitions(source))["reaching"].startswith("@functools.lru_cache")
