"""A RAGChecker checking output read by the fast path is the file read field by field.

Invariant: for any file, the queries read with the fast path of type tests are the ones the
field-by-field reading gives, or the same error (file, query, field and words) is raised.
"""

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.core.errors import ClaimlabInputError
from claimlab.io import ragchecker

# generated bad structures by the thousand: the hostile tier (make test, not make test-fast)
pytestmark = pytest.mark.hostile

odd = st.sampled_from(
    [None, True, 1, 1.5, "", "entailment", "Entailment ", [], {}, ["Entailment"], {"a": 1}]
)


def _maybe(good):
    """Mostly a good value (the fast path is taken), one time in sixteen anything."""
    return st.integers(0, 15).flatmap(lambda n: odd if n == 0 else good)


texts = st.text(alphabet="aı ก가\u0301", max_size=3)
labels = _maybe(st.sampled_from(["Entailment", "Neutral", "Contradiction"]))
claim = _maybe(st.one_of(texts, st.lists(_maybe(texts), max_size=3)))
chunk = _maybe(
    st.fixed_dictionaries(
        {"text": _maybe(texts)},
        optional={"doc_id": _maybe(st.one_of(texts, st.integers(0, 5)))},
    )
)


@st.composite
def query(draw):
    """A query whose label lists and matrices mostly fit its claims and chunks."""
    response = draw(st.lists(claim, max_size=3))
    answer = draw(st.lists(claim, max_size=3))
    chunks = draw(st.lists(chunk, max_size=3))

    def fit(n):  # usually n labels, sometimes one more or less
        return draw(st.sampled_from([*[n] * 14, n + 1, max(0, n - 1)]))

    def row():
        size = fit(len(chunks))
        return st.lists(labels, min_size=size, max_size=size)

    def matrix(rows):
        return [draw(_maybe(row())) for _ in range(fit(rows))]

    obj = {
        "query_id": draw(_maybe(st.sampled_from(["q1", 3, "qe\u0308"]))),
        "response_claims": response,
        "gt_answer_claims": answer,
        "retrieved_context": chunks,
        "answer2response": [draw(labels) for _ in range(fit(len(response)))],
        "response2answer": [draw(labels) for _ in range(fit(len(answer)))],
        "retrieved2response": matrix(len(response)),
        "retrieved2answer": matrix(len(answer)),
    }
    if draw(st.booleans()):
        obj["query"] = draw(_maybe(texts))
    if draw(st.booleans()):
        obj["metrics"] = draw(st.sampled_from([{"precision": 50}, {"overall": {"f1": 1.5}}, 3]))
    dropped = draw(st.sampled_from([*[None] * 16, *obj]))
    if dropped is not None:
        del obj[dropped]
    return obj


def _outcome(path):
    try:
        return ("read", ragchecker.load_checking(path))
    except ClaimlabInputError as exc:
        return ("refused", str(exc), exc.field)


def _both_ways(results):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "checking.json"
        path.write_text(json.dumps({"results": results}), encoding="utf-8")
        quick = _outcome(path)
        with pytest.MonkeyPatch.context() as m:
            m.setattr(ragchecker, "_query_fast", lambda _obj: None)
            walked = _outcome(path)
    return quick, walked


@settings(max_examples=800, deadline=None)
@given(st.lists(_maybe(query()), max_size=3))
def test_a_checking_output_read_fast_is_read_field_by_field(results):
    quick, walked = _both_ways(results)
    assert quick == walked


def test_the_generated_files_are_read_and_refused_both():
    """The strategy reaches both outcomes, so the test above compares more than errors."""
    seen = set()

    @settings(max_examples=300, deadline=None)
    @given(st.lists(query(), min_size=1, max_size=2))
    def look(results):
        seen.add(_both_ways(results)[0][0])

    look()
    assert seen == {"read", "refused"}
