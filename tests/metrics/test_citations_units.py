"""Citation checks unit by unit: every problem code with its exact explanation and user message.

Two short chunks of one document; each case is one answer whose expected problems are written
out in full, so a changed word, count or condition in the checks fails a case here.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.core.ratio import Ratio
from claimlab.io.context_lab import Answer, Chunk, Claim
from claimlab.metrics.citations import (
    MIN_QUOTE_CHARS,
    MIN_QUOTE_WORDS,
    ChunkIndex,
    CitationReport,
    Problem,
    Uncovered,
    best_matches,
    find_quote,
    lost_numbers,
    normalise,
    quote_pieces,
    quote_words,
    score_citations,
    short_quote_piece,
    uncovered_sentences,
)

SENT = [
    Chunk("k1", "Leave Guide", "v2", 0.9, "Requests go to the manager seven days ahead."),
    Chunk("k2", "Leave Guide", "v2", 0.4, "Annual leave is twenty days for every employee."),
]
OK = Claim("Requests go to the manager seven days ahead", "k1", "to the manager seven days ahead")


def _answer(*claims, text=None, flag=False, language="en", dont_know=False):
    body = text if text is not None else " ".join(c.text + "." for c in claims)
    return Answer(body, tuple(claims), flag, language, dont_know)


# ------------------------------------------------------------------ quotes


@pytest.mark.parametrize(
    ("quote", "pieces"),
    [
        ("a  b ... c", ["a b", "c"]),
        ("…x…", ["x"]),
        ("...", []),
        ("  ", []),
        ("one…two...three", ["one", "two", "three"]),
    ],
)
def test_quote_pieces(quote, pieces):
    assert quote_pieces(quote) == pieces


@pytest.mark.parametrize(
    ("quote", "text", "found"),
    [
        ("go to", "Requests go to the manager", True),
        ("go ... manager", "Requests go to the manager", True),
        ("manager ... go", "Requests go to the manager", False),
        ("go  to\nthe", "Requests go to the manager", True),
        ("...", "anything", False),
        ("", "anything", False),
        ("Go to", "Requests go to the manager", False),  # case matters
    ],
)
def test_find_quote(quote, text, found):
    assert find_quote(quote, text) is found


@pytest.mark.parametrize(
    ("piece", "words"),
    [("one two three", 3), ("7/b) Yıllık", 3), ("ลาพักร้อน", 3), ("ลาพัก", 2), ("abcลาพัก", 3),
     ("", 0), ("ab", 1)],
)  # fmt: skip
def test_quote_words(piece, words):
    assert quote_words(piece) == words


@pytest.mark.parametrize(
    ("quote", "short"),
    [
        ("i", "i"),
        ("7 ... .", "7"),
        ("twelve chars", "twelve chars"),  # 12 characters, 2 words
        ("a b c d e f", "a b c d e f"),  # 6 words, 11 characters
        ("a bb cc ddddd", None),  # 13 characters, 4 words
        ("ab cd efghij", None),  # exactly 12 characters and 3 words
        ("... tiny", "tiny"),  # an empty piece before a short one
        ("ab cd efghi", "ab cd efghi"),  # 11 characters
        ("en az yedi gün önce ... x", "x"),
        ("...", "..."),
        ("  ", "  "),  # nothing at all: the quote as given
    ],
)
def test_short_quote_piece(quote, short):
    assert short_quote_piece(quote) == short
    assert (MIN_QUOTE_CHARS, MIN_QUOTE_WORDS) == (12, 3)


def test_the_chunk_index_finds_every_chunk_holding_a_quote():
    sent = [Chunk("a", "D", "1", 0.9, "x y z"), Chunk("b", "D", "1", 0.8, "x  y z w"), Chunk("c", "D", "1", 0.7, "y x")]  # fmt: skip
    index = ChunkIndex(sent)
    assert index.holding("x y") == ["a", "b"]
    assert index.holding("x y", skip="a") == ["b"]
    assert index.holding("x ... z") == ["a", "b"]
    assert index.holding("z w") == ["b"] and index.holding("z ... x") == []
    assert index.holding("y x") == ["c"]  # not across the boundary of two chunks
    assert index.holding("") == [] and index.elsewhere(["a\x00b"], None) == []
    assert normalise(" a\u0308  b ") == "ä b"


# ------------------------------------------------------------------ covered sentences


def test_best_matches_and_ties():
    assert best_matches(["the manager"], ["ask the manager", "the manager"]) == [0]  # tie: first
    assert best_matches(["zz"], ["the manager"]) == [None]
    assert best_matches(["manager"], ["x", "a manager here"], least=100) == [None]
    assert best_matches([], ["s"]) == [] and best_matches(["c"], []) == [None]


def test_best_matches_large_inputs_give_the_pairwise_result():
    claims = [f"claim number {k} about topic {k % 7}" for k in range(300)] + ["qqqq"]
    sentences = [f"sentence {k} about topic {k % 7} and number {k}" for k in range(140)]
    small = [best_matches([c], sentences)[0] for c in claims]  # 140 pairs each: pairwise
    got = best_matches(claims, sentences)  # 42,140 pairs: the indexed path
    assert got == small and len(got) == 301 and got[-1] is None


def test_uncovered_sentences_say_why():
    answer = _answer(
        OK, text="Requests go to the manager seven days ahead. Leave is paid at 80 percent."
    )
    got = uncovered_sentences(answer)
    assert got == [Uncovered(2, "Leave is paid at 80 percent.", "no claim matches it")]
    partial = _answer(
        Claim("Leave is paid", "k2", "Annual leave is twenty days"),
        text="Leave is paid at 80 percent for every employee in the company.",
    )
    (u,) = uncovered_sentences(partial)
    assert u.n == 1 and u.reason == (
        "its claims carry 2 of its 6 content words (half are needed; not carried: percent,"
        " every, employee, company)"
    )
    number = _answer(
        Claim("Leave is paid at the full rate to staff", "k2", "x"),
        text="Leave is paid at the full rate to staff for 20 days.",
    )
    (u,) = uncovered_sentences(number)
    assert u.reason == "no claim of it states the number 20"


@pytest.mark.parametrize(
    ("claim", "quote", "lost"),
    [
        ("The fee is 5.00 a day.", "a fee of 5 a day", []),
        ("The fee is 5.00 a day.", "a fee of 2.10 a day", ["5"]),
        ("Pay 7 or 14 or 120 days.", "pay 7 days", ["14", "120"]),
        ("No numbers here.", "none", []),
    ],
)
def test_lost_numbers(claim, quote, lost):
    assert lost_numbers(claim, quote, "en") == lost


# ------------------------------------------------------------------ every problem, exactly

CASES = {
    "accept": (_answer(OK), {}, []),
    "fabricated id": (
        _answer(Claim(OK.text, "k9", OK.quote)), {},
        [(1, "FABRICATED_ID", "claim 1 cites 'k9', which was not among the 2 chunks sent")],
    ),
    "missing quote": (
        _answer(Claim(OK.text, "k1", None)), {},
        [(1, "MISSING_QUOTE", "claim 1 cites k1 without a supporting quote")],
    ),
    "short quote": (
        _answer(Claim(OK.text, "k1", "seven days")), {},
        [(1, "QUOTE_TOO_SHORT", "claim 1: the quote piece 'seven days' is too short to be evidence (each piece needs 12 characters and 3 words)")],
    ),
    "quote elsewhere": (
        _answer(Claim(OK.text, "k1", "is twenty days for every")), {},
        [(1, "QUOTE_NOT_FOUND", "claim 1: the quote 'is twenty days for every' does not occur in k1; it occurs in k2 instead")],
    ),
    "quote out of order": (
        _answer(Claim(OK.text, "k1", "seven days ahead ... Requests go to")), {},
        [(1, "QUOTE_NOT_FOUND", "claim 1: the quote 'seven days ahead ... Requests go to' does not occur in k1 (its pieces are not in this order)")],
    ),
    "number": (
        _answer(Claim("Requests go to the manager eight days ahead", "k1", OK.quote),
                text="Requests go to the manager 8 days ahead."), {},
        [(1, "NUMBER_MISMATCH", "claim 1 states 8, which its quote from k1 does not")],
    ),
    "unsourced": (
        _answer(OK, Claim("Leave is twenty days", None, None)), {},
        [(2, "UNSOURCED_CLAIM", "claim 2 cites no chunk, so it cannot be verified"),
         (0, "FLAG_MISMATCH", "the unsourced-claim flag says false but 1 claim(s) have no source")],
    ),
    "unsourced allowed": (
        _answer(OK, Claim("Leave is twenty days", None, None), flag=True),
        {"allow_unsourced": True}, [],
    ),
    "flag without unsourced": (
        _answer(OK, flag=True), {},
        [(0, "FLAG_MISMATCH", "the unsourced-claim flag says true but 0 claim(s) have no source")],
    ),
    "dont know with claims": (
        _answer(OK, dont_know=True), {},
        [(0, "DONT_KNOW_WITH_CLAIMS", "the answer says it does not know but makes 1 claim(s)")],
    ),
    "dont know": (_answer(text="I don't know.", dont_know=True), {}, []),
    "below threshold": (
        _answer(Claim("Annual leave is twenty days for every employee", "k2", "Annual leave is twenty days")),
        {"threshold": 0.5},
        [(1, "BELOW_THRESHOLD", "claim 1 cites k2, whose score 0.4 is below the threshold 0.5: a chunk below it is never sent")],
    ),
    "nothing above threshold": (
        _answer(OK), {"threshold": 0.95},
        [(0, "BELOW_THRESHOLD", 'no chunk sent reaches the threshold 0.95: the model should not have been called, and only the explicit "I don\'t know" answer is accepted'),
         (1, "BELOW_THRESHOLD", "claim 1 cites k1, whose score 0.9 is below the threshold 0.95: a chunk below it is never sent")],
    ),
    "dont know below threshold": (_answer(text="?", dont_know=True), {"threshold": 0.95}, []),
    "at the threshold": (_answer(OK), {"threshold": 0.9}, []),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_every_problem_with_its_explanation(case):
    answer, kw, expected = CASES[case]
    report = score_citations(answer, SENT, **kw)
    got = [(p.claim, p.code, p.explanation) for p in report.problems]
    assert got == expected
    assert report.verdict == ("REJECT" if expected else "ACCEPT")
    assert report.documents == ("Leave Guide (v2)",) and report.sent == ("k1", "k2")
    assert report.claims == len(answer.claims)
    failed = {c for c, *_ in expected if c > 0}
    assert report.verified == Ratio(len(answer.claims) - len(failed), len(answer.claims))


def test_an_uncovered_sentence_is_a_problem_unless_declared_and_allowed():
    answer = _answer(OK, text=OK.text + ". Leave is paid at 80 percent.")
    (p,) = score_citations(answer, SENT).problems
    assert (p.claim, p.code) == (0, "UNCOVERED_SENTENCE")
    assert p.explanation == (
        "sentence 2 of the answer (“Leave is paid at 80 percent.”) is not stated by its claims:"
        " no claim matches it (and the answer does not declare unsourced claims)"
    )
    declared = _answer(OK, text=answer.answer, flag=True)
    (p,) = score_citations(declared, SENT).problems  # declared but not allowed
    assert p.code == "UNCOVERED_SENTENCE" and not p.explanation.endswith("claims)")
    assert score_citations(declared, SENT, allow_unsourced=True).verdict == "ACCEPT"


def test_the_reject_message_in_english_and_turkish():
    bad = _answer(Claim(OK.text, "k9", OK.quote))
    report = score_citations(bad, SENT)
    assert report.message == (
        "This answer was withheld because its sources could not be verified. "
        "Searched: Leave Guide (v2) (2 chunks sent). "
        "Not found: chunk “k9” (cited for “Requests go to the manager seven days ahead”). "
        "You can rephrase the question or ask a person who maintains these documents."
    )
    tr = score_citations(_answer(Claim(OK.text, None, None), language="tr"), SENT)
    assert tr.message.startswith("Bu cevap, kaynakları doğrulanamadığı için gösterilmedi. ")
    assert "Aranan belgeler: Leave Guide (v2) (2 parça gönderildi)." in tr.message
    assert (
        "Bulunamayan: “Requests go to the manager seven days ahead” için bir kaynak;" in tr.message
    )
    assert score_citations(_answer(OK), SENT).message == (
        "Every claim cites a chunk that was sent, with a quote found in that chunk."
    )
    assert score_citations(_answer(text="?", dont_know=True), SENT).message == (
        "The answer says it does not know; there is no claim to verify."
    )
    assert score_citations(_answer(text="?", language="tr", dont_know=True), SENT).message == (
        "Cevap bilmediğini söylüyor; doğrulanacak bir iddia yok."
    )


@pytest.mark.parametrize(
    ("case", "told"),
    [
        ("missing quote", "a quote for “Requests go to the manager seven days ahead”"),
        ("short quote", "a quote long enough to check in “k1”"),
        ("quote elsewhere", "the quote “is twenty days for every” in “k1”"),
        ("number", "the number 8 of “Requests go to the manager eight days ahead” in its quote from “k1”"),
        ("below threshold", "a source above the relevance threshold 0.5 (not “k2”)"),
        ("nothing above threshold", "any chunk above the relevance threshold 0.95"),
        ("dont know with claims", "an answer that either makes claims or says it does not know"),
        ("flag without unsourced", "a consistent unsourced-claim flag"),
    ],
)  # fmt: skip
def test_what_the_user_is_told_is_missing(case, told):
    answer, kw, _ = CASES[case]
    message = score_citations(answer, SENT, **kw).message
    assert f"Not found: {told}." in message or f"Not found: {told}; " in message


def test_a_long_text_is_shortened_in_the_message():
    long_id = "x" * 70
    report = score_citations(_answer(Claim(OK.text, long_id, OK.quote)), SENT)
    assert f"chunk “{'x' * 57}...”" in report.message


def test_the_json_of_a_report():
    report = score_citations(_answer(Claim(OK.text, "k1", None)), SENT)
    assert report.to_dict() == {
        "verdict": "REJECT",
        "problems": [{"claim": 1, "code": "MISSING_QUOTE", "explanation": "claim 1 cites k1 without a supporting quote"}],
        "message": report.message,
        "documents_searched": ["Leave Guide (v2)"],
        "chunks_sent": ["k1", "k2"],
        "claims_verified": Ratio(0, 1).to_dict(),
    }  # fmt: skip
    assert Problem(0, "FLAG_MISMATCH", "w").to_dict() == {
        "claim": 0, "code": "FLAG_MISMATCH", "explanation": "w",
    }  # fmt: skip
    empty = CitationReport("ACCEPT", (), "m", (), (), 0)
    assert empty.verified.value is None  # no claim: N/A, not 100%


# ------------------------------------------------------------------ the cases a mutant hid in


def test_pieces_are_found_from_the_first_place_that_lets_the_rest_follow():
    assert find_quote("a b ... x", "a b x a b y")
    assert not find_quote("a b ... x", "a b y")


def test_a_piece_with_the_separator_never_spans_two_chunks():
    index = ChunkIndex([Chunk("a", "D", "1", 0.9, "x y z"), Chunk("b", "D", "1", 0.8, "x w")])
    assert index.elsewhere(["z\x00x"], None) == []


def test_trigrams_of_short_and_long_texts():
    from claimlab.metrics.citations import _trigrams

    assert _trigrams("abcd") == {"abc", "bcd"}
    assert _trigrams("ABC") == {"abc"}
    assert _trigrams("ab") == set() and _trigrams("") == set()


@pytest.mark.parametrize(
    ("claim", "expected"),
    [("abcde", [0]), ("abcd", [None]), ("qqqq", [None])],  # 3, 2 and 0 trigrams shared
)
def test_a_claim_needs_three_shared_trigrams_to_match(claim, expected):
    assert best_matches([claim], ["zzabcdezz"]) == expected
    sentences = ["zzabcdezz"] + [f"other sentence {k}" for k in range(200)]
    many = [claim] + [f"filler claim {k}" for k in range(200)]
    assert best_matches(many, sentences)[0] == expected[0]  # the indexed path agrees


def test_half_of_the_content_words_is_enough_and_eight_missing_show_six():
    from claimlab.metrics.citations import _coverage_gap

    sentence = "Staff members receive annual leave payments quickly today."
    assert _coverage_gap(sentence, ["Staff members receive annual"], "en") is None  # 4 of 8
    reason = _coverage_gap(sentence, ["Staff members receive"], "en")
    assert reason.startswith("its claims carry 3 of its 8 content words")
    missing = _coverage_gap("alpha bravo charlie delta echo foxtrot golf hotel", ["x"], "en")
    assert missing.endswith("not carried: alpha, bravo, charlie, delta, echo, foxtrot)")
    numbers_lost = _coverage_gap("Items 1 2 3 4 5 6 7 8 staff", ["Items staff"], "en")
    assert numbers_lost == "no claim of it states the number 1, 2, 3, 4, 5, 6"


def test_numbers_are_read_in_the_answer_s_language():
    answer = Answer(
        "Talep yedi gün önce yöneticiye iletilir.",
        (Claim("Talep gün önce yöneticiye iletilir", "k1", "to the manager seven days ahead"),),
        False,
        "tr",
    )
    (u,) = uncovered_sentences(answer)
    assert u.reason == "no claim of it states the number 7"
    assert lost_numbers("Talep yedi gün önce", "en az 7 gün önce", "tr") == []
    assert lost_numbers("Talep yedi gün önce", "en az 8 gün önce", "tr") == ["7"]


def test_a_text_of_sixty_characters_is_shown_whole():
    from claimlab.metrics.citations import _q

    assert _q("x" * 60) == f"“{'x' * 60}”"
    assert _q("x" * 61) == f"“{'x' * 57}...”"
    assert _q("a  b\nc") == "“a b c”"


def test_a_missing_piece_is_not_called_out_of_order():
    claim = Claim(OK.text, "k1", "to the manager ... nowhere in here")
    (p,) = score_citations(_answer(claim), SENT).problems
    assert p.explanation == (
        "claim 1: the quote 'to the manager ... nowhere in here' does not occur in k1"
    )


def test_every_lost_number_is_named():
    claim = Claim("Requests go to 8 managers 9 days ahead", "k1", OK.quote)
    report = score_citations(_answer(claim, text="Requests go to 8 managers 9 days ahead."), SENT)
    (p,) = report.problems
    assert p.explanation == "claim 1 states 8, 9, which its quote from k1 does not"
    assert (
        "Not found: the number 8, 9 of “Requests go to 8 managers 9 days ahead”" in report.message
    )


def test_declared_but_not_allowed_and_the_sentence_named_to_the_user():
    answer = _answer(OK, text=OK.text + ". Leave is paid at 80 percent.", flag=True)
    report = score_citations(answer, SENT)
    (p,) = report.problems
    assert p.explanation == (
        "sentence 2 of the answer (“Leave is paid at 80 percent.”) is not stated by its claims:"
        " no claim matches it"
    )
    assert "Not found: a source for sentence 2 (“Leave is paid at 80 percent.”)." in report.message


def test_every_unsourced_claim_is_counted_and_the_claims_after_it_checked():
    answer = _answer(
        Claim("Leave is twenty days", None, None),
        Claim("Leave is paid", None, None),
        Claim(OK.text, "k9", OK.quote),
    )
    codes = [(p.claim, p.code) for p in score_citations(answer, SENT).problems]
    assert codes[:3] == [(1, "UNSOURCED_CLAIM"), (2, "UNSOURCED_CLAIM"), (3, "FABRICATED_ID")]
    flag = score_citations(answer, SENT).problems[-1]
    assert flag.explanation == "the unsourced-claim flag says false but 2 claim(s) have no source"


def test_every_document_searched_is_named():
    sent = [*SENT, Chunk("k3", "Pay Rules", "v1", 0.8, "Pay is monthly for every employee.")]
    report = score_citations(_answer(Claim(OK.text, "k9", OK.quote)), sent)
    assert "Searched: Leave Guide (v2), Pay Rules (v1) (3 chunks sent)." in report.message


# ------------------------------------------------------------------ the indexes find what a scan finds

_TEXT = st.lists(
    st.sampled_from(["a", "ab", "ba", "b", "7", "17", "\u0e01", " ", " ", "."]), max_size=9
).map("".join)


@st.composite
def _quote_from(draw, texts):
    """A cut of one of the texts (the pieces of a quote overlap other texts often), maybe elided."""
    text = draw(st.sampled_from(texts))
    a = draw(st.integers(0, len(text)))
    b = draw(st.integers(a, len(text)))
    cut = text[a:b]
    if draw(st.booleans()) and len(cut) > 2:
        m = draw(st.integers(1, len(cut) - 1))
        cut = f"{cut[:m]} ... {cut[m:]}" if draw(st.booleans()) else f"{cut[m:]} … {cut[:m]}"
    return cut


@settings(max_examples=400, deadline=None)
@given(data=st.data(), texts=st.lists(_TEXT, min_size=1, max_size=8))
def test_the_chunk_index_finds_the_chunks_a_scan_of_every_chunk_finds(data, texts):
    from claimlab.metrics.citations import _pieces_in

    quote = data.draw(st.one_of(_quote_from(texts), _TEXT))
    sent = [Chunk(f"c{i}", "D", "1", 0.5, t) for i, t in enumerate(texts)]
    pieces = quote_pieces(quote)
    scan = [c.id for c in sent if pieces and _pieces_in(pieces, normalise(c.text))]
    assert ChunkIndex(sent).holding(quote) == scan
    assert ChunkIndex(sent).holding(quote, skip="c0") == [i for i in scan if i != "c0"]


@settings(max_examples=400, deadline=None)
@given(
    claims=st.lists(_TEXT, max_size=12),
    sentences=st.lists(_TEXT, min_size=1, max_size=12),
    least=st.integers(1, 4),
)
def test_the_indexed_sentence_matching_is_the_pair_by_pair_one(claims, sentences, least):
    from claimlab.metrics.citations import _best_matches_indexed, _trigrams, number_candidates

    pairwise = [best_matches([c], sentences, least=least)[0] for c in claims]  # 1 x 12: pairwise
    indexed = _best_matches_indexed(
        [_trigrams(c) for c in claims],
        [_trigrams(s) for s in sentences],
        least=least,
        allowed=number_candidates(claims, sentences, "en"),
    )
    assert indexed == pairwise
