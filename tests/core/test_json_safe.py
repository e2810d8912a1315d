"""json_safe: the C1 controls, DEL and bidirectional overrides of a JSON text written as escapes.

Invariant: for any text, the result is the text with each of those characters replaced by its
``\\uXXXX`` escape and nothing else changed (an ASCII text without DEL is given back as it is,
unscanned); a JSON text parses to the same value after it.
"""

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.core.text import json_safe

UNSAFE = "\x7f\x80\x85\x9f\u200e\u200f\u202a\u202e\u2066\u2069\u2028\u2029"
texts = st.text(alphabet=st.sampled_from('a{}":, \n' + UNSAFE + "ıก가\x1b"), max_size=30)


def _escaped(text: str) -> str:
    unsafe = re.compile("[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
    return unsafe.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


@settings(max_examples=500, deadline=None)
@given(texts | st.text(max_size=30))
def test_json_safe_escapes_exactly_the_unsafe_characters(text):
    assert json_safe(text) == _escaped(text)


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | texts, lambda inner: st.lists(inner, max_size=3), max_leaves=6))
def test_a_json_text_parses_to_the_same_value_after_it(value):
    serialised = json.dumps(value, ensure_ascii=False)
    safe = json_safe(serialised)
    assert json.loads(safe) == value
    assert not re.search("[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]", safe)


def test_an_ascii_text_with_del_is_still_escaped():
    assert json_safe('{"a": "x\x7fy"}') == '{"a": "x\\u007fy"}'
