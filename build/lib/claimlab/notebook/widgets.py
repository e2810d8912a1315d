"""ipywidgets views over the labs and games: thin, every rule lives in claimlab.games / metrics.

Each view exposes ``.widget`` (the ipywidgets tree), updates its displayed HTML on every change,
and renders in a notebook as the live widget plus a static HTML snapshot (``text/html``) that
handouts and other non-widget front ends show instead of a broken placeholder. All text from a
fixture is escaped.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import ipywidgets as W

from claimlab.core.vocab import STATUSES, status_line
from claimlab.io.decomposition import DecompositionFixture
from claimlab.io.sufficiency import SufficiencyFixture
from claimlab.labs.games import BUDGET, MAX_SLOTS, DecompositionGame, SufficiencyGame
from claimlab.metrics.decomposition import (
    METRIC_LABELS,
    METRICS,
    DecompositionResult,
    find_decomposition,
)
from claimlab.metrics.sufficiency import SufficiencyResult, find_fixture_sufficiency

NO_STATUS = "(not annotated)"


def e(text: object) -> str:
    """Escape for HTML."""
    return html.escape(str(text), quote=True)


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


def verdict_html(result, *, not_won: str) -> str:
    """The end of a round: WON, or the named reasons it is not won (empty before the round ends)."""
    if result is None:
        return ""
    if result.won:
        return '<p class="claimlab-verdict"><strong>WON</strong></p>'
    reasons = "".join(f"<li>{e(x.code)}: {e(x.message)}</li>" for x in result.reasons)
    return f'<p class="claimlab-verdict"><strong>{e(not_won)}</strong>:</p><ul>{reasons}</ul>'


def _toggles(
    items, *, selected: Sequence[str], css_prefix: str, on_change
) -> dict[str, W.ToggleButton]:
    """One toggle button per ``(id, tooltip)``, tagged with a CSS class ``<prefix>-<id>``."""
    out = {}
    for item_id, tooltip in items:
        t = W.ToggleButton(
            value=item_id in selected,
            description=item_id,
            tooltip=tooltip,
            layout=W.Layout(width="64px"),
        )
        t.add_class(f"{css_prefix}-{item_id}")
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
        data["text/html"] = self.snapshot_html()
        return data


class DecompositionExplorer(_View):
    """Toggle candidates; the four metrics (with counts and N/A) and the audit table follow."""

    def __init__(self, fixture: DecompositionFixture, selection: Sequence[str] = ()) -> None:
        self.fixture = fixture
        self.toggles = _toggles(
            ((c.id, c.text) for c in fixture.candidates),
            selected=selection,
            css_prefix="claimlab-cand",
            on_change=self._changed,
        )
        self.mode = W.Dropdown(options=["(choose a mode)", *fixture.modes], description="mode")
        self.mode.observe(self._mode, names="value")
        self.metrics = W.HTML()
        self.metrics.add_class("claimlab-metrics-box")
        self.audit = W.HTML()
        self.widget = W.VBox(
            [
                self.mode,
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
        self.metrics.value = metrics_html(self.result)
        self.audit.value = audit_html(self.result)

    def shown(self) -> dict[str, str]:
        """The metric displays as shown (for tests)."""
        return {m: getattr(self.result, m).display for m in METRICS}

    def snapshot_html(self) -> str:
        """Static rendering of the current state."""
        return metrics_html(self.result) + audit_html(self.result)


class SufficiencyExplorer(_View):
    """Toggle evidence, switch question, ignore metadata; status, witnesses and gaps follow."""

    def __init__(
        self,
        fixture: SufficiencyFixture,
        question: str,
        context: Sequence[str] = (),
        *,
        ignore_metadata: bool = False,
    ) -> None:
        self.fixture = fixture
        self.toggles = _toggles(
            ((ev.id, ev.text) for ev in fixture.evidence),
            selected=context,
            css_prefix="claimlab-ev",
            on_change=self._changed,
        )
        self.copies = W.BoundedIntText(value=0, min=0, max=5, description="copies of E1")
        self.copies.observe(self._changed, names="value")
        self.question = W.Dropdown(
            options=list(fixture.questions), value=question, description="question"
        )
        self.question.observe(self._changed, names="value")
        self.ignore = W.Checkbox(
            value=ignore_metadata, description="ignore metadata (demo: unsafe)"
        )
        self.ignore.add_class("claimlab-ignore")
        self.ignore.observe(self._changed, names="value")
        self.status = W.HTML()
        self.status.add_class("claimlab-sufficiency-box")
        self.widget = W.VBox(
            [
                W.HBox([self.question, self.ignore]),
                W.HBox(list(self.toggles.values())),
                self.copies,
                self.status,
            ]
        )
        self.refresh()

    @property
    def context(self) -> list[str]:
        """Selected ids, plus the copies of E1."""
        ids = [eid for eid, t in self.toggles.items() if t.value]
        return ids + ["E1"] * self.copies.value

    def _changed(self, _change=None) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Recompute and redraw."""
        self.result = find_fixture_sufficiency(
            self.fixture, self.question.value, self.context, ignore_metadata=self.ignore.value
        )
        self.status.value = sufficiency_html(self.result)

    def snapshot_html(self) -> str:
        """Static rendering of the current state."""
        return sufficiency_html(self.result)


def _button(description: str, css: str, on_click, **kwargs) -> W.Button:
    b = W.Button(description=description, **kwargs)
    b.add_class(css)
    b.on_click(lambda _b: on_click())
    return b


class _GameView(_View):
    """What both game views share: the round's main action, Reset, the message and the board."""

    game: DecompositionGame | SufficiencyGame

    def _controls(self, label: str, css: str, action) -> W.Button:
        """Build Reset, the message and the board; return the main action's button."""
        self.reset_button = _button("Reset", "claimlab-reset", self.reset)
        self.message = W.HTML()
        self.message.add_class("claimlab-message")
        self.board = W.HTML()
        self.board.add_class("claimlab-board")
        return _button(label, css, action, button_style="primary")

    def sync(self, message: str) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def reset(self):
        """Press Reset."""
        self.sync(self.game.reset().message)

    def snapshot_html(self) -> str:
        """Static rendering of the current state."""
        return self.message.value + self.board.value


class DecompositionGameView(_GameView):
    """Select candidates (slots), annotate statuses, Check, Reset."""

    game: DecompositionGame

    def __init__(self, game: DecompositionGame) -> None:
        self.game = game
        fx = game.fixture
        self.toggles, self.status_pickers = {}, {}
        rows = []
        for c in fx.candidates:
            t = W.ToggleButton(description=c.id, tooltip=c.text, layout=W.Layout(width="64px"))
            t.add_class(f"claimlab-game-{c.id}")
            t.observe(self._toggle(c.id), names="value")
            d = W.Dropdown(options=[NO_STATUS, *STATUSES], layout=W.Layout(width="190px"))
            d.add_class(f"claimlab-annot-{c.id}")
            d.observe(self._annotate(c.id), names="value")
            self.toggles[c.id], self.status_pickers[c.id] = t, d
            rows.append(W.HBox([t, d, W.HTML(f"<span>{e(c.text)}</span>")]))
        self.check_button = self._controls("Check", "claimlab-check", self.check)
        self.widget = W.VBox(
            [*rows, W.HBox([self.check_button, self.reset_button]), self.message, self.board]
        )
        self._syncing = False
        self.sync("")

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
        self._syncing = True
        try:
            for cid, t in self.toggles.items():
                t.value = cid in self.game.selection
                self.status_pickers[cid].value = self.game.annotations.get(cid, NO_STATUS)
        finally:
            self._syncing = False
        self.message.value = f"<p>{e(message)}</p>"
        m = self.game.metrics()
        verdict = verdict_html(self.game.last_check, not_won="not yet")
        self.board.value = (
            f"<p>slots left: {self.game.slots_left} of {MAX_SLOTS}</p>{verdict}{metrics_html(m)}"
        )

    def check(self):
        """Press Check."""
        r = self.game.check()
        self.sync("round over: " + ("you won" if r.won else "not won yet"))
        return r


class SufficiencyGameView(_GameView):
    """Search with a budget, pick a proof set, answer, Submit, Reset."""

    game: SufficiencyGame

    def __init__(self, game: SufficiencyGame) -> None:
        self.game = game
        fx = game.fixture
        self.search_buttons = {}
        for ev in fx.evidence:
            b = W.Button(
                description=f"search {ev.id} ({game.cost(ev.id)})", layout=W.Layout(width="120px")
            )
            b.add_class(f"claimlab-search-{ev.id}")
            b.on_click(self._search(ev.id))
            self.search_buttons[ev.id] = b
        self.copy_button = W.Button(description="copy E1 (1)")
        self.copy_button.add_class("claimlab-copy")
        self.copy_button.on_click(lambda _b: self.sync(self.game.copy("E1").message))
        self.proof = W.SelectMultiple(options=[], description="proof")
        self.proof.add_class("claimlab-proof")
        objects = sorted({ev.object for ev in fx.evidence})
        self.room = W.Dropdown(options=["", *objects], description="room")
        self.room.add_class("claimlab-room")
        self.route = W.Dropdown(options=["", *objects], description="route")
        self.route.add_class("claimlab-route")
        self.submit_button = self._controls("Submit", "claimlab-submit", self.submit)
        q = fx.question(game.question)
        self.widget = W.VBox(
            [
                W.HTML(
                    f"<p><strong>{e(q.text)}</strong> (answer must name: {e(', '.join(q.asks))})</p>"
                ),
                W.HBox(list(self.search_buttons.values()), layout=W.Layout(flex_flow="row wrap")),
                self.copy_button,
                self.proof,
                W.HBox([self.room, self.route]),
                W.HBox([self.submit_button, self.reset_button]),
                self.message,
                self.board,
            ]
        )
        self.sync("")

    def _search(self, eid):
        return lambda _b: self.sync(self.game.search(eid).message)

    def sync(self, message: str) -> None:
        """Make the widgets show the game's state."""
        ids = list(dict.fromkeys(self.game.context))
        keep = [v for v in self.proof.value if v in ids]
        self.proof.options = ids
        self.proof.value = tuple(keep)
        self.message.value = f"<p>{e(message)}</p>"
        verdict = verdict_html(self.game.last_submit, not_won="not won")
        self.board.value = (
            f'<p>budget left: <span class="claimlab-budget">{self.game.budget_left}</span> of {BUDGET} · '
            f"context: {e(', '.join(self.game.context))}</p>{verdict}"
        )

    def submit(self):
        """Press Submit."""
        answer = {"room": self.room.value}
        if self.route.value:
            answer["route"] = self.route.value
        r = self.game.submit(list(self.proof.value), answer)
        self.sync("round over: " + ("you won" if r.won else "not won"))
        return r
