"""The classroom server: the games, and nothing else, as standalone pages (Voila).

``claimlab serve`` copies the game notebooks into a folder of their own and serves that folder,
so no other notebook of the project can be rendered. The copies are the student variant (no
solution, no spoiler before Check) unless ``--instructor`` is given, and play the teacher's own
files when ``--decomposition`` / ``--sufficiency`` name them. Every page view starts a kernel; kernels
whose page was closed are shut down within seconds (the page's connection closes when it
unloads, or when it has not answered the server's pings for a minute), a page that never
connects after ``--cull-idle`` seconds idle, and at most
``--max-kernels`` run at once, counted from the moment a start is accepted (a further page view
is told at once the classroom is full). ``--warm`` pages of each game are executed ahead within
that cap, one at a time in the lulls between page views (a page being made never delays a
student, who is given a page made or a kernel of their own; :mod:`claimlab.tooling.warm`);
kernels talk over IPC sockets, never TCP ports. A page view waits for its kernel to
answer before the page begins, so a kernel that dies first is an error page at once; a kernel
that ends while its page is being made ends the page with the classroom's error page within a
second or two (never a page that keeps loading, never Voila's developer message), and kernels are
not restarted (a restarted kernel has lost its page). The address
printed is the one the server listens on: a port that is taken or out of range is an error
before anything starts. Ctrl-C or SIGTERM, from the moment the server starts, stops every kernel
on the server's own event loop (a warm page being made is finished first); a second one, or
30 s, kills what is left.
"""

from __future__ import annotations

import asyncio
import errno
import json
import signal
import socket
import sys
from collections.abc import AsyncIterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tornado.web
from jupyter_server.services.kernels.kernelmanager import (
    AsyncMappingKernelManager,
    ServerKernelManager,
)
from traitlets import Integer, default
from voila.tornado.handler import TornadoVoilaHandler

from claimlab.core.errors import ClaimlabInputError
from claimlab.labs.registry import games
from claimlab.tooling.runner import load_notebook
from claimlab.tooling.warm import ClassroomExporter, Lulls, ready

GAME_NOTEBOOKS = tuple(games().values())

PAGE_STOPPED = (
    "This game stopped (its kernel ended while the page was being made): "
    "reload the page to start again"
)
WATCH_SECONDS = 1.0  # how often a page being made checks that its kernel still runs


@dataclass(eq=False)  # one page view each: compared as itself
class PageKernel:
    """The kernel of one page view, once the page has one (a page's working note, not a record)."""

    kernel_id: str | None = None


PAGE: ContextVar[PageKernel | None] = ContextVar("classroom_page", default=None)


def _note_page_kernel(kernel_id: str) -> None:
    """Tell the page view being served (if any) which kernel is its own."""
    page = PAGE.get()
    if page is not None:
        page.kernel_id = kernel_id


class ClassroomKernel(ServerKernelManager):
    """A game's kernel: one that has not yet said it is idle or busy is stopped unsignalled.

    Stopping a kernel interrupts it first (SIGINT), to end a cell that still runs; a kernel
    still starting has no cell, and the signal would end its imports with a KeyboardInterrupt
    traceback in the server's log (the server stopped, or a page closed, as a pool refills).
    """

    async def _async_interrupt_kernel(self) -> None:
        if self.shutting_down and self.execution_state in (None, "starting"):
            return  # nothing runs to interrupt: the stop that follows ends it
        await super()._async_interrupt_kernel()


class ClassroomKernelManager(AsyncMappingKernelManager):
    """Voila's kernel manager with a cap on the number of kernels running at once.

    A kernel counts from the moment its start is accepted, not from when it is registered:
    the check and the reservation happen with no ``await`` between them (one event loop), so
    however many page views arrive at once, at most ``max_kernels`` kernels exist, warm ones
    (Voila's preheated pool, which starts its kernels through this method) included. A start
    past the cap is refused at once with HTTP 503, before anything is started.
    """

    max_kernels = Integer(40, config=True, help="Most kernels running at once (page views).")
    ready_timeout = Integer(
        60, config=True, help="Seconds a page view waits for its kernel to answer, at most."
    )
    close_grace = Integer(
        3,
        config=True,
        help="Seconds a closed page's kernel waits for the page to come back before it stops.",
    )

    @default("kernel_manager_class")
    def _classroom_kernel(self) -> str:
        return f"{__name__}.ClassroomKernel"

    def notify_disconnect(self, kernel_id: str) -> None:
        """A page's connection closed; when it was the kernel's last, the kernel is freed.

        A browser closes a page's connection when the page unloads (closed, reloaded, left) and
        the server closes it when the page stops answering pings; after ``close_grace``
        seconds with no connection back, the kernel stops and its room goes to the next page.
        """
        super().notify_disconnect(kernel_id)  # type: ignore[no-untyped-call]
        if self._kernel_connections.get(kernel_id) == 0:
            import asyncio

            loop = asyncio.get_event_loop()
            loop.call_later(
                self.close_grace, lambda: loop.create_task(self._free_if_closed(kernel_id))
            )

    async def _free_if_closed(self, kernel_id: str) -> None:
        """Stop a kernel whose page has not come back (no connection since it closed)."""
        if kernel_id in self and self._kernel_connections.get(kernel_id) == 0:
            self.log.info("kernel %s freed: its page was closed", kernel_id)
            await self.shutdown_kernel(kernel_id, now=True)

    def counted(self) -> int:
        """Kernels running or accepted and still starting."""
        return len(set(self.list_kernel_ids()) | self._accepted())

    def _accepted(self) -> set[str]:
        if not hasattr(self, "_accepted_ids"):
            self._accepted_ids: set[str] = set()
        return self._accepted_ids

    async def start_kernel(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """Start a kernel for a new page view, unless the cap is reached (HTTP 503).

        A page view that finds the cap reached first makes room by stopping a warm kernel
        waiting for another game (its own game had none ready, or Voila would have served it);
        a warm kernel's own start is never given room that way.
        """
        import uuid

        if kwargs.get("kernel_id") is not None and kwargs["kernel_id"] in self:
            return await super().start_kernel(*args, **kwargs)  # an existing kernel
        warming = (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True"
        if self.counted() >= self.max_kernels and not warming:
            await self._stop_one_warm()
        if self.counted() >= self.max_kernels:  # checked again: no await from here on
            from tornado import web

            full = (
                f"The classroom is full ({self.max_kernels} games running): close a page or "
                "try again in a few minutes"
            )
            raise web.HTTPError(503, full, reason=full)  # the reason is what the page shows
        kernel_id = kwargs.pop("kernel_id", None) or str(uuid.uuid4())
        self._accepted().add(kernel_id)  # counted from now, before the first await
        try:
            started = await super().start_kernel(*args, kernel_id=kernel_id, **kwargs)
        finally:
            self._accepted().discard(kernel_id)
        if not warming:
            await self._answers(started)  # until it answers, a death is "could not start"
            _note_page_kernel(started)
        return started

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]
        self.lulls = Lulls()
        self.pages_being_made: list[PageKernel] = []  # page views being served (their kernels)
        self._stopping_ended: set[asyncio.Future[Any]] = set()
        rendered = getattr(self, "get_rendered_notebook", None)  # Voila's, when pages are warmed
        if rendered is not None:
            self._serve_ready_pages(rendered, self._initialize)

    def _serve_ready_pages(self, rendered: Any, initialize: Any) -> None:
        """Voila's warm pool, refilled in the lulls and giving students only pages made.

        Voila's own methods come first in this class's order (its manager is made from this
        one), so they are wrapped on the instance: a warm page is made one at a time, in a
        lull (:class:`claimlab.tooling.warm.Lulls`), and counts in the pool once made; a page
        view takes a made page or starts its own kernel, never waiting for one being made.
        """

        async def made_in_a_lull(
            notebook_path: str, kernel_id: str | None = None, **kw: Any
        ) -> Any:
            if kernel_id is not None:  # a kernel of its own, not a warm page to make
                return await initialize(notebook_path, kernel_id, **kw)
            async with self.lulls.turn():
                if getattr(self, "_stopping", False):  # the server stops: no page to make
                    raise RuntimeError("the classroom is stopping")
                out = await initialize(notebook_path, None, **kw)
                await asyncio.wait([out["task"]])  # the whole page made, or its error
            return out

        def made(notebook_name: str) -> int:
            """Warm pages made, a page whose kernel has ended taken out first.

            Its student would get "this game stopped"; the page view starts a kernel of its
            own instead.
            """
            pool = self._warm_pools().get(notebook_name, [])
            for task in [t for t in pool if ready(t)]:
                kernel_id = task.result()["kernel_id"]
                if self.ended_now(kernel_id):
                    pool.remove(task)
                    self.log.warning("warm kernel %s had ended: its page is dropped", kernel_id)
                    if kernel_id in self:  # its room is freed, and the pool made again
                        stop = asyncio.ensure_future(self.shutdown_kernel(kernel_id, now=True))
                        self._stopping_ended.add(stop)  # held until done (a loop keeps weak refs)
                        stop.add_done_callback(self._stopping_ended.discard)
            return sum(ready(t) for t in pool)

        async def noted(notebook_name: str, *args: Any, **kw: Any) -> Any:
            """A made page first in its pool; its kernel is the page's own from now on."""
            pool = self._warm_pools().get(notebook_name, [])
            first = next((t for t in pool if ready(t)), None)
            if first is not None:
                pool.remove(first)
                pool.insert(0, first)
            out = await rendered(notebook_name, *args, **kw)
            _note_page_kernel(out[2])
            return out

        self._initialize = made_in_a_lull
        self.get_pool_size = made
        self.get_rendered_notebook = noted

    def ended_now(self, kernel_id: str) -> bool:
        """Whether a kernel's process has surely ended, asked without waiting.

        Its exit status is there; False where the kernel is not a local process (nothing to
        ask).
        """
        if kernel_id not in self:
            return True
        process = getattr(getattr(self.get_kernel(kernel_id), "provisioner", None), "process", None)
        return process is not None and process.poll() is not None

    async def lost(self, kernel_id: str | None) -> bool:
        """Whether a page's kernel has ended (False while the page has none yet)."""
        from jupyter_core.utils import ensure_async

        if kernel_id is None:
            return False
        if kernel_id not in self:
            return True
        return not await ensure_async(self.get_kernel(kernel_id).is_alive())

    async def _answers(self, kernel_id: str) -> None:
        """Return once the kernel answers; one that dies first is an HTTP 503 page at once.

        Voila's page, once it has begun, waits for ever on a kernel that died before it
        answered; asked here, before the page begins, the student gets a clear error instead.
        """
        from jupyter_core.utils import ensure_async
        from tornado import web

        client = self.get_kernel(kernel_id).client()
        client.start_channels()
        try:
            await ensure_async(client.wait_for_ready(timeout=self.ready_timeout))
        except (RuntimeError, TimeoutError) as exc:
            self.log.warning("kernel %s did not answer: %s", kernel_id, exc)
            if kernel_id in self:
                await self.shutdown_kernel(kernel_id, now=True)
            failed = (
                "This game could not start (its kernel stopped before it answered): "
                "reload the page to try again"
            )
            raise web.HTTPError(503, failed, reason=failed) from None
        finally:
            client.stop_channels()

    def _warm_pools(self) -> dict[str, list[Any]]:
        """Voila's pools of warm kernels (name -> start tasks), without failed starts."""
        pools: dict[str, list[Any]] = getattr(self, "_pools", None) or {}
        for pool in pools.values():
            pool[:] = [t for t in pool if not (t.done() and (t.cancelled() or t.exception()))]
        return pools

    async def _stop_one_warm(self) -> None:
        """Stop one warm kernel whose page is ready (and take it out of its pool)."""
        for pool in self._warm_pools().values():
            for task in pool:
                if task.done():
                    pool.remove(task)
                    self._refill_paused = True
                    try:
                        await self.shutdown_kernel(task.result()["kernel_id"], now=True)
                    finally:
                        self._refill_paused = False
                    return

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """The culling of idle kernels, never of one whose page is still being made.

        Between two cells of a page being made its kernel is idle with no connection: with a
        short ``--cull-idle`` it was stopped midway (the page cut short, an error logged for
        each cell left).
        """
        if any(page.kernel_id == kernel_id for page in self.pages_being_made):
            return
        await super().cull_kernel_if_idle(kernel_id)  # type: ignore[no-untyped-call]

    async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """Stop a kernel; the room it leaves refills the warm pools (not while stopping all)."""
        result = await self._async_shutdown_kernel(kernel_id, *args, **kwargs)
        fill: Any = getattr(self, "fill_if_needed", None)  # Voila's, when pages are warmed
        if fill is not None and not getattr(self, "_refill_paused", False):
            if not getattr(self, "_stopping", False):
                for name in list(self._warm_pools()):
                    fill(notebook_name=name)
        return result

    async def _async_shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> Any:
        """Every stop of one kernel: this one and the stop of all's (which calls it by name)."""
        if await self._gone_as_all_stop(kernel_id):
            return None
        return await super()._async_shutdown_kernel(kernel_id, *args, **kwargs)  # type: ignore[no-untyped-call]

    async def _gone_as_all_stop(self, kernel_id: str) -> bool:
        """While all stop, whether a kernel is gone once a start or stop under way has ended.

        The list of kernels to stop is taken once; a kernel still starting is stopped once
        started, and one that another stop (a closed page, an ended warm page) has ended
        meanwhile is left alone: it is not an unknown kernel to report.
        """
        if not getattr(self, "_stopping", False):
            return False
        under_way = self._pending_kernels.get(kernel_id)
        if under_way is not None:
            await asyncio.wait([under_way])
        return kernel_id not in self

    async def shutdown_all(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """Stop every kernel, warm ones included, and refill nothing.

        A warm page being made is finished first (at most one is made at a time; stopped
        midway, its kernel's end would log an error for each of its cells), and no page is
        begun from now on.
        """
        self._stopping = True
        making = [t for pool in self._warm_pools().values() for t in pool if not t.done()]
        if making:
            await asyncio.wait(making)
        self._warm_pools()  # a page that failed or was interrupted is not waited for again
        return await super().shutdown_all(*args, **kwargs)


class ClassroomPageHandler(TornadoVoilaHandler):
    """Voila's page view, watched: a kernel that ends while the page is made ends the page.

    Voila sends a page as it is made and, when the kernel dies, either keeps the page open for
    ever (the cell it waited on never answers) or fills it with a message for the server's
    developer. Here the page is read from Voila's generator while its kernel is checked every
    ``WATCH_SECONDS``: a kernel found ended gives the classroom's error page (HTTP 503 if
    nothing was sent yet, else the page sent so far replaced by it) and the page ends.
    """

    @tornado.web.authenticated
    async def get(self, path: str | None = None) -> None:
        """Serve one page view of a game (see the class)."""
        page = PageKernel()
        token = PAGE.set(page)
        lulls = getattr(self.kernel_manager, "lulls", None)
        making: list[PageKernel] = getattr(self.kernel_manager, "pages_being_made", [])
        making.append(page)
        if lulls is not None:
            lulls.began()
        try:
            await watch_page(self, self.get_generator(path=path), page)
        finally:
            PAGE.reset(token)
            making.remove(page)
            if lulls is not None:
                lulls.ended()


_DONE = object()


async def _pump(snippets: AsyncIterator[str], queue: asyncio.Queue[object]) -> None:
    """Every snippet of a page into ``queue``, then ``_DONE`` (or the exception that stopped it)."""
    try:
        async for html in snippets:
            await queue.put(html)
    except Exception as exc:  # handed to the page view, which raises it there
        await queue.put(exc)
    else:
        await queue.put(_DONE)


async def watch_page(
    handler: Any, snippets: AsyncIterator[str], page: PageKernel, *, every: float = WATCH_SECONDS
) -> None:
    """Send a page's snippets as they come, ending it once its kernel has ended.

    Raises:
        tornado.web.HTTPError: 503 when the kernel ended before anything was sent; any error
            of the page's own making, as Voila raised it.
    """
    queue: asyncio.Queue[object] = asyncio.Queue()
    pump = asyncio.ensure_future(_pump(snippets, queue))
    manager = handler.kernel_manager
    sent = False
    try:
        while True:
            try:
                item: object = await asyncio.wait_for(queue.get(), every)
            except asyncio.TimeoutError:
                item = None
            if await manager.lost(page.kernel_id):
                await _page_lost(handler, manager, page.kernel_id, sent=sent)
                return
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            if isinstance(item, str):
                handler.write(item)
                handler.flush()
                sent = True
    finally:
        pump.cancel()
        await asyncio.gather(pump, return_exceptions=True)


async def _page_lost(handler: Any, manager: Any, kernel_id: str | None, *, sent: bool) -> None:
    """End a page whose kernel ended with the classroom's error page; stop what is left of it."""
    handler.log.warning("kernel %s ended while its page was being made", kernel_id)
    if kernel_id is not None and kernel_id in manager:
        try:
            await manager.shutdown_kernel(kernel_id, now=True)
        except Exception as exc:  # already gone: nothing left to stop
            handler.log.warning("kernel %s could not be stopped: %s", kernel_id, exc)
    if not sent:
        raise tornado.web.HTTPError(503, PAGE_STOPPED, reason=PAGE_STOPPED)
    error_page = handler.render_template(
        "error.html",
        status_code=503,
        status_message=PAGE_STOPPED,
        message=PAGE_STOPPED,
        exception=None,
    )
    handler.write(error_fragment(error_page, PAGE_STOPPED))


def error_fragment(error_page: str, message: str) -> str:
    """What ends a page already under way: the message, then a script showing the error page.

    The page's own scripts may run after it (they are deferred): the error page is shown
    again once the page has loaded. Both texts are escaped (HTML, and JSON inside a script).

    Examples:
        >>> text = error_fragment("<h1>503: a</h1>", "a <b>")
        >>> "a &lt;b&gt;" in text and "<h1>" not in text.split("<script>")[1]
        True
    """
    from html import escape

    as_js = json.dumps(error_page).replace("<", "\\u003c").replace(">", "\\u003e")
    as_js = as_js.replace("&", "\\u0026")
    show = f"function(){{document.documentElement.innerHTML = {as_js};}}"
    return (
        f'<div class="classroom-error" role="alert"><h1>503: {escape(message)}</h1></div>\n'
        f"<script>window.stop(); ({show})(); window.addEventListener('load', {show});</script>\n"
    )


def run_voila() -> None:
    """Voila's command line (``sys.argv``), its page views served by :class:`ClassroomPageHandler`.

    Every page's templates are compiled once per server (:mod:`claimlab.tooling.warm`).
    """
    import voila.app
    import voila.notebook_renderer

    voila.app.TornadoVoilaHandler = ClassroomPageHandler
    voila.app.Voila.stop = stop_on_the_servers_loop
    voila.app.Voila._handle_signal_stop = stop_on_signal
    signal.signal(signal.SIGINT, lambda sig, frame: stop_on_signal(None, sig, frame))
    voila.notebook_renderer.VoilaExporter = ClassroomExporter  # templates compiled once
    voila.app.main()


STOP_SECONDS = 30  # the most a stop waits for the kernels to end before it kills what is left
_STOPPING: list[int] = []  # the stop signals heard so far


def stop_on_signal(app: Any, sig: int, frame: Any) -> None:
    """SIGTERM and Ctrl-C, from the moment the server starts: its loop is asked to stop.

    Asked of the loop (which stops at once if it is not running yet), never raised where the
    signal lands: a Ctrl-C as the server bound its port ended it in a KeyboardInterrupt. A
    second signal while it stops is one (:func:`stop_on_the_servers_loop` kills the kernels).
    The asyncio loop is asked directly, not through tornado's ``IOLoop.current()``: a signal
    landing while tornado makes its loop (as the port is bound) would make a second one, and
    the server then ended in a RuntimeError ("already associated with asyncio loop").
    """
    if _STOPPING:
        raise KeyboardInterrupt
    _STOPPING.append(sig)
    loop = asyncio.get_event_loop_policy().get_event_loop()  # the main thread's: made once
    loop.call_soon_threadsafe(loop.stop)


def stop_on_the_servers_loop(app: Any) -> None:
    """Voila's stop: every kernel stopped on the server's own event loop, then its folder removed.

    Voila's own stop runs on a new event loop, where the starts and stops still under way on
    the server's loop (a warm page starting, a closed page's kernel stopping) never end: the
    stop of all reported their kernels as unknown, or waited for them for ever; and it removed
    the folder of the kernels' sockets before stopping them. Here they end on their loop; what
    still runs after :data:`STOP_SECONDS`, or when a second stop signal comes, is killed.
    """
    import shutil

    loop = app.ioloop.asyncio_loop
    try:
        loop.run_until_complete(asyncio.wait_for(app.kernel_manager.shutdown_all(), STOP_SECONDS))
    except (TimeoutError, asyncio.TimeoutError):
        app.log.warning("kernels still stopping after %s s: killed", STOP_SECONDS)
        _kill_kernels(app.kernel_manager)
    except KeyboardInterrupt:  # a second stop signal while stopping: at once
        app.log.warning("stopped at once: the kernels are killed")
        _kill_kernels(app.kernel_manager)
    finally:
        shutil.rmtree(app.connection_dir, ignore_errors=True)


def _kill_kernels(manager: Any) -> None:
    """Kill every kernel process the manager knows that still runs.

    A kernel whose start is not through yet ends by itself: a kernel ends when its parent has.
    """
    for kernel in list(manager._kernels.values()):
        process = getattr(getattr(kernel, "provisioner", None), "process", None)
        if process is not None and process.poll() is None:
            process.kill()


WARM_DEFAULT_MOST = 8
HEARTBEAT = {"ws_ping_interval": 20_000, "ws_ping_timeout": 60_000}  # milliseconds


def warm_pool(asked: int | None, max_kernels: int, games: int) -> int:
    """Warm pages per game: ``asked``, or by default the cap shared between the games.

    The default is at most ``WARM_DEFAULT_MOST`` each; never more than the cap holds, so the
    pool's memory is bounded by ``--max-kernels`` kernels like every other page's.

    Examples:
        >>> warm_pool(None, 6, 2), warm_pool(None, 40, 2), warm_pool(5, 6, 2), warm_pool(0, 6, 2)
        (3, 8, 3, 0)
    """
    most = max_kernels // max(games, 1)
    return min(most, WARM_DEFAULT_MOST if asked is None else asked)


def check_port(ip: str, port: int) -> None:
    """Raise a one-line error unless ``ip:port`` can be listened on now.

    Raises:
        ClaimlabInputError: naming ``--port`` (taken, or not allowed) or ``--ip``.
    """
    family = socket.AF_INET6 if ":" in ip else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((ip, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ClaimlabInputError(
                    f"port {port} on {ip} is already in use (choose another with --port)",
                    field="--port",
                ) from None
            if exc.errno in (errno.EADDRNOTAVAIL, socket.EAI_NONAME):
                raise ClaimlabInputError(
                    f"this machine has no address {ip}", field="--ip"
                ) from None
            raise ClaimlabInputError(
                f"cannot listen on {ip}:{port} ({exc.strerror})", field="--port"
            ) from None


CLASSROOM_DROPPED = ("solution", "remove-cell")


def prepare_games_folder(
    notebooks_dir: Path,
    target: Path,
    *,
    student: bool = True,
    fixtures: Mapping[str, Path] | None = None,
) -> list[Path]:
    """Copy the game notebooks (only they) into ``target``, set up for the classroom.

    In the student variant every cell tagged ``solution`` (the exercises' solutions, the
    solver's round) or ``remove-cell`` is left out and the notebooks run with ``STUDENT =
    True`` (no status, error or metric before Check); the instructor variant keeps them all.
    ``fixtures`` maps a notebook name to the file its ``FIXTURE`` parameter should name (the
    teacher's own file). Returns the copies.
    """
    import nbformat

    out = []
    for name in GAME_NOTEBOOKS:
        src = notebooks_dir / name
        if not src.exists():
            raise ClaimlabInputError("game notebook not found", file=str(src))
        nb = load_notebook(src)
        if student:
            nb.cells = [
                c
                for c in nb.cells
                if not set(c.get("metadata", {}).get("tags", [])) & set(CLASSROOM_DROPPED)
            ]
        params: dict[str, object] = {"STUDENT": student}
        if fixtures and name in fixtures:
            params["FIXTURE"] = str(Path(fixtures[name]).resolve())
        _inject(nb, params)
        dst = target / name
        nbformat.write(nb, str(dst))
        out.append(dst)
    return out


def _inject(nb: Any, params: Mapping[str, object]) -> None:
    """Add a cell setting ``params`` right after the notebook's parameters cell."""
    import nbformat

    at = next(
        (
            i + 1
            for i, c in enumerate(nb.cells)
            if "parameters" in c.get("metadata", {}).get("tags", [])
        ),
        0,
    )
    source = "# set by claimlab serve\n" + "".join(f"{k} = {v!r}\n" for k, v in params.items())
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": ["injected-parameters"]})
    nb.cells.insert(at, cell)


def voila_command(
    folder: Path,
    *,
    ip: str,
    port: int,
    token: str | None,
    max_kernels: int,
    cull_idle: int,
    warm: int = 0,
) -> list[str]:
    """The Voila command line that serves ``folder`` as a classroom.

    Kernels talk to the server over IPC sockets in Voila's private connection folder, never
    over TCP ports: a port picked free can be taken by another starting kernel before it is
    bound ("Address already in use"); a socket path named after the kernel's id cannot.
    ``warm`` pages per game are executed ahead in preheated kernels (Voila's pool, refilled in
    the background) so a page view in a rush is served at once.
    """
    cmd = [
        sys.executable,
        "-W",  # traitlets calls a JSON value for a dict option old style; it is still read
        "ignore::DeprecationWarning:traitlets.traitlets",
        "-c",
        "from claimlab.tooling.serve import run_voila; run_voila()",
        "--no-browser",
        f"--port={port}",
        "--Voila.port_retries=0",  # never move silently to another port
        f"--Voila.ip={ip}",
        "--VoilaConfiguration.multi_kernel_manager_class=claimlab.tooling.serve.ClassroomKernelManager",
        f"--ClassroomKernelManager.max_kernels={max_kernels}",
        f"--MappingKernelManager.cull_idle_timeout={cull_idle}",
        f"--MappingKernelManager.cull_interval={max(1, min(10, cull_idle))}",
        # a page that stops answering pings for a minute is closed, and its kernel freed
        f"--Voila.tornado_settings={json.dumps(HEARTBEAT)}",
        "--MappingKernelManager.cull_connected=False",
        "--VoilaConfiguration.show_tracebacks=False",
        "--KernelManager.transport=ipc",
        "--KernelManager.autorestart=False",  # a restarted kernel has lost its page: it ends
    ]
    if warm > 0:
        cmd += [
            "--VoilaConfiguration.preheat_kernel=True",
            f"--VoilaConfiguration.default_pool_size={warm}",
        ]
    if token:
        cmd.append(f"--token={token}")
    cmd.append(str(folder))
    return cmd
