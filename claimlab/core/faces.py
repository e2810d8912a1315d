"""A package's face: the names it declares public, each loaded from its module on first use.

A lab (``claimlab.labs.<lab>``) declares in its ``__init__`` the names other modules, the
notebooks and the documentation may import (``__all__``); everything else in the lab is its
own. Each public name is loaded when first asked for, so importing a face costs nothing until
a name is used (``claimlab --help`` loads no lab).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def face(
    package: str, names: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for a package whose public ``names`` load on first use.

    ``names`` maps each public name to the submodule (relative to ``package``) defining it;
    a name mapped to itself is that submodule.

    Examples:
        >>> getattr_, dir_ = face("claimlab.core", {"Ratio": "ratio", "text": "text"})
        >>> getattr_("Ratio").__name__, getattr_("text").__name__, dir_()
        ('Ratio', 'claimlab.core.text', ['Ratio', 'text'])
    """

    def getattr_(name: str) -> Any:
        where = names.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no public name {name!r}")
        module = importlib.import_module(f"{package}.{where}")
        return module if where == name else getattr(module, name)

    def dir_() -> list[str]:
        return sorted(names)

    return getattr_, dir_
