"""UTF-16 offsets <-> Python strings.

Spans in claimlab files count UTF-16 code units with an exclusive end, as JavaScript and most
annotation tools do. Python indexes code points, so a character outside the Basic Multilingual
Plane (an emoji such as U+1F4D8) is one Python index but two UTF-16 units.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Mapping, Sequence


def utf16_len(text: str) -> int:
    r"""Length of ``text`` in UTF-16 code units.

    Examples:
        >>> utf16_len("abc"), utf16_len("\U0001F4D8x"), utf16_len("")
        (3, 3, 0)
    """
    return len(text.encode("utf-16-le")) // 2


def utf16_slice(text: str, start: int, end: int) -> str:
    r"""The substring between UTF-16 offsets ``start`` (inclusive) and ``end`` (exclusive).

    Raises:
        ValueError: when the offsets are out of range, reversed, or split a surrogate pair.

    Examples:
        >>> utf16_slice("\U0001F4D8 Notes", 3, 8)
        'Notes'
    """
    n = utf16_len(text)
    if not (0 <= start <= end <= n):
        raise ValueError(f"span {start}..{end} is outside 0..{n}")
    raw = text.encode("utf-16-le")
    piece = raw[2 * start : 2 * end]
    try:
        return piece.decode("utf-16-le", errors="strict")
    except UnicodeDecodeError as exc:
        raise ValueError(f"span {start}..{end} splits a surrogate pair") from exc


def utf16_offset(text: str, index: int) -> int:
    r"""Convert a Python (code point) index into a UTF-16 offset.

    Examples:
        >>> utf16_offset("\U0001F4D8 Notes", 2)
        3
    """
    return utf16_len(text[:index])


ASTRAL = re.compile("[\U00010000-\U0010ffff]")  # the characters of two UTF-16 units


class Utf16Text:
    r"""One text's UTF-16 view, made once for many spans of it.

    Its length in UTF-16 units, its slices, and the maps between code point indexes and UTF-16
    offsets. Each astral character (two UTF-16 units) is found once; a text without one is
    indexed as it is. An offset or an index is looked up by a binary search over the astral
    characters' places, a slice by one decode of its own units: the cost of a span is that of
    the span, not of the text.

    Examples:
        >>> t = Utf16Text("\U0001F4D8 Notes \U0001F4D8")
        >>> t.n, t.slice(3, 8), [t.offset(i) for i in (0, 1, 2, 8, 9)]
        (11, 'Notes', [0, 2, 3, 9, 11])
        >>> [t.index(off) for off in (0, 1, 2, 3, 11)]
        [0, 1, 1, 2, 9]
    """

    __slots__ = ("text", "n", "_astral", "_raw")

    def __init__(self, text: str) -> None:
        self.text = text
        plain = text.isascii() or ASTRAL.search(text) is None
        self._astral = [] if plain else [i for i, c in enumerate(text) if ord(c) > 0xFFFF]
        self._raw = text.encode("utf-16-le") if self._astral else None
        self.n = len(text) + len(self._astral)

    def offset(self, index: int) -> int:
        """The UTF-16 offset of code point ``index`` (:func:`utf16_offset`)."""
        return index + bisect.bisect_left(self._astral, index) if self._astral else index

    def index(self, offset: int) -> int:
        """The first code point index whose UTF-16 offset is ``offset`` or more.

        An offset inside a surrogate pair gives the character after it.
        """
        if not self._astral:
            return offset
        return bisect.bisect_left(range(len(self.text) + 1), offset, key=self.offset)

    def slice(self, start: int, end: int) -> str:
        """The text between UTF-16 offsets ``start`` and ``end`` (:func:`utf16_slice`).

        The offsets are within ``0..n`` (the caller checks); ValueError when one splits a
        surrogate pair.
        """
        if self._raw is None:
            return self.text[start:end]
        try:
            return self._raw[2 * start : 2 * end].decode("utf-16-le", errors="strict")
        except UnicodeDecodeError as exc:
            raise ValueError(f"span {start}..{end} splits a surrogate pair") from exc


def utf16_offsets(text: str) -> Callable[[int], int]:
    r"""The function ``i -> utf16_offset(text, i)``, made once for many indexes of one text.

    It is :meth:`Utf16Text.offset`.

    Examples:
        >>> to16 = utf16_offsets("\U0001F4D8 Notes \U0001F4D8")
        >>> [to16(i) for i in (0, 1, 2, 8, 9)]
        [0, 2, 3, 9, 11]
    """
    return Utf16Text(text).offset


def find_utf16(text: str, needle: str, start: int = 0) -> tuple[int, int]:
    """UTF-16 ``(start, end)`` of the first occurrence of ``needle`` at or after code point ``start``.

    Raises:
        ValueError: when ``needle`` does not occur.
    """
    i = text.find(needle, start)
    if i < 0:
        raise ValueError(f"{needle!r} does not occur in the text")
    s = utf16_offset(text, i)
    return s, s + utf16_len(needle)


BACKING_SHARE = 0.5  # a span backs a unit when more than this share of it lies inside the unit


def span_backs(
    span: tuple[int, int],
    span_text: str,
    unit: tuple[int, int],
    unit_text: str,
    *,
    share: float = BACKING_SHARE,
) -> bool:
    r"""Whether a source span backs a content unit: the span lies in the unit.

    The rule, counted in characters: most of the span's *own* length falls inside the unit
    (more than half of its characters, and at least ``share`` of them when a file asks for
    more, up to 1: the whole span), and more than one character does. The unit's length does
    not enter: a short quote of part of a sentence backs that sentence however long it is, so
    splitting a claim into atomic claims that quote its parts (two characters or more each)
    never loses a unit it backed: if most of a span lies in a unit, most of one of its parts
    does. A span mostly elsewhere backs nothing; a one-character overlap backs nothing; an
    empty span or a unit of no length is never backed. Offsets are UTF-16 (``span``,
    ``unit``) and the texts are those slices, so an astral character is one character.

    Examples:
        >>> unit = "x" * 30
        >>> span_backs((10, 14), "xxxx", (0, 30), unit)  # a third of a sentence, all inside it
        True
        >>> span_backs((25, 40), "x" * 15, (0, 30), unit)  # 5 of 15 inside: mostly elsewhere
        False
        >>> span_backs((29, 30), "x", (0, 30), unit)  # one character
        False
        >>> span_backs((0, 2), "\U0001f4d8", (0, 2), "\U0001f4d8")  # one astral character
        False
    """
    start, end = span
    u_start, u_end = unit
    a, b = max(start, u_start), min(end, u_end)
    if b - a < 2:  # fewer than two UTF-16 units: at most one character
        return False
    if span_text.isascii():  # one UTF-16 unit a character, inside the span as in all of it
        inside, length = b - a, end - start
    else:
        inside = len(utf16_slice(unit_text, a - u_start, b - u_start))
        length = len(span_text)
    return inside >= 2 and 2 * inside > length and inside >= share * length - 1e-9


def backing_rule(share: float = BACKING_SHARE) -> str:
    """The rule of :func:`span_backs` in words, for a reason shown beside a unit not counted.

    Examples:
        >>> backing_rule()
        "more than half of a source span's own length (and more than one character) inside the unit"
        >>> backing_rule(0.8)[:11]
        'at least 80'
    """
    need = "more than half" if share <= BACKING_SHARE else f"at least {share:.0%}"
    return f"{need} of a source span's own length (and more than one character) inside the unit"


def unbacked_line(
    unbacked: Mapping[str, Sequence[str]], *, show: int = 5, total: int | None = None
) -> str:
    """The claims whose ``preserves`` their own spans do not back, with their count ("" none).

    ``unbacked`` maps a claim to the units it preserves that none of its spans backs (see
    :func:`span_backs`); the first ``show`` claims are named; ``total`` is their count when
    ``unbacked`` holds only the first of them. Plain text: escape it where shown.

    Examples:
        >>> unbacked_line({"b": ["y"], "d": ["x", "z"]})
        '2 claims preserve units their source spans do not back (not counted): b (y), d (x, z)'
        >>> unbacked_line({"b": ["y"], "d": ["x"]}, show=1)
        '2 claims preserve units their source spans do not back (not counted): b (y), ... 1 more'
        >>> unbacked_line({})
        ''
    """
    n = len(unbacked) if total is None else total
    if not n:
        return ""
    named = [f"{cid} ({', '.join(units)})" for cid, units in list(unbacked.items())[:show]]
    more = f", ... {n - len(named)} more" if n > len(named) else ""
    what = "1 claim preserves units its" if n == 1 else f"{n} claims preserve units their"
    return f"{what} source spans do not back (not counted): {', '.join(named)}{more}"
