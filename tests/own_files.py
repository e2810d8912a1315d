"""A user's own files: a decomposition and a sufficiency file in a domain no shipped fixture has.

Other ids (``p-1``, ``g-a``), other mode, puzzle, question and scenario names, other words: a
lab or game that still names anything of the shipped fixtures fails on these, and
:data:`SHIPPED_WORDS` must not appear in anything the labs show for them.
"""

from __future__ import annotations

import json
from pathlib import Path


def _u16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


SENTENCES = (
    ("p-1", "Maple Tea House opens at 8 am on Sundays."),
    ("p-2", "Maple Tea House serves oat milk."),
    ("p-3", "Birch Bakery bakes rye bread daily."),
    ("p-4", "Birch Bakery closes on Mondays."),
)


def decomposition_data(*, game: bool = True) -> dict:
    """The decomposition file's content (a dict)."""
    text = " ".join(t for _, t in SENTENCES)
    spans, pos = {}, 0
    for uid, t in SENTENCES:
        spans[uid] = {"start": pos, "end": pos + _u16(t), "text": t}
        pos += _u16(t) + 1

    def cand(cid, text, fp, preserves, status, refs, *, faithful=True, errors=(), span=None):
        return {
            "id": cid,
            "text": text,
            "entity": text.split(" ")[0],
            "version": "-",
            "predicate": text,
            "qualifiers": [],
            "fingerprint": fp,
            "preserves": list(preserves),
            "faithful": faithful,
            "atomic": True,
            "errors": list(errors),
            "evidence": {"status": status, "references": list(refs)},
            "source_spans": [spans[u] for u in ([span] if span else preserves)],
        }

    data = {
        "format": "claimlab/decomposition@1",
        "offset_unit": "utf16",
        "original": {"id": "review-9", "version": "v3", "text": text},
        "units": [{"id": u, "span": spans[u]} for u, _ in SENTENCES],
        "references": [
            {"id": "menu", "title": "Menu", "version": "spring", "text": "Oat milk on request."},
            {"id": "hours", "title": "Hours", "version": "spring", "text": "Sundays from 9 am."},
            {"id": "sign", "title": "Door sign", "version": "-", "text": "Closed on Mondays."},
        ],
        "candidates": [
            cand("t-open", SENTENCES[0][1], "maple|open", ["p-1"], "CONTRADICTED", ["hours"]),
            cand("t-oat", SENTENCES[1][1], "maple|oat", ["p-2"], "SUPPORTED", ["menu"]),
            cand("t-rye", SENTENCES[2][1], "birch|rye", ["p-3"], "NOT_IN_REFERENCE", []),
            cand("t-mon", SENTENCES[3][1], "birch|monday", ["p-4"], "SUPPORTED", ["sign"]),
            cand(
                "t-oat2",
                "Oat milk is served at Maple Tea House.",
                "maple|oat",
                ["p-2"],
                "SUPPORTED",
                ["menu"],
            ),
            cand(
                "t-any",
                "Birch Bakery bakes bread daily.",
                "birch|bread",
                [],
                "NOT_IN_REFERENCE",
                [],
                faithful=False,
                errors=["qualifier"],
                span="p-3",
            ),
            cand(
                "t-wifi",
                "Maple Tea House has free wifi.",
                "maple|wifi",
                [],
                "NOT_IN_REFERENCE",
                [],
                faithful=False,
                errors=["introduced"],
            ),
        ],
        "modes": {
            "all_four": ["t-open", "t-oat", "t-rye", "t-mon"],
            "pleasant_only": ["t-oat", "t-mon"],
            "oat_twice": ["t-open", "t-oat", "t-rye", "t-mon", "t-oat2"],
            "vague_bread": ["t-open", "t-oat", "t-any", "t-mon"],
        },
        "note": "Reviews of two cafés in my town.",
    }
    data["candidates"][6]["source_spans"] = []
    if game:
        data["game"] = {
            "slots": 5,
            "puzzles": {
                "warm_up": {"start": ["t-oat", "t-mon"], "title": "Warm up", "note": "Two kept."},
                "one_too_many": {
                    "start": ["t-open", "t-oat", "t-oat2", "t-any"],
                    "title": "One too many",
                    "note": "Look closely at the bread.",
                },
            },
        }
    return data


def sufficiency_data(*, game: bool = True) -> dict:
    """The sufficiency file's content (a dict)."""

    def ev(i, text, s, r, o, *, current=True, topic="boarding"):
        return {
            "id": i,
            "text": text,
            "subject": s,
            "relation": r,
            "object": o,
            "status": "APPROVED",
            "current": current,
            "topic": topic,
        }

    data = {
        "format": "claimlab/sufficiency@1",
        "evidence": [
            ev("g-a", "Flight 88 checks in at Desk 4.", "flight 88", "checks in at", "Desk 4"),
            ev("g-b", "Desk 4 sends its passengers to Gate 17.", "Desk 4", "sends to", "Gate 17"),
            ev(
                "g-c",
                "Departures board: flight 88 boards at Gate 17.",
                "flight 88",
                "boards at",
                "Gate 17",
            ),
            ev(
                "g-d",
                "Flight 86 boards at Gate 3.",
                "flight 86",
                "boards at",
                "Gate 3",
                topic="other-flight",
            ),
            ev(
                "g-e",
                "Yesterday's plan: Desk 4 sends its passengers to Gate 12.",
                "Desk 4",
                "sends to",
                "Gate 12",
                current=False,
            ),
        ],
        "rules": {"required_status": "APPROVED", "require_current": True},
        "questions": {
            "gate": {
                "text": "Which gate does flight 88 board at?",
                "asks": ["gate"],
                "topic": "boarding",
                "alternatives": [["g-c"], ["g-a", "g-b"], ["g-a", "g-e"]],
            },
            "desk_and_gate": {
                "text": "Where does flight 88 check in, and which gate does it board at?",
                "asks": ["desk", "gate"],
                "topic": "boarding",
                "alternatives": [["g-a", "g-b"]],
            },
        },
        "scenarios": {
            "from_the_desk": {"question": "gate", "context": ["g-a"], "note": "Only the desk."},
            "board_only": {
                "question": "desk_and_gate",
                "context": ["g-c"],
                "note": "The board names the gate, not the desk.",
            },
        },
        "answer_key": {
            "gate": {"gate": "Gate 17"},
            "desk_and_gate": {"gate": "Gate 17", "desk": ["Desk 4", "desk four"]},
        },
        "note": "Boarding at my airport.",
    }
    if game:
        data["game"] = {
            "budget": 4,
            "search_cost": {"default": 1, "g-c": 3},
            "copy_cost": 2,
            "copyable": ["g-a"],
        }
    return data


def write(tmp: Path, name: str, data: dict) -> Path:
    """Write ``data`` as ``tmp/name`` and return the path."""
    path = tmp / name
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def own_decomposition(tmp: Path, *, game: bool = True) -> Path:
    """The decomposition file, written into ``tmp``."""
    return write(tmp, "cafes.json" if game else "cafes_no_game.json", decomposition_data(game=game))


def own_sufficiency(tmp: Path, *, game: bool = True) -> Path:
    """The sufficiency file, written into ``tmp``."""
    return write(
        tmp, "boarding.json" if game else "boarding_no_game.json", sufficiency_data(game=game)
    )


def context_data() -> dict:
    """A context-lab file: a bicycle workshop's service rules, other ids and answer names."""

    def chunk(cid, doc, pos, score, text):
        return {
            "id": cid,
            "document": doc,
            "version": "2025",
            "position": pos,
            "score": score,
            "text": text,
        }

    chunks = [
        chunk(
            "svc/brakes",
            "Service Rules",
            1,
            0.93,
            "Brake pads are checked at every service and replaced below two millimetres.",
        ),
        chunk(
            "svc/chains",
            "Service Rules",
            2,
            0.82,
            "A chain is replaced when it has stretched by more than half a percent.",
        ),
        chunk(
            "svc/tyres",
            "Service Rules",
            3,
            0.71,
            "Tyres are inflated to the pressure printed on their side wall.",
        ),
        chunk(
            "shop/hours",
            "Shop Notes",
            1,
            0.64,
            "The workshop takes bicycles in from nine in the morning until noon.",
        ),
        chunk(
            "shop/prices",
            "Shop Notes",
            2,
            0.52,
            "A full service costs forty-five euros, parts not included.",
        ),
    ]

    def claim(text, cid, quote):
        return {"text": text, "chunk_id": cid, "quote": quote}

    answer = "Brake pads are replaced below two millimetres."
    return {
        "format": "claimlab/context-lab@1",
        "language": "en",
        "note": "A workshop's service rules, written for this test.",
        "question": "When are brake pads replaced?",
        "chunks": chunks,
        "answers": {
            "workshop_ok": {
                "answer": answer,
                "claims": [claim(answer, "svc/brakes", "replaced below two millimetres")],
                "has_unsourced_claim": False,
            },
            "price_in_wrong_rule": {
                "answer": answer,
                "claims": [claim(answer, "svc/brakes", "A full service costs forty-five euros")],
                "has_unsourced_claim": False,
            },
        },
        "calibration": {
            "target_precision": 0.9,
            "fixed_thresholds": [0.5, 0.85],
            "queries": [
                {
                    "id": "wq-1",
                    "candidates": [
                        {"score": 0.7, "relevant": True},
                        {"score": 0.3, "relevant": False},
                    ],
                },
                {
                    "id": "wq-2",
                    "candidates": [
                        {"score": 0.66, "relevant": True},
                        {"score": 0.4, "relevant": False},
                    ],
                },
                {
                    "id": "wq-3",
                    "candidates": [
                        {"score": 0.9, "relevant": True},
                        {"score": 0.45, "relevant": False},
                    ],
                },
            ],
        },
    }


def own_context(tmp: Path) -> Path:
    """The context-lab file, written into ``tmp``."""
    return write(tmp, "workshop.json", context_data())


# what the shipped teaching fixtures are about: none of it may appear in what a lab shows for
# the files above (ids such as C1 or E5 are checked apart, as whole words)
SHIPPED_WORDS = (
    "Atlas",
    "Nova",
    "Aurora",
    "blue card",
    "Room A3",
    "Solar Route",
    "Orbit Building",
    "Kestrel",
    "Heron",
    "ferry",
    "parcel",
    "Locker",
    "emoji",
    "fictional",
    "SIMULATION",
    "annual leave",
    "izin",
    "payroll",
    "bordro",
)
SHIPPED_IDS = (
    r"\b(?:[CEUR]\d{1,2}|[sqk]\d{1,2}|doc-(?:timetable|bikes|summer|crossing|cafe)"
    r"|seed|fabricated_id|quote_from_other_chunk|flag_wrong)\b"
)


def hard_cases_data() -> dict:
    """A hard-case sufficiency file: a swimming pool whose two approved notices disagree on how
    long a day pass lasts, and whose evening rule holds only after six; other ids and names."""

    def text(tid, words, subject, relation, obj, **more):
        row = {"id": tid, "text": words, "subject": subject, "relation": relation}
        row |= {"object": obj, "status": "APPROVED", "current": True, "topic": "passes"}
        return row | more

    evidence = [
        text(
            "pool/desk",
            "A swimmer's day ticket is a standard pass.",
            "day ticket",
            "is issued as",
            "standard pass",
        ),
        text(
            "pool/notice-a",
            "Notice A (approved): a standard pass is valid for 4 hours.",
            "standard pass",
            "is valid for",
            "4 hours",
        ),
        text(
            "pool/notice-b",
            "Notice B (approved): a standard pass is valid for 3 hours.",
            "standard pass",
            "is valid for",
            "3 hours",
        ),
        text(
            "pool/evening",
            "After six in the evening a day ticket is issued as an evening pass.",
            "day ticket",
            "is issued as",
            "evening pass",
            conditions=["bought after six"],
        ),
        text(
            "pool/evening-length",
            "An evening pass is valid for 2 hours.",
            "evening pass",
            "is valid for",
            "2 hours",
        ),
    ]
    questions = {
        "pass_length": {
            "text": "How long is a day ticket valid?",
            "asks": ["length"],
            "topic": "passes",
            "alternatives": [
                ["pool/desk", "pool/notice-a"],
                ["pool/desk", "pool/notice-b"],
                ["pool/evening", "pool/evening-length"],
            ],
        }
    }
    scenarios = {
        "two_notices": {
            "question": "pass_length",
            "context": ["pool/desk", "pool/notice-a", "pool/notice-b"],
            "note": "Two approved notices give 4 and 3 hours: show both.",
        },
        "evening_only": {
            "question": "pass_length",
            "context": ["pool/evening", "pool/evening-length"],
            "note": "The evening rule holds only after six, which the question does not say.",
        },
    }
    return {
        "format": "claimlab/sufficiency@1",
        "language": "en",
        "note": "A made-up pool with two notices that disagree.",
        "evidence": evidence,
        "rules": {
            "required_status": "APPROVED",
            "require_current": True,
            "single_valued": ["is valid for"],
        },
        "questions": questions,
        "scenarios": scenarios,
        "answer_key": {"pass_length": {"length": ["4 hours", "3 hours"]}},
        "game": {"budget": 3, "search_cost": {"default": 1}, "scenarios": ["two_notices"]},
    }


def own_hard_cases(tmp: Path) -> Path:
    """The hard-case file, written into ``tmp``."""
    return write(tmp, "pool_passes.json", hard_cases_data())
