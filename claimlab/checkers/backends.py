"""The checkers ``--checker`` names: ``lexical``, ``python:``, ``command:`` and ``openai:``.

* ``python:MODULE:ATTR``: ``ATTR`` of an importable module, a callable or a class (made with no
  arguments; its instance is called, or its ``check`` method). It is called with a list of
  :class:`~claimlab.checkers.verdicts.Item` and returns one answer per item, in order: a label
  word or ``{"label", "probability"?, "used"?}``. Its ``version`` attribute, if any, is part of
  the cache key. It runs in this process: ``--timeout`` does not stop it (Python code is not
  interrupted), ``--workers`` does not apply (one batch at a time).
* ``command:"CMD ARGS"``: a program in any language, started once per batch. It reads one JSON
  object a line on standard input, ``{"id", "claim", "passages": [...], "repeat"}``, and writes
  one a line on standard output, ``{"id", "label", "probability"?, "used"?}``, in any order,
  in UTF-8 (a line that is not UTF-8 is refused by its number); a nonzero exit is a failed call
  (tried again). It runs in a process group of its own: at ``--timeout`` the whole group is
  killed, so a child it started that holds its output does not keep the run waiting.
* ``openai:URL`` with ``--model NAME``: an OpenAI-compatible ``/v1/chat/completions`` endpoint
  (vLLM, Ollama, llama.cpp's server, TGI). One request per item with :data:`PROMPT_VERSION`'s
  prompt (:data:`SYSTEM_PROMPT`, :func:`user_prompt`); the reply's message is one JSON object,
  ``{"label", "probability"?, "used": [passage numbers from 1]}``. The key, if the server wants
  one, is read from the environment variable :data:`KEY_VARIABLE`, never from the command line,
  and is never written anywhere.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import selectors
import shlex
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from claimlab.checkers.lexical import LexicalChecker
from claimlab.checkers.verdicts import (
    CheckerAnswerError,
    CheckerFailed,
    CheckerUnavailable,
    Item,
    items_named,
)
from claimlab.core.errors import ClaimlabInputError
from claimlab.core.processes import end_group, end_session

KEY_VARIABLE = "CLAIMLAB_CHECKER_KEY"
PROMPT_VERSION = "claimlab-check-v1"
SYSTEM_PROMPT = (
    "You check one claim against numbered evidence passages. Answer with one JSON object and "
    'nothing else: {"label": "SUPPORTED" | "CONTRADICTED" | "NOT_IN_REFERENCE", "probability": '
    'a number from 0 to 1 (how likely your label is right), "used": [the numbers of the passages '
    "you relied on]}. SUPPORTED: the passages state what the claim says. CONTRADICTED: the "
    "passages state something that cannot be true together with the claim. NOT_IN_REFERENCE: "
    "the passages do neither. Judge from the passages only, not from what you know."
)


class Checker(Protocol):
    """What the runner needs of a checker."""

    name: str
    version: str
    batch_size: int
    workers: int
    cached: bool

    @property
    def parameters(self) -> Mapping[str, Any]:
        """What the labels depend on besides the item (part of the cache key)."""

    def check(self, items: Sequence[Item], *, timeout: float) -> Sequence[object]:
        """One answer per item, in order."""


def user_prompt(item: Item) -> str:
    """The user message for one item: the claim, then the passages numbered from 1."""
    numbered = "\n".join(f"[{n}] {p}" for n, p in enumerate(item.passages, 1))
    return f"Claim: {item.claim}\n\nPassages:\n{numbered or '(none)'}"


def _import_here(module: str) -> Any:
    """The module, from the folder the command runs in first when it is there (as ``python -m``).

    A module or package of the folder the command runs in (``top.py``, ``top/__init__.py``, or a
    folder ``top/`` without one: a namespace package) wins over an installed one of the same top
    name (some installed packages ship a top-level ``tests``); any other module is imported as
    it is. As for ``python -m``, a regular package found later on the path still wins over a
    namespace folder.
    """
    top = module.split(".")[0]
    here = os.getcwd()
    local = os.path.isfile(os.path.join(here, f"{top}.py")) or os.path.isdir(
        os.path.join(here, top)
    )
    if not local or here in sys.path or top in sys.modules:
        return importlib.import_module(module)
    sys.path.insert(0, here)
    try:
        return importlib.import_module(module)
    finally:
        sys.path.remove(here)


class PythonChecker:
    """``python:MODULE:ATTR``: a callable or class the user wrote, called in this process."""

    batch_size = 64
    workers = 1
    cached = True

    def __init__(self, spec: str) -> None:
        self.name = f"python:{spec}"
        module, _, attr = spec.rpartition(":")
        if not module or not attr:
            raise ClaimlabInputError("give python:MODULE:ATTR", field="--checker")
        try:
            target = getattr(_import_here(module), attr)
        except (ImportError, AttributeError) as err:
            raise ClaimlabInputError(f"cannot load {spec}: {err}", field="--checker") from err
        obj = target() if inspect.isclass(target) else target
        call = obj if callable(obj) else getattr(obj, "check", None)
        if not callable(call):
            raise ClaimlabInputError(
                f"{spec} is neither callable nor has check()", field="--checker"
            )
        self.call: Callable[[list[Item]], Any] = call
        self.version = str(getattr(obj, "version", "") or getattr(target, "version", ""))
        self.parameters: Mapping[str, Any] = {}

    def check(self, items: Sequence[Item], *, timeout: float) -> Sequence[object]:
        """The callable's answers (a list, one per item); its own error named, one line."""
        record = items_named([i.id for i in items])
        try:
            answers = self.call(list(items))
        except (ClaimlabInputError, CheckerUnavailable):
            raise
        except Exception as err:  # the user's code failed: say where, not a traceback
            raise CheckerFailed(
                f"{type(err).__name__}: {err}", file=f"checker {self.name}", record=record
            ) from err
        if not isinstance(answers, (list, tuple)) or len(answers) != len(items):
            got = len(answers) if isinstance(answers, (list, tuple)) else type(answers).__name__
            raise CheckerAnswerError(
                f"returned {got} answers for {len(items)} items (one per item, in order)",
                file=f"checker {self.name}",
                record=record,
            )
        return list(answers)


class _Answers:
    """A command's answer lines matched to the items by id: each id asked, and answered once."""

    def __init__(self, items: Sequence[Item], name: str) -> None:
        self.items = items
        self.where = {item.id: k for k, item in enumerate(items)}
        self.name = name
        self.found: dict[str, object] = {}

    def error(self, problem: str, record: str, field: str | None = "id") -> CheckerAnswerError:
        return CheckerAnswerError(problem, file=f"checker {self.name}", record=record, field=field)

    def text(self, n: int, raw: bytes) -> str:
        """Output line ``n`` as text, or the error saying it is not UTF-8 (its bytes escaped)."""
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise self.error(
                f"is not UTF-8 (byte 0x{raw[err.start]:02x} at byte {err.start + 1}): "
                f"{raw.strip()[:80]!r}",
                f"output line {n}",
                field=None,
            ) from None

    def take(self, n: int, raw: bytes) -> int | None:
        """The item line ``n`` answers (its place among the items), None for a blank line."""
        line = self.text(n, raw)
        if not line.strip():
            return None
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError):  # not JSON, or nested too deep to read
            obj = None
        if not isinstance(obj, dict) or not isinstance(obj.get("id"), str):
            raise self.error(
                f"is not a JSON object with a string id: {line.strip()[:80]!r}", f"output line {n}"
            )
        key = obj["id"]
        if key not in self.where:
            raise self.error(
                f"answers an item that was not asked: {key[:80]!r}", f"output line {n}"
            )
        if key in self.found:
            raise self.error(f"answered twice (again on output line {n})", f"item {key}")
        self.found[key] = obj
        return self.where[key]

    def in_order(self) -> list[object]:
        """Every item's answer in the items' order, or the first item left unanswered named."""
        for item in self.items:
            if item.id not in self.found:
                raise self.error("gave no answer", f"item {item.id}")
        return [self.found[item.id] for item in self.items]


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the program and every process it started in its group or its session.

    They may hold its output; one that made a session of its own is out of reach.
    """
    end_group(proc.pid)  # its own group: started in a session of its own
    end_session(proc.pid)  # a group of its own inside the session (a shell's job control)
    if proc.poll() is None:  # no such group (never made): the program itself
        proc.kill()


class _Late(Exception):
    """The program's time ran out before it ended."""


ERRORS_KEPT = 1 << 16  # the end of a program's error output kept for its message (64 KiB)


def _output_lines(
    proc: subprocess.Popen[bytes], deadline: float, errors: bytearray
) -> Iterator[bytes]:
    """The program's output lines as they come, until it has ended.

    The end of its error output is kept in ``errors`` (its last :data:`ERRORS_KEPT` bytes,
    however much it writes). Once the program has ended, what it wrote is read to the end of
    what is there and no more: a process it left (in its group or session, killed after; or in
    a session of its own, out of reach) that still holds the output keeps nothing waiting. A
    program that closed its output is awaited until the deadline. Raises :class:`_Late` at the
    deadline, whoever holds the pipes. A last line without its newline is given as it is.
    """
    pipes = {proc.stdout.fileno(): True, proc.stderr.fileno(): False}  # type: ignore[union-attr]
    lines, ended = _Lines(), False
    with selectors.DefaultSelector() as sel:
        for fd in pipes:
            os.set_blocking(fd, False)
            sel.register(fd, selectors.EVENT_READ)
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0 and not ended:
                raise _Late
            ready = sel.select(timeout=0 if ended else min(left, 0.05))
            if ended and (not ready or left <= 0):
                break
            for key, _ in ready:
                chunk = _read_some(key.fd)
                if chunk == b"":
                    sel.unregister(key.fd)
                elif chunk is not None and not pipes[key.fd]:
                    errors += chunk
                    del errors[:-ERRORS_KEPT]
                elif chunk is not None:
                    yield from lines.feed(chunk)
            ended = ended or proc.poll() is not None
    if lines.parts:
        yield b"".join(lines.parts)
    try:
        proc.wait(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        raise _Late from None


class _Lines:
    """Bytes as they come, given back as whole lines (a line's parts joined once it ends)."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def feed(self, chunk: bytes) -> list[bytes]:
        """The lines this chunk ends, each with its newline; the rest kept for the next."""
        if b"\n" not in chunk:
            self.parts.append(chunk)
            return []
        head, *rest = chunk.split(b"\n")
        tail = rest.pop()
        ended = [b"".join([*self.parts, head]), *rest]
        self.parts = [tail] if tail else []
        return [line + b"\n" for line in ended]


def _read_some(fd: int) -> bytes | None:
    """What a ready pipe holds (b"" at its end; None when nothing after all)."""
    try:
        return os.read(fd, 1 << 16)
    except BlockingIOError:
        return None


def _feed(pipe: Any, text: bytes) -> None:
    """Write the items to the program and close its input (a program that stops early is fine)."""
    try:
        pipe.write(text)
        pipe.close()
    except (BrokenPipeError, OSError, ValueError):
        pass


class CommandChecker:
    """``command:"CMD ARGS"``: JSON Lines over a program's standard input and output.

    Each answer line is handed on as it arrives (:meth:`stream`), so the runner keeps it before
    the program has answered the rest: a run killed half-way keeps what was answered.
    """

    batch_size = 64
    workers = 2
    cached = True
    version = ""

    def __init__(self, command: str) -> None:
        self.name = f"command:{command}"
        self.argv = shlex.split(command)
        if not self.argv:
            raise ClaimlabInputError('give command:"CMD ARGS"', field="--checker")
        self.parameters: Mapping[str, Any] = {}

    def check(self, items: Sequence[Item], *, timeout: float) -> Sequence[object]:
        """Start the program, send the items, read the answers."""
        return self.stream(items, timeout=timeout, on_answer=lambda k, answer: None)

    def stream(
        self,
        items: Sequence[Item],
        *,
        timeout: float,
        on_answer: Callable[[int, object], None],
    ) -> list[object]:
        """Like :meth:`check`, calling ``on_answer(place, answer)`` for each line as it comes."""
        proc = self._start(items)
        errors = bytearray()
        answers = _Answers(items, self.name)
        try:
            for n, line in enumerate(_output_lines(proc, time.monotonic() + timeout, errors), 1):
                place = answers.take(n, line)
                if place is not None:
                    on_answer(place, answers.found[items[place].id])
        except _Late:
            raise CheckerUnavailable(f"no answer within {timeout:g} s") from None
        finally:
            _kill_group(proc)  # what the program left in its group, and the program if alive
            code = proc.wait()
            for pipe in (proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
        if code != 0:
            text = errors.decode("utf-8", "replace")
            raise CheckerUnavailable(f"exit {code}: {text.strip()[-200:]}")
        return answers.in_order()

    def _start(self, items: Sequence[Item]) -> subprocess.Popen[bytes]:
        """The program started in a process group of its own, fed the items by a thread.

        Its output is read as bytes, line by line (each line's UTF-8 checked where it is read).
        """
        text = "".join(json.dumps(i.to_dict(), ensure_ascii=False) + "\n" for i in items)
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # a timeout kills the group: children holding stdout too
            )
        except OSError as err:
            raise ClaimlabInputError(
                f"cannot start {self.argv[0]}: {err}", field="--checker"
            ) from err
        data = text.encode("utf-8", "replace")  # a lone surrogate from a file: as before
        threading.Thread(target=_feed, args=(proc.stdin, data), daemon=True).start()
        return proc


def endpoint(url: str) -> str:
    """The chat-completions address of a server's base URL.

    Examples:
        >>> endpoint("http://127.0.0.1:8000")
        'http://127.0.0.1:8000/v1/chat/completions'
        >>> endpoint("http://h/v1/")
        'http://h/v1/chat/completions'
    """
    url = url.rstrip("/")
    if url.endswith("/chat/completions"):
        return url
    return url + ("/chat/completions" if url.endswith("/v1") else "/v1/chat/completions")


def _reply_answer(body: bytes, item: Item, name: str) -> object:
    """The verdict object inside a chat-completions reply (used passages back to 0-based)."""
    try:
        content = json.loads(body)["choices"][0]["message"]["content"]
        text = content.strip().removeprefix("```json").removeprefix("```").removesuffix("```")
        answer = json.loads(text)
    except (ValueError, KeyError, IndexError, TypeError, AttributeError, RecursionError) as err:
        raise CheckerAnswerError(
            f"the reply is not a chat completion holding one JSON object ({err})",
            file=f"checker {name}",
            record=f"item {item.id}",
        ) from err
    used = answer.get("used") if isinstance(answer, dict) else None
    if isinstance(used, list) and all(isinstance(u, int) for u in used):
        if not all(1 <= u <= len(item.passages) for u in used):  # the prompt numbers from 1
            raise CheckerAnswerError(
                f"used lists passage numbers 1..{len(item.passages)}, got {used!r}",
                file=f"checker {name}",
                record=f"item {item.id}",
                field="used",
            )
        answer = {**answer, "used": [u - 1 for u in used]}
    return answer


class OpenAIChecker:
    """``openai:URL --model NAME``: an OpenAI-compatible chat endpoint, one request per item."""

    batch_size = 1
    workers = 4
    cached = True
    version = PROMPT_VERSION

    def __init__(self, url: str, model: str | None) -> None:
        if not model:
            raise ClaimlabInputError("openai:URL needs --model NAME", field="--model")
        self.name = f"openai:{url}"
        self.url = endpoint(url)
        self.parameters: Mapping[str, Any] = {"model": model, "temperature": 0}

    def request(self, item: Item, timeout: float) -> bytes:
        """POST one item; the raw reply body."""
        payload = {
            **self.parameters,
            "messages": [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": user_prompt(item)},
            ],
        }
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(KEY_VARIABLE)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        req = urllib.request.Request(
            self.url, data=json.dumps(payload).encode(), headers=headers, method="POST"
        )
        try:
            with urllib.request.urlopen(req, timeout=timeout) as reply:  # noqa: S310 - user's URL
                body: bytes = reply.read()
                return body
        except urllib.error.HTTPError as err:
            if err.code == 429 or err.code >= 500:
                raise CheckerUnavailable(f"HTTP {err.code}") from err
            raise ClaimlabInputError(f"HTTP {err.code} from {self.url}", field="--checker") from err
        except (urllib.error.URLError, TimeoutError, ConnectionError) as err:
            raise CheckerUnavailable(str(getattr(err, "reason", err))) from err

    def check(self, items: Sequence[Item], *, timeout: float) -> Sequence[object]:
        """One request per item."""
        return [_reply_answer(self.request(i, timeout), i, self.name) for i in items]


def checker_from_spec(
    spec: str, *, model: str | None = None, threshold: float = 0.6, top: int = 5
) -> Checker:
    """The checker ``--checker SPEC`` names.

    Examples:
        >>> checker_from_spec("lexical").name
        'lexical'
    """
    kind, sep, rest = spec.partition(":")
    if spec == "lexical":
        return LexicalChecker(threshold=threshold, top=top)
    if sep and kind == "python":
        return PythonChecker(rest)
    if sep and kind == "command":
        return CommandChecker(rest)
    if sep and kind == "openai":
        return OpenAIChecker(rest, model)
    raise ClaimlabInputError(
        f'unknown checker {spec!r} (lexical, python:MODULE:ATTR, command:"CMD", openai:URL)',
        field="--checker",
    )
