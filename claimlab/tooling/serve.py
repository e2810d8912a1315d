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
that cap; kernels talk over IPC sockets, never TCP ports. A page view waits for its kernel to
answer before the page begins, so a kernel that dies first is an error page at once. The address
printed is the one the server listens on: a port that is taken or out of range is an error
before anything starts.
"""

from __future__ import annotations

import errno
import json
import socket
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Integer

from claimlab.core.errors import ClaimlabInputError
from claimlab.labs.registry import games
from claimlab.tooling.runner import declared_parameters, lesson_parameters, read_notebook

GAME_NOTEBOOKS = tuple(games().values())


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
            await self._answers(started)
        return started

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

    async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """Stop a kernel; the room it leaves refills the warm pools (not while stopping all)."""
        result = await super().shutdown_kernel(kernel_id, *args, **kwargs)  # type: ignore[no-untyped-call]
        fill: Any = getattr(self, "fill_if_needed", None)  # Voila's, when pages are warmed
        if fill is not None and not getattr(self, "_refill_paused", False):
            if not getattr(self, "_stopping", False):
                for name in list(self._warm_pools()):
                    fill(notebook_name=name)
        return result

    async def shutdown_all(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """Stop every kernel, warm ones included, and refill nothing."""
        self._stopping = True
        return await super().shutdown_all(*args, **kwargs)


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
        nb = read_notebook(src)
        if student:
            nb.cells = [
                c
                for c in nb.cells
                if not set(c.get("metadata", {}).get("tags", [])) & set(CLASSROOM_DROPPED)
            ]
        params: dict[str, object] = {"STUDENT": student}
        if fixtures and name in fixtures:
            params["FIXTURE"] = str(Path(fixtures[name]).resolve())
        _inject(nb, lesson_parameters(declared_parameters(src), params))
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
        "-m",
        "voila",
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
