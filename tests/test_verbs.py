"""One verb per meaning: ``load_`` reads files (a path in), ``read_`` checks what was parsed.

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
