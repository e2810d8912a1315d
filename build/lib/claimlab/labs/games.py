"""The labs' games as plain state machines (no widgets): rules, actions, and named reasons.

Decomposition game: at most 7 raw candidate slots (each selected item takes one; deselecting frees
it; annotating an evidence status takes none). Win: U1-U5 covered by atomic, faithful candidates;
no duplicate, introduced, entity, version or qualifier error; every selected candidate annotated
with its correct evidence status. An empty selection never wins. Check ends a round; Reset starts
again.

Sufficiency game: a budget of 6 units. Searching costs 1 (E5 costs 3), copying costs 1; starting
evidence is free. Win: a valid proof set within budget, the right room, and, when asked, the
intermediate from the same witness. With the budget spent no search is possible, but submitting
and Reset still work.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claimlab.core.vocab import STATUSES
from claimlab.io.decomposition import DecompositionFixture, load_decomposition
from claimlab.io.sufficiency import SufficiencyFixture, load_sufficiency
from claimlab.metrics.decomposition import DecompositionResult, find_decomposition
from claimlab.metrics.sufficiency import answer_from_witness, find_fixture_sufficiency

MAX_SLOTS = 7

DECOMPOSITION_PUZZLES: Mapping[str, tuple[str, ...]] = {
    "supported_only": ("C1", "C2", "C3"),
    "qualifier_lost": ("C7", "C2", "C3", "C4", "C5"),
    "products_mixed": ("C9", "C10", "C2", "C3", "C4", "C5"),
    "duplicate_for_missing": ("C1", "C6", "C2", "C3", "C5"),
}


@dataclass(frozen=True)
class Reason:
    """A named rule that is not met yet, with a plain explanation."""

    code: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True)
class Action:
    """The outcome of one action: whether it was taken, and what to tell the player."""

    ok: bool
    message: str


@dataclass(frozen=True)
class CheckResult:
    """The end of a round: won or not, every reason it is not, and the metrics behind it."""

    won: bool
    reasons: tuple[Reason, ...]
    metrics: DecompositionResult | None = None

    @property
    def codes(self) -> tuple[str, ...]:
        """Reason codes."""
        return tuple(r.code for r in self.reasons)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        out = {"won": self.won, "reasons": [r.to_dict() for r in self.reasons]}
        if self.metrics is not None:
            out["metrics"] = {k: v.to_dict() for k, v in self.metrics.ratios().items()}
        return out


def _decomposition_fixture(fixture: DecompositionFixture | str | Path) -> DecompositionFixture:
    return fixture if isinstance(fixture, DecompositionFixture) else load_decomposition(fixture)


@dataclass
class DecompositionGame:
    """Choose and annotate subclaims that keep the whole answer, faithfully, within 7 slots."""

    fixture: DecompositionFixture  # or the path of one: loaded when the game starts
    puzzle: str = "supported_only"
    selection: list[str] = field(default_factory=list, init=False)
    annotations: dict[str, str] = field(default_factory=dict, init=False)
    round_over: bool = field(default=False, init=False)
    last_check: CheckResult | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.fixture = _decomposition_fixture(self.fixture)
        if self.puzzle not in DECOMPOSITION_PUZZLES:
            raise ValueError(
                f"unknown puzzle {self.puzzle!r} (one of {', '.join(DECOMPOSITION_PUZZLES)})"
            )
        self.reset()

    @property
    def slots_left(self) -> int:
        """Raw slots still free."""
        return MAX_SLOTS - len(self.selection)

    def reset(self) -> Action:
        """Back to the puzzle's starting selection, no annotations, a new round."""
        self.selection = list(DECOMPOSITION_PUZZLES[self.puzzle])
        self.annotations = {}
        self.round_over = False
        self.last_check = None
        return Action(True, f"puzzle {self.puzzle}: starting selection {', '.join(self.selection)}")

    def _closed(self) -> Action | None:
        if self.round_over:
            return Action(False, "the round is over: press Reset to play again")
        return None

    def select(self, cid: str) -> Action:
        """Take a slot for a candidate."""
        if (closed := self._closed()) is not None:
            return closed
        self.fixture.candidate(cid)  # unknown ids raise
        if cid in self.selection:
            return Action(False, f"{cid} is already selected")
        if self.slots_left <= 0:
            return Action(
                False, f"no slot left ({MAX_SLOTS} of {MAX_SLOTS} used): deselect something first"
            )
        self.selection.append(cid)
        return Action(True, f"selected {cid} ({self.slots_left} slots left)")

    def deselect(self, cid: str) -> Action:
        """Free a candidate's slot (its annotation goes with it)."""
        if (closed := self._closed()) is not None:
            return closed
        if cid not in self.selection:
            return Action(False, f"{cid} is not selected")
        self.selection.remove(cid)
        self.annotations.pop(cid, None)
        return Action(True, f"deselected {cid} ({self.slots_left} slots left)")

    def annotate(self, cid: str, status: str) -> Action:
        """Mark a selected candidate's evidence status (takes no slot)."""
        if (closed := self._closed()) is not None:
            return closed
        if status not in STATUSES:
            return Action(False, f"unknown status {status!r} (one of {', '.join(STATUSES)})")
        if cid not in self.selection:
            return Action(False, f"select {cid} before annotating it")
        self.annotations[cid] = status
        return Action(True, f"{cid} annotated {status}")

    def metrics(self) -> DecompositionResult:
        """The four Toy metrics of the current selection."""
        return find_decomposition(self.fixture, self.selection)

    def check(self) -> CheckResult:
        """End the round: won, or every rule that is not met."""
        fx = self.fixture
        reasons: list[Reason] = []
        m = self.metrics()
        if not self.selection:
            reasons.append(Reason("EMPTY", "an empty selection can never win"))
        if len(self.selection) > MAX_SLOTS:
            reasons.append(
                Reason("TOO_MANY_SLOTS", f"{len(self.selection)} selected, at most {MAX_SLOTS}")
            )
        atomic_faithful = {
            u
            for c in (fx.candidate(i) for i in m.unique_ids)
            if c.faithful and c.atomic
            for u in c.preserves
        }
        uncovered = [u for u in fx.unit_ids if u not in atomic_faithful]
        if uncovered:
            reasons.append(
                Reason(
                    "UNCOVERED_UNITS",
                    f"units not covered by an atomic, faithful candidate: {', '.join(uncovered)}",
                )
            )
        if m.duplicates:
            reasons.append(
                Reason("DUPLICATE", f"duplicate of an earlier candidate: {', '.join(m.duplicates)}")
            )
        for kind in ("introduced", "qualifier", "entity", "version"):
            ids = [i for i in self.selection if kind in fx.candidate(i).errors]
            if ids:
                reasons.append(Reason(kind.upper(), f"{kind} error in {', '.join(ids)}"))
        non_atomic = [i for i in self.selection if not fx.candidate(i).atomic]
        if non_atomic:
            reasons.append(
                Reason("NON_ATOMIC", f"compound claim(s) {', '.join(non_atomic)}: split them")
            )
        missing = [i for i in self.selection if i not in self.annotations]
        if missing:
            reasons.append(
                Reason("MISSING_ANNOTATION", f"no evidence status given for {', '.join(missing)}")
            )
        wrong = [
            i
            for i in self.selection
            if i in self.annotations and self.annotations[i] != fx.candidate(i).evidence.status
        ]
        if wrong:
            reasons.append(
                Reason("WRONG_ANNOTATION", f"wrong evidence status for {', '.join(wrong)}")
            )
        result = CheckResult(not reasons, tuple(reasons), m)
        self.round_over = True
        self.last_check = result
        return result


BUDGET = 6
SEARCH_COST = {"E5": 3}
DEFAULT_SEARCH_COST = 1
COPY_COST = 1

SUFFICIENCY_SCENARIOS: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "missing_link": ("room", ("E1",)),
    "mixed_branches": ("room", ("E1", "E4")),
    "route_and_room": ("route_and_room", ("E5",)),
}


@dataclass(frozen=True)
class SubmitResult:
    """The end of a round of the sufficiency game."""

    won: bool
    reasons: tuple[Reason, ...]
    witness: tuple[str, ...] | None
    spent: int

    @property
    def codes(self) -> tuple[str, ...]:
        """Reason codes."""
        return tuple(r.code for r in self.reasons)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "won": self.won,
            "reasons": [r.to_dict() for r in self.reasons],
            "witness": None if self.witness is None else list(self.witness),
            "spent": self.spent,
        }


def _sufficiency_fixture(fixture: SufficiencyFixture | str | Path) -> SufficiencyFixture:
    return fixture if isinstance(fixture, SufficiencyFixture) else load_sufficiency(fixture)


@dataclass
class SufficiencyGame:
    """Spend a search budget to build a proof set that answers the question."""

    fixture: SufficiencyFixture  # or the path of one: loaded when the game starts
    scenario: str = "missing_link"
    context: list[str] = field(default_factory=list, init=False)
    spent: int = field(default=0, init=False)
    round_over: bool = field(default=False, init=False)
    last_submit: SubmitResult | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.fixture = _sufficiency_fixture(self.fixture)
        if self.scenario not in SUFFICIENCY_SCENARIOS:
            raise ValueError(
                f"unknown scenario {self.scenario!r} (one of {', '.join(SUFFICIENCY_SCENARIOS)})"
            )
        self.reset()

    @property
    def question(self) -> str:
        """The scenario's question name."""
        return SUFFICIENCY_SCENARIOS[self.scenario][0]

    @property
    def budget_left(self) -> int:
        """Units still to spend."""
        return BUDGET - self.spent

    def cost(self, eid: str) -> int:
        """What searching ``eid`` costs."""
        return SEARCH_COST.get(eid, DEFAULT_SEARCH_COST)

    def reset(self) -> Action:
        """Back to the starting evidence (free) and the full budget."""
        self.context = list(SUFFICIENCY_SCENARIOS[self.scenario][1])
        self.spent = 0
        self.round_over = False
        self.last_submit = None
        return Action(
            True,
            f"scenario {self.scenario}: starting evidence {', '.join(self.context)}, budget {BUDGET}",
        )

    def search(self, eid: str) -> Action:
        """Search for an evidence record (costs 1; E5 costs 3)."""
        if self.round_over:
            return Action(False, "the round is over: press Reset to play again")
        if self.fixture.item(eid) is None:
            return Action(False, f"no record {eid} in this fixture")
        if eid in self.context:
            return Action(
                False, f"{eid} is already in the context (copy it if you want a duplicate)"
            )
        cost = self.cost(eid)
        if cost > self.budget_left:
            return Action(
                False,
                f"budget spent: searching {eid} costs {cost}, {self.budget_left} left; you can still submit or reset",
            )
        self.context.append(eid)
        self.spent += cost
        return Action(True, f"found {eid} for {cost} (budget left {self.budget_left})")

    def copy(self, eid: str) -> Action:
        """Copy a record already in the context (costs 1; adds no premise)."""
        if self.round_over:
            return Action(False, "the round is over: press Reset to play again")
        if eid not in self.context:
            return Action(False, f"{eid} is not in the context")
        if COPY_COST > self.budget_left:
            return Action(
                False,
                f"budget spent: a copy costs {COPY_COST}, {self.budget_left} left; you can still submit or reset",
            )
        self.context.append(eid)
        self.spent += COPY_COST
        return Action(True, f"copied {eid} for {COPY_COST} (budget left {self.budget_left})")

    def submit(self, proof: Sequence[str], answer: Mapping[str, str]) -> SubmitResult:
        """End the round with a proof set and an answer (``room``, and ``route`` when asked)."""
        fx = self.fixture
        q = fx.question(self.question)
        reasons: list[Reason] = []
        proof = list(dict.fromkeys(proof))
        if self.spent > BUDGET:
            reasons.append(Reason("OVER_BUDGET", f"spent {self.spent} of {BUDGET}"))
        absent = [p for p in proof if p not in self.context]
        if absent:
            reasons.append(Reason("NOT_IN_CONTEXT", f"cited but never found: {', '.join(absent)}"))
        check = find_fixture_sufficiency(fx, self.question, [p for p in proof if p in self.context])
        bad = [r for r in check.rejected if r.reason in ("off-topic", "metadata")]
        if bad:
            reasons.append(Reason("REJECTED_EVIDENCE", "; ".join(r.detail for r in bad)))
        witness = next((w for w in check.witnesses if set(w) <= set(proof)), None)
        if witness is None:
            reasons.append(
                Reason(
                    "NO_WITNESS",
                    "the proof set holds no complete, linked alternative for this question",
                )
            )
        expected = answer_from_witness(fx, witness) if witness else {}
        room = answer.get("room")
        accepted = (
            (expected["answer"],) if "answer" in expected else fx.accepted(self.question, "room")
        )
        if room not in accepted:
            reasons.append(
                Reason(
                    "WRONG_ROOM", f"the answer names {room!r}, the evidence does not support that"
                )
            )
        if "route" in q.asks:
            route = answer.get("route")
            if witness is None or route != expected.get("intermediate"):
                reasons.append(
                    Reason(
                        "INTERMEDIATE_NOT_FROM_WITNESS",
                        f"the route {route!r} does not come from the same witness as the room",
                    )
                )
        result = SubmitResult(not reasons, tuple(reasons), witness, self.spent)
        self.round_over = True
        self.last_submit = result
        return result


def play_script(
    game: DecompositionGame | SufficiencyGame, script: Sequence[Sequence]
) -> list[dict]:
    """Play a list of actions, e.g. ``[["select", "C4"], ["annotate", "C4", "NOT_IN_REFERENCE"], ["check"]]``.

    For the sufficiency game: ``["search", "E2"]``, ``["copy", "E1"]``,
    ``["submit", ["E1", "E2"], {"room": "Room A3"}]``, ``["reset"]``. Returns one log entry per action.
    """
    log = []
    for step in script:
        if not step:
            raise ValueError("empty action in script")
        name, *args = step
        if name not in {
            "select",
            "deselect",
            "annotate",
            "check",
            "reset",
            "search",
            "copy",
            "submit",
        } or not hasattr(game, name):
            raise ValueError(f"unknown action {name!r} for {type(game).__name__}")
        out = getattr(game, name)(*args)
        entry = {"action": list(step)}
        entry.update(
            out.to_dict() if hasattr(out, "to_dict") else {"ok": out.ok, "message": out.message}
        )
        log.append(entry)
    return log
