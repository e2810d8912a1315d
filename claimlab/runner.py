"""Notebook registry and headless execution through papermill.

Each registered notebook declares its parameters in a cell tagged ``parameters``; the runner
reads that cell and refuses any parameter the notebook does not declare (papermill only warns).
Outputs are written to a temporary file and renamed, so a failed run never replaces a good one.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claimlab.errors import ClaimlabInputError
from claimlab.paths import NOTEBOOKS_DIR, replacing
from claimlab.records import records_from_notebook

KERNEL = "python3"
DEFAULT_TIMEOUT = 600


def registered_notebooks() -> list[Path]:
    """Every notebook ``make run`` executes: ``notebooks/NN_*.ipynb`` in number order."""
    return sorted(p for p in NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))


def declared_parameters(path: str | Path) -> dict[str, Any]:
    """Parameter names and default values from the cell tagged ``parameters``.

    Raises:
        ClaimlabInputError: when the notebook has no such cell or it holds anything but literals.
    """
    import ast

    import nbformat

    nb = nbformat.read(str(path), as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code" and "parameters" in cell.metadata.get("tags", []):
            out: dict[str, Any] = {}
            tree = ast.parse(cell.source)
            for node in tree.body:
                if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                    raise ClaimlabInputError(
                        "the parameters cell may only hold NAME = literal lines",
                        file=str(path),
                        field="parameters",
                    )
                name = node.targets[0].id  # type: ignore[attr-defined]
                out[name] = ast.literal_eval(node.value)
            return out
    raise ClaimlabInputError("no cell tagged 'parameters'", file=str(path))


def parse_value(text: str) -> Any:
    """A ``-p NAME VALUE`` value: a JSON literal if it parses, else the plain string."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def absolutise_paths(params: Mapping[str, Any], *, cwd: Path | None = None) -> dict[str, Any]:
    """Turn string values that name existing files relative to ``cwd`` into absolute paths.

    The notebook runs in ``notebooks/``; a user's ``-p FIXTURE my.json`` means their own folder.
    """
    base = cwd or Path.cwd()
    out = {}
    for k, v in params.items():
        if isinstance(v, str) and v and not os.path.isabs(v) and (base / v).exists():
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


class NotebookFailed(ClaimlabInputError):
    """A notebook raised while executing; the message carries the error the cell raised."""


def atomic_write(path: Path, text: str) -> None:
    """Write text to a temporary file beside ``path``, then rename it into place."""
    with replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def run_notebook(
    path: str | Path,
    *,
    parameters: Mapping[str, Any] | None = None,
    output_dir: str | Path = "outputs",
    timeout: int = DEFAULT_TIMEOUT,
) -> RunResult:
    """Execute a notebook with papermill and write ``<stem>.ipynb`` and ``<stem>.records.json``.

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
    if not nb_path.exists():
        raise ClaimlabInputError("notebook not found", file=str(path))
    declared = declared_parameters(nb_path)
    params = dict(parameters or {})
    unknown = sorted(set(params) - set(declared))
    if unknown:
        raise ClaimlabInputError(
            f"undeclared parameter(s) {', '.join(unknown)}; this notebook declares "
            f"{', '.join(declared) or 'none'}",
            file=str(nb_path),
            field="parameters",
        )
    out_dir = Path(output_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = nb_path.stem
    final_nb = out_dir / f"{stem}.ipynb"
    final_rec = out_dir / f"{stem}.records.json"
    fd, tmp_nb = tempfile.mkstemp(dir=out_dir, prefix=f".{stem}.", suffix=".ipynb")
    os.close(fd)
    started = time.perf_counter()
    try:
        papermill.execute_notebook(
            str(nb_path),
            tmp_nb,
            parameters=params,
            kernel_name=KERNEL,
            cwd=str(nb_path.resolve().parent),
            execution_timeout=timeout,
            progress_bar=False,
            log_output=False,
            report_mode=False,
            # the kernel's own log (a warning about unencrypted local TCP; an error when the
            # interrupt the client sends before every shutdown lands inside a message handler)
            # would break the one-line-per-notebook progress; cell errors come back as messages
            extra_arguments=["--IPKernelApp.log_level=CRITICAL"],
        )
    except PapermillExecutionError as exc:
        failed = out_dir / f"{stem}.failed.ipynb"
        os.replace(tmp_nb, failed)
        last = str(exc.evalue).strip().splitlines()
        raise NotebookFailed(
            f"cell {exc.exec_count} raised {exc.ename}: {last[-1] if last else ''} "
            f"(partial run kept in {failed})",
            file=str(nb_path),
        ) from None
    except BaseException:
        if os.path.exists(tmp_nb):
            os.unlink(tmp_nb)
        raise
    seconds = time.perf_counter() - started
    nb = json.loads(Path(tmp_nb).read_text(encoding="utf-8"))
    records = records_from_notebook(nb)
    used = {**declared, **params}
    rec_doc = {
        "notebook": nb_path.name,
        "parameters": used,
        "seconds": round(seconds, 3),
        "records": records,
    }
    os.replace(tmp_nb, final_nb)
    atomic_write(final_rec, json.dumps(rec_doc, ensure_ascii=False, indent=2) + "\n")
    stale = out_dir / f"{stem}.failed.ipynb"
    if stale.exists():
        stale.unlink()
    return RunResult(stem, final_nb, final_rec, seconds, records, used)


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
