"""Lesson prose in the file's language: English, Turkish and Thai, English with a note otherwise.

Invariants (hypothesis): a section is told in the file's language when the table has it and in
English otherwise; the note appears exactly when some section falls back; the language is the
tag's primary subtag, lower case, and English when the file names none.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.io.decomposition import load_decomposition
from claimlab.io.sufficiency import load_sufficiency
from claimlab.labs.decomposition import lesson as dc_lesson
from claimlab.labs.decomposition.prose import PROSE as DC_PROSE
from claimlab.labs.decomposition.widgets import DecompositionExplorer, mode_options
from claimlab.labs.sufficiency import lesson as sf_lesson
from claimlab.labs.sufficiency.prose import PROSE as SF_PROSE
from claimlab.labs.teaching import language_note, lesson_language, prose
from tests.conftest import FIXTURES

LANGS = st.sampled_from(["en", "tr", "th", "ko", "de", "tr-TR", "TH", ""])
TABLES = st.dictionaries(
    st.sampled_from(["a", "b", "c"]),
    st.dictionaries(st.sampled_from(["tr", "th", "ko"]), st.text(min_size=1)).map(
        lambda t: {"en": "english", **t}
    ),
    min_size=1,
)


@settings(max_examples=150, deadline=None)
@given(TABLES, LANGS)
def test_a_section_is_in_the_files_language_or_english_with_a_note(table, tag):
    lang = lesson_language(tag)
    assert lang == (tag.split("-")[0].lower() or "en")
    for key, texts in table.items():
        assert prose(table, key, tag) == texts.get(lang, texts["en"])
    falls_back = any(lang not in texts for texts in table.values())
    assert bool(language_note(table, tag)) == falls_back


@pytest.mark.parametrize("table", [DC_PROSE, SF_PROSE], ids=["decomposition", "sufficiency"])
def test_every_section_is_written_in_english_turkish_and_thai(table):
    for key, texts in table.items():
        assert {"en", "tr", "th"} <= set(texts), key
        assert len({texts["en"], texts["tr"], texts["th"]}) == 3, key


@pytest.mark.parametrize(
    ("lesson", "load", "file", "key", "starts"),
    [
        (
            dc_lesson,
            load_decomposition,
            "not_uygulamalari_tr.json",
            "01.intro",
            "# 01 · İddia ayrıştırmanın",
        ),
        (dc_lesson, load_decomposition, "atlas_nova_th.json", "06.intro", "# 06 · เกมแยกข้ออ้าง"),
        (
            dc_lesson,
            load_decomposition,
            "atlas_nova.json",
            "01.intro",
            "# 01 · Claim decomposition",
        ),
        (
            sf_lesson,
            load_sufficiency,
            "lale_fuari_tr.json",
            "02.intro",
            "# 02 · Kanıtın yeterliliği",
        ),
        (sf_lesson, load_sufficiency, "aurora_th.json", "07.intro", "# 07 · เกมความเพียงพอ"),
        (sf_lesson, load_sufficiency, "aurora.json", "07.intro", "# 07 · Sufficiency game"),
    ],
)
def test_the_shipped_and_turkish_files_get_their_own_language(lesson, load, file, key, starts):
    intro = lesson.introduction(key, load(FIXTURES / file))
    assert intro.startswith(starts) and "not available" not in intro


def test_a_korean_file_falls_back_to_english_with_a_note(tmp_path):
    text = (FIXTURES / "aurora.json").read_text(encoding="utf-8").replace('"en"', '"ko"', 1)
    (tmp_path / "ko.json").write_text(text, encoding="utf-8")
    intro = sf_lesson.introduction("02.intro", load_sufficiency(tmp_path / "ko.json"))
    assert intro.startswith("# 02 · Evidence sufficiency")
    assert intro.endswith("not available in the file's language (ko): it is shown in English.*")


def test_the_check_word_is_the_same_in_note_and_button():
    for table in (DC_PROSE, SF_PROSE):
        for key in ("06.intro", "07.intro"):
            if key in table:
                assert all("**Check**" in text for text in table[key].values())


def test_student_mode_hides_the_selection_names():
    fixture = load_decomposition(FIXTURES / "atlas_nova.json")
    labels = [label for label, _ in mode_options(fixture.modes, student=True)]
    assert not set(labels) & set(fixture.modes)
    assert labels[1:] == [f"selection {i}" for i in range(1, len(fixture.modes) + 1)]
    student = DecompositionExplorer(fixture, student=True)
    assert not set(student.mode._options_labels) & set(fixture.modes)  # what the browser gets
    student.mode.value = next(iter(fixture.modes))  # the value still selects the file's mode
    assert student.selection == list(dict.fromkeys(fixture.modes[next(iter(fixture.modes))]))
    teacher = DecompositionExplorer(fixture)
    assert set(fixture.modes) <= {label for label, _ in teacher.mode.options}


@pytest.mark.parametrize(
    ("file", "starts", "word"),
    [
        ("not_uygulamalari_tr.json", "**7 ham yuvanız** var", "Bu dosyadaki turlar: "),
        ("atlas_nova_th.json", "คุณมี **ช่องว่าง 7 ช่อง**", "รอบในไฟล์นี้: "),
        ("atlas_nova.json", "You have **7 raw slots**", "Rounds in this file: "),
    ],
)
def test_the_game_rules_are_in_the_files_language_with_its_numbers(file, starts, word):
    fixture = load_decomposition(FIXTURES / file)
    rules = dc_lesson.decomposition_game_rules(fixture)
    assert rules.startswith(starts) and "**Check**" in rules
    assert word in rules and all(name.replace("_", "\\_") in rules for name in fixture.game.puzzles)
