"""The sufficiency game as a state machine, and its solver.

Search and copy evidence within a budget, submit a proof and the answers: every outcome with
named reasons. The solver finds the cheapest wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claimlab.core.vocab import unknown
from claimlab.io.sufficiency import Scenario, SufficiencyFixture, load_sufficiency
from claimlab.labs.play import Action, Reason
from claimlab.metrics.sufficiency import (
    CONDITIONAL,
    Derivation,
    SufficiencyResult,
    find_derivations,
    normalise_value,
    score_fixture_sufficiency,
)


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


def game_scenarios(fixture: SufficiencyFixture) -> dict[str, Scenario]:
    """The scenarios the game offers.

    ``game.scenarios`` if the file lists them, else every scenario of the file, else one per
    question starting with no evidence (named by the question).
    """
    if fixture.game.scenarios:
        return {name: fixture.scenarios[name] for name in fixture.game.scenarios}
    if fixture.scenarios:
        return dict(fixture.scenarios)
    return {
        name: Scenario(name, name, (), False, "Start with no evidence.", None, None)
        for name in fixture.questions
    }


def conflict_round(fixture: SufficiencyFixture) -> str | None:
    """The first round the game offers whose starting evidence holds a conflict (None: none)."""
    for name, sc in game_scenarios(fixture).items():
        if score_fixture_sufficiency(fixture, sc.question, list(sc.context)).conflicts:
            return name
    return None


def _check_answer_key(fixture: SufficiencyFixture, scenario: Scenario) -> None:
    q = fixture.question(scenario.question)
    missing = [item for item in q.asks if not fixture.accepted(q.name, item)]
    if missing:
        raise ValueError(
            f"scenario {scenario.name!r}: the game needs the accepted values of "
            + ", ".join(f"answer_key.{q.name}.{item}" for item in missing)
            + f" in {fixture.source}"
        )


@dataclass
class SufficiencyGame:
    """Spend a search budget to build a proof set that answers the question."""

    fixture: SufficiencyFixture  # or the path of one: loaded when the game starts
    scenario: str | None = None  # a scenario the game offers; None: the first
    context: list[str] = field(default_factory=list, init=False)
    spent: int = field(default=0, init=False)
    round_over: bool = field(default=False, init=False)
    last_submit: SubmitResult | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.fixture = _sufficiency_fixture(self.fixture)
        self.scenarios = game_scenarios(self.fixture)
        if not self.scenario:
            self.scenario = next(iter(self.scenarios))
        if self.scenario not in self.scenarios:
            raise ValueError(unknown("scenario", self.scenario, self.scenarios))
        _check_answer_key(self.fixture, self.scenarios[self.scenario])
        self.reset()

    @property
    def current(self) -> Scenario:
        """The scenario being played."""
        assert self.scenario is not None
        return self.scenarios[self.scenario]

    @property
    def question(self) -> str:
        """The scenario's question name."""
        return self.current.question

    @property
    def asks(self) -> tuple[str, ...]:
        """What the answer must name."""
        return self.fixture.question(self.question).asks

    @property
    def budget(self) -> int:
        """Units to spend in a round."""
        return self.fixture.game.budget

    @property
    def budget_left(self) -> int:
        """Units still to spend."""
        return self.budget - self.spent

    def cost(self, eid: str) -> int:
        """What searching ``eid`` costs."""
        return self.fixture.game.cost(eid)

    @property
    def copy_cost(self) -> int:
        """What a copy costs."""
        return self.fixture.game.copy_cost

    def can_copy(self, eid: str) -> bool:
        """Whether the file lets ``eid`` be copied."""
        return eid in self.fixture.game.copyable

    def choose(self, scenario: str) -> Action:
        """Play another scenario (a new round)."""
        if scenario not in self.scenarios:
            return Action(False, unknown("scenario", scenario, self.scenarios))
        try:
            _check_answer_key(self.fixture, self.scenarios[scenario])
        except ValueError as exc:
            return Action(False, str(exc))
        self.scenario = scenario
        return self.reset()

    def reset(self) -> Action:
        """Back to the starting evidence (free), the full budget and no submission."""
        self.context = list(self.current.context)
        self.spent = 0
        self.round_over = False
        self.last_submit = None
        start = ", ".join(self.context) or "no evidence"
        return Action(
            True, f"scenario {self.scenario}: you start with {start}; budget {self.budget}"
        )

    def search(self, eid: str) -> Action:
        """Search for an evidence record (its cost comes from the file)."""
        if self.round_over:
            return Action(False, "the round is over: press Reset to play again")
        if self.fixture.item(eid) is None:
            return Action(False, f"no record {eid} in this file")
        if eid in self.context:
            return Action(False, f"{eid} is already in the context")
        cost = self.cost(eid)
        if cost > self.budget_left:
            return Action(
                False,
                f"not enough budget: searching {eid} costs {cost}, {self.budget_left} left; "
                "you can still submit or reset",
            )
        self.context.append(eid)
        self.spent += cost
        return Action(True, f"found {eid} for {cost} (budget left {self.budget_left})")

    def copy(self, eid: str) -> Action:
        """Copy a record already in the context (it adds no premise)."""
        if self.round_over:
            return Action(False, "the round is over: press Reset to play again")
        if not self.can_copy(eid):
            return Action(False, f"{eid} cannot be copied in this game")
        if eid not in self.context:
            return Action(False, f"{eid} is not in the context")
        if self.copy_cost > self.budget_left:
            return Action(
                False,
                f"not enough budget: a copy costs {self.copy_cost}, {self.budget_left} left; "
                "you can still submit or reset",
            )
        self.context.append(eid)
        self.spent += self.copy_cost
        return Action(True, f"copied {eid} for {self.copy_cost} (budget left {self.budget_left})")

    def submit(
        self, proof: Sequence[str], answer: Mapping[str, str], conflict: bool = False
    ) -> SubmitResult:
        """End the round with a proof set and an answer naming each asked item.

        A round whose evidence holds a conflict (two approved texts giving one value two ways,
        or two witnesses deriving two values) is won by reporting it (``conflict=True``) with a
        proof citing every side (each side's whole witness), never by picking one; a witness
        that holds only on conditions the question does not meet wins nothing.

        Answers are graded by what the cited witness derives from its own texts, and by the
        key. A value the witness derives but the key refuses is not a WRONG_ANSWER (the player
        said what the cited texts say) and not a win: KEY_DISAGREES names the file's texts
        that derive the key's value (its texts conflict: find that side and report the
        conflict) or says none does (the key needs checking).
        """
        if self.round_over and self.last_submit is not None:
            return self.last_submit  # a finished round's verdict stands until Reset
        proof = list(dict.fromkeys(proof))
        reasons: list[Reason] = []
        if self.spent > self.budget:
            reasons.append(Reason("OVER_BUDGET", f"spent {self.spent} of {self.budget}"))
        absent = [p for p in proof if p not in self.context]
        if absent:
            reasons.append(Reason("NOT_IN_CONTEXT", f"cited but never found: {', '.join(absent)}"))
        seen = score_fixture_sufficiency(self.fixture, self.question, self.context)
        if seen.conflicts or conflict:
            reasons += _conflict_reasons(seen, proof, conflict)
            witness = tuple(proof) if not reasons else None
        else:
            found, witness = self._answer_reasons(proof, answer)
            reasons += found
        result = SubmitResult(not reasons, tuple(reasons), witness, self.spent)
        self.round_over = True
        self.last_submit = result
        return result

    def _answer_reasons(
        self, proof: list[str], answer: Mapping[str, str]
    ) -> tuple[list[Reason], tuple[str, ...] | None]:
        """What stands between a proof and an answer and a win (no conflict in sight)."""
        fx = self.fixture
        check = score_fixture_sufficiency(
            fx, self.question, [p for p in proof if p in self.context]
        )
        reasons, witnesses = _witness_reasons(check, proof)
        given = self._given(answer, reasons)
        derived = [(w, witness_values(fx, self.question, w)) for w in witnesses]
        graded: dict[str, str] = {}  # the items not simply wrong
        for item, value in given.items():
            sides = [vals[item] for _, vals in derived if _states(vals.get(item), value)]
            if self._accepts(item, value):
                graded[item] = value
            elif sides:  # the answer is what the cited texts say; the key says otherwise
                reasons.append(Reason("KEY_DISAGREES", self._key_note(item, value, sides[0])))
                graded[item] = value
            else:
                reasons.append(
                    Reason(
                        "WRONG_ANSWER", f"the {item} {value!r} is not what the evidence supports"
                    )
                )
        witness = next(
            (w for w, vals in derived if all(self._follows(vals, i, v) for i, v in graded.items())),
            None,
        )
        if witnesses and witness is None:
            reasons.append(
                Reason(
                    "NOT_FROM_WITNESS",
                    "no single witness in the proof derives "
                    + " and ".join(f"the {item} {v!r}" for item, v in graded.items()),
                )
            )
        return reasons, witness or (witnesses[0] if witnesses else None)

    def _given(self, answer: Mapping[str, str], reasons: list[Reason]) -> dict[str, str]:
        """The asked items the answer names (each one it leaves out becomes a reason)."""
        given: dict[str, str] = {}
        for item in self.asks:
            raw = answer.get(item)
            value = raw.strip() if isinstance(raw, str) else ""
            if value:
                given[item] = value
            else:
                reasons.append(Reason("MISSING_ANSWER", f"the answer does not name the {item}"))
        return given

    def _accepts(self, item: str, value: str) -> bool:
        """Whether the answer key accepts ``value`` for ``item``."""
        accepted = self.fixture.accepted(self.question, item)
        return normalise_value(value) in {normalise_value(v) for v in accepted}

    def _follows(self, values: Mapping[str, Derivation], item: str, value: str) -> bool:
        """Whether a witness's values give ``value`` for ``item``.

        A value the witness's text holds without naming it is graded by the key.
        """
        d = values.get(item)
        if d is None:
            return False
        return self._accepts(item, value) if d.value is None else _states(d, value)

    def _key_note(self, item: str, value: str, side: Derivation) -> str:
        """Why a cited text's value that the key refuses is no plain wrong answer.

        Either the file's texts disagree with each other (another side derives the key's
        value), or the key disagrees with all of them.
        """
        key = " or ".join(repr(v) for v in self.fixture.accepted(self.question, item))
        every = [e.id for e in self.fixture.evidence]
        other = next(
            (
                d
                for d in find_derivations(self.fixture, self.question, every).get(item, ())
                if d.value is not None and self._accepts(item, d.value)
            ),
            None,
        )
        said = f"the {item} {value!r} is what {', '.join(side.by)} state, but the key accepts {key}"
        if other is not None:
            return (
                f"{said}, which {', '.join(other.by)} derive: the file's own texts disagree, so "
                "find the other side and report the conflict"
            )
        return f"{said}, which no text of the file derives: the key, not the answer, needs checking"


def _states(d: Derivation | None, value: str) -> bool:
    """Whether a derivation names ``value`` (compared without case or extra spaces)."""
    return (
        d is not None and d.value is not None and normalise_value(d.value) == normalise_value(value)
    )


def witness_values(
    fixture: SufficiencyFixture, question: str, witness: Sequence[str]
) -> dict[str, Derivation]:
    """What one witness derives for each asked item, from its own texts (the first, by item)."""
    derived = find_derivations(fixture, question, witness)
    return {
        item: next((d for d in ds if d.value is not None), ds[0])
        for item, ds in derived.items()
        if ds
    }


def _witness_reasons(
    check: SufficiencyResult, proof: Sequence[str]
) -> tuple[list[Reason], list[tuple[str, ...]]]:
    """The proof's refused texts, and its complete witnesses (none when conditions are unmet)."""
    reasons: list[Reason] = []
    bad = [r for r in check.rejected if r.reason in ("off-topic", "metadata")]
    if bad:
        reasons.append(Reason("REJECTED_EVIDENCE", "; ".join(r.detail for r in bad)))
    witnesses = [w for w in check.witnesses if set(w) <= set(proof)]
    if witnesses and check.status == CONDITIONAL:
        unmet = "; ".join(
            f"{u.id} only if {', '.join(u.conditions)}" for u in check.conditions_unmet
        )
        reasons.append(
            Reason(
                "CONDITIONS_UNMET",
                f"the witness holds on conditions the question does not meet ({unmet})",
            )
        )
        witnesses = []
    elif not witnesses:
        reasons.append(
            Reason(
                "NO_WITNESS",
                "the proof set holds no complete, linked alternative for this question",
            )
        )
    return reasons, witnesses


def _conflict_reasons(
    seen: SufficiencyResult, proof: Sequence[str], conflict: bool
) -> list[Reason]:
    """A round on a conflict: it must be reported, citing every side; none must be invented."""
    if not seen.conflicts:
        return [Reason("NO_CONFLICT", "the evidence found holds no conflict: answer the question")]
    shown = "; ".join(c.explanation for c in seen.conflicts)
    if not conflict:
        return [
            Reason(
                "PICKED_A_SIDE",
                f"the evidence holds a conflict ({shown}): report it, do not pick a side",
            )
        ]
    cited = set(proof)
    unshown = [
        v
        for c in seen.conflicts
        for v, ways in c.sides().items()
        if not any(cited.issuperset(w) for w in ways)
    ]
    if unshown:
        return [
            Reason(
                "CONFLICT_NOT_CITED",
                "cite every side of the conflict (each side's whole witness): nothing cited "
                f"gives {', '.join(map(repr, unshown))}",
            )
        ]
    return []


@dataclass(frozen=True)
class Win:
    """One cheapest way to win a sufficiency scenario."""

    witness: tuple[str, ...]
    searches: tuple[str, ...]
    cost: int
    answer: Mapping[str, str]
    conflict: bool = False  # the round is won by reporting a conflict

    def script(self) -> list[list[object]]:
        """The round as ``play_script`` actions."""
        submit: list[Any] = ["submit", list(self.witness), dict(self.answer)]
        return [*(["search", e] for e in self.searches), submit + ([True] if self.conflict else [])]


def sufficiency_wins(fixture: SufficiencyFixture, scenario: str | None = None) -> list[Win]:
    """Every way to win a scenario with one alternative, cheapest first (within the budget)."""
    game = SufficiencyGame(fixture, scenario)
    q = fixture.question(game.question)
    start = score_fixture_sufficiency(fixture, game.question, game.context)
    if start.conflicts:  # reported, every side cited: no search, no answer
        sides = [i for c in start.conflicts for ways in c.sides().values() for i in ways[0]]
        return [Win(tuple(dict.fromkeys(sides)), (), 0, {}, conflict=True)]
    wins = []
    for alt in q.alternatives:
        searches = tuple(e for e in dict.fromkeys(alt) if e not in game.context)
        cost = sum(game.cost(e) for e in searches)
        if cost > game.budget:
            continue
        check = score_fixture_sufficiency(fixture, game.question, [*game.context, *searches])
        if check.status != "SUFFICIENT" or tuple(alt) not in {tuple(w) for w in check.witnesses}:
            continue  # a chain that does not link, a member the rules refuse, a condition unmet
        answer = _graded_answer(fixture, q.name, alt)
        if answer is not None:
            wins.append(Win(tuple(alt), searches, cost, answer))
    return sorted(wins, key=lambda w: w.cost)


def _graded_answer(
    fixture: SufficiencyFixture, question: str, witness: Sequence[str]
) -> dict[str, str] | None:
    """The answer a witness derives, when the key accepts every value (None otherwise).

    A value the witness's text holds without naming it is the key's first accepted one.
    """
    values = witness_values(fixture, question, witness)
    answer = {}
    for item in fixture.question(question).asks:
        d = values.get(item)
        accepted = fixture.accepted(question, item)
        if d is None or not accepted:
            return None
        if d.value is None:
            answer[item] = accepted[0]
        elif normalise_value(d.value) in {normalise_value(v) for v in accepted}:
            answer[item] = d.value
        else:
            return None
    return answer


def solve_sufficiency(
    fixture: SufficiencyFixture, scenario: str | None = None
) -> list[list[object]]:
    """The cheapest winning script for a scenario, or [] when none fits the budget."""
    wins = sufficiency_wins(fixture, scenario)
    return wins[0].script() if wins else []


def game_from_file(path: str | Path) -> SufficiencyGame:
    """A game over a teacher's own sufficiency file (refused in one line naming it).

    Raises:
        ClaimlabInputError: the file does not load or has no playable round.
    """
    from claimlab.core.errors import ClaimlabInputError
    from claimlab.io.sufficiency import load_sufficiency

    fixture = load_sufficiency(path)
    try:
        return SufficiencyGame(fixture)
    except ValueError as exc:
        raise ClaimlabInputError(str(exc), file=str(path)) from None
