"""The sweep of Propositions 2 and 3 of source 001 over every go-space (here up to three
points; the four-point run is the command's), its mutant, and its command."""

import itertools
import json

import pytest

from gorules.cli import main
from gorules.impl.rulesets import topological as engine
from gorules.propositions_topological import Verdicts, all_readings, strings_by_definition, sweep, sweep_space
from gorules.spec import topological as spec


@pytest.fixture(scope="module")
def three():
    return sweep(3, all_readings(), None, False)


def test_proposition_2_holds_under_the_restricted_defn_8_and_fails_under_the_unrestricted(three):
    """Under the unrestricted quantifier, a dead stone {0,1} beside a dead stone {0} loses
    only the point they share: 1 stays black in no stone."""
    assert three.complete_up_to == 3 and three.spaces_per_size == {1: 1, 2: 9, 3: 113}
    for name, v in three.verdicts.items():
        assert v.spaces == 123 and v.steps > 0
        if "clearing=restricted" in name:
            assert v.proposition_2_fails == 0
        else:
            assert v.proposition_2_fails > 0
            assert v.counterexamples["proposition 2"].startswith("space:2;S=0,0+1; board ")


def test_proposition_3_vacuous_under_literal_and_failing_under_intended_on_the_same_stones(three):
    for placement, clearing in itertools.product(spec.PLACEMENT_READINGS, spec.CLEARING_READINGS):
        literal = three.verdicts[f"string=literal placement={placement} clearing={clearing}"]
        intended = three.verdicts[f"string=intended placement={placement} clearing={clearing}"]
        assert literal.failing_stones == 0 and intended.vacuous_stones == 0
        assert literal.vacuous_stones == intended.failing_stones > 0
        assert literal.proposition_3_vacuous == intended.proposition_3_fails
        assert intended.counterexamples["proposition 3"].startswith("space:2;S=0+1;")


def test_strings_by_definition_agree_with_the_twins_shortcut():
    for n in (1, 2, 3):
        for neighbourhoods in engine.go_space_classes(n):
            space = engine.space_from(neighbourhoods)
            for board in itertools.product("BW.", repeat=n):
                colouring = engine.colouring_of(board)
                for c in "BW":
                    stones = [i for i, m in enumerate(space.masks) if not m & ~colouring.of(c)]
                    shortcut = engine.literal_strings(space, stones)
                    for s, (members, _) in strings_by_definition(space, stones).items():
                        assert members == (engine.mask_of(shortcut[s][0]) if s in shortcut else 0)


def test_a_board_play_that_leaves_part_of_a_stone_is_caught(monkeypatch):
    """The mutant: after a board play, the lowest point of a kept multi-point placement is
    made empty again; the rest is coloured in no stone, which Proposition 2 forbids."""
    original = engine.board_play

    def torn(space, colouring, i, p, readings):
        after = original(space, colouring, i, p, readings)
        mask = space.masks[i]
        if after is None or mask & (mask - 1) == 0 or after.of(p) & mask != mask:
            return after
        low = mask & -mask
        return engine.Colouring(after.black & ~low, after.white & ~low)

    # No multi-point stone survives a board play on three points; on this space 0+1 lives
    # through the placement 2, whose closure {2,3} meets the stone's {0,1,3}.
    space = spec.parse_go_space("4;preorder=1<0,3<0,3<2;S=0+1,2")
    honest = Verdicts()
    sweep_space(space, spec.INTENDED, honest)
    assert honest.proposition_2_fails == 0 and honest.steps > 0
    monkeypatch.setattr(engine, "board_play", torn)
    verdict = Verdicts()
    sweep_space(space, spec.INTENDED, verdict)
    assert verdict.proposition_2_fails == 1 and "proposition 2" in verdict.counterexamples


def test_command_verdicts_and_exit_codes(tmp_path, capsys):
    out = tmp_path / "sweep.json"
    argv = ["--max-points", "3", "--string", "literal", "--clearing", "restricted", "--quiet", "--json", str(out)]
    assert main(["topological-sweep", *argv]) == 0
    printed = capsys.readouterr().out
    assert "Proposition 2 (inductive step): holds" in printed and "fails on 0" in printed
    data = json.loads(out.read_text())
    assert data["complete_up_to"] == 3 and set(data["verdicts"]) == {
        "string=literal placement=empty clearing=restricted",
        "string=literal placement=overlap clearing=restricted",
    }
    assert main(["topological-sweep", "--max-points", "2", "--quiet"]) == 1  # intended: Prop 3 fails
    assert "first counterexample to proposition 3: space:2;S=0+1" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, problem",
    [
        (["--max-points", "5"], "--max-points must be 1..4"),
        (["--max-points", "4", "--seconds", "2"], "raise --seconds or lower --max-points"),
    ],
)
def test_command_refuses_in_one_line(argv, problem, capsys):
    assert main(["topological-sweep", "--quiet", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and problem in err
