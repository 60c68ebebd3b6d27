"""Propositions 2 and 3 of source ``001_463c45151ac4bff4.txt`` on every go-space up to
isomorphism, under each reading of Defns 7, 4 and 8.

- Proposition 2's inductive step: on every colouring in which each coloured point lies in
  a stone of its colour, every board play by either player leaves a colouring with the
  same property.
- Proposition 3: for every stone s of every colouring, string(s) is go-connected; the
  verdict tells apart holding, holding vacuously (string(s) = ∅, the literal Defn 7) and
  failing.

Board plays and strings are computed by the bitset twin (``gorules.impl.rulesets.topological``),
which the tests compare with the spec on every go-space of up to four points.  Defn 5's
two readings are one computation on finite spaces (``gorules readings 001`` compares them
by the spec), so the sweep runs each reading of Defn 7 with each of Defns 4 and 8.
"""

from __future__ import annotations

import itertools
import sys
import time
from dataclasses import dataclass, field

from gorules.errors import UsageError
from gorules.impl.rulesets import topological as engine
from gorules.spec import topological as spec
from gorules.spec.graph import set_text
from gorules.spec.tromp_taylor import BLACK, EMPTY, WHITE

MAX_POINTS = 4
SPACES_PER_SECOND = 60
"""A cautious rate of four-point go-spaces swept per second per reading, for the estimate."""


def all_readings() -> list[spec.Readings]:
    """Each reading of Defn 7 with each reading of Defn 4 and each of Defn 8."""
    return [
        spec.Readings(string=s, placement=p, clearing=c)
        for s in spec.STRING_READINGS
        for p in spec.PLACEMENT_READINGS
        for c in spec.CLEARING_READINGS
    ]


def reading_name(readings: spec.Readings) -> str:
    """``string=intended placement=empty clearing=restricted``."""
    return f"string={readings.string} placement={readings.placement} clearing={readings.clearing}"


@dataclass
class Verdicts:
    """What one reading gave on the go-spaces swept: per proposition, go-spaces where it
    holds, holds only vacuously somewhere, or fails, with the smallest counterexample."""

    spaces: int = 0
    steps: int = 0
    stones: int = 0
    proposition_2_fails: int = 0
    proposition_3_holds: int = 0
    proposition_3_vacuous: int = 0
    proposition_3_fails: int = 0
    vacuous_stones: int = 0
    failing_stones: int = 0
    counterexamples: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        """The verdicts as JSON data."""
        return dict(self.__dict__)


def covered(space: engine.Space, colouring: engine.Colouring) -> bool:
    """Proposition 2's invariant: every coloured point lies in a stone of its colour."""
    for c in (BLACK, WHITE):
        own = colouring.of(c)
        inside = 0
        for mask in space.masks:
            if not mask & ~own:
                inside |= mask
        if own & ~inside:
            return False
    return True


def board_words(space: engine.Space, colouring: engine.Colouring) -> str:
    """``0:B 1:. 2:W``."""
    return " ".join(f"{x}:{c}" for x, c in enumerate(engine.board_of_colouring(space, colouring)))


def strings_by_definition(space: engine.Space, stones: list[int]) -> dict[int, tuple[int, int]]:
    """Defn 7 read literally, straight from the definition: for each stone s (a placement
    index), the union of the go-connected sets A of stones with s ∈ A, as (the bitset of
    the placement indices in it, the closure of the union of its stones).  Every subset of
    the stones is tried, so this does not lean on the twin's shortcut."""
    unions = dict.fromkeys(stones, (0, 0))
    for k in range(1, len(stones) + 1):
        for A in itertools.combinations(stones, k):
            closure = 0
            for t in A:
                closure |= space.closures[t]
            if engine.connected(space, closure):
                members = engine.mask_of(A)
                for s in A:
                    held, shut = unions[s]
                    unions[s] = (held | members, shut | closure)
    return unions


def stone_verdicts(space: engine.Space, own: int, readings: spec.Readings) -> list[tuple[int, str]]:
    """Proposition 3's verdict ("holds", "vacuous", "fails") for every stone of a colour whose
    points are `own` (the stones, and so their strings, depend on nothing else)."""
    stones = [i for i, mask in enumerate(space.masks) if not mask & ~own]
    verdicts = []
    for s, (members, closure) in strings_by_definition(space, stones).items():
        if members:
            verdicts.append((s, "holds" if engine.connected(space, closure) else "fails"))
        elif readings.string == "literal":
            verdicts.append((s, "vacuous"))
        else:
            verdicts.append((s, "holds" if engine.connected(space, space.closures[s]) else "fails"))
    return verdicts


def sweep_space(neighbourhoods: spec.Neighbourhoods, readings: spec.Readings, verdicts: Verdicts) -> None:
    """Both propositions on every colouring of one go-space under one reading, added to `verdicts`."""
    space = engine.space_from(neighbourhoods)
    text = engine.space_text(neighbourhoods)
    verdicts.spaces += 1
    step_failed = vacuous = failed = False
    by_points: dict[int, list] = {}
    for board in itertools.product((BLACK, WHITE, EMPTY), repeat=space.size):
        colouring = engine.colouring_of(board)
        found = []
        for own in (colouring.black, colouring.white):
            if own not in by_points:
                by_points[own] = stone_verdicts(space, own, readings)
            found += by_points[own]
        for s, verdict in found:
            verdicts.stones += 1
            if verdict == "vacuous":
                verdicts.vacuous_stones += 1
                vacuous = True
            elif verdict == "fails":
                verdicts.failing_stones += 1
                if not failed:
                    example = f"space:{text}; board {board_words(space, colouring)}; stone {set_text(space.sets[s])}"
                    verdicts.counterexamples.setdefault("proposition 3", example)
                failed = True
        if step_failed or not covered(space, colouring):
            continue
        for i in range(len(space.masks)):
            for p in (BLACK, WHITE):
                after = engine.board_play(space, colouring, i, p, readings)
                if after is None:
                    continue
                verdicts.steps += 1
                if not covered(space, after):
                    move = f"{set_text(space.sets[i])} by {p}"
                    verdicts.counterexamples.setdefault(
                        "proposition 2", f"space:{text}; board {board_words(space, colouring)}; {move}"
                    )
                    step_failed = True
    verdicts.proposition_2_fails += step_failed
    if failed:
        verdicts.proposition_3_fails += 1
    elif vacuous:
        verdicts.proposition_3_vacuous += 1
    else:
        verdicts.proposition_3_holds += 1


@dataclass
class Sweep:
    """The verdicts per reading, the go-spaces per size, and how far the sweep got."""

    verdicts: dict
    spaces_per_size: dict
    complete_up_to: int
    note: str = ""


def sweep(max_points: int, readings: list[spec.Readings], seconds: float | None, progress: bool) -> Sweep:
    """Sweep every go-space of 1..max_points points under each reading; UsageError if the
    estimate exceeds `seconds`; when the time runs out, the sizes finished so far."""
    from tqdm import tqdm

    if not 1 <= max_points <= MAX_POINTS:
        raise UsageError(f"--max-points must be 1..{MAX_POINTS}: go-spaces of 5 points are too many to enumerate here")
    sizes = {n: list(engine.go_space_classes(n)) for n in range(1, max_points + 1)}
    estimate = len(sizes[max_points]) * len(readings) / SPACES_PER_SECOND * (max_points / 4) ** 2
    if seconds is not None and estimate > seconds:
        raise UsageError(
            f"sweeping {sum(map(len, sizes.values()))} go-spaces under {len(readings)} readings takes about "
            f"{estimate:.0f} s, more than --seconds {seconds:g}: raise --seconds or lower --max-points"
        )
    started = time.perf_counter()
    verdicts = {reading_name(r): Verdicts() for r in readings}
    complete = 0
    for n, spaces in sizes.items():
        bar = tqdm(total=len(spaces), desc=f"{n} points", unit="go-space", file=sys.stderr, disable=not progress)
        for k, neighbourhoods in enumerate(spaces):
            if seconds is not None and time.perf_counter() - started > seconds:
                bar.close()
                note = f"the {seconds:g} s ran out after {k} of the {len(spaces)} go-spaces of {n} points"
                return Sweep(verdicts, {m: len(v) for m, v in sizes.items()}, complete, note)
            for r in readings:
                sweep_space(neighbourhoods, r, verdicts[reading_name(r)])
            bar.update(1)
        bar.close()
        complete = n
    return Sweep(verdicts, {m: len(v) for m, v in sizes.items()}, complete)


def summary(result: Sweep) -> str:
    """The verdicts in words, one reading a paragraph."""
    total = sum(result.spaces_per_size[n] for n in range(1, result.complete_up_to + 1))
    lines = [
        f"go-spaces up to isomorphism: {result.spaces_per_size} ({total} swept completely, up to {result.complete_up_to} points)"
    ]
    if result.note:
        lines.append(f"unknown beyond {result.complete_up_to} points: {result.note} (verdicts below count those swept)")
    for name, v in result.verdicts.items():
        lines.append(f"{name}:")
        p2 = "holds" if not v.proposition_2_fails else f"FAILS on {v.proposition_2_fails} go-spaces"
        checked = f"{v.steps} board plays on {v.spaces} go-spaces" + (
            ", each go-space's stopped at its first failure" if v.proposition_2_fails else ""
        )
        lines.append(f"  Proposition 2 (inductive step): {p2} ({checked})")
        lines.append(
            f"  Proposition 3: holds on {v.proposition_3_holds} go-spaces, only vacuously (string = ∅) somewhere on "
            f"{v.proposition_3_vacuous}, fails on {v.proposition_3_fails} "
            f"({v.stones} stones: {v.vacuous_stones} vacuous, {v.failing_stones} failing)"
        )
        for proposition, example in v.counterexamples.items():
            lines.append(f"  first counterexample to {proposition}: {example}")
    return "\n".join(lines)
