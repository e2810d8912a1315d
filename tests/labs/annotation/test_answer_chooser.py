"""Moving between answers and decomposers in the annotator: drafts sharing answer ids never collide.

The README's layout has decomposers A and B splitting the same answers (``drafts/A/k01.json``,
``drafts/B/k01.json``): an answer is named ``DECOMPOSER/ID``, an id alone only when one
decomposer has it, and Confirm moves on to the next candidate still to do.
"""

import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from claimlab.io.annotations import AnswerKey
from claimlab.labs.annotation.session import (
    AnnotationError,
    WorkItem,
    find_item,
    next_to_do,
    open_workspace,
    shown_path,
)
from claimlab.labs.annotation.widgets import Annotator
from tests.labs.annotation.shared_ids import SUBCLAIMS, write_shared_drafts


@pytest.fixture
def drafts(tmp_path):
    return write_shared_drafts(tmp_path / "drafts")


def on_disk(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("asked", "opens"),
    [("", "A/k01"), ("A/k02", "A/k02"), ("B/k01", "B/k01"), ("B/k02", "B/k02")],
)
def test_answer_names_decomposer_and_id(drafts, tmp_path, asked, opens):
    space = open_workspace(drafts, "Ana", tmp_path / "ana", answer=asked)
    assert space.current.label == opens
    decomposer, answer = opens.split("/")
    assert space.session.path == tmp_path / "ana" / decomposer / f"{answer}.json"
    assert [c.text for c in space.session.fixture.candidates] == SUBCLAIMS[decomposer][answer]
    assert [it.label for it in space.items] == ["A/k01", "A/k02", "B/k01", "B/k02"]


def test_an_id_two_decomposers_share_is_refused_naming_both(drafts, tmp_path):
    with pytest.raises(AnnotationError) as info:
        open_workspace(drafts, "Ana", tmp_path / "ana", answer="k02", given_as="ANSWER")
    assert "A/k02, B/k02" in str(info.value) and "several decomposers" in str(info.value)
    with pytest.raises(AnnotationError, match=r"no draft of that answer \(it has A/k01"):
        open_workspace(drafts, "Ana", tmp_path / "ana", answer="C/k01")


def test_the_widget_switches_answers_in_place_and_confirm_moves_on(drafts, tmp_path):
    ann = Annotator(open_workspace(drafts, "Ana", tmp_path / "ana"))
    labels = [v for _, v in ann.answers.options]
    assert labels == ["A/k01", "A/k02", "B/k01", "B/k02"]
    assert "answers: <b>0 confirmed</b> · 4 to do" in ann.answers_done.value
    for label in ("B/k02", "A/k02"):
        ann.answers.value = label  # what choosing in the dropdown does
        assert ann.session.fixture.original.id == label[2:]
        assert ann.space.current.label == label
        assert ann.reference_texts in ann._references_box.children
        ann.chooser.value = ann.session.fixture.candidate_ids[0]
        ann.confirm_current()
        assert ann.current == ann.session.fixture.candidate_ids[1]  # the next one, not the first
        ann.confirm_current()
    assert "answers: <b>2 confirmed</b> · 2 to do" in ann.answers_done.value
    for decomposer, answer in (("B", "k02"), ("A", "k02")):
        doc = on_disk(tmp_path / "ana" / decomposer / f"{answer}.json")
        assert doc["decomposer"] == decomposer
        assert [c["text"] for c in doc["candidates"]] == SUBCLAIMS[decomposer][answer]
        assert all(c["review"] == [] and c["confirmed"]["by"] == "Ana" for c in doc["candidates"])
    for decomposer in ("A", "B"):  # the other answers are untouched copies
        doc = on_disk(tmp_path / "ana" / decomposer / "k01.json")
        assert all(c["review"] for c in doc["candidates"])
    ann.step_answer()
    assert ann.space.current.label == "B/k01"  # the next to do after A/k02, wrapping round


def test_confirm_moves_to_the_next_unconfirmed_candidate_not_the_first(drafts, tmp_path):
    ann = Annotator(open_workspace(drafts, "Ana", tmp_path / "ana", answer="A/k01"))
    ids = ann.session.fixture.candidate_ids
    ann.chooser.value = ids[1]
    ann.confirm_current()
    assert ann.current == ids[0]  # wraps round to the one still to do
    assert "Every candidate here" not in ann.message.value
    ann.confirm_current()
    assert ann.current == ids[0]  # nothing left: it stays
    assert "Every candidate here is confirmed. Next answer to do" in ann.message.value


def test_paths_shown_are_never_the_machines_own(drafts, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ann = Annotator(open_workspace("drafts", "Ana", "ana"))
    assert str(tmp_path) not in ann.progress.value
    assert "<code>ana/A/k01.json</code>" in ann.progress.value
    assert shown_path(tmp_path / "ana" / "x.json") == "ana/x.json"
    assert not shown_path("/elsewhere/deep/x.json").startswith("/")


ids = st.lists(st.sampled_from(["S1", "S2", "S3", "S4", "S5", "S6"]), unique=True, min_size=1)


@given(order=ids, data=st.data())
def test_next_to_do_is_the_first_to_do_after_the_current_one(order, data):
    """Invariant: the result is to do, and nothing to do lies between the current item and it
    (cyclically); None exactly when nothing is to do. Caught mutation: returning the first item
    to do (the old Confirm, back at the top)."""
    to_do = data.draw(st.sets(st.sampled_from(order)))
    current = data.draw(st.sampled_from([*order, None]))
    got = next_to_do(order, to_do, current)
    if not to_do:
        assert got is None
        return
    assert got in to_do
    start = order.index(current) + 1 if current is not None else 0
    rotated = order[start:] + order[:start]
    assert not set(rotated[: rotated.index(got)]) & to_do


names = st.text(alphabet="ABk01é/", min_size=1, max_size=4).filter(lambda s: "/" not in s)


@given(st.lists(st.tuples(names, names), unique=True, min_size=1, max_size=8))
def test_each_answer_of_each_decomposer_is_reached_by_its_label(keys):
    """Invariant: every (decomposer, id) is reached by ``DECOMPOSER/ID``, and an id alone
    reaches its item exactly when one decomposer has it. Caught mutation: keying the folder
    by answer id alone (the last decomposer's draft wins, as before)."""
    items = [WorkItem(AnswerKey(d, a), Path(d, a), Path("w", d, a)) for d, a in keys]
    for it in items:
        assert find_item(items, it.label, given_as="ANSWER", where="f") is it
        sharing = [x for x in items if x.key.answer == it.key.answer]
        if len(sharing) == 1:
            assert find_item(items, it.key.answer, given_as="ANSWER", where="f") is it
        elif not any(x.label == it.key.answer for x in items):
            with pytest.raises(AnnotationError, match="several decomposers"):
                find_item(items, it.key.answer, given_as="ANSWER", where="f")


def test_shown_paths_are_relative_under_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for rel in ("a.json", "ana/A/k01.json"):
        assert shown_path(Path(os.getcwd()) / rel) == rel
