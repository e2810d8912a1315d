"""The decomposition explorer and game as ipywidgets (every string from the file escaped)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import ipywidgets as W

from claimlab.core.text import plural
from claimlab.core.vocab import STATUSES, status_line
from claimlab.io.decomposition import DecompositionFixture
from claimlab.labs.decomposition.game import CheckResult, DecompositionGame
from claimlab.labs.decomposition.words import WORDS
from claimlab.labs.teaching import lesson_language
from claimlab.metrics.decomposition import (
    METRIC_LABELS,
    METRICS,
    DecompositionResult,
    score_decomposition,
)
from claimlab.notebook.widgets import (
    LABEL,
    NO_STATUS,
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
    student_note,
    style_toggle,
    toggles,
    verdict_html,
)
from claimlab.notebook.words import WORDS as SHARED
from claimlab.notebook.words import counted, say

if TYPE_CHECKING:
    from typing import TypedDict

    from claimlab.metrics.decomposition import AuditRow

    class _DropdownChange(TypedDict):
        """What a dropdown's traitlets change gives its handler (the one key read)."""

        new: str


def _w(key: str, language: str, values: dict[str, object] | None = None) -> str:
    """One of the lab's words, or of the shared ones, in ``language``."""
    return say(WORDS if key in WORDS else SHARED, key, language, values)


def metrics_html(result: DecompositionResult, *, language: str = "en") -> str:
    """The four Toy metrics with counts, N/A as such, and the status counts beside support."""
    rows = "".join(
        f'<tr><th>{e(METRIC_LABELS[m])}</th><td class="claimlab-metric" data-metric="{m}">'
        f"{e(getattr(result, m).display)}</td></tr>"
        for m in METRICS
    )
    r = result
    selection = ", ".join(r.selection) or _w("cell.empty", language)
    lists = {
        "missing": r.missing_units,
        "duplicates": r.duplicates,
        "introduced": r.introduced,
        "compound": r.non_atomic,
    }
    counts = _w("panel.counts", language, {k: ", ".join(v) or "-" for k, v in lists.items()})
    return (
        '<div class="claimlab-metrics">'
        f"<p>{e(_w('panel.selection', language))}"
        f'<span class="claimlab-selection">{e(selection)}</span></p>'
        f'<table>{rows}</table><p class="claimlab-status-counts">'
        f"{e(status_line(r.status_counts))}</p>"
        f"<p>{e(counts)}</p></div>"
    )


def audit_html(result: DecompositionResult, *, language: str = "en") -> str:
    """The audit rows, two layers apart, as an escaped HTML table."""
    keys = ["col.id", "col.text", "col.counted", "col.preserves", "col.faithful", "col.atomic"]
    keys += ["col.errors", "col.status", "col.references"]
    head = "<tr>" + "".join(f"<th>{e(_w(k, language))}</th>" for k in keys) + "</tr>"

    def counted_cell(r: AuditRow) -> str:
        if r.counted:
            return e(_w("cell.yes", language))
        return e(_w("panel.dup_of", language, {"id": r.duplicate_of}))

    body = "".join(
        f"<tr><td>{e(r.id)}</td><td>{e(r.text)}</td><td>{counted_cell(r)}</td>"
        f"<td>{e(', '.join(r.preserves) or '-')}</td><td>{r.faithful}</td><td>{r.atomic}</td>"
        f"<td>{e(', '.join(r.errors) or '-')}</td><td>{e(r.status)}</td><td>{e(', '.join(r.references) or '-')}</td></tr>"
        for r in result.audit
    )
    return f'<table class="claimlab-audit">{head}{body}</table>'


def candidate_texts_html(fixture: DecompositionFixture, ids: Sequence[str]) -> str:
    """Selected candidates with their texts only (no label): what a student may see."""
    language = lesson_language(fixture)
    rows = "".join(
        f"<tr><td>{e(cid)}</td><td>{e(fixture.candidate(cid).text)}</td></tr>" for cid in ids
    )
    head = f"<tr><th>{e(_w('col.id', language))}</th><th>{e(_w('col.text', language))}</th></tr>"
    return (
        f'<table class="claimlab-texts">{head}{rows}</table>'
        if ids
        else f"<p>{e(_w('game.nothing_selected', language))}</p>"
    )


def source_html(fixture: DecompositionFixture) -> str:
    """What a player decides from: the original answer, its units marked, and every reference."""
    language = lesson_language(fixture)
    o = fixture.original
    units = [(u.id, u.span.start, u.span.end) for u in fixture.units]
    version = f" ({e(o.version)})" if o.version else ""
    answer = _w("paper.answer", language, {"id": e(o.id), "version": version})
    return (
        '<div class="claimlab-source" style="text-align:left">'
        f"<p>{answer}</p>"
        f'<blockquote class="claimlab-original" style="margin:4px 0 8px 12px">'
        f"{marked_text_html(o.text, units)}</blockquote>"
        f"<p>{_w('paper.references', language)}</p>"
        f"{references_html(fixture.references, language=language)}</div>"
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
        self.result: DecompositionResult = score_decomposition(fixture, [])
        self.refresh()

    @property
    def selection(self) -> list[str]:
        """Selected candidate ids in fixture order."""
        return [cid for cid, t in self.toggles.items() if t.value]

    def _changed(self, _change: object = None) -> None:
        self.refresh()

    def _mode(self, change: _DropdownChange) -> None:
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
        self.result = score_decomposition(self.fixture, self.selection)
        if self.student:
            language = lesson_language(self.fixture)
            self.metrics.value = f"<p>{e(student_note(language))}</p>"
            self.audit.value = candidate_texts_html(self.fixture, self.selection)
            return
        language = lesson_language(self.fixture)
        self.metrics.value = metrics_html(self.result, language=language)
        self.audit.value = audit_html(self.result, language=language)

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

    def _toggle(self, cid: str) -> Callable[[Mapping[str, object]], None]:
        def handler(change: Mapping[str, object]) -> None:
            if self._syncing:
                return
            act = self.game.select(cid) if change["new"] else self.game.deselect(cid)
            self.sync(act.message)

        return handler

    def _annotate(self, cid: str) -> Callable[[_DropdownChange], None]:
        def handler(change: _DropdownChange) -> None:
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
        language = lesson_language(g.fixture)
        live = "" if self.student and not after else metrics_html(g.metrics(), language=language)
        self.board.value = left + verdict_html(g.last_check) + live

    def check(self) -> CheckResult:
        """Press Check."""
        r = self.game.check()
        verdict = "you won" if r.won else "not won (see why below)"
        self.sync(f"round over: {verdict}; press Reset to play again")
        return r

    def paper_html(self) -> str:
        """The board on paper: the answer and references, the rounds, every candidate to mark."""
        g, fx = self.game, self.game.fixture
        language = lesson_language(fx)

        def heads(*keys: str) -> list[str]:
            return [_w(k, language) for k in keys]

        rounds = [
            [e(p.name), e(p.title), e(", ".join(p.start) or _w("cell.empty", language)), e(p.note)]
            for p in fx.game.puzzles.values()
        ]
        units = [[e(u.id), e(u.span.text)] for u in fx.units]
        cands = [[e(c.id), e(c.text), "", ""] for c in fx.candidates]
        board = heads("col.candidate", "col.text", "col.selected", "col.status")
        slots = counted(WORDS, "raw_slot", g.slots, language)
        intro = _w("paper.intro", language, {"slots": slots, "statuses": e(", ".join(STATUSES))})
        return (
            f'<div class="claimlab-paper"><p>{intro}</p>'
            + source_html(fx)
            + paper_table("claimlab-board-paper", board, cands, write={board[2]: 5, board[3]: 12})
            + paper_table(
                "claimlab-rounds",
                heads("col.round", "col.title", "col.starting_selection", "col.note"),
                rounds,
            )
            + paper_table("claimlab-units", heads("col.unit", "col.what_the_answer_says"), units)
            + "</div>"
        )
