"""A sufficiency file's ``rules`` and ``game``, read from their declarations (``Rules``, ``Game``).

Invariants: every refusal names the file, the field's full path and the problem; a game left
out, and each of its fields left out or null where optional, read as the defaults; the ids a
game names are the file's own (checked across the file by the reader).
"""

from __future__ import annotations

import copy
import json

import pytest

from claimlab.core.errors import FixtureError
from claimlab.io.declared import declared_schema
from claimlab.io.sufficiency import DEFAULT_BUDGET, Game, SufficiencyRules, load_sufficiency
from tests.conftest import FIXTURES

BASE = json.loads((FIXTURES / "library_loans.json").read_text(encoding="utf-8"))


def _load(tmp_path, change):
    doc = copy.deepcopy(BASE)
    change(doc)
    f = tmp_path / "s.json"
    f.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return load_sufficiency(f)


@pytest.mark.parametrize(
    ("change", "fld", "words"),
    [
        (lambda d: d.pop("rules"), "rules", "missing required field"),
        (lambda d: d["rules"].pop("required_status"), "rules.required_status", "missing"),
        (lambda d: d["rules"].update(require_current="yes"), "rules.require_current", "true or false"),
        (lambda d: d["rules"].update(single_valued=["lasts", " "]), "rules.single_valued[1]", "some text"),
        (lambda d: d["game"].update(budget=-1), "game.budget", "at least 0"),
        (lambda d: d["game"].update(budget=2.5), "game.budget", "integer"),
        (lambda d: d["game"].update(copy_cost=True), "game.copy_cost", "integer"),
        (lambda d: d["game"].update(search_cost={"default": -2}), "game.search_cost.default", "whole number"),
        (lambda d: d["game"].update(search_cost={"Z9": 1}), "game.search_cost.Z9", "unknown evidence id"),
        (lambda d: d["game"].update(search_cost=[1]), "game.search_cost", "must be an object"),
        (lambda d: d["game"].update(copyable=["Z9"]), "game.copyable[0]", "unknown evidence id"),
        (lambda d: d["game"].update(scenarios=["nowhere"]), "game.scenarios[0]", "unknown scenario"),
    ],
)  # fmt: skip
def test_each_refusal_names_the_path_and_the_problem(tmp_path, change, fld, words):
    with pytest.raises(FixtureError) as caught:
        _load(tmp_path, change)
    assert caught.value.field == fld and words in str(caught.value)
    assert caught.value.file == str(tmp_path / "s.json")


def test_a_game_left_out_or_given_with_nulls_reads_as_the_defaults(tmp_path):
    assert _load(tmp_path, lambda d: d.pop("game")).game == SufficiencyRules()
    game = _load(tmp_path, lambda d: d.update(game={"search_cost": None})).game
    assert game == SufficiencyRules() and game.budget == DEFAULT_BUDGET


def test_the_game_reads_to_the_labs_rules():
    fx = load_sufficiency(FIXTURES / "library_loans.json")
    given = BASE["game"]
    assert fx.game.budget == given["budget"]
    assert fx.game.scenarios == tuple(given["scenarios"])
    assert fx.game.cost("L1") == given["search_cost"]["default"]
    assert fx.rules.single_valued == tuple(BASE["rules"]["single_valued"])


def test_the_schema_bounds_a_budget_as_the_reader_does():
    props = declared_schema(Game)["$defs"]["Game"]["properties"]
    budget, null = props["budget"]["anyOf"]  # null: read as absent (the default)
    assert budget["minimum"] == 0 and budget["maximum"] == 1_000_000 and null == {"type": "null"}


SHIPPED = sorted(
    p.name
    for p in FIXTURES.glob("*.json")
    if '"claimlab/sufficiency@1"' in p.read_text(encoding="utf-8")
)


@pytest.mark.parametrize("name", SHIPPED)
def test_the_fast_reading_of_every_shipped_file_is_the_walk_of_its_declaration(name):
    from claimlab.io.declared import check_record, read_declared
    from claimlab.io.reader import Record
    from claimlab.io.sufficiency import SufficiencyDocument

    data = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    fast = read_declared(SufficiencyDocument, data, file=name)
    assert fast == check_record(SufficiencyDocument, Record(data, file=name))


def test_null_is_absent_for_a_scenarios_system_and_confidence(tmp_path):
    scenario = next(iter(BASE["scenarios"]))

    def nulls(d):
        d["scenarios"][scenario]["simulated_system"] = None
        d["game"]["search_cost"] = None

    fx = _load(tmp_path, nulls)
    assert fx.scenarios[scenario].system_answer is None
    assert fx.scenarios[scenario].system_confidence is None


def test_the_whole_schema_refuses_an_empty_chain_as_the_reader_does(tmp_path):
    import jsonschema

    from claimlab.io.sufficiency import SufficiencyDocument

    question = next(iter(BASE["questions"]))

    def empty_chain(d):
        d["questions"][question]["alternatives"] = [[]]

    doc = copy.deepcopy(BASE)
    empty_chain(doc)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, declared_schema(SufficiencyDocument))
    with pytest.raises(FixtureError, match="empty evidence group"):
        _load(tmp_path, empty_chain)
