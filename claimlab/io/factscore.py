"""FActScore's human-labelled responses and the Factcheck-GPT benchmark's claim labels.

FActScore (Min et al., EMNLP 2023) releases one JSON object a line: ``topic``, ``cat`` and
``annotations`` (null when the model abstained; else sentences with ``text``, ``is-relevant``,
``model-atomic-facts`` and ``human-atomic-facts`` labelled S / NS / IR).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.vocab import FactLabel
from claimlab.io.reader import iter_jsonl, where

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


def load_labelled(path: str | Path) -> list[LabelledResponse]:
    """Load the released human-labelled format (one JSON object a line).

    Fields: ``topic``, ``cat``, ``annotations`` (null when the model did not respond; else a list
    of sentences with ``text``, ``is-relevant``, ``model-atomic-facts`` and
    ``human-atomic-facts`` labelled S / NS / IR).

    Raises:
        ClaimlabInputError: naming file, line (and topic) and field.
    """
    source = str(path)
    out = []
    for n, obj in iter_jsonl(path):
        if not isinstance(obj, dict):
            raise ClaimlabInputError("must be a JSON object", file=source, record=where(n))
        topic = obj.get("topic")
        rec = f"line {n} (topic {topic})" if isinstance(topic, str) else where(n)
        if not isinstance(topic, str):
            raise ClaimlabInputError(
                "missing or non-string", file=source, record=rec, field="topic"
            )
        if "annotations" not in obj:
            raise ClaimlabInputError(
                "missing required field", file=source, record=rec, field="annotations"
            )
        cat = obj.get("cat", [])
        if isinstance(cat, str):
            cat = [cat]
        if not isinstance(cat, list) or not all(isinstance(c, str) for c in cat):
            raise ClaimlabInputError(
                f"must be a list of strings, got {cat!r}", file=source, record=rec, field="cat"
            )
        ann = obj["annotations"]
        if ann is None:
            out.append(LabelledResponse(n, topic, tuple(cat), None))
            continue
        if not isinstance(ann, list):
            raise ClaimlabInputError(
                f"must be a list or null, got {type(ann).__name__}",
                file=source,
                record=rec,
                field="annotations",
            )
        sentences = []
        for i, s in enumerate(ann):
            f = f"annotations[{i}]"
            if not isinstance(s, dict):
                raise ClaimlabInputError("must be an object", file=source, record=rec, field=f)
            for key in ("text", "is-relevant"):
                if key not in s:
                    raise ClaimlabInputError(
                        "missing required field", file=source, record=rec, field=f"{f}.{key}"
                    )
            if not isinstance(s["is-relevant"], bool):
                raise ClaimlabInputError(
                    f"must be true or false, got {s['is-relevant']!r}",
                    file=source,
                    record=rec,
                    field=f"{f}.is-relevant",
                )
            model = s.get("model-atomic-facts") or []
            if not isinstance(model, list):
                raise ClaimlabInputError(
                    "must be a list", file=source, record=rec, field=f"{f}.model-atomic-facts"
                )
            model_texts = []
            for j, m in enumerate(model):
                if not isinstance(m, dict) or not isinstance(m.get("text"), str):
                    raise ClaimlabInputError(
                        "must be an object with a text",
                        file=source,
                        record=rec,
                        field=f"{f}.model-atomic-facts[{j}].text",
                    )
                model_texts.append(m["text"])
            human = s.get("human-atomic-facts")
            human_facts = None
            if human is not None:
                if not isinstance(human, list):
                    raise ClaimlabInputError(
                        "must be a list or null",
                        file=source,
                        record=rec,
                        field=f"{f}.human-atomic-facts",
                    )
                hf = []
                for j, h in enumerate(human):
                    hfield = f"{f}.human-atomic-facts[{j}]"
                    if not isinstance(h, dict) or "label" not in h:
                        raise ClaimlabInputError(
                            "missing required field",
                            file=source,
                            record=rec,
                            field=f"{hfield}.label",
                        )
                    if h["label"] not in FACT_LABELS:
                        raise ClaimlabInputError(
                            f"label must be one of S, NS, IR, got {h['label']!r}",
                            file=source,
                            record=rec,
                            field=f"{hfield}.label",
                        )
                    hf.append((str(h.get("text", "")), h["label"]))
                human_facts = tuple(hf)
            sentences.append(
                LabelledSentence(str(s["text"]), s["is-relevant"], tuple(model_texts), human_facts)
            )
        out.append(LabelledResponse(n, topic, tuple(cat), tuple(sentences)))
    return out


def load_factcheck_gpt(path: str | Path) -> list[list[object]]:
    """Claim labels per response from the Factcheck-GPT benchmark (True / False / "unknown").

    Raises:
        ClaimlabInputError: naming file, line and field for a label outside those three or a
            claims/labels length mismatch.
    """
    source = str(path)
    out = []
    for n, obj in iter_jsonl(path):
        if not isinstance(obj, dict) or not isinstance(obj.get("sentences"), dict):
            raise ClaimlabInputError(
                "missing or malformed", file=source, record=where(n), field="sentences"
            )
        labels: list[object] = []
        for key, s in obj["sentences"].items():
            claims = s.get("claims") or []
            labs = s.get("claims_factuality_label") or []
            if len(claims) != len(labs):
                raise ClaimlabInputError(
                    f"{len(claims)} claims but {len(labs)} labels",
                    file=source,
                    record=where(n),
                    field=f"sentences.{key}.claims_factuality_label",
                )
            for i, lab in enumerate(labs):
                if lab is True or lab is False:
                    labels.append(lab)
                elif isinstance(lab, str) and lab.lower() == "unknown":
                    labels.append("unknown")
                else:
                    raise ClaimlabInputError(
                        f"label must be true, false or 'unknown', got {lab!r}",
                        file=source,
                        record=where(n),
                        field=f"sentences.{key}.claims_factuality_label[{i}]",
                    )
        out.append(labels)
    return out


SUBJECT_FILES = ("InstructGPT", "ChatGPT", "PerplexityAI")


def load_subjects(
    data_dir: str | Path, names: Sequence[str] = SUBJECT_FILES
) -> dict[str, list[LabelledResponse]]:
    """Load ``<data_dir>/<name>.jsonl`` for each subject model that exists."""
    base = Path(data_dir)
    return {n: load_labelled(base / f"{n}.jsonl") for n in names if (base / f"{n}.jsonl").exists()}
