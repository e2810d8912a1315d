"""The sufficiency explorer and game as ipywidgets (every string from the file escaped)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import ipywidgets as W

from claimlab.io.sufficiency import SufficiencyFixture
from claimlab.labs.sufficiency.explain import explanation, link_text, rejection_detail, word
from claimlab.labs.sufficiency.game import SubmitResult, SufficiencyGame
from claimlab.labs.sufficiency.words import WORDS
from claimlab.labs.teaching import lesson_language
from claimlab.metrics.sufficiency import SufficiencyResult, score_fixture_sufficiency
from claimlab.notebook.widgets import (
    LABEL,
    NO_ANSWER,
    WIDE,
    GameView,
    Html,
    View,
    css_token,
    e,
    message_html,
    paper_table,
    round_title,
    student_note,
    toggles,
    verdict_html,
)
from claimlab.notebook.words import counted

if TYPE_CHECKING:
    from claimlab.io.sufficiency import EvidenceItem
    from claimlab.metrics.sufficiency import Branch, LinkError, Rejection


def sufficiency_html(
    result: SufficiencyResult,
    *,
    fixture: SufficiencyFixture | None = None,
    question: str = "",
    language: str = "en",
) -> str:
    """Status, witnesses, per-branch gaps, rejections and unsafe candidates.

    With the ``fixture`` and ``question`` checked, each rejection is worded in ``language``.
    """

    def gap(b: Branch) -> str:
        if b.complete:
            return e(word("col.complete_witness", language))
        return e(word("panel.missing", language, {"ids": ", ".join(b.missing)}))

    def link(x: LinkError) -> str:
        return e(word("panel.link_error", language, {"explanation": link_text(x, language)}))

    def detail(r: Rejection) -> str:
        return e(rejection_detail(r, fixture, question, language))

    branches = "".join(
        f"<li>{{{e(', '.join(b.alternative))}}}: {gap(b)}"
        + "".join(link(x) for x in b.link_errors)
        + "</li>"
        for b in result.branches
    )
    rejected = "".join(f"<li>{e(r.id)} ({e(r.reason)}): {detail(r)}</li>" for r in result.rejected)
    unsafe = "".join(
        f"<li><strong>UNSAFE CANDIDATE</strong> {e(u.id)}: {detail(u)}</li>"
        for u in result.unsafe_candidates
    )
    context = word(
        "panel.context", language, {"raw": result.context_raw, "unique": result.context_unique}
    )
    return (
        f'<div class="claimlab-sufficiency"><p>{e(word("panel.status", language))}'
        f'<strong class="claimlab-status">{e(result.status)}</strong> · {e(context)}</p>'
        f"<p>{e(explanation(result, language))}</p><ul>{branches}</ul>"
        + (f"<p>{e(word('panel.rejected', language))}</p><ul>{rejected}</ul>" if rejected else "")
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
        self.language = language = lesson_language(fixture)
        self.toggles = toggles(
            ((ev.id, ev.text) for ev in fixture.evidence),
            selected=context,
            css_prefix="claimlab-ev",
            on_change=self._changed,
        )
        ids = [ev.id for ev in fixture.evidence]
        self.copy_of = W.Dropdown(
            options=ids, description=word("label.copies_of", language), style=LABEL
        )
        self.copy_of.observe(self._changed, names="value")
        self.copies = W.BoundedIntText(
            value=0, min=0, max=5, description=word("label.how_many", language), style=LABEL
        )
        self.copies.observe(self._changed, names="value")
        self.question = W.Dropdown(
            options=list(fixture.questions),
            value=question or next(iter(fixture.questions)),
            description=word("col.question", language),
            style=LABEL,
        )
        self.question.observe(self._changed, names="value")
        self.ignore = W.Checkbox(
            value=ignore_metadata,
            description=word("label.ignore", language),
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

    def _changed(self, _change: object = None) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Recompute and redraw."""
        self.result = score_fixture_sufficiency(
            self.fixture, self.question.value, self.context, ignore_metadata=self.ignore.value
        )
        if self.student:
            q = self.fixture.question(self.question.value)
            rows = "".join(
                f"<tr><td>{e(eid)}</td><td>{e(self.fixture.item(eid).text)}</td></tr>"  # type: ignore[union-attr]
                for eid in dict.fromkeys(self.context)
            )
            language = self.language
            head = f"<tr><th>{e(word('col.id', language))}</th><th>{e(word('col.text', language))}</th></tr>"
            listed = (
                f'<table class="claimlab-texts">{head}{rows}</table>'
                if rows
                else f"<p>{e(word('game.nothing_selected', language))}</p>"
            )
            self.status.value = (
                f"<p><strong>{e(q.text)}</strong></p><p>{e(student_note(language))}</p>{listed}"
            )
            return
        self.status.value = sufficiency_html(
            self.result, fixture=self.fixture, question=self.question.value, language=self.language
        )

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
        self.language = lesson_language(fx)
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
            value=False, description=word("game.report_conflict", self.language), indent=False
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

    def _evidence_row(self, ev: EvidenceItem) -> W.HBox:
        """One record's row: search (and copy) buttons, the cite box, what was found, its text."""
        game, fx, language = self.game, self.game.fixture, self.language
        token = css_token(ev.id)
        b = W.Button(
            description=word("game.search", language, {"cost": game.cost(ev.id)}),
            tooltip=word("game.search_tip", language, {"id": ev.id}),
        )
        b.add_class(f"claimlab-search-{token}")
        b.on_click(self._search(ev.id))
        self.search_buttons[ev.id] = b
        extra: list[W.Widget] = []
        if fx.game.copyable and not game.can_copy(ev.id):  # keep the rows aligned
            extra.append(Html("", layout=W.Layout(width="148px")))
        if game.can_copy(ev.id):
            cb = W.Button(
                description=word("game.copy", language, {"cost": game.copy_cost}),
                tooltip=word("game.copy_tip", language, {"id": ev.id}),
            )
            cb.add_class(f"claimlab-copy-{token}")
            cb.on_click(self._copy(ev.id))
            self.copy_buttons[ev.id] = cb
            extra.append(cb)
        c = W.Checkbox(
            value=False,
            description=word("game.cite", language),
            indent=False,
            layout=W.Layout(width="70px"),
        )
        c.add_class(f"claimlab-cite-{token}")
        self.cite[ev.id] = c
        self.found[ev.id] = Html(layout=W.Layout(width="90px"))
        meta = f"{ev.status}{'' if ev.current else word('game.not_current', language)}"
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

    def _choose(self, change: Mapping[str, object]) -> None:
        if change["new"] != self._round():
            self._clear()
        super()._choose(change)

    def _search(self, eid: str) -> Callable[[object], None]:
        return lambda _b: self.sync(self.game.search(eid).message)

    def _copy(self, eid: str) -> Callable[[object], None]:
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
            self.found[eid].value = self._found(eid, start) if have else ""
        for eid, cb in self.copy_buttons.items():
            cb.disabled = eid not in g.context or g.round_over
        self.conflict.disabled = g.round_over
        self.submit_button.disabled = g.round_over  # a finished round is locked until Reset
        self.answer_box.children = [self.answer_rows[item] for item in g.asks]
        self._show_round(message)

    def _found(self, eid: str, start: set[str]) -> str:
        """What the row of a record in the context says: given or found, and its copies."""
        language = self.language
        copies = self.game.context.count(eid) - 1
        how = word("game.given" if eid in start else "game.found", language)
        more = counted(WORDS, "copy", copies, language) if copies > 0 else ""
        return f"<em>{e(how)}{e(more)}</em>"

    def _show_round(self, message: str) -> None:
        """The round's question, note and how to play; the message; the budget and context."""
        g, language = self.game, self.language
        q = g.fixture.question(g.question)
        sc = g.current
        name = e(word("game.must_name", language, {"asks": ", ".join(q.asks)}))
        self.intro.value = (
            f"<p><strong>{e(q.text)}</strong> {name}</p>"
            + (f"<p>{e(sc.note)}</p>" if sc.note else "")
            + f"<p>{e(word('game.how', language, {'budget': g.budget}))}</p>"
        )
        self.message.value = message_html(message)
        board = word(
            "game.board",
            language,
            {
                "left": f'<span class="claimlab-budget">{g.budget_left}</span>',
                "budget": g.budget,
                "context": e(", ".join(g.context) or word("game.nothing_yet", language)),
            },
        )
        self.board.value = f"<p>{board}</p>" + verdict_html(g.last_submit)

    def submit(self) -> SubmitResult:
        """Press Check."""
        answer = {item: d.value for item, d in self.answers.items() if d.value != NO_ANSWER}
        r = self.game.submit(self.proof, answer, self.conflict.value)
        verdict = word("game.you_won" if r.won else "game.not_won", self.language)
        self.sync(word("game.over", self.language, {"verdict": verdict}))
        return r

    def paper_html(self) -> str:
        """The board on paper: the rounds, every record's text and cost, the budget."""
        g, fx, language = self.game, self.game.fixture, self.language
        rounds = [
            [
                e(name),
                e(fx.question(sc.question).text),
                e(", ".join(fx.question(sc.question).asks)),
                e(", ".join(sc.context) or word("cell.none", language)),
                e(sc.note),
            ]
            for name, sc in g.scenarios.items()
        ]
        evidence = [
            [
                e(ev.id),
                e(ev.text),
                e(ev.status) + ("" if ev.current else e(word("game.not_current", language))),
                str(g.cost(ev.id)),
                str(g.copy_cost) if g.can_copy(ev.id) else "-",
                "",
            ]
            for ev in fx.evidence
        ]
        heads = [word(f"col.{k}", language) for k in ("round", "question", "name", "start", "note")]
        board = [
            word(f"col.{k}", language)
            for k in ("record", "text", "metadata", "search_cost", "copy_cost", "searched_cited")
        ]
        intro = word("paper.intro", language, {"budget": g.budget})
        return (
            f'<div class="claimlab-paper"><p>{intro}</p>'
            + paper_table("claimlab-rounds", heads, rounds)
            + paper_table("claimlab-board-paper", board, evidence, write={board[-1]: 8})
            + "</div>"
        )
