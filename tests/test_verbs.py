"""One verb per meaning: ``load_`` reads files (a path in), ``read_`` checks what was parsed,
``score_`` computes a metric's figures, ``find_`` looks something up.

Rule: every public function of the package named ``load_...`` takes a file (its first parameter
is a path, a list of paths or a file already scanned), and every one named ``read_...`` takes
parsed data, never a path; the reader's primitives that return a file's raw content keep
Python's own verb (``Path.read_bytes``, ``read_text``), listed here with that reason. A new
function that breaks the rule fails here.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import claimlab

# a file's raw content, as Python's own Path.read_bytes and Path.read_text name it
RAW_CONTENT = {
    "claimlab.io.reader.read_bytes",
    "claimlab.io.reader.read_text",
    "claimlab.io.reader.read_json",
}
FILE_WORDS = ("Path", "AnnotatedFile")  # a path, paths, or a file scanned already


def public_functions():
    """(qualified name, function) of every public function defined in a claimlab module."""
    for info in pkgutil.walk_packages(claimlab.__path__, "claimlab."):
        module = importlib.import_module(info.name)
        for name, f in vars(module).items():
            if name.startswith("_") or not inspect.isfunction(f):
                continue
            if getattr(f, "__module__", None) == info.name:
                yield f"{info.name}.{name}", f


def first_parameter(f):
    params = list(inspect.signature(inspect.unwrap(f)).parameters.values())
    return params[0] if params else None


def takes_a_file(f) -> bool:
    p = first_parameter(f)
    return p is not None and any(w in str(p.annotation) for w in FILE_WORDS)


def test_every_load_takes_a_file_and_every_read_takes_parsed_data():
    loads, reads = [], []
    for qualified, f in public_functions():
        name = qualified.rsplit(".", 1)[1]
        if name.startswith("load_") and not takes_a_file(f):
            loads.append(qualified)
        if name.startswith("read_") and qualified not in RAW_CONTENT and takes_a_file(f):
            reads.append(qualified)
    assert loads == [], "named load_ but not given a file"
    assert reads == [], "named read_ but given a file: call it load_"


def test_the_rule_sees_both_kinds():
    found = dict(public_functions())
    assert takes_a_file(found["claimlab.io.decomposition.load_decomposition"])
    assert not takes_a_file(found["claimlab.io.decomposition.read_decomposition"])
    assert all(q in found for q in RAW_CONTENT)


def returns_a_report(f) -> bool:
    """Whether ``f`` returns a metric's figures: a dataclass with its JSON form (``to_dict``)."""
    import dataclasses
    import typing

    found = typing.get_type_hints(inspect.unwrap(f)).get("return")
    return isinstance(found, type) and dataclasses.is_dataclass(found) and hasattr(found, "to_dict")


SCORING_FLOORS = ("claimlab.metrics.", "claimlab.checkers.")
# verbs the metrics once used for "compute a metric" besides score_
OTHER_SCORING_VERBS = ("validate_", "meta_evaluate", "compute_", "evaluate_", "measure_")


def test_find_looks_something_up_and_score_computes_a_metric():
    """Rule: in the metrics and checkers floors a ``find_`` returns what it found (items, a
    place, whether), never a metric's report; a ``score_`` returns one (or its figures per
    item); no other verb means "compute a metric"."""
    finds, scores, others = [], [], []
    for qualified, f in public_functions():
        if not qualified.startswith(SCORING_FLOORS):
            continue
        name = qualified.rsplit(".", 1)[1]
        if name.startswith("find_") and returns_a_report(f):
            finds.append(qualified)
        if name.startswith(OTHER_SCORING_VERBS):
            others.append(qualified)
        if name.startswith("score_"):
            scores.append(qualified)
    assert finds == [], "named find_ but returns a metric's report: call it score_"
    assert others == [], "a metric is computed by score_"
    assert "claimlab.metrics.decomposition.score_decomposition" in scores
    assert "claimlab.metrics.citations.score_citations" in scores
