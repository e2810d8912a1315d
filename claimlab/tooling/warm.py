"""The classroom's warm pool, made so that it never delays a student.

A warm page is a game executed ahead in a kernel of its own, waiting for the next student.
Making one costs the server's one event loop real work (the page's template rendered, every
output turned into HTML) and the machine a kernel's start-up; a student asking for a page
meanwhile waits for both. So the pool is refilled a page at a time (on a machine of more than
two cores, one page per core but one), each begun only in a lull
(no page view being served, none begun for ``QUIET`` seconds), and a student is given only a
page that is ready (a page still being made is never waited on: the student's own kernel starts
instead). The pages' templates are compiled once per server, not once per page.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import jinja2
from voila.exporter import VoilaExporter

QUIET = 0.2  # seconds with no new page view before a warm page is begun
POLL = 0.05  # how often a waiting refill looks again


class CompiledOnce(jinja2.BytecodeCache):
    """Every template compiled once per server process, whichever page's renderer loads it.

    Each page's renderer has an environment of its own, which would parse and compile the
    page's templates again (a third of the server's work in making a warm page). The code is
    kept by template and checked against the template's text (jinja2's checksum), so a
    template changed on disk is compiled again.
    """

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Give ``bucket`` the code compiled before, if any."""
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Keep the code just compiled."""
        self._code[bucket.key] = bucket.bytecode_to_string()


COMPILED = CompiledOnce()


class ClassroomExporter(VoilaExporter):
    """Voila's page exporter, its environment sharing the server's compiled templates."""

    def _create_environment(self) -> jinja2.Environment:
        environment: jinja2.Environment = super()._create_environment()
        environment.bytecode_cache = COMPILED
        return environment


def ready(task: asyncio.Future[Any]) -> bool:
    """Whether a pool's task holds a page made (not still being made, not failed)."""
    return task.done() and not task.cancelled() and task.exception() is None


def builders() -> int:
    """Warm pages made at once: one core each, one core left for the page views."""
    return max(1, (os.cpu_count() or 1) - 1)


class Lulls:
    """Page views being served and when the last began: the refill waits for a lull.

    At most ``at_once`` warm pages are made at the same time (:func:`builders`).
    """

    def __init__(
        self,
        quiet: float = QUIET,
        clock: Callable[[], float] = time.monotonic,
        poll: float = POLL,
        at_once: int | None = None,
    ):
        self.quiet = quiet
        self.clock = clock
        self.poll = poll
        self.at_once = builders() if at_once is None else at_once
        self.serving = 0
        self.last = -float("inf")
        self._turn: asyncio.Semaphore | None = None

    def began(self) -> None:
        """A page view began."""
        self.serving += 1
        self.last = self.clock()

    def ended(self) -> None:
        """A page view ended (served, refused or failed)."""
        self.serving -= 1

    def calm(self) -> bool:
        """No page view is being served, and none began for ``quiet`` seconds."""
        return self.serving == 0 and self.clock() - self.last >= self.quiet

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """A warm page's turn: at most ``at_once`` made together, each begun in a lull."""
        if self._turn is None:
            self._turn = asyncio.Semaphore(self.at_once)
        async with self._turn:
            while not self.calm():
                await asyncio.sleep(self.poll)
            yield
