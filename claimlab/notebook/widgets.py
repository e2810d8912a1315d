"""The widget base the labs' explorers and games are built on.

Escaped HTML panes, toggles, buttons, messages and the game view both games share.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as W
import traitlets

from claimlab.core.text import plural
from claimlab.notebook.words import WORDS, say

NO_STATUS = "(not annotated)"


NO_ANSWER = "(choose)"


STUDENT_NOTE = say(WORDS, "game.student_note", "en")


def student_note(language: str = "en") -> str:
    """What the classroom view says instead of statuses and metrics, in ``language``."""
    return say(WORDS, "game.student_note", language)


WON_STYLE = "background:#e3f3e6;border-left:6px solid #2d6b3c;padding:6px 10px;margin:4px 0"


NOT_WON_STYLE = "background:#fbeaea;border-left:6px solid #C44E52;padding:6px 10px;margin:4px 0"


WIDE = W.Layout(width="auto")


LABEL = {"description_width": "initial"}


_NO_MATH_OPEN = '<div class="tex2jax_ignore mathjax_ignore">'


class Html(W.HTML):
    """An HTML widget whose content MathJax never typesets (a "$" from a file stays text)."""

    @traitlets.validate("value")
    def _no_math(self, proposal: Any) -> Any:
        value = proposal["value"]
        if value and not value.startswith(_NO_MATH_OPEN):
            value = f"{_NO_MATH_OPEN}{value}</div>"
        return value


def e(text: object) -> str:
    """Escape for HTML."""
    return html.escape(str(text), quote=True)


_SAFE = re.compile(r"[A-Za-z0-9_-]{1,40}")


LEFT = "text-align:left;vertical-align:top"


def paper_table(
    css: str,
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    write: Mapping[str, float] | None = None,
) -> str:
    """A paper board's table: cells left-aligned; a column named in ``write`` is that many em wide.

    ``headers`` are plain text; ``rows`` hold cells already escaped (HTML). ``write`` gives the
    columns a player writes in room for what is written there (the longest status, a tick).
    """
    room = [(write or {}).get(h) for h in headers]

    def style(width: float | None) -> str:
        return LEFT + (f";width:{width}em;min-width:{width}em" if width else "")

    head = "".join(
        f'<th style="{style(w)}">{e(h)}</th>' for h, w in zip(headers, room, strict=True)
    )
    body = "".join(
        "<tr>"
        + "".join(f'<td style="{style(w)}">{c}</td>' for c, w in zip(r, room, strict=True))
        + "</tr>"
        for r in rows
    )
    return f'<table class="{e(css)}" style="text-align:left"><tr>{head}</tr>{body}</table>'


def marked_text_html(text: str, spans: Sequence[tuple[str, int, int]]) -> str:
    """``text`` escaped, each span (id, UTF-16 start, end exclusive) marked and labelled with its id.

    Overlapping spans are marked once where they overlap; each id follows the end of its span.
    One pass over the sorted cut points: linear in the text and the spans (after sorting).
    """
    raw = text.encode("utf-16-le")
    starts: dict[int, int] = {}
    ends: dict[int, list[str]] = {}
    for sid, a, b in spans:
        starts[a] = starts.get(a, 0) + 1
        ends.setdefault(b, []).append(sid)
    cuts = sorted({0, len(raw) // 2, *starts, *ends})
    out: list[str] = []
    active = 0
    for a, b in zip(cuts, [*cuts[1:], cuts[-1]], strict=True):
        active += starts.get(a, 0) - len(ends.get(a, ()))
        out.extend(f'<sup class="claimlab-unit-id">{e(i)}</sup>' for i in ends.get(a, ()))
        piece = e(raw[2 * a : 2 * b].decode("utf-16-le", errors="replace"))
        if piece:
            out.append(f'<mark class="claimlab-unit">{piece}</mark>' if active else piece)
    return "".join(out)


def references_html(references: Sequence[Any], *, language: str = "en") -> str:
    """Each reference (``id``, ``title``, ``version``, ``text``) as an escaped paragraph."""
    if not references:
        return f"<p><em>{e(say(WORDS, 'game.no_references', language))}</em></p>"

    def version(r: Any) -> str:
        return say(WORDS, "game.version", language, {"version": e(r.version)}) if r.version else ""

    return "".join(
        f'<p class="claimlab-reference" style="{LEFT}"><strong>{e(r.id)}</strong> '
        f"<em>{e(r.title)}</em>{version(r)}: {e(r.text)}</p>"
        for r in references
    )


def css_token(value: str) -> str:
    """A CSS class suffix for an id from a file: the id itself when plain, else a short hash.

    An id with a space or a quote cannot be a class name (the browser refuses it), and a class
    name must not carry a file's text into the page.
    """
    if _SAFE.fullmatch(value):
        return value
    return "x" + hashlib.sha1(value.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def verdict_html(result: Any) -> str:
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


def style_toggle(t: W.ToggleButton) -> None:
    """Selected toggles are green with a tick; unselected ones plain: never two close greys."""
    t.button_style = "success" if t.value else ""
    t.icon = "check" if t.value else ""


def toggles(
    items: Any, *, selected: Sequence[str], css_prefix: str, on_change: Any
) -> dict[str, W.ToggleButton]:
    """One toggle button per ``(id, tooltip)``, tagged with a CSS class ``<prefix>-<id>``."""
    out = {}
    for item_id, tooltip in items:
        t = W.ToggleButton(value=item_id in selected, description=item_id, tooltip=tooltip)
        t.add_class(f"{css_prefix}-{css_token(item_id)}")
        style_toggle(t)
        t.observe(lambda change, t=t: style_toggle(t), names="value")
        t.observe(on_change, names="value")
        out[item_id] = t
    return out


class View:
    """Common part: the widget tree and a static snapshot for non-widget front ends."""

    widget: W.Widget

    def snapshot_html(self) -> str:  # pragma: no cover - overridden
        """A static picture of the widget's state (each view draws its own)."""
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = self.widget._repr_mimebundle_(**kwargs)
        data = dict(bundle) if isinstance(bundle, dict) else {}
        snapshot = self.snapshot_html()
        if not snapshot.startswith(_NO_MATH_OPEN):
            snapshot = f"{_NO_MATH_OPEN}{snapshot}</div>"
        data["text/html"] = snapshot
        return data


def button(description: str, css: str, on_click: Any, **kwargs: Any) -> W.Button:
    """A button with a CSS class of its own, calling ``on_click()`` when pressed."""
    b = W.Button(description=description, **kwargs)
    b.add_class(css)
    b.on_click(lambda _b: on_click())
    return b


def round_title(name: str, title: str) -> str:
    """A round's title for the chooser, with its name where the two differ."""
    return title if title == name else f"{title} ({name})"


def message_html(text: str) -> str:
    """A message for the player as an escaped paragraph (nothing for no message)."""
    return f"<p>{e(text)}</p>" if text else ""


class GameView(View):
    """What both game views share: the round chooser, Reset, the message and the board."""

    game: Any  # the lab's game: a DecompositionGame or a SufficiencyGame
    student: bool

    def _controls(self, label: str, css: str, action: Any, rounds: dict[str, str]) -> W.Button:
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
        self.reset_button = button("Reset", "claimlab-reset", self.reset, icon="undo")
        self.intro = Html()
        self.intro.add_class("claimlab-intro")
        self.message = Html()
        self.message.add_class("claimlab-message")
        self.board = Html()
        self.board.add_class("claimlab-board")
        return button(label, css, action, button_style="primary")

    def _round(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def _choose(self, change: Any) -> None:
        if change["new"] != self._round():
            self.sync(self.game.choose(change["new"]).message)

    def sync(self, message: str) -> None:  # pragma: no cover - overridden
        """Redraw every control from the game's state, with ``message``."""
        raise NotImplementedError

    def reset(self) -> None:
        """Press Reset: the round starts again, everything chosen is cleared."""
        self.sync(self.game.reset().message)

    def paper_html(self) -> str:  # pragma: no cover - overridden
        """The round as a paper board to print."""
        raise NotImplementedError

    def snapshot_html(self) -> str:
        """Static rendering: the paper board, so a printed handout can be played."""
        return self.paper_html()
