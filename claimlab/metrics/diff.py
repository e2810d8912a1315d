"""What changed between two runs: the claims (or items) whose verdicts moved, grouped and weighed.

Metric card. A run is a set of *units*: a claim, a chunk, or one item's row of counts, each
named by its item (the answer or query id), its kind and its key within them; each carries its
labels (what a verdict decided: a status, entailed or not, the chunks that entail it, a count)
and its share of every figure (a numerator and a denominator count). Two runs' units are
matched by (item, kind, key); a matched unit whose labels differ, or a unit only one run holds,
is a *change*. Changes are grouped by what moved: the kind and, per label, its move
(``entailed: yes -> no``, ``chunks: some -> none``, ``covered fell``, ``only in run B``).

A group's *effect* on a figure is run A's micro figure (summed counts) minus the same figure
with only that group's changes applied, in the figure's better direction: positive when the
change makes the figure worse (as the gate's drop). Undefined: a figure N/A (0/0) before or
after the changes gives no effect (None, shown N/A). Groups are listed by the size of their
effect, largest first (N/A last), then by their number of changes, then by name; a run
compared with itself has no change, and renaming ids changes no count.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.frozen import freeze
from claimlab.core.ratio import Ratio
from claimlab.core.text import label_text
from claimlab.core.vocab import CandidateState

Label = bool | int | str | tuple[str, ...]
Counts = tuple[int, int]
ONLY = ("only in run A", "only in run B")


@dataclass(frozen=True)
class Unit:
    """One thing a run decided about: a claim, a chunk, or an item's row of counts."""

    item: str  # the answer or query id
    kind: str  # "response claim", "ground-truth claim", "chunk", "candidate", "answer", ...
    key: str  # what names it within its item and kind (a claim's text, a candidate id)
    text: str  # what is shown
    labels: Mapping[str, Label]
    counts: Mapping[str, Counts] = field(default_factory=dict)  # figure -> (numerator, denominator)

    def __post_init__(self) -> None:
        freeze(self, "labels", "counts")

    @property
    def ident(self) -> tuple[str, str, str]:
        """How two runs' units are matched: item, kind, key."""
        return (self.item, self.kind, self.key)


def move(name: str, before: Label | None, after: Label | None) -> str:
    """How one label moved, in the words a group is named by.

    A yes/no or text label by both values; a count by its direction; a set of ids by whether it
    emptied, filled or changed.

    Examples:
        >>> move("entailed", True, False), move("covered", 5, 4)
        ('entailed: yes -> no', 'covered fell')
        >>> move("chunks", (), ("d1",)), move("chunks", ("d1",), ("d2",))
        ('chunks: none -> some', 'chunks: changed')
    """
    if isinstance(before, bool) or isinstance(after, bool) or isinstance(before, str):
        return f"{name}: {label_text(before)} -> {label_text(after)}"
    if isinstance(before, int) and isinstance(after, int):
        return f"{name} {'rose' if after > before else 'fell'}"
    if isinstance(before, tuple) and isinstance(after, tuple) and (not before or not after):
        return f"{name}: {'none -> some' if not before else 'some -> none'}"
    return f"{name}: changed"


@dataclass(frozen=True)
class Change:
    """One unit whose labels moved, or that only one run holds (``before``/``after`` None)."""

    item: str
    kind: str
    key: str
    text: str
    before: Mapping[str, Label] | None
    after: Mapping[str, Label] | None
    moves: tuple[str, ...]  # each label's move (``ONLY`` when only one run holds the unit)

    @property
    def group(self) -> str:
        """The group's name: the kind and every move."""
        return f"{self.kind}: {'; '.join(self.moves)}"

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the unit's names and both runs' labels as shown."""

        def shown(labels: Mapping[str, Label] | None) -> dict[str, str] | None:
            return None if labels is None else {k: label_text(v) for k, v in labels.items()}

        return {"item": self.item, "kind": self.kind, "key": self.key, "text": self.text,
                "before": shown(self.before), "after": shown(self.after)}  # fmt: skip


@dataclass(frozen=True)
class ChangeGroup:
    """Changes that moved the same way, and their effect on the figure (points; + is worse)."""

    name: str
    changes: tuple[Change, ...]
    effect: float | None
    items: int  # distinct answers or queries among the changes

    @property
    def count(self) -> int:
        """How many units changed this way."""
        return len(self.changes)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the name, the count, the items, the effect, every change."""
        return {"change": self.name, "count": self.count, "items": self.items,
                "effect": self.effect, "changes": [c.to_dict() for c in self.changes]}  # fmt: skip


@dataclass(frozen=True)
class RunDiff:
    """Two runs compared unit by unit: the groups of changes, weighed on ``figure``."""

    figure: str | None
    higher_is_better: bool
    before: Ratio  # the figure's summed counts in run A
    after: Ratio  # and in run B
    groups: tuple[ChangeGroup, ...]
    units: tuple[int, int]  # units in run A, in run B
    matched: int  # units both runs hold

    @property
    def changed(self) -> int:
        """Every change counted once (the groups' counts summed)."""
        return sum(g.count for g in self.groups)

    @property
    def drop(self) -> float | None:
        """The figure's drop from run A to run B in its better direction (None when N/A)."""
        return _drop(self.before, self.after, self.higher_is_better)

    def to_dict(self) -> dict[str, Any]:
        """JSON form (``claimlab diff --json``)."""
        return {
            "figure": self.figure,
            "higher_is_better": self.higher_is_better,
            "before": {"counts": self.before.counts, "value": self.before.value},
            "after": {"counts": self.after.counts, "value": self.after.value},
            "drop": self.drop,
            "units_a": self.units[0],
            "units_b": self.units[1],
            "matched": self.matched,
            "changed": self.changed,
            "groups": [g.to_dict() for g in self.groups],
        }


def _drop(a: Ratio, b: Ratio, higher_is_better: bool) -> float | None:
    if a.value is None or b.value is None:
        return None
    return a.value - b.value if higher_is_better else b.value - a.value


def _total(units: Iterable[Unit], figure: str | None) -> Ratio:
    num = den = 0
    for u in units:
        n, d = u.counts.get(figure or "", (0, 0))
        num, den = num + n, den + d
    return Ratio(num, den)


def _moves(a: Unit | None, b: Unit | None) -> tuple[str, ...]:
    if a is None or b is None:
        return (ONLY[0] if b is None else ONLY[1],)
    names = list(dict.fromkeys([*a.labels, *b.labels]))
    return tuple(
        move(n, a.labels.get(n), b.labels.get(n))
        for n in names
        if a.labels.get(n) != b.labels.get(n)
    )


def find_changes(
    a: Sequence[Unit], b: Sequence[Unit]
) -> list[tuple[Change, Unit | None, Unit | None]]:
    """Every change between two runs' units, with the units behind it (run A's order, then B's).

    Raises:
        ValueError: a run names two units alike (item, kind and key): the caller's keys must
            tell every unit apart.
    """
    by_a, by_b = _index(a, "A"), _index(b, "B")
    out = []
    for ident in dict.fromkeys([*by_a, *by_b]):
        ua, ub = by_a.get(ident), by_b.get(ident)
        moves = _moves(ua, ub)
        if moves:
            shown = ub or ua  # one of the two holds every ident
            change = Change(*ident, shown.text if shown else "", None if ua is None else ua.labels,
                            None if ub is None else ub.labels, moves)  # fmt: skip
            out.append((change, ua, ub))
    return out


def _index(units: Sequence[Unit], run: str) -> dict[tuple[str, str, str], Unit]:
    found: dict[tuple[str, str, str], Unit] = {}
    for u in units:
        if u.ident in found:
            raise ValueError(f"run {run} holds two units named {' / '.join(u.ident)}")
        found[u.ident] = u
    return found


def diff_runs(
    a: Sequence[Unit],
    b: Sequence[Unit],
    *,
    figure: str | None = None,
    higher_is_better: bool = True,
) -> RunDiff:
    """Run B against run A: every change, grouped and weighed on ``figure`` (see the module).

    Examples:
        >>> u = lambda ok: Unit("item", "claim", "c", "c", {"entailed": ok}, {"recall": (int(ok), 1)})
        >>> d = diff_runs([u(True)], [u(False)], figure="recall")
        >>> [(g.name, g.count, g.effect) for g in d.groups]
        [('claim: entailed: yes -> no', 1, 1.0)]
        >>> diff_runs([u(True)], [u(True)], figure="recall").groups
        ()
    """
    before, after = _total(a, figure), _total(b, figure)
    grouped: dict[str, list[tuple[Change, Unit | None, Unit | None]]] = {}
    for found in find_changes(a, b):
        grouped.setdefault(found[0].group, []).append(found)
    groups = [
        _group(name, found, before, figure, higher_is_better) for name, found in grouped.items()
    ]
    groups.sort(key=lambda g: (g.effect is None, -abs(g.effect or 0.0), -g.count, g.name))
    return RunDiff(figure, higher_is_better, before, after, tuple(groups), (len(a), len(b)),
                   len({u.ident for u in a} & {u.ident for u in b}))  # fmt: skip


def _group(
    name: str,
    found: list[tuple[Change, Unit | None, Unit | None]],
    before: Ratio,
    figure: str | None,
    higher_is_better: bool,
) -> ChangeGroup:
    """One group: its changes and the figure with only them applied to run A."""
    num, den = before.numerator, before.denominator
    for _, ua, ub in found:
        na, da = ua.counts.get(figure or "", (0, 0)) if ua is not None else (0, 0)
        nb, db = ub.counts.get(figure or "", (0, 0)) if ub is not None else (0, 0)
        num, den = num + nb - na, den + db - da
    effect = _drop(before, Ratio(num, den), higher_is_better) if figure else None
    changes = tuple(c for c, _, _ in found)
    return ChangeGroup(name, changes, effect, len({c.item for c in changes}))


def table_units(
    table: Any, *, keys: Sequence[str], kind: str, figures: Mapping[str, tuple[str, str]]
) -> list[Unit]:
    """One unit per row of a per-item table (``ledger --out``, ``rag --out``).

    Its labels are the count columns the ``figures`` read (``{name: (numerator, denominator)}``
    column names), as whole numbers; its counts, each figure's two columns on that row.
    """
    columns = list(dict.fromkeys(c for pair in figures.values() for c in pair))
    out = []
    for row in table.drop_duplicates(list(keys)).to_dict("records"):
        item = " / ".join(str(row[k]) for k in keys)
        labels = {str(c): int(row[c]) for c in columns}
        counts = {name: (int(row[n]), int(row[d])) for name, (n, d) in figures.items()}
        out.append(Unit(item, kind, "", item, labels, counts))
    return out


def candidate_units(claims: Iterable[Mapping[str, Any]]) -> list[Unit]:
    """One unit per audited candidate a store kept (``decomposition --store``).

    Labels: its state (counted, duplicate, not selected, ...), evidence status and whether it is
    faithful; a counted candidate counts toward preservation (faithful) and confirmed support
    (SUPPORTED) over the counted candidates, as the audit's figures do.
    """
    out = []
    for c in claims:
        counted = c["state"] == CandidateState.COUNTED
        faithful, supported = bool(c["faithful"]), c["status"] == "SUPPORTED"
        counts = {
            "preservation": (int(counted and faithful), int(counted)),
            "confirmed_support": (int(counted and supported), int(counted)),
        }
        labels: dict[str, Label] = {"state": str(c["state"]), "status": str(c["status"]),
                                    "faithful": faithful}  # fmt: skip
        out.append(Unit(str(c["answer_id"]), "candidate", str(c["candidate_id"]),
                        str(c["text"] or ""), labels, counts))  # fmt: skip
    return out


@dataclass(frozen=True)
class Side:
    """One run to compare: what it is called, its units, and the figures they count."""

    name: str
    kind: str  # "RAG claims", "audited candidates", "per-query table", "per-answer table"
    units: tuple[Unit, ...]
    figures: Mapping[str, bool]  # figure -> higher is better, in the command's order

    def __post_init__(self) -> None:
        freeze(self, "figures")


def rag_figures() -> dict[str, bool]:
    """RAGChecker's ratio metrics, each with its better side (F1 is no sum of claim counts)."""
    from claimlab.metrics.rag import LOWER_IS_BETTER, RATIO_METRICS

    return {m: m not in LOWER_IS_BETTER for m in RATIO_METRICS}


# The per-item tables a command writes with --out: the item they hold, the columns naming it,
# a column only that kind of table holds, and where its gate figures are declared
TABLES: Mapping[str, tuple[tuple[str, ...], str, str]] = {
    "query": (("query_id",), "query_id", "claimlab.metrics.rag"),  # rag --out
    "prompt": (("subject", "prompt"), "respond_ratio_numerator", "claimlab.metrics.factscore"),
    "claim": (("id",), "strict_score_numerator", "claimlab.metrics.fever"),
    "answer": (("answer_id",), "", "claimlab.metrics.gate"),  # ledger --out (the default)
}


def table_figures(item: str) -> tuple[Any, ...]:
    """The gate figures (:class:`~claimlab.metrics.gate.GateFigure`) of a kind of table."""
    import importlib

    from claimlab.metrics.rag import RATIO_METRICS

    module = importlib.import_module(TABLES[item][2])
    if item == "answer":
        return tuple(module.ledger_figures())
    return tuple(module.gate_figures(RATIO_METRICS) if item == "query" else module.gate_figures())


def table_item(columns: Sequence[str]) -> str:
    """Which kind of per-item table holds these columns (``answer`` when none other does)."""
    return next(
        (k for k, (_, marker, _) in TABLES.items() if marker and marker in columns), "answer"
    )


def table_side(path: str | Path, *, by: str | None = None, name: str = "") -> Side:
    """A per-item table file (``ledger``, ``rag``, ``factscore`` or ``fever`` ``--out``) as units.

    Its kind is told by its columns (:data:`TABLES`); a per-answer table is keyed by
    ``answer_id`` and the ``by`` column of a ledger scored ``--by``.

    Raises:
        ClaimlabInputError: an unreadable table, a missing column, a count that is not a whole
            number, a key given twice (naming file, row and field).
    """
    from claimlab.io.ledger import load_answers, load_table

    item = table_item(load_table(path).column_names)
    keys = list(TABLES[item][0]) if item != "answer" else ([by] if by else []) + ["answer_id"]
    ratios = [(f.numerator, f.denominator) for f in table_figures(item)]
    table = load_answers(path, keys=keys, ratios=ratios)
    return table_run(table, item=item, keys=keys, name=name or str(path))


def table_run(
    table: Any, *, item: str, keys: Sequence[str] | None = None, name: str = "this run"
) -> Side:
    """A per-item table held in memory (pandas; the run being gated) as a side to compare."""
    figures = table_figures(item)
    columns = {f.name: (f.numerator, f.denominator) for f in figures}
    units = table_units(table, keys=keys or TABLES[item][0], kind=item, figures=columns)
    higher = {f.name: f.higher_is_better for f in figures}
    return Side(name, f"per-{item} table", tuple(units), higher)


def rag_run(queries: Sequence[Any], *, noise: str = "ragchecker", name: str = "this run") -> Side:
    """RAG queries (:class:`~claimlab.io.ragchecker.RagQuery`) as a side, claim by claim."""
    from claimlab.metrics.rag import rag_units

    units = rag_units(queries, noise="paper" if noise == "paper" else "ragchecker")
    return Side(name, "RAG claims", tuple(units), rag_figures())


def kept_side(kept: Any) -> Side:
    """A stored run (:class:`~claimlab.io.store.KeptRun`) as a side to compare.

    Its RAG claims, else its audited candidates, else the per-item table it kept.

    Raises:
        ClaimlabInputError: the run kept neither claims nor a per-item table.
    """
    if kept.queries:
        noise = str(kept.parameters.get("noise_sensitivity", "ragchecker"))
        return rag_run(kept.queries, noise=noise, name=kept.name)
    if kept.claims:
        figures = {"preservation": True, "confirmed_support": True}
        return Side(kept.name, "audited candidates", tuple(candidate_units(kept.claims)), figures)
    if kept.table is None:
        raise ClaimlabInputError(
            f"{kept.name} kept no claims and no per-item table: run it with --store and --out"
        )
    return table_side(kept.table, by=kept.parameters.get("by"), name=kept.name)


def baseline_side(baseline: str | Path, kept: Any = None, *, by: str | None = None) -> Side:
    """A gate's baseline: the stored run that kept this table, when it kept its claims.

    ``kept`` is that run (:func:`claimlab.io.store.kept_baseline`), or None; without claims the
    baseline is the table itself.
    """
    if kept is not None and (kept.queries or kept.claims):
        return kept_side(kept)
    return table_side(baseline, by=by)


def compare(a: Side, b: Side, *, figure: str | None = None) -> RunDiff:
    """Run ``b`` against run ``a``, weighed on ``figure`` (default: the one that dropped most).

    Raises:
        ClaimlabInputError: the two runs hold different things (a RAG run and a ledger table),
            or ``figure`` is not one they count (the known names listed).
    """
    if a.kind != b.kind or list(a.figures) != list(b.figures):
        raise ClaimlabInputError(
            f"{a.name} holds {a.kind}, {b.name} {b.kind}: compare two runs of one kind"
        )
    if figure is not None and figure not in a.figures:
        raise ClaimlabInputError(
            f"no figure {figure!r} in {a.kind}; known: {', '.join(a.figures)}", field="--figure"
        )
    chosen = figure if figure is not None else most_dropped(a, b)
    return diff_runs(a.units, b.units, figure=chosen, higher_is_better=a.figures[chosen])


def most_dropped(a: Side, b: Side) -> str:
    """The figure whose micro value dropped most from ``a`` to ``b`` (the first, on a tie)."""
    drops = []
    for i, (name, higher) in enumerate(a.figures.items()):
        drop = _drop(_total(a.units, name), _total(b.units, name), higher)
        if drop is not None:
            drops.append((drop, -i, name))
    return max(drops)[2] if drops else next(iter(a.figures))


def gate_figure(gate: Any, figures: Mapping[str, bool]) -> str | None:
    """The gated figure a diff is weighed on: the regressed one that dropped most, else any."""
    rows = [r for r in gate.rows if r.metric in figures and r.difference is not None]
    rows.sort(key=lambda r: (r.verdict != "REGRESSED", -(r.difference or 0.0)))
    return str(rows[0].metric) if rows else None


def table_changes(baseline: str | Path, table: Any, *, item: str, gate: Any = None) -> RunDiff:
    """What changed from a gate's baseline table (a file) to this run's table, item by item.

    Weighed on the gated figure that regressed most (:func:`gate_figure`), else the figure
    that dropped most.
    """
    before = table_side(baseline)
    figure = gate_figure(gate, before.figures) if gate is not None else None
    return compare(before, table_run(table, item=item), figure=figure)
