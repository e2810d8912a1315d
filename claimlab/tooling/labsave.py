"""What a notebook saved from ``make lab`` keeps: its cells, never its outputs.

The labs in ``notebooks/`` are tracked files. A person who runs one in JupyterLab and saves it
would otherwise write its outputs into the checkout: absolute paths of their machine, their
answers, widget state. ``make lab`` starts JupyterLab with :func:`clear_outputs` as the
contents manager's pre-save hook, so a saved notebook keeps its code, text and parameters,
and every output, execution count and saved widget state is left out. The outputs stay on the
screen until the page is reloaded; running the notebook again draws them.
"""

from __future__ import annotations

from typing import Any

HOOK = "claimlab.tooling.labsave.clear_outputs"  # as ``--ContentsManager.pre_save_hook`` takes it


def clear_outputs(model: dict[str, Any], **_context: Any) -> None:
    """Leave out a notebook's outputs, execution counts and widget state before it is saved.

    Called by Jupyter's contents manager with the model about to be written (changed in place,
    as the hook protocol asks); any other kind of file is left as it is.

    Examples:
        >>> nb = {"type": "notebook", "content": {"metadata": {"widgets": {}}, "cells": [
        ...     {"cell_type": "code", "outputs": [{"text": "/home/me"}], "execution_count": 3}]}}
        >>> clear_outputs(nb)
        >>> nb["content"]
        {'metadata': {}, 'cells': [{'cell_type': 'code', 'outputs': [], 'execution_count': None}]}
    """
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    content = model["content"]
    metadata = content.get("metadata")
    if isinstance(metadata, dict):
        metadata.pop("widgets", None)
    for cell in content.get("cells") or []:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
