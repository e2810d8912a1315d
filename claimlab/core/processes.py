"""What still runs in a process group or a session, as Linux's ``/proc`` tells, and ending them.

A program started in a session of its own (``start_new_session``) leads a session and a group
whose ids are its own process id. Its children stay in its group unless they make one of their
own (a shell's job control, ``setpgid``), and in its session unless they make a new one
(``setsid``, out of reach). Standard library only; where ``/proc`` is absent nothing is found
by it (a group is still killed as a group).
"""

from __future__ import annotations

import os
import signal


def running(*, group: int | None = None, session: int | None = None) -> list[int]:
    """The processes of ``group`` or of ``session`` that still run (a zombie runs nothing)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    found = []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                state, _parent, pgrp, sid = f.read().rsplit(b")", 1)[1].split()[:4]
        except (OSError, ValueError):
            continue
        if state in (b"Z", b"X"):
            continue
        if (group is not None and int(pgrp) == group) or (
            session is not None and int(sid) == session
        ):
            found.append(int(name))
    return found


def end_group(group: int) -> None:
    """Kill the processes left in ``group`` (never this process's own group)."""
    if not hasattr(os, "killpg") or group == os.getpgrp():
        return
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):  # nothing left, or not ours
        pass


def end_session(session: int) -> None:
    """Kill what still runs in ``session`` (never this process, nor a session it is in)."""
    if session == os.getsid(0):
        return
    for pid in running(session=session):
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):  # ended meanwhile, or not ours
            pass
