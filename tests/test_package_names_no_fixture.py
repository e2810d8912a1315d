"""The user's file decides: nothing in the package names a shipped fixture's ids or answers.

Every id, question, scenario, mode, puzzle name and answer of the shipped teaching fixtures is
read from the files themselves and searched for, as a whole word, in every module of the
package (docstrings and doctests included). Names that are ordinary words of the vocabulary
(``baseline``, ``entity``, ``room``) are left out; ids with a digit, snake_case names and the
answers and entities are all checked.
"""

from __future__ import annotations

import json
import re

from tests.conftest import FIXTURES, ROOT

UNICODE_TERMS = re.compile(r"\bC[01] controls?\b")  # Unicode's control-character sets


def shipped_names() -> set[str]:
    names: set[str] = set()
    for path in FIXTURES.glob("*.json"):
        d = json.loads(path.read_text(encoding="utf-8"))
        for key in ("units", "references", "candidates", "evidence", "chunks"):
            names |= {x["id"] for x in d.get(key, [])}
        names |= set(d.get("modes", {})) | set(d.get("questions", {})) | set(d.get("scenarios", {}))
        names |= set(d.get("game", {}).get("puzzles", {})) | set(d.get("answers", {}))
        for key in d.get("answer_key", {}).values():
            for v in key.values():
                names |= {v} if isinstance(v, str) else set(v)
        names |= {c["entity"] for c in d.get("candidates", [])}
        names |= {e["object"] for e in d.get("evidence", [])}
        names |= {str(r["query_id"]) for r in d.get("results", [])}
    return {n for n in names if re.search(r"\d", n) or "_" in n or " " in n or not n.isascii()}


def test_the_package_names_no_shipped_id_question_or_answer():
    names = shipped_names()
    assert {"C1", "E5", "U3", "s1", "k6", "missing_link", "Room A3", "Locker Bank C"} <= names
    pattern = re.compile(
        r"(?<![\w-])("
        + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        + r")(?![\w-])"
    )
    found = []
    for path in sorted((ROOT / "claimlab").rglob("*.py")):
        text = UNICODE_TERMS.sub("", path.read_text(encoding="utf-8"))
        for n, line in enumerate(text.splitlines(), 1):
            for m in pattern.finditer(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {m.group(1)!r} in {line.strip()[:80]}")
    assert not found, "\n".join(found[:20])
