"""Test cases cut from every complete witness of a sufficiency file (``claimlab sufficiency-cases``).

For each question and each alternative that is a complete witness on its own:

* ``cut``: each premise removed. Must be INSUFFICIENT with exactly that premise missing from
  that alternative (a cut that another alternative survives is not made).
* ``look-alike``: each premise swapped for a copy with the same name (subject, inputs, text)
  but another object, which is in no alternative: rejected as *not a premise*, INSUFFICIENT,
  the premise missing. Similar words are not a relation.
* ``look-alike-chain``: where the premise leads to another member, a new question whose
  alternative holds the look-alike instead: the chain breaks at the look-alike (a link error),
  INSUFFICIENT.
* ``stale``: each premise swapped for a copy that is no longer CURRENT: rejected for its
  metadata, INSUFFICIENT, the premise missing.
* ``duplicate``: the first premise given twice: still SUFFICIENT, one more raw item, the same
  unique count, the copy rejected as a duplicate.

The cases file (``claimlab/sufficiency-cases@1``) holds the source file with the copies and
questions added (``fixture``) and the cases with what each must give (``expect``);
:func:`check_cases` runs them, so the file is a regression test.
"""

from __future__ import annotations

import copy
from typing import Any

from claimlab.io.sufficiency import read_sufficiency
from claimlab.metrics.sufficiency import find_fixture_sufficiency

CASES_FORMAT = "claimlab/sufficiency-cases@1"
KINDS = ("cut", "look-alike", "look-alike-chain", "stale", "duplicate")


def _successors(q: Any, i: int, member: str) -> list[str]:
    alt = q.alternatives[i]
    pairs = q.pairs(i)
    if pairs is None:
        k = alt.index(member)
        return [alt[k + 1]] if k + 1 < len(alt) else []
    return [b for a, b in pairs if a == member]


def build_cases(doc: dict[str, Any], *, source: str = "sufficiency file") -> dict[str, Any]:
    """The cases of every complete witness of a sufficiency document (see the module).

    Raises:
        FixtureError: the document is not a valid sufficiency file.
    """
    fixture = read_sufficiency(doc, source=source)
    out = copy.deepcopy(doc)
    by_id = {e["id"]: e for e in out["evidence"]}
    added_ids = set(by_id)
    cases: list[dict[str, Any]] = []

    def add_copy(eid: str, suffix: str, **changes: Any) -> str:
        new = f"{eid}~{suffix}"
        k = 2
        while new in added_ids:
            new, k = f"{eid}~{suffix}{k}", k + 1
        item = dict(by_id[eid], id=new, **changes)
        out["evidence"].append(item)
        added_ids.add(new)
        return new

    for q in fixture.questions.values():
        for i, alt in enumerate(q.alternatives):
            whole = find_fixture_sufficiency(fixture, q.name, list(alt))
            if i not in [j for j, b in enumerate(whole.branches) if b.complete]:
                continue  # not a complete witness on its own (its metadata fails, say)
            for m in alt:
                rest = [x for x in alt if x != m]
                if find_fixture_sufficiency(fixture, q.name, rest).status != "SUFFICIENT":
                    cases.append(
                        {
                            "kind": "cut",
                            "question": q.name,
                            "context": rest,
                            "expect": {"status": "INSUFFICIENT", "alternative": i, "missing": [m]},
                        }
                    )
                item = by_id[m]
                look = add_copy(m, "look-alike", object=f"{item['object']} (a different one)")
                swapped = [look if x == m else x for x in alt]
                cases.append(
                    {
                        "kind": "look-alike",
                        "question": q.name,
                        "context": swapped,
                        "expect": {
                            "status": "INSUFFICIENT",
                            "alternative": i,
                            "missing": [m],
                            "rejected": {look: "not a premise"},
                        },
                    }
                )
                nexts = _successors(q, i, m)
                if nexts:
                    qname = f"{q.name}~look-alike~{m}"
                    raw_q = copy.deepcopy(out["questions"][q.name])
                    raw_q["alternatives"] = [swapped]
                    if raw_q.get("links") is not None:
                        pairs = raw_q["links"][i]
                        raw_q["links"] = [
                            None
                            if pairs is None
                            else [[look if a == m else a, look if b == m else b] for a, b in pairs]
                        ]
                    out["questions"][qname] = raw_q
                    cases.append(
                        {
                            "kind": "look-alike-chain",
                            "question": qname,
                            "context": swapped,
                            "expect": {"status": "INSUFFICIENT", "link_error_from": look},
                        }
                    )
                stale = add_copy(m, "stale", current=False)
                cases.append(
                    {
                        "kind": "stale",
                        "question": q.name,
                        "context": [stale if x == m else x for x in alt],
                        "expect": {
                            "status": "INSUFFICIENT",
                            "alternative": i,
                            "missing": [m],
                            "rejected": {stale: "metadata"},
                        },
                    }
                )
            cases.append(
                {
                    "kind": "duplicate",
                    "question": q.name,
                    "context": [*alt, alt[0]],
                    "expect": {
                        "status": "SUFFICIENT",
                        "context_raw": len(alt) + 1,
                        "context_unique": len(alt),
                        "rejected": {alt[0]: "duplicate"},
                    },
                }
            )
    for k, c in enumerate(cases, 1):
        c["name"] = f"{c['kind']}-{k}"
    return {"format": CASES_FORMAT, "source": source, "fixture": out, "cases": cases}


def check_cases(cases: dict[str, Any]) -> list[str]:
    """Run every case; returns what did not behave as stated (empty: all did)."""
    fixture = read_sufficiency(cases["fixture"], source=str(cases.get("source", "cases")))
    failures = []
    for c in cases["cases"]:
        r = find_fixture_sufficiency(fixture, c["question"], c["context"])
        want = c["expect"]
        problems = []
        if r.status != want["status"]:
            problems.append(f"status {r.status}, expected {want['status']}")
        if "missing" in want:
            got = list(r.branches[want["alternative"]].missing)
            if got != want["missing"]:
                problems.append(f"missing {got}, expected {want['missing']}")
        for eid, reason in want.get("rejected", {}).items():
            reasons = [str(x.reason) for x in r.rejected if x.id == eid]
            if reason not in reasons:
                problems.append(f"{eid} rejected for {reasons or 'nothing'}, expected {reason}")
        if "link_error_from" in want:
            errs = [e for b in r.branches for e in b.link_errors]
            if not any(want["link_error_from"] == e.left for e in errs):
                problems.append(f"no link error from {want['link_error_from']}")
        for key in ("context_raw", "context_unique"):
            if key in want and getattr(r, key) != want[key]:
                problems.append(f"{key} {getattr(r, key)}, expected {want[key]}")
        if problems:
            failures.append(f"{c['name']} ({c['question']}): " + "; ".join(problems))
    return failures
