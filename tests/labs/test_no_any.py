"""Every ``Any`` in a lab function's signature is one quality/any_allowed.txt lists, with a reason.

A signature's annotations (each parameter, ``*args``, ``**kwargs`` and the return) are read
with :mod:`ast`; one naming ``Any`` (``Any``, ``typing.Any``, ``dict[str, Any]``, or the same
in a string annotation) is identified by its file, the function's qualified name
(``Class.method``, ``outer.inner``) and the parameter's name or ``return``, never a line.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LABS = ROOT / "claimlab" / "labs"
ALLOWED = ROOT / "quality" / "any_allowed.txt"


def _names_any(node: ast.AST | None) -> bool:
    if node is None:
        return False
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id == "Any":
            return True
        if isinstance(n, ast.Attribute) and n.attr == "Any":
            return True
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            try:
                inner = ast.parse(n.value, mode="eval")
            except SyntaxError:
                continue
            if _names_any(inner):
                return True
    return False


def _signature_anys(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, str]]:
    """(qualified function name, parameter name or ``return``) of each annotation naming Any."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            name = prefix + node.name
            a = node.args
            params = [*a.posonlyargs, *a.args, *a.kwonlyargs]
            params += [p for p in (a.vararg, a.kwarg) if p is not None]
            for p in params:
                if _names_any(p.annotation):
                    yield name, p.arg
            if _names_any(node.returns):
                yield name, "return"
            yield from _signature_anys(node, name + ".")
        elif isinstance(node, ast.ClassDef):
            yield from _signature_anys(node, prefix + node.name + ".")
        else:
            yield from _signature_anys(node, prefix)


def found() -> set[str]:
    out = set()
    for path in sorted(LABS.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        out |= {f"{rel}:{func}:{param}" for func, param in _signature_anys(tree)}
    return out


def allowed() -> dict[str, str]:
    entries: dict[str, str] = {}
    for n, line in enumerate(ALLOWED.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        key, sep, reason = line.partition(" — ")
        assert sep and reason.strip(), f"any_allowed.txt:{n}: no reason after ' — ': {line!r}"
        assert key.count(":") == 2, f"any_allowed.txt:{n}: not path:function:parameter: {key!r}"
        assert key not in entries, f"any_allowed.txt:{n}: listed twice: {key}"
        entries[key.strip()] = reason.strip()
    return entries


def test_every_any_in_a_lab_signature_is_listed_with_a_reason():
    listed = set(allowed())
    present = found()
    new = sorted(present - listed)
    gone = sorted(listed - present)
    assert not new, "Any in a lab signature: type it, or list it with a reason:\n" + "\n".join(new)
    assert not gone, "listed but no longer in the code: remove from any_allowed.txt:\n" + "\n".join(
        gone
    )


def test_the_scan_sees_every_kind_of_annotation():
    code = """
from typing import Any
import typing
def f(a: Any, *args: int, b: "dict[str, Any]" = 0, **kw: typing.Any) -> list[Any]:
    def inner(x: object) -> Any: ...
class C:
    def m(self, y: int) -> "Any": ...
    def n(self, z: str) -> None: ...
"""
    assert set(_signature_anys(ast.parse(code))) == {
        ("f", "a"),
        ("f", "b"),
        ("f", "kw"),
        ("f", "return"),
        ("f.inner", "return"),
        ("C.m", "return"),
    }
