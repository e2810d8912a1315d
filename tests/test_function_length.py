"""Small functions: none in the package runs over 60 lines (a long one is steps waiting for names)."""

from __future__ import annotations

import ast

from tests.conftest import ROOT

LIMIT = 60


def long_functions(root):
    """``path:name -> lines`` of every function over the limit (decorators and docstring in)."""
    found = {}
    for path in sorted((root / "claimlab").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                lines = node.end_lineno - first + 1
                if lines > LIMIT:
                    key = f"{path.relative_to(root).as_posix()}:{node.name}"
                    found[key] = max(found.get(key, 0), lines)
    return found


def test_no_function_in_the_package_runs_over_60_lines():
    assert long_functions(ROOT) == {}


def test_a_long_function_is_found(tmp_path):
    pkg = tmp_path / "claimlab"
    pkg.mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(LIMIT))
    (pkg / "m.py").write_text(f"@staticmethod\ndef f():\n{body}", encoding="utf-8")
    assert long_functions(tmp_path) == {"claimlab/m.py:f": LIMIT + 2}
    (pkg / "m.py").write_text(f"def f():\n{body[: -len('    x59 = 59') - 1]}", encoding="utf-8")
    assert long_functions(tmp_path) == {}
