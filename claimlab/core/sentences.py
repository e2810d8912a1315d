"""Sentences of a text, with offsets, for English, Turkish and Thai (and scripts like them).

How a sentence ends:
    * after ``.``, ``!``, ``?``, ``…`` (or a run of them, with closing quotes or brackets)
      followed by white space and then a letter, digit or opening mark that can start a
      sentence; a full stop between digits (``2.1``) or inside a word never ends one;
    * not after a known abbreviation (``Dr.``, ``e.g.``, Turkish ``vb.``, ``örn.``, ...), a
      single capital initial (``J. Smith``), or a number followed by a lower-case word (the
      Turkish ordinal ``7. madde``: "the 7th clause");
    * after ``。``, ``！``, ``？`` (no space needed), and at every line break;
    * Thai writes no full stop: a space between two Thai characters ends a sentence (Thai uses
      the space where other scripts use a full stop or a comma), a space next to Latin text or
      digits (``๕`` as ``5``) does not; a dot right after a Thai letter marks an
      abbreviation (``น.`` for นาฬิกา, "o'clock"; ``พ.ศ.``) and ends nothing.

It is a rule-based splitter, not a trained one: good enough to propose units for a person
to confirm (``claimlab draft``) and to check that every sentence of an answer is covered by a
cited claim; a file's own units always win over it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from claimlab.core.spans import utf16_len

ABBREVIATIONS = frozenset(
    {
        # English
        "dr", "mr", "mrs", "ms", "prof", "st", "vs", "etc", "e.g", "i.e", "no", "fig", "approx",
        "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
        # Turkish
        "vb", "örn", "bkz", "yy", "sn", "doç", "av", "müh", "alb", "yrd", "s", "md",
    }
)  # fmt: skip
_END = re.compile(r"[.!?…]+[\"'”’»)\]]*")
_WIDE_END = re.compile(r"[。！？]+")
_THAI = "\u0e00-\u0e4f\u0e5a-\u0e7f"  # Thai letters and marks; Thai digits are digits
_THAI_BREAK = re.compile(rf"(?<=[{_THAI}])[ \u00a0]+(?=[{_THAI}])")
_WORD_BEFORE = re.compile(r"([\w.]+)$")
_SPACES = re.compile(r"\s+")  # the white space str.isspace() knows (the same table)


@dataclass(frozen=True)
class Sentence:
    """One sentence: Python (code point) ``start``/``end``, UTF-16 offsets and its text."""

    start: int
    end: int
    utf16_start: int
    utf16_end: int
    text: str


def _ends_sentence(text: str, dot_start: int, dot_end: int) -> bool:
    """Whether the punctuation run text[dot_start:dot_end] ends a sentence."""
    if dot_end == len(text) or not text[dot_end].isspace():
        return dot_end == len(text)  # the end of the text ends it; "2.1" or "a.b" do not
    spaces = _SPACES.match(text, dot_end)  # the white space after the run, up to what follows
    at = spaces.end() if spaces else dot_end
    if at == len(text):
        return True
    mark = text[dot_start]
    if mark != ".":
        return True  # ! ? … end a sentence before any word
    if dot_start > 0 and "\u0e00" <= text[dot_start - 1] <= "\u0e7f":
        return False  # a Thai abbreviation: "9:30 น. ในวันธรรมดา"
    word = _WORD_BEFORE.search(text, max(0, dot_start - 40), dot_start)  # a bounded look back
    before = word.group(1) if word else ""
    if before.lower().rstrip(".") in ABBREVIATIONS:
        return False
    if len(before) == 1 and before.isupper():
        return False  # an initial: "J. Smith"
    if before.isdigit() and text[at].islower():
        return False  # a Turkish ordinal: "7. madde"
    if before.lower() in ("a.m", "p.m") and text[at].islower():
        return False  # "opens at 7 a.m. on weekdays" (a capital after it starts a sentence)
    return True


def split_sentences(text: str) -> list[Sentence]:
    """The sentences of ``text``, white space around them left out.

    Examples:
        >>> [s.text for s in split_sentences("Version 2.1 reads PDF. It exports notes!")]
        ['Version 2.1 reads PDF.', 'It exports notes!']
        >>> [s.text for s in split_sentences("Talep 7. madde ile iletilir. Onaylanır.")]
        ['Talep 7. madde ile iletilir.', 'Onaylanır.']
        >>> [s.text for s in split_sentences("แอปอ่าน PDF ได้ ส่งออกโน้ตได้")]
        ['แอปอ่าน PDF ได้', 'ส่งออกโน้ตได้']
        >>> [s.text for s in split_sentences("เปิด 9:30 น. ทุกวัน ปิดวันจันทร์")]
        ['เปิด 9:30 น. ทุกวัน', 'ปิดวันจันทร์']
        >>> split_sentences("")
        []
    """
    cuts: set[int] = set()
    for m in _END.finditer(text):
        if _ends_sentence(text, m.start(), m.end()):
            cuts.add(m.end())
    for m in _WIDE_END.finditer(text):
        cuts.add(m.end())
    for m in _THAI_BREAK.finditer(text):
        cuts.add(m.start())
    for m in re.finditer(r"\n", text):
        cuts.add(m.start())
    out: list[Sentence] = []
    start = 0
    at, at16 = 0, 0  # a Python index and its UTF-16 offset, moved forward only (linear time)

    def u16(index: int) -> int:
        nonlocal at, at16
        at16 += utf16_len(text[at:index])
        at = index
        return at16

    for cut in [*sorted(cuts), len(text)]:
        piece = text[start:cut]
        lead = len(piece) - len(piece.lstrip())
        trail = len(piece.rstrip())
        if trail > lead:
            s, e = start + lead, start + trail
            out.append(Sentence(s, e, u16(s), u16(e), text[s:e]))
        start = cut
    return out
