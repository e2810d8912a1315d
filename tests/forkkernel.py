"""Real kernels for the suite's notebook runs, forked from a process that imported their libraries once.

Every papermill run starts an ipykernel, and a cold one spends about two seconds of CPU
importing ipykernel, pandas, matplotlib and ipywidgets before it runs the first cell; the
suite starts hundreds. Here one process per test worker (the *zygote*) imports them once and
forks a child for each kernel asked for: the child is a real ipykernel
(``ipykernel.kernelapp``, the same code ``python -m ipykernel_launcher`` runs) in the
caller's folder, with the caller's environment and standard streams, running the notebook
as a cold kernel would. Only the interpreter's start-up and those imports are shared; no
kernel is ever reused, and claimlab itself is never imported in the zygote (every notebook
imports it afresh).

The suite points the ``python3`` kernelspec at this file (``launch``) through
``JUPYTER_PATH`` (tests/conftest.py). The launcher is the process the kernel manager sees: it
forwards the signals it gets (interrupt, terminate) to the child, exits with the child's
status, and when it is killed the zygote kills the child. A cold kernel is started instead
(the launcher becomes ``python -m ipykernel_launcher``) when no zygote answers, when the
caller is a classroom server (``claimlab serve``, Voila: their tests count and kill kernel
processes), or when a variable the imports read differs from the zygote's (matplotlib's,
Python's, the locale).
"""

import json
import os
import signal
import socket
import sys

SOCKET_ENV = "CLAIMLAB_TEST_FORK_SOCKET"
# variables read by the interpreter or the preloaded libraries as they import: a kernel asked
# for with other values than the zygote's starts cold
IMPORT_TIME = ("MPL", "PYTHON", "LC_", "LANG", "HOME", "XDG_", "TZ")
PRELOAD = (
    "ipykernel.kernelapp",
    "ipykernel.ipkernel",
    "ipykernel.comm",
    "IPython",
    "numpy",
    "pandas",
    "matplotlib",
    "matplotlib.pyplot",
    "matplotlib_inline.backend_inline",
    "ipywidgets",
    "msgspec",
    "orjson",
)
_LAUNCHER = "ipykernel_launcher"
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT, signal.SIGHUP, signal.SIGUSR1)


def _import_env(env):
    return {k: v for k, v in env.items() if k.startswith(IMPORT_TIME)}


# ------------------------------------------------------------------------------- the launcher


def _cold(args):
    os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", *args])


def _called_by_a_server():
    """Whether the process starting this kernel is a classroom server (``claimlab serve``,
    Voila): those start cold kernels, as their tests count and kill the server's kernel
    processes. JupyterLab's kernels are forked (its tests drive pages, not processes)."""
    try:
        with open(f"/proc/{os.getppid()}/cmdline", "rb") as f:
            words = f.read().lower().split(b"\0")
    except OSError:
        return True
    return b"serve" in words or any(b"voila" in word for word in words)


def launch(args):
    """The kernel's process: ask the zygote for a forked kernel, or become a cold one."""
    path = os.environ.get(SOCKET_ENV)
    if not path or _called_by_a_server():
        _cold(args)
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
        request = {"argv": args, "cwd": os.getcwd(), "env": dict(os.environ)}
        socket.send_fds(conn, [json.dumps(request).encode() + b"\n"], [0, 1, 2])
        reply = conn.makefile("rb").readline()
    except OSError:
        reply = b""
    if not reply.strip().lstrip(b"-").isdigit():
        conn.close()
        _cold(args)  # no zygote, or it would not fork this one
    pid = int(reply)
    for sig in SIGNALS:
        signal.signal(sig, lambda s, _f: os.kill(pid, s))
    sys.exit(_wait(conn, pid))


def _wait(conn, pid):
    """The kernel's exit status; a kernel whose caller died is ended (as a cold one ends itself)."""
    parent = os.getppid()
    conn.settimeout(1.0)
    status = b""
    while not status.endswith(b"\n"):
        try:
            chunk = conn.recv(64)
        except TimeoutError:
            if os.getppid() != parent:
                os.kill(pid, signal.SIGKILL)
                return 1
            continue
        if not chunk:
            break
        status += chunk
    code = status.strip()
    return int(code) if code.lstrip(b"-").isdigit() else 1


# ------------------------------------------------------------------------------- the zygote


_ENDED: list[int] = []  # the zygote's self-pipe: SIGCHLD writes to it (signal.set_wakeup_fd)


def _drain(fd):
    try:
        return os.read(fd, 512)
    except BlockingIOError:
        return b""


def _preload():
    global _LAUNCHER
    import importlib.util

    _LAUNCHER = importlib.util.find_spec("ipykernel_launcher").origin
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    import importlib
    import threading

    for name in PRELOAD:
        importlib.import_module(name)
    return threading.active_count() == 1  # forking is only safe with no other thread


def _child(listener, conns, request, fds):
    """In the forked child: become the kernel the launcher asked for."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.set_wakeup_fd(-1)
    for fd in _ENDED:
        os.close(fd)
    listener.close()
    for c in conns:
        c.close()
    for i, fd in enumerate(fds):
        os.dup2(fd, i)
        os.close(fd)
    os.setsid()
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.path[0] = os.getcwd()
    # ipykernel read JPY_PARENT_PID when it was imported (here: in the zygote): given again, so
    # the kernel behaves as a cold one would (the launcher watches the caller)
    parent = os.environ.get("JPY_PARENT_PID") or "0"
    sys.argv = [_LAUNCHER, *request["argv"], f"--IPKernelApp.parent_handle={parent}"]
    code = 0
    try:
        from ipykernel import kernelapp

        kernelapp.launch_new_instance()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    os._exit(code)


def _accept(listener, conns, kids, forkable, zygote_env):
    conn, _ = listener.accept()
    try:
        data, fds, _flags, _addr = socket.recv_fds(conn, 1 << 20, 3)
        while not data.endswith(b"\n"):
            more = conn.recv(1 << 20)
            if not more:
                raise OSError("launcher gone")
            data += more
        request = json.loads(data)
    except (OSError, ValueError):
        conn.close()
        return
    if not forkable or len(fds) != 3 or _import_env(request["env"]) != zygote_env:
        for fd in fds:
            os.close(fd)
        conn.sendall(b"cold\n")
        conn.close()
        return
    pid = os.fork()
    if pid == 0:
        _child(listener, [*conns, conn], request, fds)
    for fd in fds:
        os.close(fd)
    conn.sendall(f"{pid}\n".encode())
    conns.append(conn)
    kids[conn] = pid


def _reap(kids, conns):
    """Tell each launcher whose kernel ended its status."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        code = os.waitstatus_to_exitcode(status)
        for conn, kid in list(kids.items()):
            if kid == pid:
                try:
                    conn.sendall(f"{code if code >= 0 else 128 - code}\n".encode())
                except OSError:
                    pass
                conn.close()
                conns.remove(conn)
                del kids[conn]


def serve(path):
    """The zygote: preload, then fork a kernel for each launcher until the suite ends."""
    parent = os.getppid()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)  # launchers wait in the backlog while the imports run
    zygote_env = _import_env(os.environ)  # as a cold kernel would see it
    forkable = _preload()
    conns, kids = [], {}
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    # a kernel's end wakes the loop at once (a byte on this pipe), so its launcher and the
    # kernel manager polling it hear of it then, not at the loop's next 0.2 s timeout
    _ENDED[:] = os.pipe()
    for fd in _ENDED:
        os.set_blocking(fd, False)
    signal.set_wakeup_fd(_ENDED[1])
    signal.signal(signal.SIGCHLD, lambda *_: None)
    try:
        _loop(listener, conns, kids, forkable, zygote_env, parent)
    finally:
        for pid in kids.values():  # the suite is gone: so are its kernels
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _loop(listener, conns, kids, forkable, zygote_env, parent):
    import selectors

    while os.getppid() == parent:
        sel = selectors.DefaultSelector()
        sel.register(listener, selectors.EVENT_READ)
        sel.register(_ENDED[0], selectors.EVENT_READ)
        for c in conns:
            sel.register(c, selectors.EVENT_READ)
        for key, _ in sel.select(timeout=0.2):
            if key.fileobj is listener:
                _accept(listener, conns, kids, forkable, zygote_env)
            elif key.fileobj == _ENDED[0]:
                while _drain(_ENDED[0]):
                    pass
            elif key.fileobj in kids:  # a launcher closed: it was killed, so is its kernel
                if not key.fileobj.recv(64):
                    try:
                        os.kill(kids[key.fileobj], signal.SIGKILL)
                    except ProcessLookupError:
                        pass
        sel.close()
        _reap(kids, conns)


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        serve(sys.argv[2])
    else:
        launch(sys.argv[2:] if sys.argv[1:2] == ["launch"] else sys.argv[1:])
