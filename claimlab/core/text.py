"""Text from a file is data: escape it for the place it is shown (Markdown, terminal).

Every string that comes from a user's file (ids, texts, titles, mode and model names) may hold
markup, TeX, control characters or line breaks. The helpers here turn it into text that shows
literally where it lands; views and the command line call them at the point of display.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
from collections.abc import Callable, Collection, Iterator
from typing import Any

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|~$-])")  # ">" becomes &gt; below
# C0 controls but tab and line feed, DEL, C1 controls, and the bidirectional overrides and
# isolates that reorder what a terminal shows (the "Trojan source" characters)
_TERMINAL_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)  # and the line and paragraph separators, which end a line for many readers
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def md_text(text: object) -> str:
    r"""Escape untrusted text for Markdown that is rendered to HTML (tags, Markdown syntax, TeX).

    ``$`` is escaped too, so a dollar sign in a name never starts mathematics, and line breaks
    become spaces, so a name cannot start a heading or a list of its own.

    Examples:
        >>> md_text("<img src=x onerror=alert(1)> *bold*")
        '&lt;img src=x onerror=alert\\(1\\)&gt; \\*bold\\*'
        >>> md_text("costs $5")
        'costs \\$5'
        >>> md_text("it's")
        'it&#x27;s'
    """
    import html

    body = " ".join(str(text).splitlines())
    # Markdown first, entities second: escaping the "#" of an entity (&#x27;) would show it
    return html.escape(_MD_SPECIAL.sub(r"\\\1", body), quote=True)


def md_code(text: object) -> str:
    r"""Untrusted text as a Markdown code span: shown literally, escaped by the renderer.

    Inside a code span backslash escapes and entities stay literal, so :func:`md_text` would
    show its escapes there; the fence is one backtick longer than any run of backticks in the
    text, and line breaks become spaces.

    Examples:
        >>> md_code("demo_candidates.parquet")
        '`demo_candidates.parquet`'
        >>> md_code("a `b` <i>")
        '``a `b` <i>``'
        >>> md_code("`x")
        '`` `x ``'
    """
    body = " ".join(str(text).splitlines())
    runs = [len(m) for m in re.findall(r"`+", body)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if body.startswith("`") or body.endswith("`") else ""
    return f"{fence}{pad}{body}{pad}{fence}"


def md_ids(ids: object) -> str:
    """Comma-separated escaped ids, or ``(none)``."""
    items = [str(i) for i in ids]  # type: ignore[attr-defined]
    return ", ".join(md_text(i) for i in items) if items else "(none)"


def _visible(match: re.Match[str]) -> str:
    c = match.group(0)
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal(text: object) -> str:
    r"""Text safe to print on a terminal: control characters shown as ``\xNN`` escapes.

    Tab and line feed stay; an escape sequence (ESC ``[31m``), a carriage return that would
    overwrite a line, C1 controls and bidirectional overrides are made visible instead of
    obeyed.

    Examples:
        >>> terminal("red\x1b[31m id\rX")
        'red\\x1b[31m id\\x0dX'
        >>> terminal("Ürün ร้าน")
        'Ürün ร้าน'
    """
    return _TERMINAL_UNSAFE.sub(_visible, str(text))


JOINERS = "\u200c\u200d"  # zero-width non-joiner and joiner: part of Indic and Persian spelling


def is_mark(ch: str) -> bool:
    r"""Whether a character belongs to the letter before it: a combining mark, or a joiner.

    A word pattern (``\w``) leaves them out, though ``รถเมล์`` without its last sign, or
    ``ข้าว`` (rice) without its tone mark (``ข่าว``, news), is another word.

    Examples:
        >>> [is_mark(c) for c in "ร์\u0301a-\u200d"]
        [False, True, True, False, False, True]
    """
    return ch in JOINERS or unicodedata.category(ch)[0] == "M"


def marks_kept(sep: str) -> Callable[[re.Match[str]], str]:
    r"""A replacement for runs of non-word characters: ``sep`` once per stretch, marks kept.

    Examples:
        >>> re.sub(r"[\W_]+", marks_kept(" "), "ร้านนี้ ขาย, ข้าว")
        'ร้านนี้ ขาย ข้าว'
        >>> re.sub(r"[^\w.-]+", marks_kept("_"), "a /b")
        'a_b'
    """

    def replace(run: re.Match[str]) -> str:
        text = run.group()
        if text.isascii():  # no mark: the common run of spaces and punctuation
            return sep
        out: list[str] = []
        for ch in text:
            if is_mark(ch):
                out.append(ch)
            elif not out or out[-1] != sep:
                out.append(sep)
        return "".join(out)

    return replace


def fold_is(folded: str) -> str:
    """A case-folded text with Turkish i's read alike (``KAPI``, ``kapı``; ``İZMİR``, ``izmir``).

    Case folding alone gives ``I`` as ``i`` (Turkish: ``ı``) and ``İ`` as ``i`` with a dot
    above; every one of them is ``i`` here.

    Examples:
        >>> fold_is("BİSİKLET KAPI".casefold()) == fold_is("bisiklet kapı".casefold())
        True
    """
    if folded.isascii():
        return folded
    return folded.replace("i\u0307", "i").replace("ı", "i")


@functools.lru_cache(maxsize=1 << 16)
def same_claim_key(fingerprint: str) -> str:
    """A fingerprint as repeats are found: ``Library|OPENS|9`` repeats ``library|opens|9``.

    In NFC, white space as one space, case folded, Turkish i's alike (:func:`fold_is`).

    Examples:
        >>> same_claim_key(" İSTANBUL|Eczane ") == same_claim_key("istanbul|eczane")
        True
    """
    if fingerprint.isascii() and not _ODD_SPACE.search(fingerprint):
        return fingerprint.lower()
    one = " ".join(unicodedata.normalize("NFC", fingerprint).split())
    return fold_is(one.casefold())


_ODD_SPACE = re.compile(r"^\s|\s$|\s\s|[^\S ]")


def one_line(text: object) -> str:
    r"""Terminal-safe text on one line: line breaks shown as ``\n``.

    Examples:
        >>> one_line("a\nb\tc")
        'a\\nb\tc'
    """
    return terminal(str(text).replace("\n", "\\n"))  # "\r\n" shows its "\r": not "\n"


ERROR_WIDTH = 2000  # an error line's characters at most: a 10 MB id is not echoed whole


def error_line(text: object) -> str:
    r"""An error for one line of a terminal (:func:`one_line`), cut at :data:`ERROR_WIDTH`.

    The file, record and field come first in every message, so what is cut is the tail of a
    value the message quotes.

    Examples:
        >>> error_line("ids.txt: " + "x" * 5000)[-36:]
        'xxxxx... (3,009 more characters cut)'
    """
    raw = str(text)
    if len(raw) > ERROR_WIDTH:
        raw = f"{raw[:ERROR_WIDTH]}... ({len(raw) - ERROR_WIDTH:,} more characters cut)"
    return one_line(raw)


def json_safe(serialised: str) -> str:
    r"""JSON text with C1 controls and bidirectional overrides written as ``\uXXXX`` escapes.

    JSON already escapes C0 controls; these are the ones ``ensure_ascii=False`` would print raw.
    The result parses to the same value.
    """
    if serialised.isascii() and "\x7f" not in serialised:
        return serialised  # none of them (a str knows it is ASCII without a pass)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", serialised)


def cap_bytes(text: str, limit: int) -> str:
    """The longest prefix of ``text`` whose UTF-8 form fits in ``limit`` bytes (file names).

    Examples:
        >>> cap_bytes("ayşe", 4)
        'ayş'
    """
    raw = text.encode("utf-8")
    if len(raw) <= limit:
        return text
    return raw[:limit].decode("utf-8", errors="ignore")


def plural(n: int, one: str, many: str | None = None) -> str:
    """A count with its noun in the right number.

    Examples:
        >>> plural(1, "span"), plural(2, "span"), plural(0, "file"), plural(3, "reply", "replies")
        ('1 span', '2 spans', '0 files', '3 replies')
    """
    return f"{n} {one if n == 1 else (many or one + 's')}"


def did_you_mean(word: str, choices: Collection[str]) -> str:
    """`` (did you mean X?)`` for the closest choice, or "" when none is close.

    Examples:
        >>> did_you_mean("FIXTUR", ["FIXTURE", "MODES"])
        ' (did you mean FIXTURE?)'
        >>> did_you_mean("zzz", ["FIXTURE"])
        ''
    """
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def nfc(text: str) -> str:
    r"""One spelling of a text: its Unicode NFC form (composed), as every comparison sees it.

    "días" may be written with one code point for "í" or with "i" and a combining accent;
    read from a file or the command line, both become the composed form once, at the edge.

    Examples:
        >>> nfc("di\u0301as") == "d\u00edas"
        True
        >>> nfc("plain")
        'plain'
    """
    if text.isascii() or unicodedata.is_normalized("NFC", text):
        return text
    return unicodedata.normalize("NFC", text)


def label_text(value: object) -> str:
    """A verdict's label as shown: ``yes``/``no``, a number, a text, ids or ``none``; ``-`` absent.

    Examples:
        >>> label_text(True), label_text(3), label_text(("d1", "d2")), label_text(()), label_text(None)
        ('yes', '3', 'd1, d2', 'none', '-')
    """
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(map(str, value)) if value else "none"
    return str(value)


_END = object()  # an exhausted container in repr_prefix


def clip(text: str, width: int = 60) -> str:
    """``text``, or its first ``width - 3`` characters and ``...`` when it is longer.

    Examples:
        >>> clip("short"), clip("x" * 70)[-5:], len(clip("x" * 70))
        ('short', 'xx...', 60)
    """
    return text if len(text) <= width else text[: width - 3] + "..."


def describe(value: Any) -> str:
    """A short, one-line picture of a value for an error message: its ``repr``, cut at 60.

    Only the characters shown are built (:func:`repr_prefix`), so a value nested as deep as
    the parser allows, or a list of a million items, is shown at the cost of a short one.

    Examples:
        >>> describe([[1, "a"], {"k": None}]), describe(list(range(100)))[-8:]
        ("[[1, 'a'], {'k': None}]", '5, 16...')
    """
    return clip(repr_prefix(value, 60))


def as_text(value: Any) -> str:
    """A JSON value as text: a string as it is, any other value as ``str`` writes it.

    For a JSON value ``str`` is ``repr``, written here without recursion (:func:`repr_prefix`),
    so a free-text field given a list nested as deep as the parser allows still reads.

    Examples:
        >>> as_text("ก"), as_text([1, {"a": None}]), as_text(2.5)
        ('ก', "[1, {'a': None}]", '2.5')
    """
    return value if isinstance(value, str) else repr_prefix(value, sys.maxsize)


def repr_prefix(value: Any, limit: int) -> str:
    """``repr(value)`` whole, or a prefix of it longer than ``limit`` characters.

    Lists and dicts are written piece by piece with an explicit stack (no recursion, whatever
    the depth), and the writing stops once more than ``limit`` characters are written; any
    other value is its own ``repr``.
    """
    out: list[str] = []
    size = 0
    stack: list[tuple[Iterator[Any], str, bool]] = []  # open containers: rest, closing, dict
    item, pending = value, True
    while True:
        if pending:
            piece = _open(item, stack)
            out.append(piece)
            size += len(piece)
        if size > limit or not stack:
            return "".join(out)
        rest, closing, is_dict = stack[-1]
        nxt: Any = next(rest, _END)
        if nxt is _END:
            stack.pop()
            out.append(closing)
            size += 1
            pending = False
            continue
        first = out[-1] in ("[", "{")
        if is_dict:
            key, item = nxt
            sep = f"{'' if first else ', '}{key!r}: "
        else:
            item, sep = nxt, "" if first else ", "
        out.append(sep)
        size += len(sep)
        pending = True


def _open(item: Any, stack: list[tuple[Iterator[Any], str, bool]]) -> str:
    """The first piece of ``item``'s repr: a container's bracket (its rest pushed), or all."""
    if type(item) is list:
        stack.append((iter(item), "]", False))
        return "["
    if type(item) is dict:
        stack.append((iter(item.items()), "}", True))
        return "{"
    return repr(item)
