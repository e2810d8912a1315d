"""The classroom's kernel manager stopping and culling its kernels.

Real kernels under :class:`claimlab.tooling.serve.ClassroomKernelManager` (no Voila): one stop
begun (a closed page's) as the server stops all must not make the stop of all fail on a kernel
that is gone meanwhile ("Kernel does not exist"), and every kernel ends; a kernel still starting
is stopped without an interrupt; a kernel whose page is being made is never culled.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from claimlab.tooling.serve import ClassroomKernelManager

pytestmark = pytest.mark.usefixtures("user_kernels")


@pytest.fixture
def folder():
    """A short folder for the kernels' sockets (a socket's path holds 107 bytes at most)."""
    from tests.scratch import scratch_dir

    return scratch_dir(prefix="ck-")


def _manager(folder, most: int) -> ClassroomKernelManager:
    """The classroom's manager as ``claimlab serve`` sets it up: kernels over IPC sockets."""
    from traitlets.config import Config

    config = Config()
    config.KernelManager.transport = "ipc"
    return ClassroomKernelManager(config=config, connection_dir=str(folder), max_kernels=most)


def _run(coroutine):
    """Run a coroutine on an event loop of its own thread (a browser test's session may keep
    one running in this thread)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def _stop_all_while_one_stops(folder) -> tuple[list[str], list[object]]:
    manager = _manager(folder, 3)
    ids = [await manager.start_kernel(kernel_name="python3") for _ in range(2)]
    processes = [manager.get_kernel(k).provisioner.process for k in ids]
    one = asyncio.ensure_future(manager.shutdown_kernel(ids[0], now=True))  # a page closed
    await manager.shutdown_all(now=True)  # the server stops as that kernel stops
    await one
    return manager.list_kernel_ids(), [p.poll() for p in processes]


def test_stopping_all_while_one_kernel_stops_ends_every_kernel_without_error(folder):
    left, codes = _run(_stop_all_while_one_stops(folder))
    assert left == []
    assert None not in codes  # every kernel process has ended


async def _stop_all_as_one_starts(folder) -> list[str]:
    manager = _manager(folder, 3)
    await manager.start_kernel(kernel_name="python3")
    warm = {"VOILA_PREHEAT": "True"}  # a warm page's start, as the pool refills
    starting = asyncio.ensure_future(manager.start_kernel(kernel_name="python3", env=warm))
    while not manager._pending_kernels:  # its start is under way, the kernel not yet listed
        await asyncio.sleep(0.001)
    await manager.shutdown_all(now=True)
    await starting
    return manager.list_kernel_ids()


def test_stopping_all_as_a_kernel_starts_stops_it_once_started(folder):
    import psutil

    before = {p.pid for p in psutil.Process().children(recursive=True)}
    assert _run(_stop_all_as_one_starts(folder)) == []
    kernels = [p for p in psutil.Process().children(recursive=True) if p.pid not in before]
    _, running = psutil.wait_procs(kernels, timeout=10)
    assert running == []  # both kernels ended, the one that was starting included


async def _signals_of_a_stop(folder, *, warm: bool) -> list[int]:
    """The signals one kernel is sent as it is stopped at once after its start returned."""
    manager = _manager(folder, 2)
    env = {"VOILA_PREHEAT": "True"} if warm else {}  # a warm page's start: not waited on
    kernel_id = await manager.start_kernel(kernel_name="python3", env=env)
    kernel = manager.get_kernel(kernel_id)
    if not warm:  # a page's kernel: stopped once it has answered (its status lags its start)
        deadline = time.monotonic() + 120  # a busy machine's kernel may take long to answer
        while kernel.execution_state not in ("idle", "busy") and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert kernel.execution_state in ("idle", "busy"), "the kernel never answered in 120 s"
    provisioner = kernel.provisioner
    send, sent = provisioner.send_signal, []

    async def noted(signum: int) -> None:
        sent.append(signum)
        await send(signum)

    provisioner.send_signal = noted
    await manager.shutdown_kernel(kernel_id, now=True)
    return sent


def test_a_kernel_still_starting_is_stopped_without_an_interrupt(folder):
    """A warm page's kernel stopped before it said it is idle or busy is sent no SIGINT (which
    would end its imports with a KeyboardInterrupt traceback in the server's log); a page's
    kernel, which has answered, is interrupted first, as the libraries do, to end a cell still
    running."""
    import signal

    assert signal.SIGINT not in _run(_signals_of_a_stop(folder, warm=True))
    assert signal.SIGINT in _run(_signals_of_a_stop(folder, warm=False))


async def _culled_while_and_after_its_page(folder) -> tuple[bool, bool]:
    from claimlab.tooling.serve import PageKernel

    manager = _manager(folder, 2)
    manager.cull_idle_timeout = 0  # every kernel with no connection is idle at once
    kernel_id = await manager.start_kernel(kernel_name="python3")
    page = PageKernel(kernel_id)
    manager.pages_being_made.append(page)  # its page view is being served
    await asyncio.sleep(0.05)
    await manager.cull_kernel_if_idle(kernel_id)
    kept = kernel_id in manager
    manager.pages_being_made.remove(page)  # the page is made
    await manager.cull_kernel_if_idle(kernel_id)
    return kept, kernel_id in manager


def test_a_kernel_whose_page_is_being_made_is_never_culled(folder):
    """Between two cells of a page being made its kernel is idle with no connection: the
    culling leaves it (a short --cull-idle cut pages short), and culls it once the page is
    made and it is idle."""
    kept_while_made, kept_after = _run(_culled_while_and_after_its_page(folder))
    assert kept_while_made and not kept_after


def test_a_stop_signal_before_the_loop_runs_stops_it_as_it_starts_and_a_second_is_at_once(
    monkeypatch,
):
    """SIGTERM or Ctrl-C as the server binds its port (its loop not running yet) asks the loop
    to stop, which it does as soon as it runs (no KeyboardInterrupt where the signal landed);
    a second signal while it stops is a KeyboardInterrupt (the kernels are then killed)."""
    import signal
    from concurrent.futures import ThreadPoolExecutor

    from claimlab.tooling import serve

    monkeypatch.setattr(serve, "_STOPPING", [])

    def in_a_thread() -> tuple[bool, bool]:
        import tornado.ioloop

        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        ioloop = tornado.ioloop.IOLoop.current()
        serve.stop_on_signal(None, signal.SIGINT, None)  # before the loop runs
        ran_late = loop.call_later(30, loop.stop)  # a stop that did not come
        ioloop.start()  # returns once the asked stop is done
        stopped_at_once = not ran_late.cancelled() and ran_late.when() > loop.time()
        try:
            serve.stop_on_signal(None, signal.SIGTERM, None)
            second_raised = False
        except KeyboardInterrupt:
            second_raised = True
        ioloop.close(all_fds=False)
        return stopped_at_once, second_raised

    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(in_a_thread).result(timeout=20) == (True, True)
