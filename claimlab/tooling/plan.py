"""Which notebook of a ``claimlab run`` gets which parameter: one rule for ``-p`` and files.

``-p NAME VALUE`` goes to every listed notebook that declares ``NAME``, and is refused only
when none of them does; ``-p STEM:NAME VALUE`` (``STEM`` a notebook's file stem, or its
number such as ``06``) goes to that notebook only; ``--parameters FILE.json`` holds
``{STEM: {NAME: VALUE}}``. The more specific wins: an unqualified ``-p`` < the file's entry
for that notebook < a stem-qualified ``-p``; among equals, the later one.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.text import did_you_mean


def notebook_of(key: str, stems: Sequence[str]) -> str | None:
    """The listed stem that ``key`` names: the stem itself, or its number (``06``).

    Examples:
        >>> notebook_of("06", ["01_a", "06_b"]), notebook_of("06_b", ["06_b"]), notebook_of("7", ["06_b"])
        ('06_b', '06_b', None)
    """
    if key in stems:
        return key
    found = [s for s in stems if s.split("_", 1)[0] == key]
    return found[0] if len(found) == 1 else None


def _stem_of(key: str, declared: Mapping[str, Collection[str]], *, field: str) -> str:
    """The notebook a qualified key names, or a one-line refusal."""
    stem = notebook_of(key, list(declared))
    if stem is None:
        raise ClaimlabInputError(
            f"{key!r} is not a notebook of this run ({', '.join(declared)})"
            + did_you_mean(key, declared),
            field=field,
        )
    return stem


def _declared_by(stem: str, name: str, declared: Mapping[str, Collection[str]], field: str) -> None:
    """Refuse a parameter the notebook does not declare, naming what it does declare."""
    if name not in declared[stem]:
        raise ClaimlabInputError(
            f"{stem} does not declare {name}{did_you_mean(name, declared[stem])}; it declares "
            f"{', '.join(declared[stem]) or 'none'}",
            field=field,
        )


def plan_parameters(
    declared: Mapping[str, Collection[str]],
    given: Sequence[tuple[str, Any]] = (),
    per_notebook: Mapping[str, Mapping[str, Any]] | None = None,
    *,
    source: str = "--parameters",
) -> dict[str, dict[str, Any]]:
    """Each listed notebook's parameters (``declared``: stem -> the names it declares).

    Args:
        declared: The notebooks of the run, in order, with their declared parameter names.
        given: ``-p`` pairs in command-line order: ``NAME`` or ``STEM:NAME``, and the value.
        per_notebook: A parameters file's ``{STEM: {NAME: VALUE}}``.
        source: The file's name, for errors.

    Raises:
        ClaimlabInputError: an unqualified name no listed notebook declares, a stem that is not
            in the run, or a name that notebook does not declare (one line, did-you-mean).

    Examples:
        >>> declared = {"01_a": ["FIXTURE", "MODES"], "06_b": ["FIXTURE", "PUZZLE"]}
        >>> plan_parameters(declared, [("FIXTURE", "x.json"), ("06:FIXTURE", "y.json")])
        {'01_a': {'FIXTURE': 'x.json'}, '06_b': {'FIXTURE': 'y.json'}}
        >>> plan_parameters(declared, [("MODES", "all")])
        {'01_a': {'MODES': 'all'}, '06_b': {}}
    """
    everyone = {n for names in declared.values() for n in names}
    general: dict[str, dict[str, Any]] = {stem: {} for stem in declared}
    specific: dict[str, dict[str, Any]] = {stem: {} for stem in declared}
    for key, value in given:
        stem_key, colon, name = key.rpartition(":")
        field = f"-p {key}"
        if not colon:
            if name not in everyone:
                raise ClaimlabInputError(
                    f"undeclared parameter(s) {name}{did_you_mean(name, everyone)}: no "
                    "notebook of this run declares it",
                    field=field,
                )
            for stem, names in declared.items():
                if name in names:
                    general[stem][name] = value
            continue
        stem = _stem_of(stem_key, declared, field=field)
        _declared_by(stem, name, declared, field)
        specific[stem][name] = value
    from_file = _file_entries(declared, per_notebook or {}, source)
    return {stem: {**general[stem], **from_file[stem], **specific[stem]} for stem in declared}


def _file_entries(
    declared: Mapping[str, Collection[str]], per_notebook: Mapping[str, Any], source: str
) -> dict[str, dict[str, Any]]:
    """A parameters file's entries per listed notebook; a notebook not in the run is refused."""
    out: dict[str, dict[str, Any]] = {stem: {} for stem in declared}
    for key, values in per_notebook.items():
        if not isinstance(values, Mapping):
            raise ClaimlabInputError(
                "must map parameter names to values", file=source, record=str(key)
            )
        stem = notebook_of(str(key), list(declared))
        if stem is None:
            raise ClaimlabInputError(
                f"not a notebook of this run ({', '.join(declared)})"
                + did_you_mean(str(key), declared),
                file=source,
                record=str(key),
            )
        for name, value in values.items():
            if name not in declared[stem]:
                raise ClaimlabInputError(
                    f"{stem} does not declare it{did_you_mean(str(name), declared[stem])}",
                    file=source,
                    record=str(key),
                    field=str(name),
                )
            out[stem][name] = value
    return out
