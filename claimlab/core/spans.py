"""UTF-16 offsets <-> Python strings.

Spans in claimlab files count UTF-16 code units with an exclusive end, as JavaScript and most
annotation tools do. Python indexes code points, so a character outside the Basic Multilingual
Plane (an emoji such as U+1F4D8) is one Python index but two UTF-16 units.
"""

from __future__ import annotations


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
