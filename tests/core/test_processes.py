"""What still runs in a process group or a session, and ending a session."""

import os
import signal
import subprocess
import sys
import time

import pytest

from claimlab.core.processes import end_session, running

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="no /proc on this system")

SLEEPER = (
    "import os, sys, time; os.setpgid(0, 0) if sys.argv[1] == 'group' else None; time.sleep(60)"
)


def _wait_until(check, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not check() and time.monotonic() < deadline:
        time.sleep(0.02)
    return check()


def test_a_sessions_processes_are_found_by_group_and_session_and_ended_together():
    """A leader in a session of its own, and a child that made a group of its own in it: the
    group holds the leader only, the session both; ending the session ends both."""
    leader = subprocess.Popen([sys.executable, "-c", (
        "import subprocess, sys, time\n"
        f"subprocess.Popen([sys.executable, '-c', {SLEEPER!r}, 'group'])\n"
        "time.sleep(60)\n")], start_new_session=True)  # fmt: skip
    try:
        assert _wait_until(lambda: len(running(session=leader.pid)) == 2)
        assert _wait_until(lambda: running(group=leader.pid) == [leader.pid])  # once it moved
        end_session(leader.pid)
        leader.wait(timeout=10)
        assert leader.returncode == -signal.SIGKILL
        assert _wait_until(lambda: running(session=leader.pid) == [])  # the child too
    finally:
        for pid in running(session=leader.pid):
            os.kill(pid, signal.SIGKILL)


def test_the_callers_own_session_is_never_ended():
    end_session(os.getsid(0))  # would kill the test run itself
    assert os.getpid() in running(session=os.getsid(0))
