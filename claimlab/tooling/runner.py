"""Notebook registry and headless execution through papermill.

Each registered notebook declares its parameters in a cell tagged ``parameters``; the runner
reads that cell and refuses any parameter the notebook does not declare (papermill only warns).
Outputs are written to a temporary file and renamed, so a failed run never replaces a good one.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.processes import end_group
from claimlab.io.files import replacing_all
from claimlab.notebook.records import records_from_notebook
from claimlab.tooling.paths import labs_notebooks

KERNEL = "python3"
DEFAULT_TIMEOUT = 600


def registered_notebooks() -> list[Path]:
    """Every notebook a run without names executes: ``NN_*.ipynb`` of the labs, in number order.

    The labs are the working folder's (a copy made by ``claimlab notebooks``) when it has them,
    else the ones shipped with claimlab.
    """
    return sorted(p for p in labs_notebooks().glob("[0-9][0-9]_*.ipynb"))


JSON_TYPES: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "int": (int,),
    "float": (int, float),
    "bool": (bool,),
    "list": (list,),
    "dict": (dict,),
    "None": (type(None),),
}


@dataclass(frozen=True)
class Parameter:
    """A declared notebook parameter: its default and the JSON types a value may have."""

    name: str
    default: Any
    types: tuple[str, ...]  # empty: any value

    def check(self, value: Any, *, file: str) -> None:
        """Raise a one-line error when ``value`` has none of the declared types."""
        if not self.types:
            return
        for t in self.types:
            kinds = JSON_TYPES[t]
            if isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds):
                return
        want = " or ".join(_TYPE_WORDS[t] for t in self.types)
        hint = ""
        if "list" in self.types and isinstance(value, str):
            hint = f" (write a JSON list, e.g. -p {self.name} '[\"{value}\"]')"
        raise ClaimlabInputError(
            f"must be {want}, got {json.dumps(value, ensure_ascii=False)}{hint}",
            file=file,
            field=f"-p {self.name}",
        )


_TYPE_WORDS = {
    "str": "a string",
    "int": "an integer",
    "float": "a number",
    "bool": "true or false",
    "list": "a JSON list",
    "dict": "a JSON object",
    "None": "null",
}


def load_notebook(path: str | Path) -> Any:
    """A notebook file as an nbformat v4 node, or a one-line error naming the file.

    A notebook someone edited by hand (or cut short while copying) is refused here, whichever
    way nbformat fails on it (not JSON, not UTF-8, a missing or mistyped key).

    Raises:
        ClaimlabInputError: the file is missing, unreadable or not a notebook.
    """
    import warnings

    import nbformat

    try:
        with warnings.catch_warnings():  # a cell without an id is given one, not warned about
            warnings.filterwarnings("ignore", message="Cell is missing an id field")
            return nbformat.read(str(path), as_version=4)
    except FileNotFoundError:
        raise ClaimlabInputError("notebook not found", file=str(path)) from None
    except UnicodeDecodeError as exc:
        raise ClaimlabInputError(
            f"not UTF-8 text: byte 0x{exc.object[exc.start]:02x}", file=str(path)
        ) from None
    except Exception as exc:  # nbformat raises ValueError, ValidationError, TypeError, ...
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        if len(first) > 120:
            first = first[:117] + "..."
        raise ClaimlabInputError(f"not a readable notebook: {first}", file=str(path)) from None


def _annotation_types(node: Any, *, file: str) -> tuple[str, ...]:
    """``list[str] | str`` -> ("list", "str"); the names JSON values can have."""
    import ast

    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _annotation_types(node.left, file=file) + _annotation_types(node.right, file=file)
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Constant) and node.value is None:
        return ("None",)
    if isinstance(node, ast.Name) and node.id in JSON_TYPES:
        return (node.id,)
    raise ClaimlabInputError(
        f"parameter annotations may name only {', '.join(JSON_TYPES)}",
        file=file,
        field="parameters",
    )


def _default_types(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, bool):
        return ("bool",)
    if isinstance(value, float):
        return ("float",)
    return (type(value).__name__,) if type(value).__name__ in JSON_TYPES else ()


def notebook_parameters(path: str | Path) -> dict[str, Parameter]:
    """The parameters declared in the cell tagged ``parameters``, with their types.

    Each line is ``NAME = literal`` or ``NAME: TYPES = literal`` (``TYPES`` such as
    ``list[str] | str``); without an annotation the default's type is the only one accepted
    (an integer is accepted for a float; a None default accepts anything).

    Raises:
        ClaimlabInputError: when the notebook has no such cell or it holds anything but literals.
    """
    import ast

    nb = load_notebook(path)
    for cell in nb.cells:
        if cell.cell_type == "code" and "parameters" in cell.metadata.get("tags", []):
            out: dict[str, Parameter] = {}
            tree = ast.parse(cell.source)
            for node in tree.body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1:
                    target, annotation = node.targets[0], None
                elif isinstance(node, ast.AnnAssign) and node.value is not None:
                    target, annotation = node.target, node.annotation
                else:
                    raise ClaimlabInputError(
                        "the parameters cell may only hold NAME = literal lines",
                        file=str(path),
                        field="parameters",
                    )
                if not isinstance(target, ast.Name):
                    raise ClaimlabInputError(
                        "the parameters cell may only hold NAME = literal lines",
                        file=str(path),
                        field="parameters",
                    )
                default = ast.literal_eval(node.value)
                types = (
                    _annotation_types(annotation, file=str(path))
                    if annotation is not None
                    else _default_types(default)
                )
                out[target.id] = Parameter(target.id, default, types)
            return out
    raise ClaimlabInputError("no cell tagged 'parameters'", file=str(path))


def declared_parameters(path: str | Path) -> dict[str, Any]:
    """Parameter names and default values from the cell tagged ``parameters``."""
    return {name: p.default for name, p in notebook_parameters(path).items()}


def parse_value(text: str) -> Any:
    """A ``-p NAME VALUE`` value: a JSON literal if it parses, else the plain string."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError):  # not JSON (or nested too deep): the string
        return text


def absolutise_paths(params: Mapping[str, Any], *, cwd: Path | None = None) -> dict[str, Any]:
    """Turn string values that name files relative to ``cwd`` into absolute paths.

    The notebook runs in ``notebooks/``; a user's ``-p FIXTURE my.json`` means their own folder,
    and so does a folder the notebook writes into (a parameter named ``..._DIR``, such as
    ``-p WORK_DIR ana``), whether or not it exists yet.
    """
    base = cwd or Path.cwd()
    out = {}
    for k, v in params.items():
        names_a_path = isinstance(v, str) and v and not os.path.isabs(v)
        if names_a_path and ((base / v).exists() or k.endswith("_DIR")):
            out[k] = str((base / v).resolve())
        else:
            out[k] = v
    return out


@dataclass(frozen=True)
class RunResult:
    """One executed notebook."""

    stem: str
    notebook: Path
    records_path: Path
    seconds: float
    records: dict[str, Any]
    parameters: dict[str, Any]


INPUT_ERRORS = frozenset({"ClaimlabInputError", "FixtureError", "LedgerError", "NotebookFailed"})


class NotebookFailed(ClaimlabInputError):
    """A notebook raised while executing; the message carries the error the cell raised.

    ``input_error`` is True when the cell refused the user's input (a claimlab input error,
    whose message names file, record and field), False for any other exception.
    """

    def __init__(self, problem: str, *, file: str | None = None, input_error: bool = False):
        super().__init__(problem, file=file)
        self.input_error = input_error


def _checked_parameters(
    nb_path: Path, parameters: Mapping[str, Any] | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The notebook's declared defaults, and the given values (each declared and of its type).

    Raises:
        ClaimlabInputError: no such notebook, an undeclared parameter or a value of a wrong type.
    """
    if not nb_path.exists():
        raise ClaimlabInputError("notebook not found", file=str(nb_path))
    declared_types = notebook_parameters(nb_path)
    declared = {name: p.default for name, p in declared_types.items()}
    params = dict(parameters or {})
    unknown = sorted(set(params) - set(declared))
    if unknown:
        raise ClaimlabInputError(
            f"undeclared parameter(s) {', '.join(unknown)}; this notebook declares "
            f"{', '.join(declared) or 'none'}",
            file=str(nb_path),
            field="parameters",
        )
    for name, value in params.items():
        declared_types[name].check(value, file=str(nb_path))
    return declared, params


def _output_folder(output_dir: str | Path) -> Path:
    """The output folder, made if missing (refused in one line when it cannot be)."""
    out_dir = Path(output_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise ClaimlabInputError("is a file, not a folder", file=str(out_dir), field="--output")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ClaimlabInputError(
            f"cannot create the output folder ({exc.strerror})", file=str(out_dir)
        ) from None
    return out_dir


@contextmanager
def figures_folder(target: Path) -> Iterator[Path]:
    """Collect the figures a notebook draws, and put them in ``target`` once it has run.

    The kernel writes each figure as PNG and SVG (see ``claimlab.notebook.display``) into a
    fresh folder beside ``target`` named by ``$CLAIMLAB_FIGURES``; when the block ends
    without error the folder replaces ``target`` (so a figure no longer drawn is gone), and
    on an error it is removed and any earlier ``target`` stays.
    """
    import shutil

    from claimlab.notebook.display import FIGURES_ENV

    fresh = target.with_name(f".{target.name}.figures-{os.getpid()}")
    shutil.rmtree(fresh, ignore_errors=True)
    fresh.mkdir(parents=True)
    before = os.environ.get(FIGURES_ENV)
    os.environ[FIGURES_ENV] = str(fresh.resolve())
    try:
        yield fresh
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    finally:
        if before is None:
            os.environ.pop(FIGURES_ENV, None)
        else:
            os.environ[FIGURES_ENV] = before
    old = target.with_name(f".{target.name}.old-{os.getpid()}")
    if target.is_dir():
        os.replace(target, old)
    os.replace(fresh, target)
    shutil.rmtree(old, ignore_errors=True)


def run_notebook(
    path: str | Path,
    *,
    parameters: Mapping[str, Any] | None = None,
    output_dir: str | Path = "outputs",
    timeout: int = DEFAULT_TIMEOUT,
) -> RunResult:
    """Execute a notebook with papermill and write ``<stem>.ipynb`` and ``<stem>.records.json``.

    Every figure the notebook draws is also written as PNG and SVG to ``<stem>/`` beside
    them (``01-<title>.png``, ``01-<title>.svg``, ... in the order drawn).

    Args:
        path: The notebook to run.
        parameters: Values for declared parameters; unknown names are refused.
        output_dir: Where to write; created when missing.
        timeout: Seconds allowed per cell.

    Raises:
        ClaimlabInputError: unknown notebook or undeclared parameter.
        NotebookFailed: a cell raised; the partly executed notebook is kept as
            ``<stem>.failed.ipynb`` and any earlier good output is left untouched.
    """
    import papermill
    from papermill.exceptions import PapermillExecutionError

    nb_path = Path(path)
    declared, params = _checked_parameters(nb_path, parameters)
    out_dir = _output_folder(output_dir)
    stem = nb_path.stem
    final_nb = out_dir / f"{stem}.ipynb"
    final_rec = out_dir / f"{stem}.records.json"
    failed = out_dir / f"{stem}.failed.ipynb"
    started = time.perf_counter()
    # the notebook and its records belong together: both are renamed into place, or neither
    with (
        figures_folder(out_dir / stem),
        replacing_all([final_nb, final_rec], keep_suffix=True) as (tmp_nb, tmp_rec),
    ):
        try:
            _execute(papermill, nb_path, tmp_nb, params, timeout)
        except PapermillExecutionError as exc:
            os.replace(tmp_nb, failed)
            last = str(exc.evalue).strip().splitlines()
            raise NotebookFailed(
                f"cell {exc.exec_count} raised {exc.ename}: {last[-1] if last else ''} "
                f"(partial run kept in {failed})",
                file=str(nb_path),
                # the user's input was refused: its own message names file, record and field
                input_error=exc.ename in INPUT_ERRORS,
            ) from None
        seconds = time.perf_counter() - started
        records = records_from_notebook(json.loads(tmp_nb.read_text(encoding="utf-8")))
        used = {**declared, **params}
        _write_records(tmp_rec, nb_path.name, used, seconds, records)
    failed.unlink(missing_ok=True)
    return RunResult(stem, final_nb, final_rec, seconds, records, used)


def _write_records(
    path: Path, notebook: str, used: dict[str, Any], seconds: float, records: dict[str, Any]
) -> None:
    """The records file: the notebook, the parameters it ran with, its time and its records."""
    doc = {
        "notebook": notebook,
        "parameters": used,
        "seconds": round(seconds, 3),
        "records": records,
    }
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=2) + "\n", "utf-8")


def _execute(
    papermill: Any, nb_path: Path, out: Path, params: Mapping[str, Any], timeout: Any
) -> None:
    """Execute with papermill; a kernel that dies before it answers is started once more.

    The kernel talks over sockets in a folder of its own (:func:`_kernel_sockets`), not TCP
    ports: a port picked free and bound a moment later can be taken in between by any process
    on the machine, and a kernel that cannot bind it may hang instead of dying. Where TCP must
    be used, a kernel that dies before it answers is not the notebook's failure, and a second
    kernel picks other ports.
    """
    with _kernels_stderr_aside(), _kernel_sockets() as config:
        for attempt in (1, 2):
            try:
                with _quiet_papermill():
                    _execute_once(papermill, nb_path, out, params, timeout, config)
                return
            except RuntimeError as exc:
                if attempt == 2 or "Kernel died before replying" not in str(exc):
                    raise


# a Unix socket's path holds at most 107 bytes; the kernel's are "<folder>/k-<number>"
SOCKET_PATH_MAX = 107
# Seconds a kernel has to end after its notebook ran: half to end on its own after the
# shutdown request, half after SIGTERM, then SIGKILL (jupyter_client's default is 5). A kernel
# ends in about 0.2 s; but now and then ipykernel 7's control thread blocks on a socket its
# closing IOPub thread no longer reads, and the kernel waits for it until terminated: with
# the default, about one run in twenty-five (one in four of some notebooks) sat idle 2.5 s.
# Every output has come back before the shutdown: nothing of the run is lost when it is cut.
KERNEL_SHUTDOWN_WAIT = 1.0


@contextmanager
def _kernel_sockets() -> Iterator[Any]:
    """The kernel manager's configuration: IPC sockets in a private temporary folder.

    Nothing else on the machine can take a path in a folder made for this run, so the
    kernel's start cannot race another process for its addresses; the folder carries this
    process's pid (:func:`claimlab.io.files.temp_dir`), so a run killed before it could remove
    it leaves it to the next run to remove. Where Unix sockets are missing (Windows) or the
    temporary folder's path is too long for them, TCP is kept. Either way a kernel is given
    :data:`KERNEL_SHUTDOWN_WAIT` seconds to end.
    """
    import shutil
    import tempfile

    from traitlets.config import Config

    from claimlab.io.files import temp_dir

    config = Config()
    config.KernelManager.shutdown_wait_time = KERNEL_SHUTDOWN_WAIT
    # the folder's name (".claimlab-kernel.<pid>-<8 hex>.claimlab-tmp") and "/k-<n>" after it
    if os.name != "posix" or len(tempfile.gettempdir()) + 60 > SOCKET_PATH_MAX:
        yield config
        return
    folder = str(temp_dir("kernel"))
    try:
        config.KernelManager.transport = "ipc"
        config.KernelManager.ip = os.path.join(folder, "k")
        yield config
    finally:
        shutil.rmtree(folder, ignore_errors=True)


_MANAGER: list[type] = []  # the kernel manager class, made once (it imports jupyter_client)


def _run_kernel_manager() -> type:
    """jupyter_client's kernel manager, ending what is left of the kernel's process group.

    The kernel runs in a process group of its own; once it has ended, a process it started
    in that group and left running (a fork that ignores SIGTERM) is killed, so a run leaves
    nothing behind and the standard output it shares is closed. A process that left the group
    (a new session) is not reached.
    """
    if not _MANAGER:
        from jupyter_client.manager import AsyncKernelManager

        class RunKernelManager(AsyncKernelManager):
            def write_connection_file(self, **kwargs: Any) -> None:
                """The connection file in the run's kernel folder, with its IPC sockets.

                Not loose in the system's temporary folder: a run killed before it could
                remove the file leaves it to the next run, which removes the folder (TCP: as
                jupyter_client does).
                """
                if not self.connection_file and self.transport == "ipc":
                    import tempfile

                    folder = os.path.dirname(self.ip)
                    fd, self.connection_file = tempfile.mkstemp(".json", "kernel-", folder)
                    os.close(fd)
                super().write_connection_file(**kwargs)

            async def shutdown_kernel(  # type: ignore[override]  # async, as its base
                self, now: bool = False, restart: bool = False
            ) -> None:
                group = getattr(self.provisioner, "pgid", None)
                await super().shutdown_kernel(now=now, restart=restart)
                if group and not restart:
                    end_group(group)

        _MANAGER.append(RunKernelManager)
    return _MANAGER[0]


@contextmanager
def _kernels_stderr_aside() -> Iterator[None]:
    """The kernels started inside write their standard error to a file, shown only on failure.

    A kernel's own standard error (not a cell's: ipykernel sends that to the notebook) holds
    its log and what its C libraries print; on a busy machine libzmq may print an assertion
    as a kernel is shut down after its notebook ran ("Assertion failed: pfd.revents &
    POLLIN"), a line in the middle of the run's progress. A run that succeeds drops it; when
    the run fails, it follows on standard error, as before.
    """
    import sys
    import tempfile

    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as log:
        os.dup2(log.fileno(), 2)
        try:
            yield
        except BaseException:
            sys.stderr.flush()
            os.dup2(saved, 2)
            log.seek(0)
            os.write(2, log.read()[-20_000:])
            raise
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)


@contextmanager
def _quiet_papermill() -> Iterator[None]:
    """Papermill's own parameter warnings off while it runs: claimlab checks the parameters.

    Papermill cannot parse a typed parameter line (``CONTEXT: list[str] | None = None``), then
    warns that it cannot and that a parameter the notebook does declare is unknown; and
    nbformat warns about a notebook without cell ids, which papermill gives ids. Both broke
    the one-line-per-notebook progress; undeclared parameters are refused before any run.
    """
    import logging
    import warnings

    log = logging.getLogger("papermill")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Cell is missing an id field")
            yield
    finally:
        log.setLevel(level)


def _execute_once(
    papermill: Any,
    nb_path: Path,
    out: Path,
    params: Mapping[str, Any],
    timeout: Any,
    config: Any,
) -> None:
    """One papermill execution (see :func:`_execute`); ``config`` is the kernel manager's."""
    papermill.execute_notebook(
        str(nb_path),
        str(out),
        parameters=dict(params),
        kernel_name=KERNEL,
        cwd=str(nb_path.resolve().parent),
        execution_timeout=timeout,
        progress_bar=False,
        log_output=False,
        report_mode=False,
        # written once at the end (and on a cell error), not after every cell: the output goes
        # to a temporary file renamed into place anyway, and rewriting a notebook with its
        # figures (1-2 MB) after each of 40 cells cost about 0.8 s of the run's own time
        request_save_on_cell_execute=False,
        config=config,  # the kernel's transport (passed on to nbclient's kernel manager)
        kernel_manager_class=_run_kernel_manager(),
        # the kernel's own log (a warning about unencrypted local TCP; an error when the
        # interrupt the client sends before every shutdown lands inside a message
        # handler) would break the one-line-per-notebook progress; cell errors come
        # back as messages. Tornado logs through its own logger: a shutdown that closes the
        # kernel's sockets while its control handler flushes prints a traceback of
        # "Socket operation on non-socket" (a race in ipykernel, nothing of the notebook's),
        # so that logger is quietened the same way (not stored in the history: no count)
        extra_arguments=[
            "--IPKernelApp.log_level=CRITICAL",
            "--IPKernelApp.exec_lines=__import__('logging').getLogger('tornado').setLevel(50)",
        ],
    )


def resolve_notebooks(names: Sequence[str]) -> list[Path]:
    """Notebook paths from names, stems or paths; all registered ones when empty."""
    if not names:
        return registered_notebooks()
    out = []
    for name in names:
        p = Path(name)
        if p.exists():
            out.append(p)
            continue
        matches = [
            n
            for n in registered_notebooks()
            if n.stem == name or n.name == name or n.stem.startswith(name)
        ]
        if len(matches) != 1:
            known = ", ".join(n.stem for n in registered_notebooks())
            raise ClaimlabInputError(f"unknown notebook (registered: {known})", file=name)
        out.append(matches[0])
    return out
