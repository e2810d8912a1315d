"""Values come from the documents: each witness derives an asked item's value from its own texts.

Fresh files in English, Turkish and Korean (a rental desk and a conference, not the shipped
fixtures): a chain and a direct statement deriving different values of a single-valued item
are a CONFLICT with every id; a direct statement alone is CONFIRMED with its own value, not
the answer key's; a text another question takes as a whole answer confirms the item it states;
a list of alternatives the file calls incomplete makes an uncompleted context UNKNOWN. The game
follows the same verdicts.
"""

from __future__ import annotations

import json

import pytest

from claimlab.io.sufficiency import read_sufficiency
from claimlab.labs.sufficiency.game import SufficiencyGame, solve_sufficiency, sufficiency_wins
from claimlab.metrics.sufficiency import score_fixture_sufficiency
from claimlab.tooling.cli import main

# per language: the texts of a rental desk. r-a + r-b: a chain to the period (14 days);
# r-c: a direct statement of another period (7 days); "lasts" is single-valued; the key says 14
RENTAL = {
    "en": {
        "texts": [
            ("r-a", "A camping stove is rented under the trail plan.",
             "camping stove", "is rented under", "trail plan"),
            ("r-b", "Under the trail plan a rental lasts 14 days.",
             "trail plan", "lasts", "14 days"),
            ("r-c", "Desk sheet: a camping stove is rented for 7 days.",
             "camping stove", "lasts", "7 days"),
        ],
        "question": "rental_period", "item": "period", "relation": "lasts",
        "seven": "7 days", "fourteen": "14 days",
    },
    "tr": {
        "texts": [
            ("r-a", "Kamp ocağı patika planıyla kiralanır.",
             "kamp ocağı", "kiralandığı plan", "patika planı"),
            ("r-b", "Patika planında kiralama süresi 14 gündür.",
             "patika planı", "süresi", "14 gün"),
            ("r-c", "Masa listesi: kamp ocağının kiralama süresi 7 gündür.",
             "kamp ocağı", "süresi", "7 gün"),
        ],
        "question": "kiralama_suresi", "item": "süre", "relation": "süresi",
        "seven": "7 gün", "fourteen": "14 gün",
    },
}  # fmt: skip


def _text(eid, text, subject, relation, obj, **more):
    return {
        "id": eid, "text": text, "subject": subject, "relation": relation, "object": obj,
        "status": "APPROVED", "current": True, "topic": "rental", **more,
    }  # fmt: skip


def rental_doc(lang: str, **question) -> dict:
    """Three approved texts; the question lists the chain and the direct statement."""
    L = RENTAL[lang]
    return {
        "format": "claimlab/sufficiency@1",
        "evidence": [_text(*t) for t in L["texts"]],
        "rules": {
            "required_status": "APPROVED",
            "require_current": True,
            "single_valued": [L["relation"]],
        },
        "questions": {
            L["question"]: {
                "text": "?",
                "asks": [L["item"]],
                "topic": "rental",
                "alternatives": [["r-a", "r-b"], ["r-c"]],
                **question,
            }
        },
        "scenarios": {
            "desk_sheet": {"question": L["question"], "context": ["r-c"], "note": "-"},
            "all_three": {"question": L["question"], "context": ["r-a", "r-b", "r-c"]},
        },
        "answer_key": {L["question"]: {L["item"]: L["fourteen"]}},
    }


def _check(doc, question, context):
    return score_fixture_sufficiency(read_sufficiency(doc, source="own.json"), question, context)


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_chain_and_a_direct_statement_that_disagree_are_a_conflict_with_every_id(lang):
    L = RENTAL[lang]
    r = _check(rental_doc(lang), L["question"], ["r-a", "r-b", "r-c"])
    assert r.status == "CONFLICT" and not r.sufficient
    (c,) = r.conflicts
    assert c.item == L["item"]
    assert {v: list(ids) for v, ids in c.values.items()} == {
        L["fourteen"]: ["r-a", "r-b"],
        L["seven"]: ["r-c"],
    }
    assert r.items[L["item"]].status == "CONFLICT" and r.items[L["item"]].value is None
    assert set(r.items[L["item"]].by) == {"r-a", "r-b", "r-c"}
    assert L["fourteen"] in r.explanation and L["seven"] in r.explanation


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize(
    ("context", "value", "by"),
    [
        (["r-c"], "seven", ("r-c",)),  # the key says 14; the text says 7: the text decides
        (["r-a", "r-b"], "fourteen", ("r-a", "r-b")),
        (["r-b", "r-a"], "fourteen", ("r-a", "r-b")),  # the context's order is no path
    ],
)
def test_the_value_is_the_one_the_witness_texts_derive_not_the_key(lang, context, value, by):
    L = RENTAL[lang]
    r = _check(rental_doc(lang), L["question"], context)
    assert r.status == "SUFFICIENT"
    item = r.items[L["item"]]
    assert (item.status, item.value, item.by) == ("CONFIRMED", L[value], by)


def conference_doc() -> dict:
    """Korean: a workshop's building and the building's room; the key says 304, the texts 305."""
    return {
        "format": "claimlab/sufficiency@1",
        "evidence": [
            {"id": "k-1", "text": "워크숍 B는 동관에서 열린다.", "subject": "워크숍 B",
             "relation": "열리는 건물", "object": "동관", "status": "APPROVED", "current": True,
             "topic": "회의"},
            {"id": "k-2", "text": "동관 행사는 305호에서 열린다.", "subject": "동관",
             "relation": "열리는 방", "object": "305호", "status": "APPROVED", "current": True,
             "topic": "회의"},
            {"id": "k-3", "text": "승인된 안내도: 워크숍 B는 305호에서 열린다.",
             "subject": "워크숍 B", "relation": "열리는 방", "object": "305호",
             "status": "APPROVED", "current": True, "topic": "회의"},
        ],
        "rules": {"required_status": "APPROVED", "require_current": True,
                  "single_valued": ["열리는 방"]},
        "questions": {
            "방": {"text": "워크숍 B는 몇 호에서 열리나?", "asks": ["방"], "topic": "회의",
                  "alternatives": [["k-1", "k-2"], ["k-3"]]},
            "건물과_방": {"text": "어느 건물, 몇 호?", "asks": ["건물", "방"], "topic": "회의",
                      "alternatives": [["k-1", "k-2"]]},
        },
        "answer_key": {"방": {"방": "304호"}, "건물과_방": {"건물": "동관", "방": "304호"}},
    }  # fmt: skip


@pytest.mark.parametrize(
    ("question", "context", "status", "items"),
    [
        # the chain ends at 305: CONFIRMED 305, not the key's 304
        ("방", ["k-1", "k-2"], "SUFFICIENT", {"방": ("CONFIRMED", "305호", ("k-1", "k-2"))}),
        # a chain and the map agree: no conflict
        ("방", ["k-1", "k-2", "k-3"], "SUFFICIENT", {"방": ("CONFIRMED", "305호", ("k-1", "k-2"))}),
        # the map is no chain of this question, but states the room: the room CONFIRMED, the
        # building UNKNOWN, the question not answered
        ("건물과_방", ["k-3"], "INSUFFICIENT",
         {"건물": ("UNKNOWN", None, ()), "방": ("CONFIRMED", "305호", ("k-3",))}),
        ("건물과_방", ["k-1"], "INSUFFICIENT",
         {"건물": ("CONFIRMED", "동관", ("k-1",)), "방": ("UNKNOWN", None, ())}),
    ],
)  # fmt: skip
def test_korean_chain_values_and_a_stated_room(question, context, status, items):
    r = _check(conference_doc(), question, context)
    assert r.status == status
    assert {k: (a.status, a.value, a.by) for k, a in r.items.items()} == items


def map_doc(lang: str) -> dict:
    """A route and room question and an approved map that states the room (English, Turkish)."""
    words = {
        "en": ("guest", "takes", "east stairs", "lead to", "Hall 2", "goes to", "hall", "route"),
        "tr": ("misafir", "kullanır", "doğu merdiveni", "çıkar", "Salon 2", "gider", "salon",
               "yol"),
    }[lang]  # fmt: skip
    who, takes, stairs, lead, hall, goes, room, route = words
    return {
        "format": "claimlab/sufficiency@1",
        "evidence": [
            _text("w-1", "-", who, takes, stairs),
            _text("w-2", "-", stairs, lead, hall),
            _text("w-map", "approved map", who, goes, hall),
        ],
        "rules": {"required_status": "APPROVED", "require_current": True},
        "questions": {
            "only_room": {
                "text": "?",
                "asks": [room],
                "topic": "rental",
                "alternatives": [["w-map"], ["w-1", "w-2"]],
            },
            "way_and_room": {
                "text": "?",
                "asks": [route, room],
                "topic": "rental",
                "alternatives": [["w-1", "w-2"]],
            },
        },  # fmt: skip
    }


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_an_approved_map_states_the_room_for_the_route_and_room_question(lang):
    doc = map_doc(lang)
    room, route = doc["questions"]["way_and_room"]["asks"][::-1]
    r = _check(doc, "way_and_room", ["w-map"])
    assert r.status == "INSUFFICIENT"  # the route is still missing
    assert (r.items[room].status, r.items[room].value, r.items[room].by) == (
        "CONFIRMED",
        doc["evidence"][2]["object"],
        ("w-map",),
    )
    assert r.items[route].status == "UNKNOWN"


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize(
    ("complete", "context", "status"),
    [
        (False, ["r-a"], "UNKNOWN"),  # completes none, and the list may be incomplete
        (False, [], "UNKNOWN"),
        (True, ["r-a"], "INSUFFICIENT"),
        (False, ["r-c"], "SUFFICIENT"),  # a listed alternative is complete: nothing unknown
        (False, ["r-a", "r-b", "r-c"], "CONFLICT"),
    ],
)
def test_a_list_of_alternatives_the_file_calls_incomplete(lang, complete, context, status):
    L = RENTAL[lang]
    r = _check(rental_doc(lang, alternatives_complete=complete), L["question"], context)
    assert r.status == status
    assert r.to_dict()["alternatives_complete"] is complete
    if status == "UNKNOWN":
        assert "may be incomplete" in r.explanation and "UNKNOWN, not INSUFFICIENT" in r.explanation


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("complete", [True, False])
@pytest.mark.parametrize("context", [[], ["r-a"], ["r-c"], ["r-a", "r-b"], ["r-a", "r-b", "r-c"]])
def test_a_question_marked_unanswerable_is_insufficient_whatever_its_list_says(
    lang, complete, context
):
    """Unanswerable wins: nothing answers the question, so no set left off an incomplete list
    could either (never UNKNOWN, never SUFFICIENT, never CONFLICT)."""
    L = RENTAL[lang]
    doc = rental_doc(lang, answerable=False, alternatives_complete=complete)
    r = _check(doc, L["question"], context)
    assert (r.status, r.unanswerable, r.witnesses) == ("INSUFFICIENT", True, ())
    assert "marked unanswerable" in r.explanation


def test_the_command_line_shows_the_conflict_of_two_witnesses(tmp_path, capsys):
    f = tmp_path / "own.json"
    f.write_text(json.dumps(rental_doc("tr"), ensure_ascii=False), encoding="utf-8")
    args = ["sufficiency", str(f), "--question", "kiralama_suresi", "--context", "r-a,r-b,r-c"]
    assert main([*args, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["status"] == "CONFLICT"
    assert got["conflicts"][0]["witnesses"] == {"14 gün": [["r-a", "r-b"]], "7 gün": [["r-c"]]}
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "CONFLICT: the süre of kamp ocağı süresi: 14 gün (r-a, r-b); 7 gün (r-c)" in text
    assert "süre CONFLICT (from r-a, r-b, r-c)" in text


# --- the game ------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_game_never_calls_the_value_a_cited_text_states_a_wrong_answer(lang):
    """Proof {r-c} answering 7 days, the key saying 14: the answer is what r-c states, so it is
    no WRONG_ANSWER; the round is not won either, because the file's own texts disagree (r-a +
    r-b derive the key's 14): the game says so and names them (KEY_DISAGREES). Showing the
    conflict, both whole witnesses cited, wins."""
    L = RENTAL[lang]
    fx = read_sufficiency(rental_doc(lang), source="own.json")
    game = SufficiencyGame(fx, "desk_sheet")
    lost = game.submit(["r-c"], {L["item"]: L["seven"]})
    assert not lost.won and lost.codes == ("KEY_DISAGREES",)
    assert "r-a, r-b" in lost.reasons[0].message
    assert "report the conflict" in lost.reasons[0].message
    game.reset()
    assert game.submit(["r-c"], {L["item"]: L["fourteen"]}).codes == ("NOT_FROM_WITNESS",)
    game.reset()
    assert game.submit(["r-c"], {L["item"]: "99"}).codes == ("WRONG_ANSWER",)
    # the key agreeing with no text at all: the key is to check, not the answer
    doc = rental_doc(lang)
    doc["answer_key"][L["question"]][L["item"]] = "30"
    lone = SufficiencyGame(read_sufficiency(doc, source="own.json"), "desk_sheet")
    note = lone.submit(["r-c"], {L["item"]: L["seven"]}).reasons[0]
    assert note.code == "KEY_DISAGREES" and "no text of the file derives" in note.message


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_conflict_of_two_witnesses_is_won_by_citing_each_whole_witness(lang):
    L = RENTAL[lang]
    fx = read_sufficiency(rental_doc(lang), source="own.json")
    game = SufficiencyGame(fx, "all_three")
    assert game.submit(["r-c"], {L["item"]: L["seven"]}).codes == ("PICKED_A_SIDE",)
    game.reset()
    half = game.submit(["r-b", "r-c"], {}, conflict=True)  # r-b alone derives nothing
    assert half.codes == ("CONFLICT_NOT_CITED",) and repr(L["fourteen"]) in half.reasons[0].message
    game.reset()
    assert game.submit(["r-a", "r-b", "r-c"], {}, conflict=True).won
    (win,) = sufficiency_wins(fx, "all_three")
    assert win.conflict and set(win.witness) == {"r-a", "r-b", "r-c"}
    assert solve_sufficiency(fx, "all_three")[-1][-1] is True


RENTAL["ko"] = {
    "texts": [
        ("r-a", "캠핑 버너는 산길 요금제로 빌린다.", "캠핑 버너", "요금제", "산길 요금제"),
        ("r-b", "산길 요금제의 대여 기간은 14일이다.", "산길 요금제", "대여 기간", "14일"),
        ("r-c", "안내표: 캠핑 버너의 대여 기간은 7일이다.", "캠핑 버너", "대여 기간", "7일"),
    ],
    "question": "대여기간", "item": "기간", "relation": "대여 기간",
    "seven": "7일", "fourteen": "14일",
}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "tr", "ko"])
@pytest.mark.parametrize(
    ("context", "status", "state", "value"),
    [
        (["r-a", "r-b", "r-c"], "CONFLICT", "CONFLICT", None),
        (["r-c", "r-b", "r-a"], "CONFLICT", "CONFLICT", None),
        (["r-c"], "INSUFFICIENT", "CONFIRMED", "seven"),
        (["r-a", "r-b"], "SUFFICIENT", "CONFIRMED", "fourteen"),
    ],
    ids=["all-three", "reordered", "direct-alone", "chain-alone"],
)
def test_a_direct_statement_no_alternative_lists_still_states_its_item(
    lang, context, status, state, value
):
    """The question lists only the chain: the text stating the period outright (its subject
    the chain's start, its relation the one naming the period) is still read. With the chain it
    is a CONFLICT with both values; alone it CONFIRMs its own value (the question's listed
    evidence stays incomplete); the answer key (14) decides nothing."""
    L = RENTAL[lang]
    doc = rental_doc(lang)
    doc["questions"][L["question"]]["alternatives"] = [["r-a", "r-b"]]
    r = _check(doc, L["question"], context)
    assert (r.status, r.items[L["item"]].status) == (status, state)
    assert r.items[L["item"]].value == (L[value] if value else None)
    if status == "CONFLICT":
        assert {v: set(ids) for v, ids in r.conflicts[0].values.items()} == {
            L["fourteen"]: {"r-a", "r-b"}, L["seven"]: {"r-c"},
        }  # fmt: skip


def test_a_first_step_with_the_items_relation_is_not_a_statement_of_the_item():
    """A chain whose first step already has the relation that names the value (uses -> uses):
    another text with that relation from the start is a first step, not the item said outright."""
    doc = {
        "format": "claimlab/sufficiency@1",
        "evidence": [
            _text("a", "t", "card", "uses", "route one"), _text("b", "t", "route one", "uses", "room 1"),
            _text("c", "t", "card", "uses", "route two"),
        ],
        "rules": {"required_status": "APPROVED", "require_current": True},
        "questions": {"q": {"text": "?", "asks": ["room"], "topic": "rental", "alternatives": [["a", "b"]]}},
    }  # fmt: skip
    from claimlab.metrics.sufficiency import find_derivations

    fx = read_sufficiency(doc, source="own.json")
    assert [d.by for d in find_derivations(fx, "q", ["a", "b", "c"])["room"]] == [("a", "b")]
