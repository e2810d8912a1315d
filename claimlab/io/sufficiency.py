"""The ``claimlab/sufficiency@1`` format: evidence records, rules, questions, scenarios, answer key.

Version 3 adds, all optional (files without them read as before): an evidence item's
``conditions`` (what must hold for it to apply, such as "only on Saturdays"), a question's
``circumstances`` (what holds for the asker: a condition is met when they name it) and
``answerable`` (false: no context is ever sufficient), and ``rules.single_valued``, the
relations that take one object per subject (two approved items giving one subject different
objects of such a relation are a conflict). Version 4 adds a question's
``alternatives_complete`` (false: the listed alternatives may not be every set of texts that
answers it, so a context completing none of them is UNKNOWN, not INSUFFICIENT).

Optionally also the game's rules (``game``: budget, search and copy costs, what may be copied,
which scenarios the game offers), a ``note`` about the file and ``exercises``.

A question names what its answer must name (``asks``) and its alternative evidence chains;
scenarios are walk-through steps (a question, a context, a simulated system's answer); the
answer key gives each asked item's accepted values. Checked when loaded: unique ids, known
ids everywhere, no empty alternative or group, no chain that comes back to a member, numbers
finite and in range.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal

import msgspec

from claimlab.core.errors import FixtureError
from claimlab.io.declared import described, read_declared
from claimlab.io.lesson import Exercise, read_exercises
from claimlab.io.reader import Record, bulk_load, check_unique, describe, read_json

SUFFICIENCY_FORMAT = "claimlab/sufficiency@1"


@dataclass(frozen=True)
class EvidenceItem:
    """An evidence record: a relation ``subject -relation-> object`` with its metadata."""

    id: Annotated[str, msgspec.Meta(min_length=1)]
    text: str
    subject: str
    relation: str
    object: str
    status: str
    current: bool
    topic: str
    inputs: tuple[str, ...] = ()
    document: str = ""  # the retrieval unit it belongs to (a paragraph); default: itself
    # what must hold for it to apply ("only on Saturdays"); each holds some text
    conditions: tuple[str, ...] = field(default=(), metadata={"texts": True})

    @property
    def takes(self) -> tuple[str, ...]:
        """What a member before it must lead to: its ``inputs``, else its subject."""
        return self.inputs or (self.subject,)


@dataclass(frozen=True)
class Question:
    """A question with what its answer must name and its alternative evidence chains."""

    name: str
    text: str
    asks: tuple[str, ...]
    topic: str
    alternatives: tuple[tuple[str, ...], ...]
    links: tuple[tuple[tuple[str, str], ...] | None, ...] = ()  # per alternative; None: in order
    kind: str = ""
    subquestions: tuple[str, ...] = ()
    circumstances: tuple[str, ...] = ()  # what holds for the asker (meets evidence conditions)
    answerable: bool = True  # False: no context is sufficient (MuSiQue's unanswerable twins)
    alternatives_complete: bool = True  # False: other sets of texts might answer it too

    def pairs(self, i: int) -> tuple[tuple[str, str], ...] | None:
        """The links alternative ``i`` must hold: explicit pairs, or None for its order."""
        return self.links[i] if self.links else None

    def chain(self, i: int) -> tuple[str, ...]:
        """Alternative ``i``'s members in the order its links run: start first, value last.

        Without explicit links, the order listed (that order is the chain). With them, each
        member after every member linking into it, whatever order the file lists them in;
        members the links leave unordered keep their listed order, and any a longer cycle
        leaves unplaced follow in that order.
        """
        alt, pairs = self.alternatives[i], self.pairs(i)
        if not pairs:
            return alt
        at = {m: k for k, m in enumerate(alt)}
        waiting = dict.fromkeys(alt, 0)
        for _, b in pairs:
            waiting[b] += 1
        ready = [k for k, m in enumerate(alt) if not waiting[m]]
        heapq.heapify(ready)
        placed: list[str] = []
        while ready:  # Kahn's order, ties broken by the listed position
            m = alt[heapq.heappop(ready)]
            placed.append(m)
            for a, b in pairs:
                if a == m:
                    waiting[b] -= 1
                    if not waiting[b]:
                        heapq.heappush(ready, at[b])
        done = set(placed)  # a cycle the loader let through: its members follow as listed
        return (*placed, *(m for m in alt if m not in done))


@dataclass(frozen=True)
class Rules:
    """Scope/metadata rules every witness member must pass (the file's ``rules``, declared)."""

    required_status: str
    require_current: bool
    # relations with one object per subject ("lasts"); each holds some text
    single_valued: tuple[str, ...] = field(default=(), metadata={"texts": True})


@dataclass(frozen=True)
class Scenario:
    """A named walk-through step: a question, a context, and a simulated system's answer.

    ``system_answer`` maps each asked item the simulated system named to its value (empty when
    it abstained); ``answered`` says whether it answered at all.
    """

    name: str
    question: str
    context: tuple[str, ...]
    ignore_metadata: bool
    note: str
    system_answer: Mapping[str, str] | None
    system_confidence: float | None

    @property
    def answered(self) -> bool:
        """Whether the simulated system gave an answer (it may still leave an item out)."""
        return self.system_answer is not None


DEFAULT_BUDGET = 6
DEFAULT_COST = 1
Units = Annotated[int, msgspec.Meta(ge=0, le=1_000_000)]  # a budget or a cost: whole units
# search_cost: {"default": units, "<evidence id>": units} (checked by the reader: _game)
Costs = Annotated[
    Any,
    described(
        {
            "type": "object",
            "properties": {  # null: left out, the default cost
                "default": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]}
            },
            "additionalProperties": {"type": "integer", "minimum": 0},
        }
    ),
]


@dataclass(frozen=True, kw_only=True)
class Game:
    """The file's ``game`` as it writes it (read into :class:`SufficiencyRules`).

    ``copyable`` and ``scenarios`` name evidence ids and scenarios of the file, and the keys of
    ``search_cost`` are ``default`` or evidence ids: the reader checks them against the file.
    """

    budget: Units = DEFAULT_BUDGET
    search_cost: Costs | None = None
    copy_cost: Units = DEFAULT_COST
    copyable: tuple[str, ...] = ()
    scenarios: tuple[str, ...] = ()


@dataclass(frozen=True)
class SufficiencyRules:
    """The sufficiency game as the file describes it (``game``), or the defaults.

    Without a ``game`` section: a budget of 6, every search costs 1, nothing can be copied, and
    the game offers every scenario of the file (one per question, starting empty, when it has
    none).
    """

    budget: int = DEFAULT_BUDGET
    default_cost: int = DEFAULT_COST
    search_cost: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    copy_cost: int = DEFAULT_COST
    copyable: tuple[str, ...] = ()
    scenarios: tuple[str, ...] = ()  # empty: every scenario of the file

    def cost(self, eid: str) -> int:
        """What searching ``eid`` costs."""
        return self.search_cost.get(eid, self.default_cost)


@dataclass(frozen=True)
class SufficiencyFixture:
    """A loaded, checked ``claimlab/sufficiency@1`` file."""

    source: str
    evidence: tuple[EvidenceItem, ...]
    rules: Rules
    questions: Mapping[str, Question] = field(default_factory=lambda: MappingProxyType({}))
    scenarios: Mapping[str, Scenario] = field(default_factory=lambda: MappingProxyType({}))
    answer_key: Mapping[str, Mapping[str, object]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    game: SufficiencyRules = field(default_factory=SufficiencyRules)
    note: str = ""
    exercises: tuple[Exercise, ...] = ()
    language: str = ""  # the file's ``language`` (BCP 47, e.g. "tr"); "" when not stated

    _by_id: Mapping[str, EvidenceItem] = field(init=False, repr=False, compare=False)
    _by_topic: Mapping[str, tuple[Question, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", MappingProxyType({e.id: e for e in self.evidence}))
        topics: dict[str, list[Question]] = {}
        for q in self.questions.values():
            topics.setdefault(q.topic, []).append(q)
        object.__setattr__(
            self, "_by_topic", MappingProxyType({t: tuple(qs) for t, qs in topics.items()})
        )

    def on_topic(self, topic: str) -> tuple[Question, ...]:
        """The questions about ``topic``, in file order."""
        return self._by_topic.get(topic, ())

    def item(self, eid: str) -> EvidenceItem | None:
        """The evidence item with id ``eid``, or None."""
        return self._by_id.get(eid) if isinstance(eid, str) else None

    def accepted(self, question: str, item: str) -> tuple[str, ...]:
        """The values the answer key accepts for one asked item of a question (empty: no key)."""
        value = self.answer_key.get(question, {}).get(item)
        if value is None:
            return ()
        if isinstance(value, str):
            return (value,)
        return tuple(v for v in value if isinstance(v, str)) if isinstance(value, tuple) else ()

    def question(self, name: str) -> Question:
        """A question by name."""
        if name not in self.questions:
            raise FixtureError(
                f"unknown question (known: {', '.join(self.questions)})",
                file=self.source,
                field=f"questions.{name}",
            )
        return self.questions[name]


def _links(
    qr: Record, name: str, alts: list[tuple[str, ...]]
) -> tuple[tuple[tuple[str, str], ...] | None, ...]:
    """``links``: per alternative, null (its members link in order) or the pairs that must link.

    A pair ``[a, b]`` holds when ``a``'s object is what ``b`` takes (its ``inputs``, else its
    subject); an empty list is a set whose members need not link (supporting facts). A pair
    that comes back (a -> b -> a) is a cycle and is refused.
    """
    if qr.data.get("links") is None:
        return ()
    raw = qr.get("links", list)
    where = f"questions.{name}.links"
    if len(raw) != len(alts):
        raise qr.error(
            f"has {len(raw)} entries for {len(alts)} alternatives (one per alternative, or null)",
            field=where,
        )
    out: list[tuple[tuple[str, str], ...] | None] = []
    for i, (entry, alt) in enumerate(zip(raw, alts, strict=True)):
        if entry is None:
            out.append(None)
            continue
        if not isinstance(entry, list):
            raise qr.error(
                f"must be a list of [from, to] pairs or null, got {describe(entry)}",
                field=f"{where}[{i}]",
            )
        pairs: list[tuple[str, str]] = []
        for j, pair in enumerate(entry):
            at = f"{where}[{i}][{j}]"
            if not (
                isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)
            ):
                raise qr.error(
                    f"must be a pair of evidence ids [from, to], got {describe(pair)}", field=at
                )
            a, b = pair
            for x in (a, b):
                if x not in alt:
                    raise qr.error(f"{x!r} is not a member of alternative {i}", field=at)
            if a == b or (b, a) in pairs:
                raise qr.error(f"{a} and {b} would link both ways (a cycle)", field=at)
            pairs.append((a, b))
        out.append(tuple(pairs))
    return tuple(out)


@bulk_load()  # records without cycles: no collector pass over them
def load_sufficiency(path: str | Path) -> SufficiencyFixture:
    """Load and check a ``claimlab/sufficiency@1`` file.

    Checks: format; required fields and types; unique evidence ids; every alternative member
    exists; no empty alternative list and no empty group.

    Raises:
        FixtureError: naming the file, the record id and the field.
    """
    return read_sufficiency(read_json(path), source=str(path))


_IDS = {"type": "array", "items": {"type": "string"}}
Chain = Annotated[Any, described({**_IDS, "minItems": 1})]  # an alternative: evidence ids in order
Links = Annotated[Any, described({"anyOf": [{"type": "null"}, {"type": "array", "items": _IDS}]})]
SystemAnswer = Annotated[
    Any, described({"anyOf": [{"type": "null"}, {"type": "string"}, {"type": "object"}]})
]
AnswerKey = Annotated[
    Any,
    described(
        {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "additionalProperties": {"anyOf": [{"type": "string"}, {**_IDS, "minItems": 1}]},
            },
        }
    ),
]


@dataclass(frozen=True, kw_only=True)
class QuestionEntry:
    """A question as the file writes it (read into a :class:`Question`)."""

    alternatives: tuple[Chain, ...]
    asks: tuple[str, ...]
    text: str
    topic: str
    links: tuple[Links, ...] | None = None  # per alternative: null, or [from, to] pairs
    kind: str = ""
    subquestions: tuple[str, ...] = ()
    circumstances: tuple[str, ...] = field(default=(), metadata={"texts": True})
    answerable: bool = True
    alternatives_complete: bool = True


@dataclass(frozen=True, kw_only=True)
class SimulatedSystem:
    """A scenario's simulated system: its answer (null: it abstained) and its confidence."""

    answer: SystemAnswer = None
    confidence: Annotated[float, msgspec.Meta(ge=0, le=1)] | None = None


@dataclass(frozen=True, kw_only=True)
class ScenarioEntry:
    """A scenario as the file writes it (read into a :class:`Scenario`)."""

    question: str
    context: tuple[str, ...]
    ignore_metadata: bool = False
    note: str = ""
    simulated_system: SimulatedSystem | None = None


@dataclass(frozen=True, kw_only=True)
class SufficiencyDocument:
    """The ``claimlab/sufficiency@1`` file as declared: its types, bounds and defaults.

    The one declaration the reader converts, walks for the first problem
    (:mod:`claimlab.io.declared`) and derives the JSON Schema from. The rules between fields
    (known ids everywhere, chains that do not come back, links between members, the answer
    key's questions, the game's ids) are :func:`read_sufficiency`'s.
    """

    format: Literal["claimlab/sufficiency@1"]
    evidence: tuple[EvidenceItem, ...]
    rules: Rules
    questions: Mapping[str, QuestionEntry]
    answer_key: AnswerKey = None  # {question: {asked item: value or [accepted values]}}
    scenarios: Mapping[str, ScenarioEntry] = field(default_factory=dict)
    game: Game | None = None
    note: str = ""
    exercises: Any = None  # [{"question", "solution", ...}] (claimlab.io.lesson)
    language: str = ""


@bulk_load()  # records without cycles: no collector pass over them
def read_sufficiency(data: object, *, source: str) -> SufficiencyFixture:
    """Check a parsed ``claimlab/sufficiency@1`` document (see :func:`load_sufficiency`).

    The declaration (:class:`SufficiencyDocument`) gives the records, or the first field whose
    presence, type or bound it refuses; then the rules between fields, in file order.
    """
    top = Record(data, file=source, nulls_absent=True)
    fmt = top.get("format", str)
    if fmt != SUFFICIENCY_FORMAT:
        raise top.error(f"expected {SUFFICIENCY_FORMAT!r}, got {fmt!r}", field="format")
    doc = read_declared(SufficiencyDocument, data, file=source)
    check_unique([e.id for e in doc.evidence], file=source, field="evidence")
    ids = {e.id for e in doc.evidence}
    if not doc.questions:
        raise top.error("at least one question is required", field="questions")
    raw = top.data
    questions = {
        name: _question(_part(raw, "questions", name, source), entry, name, ids)
        for name, entry in doc.questions.items()
    }
    answer_key = _answer_key(top, source, questions)
    scenarios = {
        name: _scenario(_part(raw, "scenarios", name, source), entry, questions, ids)
        for name, entry in doc.scenarios.items()
    }
    return SufficiencyFixture(
        source,
        doc.evidence,
        doc.rules,
        MappingProxyType(questions),
        MappingProxyType(scenarios),
        MappingProxyType(answer_key),
        game=_game(top, doc.game, ids, scenarios),
        note=doc.note,
        exercises=read_exercises(top),
        language=doc.language,
    )


def _part(raw: dict[str, Any], where: str, name: str, source: str) -> Record:
    """The object ``raw[where][name]`` (a question, a scenario) named by ``name`` in errors.

    A field written null that is read with a default reads as left out (the declaration too).
    """
    part = raw[where][name]
    return Record(part, file=source, record=name, path=f"{where}.{name}", nulls_absent=True)


def _question(qr: Record, entry: QuestionEntry, name: str, ids: set[str]) -> Question:
    """One question: its alternatives (chains of known ids), what it asks, its links."""
    if not entry.alternatives and entry.answerable:
        raise qr.error("no alternative evidence set", field=f"questions.{name}.alternatives")
    alts = [
        _chain(qr, group, f"questions.{name}.alternatives[{i}]", ids)
        for i, group in enumerate(entry.alternatives)
    ]
    if not entry.asks:
        raise qr.error(
            'must name at least one item the question asks for (e.g. ["room"])',
            field=f"questions.{name}.asks",
        )
    return Question(
        name=name,
        text=entry.text,
        asks=entry.asks,
        topic=entry.topic,
        alternatives=tuple(alts),
        links=_links(qr, name, alts),
        kind=entry.kind,
        subquestions=entry.subquestions,
        circumstances=entry.circumstances,
        answerable=entry.answerable,
        alternatives_complete=entry.alternatives_complete,
    )


def _chain(qr: Record, group: object, where: str, ids: set[str]) -> tuple[str, ...]:
    """One alternative: a non-empty list of known evidence ids, none twice."""
    if not isinstance(group, list):
        raise qr.error(f"must be a list of evidence ids, got {describe(group)}", field=where)
    if not group:
        raise qr.error(
            "empty evidence group (it would count as complete with no evidence)", field=where
        )
    for j, eid in enumerate(group):
        if not isinstance(eid, str):
            raise qr.error(
                f"must be an evidence id (a string), got {describe(eid)}", field=f"{where}[{j}]"
            )
        if eid not in ids:
            raise qr.error(f"unknown evidence id {eid!r}", field=f"{where}[{j}]")
        if eid in group[:j]:
            raise qr.error(
                f"{eid} occurs twice in one chain (a cycle is not a chain of evidence)",
                field=f"{where}[{j}]",
            )
    return tuple(group)


def _answer_key(
    top: Record, source: str, questions: Mapping[str, Question]
) -> dict[str, Mapping[str, object]]:
    """Per question, each asked item's accepted value (or values)."""
    answer_key: dict[str, Mapping[str, object]] = {}
    for qname, key in top.mapping("answer_key", {}):
        if qname not in questions:
            raise top.error(f"unknown question {qname!r}", field=f"answer_key.{qname}")
        kr = Record(key, file=source, record=qname, path=f"answer_key.{qname}")
        values: dict[str, object] = {}
        for item, value in kr.data.items():
            accepted = [value] if isinstance(value, str) else value
            if (
                not isinstance(accepted, list)
                or not accepted
                or not all(isinstance(v, str) for v in accepted)
            ):
                raise kr.error(
                    f"must be a value or a non-empty list of accepted values, got {describe(value)}",
                    field=kr.field(item),
                )
            values[item] = value if isinstance(value, str) else tuple(value)
        answer_key[qname] = MappingProxyType(values)
    return answer_key


def _scenario(
    sr: Record, entry: ScenarioEntry, questions: Mapping[str, Question], ids: set[str]
) -> Scenario:
    """One scenario: a question of the file, a context of known ids, a simulated system."""
    name = str(sr.record)
    if entry.question not in questions:
        raise sr.error(f"unknown question {entry.question!r}", field=f"scenarios.{name}.question")
    for j, eid in enumerate(entry.context):
        if eid not in ids:
            raise sr.error(f"unknown evidence id {eid!r}", field=sr.field(f"context[{j}]"))
    system = entry.simulated_system
    question = questions[entry.question]
    return Scenario(
        name=name,
        question=entry.question,
        context=entry.context,
        ignore_metadata=entry.ignore_metadata,
        note=entry.note,
        system_answer=None
        if system is None
        else _system_answer(sr.sub("simulated_system"), question),
        system_confidence=None if system is None else system.confidence,
    )


def _game(
    top: Record, game: Game | None, ids: set[str], scenarios: Mapping[str, Scenario]
) -> SufficiencyRules:
    """``game``: budget, ``search_cost`` (``default`` and per id), ``copy_cost``, ``copyable``."""
    if game is None:
        return SufficiencyRules()
    g = top.sub("game")
    default_cost = DEFAULT_COST
    costs: dict[str, int] = {}
    for key, value in g.mapping("search_cost") if game.search_cost is not None else ():
        if key == "default" and value is None:  # null: left out, the default cost (1)
            continue
        where = g.field(f"search_cost.{key}")
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise g.error(
                f"must be a whole number of units (0 or more), got {describe(value)}", field=where
            )
        if key == "default":
            default_cost = value
        elif key not in ids:
            raise g.error(f"unknown evidence id {key!r}", field=where)
        else:
            costs[key] = value
    for j, eid in enumerate(game.copyable):
        if eid not in ids:
            raise g.error(f"unknown evidence id {eid!r}", field=g.field(f"copyable[{j}]"))
    for j, name in enumerate(game.scenarios):
        if name not in scenarios:
            known = ", ".join(scenarios) or "none: the file has no scenarios"
            raise g.error(
                f"unknown scenario {name!r} (known: {known})", field=g.field(f"scenarios[{j}]")
            )
    return SufficiencyRules(
        game.budget,
        default_cost,
        MappingProxyType(costs),
        game.copy_cost,
        game.copyable,
        game.scenarios,
    )


def _system_answer(system: Record, question: Question) -> Mapping[str, str] | None:
    """A simulated answer: null (abstained), a value (a question asking one item) or an object.

    A plain value answers the question's only asked item; for a question asking several items
    it must be an object naming each (an item left out counts as not answered).
    """
    value = system.get("answer", (str, dict, type(None)), None)
    if value is None:
        return None
    if isinstance(value, str):
        if len(question.asks) != 1:
            raise system.error(
                f"question {question.name!r} asks {', '.join(question.asks)}: give the answer "
                'as an object naming each, e.g. {"' + question.asks[0] + '": "..."}',
                field=system.field("answer"),
            )
        return MappingProxyType({question.asks[0]: value})
    out: dict[str, str] = {}
    for item, v in value.items():
        if item not in question.asks:
            raise system.error(
                f"question {question.name!r} does not ask for {item!r} (asks: "
                f"{', '.join(question.asks)})",
                field=system.field(f"answer.{item}"),
            )
        if not isinstance(v, str):
            raise system.error(
                f"must be a string, got {describe(v)}", field=system.field(f"answer.{item}")
            )
        out[item] = v
    return MappingProxyType(out)
