"""A value nested as deep as the parser reads is shown, written as text and composed without
recursion, and each gives what the plain recursive definition gives on any value.

Invariants: ``describe`` is ``repr`` cut at 60 characters, ``repr_prefix`` a prefix of
``repr`` (whole, or longer than its limit), ``as_text`` is ``str``, and the reader's composing
walk gives the recursive walk's value or its error (the first name written twice, in file
order), on generated JSON values; and all of them take a value nested 1,020 levels within
Python's default recursion limit.
"""

import json
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.text import as_text, describe, nfc, repr_prefix
from claimlab.io import reader

keys = st.sampled_from(["a", "é", "e\u0301", "text", "b", "ı"])
atoms = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(alphabet="ae\u0301é\u0308ı'\"\\\nก", max_size=4),
)
values = st.recursive(
    atoms,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=30,
)


def recursive_walk(value, as_written, file):
    """The composing walk, restated plainly (recursive)."""
    if isinstance(value, str):
        return nfc(value)
    if isinstance(value, list):
        return [recursive_walk(v, as_written, file) for v in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, v in value.items():
        name = nfc(key)
        if name in out:
            raise ClaimlabInputError(
                f"the name {name!r} is written twice (composed and decomposed): one spelling",
                file=file or None,
                field=name,
            )
        out[name] = v if key in as_written else recursive_walk(v, as_written, file)
    return out


def _outcome(walk, value, as_written):
    try:
        return ("read", json.dumps(walk(value, as_written, "f.json")))
    except ClaimlabInputError as exc:
        return ("refused", str(exc), exc.field)


@settings(max_examples=1500, deadline=None)
@given(values, st.sampled_from([frozenset(), frozenset({"text"}), frozenset({"a", "é"})]))
def test_the_composing_walk_is_the_recursive_walk(value, as_written):
    assert _outcome(reader._nfc_walk, value, as_written) == _outcome(
        recursive_walk, value, as_written
    )


@settings(max_examples=1500, deadline=None)
@given(values, st.sampled_from([0, 1, 5, 59, 60, 61, 1000]))
def test_shown_and_written_as_text_as_repr_and_str_do(value, limit):
    whole = repr(value)
    prefix = repr_prefix(value, limit)
    assert whole.startswith(prefix) and (prefix == whole or len(prefix) > limit)
    assert describe(value) == (whole if len(whole) <= 60 else whole[:57] + "...")
    assert as_text(value) == str(value)


def _nested(depth, leaf):
    value = leaf
    for n in range(depth):
        value = [value] if n % 2 else {"k": value}
    return value


@pytest.mark.parametrize("leaf", [1, "e\u0301", []])
def test_a_value_nested_1020_levels_within_the_default_recursion_limit(leaf):
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        value = _nested(1020, leaf)
        assert describe(value).startswith("[{'k': [{'k': [")
        assert len(as_text(value)) > 4000
        walked = reader._nfc_walk(value, frozenset(), "f.json")
        for n in reversed(range(1020)):
            walked = walked[0] if n % 2 else walked["k"]
        assert walked == (nfc(leaf) if isinstance(leaf, str) else leaf)
    finally:
        sys.setrecursionlimit(limit)


def test_a_long_list_is_shown_at_the_cost_of_what_is_shown():
    """Only the characters shown are built: a million items give the 60 characters."""
    shown = describe(list(range(1_000_000)))
    assert shown == repr(list(range(30)))[:57] + "..."
