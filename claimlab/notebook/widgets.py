"""ipywidgets views over the labs and games: thin, every rule lives in claimlab.labs.games / metrics.

Each view exposes ``.widget`` (the ipywidgets tree), updates its displayed HTML on every change,
and renders in a notebook as the live widget plus a static HTML snapshot (``text/html``) that
handouts and other non-widget front ends show instead of a broken placeholder. For the games
the snapshot is the paper board (the rounds, the candidates or the evidence with their texts,
the slots or the budget), so a round can be played from a printed handout. All text from a
file is escaped.

``student=True`` is the classroom: an explorer shows the texts but no status, error or metric,
and a game shows no status or error count before Check or Submit (the reasons after it).
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Sequence

import ipywidgets as W
import traitlets

from claimlab.core.vocab import STATUSES, status_line
from claimlab.io.decomposition import DecompositionFixture
from claimlab.io.sufficiency import SufficiencyFixture
from claimlab.labs.games import DecompositionGame, SufficiencyGame, plural
from claimlab.metrics.decomposition import (
    METRIC_LABELS,
    METRICS,
    DecompositionResult,
    find_decomposition,
)
from claimlab.metrics.sufficiency import SufficiencyResult, find_fixture_sufficiency

NO_STATUS = "(not annotated)"
NO_ANSWER = "(choose)"
STUDENT_NOTE = (
    "Classroom view: statuses, errors and metrics are not shown here. Play the game below; "
    "Check tells you what is right and why."
)
WON_STYLE = "background:#e3f3e6;border-left:6px solid #2d6b3c;padding:6px 10px;margin:4px 0"
NOT_WON_STYLE = "background:#fbeaea;border-left:6px solid #C44E52;padding:6px 10px;margin:4px 0"
WIDE = W.Layout(width="auto")
LABEL = {"description_width": "initial"}


_NO_MATH_OPEN = '<div class="tex2jax_ignore mathjax_ignore">'


class _Html(W.HTML):
    """An HTML widget whose content MathJax never typesets (a "$" from a file stays text)."""

    @traitlets.validate("value")
    def _no_math(self, proposal):
        value = proposal["value"]
        if value and not value.startswith(_NO_MATH_OPEN):
            value = f"{_NO_MATH_OPEN}{value}</div>"
        return value


def e(text: object) -> str:
    """Escape for HTML."""
    return html.escape(str(text), quote=True)


_SAFE = re.compile(r"[A-Za-z0-9_-]{1,40}")


def css_token(value: str) -> str:
    """A CSS class suffix for an id from a file: the id itself when plain, else a short hash.

    An id with a space or a quote cannot be a class name (the browser refuses it), and a class
    name must not carry a file's text into the page.
    """
    if _SAFE.fullmatch(value):
        return value
    return "x" + hashlib.sha1(value.encode("utf-8", "surrogatepass")).hexdigest()[:12]


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


def sufficiency_html(result: SufficiencyResult) -> str:
    """Status, witnesses, per-branch gaps, rejections and unsafe candidates."""
    branches = "".join(
        f"<li>{{{e(', '.join(b.alternative))}}}: "
        + ("complete witness" if b.complete else f"missing {e(', '.join(b.missing))}")
        + "".join(f"; link error: {e(x.explanation)}" for x in b.link_errors)
        + "</li>"
        for b in result.branches
    )
    rejected = "".join(
        f"<li>{e(r.id)} ({e(r.reason)}): {e(r.detail)}</li>" for r in result.rejected
    )
    unsafe = "".join(
        f"<li><strong>UNSAFE CANDIDATE</strong> {e(u.id)}: {e(u.detail)}</li>"
        for u in result.unsafe_candidates
    )
    return (
        f'<div class="claimlab-sufficiency"><p>status: <strong class="claimlab-status">{e(result.status)}</strong> · '
        f"context {result.context_raw} raw / {result.context_unique} unique</p>"
        f"<p>{e(result.explanation)}</p><ul>{branches}</ul>"
        + (f"<p>rejected:</p><ul>{rejected}</ul>" if rejected else "")
        + (f"<ul>{unsafe}</ul>" if unsafe else "")
        + "</div>"
    )


def verdict_html(result) -> str:
    """The end of a round: a WON banner, or how many rules are not met and each one's reason."""
    if result is None:
        return ""
    if result.won:
        return (
            f'<div class="claimlab-verdict claimlab-won" style="{WON_STYLE}">'
            "<strong>WON</strong>: every rule is met.</div>"
        )
    reasons = "".join(
        f"<li><strong>{e(x.code)}</strong>: {e(x.message)}</li>" for x in result.reasons
    )
    return (
        f'<div class="claimlab-verdict claimlab-not-won" style="{NOT_WON_STYLE}"><strong>Not won'
        f"</strong>: {plural(len(result.reasons), 'rule')} not met.<ul>{reasons}</ul></div>"
    )


def _style_toggle(t: W.ToggleButton) -> None:
    """Selected toggles are green with a tick; unselected ones plain: never two close greys."""
    t.button_style = "success" if t.value else ""
    t.icon = "check" if t.value else ""


def _toggles(
    items, *, selected: Sequence[str], css_prefix: str, on_change
) -> dict[str, W.ToggleButton]:
    """One toggle button per ``(id, tooltip)``, tagged with a CSS class ``<prefix>-<id>``."""
    out = {}
    for item_id, tooltip in items:
        t = W.ToggleButton(value=item_id in selected, description=item_id, tooltip=tooltip)
        t.add_class(f"{css_prefix}-{css_token(item_id)}")
        _style_toggle(t)
        t.observe(lambda change, t=t: _style_toggle(t), names="value")
        t.observe(on_change, names="value")
        out[item_id] = t
    return out


class _View:
    """Common part: the widget tree and a static snapshot for non-widget front ends."""

    widget: W.Widget

    def snapshot_html(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        data = dict(bundle) if isinstance(bundle, dict) else {}
        snapshot = self.snapshot_html()
        if not snapshot.startswith(_NO_MATH_OPEN):
            snapshot = f"{_NO_MATH_OPEN}{snapshot}</div>"
        data["text/html"] = snapshot
        return data


class DecompositionExplorer(_View):
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
        self.toggles = _toggles(
            ((c.id, c.text) for c in fixture.candidates),
            selected=selection,
            css_prefix="claimlab-cand",
            on_change=self._changed,
        )
        self.mode = W.Dropdown(
            options=["(choose a selection)", *fixture.modes], description="selection", style=LABEL
        )
        self.mode.observe(self._mode, names="value")
        self.metrics = _Html()
        self.metrics.add_class("claimlab-metrics-box")
        self.audit = _Html()
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

    def _changed(self, _change=None) -> None:
        self.refresh()

    def _mode(self, change) -> None:
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
        return self.metrics.value + self.audit.value


class SufficiencyExplorer(_View):
    """Toggle evidence, switch question, ignore metadata; status, witnesses and gaps follow."""

    def __init__(
        self,
        fixture: SufficiencyFixture,
        question: str | None = None,
        context: Sequence[str] = (),
        *,
        ignore_metadata: bool = False,
        student: bool = False,
    ) -> None:
        self.fixture = fixture
        self.student = student
        self.toggles = _toggles(
            ((ev.id, ev.text) for ev in fixture.evidence),
            selected=context,
            css_prefix="claimlab-ev",
            on_change=self._changed,
        )
        ids = [ev.id for ev in fixture.evidence]
        self.copy_of = W.Dropdown(options=ids, description="copies of", style=LABEL)
        self.copy_of.observe(self._changed, names="value")
        self.copies = W.BoundedIntText(value=0, min=0, max=5, description="how many", style=LABEL)
        self.copies.observe(self._changed, names="value")
        self.question = W.Dropdown(
            options=list(fixture.questions),
            value=question or next(iter(fixture.questions)),
            description="question",
            style=LABEL,
        )
        self.question.observe(self._changed, names="value")
        self.ignore = W.Checkbox(
            value=ignore_metadata,
            description="ignore the metadata rules (demo: shows unsafe candidates, never witnesses)",
            style=LABEL,
            layout=WIDE,
        )
        self.ignore.add_class("claimlab-ignore")
        self.ignore.observe(self._changed, names="value")
        self.status = _Html()
        self.status.add_class("claimlab-sufficiency-box")
        self.widget = W.VBox(
            [
                self.question,
                self.ignore,
                W.HBox(list(self.toggles.values()), layout=W.Layout(flex_flow="row wrap")),
                W.HBox([self.copy_of, self.copies]),
                self.status,
            ]
        )
        self.refresh()

    @property
    def context(self) -> list[str]:
        """Selected ids, plus the copies."""
        ids = [eid for eid, t in self.toggles.items() if t.value]
        return ids + [self.copy_of.value] * self.copies.value

    def _changed(self, _change=None) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Recompute and redraw."""
        self.result = find_fixture_sufficiency(
            self.fixture, self.question.value, self.context, ignore_metadata=self.ignore.value
        )
        if self.student:
            q = self.fixture.question(self.question.value)
            rows = "".join(
                f"<tr><td>{e(eid)}</td><td>{e(self.fixture.item(eid).text)}</td></tr>"  # type: ignore[union-attr]
                for eid in dict.fromkeys(self.context)
            )
            listed = (
                f'<table class="claimlab-texts"><tr><th>id</th><th>text</th></tr>{rows}</table>'
                if rows
                else "<p>nothing selected</p>"
            )
            self.status.value = (
                f"<p><strong>{e(q.text)}</strong></p><p>{e(STUDENT_NOTE)}</p>{listed}"
            )
            return
        self.status.value = sufficiency_html(self.result)

    def snapshot_html(self) -> str:
        """Static rendering of the current state."""
        return self.status.value


def _button(description: str, css: str, on_click, **kwargs) -> W.Button:
    b = W.Button(description=description, **kwargs)
    b.add_class(css)
    b.on_click(lambda _b: on_click())
    return b


def _message(text: str) -> str:
    return f"<p>{e(text)}</p>" if text else ""


class _GameView(_View):
    """What both game views share: the round chooser, Reset, the message and the board."""

    game: DecompositionGame | SufficiencyGame
    student: bool

    def _controls(self, label: str, css: str, action, rounds: dict[str, str]) -> W.Button:
        """Build the chooser, Reset, the message and the board; return the main action's button."""
        self.chooser = W.Dropdown(
            options=[(title, name) for name, title in rounds.items()],
            description="round",
            style=LABEL,
            layout=WIDE,
        )
        self.chooser.value = self._round()
        self.chooser.add_class("claimlab-round")
        self.chooser.observe(self._choose, names="value")
        self.reset_button = _button("Reset", "claimlab-reset", self.reset, icon="undo")
        self.intro = _Html()
        self.intro.add_class("claimlab-intro")
        self.message = _Html()
        self.message.add_class("claimlab-message")
        self.board = _Html()
        self.board.add_class("claimlab-board")
        return _button(label, css, action, button_style="primary")

    def _round(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def _choose(self, change) -> None:
        if change["new"] != self._round():
            self.sync(self.game.choose(change["new"]).message)

    def sync(self, message: str) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def reset(self):
        """Press Reset: the round starts again, everything chosen is cleared."""
        self.sync(self.game.reset().message)

    def paper_html(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def snapshot_html(self) -> str:
        """Static rendering: the paper board, so a printed handout can be played."""
        return self.paper_html()


def _puzzle_title(name: str, title: str) -> str:
    return title if title == name else f"{title} ({name})"


class DecompositionGameView(_GameView):
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
            t.observe(lambda change, t=t: _style_toggle(t), names="value")
            t.observe(self._toggle(c.id), names="value")
            d = W.Dropdown(options=[NO_STATUS, *STATUSES], layout=W.Layout(width="190px"))
            d.add_class(f"claimlab-annot-{token}")
            d.observe(self._annotate(c.id), names="value")
            self.toggles[c.id], self.status_pickers[c.id] = t, d
            rows.append(W.HBox([t, d, _Html(f"<span>{e(c.text)}</span>")]))
        rounds = {n: _puzzle_title(n, p.title) for n, p in fx.game.puzzles.items()}
        self.check_button = self._controls("Check", "claimlab-check", self.check, rounds)
        self.widget = W.VBox(
            [
                self.chooser,
                self.intro,
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

    def _toggle(self, cid):
        def handler(change):
            if self._syncing:
                return
            act = self.game.select(cid) if change["new"] else self.game.deselect(cid)
            self.sync(act.message)

        return handler

    def _annotate(self, cid):
        def handler(change):
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
        self.message.value = _message(message)
        left = (
            f'<p>slots left: <span class="claimlab-slots">{g.slots_left}</span> of {g.slots} · '
            f"selected: {e(', '.join(g.selection) or 'nothing')}</p>"
        )
        after = g.last_check is not None
        live = "" if self.student and not after else metrics_html(g.metrics())
        self.board.value = left + verdict_html(g.last_check) + live

    def check(self):
        """Press Check."""
        r = self.game.check()
        self.sync("round over: you won" if r.won else "round over: not won (see why below)")
        return r

    def paper_html(self) -> str:
        """The board on paper: the rounds, every candidate's text, a column to mark and annotate."""
        g, fx = self.game, self.game.fixture
        rounds = "".join(
            f"<tr><td>{e(p.name)}</td><td>{e(p.title)}</td><td>{e(', '.join(p.start) or '(empty)')}</td>"
            f"<td>{e(p.note)}</td></tr>"
            for p in fx.game.puzzles.values()
        )
        cands = "".join(
            f"<tr><td>{e(c.id)}</td><td>{e(c.text)}</td><td></td><td></td></tr>"
            for c in fx.candidates
        )
        units = "".join(f"<tr><td>{e(u.id)}</td><td>{e(u.span.text)}</td></tr>" for u in fx.units)
        return (
            '<div class="claimlab-paper">'
            f"<p><strong>Decomposition game on paper.</strong> {plural(g.slots, 'raw slot')}; "
            "mark the candidates you select (a duplicate takes a slot too) and write the evidence "
            f"status of each ({e(', '.join(STATUSES))}).</p>"
            f'<table class="claimlab-rounds"><tr><th>round</th><th>title</th><th>starting selection</th>'
            f"<th>note</th></tr>{rounds}</table>"
            f'<table class="claimlab-units"><tr><th>unit</th><th>what the answer says</th></tr>{units}</table>'
            f'<table class="claimlab-board-paper"><tr><th>candidate</th><th>text</th><th>selected</th>'
            f"<th>status</th></tr>{cands}</table></div>"
        )


class SufficiencyGameView(_GameView):
    """Choose a round, search with a budget, cite a proof, answer, Submit, Reset."""

    game: SufficiencyGame

    def __init__(self, game: SufficiencyGame, *, student: bool = False) -> None:
        self.game = game
        self.student = student
        fx = game.fixture
        self.search_buttons: dict[str, W.Button] = {}
        self.copy_buttons: dict[str, W.Button] = {}
        self.cite: dict[str, W.Checkbox] = {}
        self.found: dict[str, W.HTML] = {}
        rows = []
        for ev in fx.evidence:
            token = css_token(ev.id)
            b = W.Button(description=f"search ({game.cost(ev.id)})", tooltip=f"search {ev.id}")
            b.add_class(f"claimlab-search-{token}")
            b.on_click(self._search(ev.id))
            self.search_buttons[ev.id] = b
            extra: list[W.Widget] = []
            if fx.game.copyable and not game.can_copy(ev.id):  # keep the rows aligned
                extra.append(_Html("", layout=W.Layout(width="148px")))
            if game.can_copy(ev.id):
                cb = W.Button(description=f"copy ({game.copy_cost})", tooltip=f"copy {ev.id}")
                cb.add_class(f"claimlab-copy-{token}")
                cb.on_click(self._copy(ev.id))
                self.copy_buttons[ev.id] = cb
                extra.append(cb)
            c = W.Checkbox(
                value=False, description="cite", indent=False, layout=W.Layout(width="70px")
            )
            c.add_class(f"claimlab-cite-{token}")
            self.cite[ev.id] = c
            self.found[ev.id] = _Html(layout=W.Layout(width="90px"))
            meta = f"{ev.status}{'' if ev.current else ', not current'}"
            text = _Html(
                f"<span><strong>{e(ev.id)}</strong> {e(ev.text)} <em>({e(meta)})</em></span>"
            )
            rows.append(W.HBox([b, *extra, c, self.found[ev.id], text]))
        options = sorted({v for ev in fx.evidence for v in (ev.subject, ev.object)})
        self.answers: dict[str, W.Dropdown] = {}
        self.answer_rows: dict[str, W.HBox] = {}
        for item in dict.fromkeys(a for q in fx.questions.values() for a in q.asks):
            d = W.Dropdown(options=[NO_ANSWER, *options])
            d.add_class(f"claimlab-answer-{css_token(item)}")
            self.answers[item] = d
            self.answer_rows[item] = W.HBox([_Html(f"<strong>{e(item)}</strong>"), d])
        self.answer_box = W.HBox([])
        self.conflict = W.Checkbox(
            value=False, description="the evidence disagrees: report a conflict", indent=False
        )
        self.conflict.add_class("claimlab-report-conflict")
        rounds = {n: _puzzle_title(n, n) for n in game.scenarios}
        self.submit_button = self._controls("Submit", "claimlab-submit", self.submit, rounds)
        self.widget = W.VBox(
            [
                self.chooser,
                self.intro,
                *rows,
                self.answer_box,
                self.conflict,
                W.HBox([self.submit_button, self.reset_button]),
                self.message,
                self.board,
            ]
        )
        self.sync("")

    def _round(self) -> str:
        return str(self.game.scenario)

    def _clear(self) -> None:
        """A new round: nothing cited, nothing answered."""
        for c in self.cite.values():
            c.value = False
        for d in self.answers.values():
            d.value = NO_ANSWER
        self.conflict.value = False

    def reset(self):
        """Press Reset: the round starts again; citations and answers are cleared."""
        self._clear()
        super().reset()

    def _choose(self, change) -> None:
        if change["new"] != self._round():
            self._clear()
        super()._choose(change)

    def _search(self, eid):
        return lambda _b: self.sync(self.game.search(eid).message)

    def _copy(self, eid):
        return lambda _b: self.sync(self.game.copy(eid).message)

    @property
    def proof(self) -> list[str]:
        """The ids cited in the proof."""
        return [eid for eid, c in self.cite.items() if c.value]

    def sync(self, message: str) -> None:
        """Make the widgets show the game's state."""
        g = self.game
        self.chooser.value = self._round()
        start = set(g.current.context)
        for eid, b in self.search_buttons.items():
            have = eid in g.context
            b.disabled = have or g.round_over
            self.cite[eid].disabled = not have or g.round_over
            if not have:
                self.cite[eid].value = False
            copies = g.context.count(eid) - 1
            self.found[eid].value = (
                ""
                if not have
                else "<em>given</em>"
                if eid in start and copies <= 0
                else f"<em>{'given' if eid in start else 'found'}"
                + (f" +{copies} cop{'y' if copies == 1 else 'ies'}" if copies > 0 else "")
                + "</em>"
            )
        for eid, cb in self.copy_buttons.items():
            cb.disabled = eid not in g.context or g.round_over
        self.conflict.disabled = g.round_over
        self.answer_box.children = [self.answer_rows[item] for item in g.asks]
        q = g.fixture.question(g.question)
        sc = g.current
        self.intro.value = (
            f"<p><strong>{e(q.text)}</strong> The answer must name: {e(', '.join(q.asks))}.</p>"
            + (f"<p>{e(sc.note)}</p>" if sc.note else "")
            + f"<p>Budget {g.budget}: each search costs what its button says; the starting "
            "evidence is free. Cite the records that prove your answer, name every asked item, "
            "then Submit. If approved records disagree, do not pick one: cite both and report "
            "the conflict.</p>"
        )
        self.message.value = _message(message)
        self.board.value = (
            f'<p>budget left: <span class="claimlab-budget">{g.budget_left}</span> of {g.budget} · '
            f"context: {e(', '.join(g.context) or 'nothing yet')}</p>" + verdict_html(g.last_submit)
        )

    def submit(self):
        """Press Submit."""
        answer = {item: d.value for item, d in self.answers.items() if d.value != NO_ANSWER}
        r = self.game.submit(self.proof, answer, self.conflict.value)
        self.sync("round over: you won" if r.won else "round over: not won (see why below)")
        return r

    def paper_html(self) -> str:
        """The board on paper: the rounds, every record's text and cost, the budget."""
        g, fx = self.game, self.game.fixture
        rounds = "".join(
            f"<tr><td>{e(name)}</td><td>{e(fx.question(sc.question).text)}</td>"
            f"<td>{e(', '.join(fx.question(sc.question).asks))}</td>"
            f"<td>{e(', '.join(sc.context) or '(none)')}</td><td>{e(sc.note)}</td></tr>"
            for name, sc in g.scenarios.items()
        )
        evidence = "".join(
            f"<tr><td>{e(ev.id)}</td><td>{e(ev.text)}</td>"
            f"<td>{e(ev.status)}{'' if ev.current else ', not current'}</td>"
            f"<td>{g.cost(ev.id)}</td><td>{g.copy_cost if g.can_copy(ev.id) else '-'}</td>"
            "<td></td></tr>"
            for ev in fx.evidence
        )
        return (
            '<div class="claimlab-paper">'
            f"<p><strong>Sufficiency game on paper.</strong> Budget {g.budget}; the starting "
            "evidence of a round is free. Tick what you search (pay its cost), cite the records "
            "that prove your answer and write down every asked item.</p>"
            f'<table class="claimlab-rounds"><tr><th>round</th><th>question</th><th>name</th>'
            f"<th>start</th><th>note</th></tr>{rounds}</table>"
            f'<table class="claimlab-board-paper"><tr><th>record</th><th>text</th><th>metadata</th>'
            f"<th>search cost</th><th>copy cost</th><th>searched / cited</th></tr>{evidence}</table></div>"
        )
