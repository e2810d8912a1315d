"""The annotator: a person confirms a draft's units and labels in JupyterLab; every change is saved.

Every rule lives in :class:`claimlab.labs.annotation.AnnotationSession`; this module only shows
it. The answer is drawn by a small ``anywidget`` (:class:`AnswerText`): its text is set with
``textContent`` (never parsed as HTML), units are highlighted, and the text a person selects is
sent back as UTF-16 offsets, which is what JavaScript strings count, so an emoji or a Thai
vowel mark is never split. Keys while the answer has focus: ``u`` new unit from the selection,
``s`` the current candidate's source span from the selection, ``c`` confirm, ``n`` / ``p`` next
and previous candidate. Every other control is a standard widget, reachable with Tab.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import anywidget
import ipywidgets as W
import traitlets

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.spans import backing_rule, unbacked_line, utf16_slice
from claimlab.core.vocab import ERROR_KINDS, STATUSES
from claimlab.labs.annotation.session import (
    AnnotationSession,
    Workspace,
    next_to_do,
    shown_path,
)
from claimlab.notebook.widgets import Html, View, css_token

if TYPE_CHECKING:
    from claimlab.io.decomposition import Candidate, DecompositionFixture

GUIDE = """
<ul>
<li><b>Read the original first.</b> Mark each stretch of content that must be kept as a unit:
split compound sentences; keep claims the references contradict (they are content too), names
that repeat, pronouns (resolve them only from the original, and leave them ambiguous when it
does not say), conditions and scope, and text nobody can verify.</li>
<li><b>A condition stays with what it limits</b> ("works offline, on desktop only" is one
statement): a loose condition checks nothing.</li>
<li><b>Source span</b>: where the answer says the candidate. No span: the answer does not say it
(an <i>introduced</i> claim).</li>
<li><b>Preserves</b>: the units whose content the candidate keeps. Omissions (units nobody
keeps) and additions (introduced claims) are counted apart.</li>
<li><b>Faithful</b>: it says what the original says, same entity, version and qualifiers. Any
error kind makes it unfaithful.</li>
<li><b>Atomic</b>: one statement that can be checked on its own, under this task's criteria.
Annotators disagree most here: decide by the criteria, not by length.</li>
<li><b>Evidence status</b> comes from the references only: SUPPORTED, CONTRADICTED or
NOT_IN_REFERENCE (not found is not contradicted).</li>
<li><b>Proposed labels are not gold</b>: a draft's or another model's labels count only after a
person has read and confirmed them.</li>
</ul>
"""

_ESM = r"""
function render({ model, el }) {
  const box = document.createElement("div");
  box.className = "claimlab-answer";
  box.tabIndex = 0;
  box.setAttribute("role", "textbox");
  box.setAttribute("aria-readonly", "true");
  box.setAttribute("aria-label", "original answer: select text, then u (unit) or s (span)");
  box.style.cssText = "white-space:pre-wrap;line-height:1.9;padding:8px 10px;border:1px solid #bbb;" +
    "border-radius:4px;font-size:15px;user-select:text;cursor:text;outline-offset:2px";
  const status = document.createElement("div");
  status.className = "claimlab-selection";
  status.style.cssText = "font-size:12px;color:#444;margin-top:4px";
  el.appendChild(box);
  el.appendChild(status);

  function draw() {
    const text = model.get("text");
    const units = model.get("units") || [];
    const span = model.get("span") || [];
    const cuts = new Set([0, text.length]);
    for (const u of units) { cuts.add(u[0]); cuts.add(u[1]); }
    for (const s of span) { cuts.add(s[0]); cuts.add(s[1]); }
    const points = Array.from(cuts).filter((x) => x >= 0 && x <= text.length).sort((a, b) => a - b);
    box.replaceChildren();
    for (let i = 0; i + 1 < points.length; i++) {
      const a = points[i], b = points[i + 1];
      const piece = document.createElement("span");
      piece.textContent = text.slice(a, b);
      piece.dataset.start = String(a);
      const inUnits = units.filter((u) => u[0] <= a && b <= u[1]);
      const inSpan = span.some((s) => s[0] <= a && b <= s[1]);
      if (inUnits.length) {
        const proposed = inUnits.every((u) => u[3]);
        piece.style.background = proposed ? "#fff3c4" : "#d8ecff";
        piece.title = inUnits.map((u) => u[2] + (u[3] ? " (proposed)" : "")).join(", ");
        piece.className = "claimlab-unit";
      }
      if (inSpan) {
        piece.style.outline = "2px solid #2d6b3c";
        piece.style.outlineOffset = "1px";
        piece.classList.add("claimlab-span");
      }
      box.appendChild(piece);
    }
    drawStatus();
  }

  function drawStatus() {
    // the selection is only reported, never redrawn: rebuilding the text would drop it
    const text = model.get("text");
    const sel = model.get("selection") || [];
    status.textContent = sel.length === 2 && sel[1] > sel[0]
      ? `selected ${sel[0]}..${sel[1]} (UTF-16): “${text.slice(sel[0], sel[1])}”`
      : "select text in the answer to mark a unit or a source span";
  }

  function offsetOf(node, offset) {
    // UTF-16 offset of (node, offset) inside box: the lengths of the text before it
    let total = 0;
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    let n;
    while ((n = walker.nextNode())) {
      if (n === node) return total + offset;
      total += n.data.length;
    }
    if (node === box) {
      let t = 0;
      for (let i = 0; i < offset && i < box.childNodes.length; i++) t += box.childNodes[i].textContent.length;
      return t;
    }
    return null;
  }

  function readSelection() {
    const s = window.getSelection();
    if (!s || s.rangeCount === 0) return;
    const r = s.getRangeAt(0);
    if (!box.contains(r.startContainer) || !box.contains(r.endContainer)) return;
    const a = offsetOf(r.startContainer, r.startOffset);
    const b = offsetOf(r.endContainer, r.endOffset);
    if (a === null || b === null) return;
    const lo = Math.min(a, b), hi = Math.max(a, b);
    model.set("selection", lo < hi ? [lo, hi] : []);
    model.save_changes();
  }

  box.addEventListener("mouseup", readSelection);
  box.addEventListener("keyup", (ev) => { if (ev.shiftKey || ev.key.startsWith("Arrow")) readSelection(); });
  box.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const key = ev.key.toLowerCase();
    if (["u", "s", "c", "n", "p"].includes(key)) {
      ev.preventDefault();
      ev.stopPropagation();  // JupyterLab's command-mode keys must not fire
      readSelection();
      model.send({ key });
    }
  });
  model.on("change:text", draw);
  model.on("change:units", draw);
  model.on("change:span", draw);
  model.on("change:selection", drawStatus);
  draw();
}
export default { render };
"""


class AnswerText(anywidget.AnyWidget):
    """The original answer with its units; reports the selected text as UTF-16 offsets."""

    _esm = traitlets.Unicode(_ESM).tag(sync=True)
    text = traitlets.Unicode("").tag(sync=True)
    units: traitlets.List[Any] = traitlets.List([]).tag(sync=True)  # [start, end, id, proposed]
    span: traitlets.List[Any] = traitlets.List([]).tag(sync=True)  # [[start, end], ...]: current
    selection: traitlets.List[Any] = traitlets.List([]).tag(sync=True)  # [start, end] or []


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _reference_html(title: str, version: str, text: str) -> str:
    head = f"<b>{_e(title)}</b>" + (f" · version {_e(version)}" if version else "")
    return f'<div class="claimlab-reference-text"><p>{head}</p><p>{_e(text)}</p></div>'


def reference_texts(fx: DecompositionFixture) -> W.Widget:
    """Each reference's text, in a collapsible panel per reference (text escaped, never markup)."""
    if not fx.references:
        return W.HTML("<i>the file has no references: every status is NOT_IN_REFERENCE</i>")
    panels = W.Accordion(
        children=[Html(_reference_html(r.title, r.version, r.text)) for r in fx.references],
        titles=tuple(_short(f"{r.id}: {r.title}", 70) for r in fx.references),
    )
    panels.add_class("claimlab-reference-texts")
    return panels


def _short(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


class Annotator(View):
    """The annotation widget over a session, or a workspace of answers (see the module's keys).

    With a folder of drafts (a :class:`Workspace`), an answer chooser at the top lists every
    answer as ``DECOMPOSER/ID`` with how far it is; choosing one opens that copy in place,
    without running the notebook again.
    """

    def __init__(self, source: AnnotationSession | Workspace) -> None:
        self.space = source if isinstance(source, Workspace) else None
        self.session = source.session if isinstance(source, Workspace) else source
        self._syncing = False
        self._progress: dict[str, Any] | None = None
        fx = self.session.fixture
        self.answer = AnswerText(text=fx.original.text)
        self.answer.on_msg(self._key)
        self.progress = Html()
        self.progress.add_class("claimlab-progress")
        self.message = Html()
        self.message.add_class("claimlab-message")
        self._answer_controls()
        self._unit_controls()
        self._candidate_controls()
        self._label_controls(fx)
        self.widget = self._layout()
        self.widget.add_class("claimlab-annotator")
        self.refresh()

    def _answer_controls(self) -> None:
        """The answer chooser (a folder of drafts only) and the count of answers done."""
        self.answers = W.Dropdown(description="answer", layout=W.Layout(width="auto"))
        self.answers.add_class("claimlab-answer-choice")
        self.answers_done = Html()
        self.answers_done.add_class("claimlab-answers-done")
        self.next_answer = self._button(
            "next answer to do ▶", "claimlab-next-answer", self.step_answer
        )
        self._draw_answers()
        self.answers.observe(lambda _c: self._answer_chosen(), names="value")

    def _unit_controls(self) -> None:
        """New, move, remove and confirm units from the selected text."""
        self.new_unit = self._button(
            "New unit from selection (u)", "claimlab-new-unit", self.unit_from_selection
        )
        self.unit_choice = W.Dropdown(description="unit", layout=W.Layout(width="220px"))
        self.move_unit = self._button(
            "Move unit to selection", "claimlab-move-unit", self.move_unit_to_selection
        )
        self.remove_unit = self._button(
            "Remove unit", "claimlab-remove-unit", self.remove_chosen_unit
        )
        self.confirm_units = self._button(
            "Confirm all units", "claimlab-confirm-units", self.confirm_all_units
        )

    def _candidate_controls(self) -> None:
        """The candidate chooser, its text and its source span buttons."""
        self.chooser = W.Dropdown(description="candidate", layout=W.Layout(width="auto"))
        self.chooser.add_class("claimlab-candidate")
        self.chooser.observe(lambda _c: self._show_candidate(), names="value")
        self.prev = self._button("◀ previous (p)", "claimlab-prev", lambda: self.step(-1))
        self.next = self._button("next (n) ▶", "claimlab-next", lambda: self.step(1))
        self.cand_text = Html()
        self.cand_text.add_class("claimlab-candidate-text")
        self.set_span = self._button(
            "Source span from selection (s)", "claimlab-set-span", self.span_from_selection
        )
        self.no_span = self._button("No source span", "claimlab-no-span", self.clear_span)

    def _label_controls(self, fx: DecompositionFixture) -> None:
        """Preserves, faithful, atomic, errors, evidence status, references, confirm, reopen."""
        self.preserves = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.faithful = W.Checkbox(description="faithful", indent=False)
        self.faithful.add_class("claimlab-faithful")
        self.atomic = W.Checkbox(description="atomic", indent=False)
        self.atomic.add_class("claimlab-atomic")
        self.errors = {
            k: W.ToggleButton(description=str(k), tooltip=f"error: {k}") for k in ERROR_KINDS
        }
        for k, t in self.errors.items():
            t.add_class(f"claimlab-error-{k}")
            t.observe(lambda _c: self._errors_changed(), names="value")
        self.status = W.Dropdown(options=[str(s) for s in STATUSES], description="evidence")
        self.status.add_class("claimlab-status")
        self.status.observe(lambda _c: self._status_changed(), names="value")
        self.references = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.reference_texts = reference_texts(fx)
        self._references_box = W.VBox([self.reference_texts])
        self.faithful.observe(lambda _c: self._bool_changed("faithful"), names="value")
        self.atomic.observe(lambda _c: self._bool_changed("atomic"), names="value")
        self.confirm = self._button(
            "Confirm candidate (c)", "claimlab-confirm", self.confirm_current, style="success"
        )
        self.reopen = self._button("Reopen", "claimlab-reopen", self.reopen_current)

    def _layout(self) -> W.VBox:
        """Every control in reading order, with the annotation guide folded at the end."""
        guide = W.Accordion(children=[Html(GUIDE)], titles=("Annotation guide",))
        guide.selected_index = None

        chooser = (
            [W.HBox([self.answers, self.next_answer, self.answers_done])] if self.space else []
        )
        return W.VBox(
            [
                *chooser,
                self.progress,
                self.answer,
                W.HBox(
                    [
                        self.new_unit,
                        self.unit_choice,
                        self.move_unit,
                        self.remove_unit,
                        self.confirm_units,
                    ],
                    layout=W.Layout(flex_flow="row wrap"),
                ),
                W.HBox([self.prev, self.chooser, self.next], layout=W.Layout(flex_flow="row wrap")),
                self.cand_text,
                W.HBox([self.set_span, self.no_span]),
                W.HTML("<b>preserves</b> (click the units this candidate keeps)"),
                self.preserves,
                W.HBox([self.faithful, self.atomic]),
                W.HTML("<b>errors</b>"),
                W.HBox(list(self.errors.values()), layout=W.Layout(flex_flow="row wrap")),
                self.status,
                W.HTML("<b>references</b> (the evidence status comes from their texts alone)"),
                self.references,
                self._references_box,
                W.HBox([self.confirm, self.reopen]),
                self.message,
                guide,
            ]
        )

    # ------------------------------------------------------------------ plumbing

    def _button(self, text: str, css: str, action: Callable[[], None], style: str = "") -> W.Button:
        b = W.Button(description=text, layout=W.Layout(width="auto"), button_style=style)
        b.add_class(css)
        b.on_click(lambda _b: self._run(action))
        return b

    def _run(self, action: Callable[[], None]) -> None:
        try:
            action()
        except ClaimlabInputError as exc:
            self.say(f"Not saved: {exc}", error=True)

    def say(self, text: str, *, error: bool = False) -> None:
        """Show a message (escaped) under the controls."""
        color = "#a12828" if error else "#2d6b3c"
        self.message.value = f'<div style="color:{color}">{_e(text)}</div>'

    def _key(self, _widget: object, content: object, _buffers: object) -> None:
        key = content.get("key") if isinstance(content, dict) else None
        actions = {
            "u": self.unit_from_selection,
            "s": self.span_from_selection,
            "c": self.confirm_current,
            "n": lambda: self.step(1),
            "p": lambda: self.step(-1),
        }
        if key in actions:
            self._run(actions[key])

    @property
    def current(self) -> str | None:
        """The candidate being annotated."""
        return self.chooser.value  # type: ignore[no-any-return]

    def _selection(self) -> tuple[int, int]:
        sel = list(self.answer.selection)
        if len(sel) != 2 or sel[1] <= sel[0]:
            raise ClaimlabInputError("select some text of the answer first")
        return int(sel[0]), int(sel[1])

    # ------------------------------------------------------------------ actions

    def select(self, start: int, end: int) -> None:
        """Set the selection from Python (what a mouse selection does in the browser)."""
        utf16_slice(self.session.text, start, end)
        self.answer.selection = [start, end]

    def unit_from_selection(self) -> None:
        """Mark the selected text as a new unit."""
        start, end = self._selection()
        uid = self.session.add_unit(start, end)
        self.refresh()
        self.say(f"Unit {uid} marked at {start}..{end}; saved.")

    def move_unit_to_selection(self) -> None:
        """Move the chosen unit to the selected text."""
        start, end = self._selection()
        uid = self.unit_choice.value
        if not uid:
            raise ClaimlabInputError("choose a unit first")
        self.session.set_unit_span(uid, start, end)
        self.refresh()
        self.say(f"Unit {uid} moved to {start}..{end}; saved.")

    def remove_chosen_unit(self) -> None:
        """Remove the chosen unit."""
        uid = self.unit_choice.value
        if not uid:
            raise ClaimlabInputError("choose a unit first")
        self.session.remove_unit(uid)
        self.refresh()
        self.say(f"Unit {uid} removed; saved.")

    def confirm_all_units(self) -> None:
        """Confirm every proposed unit."""
        self.session.confirm_units()
        self.refresh()
        self.say("Every unit confirmed; saved.")

    def span_from_selection(self) -> None:
        """The current candidate's source span is the selected text."""
        start, end = self._selection()
        cid = self._need_current()
        self.session.set_source_span(cid, start, end)
        self.refresh()
        self.say(f"{cid}: source span {start}..{end}; saved.")

    def clear_span(self) -> None:
        """The current candidate has no source span."""
        cid = self._need_current()
        self.session.clear_source_spans(cid)
        self.refresh()
        self.say(f"{cid}: no source span; saved.")

    def confirm_current(self) -> None:
        """Confirm the current candidate's labels and go to the next one under review."""
        cid = self._need_current()
        self.session.confirm(cid)
        self.refresh()
        unbacked = unbacked_line(self.session.fixture.unbacked_claims)
        fx = self.session.fixture
        after = next_to_do(fx.candidate_ids, [c.id for c in fx.candidates if c.review], cid)
        if after:
            self.chooser.value = after
        self._draw_answers()
        finished = " Every candidate here is confirmed." if after is None else ""
        if finished and self.space is not None:
            finished += " Next answer to do ▶ opens the next one."
        self.say(
            f"{cid} confirmed by {self.session.annotator}; saved."
            + (f" In this file, {unbacked}." if unbacked else "")
            + finished
        )

    def reopen_current(self) -> None:
        """Put the current candidate back under review."""
        cid = self._need_current()
        self.session.reopen(cid)
        self.refresh()
        self.say(f"{cid} reopened; saved.")

    def _answer_progress(self) -> dict[str, Any]:
        """Each answer's progress, read from the copies once and then kept for the open one.

        Only this widget writes the annotator's copies, so a Confirm rereads no other file.
        """
        if self.space is None:
            return {}
        if self._progress is None:
            self._progress = self.space.progress_of()
        here = self.space.current
        if here is not None:
            self._progress[here.label] = self.session.progress()
        return self._progress

    def _draw_answers(self) -> None:
        """The chooser's answers, each ``DECOMPOSER/ID`` with its progress, and the count done."""
        if self.space is None:
            return
        progress = self._answer_progress()
        done = [label for label, p in progress.items() if p.done]
        self._syncing = True
        try:
            self.answers.options = [
                (f"{'✓' if p.done else '•'} {label} · {p.candidates.numerator} of "
                 f"{p.candidates.denominator} confirmed", label)
                for label, p in progress.items()
            ]  # fmt: skip
            here = self.space.current
            self.answers.value = here.label if here else None
        finally:
            self._syncing = False
        self.answers_done.value = (
            f"answers: <b>{len(done)} confirmed</b> · {len(progress) - len(done)} to do"
        )

    def _answer_chosen(self) -> None:
        if self._syncing or self.space is None or not self.answers.value:
            return
        self._run(lambda: self.open_answer(self.answers.value))

    def open_answer(self, label: str) -> None:
        """Open another answer of the folder (``DECOMPOSER/ID``) in place."""
        if self.space is None:
            raise ClaimlabInputError("a single draft has no other answer")
        self.space = self.space.open(label)
        self.session = self.space.session
        fx = self.session.fixture
        self._syncing = True
        try:
            self.chooser.options = []
            self.answer.selection = []
            self.answer.text = fx.original.text
        finally:
            self._syncing = False
        self.reference_texts = reference_texts(fx)
        self._references_box.children = [self.reference_texts]
        self.refresh()
        self._draw_answers()
        self.say(f"{label} opened ({self.session.progress().text}).")

    def step_answer(self) -> None:
        """Open the next answer with something still to confirm."""
        if self.space is None:
            return
        progress = self._answer_progress()
        here = self.space.current
        after = next_to_do(
            list(progress),
            [k for k, p in progress.items() if not p.done],
            here.label if here else None,
        )
        if after is None:
            self.say("Every answer is confirmed.")
            return
        self.open_answer(after)

    def step(self, by: int) -> None:
        """Go to the next (1) or previous (-1) candidate."""
        ids = self.session.fixture.candidate_ids
        if not ids:
            return
        i = ids.index(self.current) if self.current in ids else 0
        self.chooser.value = ids[(i + by) % len(ids)]

    def _need_current(self) -> str:
        if not self.current:
            raise ClaimlabInputError("the file has no candidate")
        return self.current

    def _bool_changed(self, label: str) -> None:
        if self._syncing or not self.current:
            return
        cid = self.current
        value = self.faithful.value if label == "faithful" else self.atomic.value
        setter = self.session.set_faithful if label == "faithful" else self.session.set_atomic
        self._run(lambda: setter(cid, value))
        self.refresh()

    def _errors_changed(self) -> None:
        if self._syncing or not self.current:
            return
        cid = self.current
        kinds = [str(k) for k, t in self.errors.items() if t.value]
        self._run(lambda: self.session.set_errors(cid, kinds))
        self.refresh()

    def _status_changed(self) -> None:
        if self._syncing or not self.current:
            return
        cid = self.current
        self._run(lambda: self.session.set_status(cid, self.status.value))
        self.refresh()

    def _toggle_preserve(self, uid: str) -> None:
        if self._syncing or not self.current:
            return
        cid = self.current
        self._run(lambda: self.session.toggle_preserves(cid, uid))
        self.refresh()

    def _references_changed(self) -> None:
        if self._syncing or not self.current:
            return
        cid = self.current
        refs = [t.description for t in self.references.children if t.value]
        self._run(lambda: self.session.set_references(cid, refs))
        self.refresh()

    # ------------------------------------------------------------------ drawing

    def refresh(self) -> None:
        """Draw everything from the session's file."""
        fx = self.session.fixture
        self._syncing = True
        try:
            self.progress.value = (
                f"<b>{_e(self.session.progress().text)}</b> · annotator: "
                f"{_e(self.session.annotator)} · saved to <code>{_e(shown_path(self.session.path))}</code>"
            )
            self.answer.units = [[u.span.start, u.span.end, u.id, u.proposed] for u in fx.units]
            keep_unit = self.unit_choice.value
            self.unit_choice.options = [
                (f"{u.id}{' (proposed)' if u.proposed else ''}: {_short(u.span.text, 30)}", u.id)
                for u in fx.units
            ]
            if keep_unit in fx.unit_ids:
                self.unit_choice.value = keep_unit
            elif fx.units:
                self.unit_choice.value = fx.units[0].id
            options = [
                (f"{c.id} {'✓' if not c.review else '•'} {_short(c.text)}", c.id)
                for c in fx.candidates
            ]
            keep = self.chooser.value
            self.chooser.options = options
            ids = [cid for _, cid in options]
            if keep in ids:
                self.chooser.value = keep
            elif ids:
                todo = [c.id for c in fx.candidates if c.review]
                self.chooser.value = next_to_do(ids, todo, None) or ids[0]
        finally:
            self._syncing = False
        self._show_candidate()

    def _show_candidate(self) -> None:
        fx = self.session.fixture
        cid = self.current
        if not cid:
            self.cand_text.value = "<i>The file has no candidate.</i>"
            return
        c = fx.candidate(cid)
        self._syncing = True
        try:
            self.answer.span = [[s.start, s.end] for s in c.source_spans]
            self.cand_text.value = _candidate_html(c)
            self.preserves.children = self._preserve_toggles(c) or [
                W.HTML("<i>no units yet: mark some above</i>")
            ]
            self.faithful.value = c.faithful
            self.atomic.value = c.atomic
            for k, t in self.errors.items():
                t.value = k in c.errors
                t.button_style = "danger" if t.value else ""
            self.status.value = str(c.evidence.status)
            self.references.children = self._reference_toggles(c) or [
                W.HTML("<i>the file has no references</i>")
            ]
        finally:
            self._syncing = False
        problems = [p for _, p in self.session.problems(cid)]
        if c.faithful and (unbacked := fx.unbacked_units(c)):
            problems.append(
                f"no source span lies in {', '.join(unbacked)} ({backing_rule(fx.span_cover)}):"
                " it would not count"
            )
        if problems and c.review:
            self.message.value = (
                '<div style="color:#555">Before confirming: '
                + "; ".join(_e(p) for p in problems)
                + "</div>"
            )

    def _preserve_toggles(self, c: Candidate) -> list[W.ToggleButton]:
        """A toggle per unit of the file: on where the candidate preserves it."""
        toggles = []
        for u in self.session.fixture.units:
            t = W.ToggleButton(
                value=u.id in c.preserves,
                description=u.id,
                tooltip=u.span.text,
                button_style="success" if u.id in c.preserves else "",
                icon="check" if u.id in c.preserves else "",
            )
            t.add_class(f"claimlab-preserves-{css_token(u.id)}")
            t.observe(lambda _c, uid=u.id: self._toggle_preserve(uid), names="value")
            toggles.append(t)
        return toggles

    def _reference_toggles(self, c: Candidate) -> list[W.ToggleButton]:
        """A toggle per reference of the file: on where the candidate's evidence cites it."""
        refs = []
        for r in self.session.fixture.references:
            t = W.ToggleButton(
                value=r.id in c.evidence.references,
                description=r.id,
                tooltip=f"{r.title} ({r.version})",
                button_style="info" if r.id in c.evidence.references else "",
            )
            t.add_class(f"claimlab-reference-{css_token(r.id)}")
            t.observe(lambda _c: self._references_changed(), names="value")
            refs.append(t)
        return refs

    def snapshot_html(self) -> str:
        """A static picture: progress, the answer with its units, each candidate's labels."""
        fx = self.session.fixture
        text = fx.original.text
        marks = []
        for u in fx.units:
            marks.append(
                f"<li><b>{_e(u.id)}</b>{' (proposed)' if u.proposed else ''} "
                f"{u.span.start}..{u.span.end}: {_e(u.span.text)}</li>"
            )
        from claimlab.notebook.display import pandas, table_html

        pd = pandas()
        frame = pd.DataFrame(
            [
                {
                    "id": c.id,
                    "text": c.text,
                    "source span": "; ".join(f"{sp.start}..{sp.end}" for sp in c.source_spans)
                    or "-",
                    "preserves": ", ".join(c.preserves) or "-",
                    "faithful": c.faithful,
                    "atomic": c.atomic,
                    "errors": ", ".join(c.errors) or "-",
                    "status": str(c.evidence.status),
                    "state": f"confirmed by {c.confirmed.by}"
                    if c.confirmed and not c.review
                    else "proposed: " + ", ".join(c.review),
                }
                for c in fx.candidates
            ],
            columns=[
                "id",
                "text",
                "source span",
                "preserves",
                "faithful",
                "atomic",
                "errors",
                "status",
                "state",
            ],
        ).set_index("id")
        return (
            f'<div class="claimlab-annotator-snapshot"><p><b>{_e(self.session.progress().text)}</b> '
            f"(annotator: {_e(self.session.annotator)})</p>"
            f"<p>{_e(text)}</p><ul>{''.join(marks)}</ul>{table_html(frame)}"
            + "".join(
                f"<h4>{_e(r.id)}</h4>" + _reference_html(r.title, r.version, r.text)
                for r in fx.references
            )
            + "</div>"
        )


def _candidate_html(c: Candidate) -> str:
    """A candidate's id, text, state, alignment score and source spans, escaped."""
    state = (
        f"confirmed by {_e(c.confirmed.by)} at {_e(c.confirmed.at)}"
        if c.confirmed and not c.review
        else "proposed: " + _e(", ".join(c.review))
        if c.review
        else "confirmed"
    )
    span = "; ".join(f"{s.start}..{s.end} “{_e(s.text)}”" for s in c.source_spans)
    align = f" · alignment score {c.alignment.score:g}" if c.alignment is not None else ""
    return (
        f'<div style="font-size:15px"><b>{_e(c.id)}</b>: {_e(c.text)}</div>'
        f'<div style="font-size:12px;color:#444">{state}{align} · source span: '
        f"{span or '<i>none</i>'}</div>"
    )
