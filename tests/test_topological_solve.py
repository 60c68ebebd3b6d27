"""The primitive-rules game of source 001 solved on tiny go-spaces by the shared solver
(``gorules.impl.solving.search.solve`` through the ruleset interface, on the bitset twin), held to
an exhaustive search of the spec's own turns (Defn 10a, Rule 4a)."""

import functools
import itertools

import pytest

from gorules import rulesets
from gorules.cli import main
from gorules.impl.rulesets import topological as engine
from gorules.impl.solving.search import solve
from gorules.spec import topological as spec
from gorules.spec.graph import parse_graph
from gorules.spec.tromp_taylor import BLACK, WHITE, State, opponent


def spec_winner(neighbourhoods: spec.Neighbourhoods, readings: spec.Readings) -> str:
    """Who wins the primitive rules from the empty colouring under perfect play, by the
    spec's turns alone: the player to move wins iff some turn leaves the opponent losing."""
    space = spec.go_space(neighbourhoods.size, neighbourhoods.minimal, neighbourhoods.placements)

    @functools.lru_cache(maxsize=None)
    def to_move_wins(history: frozenset, s: State) -> bool:
        turns = spec.primitive_turns(space, history | {s.board}, s, readings)
        return any(
            not to_move_wins(history | {s.board}, State(after, opponent(s.player), 0)) for after in turns.values()
        )

    start = spec.initial_state(space)
    return BLACK if to_move_wins(frozenset(), start) else WHITE


@pytest.mark.parametrize("string", spec.STRING_READINGS)
def test_the_solver_agrees_with_exhaustive_search_of_the_spec_up_to_three_points(string):
    readings = spec.Readings(string=string)
    ruleset = rulesets.make("topological", "primitive", {"string": string})
    for neighbourhoods in itertools.chain(*(engine.go_space_classes(n) for n in (1, 2, 3))):
        graph = parse_graph("space:" + engine.space_text(neighbourhoods))
        solution = solve(ruleset.initial(graph))
        assert solution.value == spec_winner(neighbourhoods, readings), engine.space_text(neighbourhoods)
        # The principal variation is a game of the primitive rules that the loser ends.
        situation = ruleset.initial(graph)
        for move in solution.principal_variation:
            situation = situation.play(move)
        assert situation.over and situation.result() == solution.value


def test_the_readings_of_defn_7_change_the_winner_on_the_smallest_case():
    graph = parse_graph("space:3;S=2,0+1")
    intended = solve(rulesets.make("topological", "primitive").initial(graph))
    literal = solve(rulesets.make("topological", "primitive", {"string": "literal"}).initial(graph))
    assert (intended.value, intended.principal_variation) == ("W", [])
    assert (literal.value, literal.principal_variation) == ("B", [frozenset({0, 1})])


def test_solve_command_on_a_go_space(capsys):
    assert main(["solve", "space:3;S=2,0+1", "--ruleset", "topological", "--preset", "primitive", "--json"]) == 0
    assert '"value": "W"' in capsys.readouterr().out
