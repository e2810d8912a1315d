"""``to_jsonable``: the fast path by type gives what the general path gives, on generated values."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.core.ratio import Ratio
from claimlab.notebook.records import _general, to_jsonable


@dataclasses.dataclass(frozen=True)
class Plain:
    name: str
    parts: tuple[object, ...]


@dataclasses.dataclass(frozen=True)
class Own:
    value: int

    def to_dict(self) -> dict[str, object]:
        return {"own": self.value * 2}


class Word(str):
    """A str subclass (as an enum of verdicts would be): kept as it is."""


LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=5),
    st.builds(Word, st.text(max_size=3)),
    st.integers(0, 5).flatmap(lambda d: st.builds(Ratio, st.integers(0, d), st.just(d))),
    st.builds(Own, st.integers()),
    st.builds(Path, st.text("abc/", min_size=1, max_size=4)),
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(st.one_of(st.text(max_size=3), st.integers()), inner, max_size=4),
        st.dictionaries(st.text(max_size=3), inner, max_size=3).map(MappingProxyType),
        st.frozensets(st.integers(), max_size=4),
        st.builds(Plain, st.text(max_size=3), st.lists(inner, max_size=3).map(tuple)),
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_the_fast_path_equals_the_general_path(value):
    fast, general = to_jsonable(value), _general(value)
    assert fast == general
    assert repr(fast) == repr(general)  # the same types too (True stays True, 1.0 stays 1.0)


@pytest.mark.parametrize(
    "bad", [math.nan, math.inf, [1, {"x": -math.inf}], Plain("a", (math.nan,))]
)
def test_a_non_finite_float_is_refused_wherever_it_is(bad):
    with pytest.raises(ValueError, match="non-finite"):
        to_jsonable(bad)


def test_a_value_of_no_known_kind_is_refused_by_name():
    with pytest.raises(TypeError, match="object"):
        to_jsonable({"x": [object()]})


def _general_walk(value):
    """What to_jsonable gives for a value, walking a Plain as if it were any dict."""
    if isinstance(value, dict):
        return {str(k): _general_walk(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_general_walk(v) for v in value]
    return to_jsonable(value)


def _floats(value):
    if isinstance(value, dict):
        return [f for v in value.values() for f in _floats(v)]
    if isinstance(value, list):
        return [f for v in value for f in _floats(v)]
    return [value] if isinstance(value, float) else []


@pytest.mark.parametrize("name", ["atlas_nova.json", "ferry_lines.json", "atlas_nova_th.json"])
def test_a_plain_result_is_what_the_walk_gives_and_holds_no_float(name):
    """Plain is kept as it is: each audit row's JSON form must hold JSON values only (no float,
    so no NaN to refuse), exactly as the walk would give them, for every selection of a file."""
    from claimlab.core.frozen import Plain
    from claimlab.io.decomposition import load_decomposition
    from claimlab.io.locate import FIXTURES_DIR
    from claimlab.metrics.decomposition import score_decomposition

    fx = load_decomposition(FIXTURES_DIR / name)
    for mode in (*fx.modes, None):
        result = score_decomposition(fx, fx.mode(mode) if mode else fx.candidate_ids)
        for row in result.audit:
            plain = row.to_dict()
            assert type(plain) is Plain and to_jsonable(plain) is plain
            assert plain == _general_walk(plain) and _floats(plain) == []


def _plain_as_walked(plain):
    from claimlab.core.frozen import Plain

    assert type(plain) is Plain and to_jsonable(plain) is plain
    assert plain == _general_walk(plain) and _floats(plain) == []


def test_sufficiencys_plain_rows_are_what_the_walk_gives_and_hold_no_float(tmp_path):
    """Branches, their link errors and rejections (Plain) on every scenario of the shipped
    files and on a generated file whose stand-ins break links."""
    import sys

    from claimlab.io.locate import FIXTURES_DIR
    from claimlab.io.sufficiency import load_sufficiency
    from claimlab.metrics.sufficiency import score_fixture_sufficiency
    from tests.conftest import ROOT

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from scale_inputs import sufficiency_file

    path, context = sufficiency_file(tmp_path, 40)
    cases = [(load_sufficiency(path), "q", context.split(","))]
    for name in ("aurora.json", "library_loans_th.json", "parcel_routes.json"):
        fx = load_sufficiency(FIXTURES_DIR / name)
        cases += [(fx, sc.question, list(sc.context)) for sc in fx.scenarios.values()]
    seen = 0
    for fx, question, ctx in cases:
        r = score_fixture_sufficiency(fx, question, ctx)
        for b in r.branches:
            _plain_as_walked(b.to_dict())
            seen += len(b.link_errors)
        for rej in (*r.rejected, *r.unsafe_candidates):
            _plain_as_walked(rej.to_dict())
    assert seen > 0  # link errors were among them


def _finite_plain_as_walked(plain):
    """A Plain whose floats are quotients of counts: what the walk gives, every float finite."""
    from claimlab.core.frozen import Plain

    assert type(plain) is Plain and to_jsonable(plain) is plain
    assert plain == _general_walk(plain) and all(math.isfinite(f) for f in _floats(plain))
    assert repr(plain) == repr(_general_walk(plain))  # 1.0 stays 1.0, None stays None


_counts = st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)).map(sorted)


@settings(max_examples=300, deadline=None)
@given(_counts, _counts, st.sampled_from([(0, 0), (0, 1), (1, 1), (3, 7), (10**30, 10**30 + 1)]))
def test_a_ratio_and_an_f1_write_what_the_walk_of_their_fields_gives(p, r, edge):
    """Ratio.to_dict and an F1's are Plain: numerator, denominator, value (None at 0/0) and
    display, as built field by field; the float is never NaN or infinite."""
    from claimlab.core.ratio import Ratio
    from claimlab.metrics.rag import F1

    for n, d in (p, r, edge):
        ratio = Ratio(n, d)
        plain = ratio.to_dict()
        _finite_plain_as_walked(plain)
        assert list(plain.items()) == [
            ("numerator", n),
            ("denominator", d),
            ("value", ratio.value),
            ("display", ratio.display),
        ]
    _finite_plain_as_walked(F1(Ratio(*p), Ratio(*r)).to_dict())


def test_a_rag_reports_per_query_rows_are_what_the_walk_gives(tmp_path):
    """Every query of the shipped RAG files and a generated one: Plain, walked the same."""
    import sys

    from claimlab.io.locate import FIXTURES_DIR
    from claimlab.io.ragchecker import load_checking
    from claimlab.metrics.rag import score_rag
    from tests.conftest import ROOT

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from scale_inputs import rag_file

    files = [rag_file(tmp_path, 60), *sorted(FIXTURES_DIR.glob("rag_*.json"))]
    seen = 0
    for path in files:
        for noise in ("ragchecker", "paper"):
            for row in score_rag(load_checking(path), noise=noise).to_dict()["per_query"]:
                _finite_plain_as_walked(row)
                seen += 1
    assert seen > 60
