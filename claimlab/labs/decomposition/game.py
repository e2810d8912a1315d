"""The decomposition game as a state machine, and its solver.

Choose a puzzle, select and annotate candidates, check: every outcome with named reasons.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claimlab.core.text import plural, same_claim_key
from claimlab.core.vocab import ERROR_KINDS, STATUSES, unknown
from claimlab.io.decomposition import DecompositionFixture, Puzzle, load_decomposition
from claimlab.labs.play import Action, Reason
from claimlab.metrics.decomposition import DecompositionResult, score_decomposition


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
    """Choose and annotate subclaims that keep the whole answer, faithfully, within the slots."""

    fixture: DecompositionFixture  # or the path of one: loaded when the game starts
    puzzle: str | None = None  # a puzzle of the file; None: its first
    selection: list[str] = field(default_factory=list, init=False)
    annotations: dict[str, str] = field(default_factory=dict, init=False)
    round_over: bool = field(default=False, init=False)
    last_check: CheckResult | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.fixture = _decomposition_fixture(self.fixture)
        self.puzzle = self.fixture.game.puzzle(self.puzzle).name  # unknown names raise
        self.reset()

    @property
    def slots(self) -> int:
        """Raw slots in all."""
        return self.fixture.game.slots

    @property
    def current(self) -> Puzzle:
        """The puzzle being played."""
        return self.fixture.game.puzzle(self.puzzle)

    @property
    def slots_left(self) -> int:
        """Raw slots still free."""
        return self.slots - len(self.selection)

    def choose(self, puzzle: str) -> Action:
        """Play another puzzle of the file (a new round)."""
        try:
            self.puzzle = self.fixture.game.puzzle(puzzle).name
        except ValueError as exc:
            return Action(False, str(exc))
        return self.reset()

    def reset(self) -> Action:
        """Back to the puzzle's starting selection, no annotations, a new round."""
        self.selection = list(self.current.start)
        self.annotations = {}
        self.round_over = False
        self.last_check = None
        start = ", ".join(self.selection) or "nothing selected"
        return Action(
            True, f"puzzle {self.puzzle}: {start}; {plural(self.slots_left, 'slot')} free"
        )

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
                False, f"no slot left ({self.slots} of {self.slots} used): deselect something first"
            )
        self.selection.append(cid)
        return Action(True, f"selected {cid} ({plural(self.slots_left, 'slot')} left)")

    def deselect(self, cid: str) -> Action:
        """Free a candidate's slot (its annotation goes with it)."""
        if (closed := self._closed()) is not None:
            return closed
        if cid not in self.selection:
            return Action(False, f"{cid} is not selected")
        self.selection.remove(cid)
        self.annotations.pop(cid, None)
        return Action(True, f"deselected {cid} ({plural(self.slots_left, 'slot')} left)")

    def annotate(self, cid: str, status: str) -> Action:
        """Mark a selected candidate's evidence status (takes no slot)."""
        if (closed := self._closed()) is not None:
            return closed
        if status not in STATUSES:
            return Action(False, unknown("status", status, STATUSES))
        if cid not in self.selection:
            return Action(False, f"select {cid} before annotating it")
        self.annotations[cid] = status
        return Action(True, f"{cid} annotated {status}")

    def metrics(self) -> DecompositionResult:
        """The four Toy metrics of the current selection."""
        return score_decomposition(self.fixture, self.selection)

    def check(self) -> CheckResult:
        """End the round: won, or every rule that is not met.

        A round that is over is not checked again: its verdict stands until Reset.
        """
        if self.round_over and self.last_check is not None:
            return self.last_check
        fx = self.fixture
        reasons: list[Reason] = []
        m = self.metrics()
        if not self.selection:
            reasons.append(Reason("EMPTY", "an empty selection can never win"))
        if len(self.selection) > self.slots:
            reasons.append(
                Reason("TOO_MANY_SLOTS", f"{len(self.selection)} selected, at most {self.slots}")
            )
        atomic_faithful = {
            u
            for c in (fx.candidate(i) for i in m.unique_ids)
            if c.faithful and c.atomic
            for u in fx.counted_units(c)
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
        for kind in ERROR_KINDS:
            ids = [i for i in self.selection if kind in fx.candidate(i).errors]
            if ids:
                reasons.append(Reason(kind.upper(), f"{kind} error in {', '.join(ids)}"))
        non_atomic = [i for i in self.selection if not fx.candidate(i).atomic]
        if non_atomic:
            reasons.append(
                Reason("NON_ATOMIC", f"compound claim(s) {', '.join(non_atomic)}: split them")
            )
        reasons += self._annotation_reasons()
        result = CheckResult(not reasons, tuple(reasons), m)
        self.round_over = True
        self.last_check = result
        return result

    def _annotation_reasons(self) -> list[Reason]:
        """Selected candidates without an evidence status, or with a wrong one."""
        fx, reasons = self.fixture, []
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
        return reasons


def solve_decomposition(
    fixture: DecompositionFixture, puzzle: str | None = None
) -> list[list[str]]:
    """A winning script for a puzzle (deselect, select, annotate, check), or [] when none exists.

    Keeps the starting candidates that are atomic, faithful, error-free and not duplicates, then
    covers the remaining units greedily (most new units first, file order on ties) within the
    slots, and annotates every selected candidate with its status from the file.
    """
    game = DecompositionGame(fixture, puzzle)
    good = [
        c
        for c in fixture.candidates
        if c.faithful and c.atomic and not c.errors and fixture.left_out(c) is None
    ]
    keep: list[str] = []
    fingerprints: set[str] = set()
    for cid in game.selection:
        c = fixture.candidate(cid)
        if c in good and same_claim_key(c.fingerprint) not in fingerprints:
            keep.append(cid)
            fingerprints.add(same_claim_key(c.fingerprint))
    counted = {c.id: set(fixture.counted_units(c)) for c in good}
    covered = {u for cid in keep for u in counted[cid]}
    added: list[str] = []
    while missing := [u for u in fixture.unit_ids if u not in covered]:
        options = [
            c
            for c in good
            if c.id not in keep
            and c.id not in added
            and same_claim_key(c.fingerprint) not in fingerprints
        ]
        best = max(options, key=lambda c: len(counted[c.id] & set(missing)), default=None)
        if best is None or not counted[best.id] & set(missing):
            return []
        added.append(best.id)
        fingerprints.add(same_claim_key(best.fingerprint))
        covered |= counted[best.id]
    final = keep + added
    if not final or len(final) > game.slots:
        return []
    script: list[list[Any]] = [["deselect", cid] for cid in game.selection if cid not in keep]
    script += [["select", cid] for cid in added]
    script += [["annotate", cid, str(fixture.candidate(cid).evidence.status)] for cid in final]
    return [*script, ["check"]]


def game_from_file(path: str | Path) -> DecompositionGame:
    """A game over a teacher's own decomposition file (refused in one line naming it).

    Raises:
        FixtureError: the file does not load or has no playable round.
    """
    from claimlab.io.decomposition import load_decomposition

    return DecompositionGame(load_decomposition(path))
