"""What both games share: an action's outcome with its named reasons, and a scripted round."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

ACTIONS = frozenset(
    {"select", "deselect", "annotate", "check", "reset", "choose", "search", "copy", "submit"}
)


@dataclass(frozen=True)
class Reason:
    """A named rule that is not met yet, with a plain explanation."""

    code: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True)
class Action:
    """The outcome of one action: whether it was taken, and what to tell the player."""

    ok: bool
    message: str


def play_script(game: object, script: Sequence[Sequence[object]]) -> list[dict[str, Any]]:
    """Play a list of actions on either game, e.g. ``[["select", ID], ["annotate", ID, "NOT_IN_REFERENCE"], ["check"]]``.

    For the sufficiency game: ``["search", ID]``, ``["copy", ID]``,
    ``["submit", [ID, ...], {ITEM: VALUE}]``, ``["reset"]``, ``["choose", NAME]``. Returns one log
    entry per action.
    """
    log = []
    for step in script:
        if not step:
            raise ValueError("empty action in script")
        name, *args = step
        if name not in ACTIONS or not hasattr(game, name):
            raise ValueError(f"unknown action {name!r} for {type(game).__name__}")
        out = getattr(game, name)(*args)
        entry = {"action": list(step)}
        entry.update(
            out.to_dict() if hasattr(out, "to_dict") else {"ok": out.ok, "message": out.message}
        )
        log.append(entry)
    return log
