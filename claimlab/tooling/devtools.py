"""One headless chromium printing many pages to PDF, driven over its DevTools pipe.

Starting chromium costs more than printing a page with it (about 2 s of processor time a
start against 0.5 s a page), so ``claimlab handouts`` starts one and prints every handout
through the Chrome DevTools Protocol on the pipe ``--remote-debugging-pipe`` opens: the
browser reads commands, JSON ended by a NUL byte, on its descriptor 3 and writes replies and
events on its descriptor 4. A page is opened as a new target, loaded, left until MathJax has
typeset it, printed with its own ``@page`` size and margins, and closed. Standard library only.
"""

from __future__ import annotations

import base64
import json
import os
import select
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# MathJax 2 (Debian's) queues its typesetting after load: this resolves once the queue is empty
TYPESET = (
    "new Promise(done => (window.MathJax && MathJax.Hub) ? MathJax.Hub.Queue(() => done(true))"
    " : done(false))"
)


class DevToolsError(RuntimeError):
    """Chromium stopped, refused a command or did not answer in time."""


class Browser:
    """A headless chromium and its DevTools pipe (use as a context manager)."""

    def __init__(
        self, command: list[str], *, log: Path, preexec: Callable[[], None] | None = None
    ) -> None:
        to_browser, self._commands = os.pipe()
        self._replies, from_browser = os.pipe()

        def child() -> None:  # in the child before exec: the pipe on descriptors 3 and 4
            import fcntl

            a = fcntl.fcntl(to_browser, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_browser, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)
            if preexec is not None:
                preexec()

        with log.open("wb") as err:
            self.proc = subprocess.Popen(
                [*command, "--remote-debugging-pipe"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                pass_fds=(3, 4),
                preexec_fn=child,  # noqa: PLW1509 - before exec, no threads
            )
        os.close(to_browser)
        os.close(from_browser)
        self.log = log
        self._buffer = b""
        self._next = 0
        self._events: list[dict[str, Any]] = []

    def close(self) -> None:
        """Close the pipe (the browser's own end of the work; the caller kills its group)."""
        for fd in (self._commands, self._replies):
            try:
                os.close(fd)
            except OSError:
                pass

    def call(
        self, method: str, params: dict[str, Any] | None = None, *, session: str = "",
        timeout: float = 60.0,
    ) -> dict[str, Any]:  # fmt: skip
        """Send one command and return its result (events that come meanwhile are kept)."""
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode("utf-8") + b"\0"
        try:
            while data:
                data = data[os.write(self._commands, data) :]
        except OSError as exc:
            raise DevToolsError(f"chromium stopped ({exc.strerror})") from None
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline, method)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise DevToolsError(f"{method}: {reply['error'].get('message', reply)}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self._events.append(reply)

    def wait_event(self, name: str, session: str, *, timeout: float = 60.0) -> dict[str, Any]:
        """The first event ``name`` of ``session`` (waiting for it when it has not come yet)."""
        deadline = time.monotonic() + timeout
        while True:
            for i, event in enumerate(self._events):
                if event.get("method") == name and event.get("sessionId") == session:
                    return self._events.pop(i)
            self._events.append(self._read(deadline, name))

    def _read(self, deadline: float, waiting_for: str) -> dict[str, Any]:
        """The next message from the browser."""
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise DevToolsError(f"chromium did not answer in time ({waiting_for})")
            ready, _, _ = select.select([self._replies], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._replies, 1 << 20)
            if not chunk:
                raise DevToolsError(f"chromium stopped (exit {self.proc.poll()})")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message


def open_page(browser: Browser, url: str, *, timeout: float) -> tuple[str, str]:
    """Open ``url`` in a new page of its own; returns (target, session) once it has loaded."""
    target = browser.call("Target.createTarget", {"url": "about:blank"}, timeout=timeout)[
        "targetId"
    ]
    attach = {"targetId": target, "flatten": True}
    session = browser.call("Target.attachToTarget", attach, timeout=timeout)["sessionId"]
    browser.call("Page.enable", session=session, timeout=timeout)
    browser.call("Page.navigate", {"url": url}, session=session, timeout=timeout)
    return target, session


def print_page(browser: Browser, target: str, session: str, pdf: Path, *, timeout: float) -> None:
    """Wait for the loaded page's maths, print it with its CSS page size to ``pdf``, close it."""
    browser.wait_event("Page.loadEventFired", session, timeout=timeout)
    browser.call(
        "Runtime.evaluate",
        {"expression": TYPESET, "awaitPromise": True, "returnByValue": True},
        session=session,
        timeout=timeout,
    )
    printed = browser.call(
        "Page.printToPDF",
        {"preferCSSPageSize": True, "displayHeaderFooter": False, "printBackground": False},
        session=session,
        timeout=timeout,
    )
    pdf.write_bytes(base64.b64decode(printed["data"]))
    browser.call("Target.closeTarget", {"targetId": target}, timeout=timeout)
