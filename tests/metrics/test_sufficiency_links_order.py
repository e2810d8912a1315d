"""The order an alternative lists its members in never changes a verdict or a value.

With explicit ``links`` the chain is what the links say: its start is the member no link
enters, its value the object of the member the last link reaches, whatever order the file
lists them in. Fresh files in Turkish and Korean (a dormitory's guest rule, not the shipped
fixtures): a chain to 21:00 listed end first, beside a direct statement of 23:00, with the
exit time single-valued.
"""

from __future__ import annotations

import pytest

from claimlab.io.sufficiency import Question, read_sufficiency
from claimlab.metrics.sufficiency import score_fixture_sufficiency

# per language: a -> b is the chain (block -> guest rule -> 21:00); z states 23:00 directly
DORM = {
    "tr": {
        "a": ("C blok misafir kuralına tabidir.", "C blok", "tabidir", "misafir kuralı"),
        "b": ("Misafir kuralına göre misafir en geç 21:00'de çıkar.",
              "misafir kuralı", "çıkış saati", "21:00"),
        "z": ("C blokta misafir çıkış saati 23:00'tür.", "C blok", "çıkış saati", "23:00"),
        "item": "saat",
    },
    "ko": {
        "a": ("C동은 방문자 규칙을 따른다.", "C동", "따르는 규칙", "방문자 규칙"),
        "b": ("방문자 규칙에 따르면 방문자는 21:00까지 나가야 한다.",
              "방문자 규칙", "퇴실 시각", "21:00"),
        "z": ("C동 방문자 퇴실 시각은 23:00이다.", "C동", "퇴실 시각", "23:00"),
        "item": "시각",
    },
}  # fmt: skip


def dorm_doc(lang: str, listed: list[str]) -> dict:
    """The chain a -> b listed as ``listed``, its link explicit; z a direct alternative."""
    L = DORM[lang]
    evidence = [
        {
            "id": f"d/{k}", "text": L[k][0], "subject": L[k][1], "relation": L[k][2],
            "object": L[k][3], "status": "APPROVED", "current": True, "topic": "dorm",
        }
        for k in ("b", "a", "z")
    ]  # fmt: skip
    return {
        "format": "claimlab/sufficiency@1",
        "language": lang,
        "evidence": evidence,
        "rules": {
            "required_status": "APPROVED",
            "require_current": True,
            "single_valued": [L["z"][2]],
        },
        "questions": {
            "exit": {
                "text": "?",
                "asks": [L["item"]],
                "topic": "dorm",
                "alternatives": [[f"d/{k}" for k in listed], ["d/z"]],
                "links": [[["d/a", "d/b"]], None],
            }
        },
    }


@pytest.mark.parametrize("lang", ["tr", "ko"])
@pytest.mark.parametrize("listed", [["a", "b"], ["b", "a"]])
@pytest.mark.parametrize(
    ("context", "status", "state", "value", "by"),
    [
        (["d/z", "d/b", "d/a"], "CONFLICT", "CONFLICT", None, {"d/a", "d/b", "d/z"}),
        (["d/b", "d/a"], "SUFFICIENT", "CONFIRMED", "21:00", {"d/a", "d/b"}),
        (["d/a"], "INSUFFICIENT", "UNKNOWN", None, set()),
        (["d/b"], "INSUFFICIENT", "UNKNOWN", None, set()),
        (["d/z"], "SUFFICIENT", "CONFIRMED", "23:00", {"d/z"}),
    ],
)
def test_a_linked_chain_listed_in_any_order_derives_its_last_links_object(
    lang, listed, context, status, state, value, by
):
    fx = read_sufficiency(dorm_doc(lang, listed), source="dorm.json")
    r = score_fixture_sufficiency(fx, "exit", context)
    answer = r.items[DORM[lang]["item"]]
    assert (r.status, answer.status, answer.value, set(answer.by)) == (status, state, value, by)
    if status == "CONFLICT":  # the chain's end against the direct statement, never the rule
        assert [sorted(c.values) for c in r.conflicts] == [["21:00", "23:00"]]
        assert dict(r.conflicts[0].values)["21:00"] == ("d/a", "d/b")


@pytest.mark.parametrize(
    ("listed", "links", "chain"),
    [
        (("b", "a"), (("a", "b"),), ("a", "b")),
        (("c", "b", "a"), (("a", "b"), ("b", "c")), ("a", "b", "c")),
        (("b", "c", "a"), (("a", "b"), ("b", "c")), ("a", "b", "c")),
        (("c", "a", "b"), (("a", "c"), ("b", "c")), ("a", "b", "c")),  # two into c: as listed
        (("b", "a"), None, ("b", "a")),  # no explicit links: the listed order is the chain
        (("b", "a"), (), ("b", "a")),  # a set whose members need not link: as listed
        (("p", "q", "r"), (("p", "q"), ("q", "r"), ("r", "p")), ("p", "q", "r")),  # a cycle
    ],
)
def test_question_chain_orders_members_by_their_links(listed, links, chain):
    q = Question("q", "?", ("x",), "t", (listed,), (links,))
    assert q.chain(0) == chain
