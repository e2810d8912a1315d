"""FActScore's human-labelled responses and the Factcheck-GPT benchmark's claim labels.

FActScore (Min et al., EMNLP 2023) releases one JSON object a line: ``topic``, ``cat`` and
``annotations`` (null when the model abstained; else sentences with ``text``, ``is-relevant``,
``model-atomic-facts`` and ``human-atomic-facts`` labelled S / NS / IR).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.text import as_text
from claimlab.core.vocab import FactLabel
from claimlab.io.reader import Record, bulk_load, describe, iter_jsonl, where

FACT_LABELS = tuple(label.value for label in FactLabel)


@dataclass(frozen=True)
class LabelledSentence:
    """A sentence of a response with its relevance flag, model facts and human-labelled facts."""

    text: str
    relevant: bool
    model_facts: tuple[str, ...]
    human_facts: tuple[tuple[str, str], ...] | None


@dataclass(frozen=True)
class LabelledResponse:
    """One prompt's response: None sentences when the model abstained."""

    line: int
    topic: str
    category: tuple[str, ...]
    sentences: tuple[LabelledSentence, ...] | None

    @property
    def responded(self) -> bool:
        """Whether the model answered."""
        return self.sentences is not None


def _line(obj: object, source: str, n: int, name_field: str | None = None) -> Record:
    """A line as a Record, named by its line number (and ``name_field``'s text when it has one)."""
    if not isinstance(obj, dict):
        raise ClaimlabInputError("must be a JSON object", file=source, record=where(n))
    name = obj.get(name_field) if name_field else None
    label = f"line {n} ({name_field} {name})" if isinstance(name, str) else where(n)
    return Record(obj, file=source, record=label, error=ClaimlabInputError)


def _sentence(rec: Record) -> LabelledSentence:
    """One annotated sentence: text, relevance, the model's facts and the human-labelled facts."""
    text = rec.get("text", (str, int, float))
    relevant = rec.get("is-relevant", bool)
    listed = rec.get("model-atomic-facts", (list, type(None)), None, want="a list of facts or null")
    model_texts = [
        fact.get("text", str) for _, fact in (rec.items("model-atomic-facts") if listed else ())
    ]
    human = rec.get("human-atomic-facts", (list, type(None)), None, want="a list or null")
    human_facts = None
    if human is not None:  # null or absent: the sentence was not labelled
        facts = []
        for _, h in rec.items("human-atomic-facts"):
            label = h.get("label", str, want="one of S, NS, IR")
            if label not in FACT_LABELS:
                raise h.error(
                    f"label must be one of S, NS, IR, got {label!r}", field=h.field("label")
                )
            facts.append((as_text(h.data.get("text", "")), label))
        human_facts = tuple(facts)
    return LabelledSentence(as_text(text), relevant, tuple(model_texts), human_facts)


@bulk_load()  # records without cycles: no collector pass over them
def load_labelled(path: str | Path) -> list[LabelledResponse]:
    """Load the released human-labelled format (one JSON object a line).

    Fields: ``topic``, ``cat`` (a string or a list of strings), ``annotations`` (null when the
    model did not respond; else a list of sentences with ``text``, ``is-relevant``,
    ``model-atomic-facts`` and ``human-atomic-facts`` labelled S / NS / IR).

    Raises:
        ClaimlabInputError: naming file, line (and topic) and field.
    """
    source = str(path)
    out = []
    for n, obj in iter_jsonl(path):
        rec = _line(obj, source, n, "topic")
        topic = rec.get("topic", str)
        ann = rec.get("annotations", (list, type(None)), want="a list or null")
        cat = rec.data.get("cat", [])
        category = (cat,) if isinstance(cat, str) else rec.str_list("cat", ())
        if ann is None:
            out.append(LabelledResponse(n, topic, category, None))
            continue
        sentences = tuple(_sentence(s) for _, s in rec.items("annotations"))
        out.append(LabelledResponse(n, topic, category, sentences))
    return out


def _factcheck_responses(
    path: str | Path,
) -> Iterator[tuple[int, Record, list[tuple[Record, list[object]]]]]:
    """Each Factcheck-GPT line: (line, record, [(sentence record, its claim labels)]).

    Raises:
        ClaimlabInputError: naming file, line and field for a label outside true, false and
            "unknown", or a claims/labels length mismatch.
    """
    source = str(path)
    for n, obj in iter_jsonl(path):
        rec = _line(obj, source, n)
        sentences = []
        for key, value in rec.mapping("sentences"):
            sentence = Record(
                value,
                file=source,
                record=rec.record,
                path=rec.field(f"sentences.{key}"),
                error=ClaimlabInputError,
            )
            claims = sentence.get("claims", (list, type(None)), None) or []
            labs = sentence.get("claims_factuality_label", (list, type(None)), None) or []
            field = sentence.field("claims_factuality_label")
            if len(claims) != len(labs):
                raise sentence.error(f"{len(claims)} claims but {len(labs)} labels", field=field)
            labels: list[object] = []
            for i, lab in enumerate(labs):
                if lab is True or lab is False:
                    labels.append(lab)
                elif isinstance(lab, str) and lab.lower() == "unknown":
                    labels.append("unknown")
                else:
                    raise sentence.error(
                        f"label must be true, false or 'unknown', got {describe(lab)}",
                        field=f"{field}[{i}]",
                    )
            sentences.append((sentence, labels))
        yield n, rec, sentences


@bulk_load()  # records without cycles: no collector pass over them
def load_factcheck_gpt(path: str | Path) -> list[list[object]]:
    """Claim labels per response from the Factcheck-GPT benchmark (True / False / "unknown").

    Raises:
        ClaimlabInputError: naming file, line and field for a label outside those three or a
            claims/labels length mismatch.
    """
    return [
        [lab for _, labels in sentences for lab in labels]
        for _, _, sentences in _factcheck_responses(path)
    ]


@dataclass(frozen=True)
class RevisedResponse:
    """A Factcheck-GPT response, its sentences with their claim labels, and its revision."""

    line: int
    response: str
    revised: str
    sentences: tuple[tuple[str, tuple[object, ...]], ...]  # (sentence text, claim labels)


@bulk_load()  # records without cycles: no collector pass over them
def load_factcheck_revisions(path: str | Path) -> list[RevisedResponse]:
    """The Factcheck-GPT responses with their ``revised_response`` (a real revision).

    Raises:
        ClaimlabInputError: naming file, line and field.
    """
    return [
        RevisedResponse(
            n,
            rec.get("response", str),
            rec.get("revised_response", str, ""),
            tuple((s.get("text", str), tuple(labels)) for s, labels in sentences),
        )
        for n, rec, sentences in _factcheck_responses(path)
    ]


SUBJECT_FILES = ("InstructGPT", "ChatGPT", "PerplexityAI")


def load_subjects(
    data_dir: str | Path, names: Sequence[str] = SUBJECT_FILES
) -> dict[str, list[LabelledResponse]]:
    """Load ``<data_dir>/<name>.jsonl`` for each subject model that exists."""
    base = Path(data_dir)
    return {n: load_labelled(base / f"{n}.jsonl") for n in names if (base / f"{n}.jsonl").exists()}


@bulk_load()  # records without cycles: no collector pass over them
def load_passages(path: str | Path) -> dict[str, list[str]]:
    """Knowledge passages by topic: JSON Lines of ``{"topic": TEXT, "text": TEXT}``.

    Raises:
        ClaimlabInputError: naming file, line and field.
    """
    source = str(path)
    out: dict[str, list[str]] = {}
    for n, obj in iter_jsonl(path):
        rec = _line(obj, source, n, "topic")
        out.setdefault(rec.get("topic", str), []).append(rec.get("text", str))
    if not out:
        raise ClaimlabInputError("no passage in the file", file=source)
    return out


def relabelled(
    responses: Sequence[LabelledResponse], change: Callable[[str, str, str], str]
) -> list[LabelledResponse]:
    """The responses with every labelled fact's label replaced by ``change(topic, fact, label)``.

    Abstentions and unlabelled sentences stay as they are; the order of everything is kept.
    """
    out = []
    for r in responses:
        if r.sentences is None:
            out.append(r)
            continue
        sentences = []
        for s in r.sentences:
            if s.human_facts is not None:
                facts = tuple((f, change(r.topic, f, label)) for f, label in s.human_facts)
                s = LabelledSentence(s.text, s.relevant, s.model_facts, facts)
            sentences.append(s)
        out.append(LabelledResponse(r.line, r.topic, r.category, tuple(sentences)))
    return out
