"""Each ruleset beyond Tromp–Taylor states its definitions in its source's order.

(Markdown = module is checked for every ruleset by tests/test_spec_literate.py.)
"""

import pytest

from gorules.spec.literate import SPEC_DIR, markdown_definitions

RULESETS = ["directed", "topological", "ultimate", "political"]

# Definitions that the sources name, in the order in which the sources state them.
SOURCE_ORDER = {
    "directed": [
        "starting_situation",
        "before_turn",
        "liberties",
        "place",
        "ko_bid",
        "UNSUSTAINABLE",
        "live_stones",
        "outcome",
    ],
    "topological": [
        "GoSpace",
        "colour_of",
        "stones",
        "legal_placements",
        "go_connected",
        "has_liberty",
        "string",
        "clear",
        "board_play",
        "initial_state",
        "primitive_turns",
        "primitive_loser",
        "stone_game",
        "cardinality_score",
        "stone_winner",
        "graph_go_space",
        "proposition_2",
        "proposition_3",
    ],
    "ultimate": [
        "State",
        "surrounded",
        "initial_situation",
        "placement",
        "legal_placement",
        "delay",
        "moves",
        "ultimate_delay",
        "act",
        "score",
        "no_move_improves",
    ],
    "political": [
        "mutually_adjacent",
        "friendly",
        "mutually_friendly",
        "is_dragon",
        "liberties",
        "dead",
        "friendly_to",
        "territory",
        "may_place",
        "share",
        "capture",
        "play",
        "final_scores",
        "winners",
    ],
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_definitions_follow_the_source(ruleset):
    """The source's notions appear in the markdown in the source's order."""
    names = [n for d in markdown_definitions((SPEC_DIR / f"{ruleset}.md").read_text()) for n in d.names]
    wanted = SOURCE_ORDER[ruleset]
    assert [n for n in names if n in wanted] == wanted
