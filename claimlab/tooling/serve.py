"""The classroom server: the games, and nothing else, as standalone pages (Voila).

``claimlab serve`` copies the game notebooks into a folder of their own and serves that folder,
so no other notebook of the project can be rendered. The copies are the student variant (no
solution, no spoiler before Check) unless ``--instructor`` is given, and play the teacher's own
files when ``--decomposition`` / ``--sufficiency`` name them. Every page view starts a kernel; kernels
whose page was closed are shut down after ``--cull-idle`` seconds, and at most
``--max-kernels`` run at once (a further page view is told the classroom is full). The address
printed is the one the server listens on: a port that is taken or out of range is an error
before anything starts.
"""

from __future__ import annotations

import errno
import socket
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Integer

from claimlab.core.errors import ClaimlabInputError
from claimlab.labs.registry import games
from claimlab.tooling.runner import read_notebook

GAME_NOTEBOOKS = tuple(games().values())


class ClassroomKernelManager(AsyncMappingKernelManager):
    """Voila's kernel manager with a cap on the number of kernels running at once."""

    max_kernels = Integer(40, config=True, help="Most kernels running at once (page views).")

    async def start_kernel(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """Start a kernel for a new page view, unless the cap is reached (HTTP 503)."""
        if len(self.list_kernel_ids()) >= self.max_kernels:
            from tornado import web

            raise web.HTTPError(
                503,
                f"the classroom is full ({self.max_kernels} games running); "
                "close a page or try again in a few minutes",
            )
        return await super().start_kernel(*args, **kwargs)


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
) -> list[str]:
    """The Voila command line that serves ``folder`` as a classroom."""
    cmd = [
        sys.executable,
        "-m",
        "voila",
        "--no-browser",
        f"--port={port}",
        "--Voila.port_retries=0",  # never move silently to another port
        f"--Voila.ip={ip}",
        "--VoilaConfiguration.multi_kernel_manager_class=claimlab.tooling.serve.ClassroomKernelManager",
        f"--ClassroomKernelManager.max_kernels={max_kernels}",
        f"--MappingKernelManager.cull_idle_timeout={cull_idle}",
        f"--MappingKernelManager.cull_interval={max(1, min(60, cull_idle))}",
        "--MappingKernelManager.cull_connected=False",
        "--VoilaConfiguration.show_tracebacks=False",
    ]
    if token:
        cmd.append(f"--token={token}")
    cmd.append(str(folder))
    return cmd
