"""A theorem of one's own, for every graph: clearing twice is clearing once.

    gorules prove --theorem-file docs/examples/clear_idempotent.py

clear(clear(b, p), p) = clear(b, p) for every board b and player p, on every graph and
digraph: the stones of p that survive the first clearing reached Empty, and emptying the
others keeps their paths (``emptying_preserves`` in proofs/coq/Reaches.v), so the second
clearing finds nothing to remove.  The vocabulary is that of proofs/README.md, "A theorem
of your own".
"""

import z3

from gorules.proofs import unbounded_logic as U
from gorules.proofs import unbounded_rules as UR
from gorules.proofs.unbounded import UnboundedTheorem
from gorules.proofs.unbounded_obligations import PROOF, Query, reaching_facts


def idempotent(rules, mode):
    """facts ∧ ¬goal: some board and player where the second clearing removes a stone."""
    b, p = U.board_symbol("b"), z3.Const("p", U.Colour)
    first = U.Reaching("R_once", b, U.EMPTY, rules.written, rules.greatest)
    once = U.clear(b, p, first)
    second = U.Reaching("R_twice", once, U.EMPTY, rules.written, rules.greatest)
    twice = U.clear(once, p, second)
    facts = [U.is_player(p), *reaching_facts([first, second], mode)]
    if mode == PROOF:
        facts.append(U.emptying(first, second))
    goal = U.every_point("x", lambda x: twice(x) == once(x))
    return Query(facts, goal, {"board": b, "cleared once": once}, {}, p)


def hypotheses(obligation, graph, case):
    """Every board and player qualify."""
    return True


def conclusion(obligation, graph, case, rules):
    """The statement on the concrete board, computed with the spec's reaching."""
    b, p = tuple(case["boards"]["board"]), case["player"]
    once = UR.concrete_clear(graph, b, p, UR.concrete_reaching(graph, b, rules))
    return UR.concrete_clear(graph, once, p, UR.concrete_reaching(graph, once, rules)) == once


THEOREM = UnboundedTheorem(
    "clear-idempotent",
    ("idempotent",),
    ("reaches_closed", "reaches_least", "emptying_preserves"),
    {},
    "every graph and digraph, every board and player",
    builders={"idempotent": idempotent},
    hypotheses=hypotheses,
    conclusion=conclusion,
)
