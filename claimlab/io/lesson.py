"""What a file may say about itself for the lessons: optional ``exercises`` on its own data.

Both lab formats accept ``"exercises": [{"question": str, "solution": str}]``; the notebooks
show them after the exercises computed from the file (the solution in the instructor
handout only). Text is data: it is escaped wherever it is shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from claimlab.io.reader import Record


@dataclass(frozen=True)
class Exercise:
    """An exercise: the question and (for instructors) a solution."""

    question: str
    solution: str = ""


def read_exercises(top: Record) -> tuple[Exercise, ...]:
    """The file's own ``exercises`` (optional; each needs a ``question``)."""
    return tuple(
        Exercise(x.get("question", str), x.get("solution", str, ""))
        for _, x in top.items("exercises", [])
    )
