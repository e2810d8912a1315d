import json
import unicodedata

import pytest

from claimlab.core.errors import ClaimlabInputError
from claimlab.io.context_lab import (
    Answer,
    Chunk,
    Claim,
    load_answer,
    load_context_lab,
    parse_answer,
)
from claimlab.metrics.citations import find_quote, normalise, score_citations
from tests.conftest import FIXTURES, run_cli

EXPECTED = {
    "seed": ("ACCEPT", []),
    "fabricated_id": ("REJECT", ["FABRICATED_ID"]),
    "quote_from_other_chunk": ("REJECT", ["QUOTE_NOT_FOUND"]),
    "flag_wrong": ("REJECT", ["FLAG_MISMATCH"]),
    "nfd_and_spaces": ("ACCEPT", []),
    "ellipsis_out_of_order": ("REJECT", ["QUOTE_NOT_FOUND"]),
    "unsourced_claim": ("REJECT", ["UNSOURCED_CLAIM"]),
}


@pytest.fixture(scope="module", params=["leave_policy_tr.json", "leave_policy_en.json"])
def lab(request):
    return load_context_lab(FIXTURES / request.param)


@pytest.mark.parametrize("name", list(EXPECTED))
def test_named_answers(lab, name):
    rep = score_citations(lab.answers[name], lab.chunks)
    verdict, codes = EXPECTED[name]
    assert rep.verdict == verdict
    assert [p.code for p in rep.problems] == codes


def test_quote_from_other_chunk_says_where_it_is(lab):
    rep = score_citations(lab.answers["quote_from_other_chunk"], lab.chunks)
    assert (
        "instead" in rep.problems[0].explanation
        and "#" in rep.problems[0].explanation.split("instead")[0]
    )


def test_seed_answer_rejected_when_its_chunk_was_not_sent(lab):
    sent = [c for c in lab.chunks if "7b" not in c.id]
    rep = score_citations(lab.answers["seed"], sent)
    assert [p.code for p in rep.problems] == ["FABRICATED_ID"]


def test_reject_message_names_documents_and_what_was_missing(lab):
    rep = score_citations(lab.answers["fabricated_id"], lab.chunks)
    for doc in {f"{c.document} ({c.version})" for c in lab.chunks}:
        assert doc in rep.message
    assert "v4" in rep.message
    assert f"{len(lab.chunks)}" in rep.message


def test_unsourced_allowed_when_asked(lab):
    rep = score_citations(lab.answers["unsourced_claim"], lab.chunks, allow_unsourced=True)
    assert rep.verdict == "ACCEPT"


@pytest.mark.parametrize(
    ("quote", "text", "found"),
    [
        (unicodedata.normalize("NFD", "gün önce"), "yedi gün önce", True),  # NFD vs NFC
        ("yedi   gün\n önce", "yedi gün önce", True),  # runs of white space
        ("yedi ... önce", "yedi gün önce", True),
        ("yedi … önce", "yedi gün önce", True),
        ("önce ... yedi", "yedi gün önce", False),  # pieces out of order
        ("Yedi gün", "yedi gün önce", False),  # case kept: quotes are verbatim
        ("...", "yedi gün önce", False),  # nothing but an ellipsis quotes nothing
    ],
)
def test_find_quote(quote, text, found):
    assert find_quote(quote, text) is found


def test_normalise():
    assert normalise(" a \t b\n") == "a b"


@pytest.mark.parametrize(
    ("data", "record", "field", "fragment"),
    [
        ({"cevap": "x", "iddialar": []}, None, "kaynaksiz_iddia_var", "missing required field"),
        (
            {"answer": "x", "claims": "none", "has_unsourced_claim": False},
            None,
            "claims",
            "must be a list",
        ),
        (
            {"answer": "x", "claims": [{"chunk_id": "a"}], "has_unsourced_claim": False},
            None,
            "claims[0].text",
            "missing required field",
        ),
        (
            {
                "cevap": "x",
                "iddialar": [{"metin": "m", "parca_kimligi": 7}],
                "kaynaksiz_iddia_var": False,
            },
            None,
            "iddialar[0].parca_kimligi",
            "must be a string",
        ),
        (
            {"answer": "x", "claims": [], "has_unsourced_claim": "no"},
            None,
            "has_unsourced_claim",
            "must be true or false",
        ),
    ],
)
def test_malformed_answers_name_the_field(data, record, field, fragment):
    with pytest.raises(ClaimlabInputError) as info:
        parse_answer(data, source="a.json")
    assert (info.value.record, info.value.field) == (record, field)
    assert fragment in str(info.value)


def test_cli_citations(tmp_path):
    lab = json.loads((FIXTURES / "leave_policy_tr.json").read_text(encoding="utf-8"))
    sent = tmp_path / "sent.json"
    sent.write_text(json.dumps(lab["chunks"][:3], ensure_ascii=False), encoding="utf-8")
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps(lab["answers"]["seed"], ensure_ascii=False), encoding="utf-8")
    assert load_answer(answer).language == "tr"
    out = json.loads(run_cli("citations", answer, "--context", sent, "--json").stdout)
    assert out["verdict"] == "ACCEPT" and out["problems"] == []
    proc = run_cli(
        "citations",
        FIXTURES / "leave_policy_tr.json",
        "--name",
        "fabricated_id",
        "--context",
        sent,
        "--json",
    )
    out = json.loads(proc.stdout)
    assert out["verdict"] == "REJECT"
    assert out["problems"][0]["code"] == "FABRICATED_ID"
    assert "İzin Prosedürü (v3)" in out["message"]
    bad = run_cli(
        "citations", FIXTURES / "leave_policy_tr.json", "--name", "nope", "--context", sent
    )
    assert bad.returncode == 2 and "answers.nope: unknown answer" in bad.stderr


# --- covered means stated: content words and numbers (issue cases, in another domain) ---------

MUSEUM_EN = [
    Chunk("fees#adults", "Museum Fees", "2026", 0.9, "Adults pay 5.00 a day at the gate."),
    Chunk("fees#pensioners", "Museum Fees", "2026", 0.8, "Pensioners pay 2.10 a day at the gate."),
    Chunk("fees#groups", "Museum Fees", "2026", 0.7, "A group visit is booked 14 days ahead."),
]
MUSEUM_TR = [
    Chunk("ucret#yetiskin", "Müze Ücretleri", "2026", 0.9, "Yetişkinler kapıda günde 5,00 öder."),
    Chunk("ucret#emekli", "Müze Ücretleri", "2026", 0.8, "Emekliler kapıda günde 2,10 öder."),
    Chunk("ucret#grup", "Müze Ücretleri", "2026", 0.7, "Grup ziyareti on dört gün önce ayrılır."),
]
ADULTS_EN = ("Adults pay 5.00 a day.", "fees#adults", "Adults pay 5.00 a day at the gate.")
ADULTS_TR = ("Yetişkinler günde 5 öder.", "ucret#yetiskin", "Yetişkinler kapıda günde 5,00 öder.")


def _answer(text, claims, language):
    return Answer(text, tuple(Claim(*c) for c in claims), False, language)


@pytest.mark.parametrize(
    ("language", "text", "claims", "codes"),
    [
        # one valid claim about something else does not cover "pensioners pay nothing"
        ("en", "Pensioners pay nothing.", [ADULTS_EN], ["UNCOVERED_SENTENCE"]),
        ("tr", "Emekliler hiç ödemez.", [ADULTS_TR], ["UNCOVERED_SENTENCE"]),
        # a claim's number must be in its quote, as a value
        ("en", "Pensioners pay 5.00 a day.",
         [("Pensioners pay 5.00 a day.", "fees#pensioners", "Pensioners pay 2.10 a day")],
         ["NUMBER_MISMATCH"]),
        ("tr", "Emekliler günde 5,00 öder.",
         [("Emekliler günde 5,00 öder.", "ucret#emekli", "Emekliler kapıda günde 2,10 öder.")],
         ["NUMBER_MISMATCH"]),
        ("en", "Groups book 7 days ahead.",
         [("Groups book 7 days ahead.", "fees#groups", "group visit is booked 14 days ahead")],
         ["NUMBER_MISMATCH"]),
        # a sentence's number must be stated by its claims ("14" is not "7")
        ("en", "A group visit is booked 7 days ahead.",
         [("A group visit is booked ahead.", "fees#groups", "A group visit is booked 14 days")],
         ["UNCOVERED_SENTENCE"]),
        # values, not spellings: 5.00 = 5, 2,10 = 2.10, "on dört" = 14 = "14"
        ("en", "Adults pay 5 a day.", [ADULTS_EN], []),
        ("tr", "Yetişkinler günde 5 öder.", [ADULTS_TR], []),
        ("tr", "Grup ziyareti 14 gün önce ayrılır.",
         [("Grup ziyareti 14 gün önce ayrılır.", "ucret#grup", "Grup ziyareti on dört gün önce")],
         []),
        ("en", "Pensioners pay 2.10 a day.",
         [("Pensioners pay 2,10 a day.", "fees#pensioners", "Pensioners pay 2.10 a day")], []),
        # two claims together state one sentence; one claim alone does not
        ("en", "Adults pay 5.00 and pensioners pay 2.10 a day.",
         [ADULTS_EN, ("Pensioners pay 2.10.", "fees#pensioners", "Pensioners pay 2.10 a day")],
         []),
        ("en", "Adults pay 5.00 and pensioners pay 2.10 a day.", [ADULTS_EN],
         ["UNCOVERED_SENTENCE"]),
    ],
)  # fmt: skip
def test_covered_means_stated(language, text, claims, codes):
    sent = MUSEUM_EN if language == "en" else MUSEUM_TR
    rep = score_citations(_answer(text, claims, language), sent)
    assert [p.code for p in rep.problems] == codes, [p.explanation for p in rep.problems]
    assert rep.verdict == ("REJECT" if codes else "ACCEPT")


def test_an_uncovered_sentence_says_what_its_claims_miss():
    rep = score_citations(_answer("Pensioners pay nothing.", [ADULTS_EN], "en"), MUSEUM_EN)
    why = rep.problems[0].explanation
    assert "carry 1 of its 3 content words" in why and "pensioners, nothing" in why
    rep = score_citations(
        _answer("A group visit is booked 7 days ahead.",
                [("A group visit is booked ahead.", "fees#groups", "A group visit is booked 14 days")],
                "en"), MUSEUM_EN)  # fmt: skip
    assert "states the number 7" in rep.problems[0].explanation


def test_the_number_message_is_in_the_answers_language():
    claim = ("Emekliler günde 5,00 öder.", "ucret#emekli", "Emekliler kapıda günde 2,10 öder.")
    rep = score_citations(_answer("Emekliler günde 5,00 öder.", [claim], "tr"), MUSEUM_TR)
    assert "dayanakta" in rep.message and "5 sayısı" in rep.message
    assert "number" not in rep.message
