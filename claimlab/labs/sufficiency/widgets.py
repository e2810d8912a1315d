"""The sufficiency explorer and game as ipywidgets (every string from the file escaped)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as W

from claimlab.io.sufficiency import SufficiencyFixture
from claimlab.labs.sufficiency.game import SufficiencyGame
from claimlab.metrics.sufficiency import SufficiencyResult, find_fixture_sufficiency
from claimlab.notebook.widgets import (
    LABEL,
    NO_ANSWER,
    STUDENT_NOTE,
    WIDE,
    GameView,
    Html,
    View,
    css_token,
    e,
    message_html,
    paper_table,
    round_title,
    toggles,
    verdict_html,
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


class SufficiencyExplorer(View):
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
        self.toggles = toggles(
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
        self.status = Html()
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

    def _changed(self, _change: Any = None) -> None:
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
        return str(self.status.value)


class SufficiencyGameView(GameView):
    """Choose a round, search with a budget, cite a proof, answer, Check, Reset."""

    game: SufficiencyGame

    def __init__(self, game: SufficiencyGame, *, student: bool = False) -> None:
        self.game = game
        self.student = student
        fx = game.fixture
        self.search_buttons: dict[str, W.Button] = {}
        self.copy_buttons: dict[str, W.Button] = {}
        self.cite: dict[str, W.Checkbox] = {}
        self.found: dict[str, W.HTML] = {}
        rows = [self._evidence_row(ev) for ev in fx.evidence]
        options = sorted({v for ev in fx.evidence for v in (ev.subject, ev.object)})
        self.answers: dict[str, W.Dropdown] = {}
        self.answer_rows: dict[str, W.HBox] = {}
        for item in dict.fromkeys(a for q in fx.questions.values() for a in q.asks):
            d = W.Dropdown(options=[NO_ANSWER, *options])
            d.add_class(f"claimlab-answer-{css_token(item)}")
            self.answers[item] = d
            self.answer_rows[item] = W.HBox([Html(f"<strong>{e(item)}</strong>"), d])
        self.answer_box = W.HBox([])
        self.conflict = W.Checkbox(
            value=False, description="the evidence disagrees: report a conflict", indent=False
        )
        self.conflict.add_class("claimlab-report-conflict")
        rounds = {n: round_title(n, n) for n in game.scenarios}
        self.submit_button = self._controls("Check", "claimlab-submit", self.submit, rounds)
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

    def _evidence_row(self, ev: Any) -> Any:
        """One record's row: search (and copy) buttons, the cite box, what was found, its text."""
        game, fx = self.game, self.game.fixture
        token = css_token(ev.id)
        b = W.Button(description=f"search ({game.cost(ev.id)})", tooltip=f"search {ev.id}")
        b.add_class(f"claimlab-search-{token}")
        b.on_click(self._search(ev.id))
        self.search_buttons[ev.id] = b
        extra: list[W.Widget] = []
        if fx.game.copyable and not game.can_copy(ev.id):  # keep the rows aligned
            extra.append(Html("", layout=W.Layout(width="148px")))
        if game.can_copy(ev.id):
            cb = W.Button(description=f"copy ({game.copy_cost})", tooltip=f"copy {ev.id}")
            cb.add_class(f"claimlab-copy-{token}")
            cb.on_click(self._copy(ev.id))
            self.copy_buttons[ev.id] = cb
            extra.append(cb)
        c = W.Checkbox(value=False, description="cite", indent=False, layout=W.Layout(width="70px"))
        c.add_class(f"claimlab-cite-{token}")
        self.cite[ev.id] = c
        self.found[ev.id] = Html(layout=W.Layout(width="90px"))
        meta = f"{ev.status}{'' if ev.current else ', not current'}"
        text = Html(f"<span><strong>{e(ev.id)}</strong> {e(ev.text)} <em>({e(meta)})</em></span>")
        return W.HBox([b, *extra, c, self.found[ev.id], text])

    def _round(self) -> str:
        return str(self.game.scenario)

    def _clear(self) -> None:
        """A new round: nothing cited, nothing answered."""
        for c in self.cite.values():
            c.value = False
        for d in self.answers.values():
            d.value = NO_ANSWER
        self.conflict.value = False

    def reset(self) -> None:
        """Press Reset: the round starts again; citations and answers are cleared."""
        self._clear()
        super().reset()

    def _choose(self, change: Any) -> None:
        if change["new"] != self._round():
            self._clear()
        super()._choose(change)

    def _search(self, eid: Any) -> Any:
        return lambda _b: self.sync(self.game.search(eid).message)

    def _copy(self, eid: Any) -> Any:
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
        self.submit_button.disabled = g.round_over  # a finished round is locked until Reset
        self.answer_box.children = [self.answer_rows[item] for item in g.asks]
        q = g.fixture.question(g.question)
        sc = g.current
        self.intro.value = (
            f"<p><strong>{e(q.text)}</strong> The answer must name: {e(', '.join(q.asks))}.</p>"
            + (f"<p>{e(sc.note)}</p>" if sc.note else "")
            + f"<p>Budget {g.budget}: each search costs what its button says; the starting "
            "evidence is free. Cite the records that prove your answer, name every asked item, "
            "then Check. If approved records disagree, do not pick one: cite both and report "
            "the conflict.</p>"
        )
        self.message.value = message_html(message)
        self.board.value = (
            f'<p>budget left: <span class="claimlab-budget">{g.budget_left}</span> of {g.budget} · '
            f"context: {e(', '.join(g.context) or 'nothing yet')}</p>" + verdict_html(g.last_submit)
        )

    def submit(self) -> Any:
        """Press Check."""
        answer = {item: d.value for item, d in self.answers.items() if d.value != NO_ANSWER}
        r = self.game.submit(self.proof, answer, self.conflict.value)
        verdict = "you won" if r.won else "not won (see why below)"
        self.sync(f"round over: {verdict}; press Reset to play again")
        return r

    def paper_html(self) -> str:
        """The board on paper: the rounds, every record's text and cost, the budget."""
        g, fx = self.game, self.game.fixture
        rounds = [
            [
                e(name),
                e(fx.question(sc.question).text),
                e(", ".join(fx.question(sc.question).asks)),
                e(", ".join(sc.context) or "(none)"),
                e(sc.note),
            ]
            for name, sc in g.scenarios.items()
        ]
        evidence = [
            [
                e(ev.id),
                e(ev.text),
                e(ev.status) + ("" if ev.current else ", not current"),
                str(g.cost(ev.id)),
                str(g.copy_cost) if g.can_copy(ev.id) else "-",
                "",
            ]
            for ev in fx.evidence
        ]
        return (
            '<div class="claimlab-paper">'
            f"<p><strong>Sufficiency game on paper.</strong> Budget {g.budget}; the starting "
            "evidence of a round is free. Tick what you search (pay its cost), cite the records "
            "that prove your answer and write down every asked item.</p>"
            + paper_table("claimlab-rounds", ["round", "question", "name", "start", "note"], rounds)
            + paper_table(
                "claimlab-board-paper",
                ["record", "text", "metadata", "search cost", "copy cost", "searched / cited"],
                evidence,
                write={"searched / cited": 8},
            )
            + "</div>"
        )
