"""The decomposition explorer and game as ipywidgets (every string from the file escaped)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import ipywidgets as W

from claimlab.core.text import plural
from claimlab.core.vocab import STATUSES, status_line
from claimlab.io.decomposition import DecompositionFixture
from claimlab.labs.decomposition.game import DecompositionGame
from claimlab.metrics.decomposition import (
    METRIC_LABELS,
    METRICS,
    DecompositionResult,
    find_decomposition,
)
from claimlab.notebook.widgets import (
    LABEL,
    NO_STATUS,
    STUDENT_NOTE,
    GameView,
    Html,
    View,
    css_token,
    e,
    marked_text_html,
    message_html,
    paper_table,
    references_html,
    round_title,
    style_toggle,
    toggles,
    verdict_html,
)


def metrics_html(result: DecompositionResult) -> str:
    """The four Toy metrics with counts, N/A as such, and the status counts beside support."""
    rows = "".join(
        f'<tr><th>{e(METRIC_LABELS[m])}</th><td class="claimlab-metric" data-metric="{m}">'
        f"{e(getattr(result, m).display)}</td></tr>"
        for m in METRICS
    )
    return (
        '<div class="claimlab-metrics">'
        f'<p>selection: <span class="claimlab-selection">{e(", ".join(result.selection) or "(empty)")}</span></p>'
        f'<table>{rows}</table><p class="claimlab-status-counts">'
        f"{e(status_line(result.status_counts))}</p>"
        f"<p>missing units: {e(', '.join(result.missing_units) or '-')} · duplicates: "
        f"{e(', '.join(result.duplicates) or '-')} · introduced: {e(', '.join(result.introduced) or '-')} · "
        f"non-atomic: {e(', '.join(result.non_atomic) or '-')}</p></div>"
    )


def audit_html(result: DecompositionResult) -> str:
    """The audit rows, two layers apart, as an escaped HTML table."""
    head = (
        "<tr><th>id</th><th>text</th><th>counted</th><th>preserves</th><th>faithful</th><th>atomic</th>"
        "<th>errors</th><th>status</th><th>references</th></tr>"
    )
    body = "".join(
        f"<tr><td>{e(r.id)}</td><td>{e(r.text)}</td><td>{'yes' if r.counted else 'dup of ' + e(r.duplicate_of)}</td>"
        f"<td>{e(', '.join(r.preserves) or '-')}</td><td>{r.faithful}</td><td>{r.atomic}</td>"
        f"<td>{e(', '.join(r.errors) or '-')}</td><td>{e(r.status)}</td><td>{e(', '.join(r.references) or '-')}</td></tr>"
        for r in result.audit
    )
    return f'<table class="claimlab-audit">{head}{body}</table>'


def candidate_texts_html(fixture: DecompositionFixture, ids: Sequence[str]) -> str:
    """Selected candidates with their texts only (no label): what a student may see."""
    rows = "".join(
        f"<tr><td>{e(cid)}</td><td>{e(fixture.candidate(cid).text)}</td></tr>" for cid in ids
    )
    return (
        f'<table class="claimlab-texts"><tr><th>id</th><th>text</th></tr>{rows}</table>'
        if ids
        else "<p>nothing selected</p>"
    )


def source_html(fixture: DecompositionFixture) -> str:
    """What a player decides from: the original answer, its units marked, and every reference."""
    o = fixture.original
    units = [(u.id, u.span.start, u.span.end) for u in fixture.units]
    version = f" ({e(o.version)})" if o.version else ""
    return (
        '<div class="claimlab-source" style="text-align:left">'
        f"<p><strong>The answer</strong> {e(o.id)}{version}, each of its units marked:</p>"
        f'<blockquote class="claimlab-original" style="margin:4px 0 8px 12px">'
        f"{marked_text_html(o.text, units)}</blockquote>"
        f"<p><strong>The references</strong> (what the evidence statuses are judged on):</p>"
        f"{references_html(fixture.references)}</div>"
    )


def mode_options(modes: Iterable[str], *, student: bool = False) -> list[tuple[str, str]]:
    """The selection dropdown's (label, value) pairs; a student sees numbers, not the names.

    A file's selection names say what each one does wrong (the exercise's answer), so the
    classroom view labels them "selection 1", "selection 2", ... in file order.

    Examples:
        >>> mode_options(["dropped_hard"], student=True)
        [('(choose a selection)', ''), ('selection 1', 'dropped_hard')]
        >>> mode_options(["dropped_hard"])[1]
        ('dropped_hard', 'dropped_hard')
    """
    names = list(modes)
    labels = [f"selection {i}" if student else name for i, name in enumerate(names, 1)]
    return [("(choose a selection)", ""), *zip(labels, names, strict=True)]


class DecompositionExplorer(View):
    """Toggle candidates; the four metrics (with counts and N/A) and the audit table follow."""

    def __init__(
        self,
        fixture: DecompositionFixture,
        selection: Sequence[str] = (),
        *,
        student: bool = False,
    ) -> None:
        self.fixture = fixture
        self.student = student
        self.toggles = toggles(
            ((c.id, c.text) for c in fixture.candidates),
            selected=selection,
            css_prefix="claimlab-cand",
            on_change=self._changed,
        )
        self.mode = W.Dropdown(
            options=mode_options(fixture.modes, student=student),
            description="selection",
            style=LABEL,
        )
        self.mode.observe(self._mode, names="value")
        self.metrics = Html()
        self.metrics.add_class("claimlab-metrics-box")
        self.audit = Html()
        self.widget = W.VBox(
            [
                *([self.mode] if fixture.modes else []),
                W.HBox(list(self.toggles.values()), layout=W.Layout(flex_flow="row wrap")),
                self.metrics,
                self.audit,
            ]
        )
        self.result: DecompositionResult = find_decomposition(fixture, [])
        self.refresh()

    @property
    def selection(self) -> list[str]:
        """Selected candidate ids in fixture order."""
        return [cid for cid, t in self.toggles.items() if t.value]

    def _changed(self, _change: Any = None) -> None:
        self.refresh()

    def _mode(self, change: Any) -> None:
        if change["new"] in self.fixture.modes:
            self.set_selection(self.fixture.modes[change["new"]])

    def set_selection(self, ids: Sequence[str]) -> None:
        """Select exactly ``ids`` (one refresh)."""
        wanted = set(ids)
        with self.metrics.hold_trait_notifications():
            for cid, t in self.toggles.items():
                t.unobserve(self._changed, names="value")
                t.value = cid in wanted
                t.observe(self._changed, names="value")
        self.refresh()

    def refresh(self) -> None:
        """Recompute and redraw."""
        self.result = find_decomposition(self.fixture, self.selection)
        if self.student:
            self.metrics.value = f"<p>{e(STUDENT_NOTE)}</p>"
            self.audit.value = candidate_texts_html(self.fixture, self.selection)
            return
        self.metrics.value = metrics_html(self.result)
        self.audit.value = audit_html(self.result)

    def shown(self) -> dict[str, str]:
        """The metric displays as shown (for tests)."""
        return {m: getattr(self.result, m).display for m in METRICS}

    def snapshot_html(self) -> str:
        """Static rendering of the current state."""
        return str(self.metrics.value) + str(self.audit.value)


class DecompositionGameView(GameView):
    """Choose a round, select candidates (slots), annotate statuses, Check, Reset."""

    game: DecompositionGame

    def __init__(self, game: DecompositionGame, *, student: bool = False) -> None:
        self.game = game
        self.student = student
        fx = game.fixture
        self.toggles, self.status_pickers = {}, {}
        rows = []
        for c in fx.candidates:
            token = css_token(c.id)
            t = W.ToggleButton(description=c.id, tooltip="select or deselect")
            t.add_class(f"claimlab-game-{token}")
            t.observe(lambda change, t=t: style_toggle(t), names="value")
            t.observe(self._toggle(c.id), names="value")
            d = W.Dropdown(options=[NO_STATUS, *STATUSES], layout=W.Layout(width="190px"))
            d.add_class(f"claimlab-annot-{token}")
            d.observe(self._annotate(c.id), names="value")
            self.toggles[c.id], self.status_pickers[c.id] = t, d
            rows.append(W.HBox([t, d, Html(f"<span>{e(c.text)}</span>")]))
        rounds = {n: round_title(n, p.title) for n, p in fx.game.puzzles.items()}
        self.check_button = self._controls("Check", "claimlab-check", self.check, rounds)
        self.source = Html(source_html(fx))
        self.source.add_class("claimlab-game-source")
        self.widget = W.VBox(
            [
                self.chooser,
                self.intro,
                self.source,
                *rows,
                W.HBox([self.check_button, self.reset_button]),
                self.message,
                self.board,
            ]
        )
        self._syncing = False
        self.sync("")

    def _round(self) -> str:
        return str(self.game.puzzle)

    def _toggle(self, cid: Any) -> Any:
        def handler(change: Any) -> None:
            if self._syncing:
                return
            act = self.game.select(cid) if change["new"] else self.game.deselect(cid)
            self.sync(act.message)

        return handler

    def _annotate(self, cid: Any) -> Any:
        def handler(change: Any) -> None:
            if self._syncing or change["new"] == NO_STATUS:
                return
            self.sync(self.game.annotate(cid, change["new"]).message)

        return handler

    def sync(self, message: str) -> None:
        """Make the widgets show the game's state."""
        g = self.game
        self._syncing = True
        try:
            self.chooser.value = self._round()
            for cid, t in self.toggles.items():
                t.value = cid in g.selection
                self.status_pickers[cid].value = g.annotations.get(cid, NO_STATUS)
                # a finished round is locked until Reset (as the sufficiency game's is)
                t.disabled = self.status_pickers[cid].disabled = g.round_over
            self.check_button.disabled = g.round_over
        finally:
            self._syncing = False
        p = g.current
        self.intro.value = (
            f"<p><strong>{e(p.title)}</strong>{': ' + e(p.note) if p.note else ''}</p>"
            f"<p>{plural(g.slots, 'raw slot')}: each selected candidate takes one (a duplicate "
            "too); annotating takes none. Cover every unit of the answer with atomic, faithful "
            "candidates, none twice and none with an error, and annotate each with its "
            "evidence status.</p>"
        )
        self.message.value = message_html(message)
        left = (
            f'<p>slots left: <span class="claimlab-slots">{g.slots_left}</span> of {g.slots} · '
            f"selected: {e(', '.join(g.selection) or 'nothing')}</p>"
        )
        after = g.last_check is not None
        live = "" if self.student and not after else metrics_html(g.metrics())
        self.board.value = left + verdict_html(g.last_check) + live

    def check(self) -> Any:
        """Press Check."""
        r = self.game.check()
        verdict = "you won" if r.won else "not won (see why below)"
        self.sync(f"round over: {verdict}; press Reset to play again")
        return r

    def paper_html(self) -> str:
        """The board on paper: the answer and references, the rounds, every candidate to mark."""
        g, fx = self.game, self.game.fixture
        rounds = [
            [e(p.name), e(p.title), e(", ".join(p.start) or "(empty)"), e(p.note)]
            for p in fx.game.puzzles.values()
        ]
        units = [[e(u.id), e(u.span.text)] for u in fx.units]
        cands = [[e(c.id), e(c.text), "", ""] for c in fx.candidates]
        return (
            '<div class="claimlab-paper">'
            f"<p><strong>Decomposition game on paper.</strong> {plural(g.slots, 'raw slot')}; "
            "mark the candidates you select (a duplicate takes a slot too) and write the evidence "
            f"status of each ({e(', '.join(STATUSES))}).</p>"
            + source_html(fx)
            + paper_table(
                "claimlab-board-paper",
                ["candidate", "text", "selected", "status"],
                cands,
                write={"selected": 5, "status": 12},
            )
            + paper_table(
                "claimlab-rounds", ["round", "title", "starting selection", "note"], rounds
            )
            + paper_table("claimlab-units", ["unit", "what the answer says"], units)
            + "</div>"
        )
