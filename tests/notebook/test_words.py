"""Every catalogue of a lesson's words: each entry in English, Turkish and Thai, alike in shape.

A translation keeps the English entry's ``{placeholders}`` exactly (a missing one drops a
number, an extra one fails to format), and a language the catalogue does not know falls back
to English.
"""

from __future__ import annotations

import pytest

from claimlab.labs.decomposition.prose import PROSE as DC_PROSE
from claimlab.labs.decomposition.words import WORDS as DC_WORDS
from claimlab.labs.sufficiency.prose import PROSE as SF_PROSE
from claimlab.labs.sufficiency.words import WORDS as SF_WORDS
from claimlab.notebook.widgets import STUDENT_NOTE, student_note
from claimlab.notebook.words import (
    LANGUAGES,
    WORDS,
    counted,
    placeholders,
    primary_language,
    say,
)

CATALOGUES = {
    "shared": WORDS,
    "decomposition prose": DC_PROSE,
    "decomposition words": DC_WORDS,
    "sufficiency prose": SF_PROSE,
    "sufficiency words": SF_WORDS,
}
ENTRIES = [(name, key) for name, table in CATALOGUES.items() for key in table]


@pytest.mark.parametrize(("catalogue", "key"), ENTRIES)
def test_every_entry_has_english_turkish_and_thai_with_the_english_placeholders(catalogue, key):
    texts = CATALOGUES[catalogue][key]
    assert set(texts) >= set(LANGUAGES), (
        f"{catalogue}: {key}: missing {set(LANGUAGES) - set(texts)}"
    )
    english = placeholders(texts["en"])
    for language, text in texts.items():
        assert text.strip(), f"{catalogue}: {key}: {language} is empty"
        assert placeholders(text) == english, f"{catalogue}: {key}: {language}"


@pytest.mark.parametrize(("catalogue", "key"), ENTRIES)
def test_an_unknown_language_gets_the_english_text(catalogue, key):
    table = CATALOGUES[catalogue][key]
    values = {name: "x" for name in placeholders(table["en"])}
    expected = table["en"].format_map(values) if values else table["en"]
    assert say(CATALOGUES[catalogue], key, "ko-KR", values or None) == expected


def test_a_count_takes_the_noun_of_its_number():
    assert counted(DC_WORDS, "unit", 1, "en") == "1 unit"
    assert counted(DC_WORDS, "unit", 5, "en") == "5 units"
    assert counted(DC_WORDS, "unit", 5, "tr") == "5 birim"
    assert counted(DC_WORDS, "unit", 5, "th") == "5 หน่วย"


def test_every_counted_noun_has_both_numbers():
    for name, table in CATALOGUES.items():
        stems = {k.rsplit(".", 1)[0] for k in table if k.endswith((".one", ".other"))}
        for stem in stems:
            assert f"{stem}.one" in table and f"{stem}.other" in table, f"{name}: {stem}"


def test_the_language_is_the_tags_primary_subtag_and_english_when_none():
    assert [primary_language(t) for t in ("tr-TR", "th_TH", "", " EN ")] == ["tr", "th", "en", "en"]


def test_the_classroom_note_is_in_the_files_language_and_english_unchanged():
    assert student_note("en") == STUDENT_NOTE and student_note("ko") == STUDENT_NOTE
    assert student_note("tr").startswith("Sınıf görünümü") and "Check" in student_note("th")
