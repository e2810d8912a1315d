"""The reader's primitives: bytes to JSON values with one-line errors, and field-by-field checks.

Every file claimlab reads goes through :func:`read_json` or :func:`iter_jsonl`: the bytes are
decoded as UTF-8 (a byte-order mark is allowed), parsed with ``orjson`` (which refuses NaN,
Infinity, numbers beyond a double and nesting deeper than 1024 levels), and every failure is a
:class:`~claimlab.core.errors.ClaimlabInputError` naming the file, the line and what is wrong.
:class:`Record` then reads one JSON object field by field, so a bad type, a missing field or a
non-finite number is reported with the record id and the field path.
"""

from __future__ import annotations

import gc
import math
import os
import stat
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, TypeVar

import orjson

from claimlab.core.errors import ClaimlabInputError, FixtureError
from claimlab.core.text import clip, nfc

# one picture of a value for every reader's errors (it lives in core: vocab's errors use it too)
from claimlab.core.text import describe as describe
from claimlab.core.vocab import Vocab, unknown

V = TypeVar("V", bound=Vocab)

_MISSING = object()

TYPE_NAMES = {
    str: "a string",
    int: "an integer",
    bool: "true or false",
    list: "a list",
    dict: "an object",
    float: "a number",
    type(None): "null",
}


def read_bytes(path: str | Path, *, error: type[ClaimlabInputError] = ClaimlabInputError) -> bytes:
    """The file's bytes, or a one-line error naming the file (missing, a folder, unreadable).

    Read with the operating system's calls, without a buffered file object: a folder of
    100,000 small files is read a microsecond or two faster a file. A named pipe is read as
    a file (``<(...)`` of a shell), but never waited on for a writer that has not come: it is
    opened without waiting, so a pipe nobody writes to reads as empty. A device (``/dev/zero``
    never ends) or a socket is refused.
    """
    try:
        fd = open_readable(path)
        if fd is None:
            raise error("is a device or a socket, not a file", file=str(path))
        try:
            chunks = []
            while chunk := os.read(fd, 1 << 20):
                chunks.append(chunk)
        finally:
            os.close(fd)
        return b"".join(chunks)
    except IsADirectoryError:
        raise error("is a folder, not a file", file=str(path)) from None
    except OSError as exc:
        raise error(f"cannot read file ({exc.strerror or exc})", file=str(path)) from None


def open_readable(path: str | Path) -> int | None:
    """A descriptor to read ``path`` from, in blocking mode; None for a device or a socket.

    Opened with ``O_NONBLOCK``, so that opening a named pipe does not wait for a writer (the
    open of a pipe nobody writes to would never return, and a C reader waiting in it holds
    off every signal); a pipe's reads then wait for data as usual, and end at once when no
    writer has it open.

    Raises:
        OSError: as :func:`os.open` (a missing file, no permission).
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    mode = os.fstat(fd).st_mode
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode):
        os.close(fd)
        return None
    os.set_blocking(fd, True)
    return fd


def is_plain_file(path: str | Path) -> bool:
    """Whether ``path`` is a regular file (a C reader may be given the path itself)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def decode_utf8(
    data: bytes,
    *,
    file: str,
    record: str | None = None,
    error: type[ClaimlabInputError] = ClaimlabInputError,
) -> str:
    """UTF-8 text (a leading byte-order mark dropped), or an error at the first bad byte."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        where = f"line {line} column {column}" if record is None else f"column {column}"
        raise error(
            f"not UTF-8 text: byte 0x{data[exc.start]:02x} at {where} (save the file as UTF-8)",
            file=file,
            record=record,
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def parse_json_text(
    text: str,
    *,
    file: str,
    record: str | None = None,
    error: type[ClaimlabInputError] = ClaimlabInputError,
) -> Any:
    """One JSON value; NaN, Infinity, too-large numbers and too-deep nesting are refused."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        msg = str(exc.msg).split(":")[0]
        if "surrogate" in msg:  # orjson's wording names the half wrongly at times
            msg = (
                "a \\u escape of half a character (a lone surrogate: a text cannot hold half of "
                "an emoji or other character outside the BMP, nor a span split one)"
            )
        where = f" at line {exc.lineno} column {exc.colno}" if record is None else ""
        if exc.colno and record is not None:
            where = f" at column {exc.colno}"
        raise error(f"not valid JSON: {msg}{where}", file=file, record=record) from None


def _spelt_one_way(raw: str | bytes) -> bool:
    r"""Whether JSON text surely holds only NFC strings: no ``\u`` escape, and NFC as a whole.

    An escape may spell a combining mark, so text holding one is looked at string by string.
    """
    if isinstance(raw, bytes):
        if b"\\u" in raw:
            return False
        return raw.isascii() or unicodedata.is_normalized("NFC", raw.decode("utf-8", "replace"))
    return "\\u" not in raw and (raw.isascii() or unicodedata.is_normalized("NFC", raw))


def nfc_json(
    value: Any,
    *,
    as_written: frozenset[str] = frozenset(),
    file: str = "",
    raw: str | bytes | None = None,
) -> Any:
    r"""A parsed JSON value with every string and key in NFC (:func:`claimlab.core.text.nfc`).

    The one place a file's text gets one spelling: every reader applies it to what it parsed,
    so an id, a value, an entity or a label written composed or decomposed compares equal.
    ``as_written`` names fields whose values (all of them, nested too) stay exactly as written:
    texts that offsets point into (a decomposition's ``text`` fields, a raw answer), since
    composing characters moves every offset after them. A value already in one spelling is
    returned as it is (checked in C on ``raw``, the text it was parsed from, or on the value
    written again, without a walk).

    Raises:
        ClaimlabInputError: two keys of one object that are one name once composed.

    Examples:
        >>> nfc_json({"e\u0301": ["d\u00edas", "di\u0301as"]}) == {"\u00e9": ["d\u00edas"] * 2}
        True
        >>> d = nfc_json({"text": "i\u0301", "id": "i\u0301"}, as_written=frozenset({"text"}))
        >>> d["text"] == "i\u0301", d["id"] == "\u00ed"
        (True, True)
    """
    if raw is not None and _spelt_one_way(raw):
        return value
    try:
        if _spelt_one_way(orjson.dumps(value)):
            return value
    except (TypeError, orjson.JSONEncodeError):
        pass
    return _nfc_walk(value, as_written, file)


def _nfc_walk(value: Any, as_written: frozenset[str], file: str) -> Any:
    """:func:`nfc_json`'s walk, depth first in file order, with an explicit stack.

    No recursion: a value nested as deep as the parser allows (1,024 levels) is walked within
    any interpreter's recursion limit. A container is placed in its parent before its own
    items are walked, so the first name written twice is found where a recursive walk would.
    """
    root = _nfc_copy(value)
    stack: list[tuple[Iterator[Any], Any]] = []
    _push(stack, value, root)
    while stack:
        rest, out = stack[-1]
        nxt: Any = next(rest, _MISSING)
        if nxt is _MISSING:
            stack.pop()
            continue
        if isinstance(out, list):
            child = _nfc_copy(nxt)
            out.append(child)
        else:
            key, nxt = nxt
            name = nfc(key)
            if name in out:
                raise ClaimlabInputError(
                    f"the name {name!r} is written twice (composed and decomposed): one spelling",
                    file=file or None,
                    field=name,
                )
            if key in as_written:
                out[name] = nxt
                continue
            child = out[name] = _nfc_copy(nxt)
        _push(stack, nxt, child)
    return root


def deeper_than(value: Any, limit: int) -> bool:
    """Whether lists and objects in ``value`` nest more than ``limit`` levels (no recursion).

    Examples:
        >>> deeper_than([[1]], 2), deeper_than([[[1]]], 2), deeper_than("[[[", 0)
        (False, True, False)
    """
    return deep_place(value, limit) is not None


def deep_place(value: Any, limit: int) -> str | None:
    """The field path of the first list or object nested more than ``limit`` levels, or None.

    Depth first in file order, without recursion; a path longer than 60 characters is cut.

    Examples:
        >>> deep_place({"a": [1, {"b": [[2]]}]}, 3), deep_place({"a": [1]}, 3)
        ('a[1].b', None)
    """
    stack: list[tuple[Any, int, str]] = [(value, 1, "")]
    while stack:
        item, depth, place = stack.pop()
        if not isinstance(item, (list, dict)):
            continue
        if depth > limit:  # its path, cut as a long value is shown (describe)
            return clip(place or "(the whole value)")
        if isinstance(item, dict):
            named = [(v, depth + 1, f"{place}.{k}" if place else str(k)) for k, v in item.items()]
        else:
            named = [(v, depth + 1, f"{place}[{i}]") for i, v in enumerate(item)]
        stack.extend(reversed(named))
    return None


def _push(stack: list[tuple[Iterator[Any], Any]], value: Any, copy: Any) -> None:
    """A container's items onto the walk's stack, with the copy they fill.

    A list holding no list or object (a FEVER sentence, a span's bounds) is filled at once:
    nothing in it is walked further, and it holds no name that could be written twice.
    """
    if isinstance(value, dict):
        stack.append((iter(value.items()), copy))
    elif isinstance(value, list):
        if any(isinstance(item, (list, dict)) for item in value):
            stack.append((iter(value), copy))
        else:
            copy.extend([nfc(item) if isinstance(item, str) else item for item in value])


def _nfc_copy(value: Any) -> Any:
    """A string composed, an empty list or dict to fill for a container, any other value as is."""
    if isinstance(value, str):
        return nfc(value)
    if isinstance(value, list):
        return []
    if isinstance(value, dict):
        return {}
    return value


def read_text(path: str | Path) -> str:
    """A UTF-8 text file (ids one a line, ``@FILE``), in NFC: one line naming the file on error."""
    return nfc(decode_utf8(read_bytes(path), file=str(path)))


def at_file(arg: str, *, option: str) -> tuple[str, list[str]] | None:
    """An ``@FILE`` argument as ``(the file, its lines)``; None for any other argument.

    Raises:
        ClaimlabInputError: ``@`` alone (no file named), or the file cannot be read as text.
    """
    if not arg.startswith("@"):
        return None
    path = arg[1:]
    if not path:
        raise ClaimlabInputError(
            "@ names no file: write @FILE (e.g. @ids.txt)", field=option or None
        )
    return path, read_text(path).splitlines()


def read_json(
    path: str | Path,
    *,
    error: type[ClaimlabInputError] = FixtureError,
    as_written: frozenset[str] = frozenset(),
    max_depth: int | None = None,
    data: bytes | None = None,
) -> Any:
    """Parse a JSON file, turning I/O, encoding and syntax errors into one line naming the file.

    Every string comes back in NFC but those under ``as_written`` (see :func:`nfc_json`).
    ``max_depth``: for a document a command copies and writes again (its unknown fields
    kept), lists and objects nested deeper are refused, naming the first such field.
    ``data``: the file's bytes, when the caller has read them already (a pipe reads once).
    """
    source = str(path)
    data = read_bytes(path, error=error) if data is None else data
    text = decode_utf8(data, file=source, error=error)
    value = parse_json_text(text, file=source, error=error)
    if max_depth is not None and (place := deep_place(value, max_depth)) is not None:
        raise error(
            f"nests lists or objects deeper than {max_depth} levels: a document this command "
            "writes again holds no such value",
            file=source,
            field=place,
        )
    return nfc_json(value, as_written=as_written, file=source, raw=text)


WRITTEN_DEPTH = 100  # a document a command writes again (spans, check, sufficiency-cases)


TYPED_FROM = 1 << 22  # 4 MiB: below it, importing msgspec costs more than typed lines save


def iter_jsonl(
    path: str | Path,
    *,
    as_written: frozenset[str] = frozenset(),
    typed: tuple[Callable[[], Any], Callable[[Any], Any]] | None = None,
    data: bytes | None = None,
) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, value)`` for every non-blank line of a JSON Lines file (from 1).

    Every string comes back in NFC but those under ``as_written`` (see :func:`nfc_json`).

    ``typed``: a large file's fast path, ``(decoder, convert)``: a function giving a ``msgspec``
    decoder of a well-formed line (a line type declaring every field, unknown fields forbidden)
    and one turning a decoded line into what to yield (the caller's record), or None. For a
    file of :data:`TYPED_FROM` bytes or more, valid UTF-8 and spelt one way, a line decoded and
    converted is yielded as the record; a line either refuses is parsed as any other line, so
    the caller's own checks name what is wrong. A smaller file never imports msgspec.
    ``data``: the file's bytes, when the caller has read them already (a pipe reads once).

    Raises:
        ClaimlabInputError: unreadable file, a line that is not UTF-8 or not JSON.
    """
    source = str(path)
    data = read_bytes(path) if data is None else data
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    # a file spelt one way has every line spelt one way (a line break composes with nothing,
    # so NFC text cut at one is NFC on both sides): checked once, not line by line
    plain = _spelt_one_way(data)
    decode = _typed_lines(data, typed) if plain and typed is not None else None
    # an ASCII file that is not spelt one way holds \u escapes: only the lines holding one can
    # spell a string two ways (FEVER's files: 1,011 lines of 20,000)
    ascii_escapes = not plain and data.isascii()
    for n, raw in enumerate(data.split(b"\n"), 1):
        if not raw.strip():
            continue
        if decode is not None and (record := decode(raw)) is not None:
            yield n, record
            continue
        try:
            value = orjson.loads(raw)
        except orjson.JSONDecodeError:
            text = decode_utf8(raw, file=source, record=f"line {n}")
            value = parse_json_text(text, file=source, record=f"line {n}")
        if plain or (ascii_escapes and b"\\u" not in raw):
            yield n, value
        else:
            yield n, nfc_json(value, as_written=as_written, file=source, raw=raw)


def _typed_lines(
    data: bytes, typed: tuple[Callable[[], Any], Callable[[Any], Any]]
) -> Callable[[bytes], Any] | None:
    """A function giving one line's record (None where the decoder or the conversion refuse it).

    None for a small file (see :func:`iter_jsonl`). A typed decoder skips what its line type
    does not name without checking the bytes, so the whole file is checked as UTF-8 first (once,
    in C), and unknown fields are left to the line type to forbid.
    """
    if len(data) < TYPED_FROM:
        return None
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return None
    import msgspec

    decoder, convert = typed[0](), typed[1]
    refused = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)

    def decode(raw: bytes) -> Any:
        try:
            line = decoder.decode(raw)
        except refused:
            return None
        return convert(line)

    return decode


def typed_document(
    data: bytes, typed: tuple[Callable[[], Any], Callable[[Any], Any]]
) -> Any | None:
    """A large JSON document through ``typed``: a decoder of the whole and its conversion.

    As :func:`iter_jsonl` reads a line: the converted document, or None for a file below
    :data:`TYPED_FROM` bytes, not spelt one way, not UTF-8, or one the decoder or the
    conversion refuse; the caller then reads the file as before, so its own checks name what is
    wrong.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if len(data) < TYPED_FROM or not _spelt_one_way(data):
        return None
    decode = _typed_lines(data, typed)
    return None if decode is None else decode(data)


def typed_list(
    data: bytes, typed: tuple[Callable[[], Any], Callable[[Any], Any]]
) -> list[Any] | None:
    """A large JSON list's records through ``typed``, the decoder and conversion of one record.

    ``typed`` as :func:`iter_jsonl` takes it (a line's decoder serves as an item's): the
    records, or None where :func:`typed_document` gives None, for a document that is not a
    list, and where any record is refused.
    """
    if not data[:64].lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"["):
        return None
    item, convert = typed

    def decoder() -> Any:
        import msgspec

        return msgspec.json.Decoder(list[item().type])  # type: ignore[misc]

    def convert_all(items: list[Any]) -> list[Any] | None:
        out = [convert(x) for x in items]
        return None if any(x is None for x in out) else out

    return typed_document(data, (decoder, convert_all))


def strict_struct(
    name: str, fields: list[tuple[Any, ...]], rename: dict[str, str] | None = None
) -> Any:
    """A msgspec struct of a well-formed JSON object (a line, or an object inside one).

    ``fields`` as :func:`msgspec.defstruct` takes them; every field the object may hold is named
    (an unknown one is refused, so the line goes its reader's way), and the records are left
    out of the garbage collector's view (acyclic). ``rename``: a field's name in the file where
    it differs (``{"id": "_id"}``). Imports msgspec: call it for a large file.
    """
    import msgspec

    return msgspec.defstruct(name, fields, gc=False, forbid_unknown_fields=True, rename=rename)


def line_decoder(
    name: str, fields: list[tuple[Any, ...]], rename: dict[str, str] | None = None
) -> Any:
    """A msgspec decoder of a well-formed JSON Lines line (for :func:`iter_jsonl`'s ``typed``)."""
    import msgspec

    return msgspec.json.Decoder(strict_struct(name, fields, rename))


def int64(ge: int = -(2**63)) -> Any:
    """An integer type for :func:`line_decoder`: at least ``ge``, within the signed 64 bits.

    orjson reads an integer beyond 64 bits as a float, which every reader refuses where it wants
    an integer: a typed line refuses it too (msgspec bounds stop at 64 bits), so it goes its
    reader's way and gets that reader's verdict.
    """
    from msgspec import Meta

    return Annotated[int, Meta(ge=ge, le=2**63 - 1)]


@contextmanager
def bulk_load(*, freeze: bool = False) -> Iterator[None]:
    """Pause the cyclic garbage collector while a file becomes records.

    Parsing builds millions of small, acyclic objects; each generation-0 collection would scan
    them all again (on FEVER's 200,000 lines, GC took 85 % of parsing time). Nothing made
    here can form a cycle, so nothing is lost by collecting once at the end instead.

    ``freeze``: the process ends when this does (the ``claimlab`` program running a command,
    not a caller of ``main``). What was built is then frozen at the end (``gc.freeze``), so
    neither the collector's next pass nor the one at exit walks the millions of records of a
    large folder again (half a second each at 100,000 answers). Never in a long-lived
    process: frozen objects are not collected.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if was_enabled:
            gc.enable()


def where(n: int, rec_id: Any = None) -> str:
    """``"line 12"`` or ``"line 12 (id 91198)"``."""
    return f"line {n}" if rec_id is None else f"line {n} (id {rec_id})"


def is_number(value: Any) -> bool:
    """An int or float that is not a bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Record:
    """A JSON object being read, remembering its file, record id and field path for errors."""

    def __init__(
        self,
        data: Any,
        *,
        file: str,
        record: str | None = None,
        path: str = "",
        error: type[ClaimlabInputError] = FixtureError,
        nulls_absent: bool = False,
    ) -> None:
        self.file = file
        self.record = record
        self.path = path
        self.error_type = error
        # claimlab's own formats: a field read with a default reads null as absent (the objects
        # this one hands out keep the rule); formats read as others define them do not
        self.nulls_absent = nulls_absent
        if not isinstance(data, dict):
            raise self.error(f"must be an object, got {describe(data)}", field=path or None)
        self.data: dict[str, Any] = data

    def error(self, problem: str, *, field: str | None = None) -> ClaimlabInputError:
        """Build this reader's error (FixtureError by default) for this record."""
        return self.error_type(problem, file=self.file, record=self.record, field=field)

    def field(self, name: str) -> str:
        """The full field path of ``name`` inside this record."""
        return f"{self.path}.{name}" if self.path else name

    def get(
        self,
        name: str,
        kind: type | tuple[type, ...],
        default: Any = _MISSING,
        *,
        want: str | None = None,
    ) -> Any:
        """Read a field, checking its type; a missing field without default is an error.

        Numbers must be finite; ``true``/``false`` are never integers. ``want`` names the
        expected value in the error (``"a list of groups"``) instead of the type names.
        """
        if name not in self.data or self._null_as_absent(name, default):
            if default is _MISSING:
                raise self.error("missing required field", field=self.field(name))
            return default
        value = self.data[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        ok = isinstance(value, kinds)
        if ok and bool not in kinds and isinstance(value, bool):
            ok = False  # JSON true is not an integer here
        if not ok:
            if want is None:
                numbers = int in kinds and float in kinds
                want = " or ".join(
                    TYPE_NAMES.get(k, k.__name__) for k in kinds if not (numbers and k is int)
                )
            raise self.error(f"must be {want}, got {describe(value)}", field=self.field(name))
        if isinstance(value, float) and not math.isfinite(value):
            raise self.error(f"must be a finite number, got {value!r}", field=self.field(name))
        return value

    def _null_as_absent(self, name: str, default: Any) -> bool:
        """Whether the field is written null and read as absent (see ``nulls_absent``)."""
        return self.nulls_absent and default is not _MISSING and self.data.get(name, 0) is None

    def choice(
        self,
        name: str,
        vocab: type[V],
        what: str,
        default: Any = _MISSING,
        *,
        field: str | None = None,
    ) -> V:
        """Read a string field that must be one of a closed vocabulary's values (its member).

        Examples:
            >>> from claimlab.core.vocab import Status
            >>> Record({"status": "SUPPORTED"}, file="f").choice("status", Status, "status")
            'SUPPORTED'
        """
        value = self.get(name, str, default)
        if isinstance(value, vocab):
            return value
        try:
            return vocab(value)
        except ValueError:
            where = field or self.field(name)
            raise self.error(unknown(what, value, vocab), field=where) from None

    def number(
        self,
        name: str,
        *,
        minimum: float | None = None,
        maximum: float | None = None,
        above: float | None = None,
        default: Any = _MISSING,
        integer: bool = False,
    ) -> Any:
        """Read a finite number (an integer when ``integer``) within the given bounds."""
        kinds: tuple[type, ...] = (int,) if integer else (int, float)
        if default is not _MISSING and (
            name not in self.data or self._null_as_absent(name, default)
        ):
            return default
        value = self.get(name, kinds)
        if integer and isinstance(value, float):  # pragma: no cover - get() refuses it
            raise self.error(f"must be an integer, got {value!r}", field=self.field(name))
        check_range(
            value,
            minimum=minimum,
            maximum=maximum,
            above=above,
            file=self.file,
            record=self.record,
            field=self.field(name),
        )
        return value

    def str_list(self, name: str, default: Any = _MISSING) -> tuple[str, ...]:
        """Read a list of strings."""
        items = self.get(name, list, default)
        for i, item in enumerate(items):
            if not isinstance(item, str):
                raise self.error(
                    f"must be a string, got {describe(item)}", field=f"{self.field(name)}[{i}]"
                )
        return tuple(items)

    def texts(self, name: str, default: Any = _MISSING) -> tuple[str, ...]:
        """Read a list of texts, each holding some text (not only white space)."""
        items = self.str_list(name, default)
        for i, text in enumerate(items):
            if not text.strip():
                raise self.error("must hold some text", field=self.field(f"{name}[{i}]"))
        return items

    def sub(self, name: str) -> Record:
        """Read a nested object."""
        return Record(
            self.get(name, dict),
            file=self.file,
            record=self.record,
            path=self.field(name),
            error=self.error_type,
            nulls_absent=self.nulls_absent,
        )

    def records(self, name: str, *, id_field: str | None = "id") -> Iterator[tuple[int, Record]]:
        """Iterate over a list of objects, each named by its id for errors."""
        yield from records_of(
            self.get(name, list),
            file=self.file,
            where=self.field(name),
            record=self.record,
            id_field=id_field,
        )

    def items(self, name: str, default: Any = _MISSING) -> Iterator[tuple[int, Record]]:
        """Iterate over a list of objects inside this record, each error naming its path.

        Unlike :meth:`records` the items keep this record's id: ``annotations[2].text``.
        """
        for i, item in enumerate(self.get(name, list, default)):
            yield (
                i,
                Record(
                    item,
                    file=self.file,
                    record=self.record,
                    path=f"{self.field(name)}[{i}]",
                    error=self.error_type,
                    nulls_absent=self.nulls_absent,
                ),
            )

    def mapping(self, name: str, default: Any = _MISSING) -> Iterator[tuple[str, Any]]:
        """Iterate over an object's ``(key, value)`` pairs; keys must be non-empty."""
        data = self.get(name, dict, default)
        for key, value in data.items():
            if not key:
                raise self.error("names must be non-empty", field=self.field(name))
            yield key, value


def records_of(
    items: list[Any],
    *,
    file: str,
    where: str = "",
    record: str | None = None,
    id_field: str | None = "id",
    error: type[ClaimlabInputError] = FixtureError,
    start: int = 0,
) -> Iterator[tuple[int, Record]]:
    """The objects of a list as Records, each named by its id (or its position) in errors.

    ``where`` is the list's field path (``""`` for a file that is a list); an item that is not
    an object is refused, and so is an id that is missing, empty or not a string. ``start``:
    the position of the first item in the whole list (a slice of it given).
    """
    for i, item in enumerate(items, start):
        at = f"{where}[{i}]"
        if not isinstance(item, dict):
            raise error(
                f"must be an object, got {describe(item)}",
                file=file,
                record=record if where else at,
                field=at if where else None,
            )
        rec_id = item.get(id_field) if id_field else None
        if id_field is not None:
            if id_field not in item:
                raise error("missing required field", file=file, record=at, field=id_field)
            if not isinstance(rec_id, str) or not rec_id:
                raise error(
                    f"must be a non-empty string, got {describe(rec_id)}",
                    file=file,
                    record=at,
                    field=id_field,
                )
        yield i, Record(item, file=file, record=rec_id or at, error=error)


def check_range(
    value: float,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    above: float | None = None,
    file: str | None = None,
    record: str | None = None,
    field: str | None = None,
) -> None:
    """Raise a ClaimlabInputError unless ``value`` lies within the bounds (and is finite)."""
    problem = None
    if isinstance(value, float) and not math.isfinite(value):
        problem = f"must be a finite number, got {value!r}"
    elif minimum is not None and value < minimum:
        problem = f"must be at least {minimum:g}, got {value!r}"
    elif above is not None and value <= above:
        problem = f"must be greater than {above:g}, got {value!r}"
    elif maximum is not None and value > maximum:
        problem = f"must be at most {maximum:g}, got {value!r}"
    if problem:
        raise FixtureError(problem, file=file, record=record, field=field)


def check_unique(ids: list[str], *, file: str, field: str) -> None:
    """Raise on the first id that occurs twice."""
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            raise FixtureError(
                f"duplicate id (ids in {field} must be unique)", file=file, record=i, field="id"
            )
        seen.add(i)
