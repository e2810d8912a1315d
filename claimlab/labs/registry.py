"""The labs: their notebooks, commands and games, the one list everything else reads.

The runner, the handouts, the classroom server and the command line take their lists from
:data:`LABS`; a new lab is a folder under ``claimlab/labs/`` and one entry here. Commands are
named as ``module:function`` strings and imported only when the command line is built, so
reading this list imports no lab.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse


@dataclass(frozen=True)
class Lab:
    """One lab: its package, notebooks (file stems, in run order), commands and game."""

    name: str
    title: str
    notebooks: tuple[str, ...]
    commands: tuple[str, ...] = ()  # "claimlab.labs.NAME.cli:add_COMMAND", in help order
    game: str | None = None  # the notebook played as a game in the classroom
    game_from_file: str | None = None  # "module:function": a game from a teacher's own file

    @property
    def package(self) -> str:
        """The lab's package: ``claimlab.labs.NAME``."""
        return f"claimlab.labs.{self.name}"


LABS: tuple[Lab, ...] = (
    Lab(
        "decomposition",
        "Claim decomposition",
        ("01_decomposition_pitfalls", "06_decomposition_game"),
        (
            "claimlab.labs.decomposition:add_decomposition",
            "claimlab.labs.decomposition:add_spans",
            "claimlab.labs.decomposition:add_check",
        ),
        game="06_decomposition_game",
        game_from_file="claimlab.labs.decomposition:game_from_file",
    ),
    Lab(
        "sufficiency",
        "Evidence sufficiency",
        ("02_evidence_sufficiency", "07_sufficiency_game"),
        ("claimlab.labs.sufficiency:add_sufficiency",),
        game="07_sufficiency_game",
        game_from_file="claimlab.labs.sufficiency:game_from_file",
    ),
    Lab(
        "realdata",
        "Witnesses on real data (FEVER, WiCE)",
        ("03_witnesses_on_real_data",),
        ("claimlab.labs.realdata:add_fever",),
    ),
    Lab(
        "factscore",
        "FActScore",
        ("04_factscore",),
        (
            "claimlab.labs.factscore:add_factscore",
            "claimlab.labs.factscore:add_fact_estimate",
        ),
    ),
    Lab(
        "context",
        "Context budget and citations",
        ("05_context_and_citations",),
        ("claimlab.labs.context:add_pack", "claimlab.labs.context:add_citations"),
    ),
    Lab(
        "ledger",
        "Your own ledgers",
        ("08_your_ledger", "12_release_history"),
        ("claimlab.labs.ledger:add_ledger",),
    ),
    Lab(
        "annotation",
        "From raw subclaims to a gold set",
        ("09_annotate",),
        (
            "claimlab.labs.annotation:add_draft",
            "claimlab.labs.annotation:add_agreement",
            "claimlab.labs.annotation:add_adjudicate",
        ),
    ),
    Lab(
        "retrieval",
        "Retrieval depth on multi-hop data",
        ("10_retrieval_depth",),
        (
            "claimlab.labs.retrieval:add_convert",
            "claimlab.labs.sufficiency:add_sufficiency_cases",
            "claimlab.labs.retrieval:add_hotpotqa",
            "claimlab.labs.retrieval:add_musique",
        ),
    ),
    Lab(
        "rag",
        "RAG diagnostics",
        ("11_rag_diagnostics",),
        ("claimlab.labs.rag:add_rag", "claimlab.labs.rag:add_meta_eval"),
    ),
)


def lab_named(name: str) -> Lab:
    """The lab called ``name``.

    Raises:
        KeyError: no lab has that name.
    """
    for lab in LABS:
        if lab.name == name:
            return lab
    raise KeyError(name)


def notebook_stems() -> tuple[str, ...]:
    """Every lab's notebooks, in the order of their numbers."""
    return tuple(sorted(stem for lab in LABS for stem in lab.notebooks))


def games() -> dict[str, str]:
    """Lab name -> its game notebook's file name, for the labs that have a game."""
    return {lab.name: f"{lab.game}.ipynb" for lab in LABS if lab.game}


def load(ref: str) -> Any:
    """The object a ``module:name`` reference names (its module imported now)."""
    module, name = ref.split(":")
    return getattr(importlib.import_module(module), name)


def command_refs() -> list[str]:
    """Every lab's ``module:add_COMMAND`` reference, in the order of :data:`LABS` (none imported)."""
    return [ref for lab in LABS for ref in lab.commands]


def command_adders() -> list[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]]:
    """Every lab's ``add_COMMAND`` functions, in the order of :data:`LABS` (imported now)."""
    return [load(ref) for lab in LABS for ref in lab.commands]
