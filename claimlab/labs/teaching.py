"""What every lab's lesson shares: a file's note, own exercises, the message for absent data."""

from __future__ import annotations

from pathlib import Path

from claimlab.core.text import md_text, plural
from claimlab.io.context_lab import ContextLab
from claimlab.io.decomposition import DecompositionFixture
from claimlab.io.lesson import Exercise
from claimlab.io.locate import default_data_dir, is_shipped
from claimlab.io.sufficiency import SufficiencyFixture
from claimlab.notebook.words import FALLBACK, Catalogue, primary_language, say

Prose = Catalogue
"""A lab's lesson prose: section key -> language (primary subtag) -> Markdown; "en" always.

The same kind of catalogue as :mod:`claimlab.notebook.words`: a lab's prose, the words of its
views, games and exercises, and the texts the labs share are looked up one way.
"""

FILE_WORDS = {  # a file note's words: "File.", "your file", "the shipped fixture", "About ..."
    "en": ("File.", "your file", "the shipped fixture", "About this file."),
    "tr": ("Dosya.", "sizin dosyanız", "claimlab ile gelen dosya", "Bu dosya hakkında."),
    "th": ("ไฟล์", "ไฟล์ของคุณ", "ไฟล์ที่มากับ claimlab", "เกี่ยวกับไฟล์นี้"),
}


def lesson_language(
    fixture: DecompositionFixture | SufficiencyFixture | ContextLab | str,
) -> str:
    """The language a lesson is told in: the file's ``language`` primary subtag, else English.

    Examples:
        >>> lesson_language("tr-TR"), lesson_language(""), lesson_language("TH")
        ('tr', 'en', 'th')
    """
    tag = fixture if isinstance(fixture, str) else getattr(fixture, "language", "")
    return primary_language(tag)


def prose(table: Prose, key: str, fixture: DecompositionFixture | SufficiencyFixture | str) -> str:
    """One section of a lesson in the file's language, or in English when it has none.

    Examples:
        >>> table = {"title": {"en": "# Title", "tr": "# Başlık"}}
        >>> prose(table, "title", "tr"), prose(table, "title", "ko")
        ('# Başlık', '# Title')
    """
    return say(table, key, lesson_language(fixture))


def language_note(table: Prose, fixture: DecompositionFixture | SufficiencyFixture | str) -> str:
    """A note when the lesson is not told in the file's language ("" when it is).

    Examples:
        >>> table = {"title": {"en": "# Title", "tr": "# Başlık"}}
        >>> language_note(table, "tr")
        ''
        >>> language_note(table, "ko")
        "*This lesson's text is not available in the file's language (ko): it is shown in English.*"
    """
    language = lesson_language(fixture)
    if all(language in texts for texts in table.values()):
        return ""
    return (
        "*This lesson's text is not available in the file's language "
        f"({md_text(language)}): it is shown in English.*"
    )


def lesson_record(
    table: Prose, key: str, fixture: DecompositionFixture | SufficiencyFixture | str
) -> dict[str, str]:
    r"""The language a lesson was told in and its title (the section's first heading).

    Handouts print this title on their title page, so it is in the lesson's language too.

    Examples:
        >>> table = {"intro": {"en": "# 01 · Title\n\nWhy.", "tr": "# 01 · Başlık\n\nNeden."}}
        >>> lesson_record(table, "intro", "tr-TR")
        {'language': 'tr', 'title': '01 · Başlık'}
        >>> lesson_record(table, "intro", "ko")["language"]
        'en'
    """
    text = prose(table, key, fixture)
    language = lesson_language(fixture)
    title = next((line.lstrip("#").strip() for line in text.splitlines() if line.strip()), "")
    return {"language": language if language in table[key] else FALLBACK, "title": title}


def file_note(fixture: DecompositionFixture | SufficiencyFixture | ContextLab) -> str:
    """Which file this is (shipped or the user's own), its ``note``, and a draft's warning."""
    words = FILE_WORDS.get(lesson_language(fixture), FILE_WORDS[FALLBACK])
    whose = words[2] if is_shipped(fixture.source) else words[1]
    name = md_text(Path(fixture.source).name)
    parts = [f"**{words[0]}** {whose} {name}"] if fixture.source else []
    if fixture.note:
        parts.append(f"**{words[3]}** {md_text(fixture.note)}")
    if isinstance(fixture, DecompositionFixture) and fixture.is_draft:
        parts.append(
            f"**A draft, not a gold set.** {plural(len(fixture.proposed), 'candidate')} and "
            f"{plural(len(fixture.proposed_units), 'unit')} hold labels a person has not "
            "confirmed (listed as *proposed* below); every figure here counts them as given."
        )
    return "\n\n".join(parts)


def own_exercises(
    fixture: DecompositionFixture | SufficiencyFixture | ContextLab,
) -> list[Exercise]:
    """The exercises the file brings, escaped for Markdown."""
    return [Exercise(md_text(x.question), md_text(x.solution)) for x in fixture.exercises]


def data_message(label: str, value: str) -> str:
    """What to tell the user when a real-data file is absent."""
    folder = default_data_dir()
    where = (
        f"the working directory, the labs folder and {folder}"
        if folder
        else "the working directory and the labs folder"
    )
    return (
        f"{label}: {value!r} not found (looked in {where}); this part is skipped. Pass your own "
        "path as a parameter, or the data folder with 'claimlab run --data DIR' or CLAIMLAB_DATA."
    )
