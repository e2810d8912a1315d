"""The annotation session and the annotator widget: every change saved, nothing lost on a kill."""

import json
import os
import signal
import time

import pytest

from claimlab.io.decomposition import load_decomposition
from claimlab.labs.annotation.session import AnnotationError, AnnotationSession, work_copy_name
from tests.conftest import ROOT, run_cli

RAW = ROOT / "fixtures" / "raw_subclaims.jsonl"


@pytest.fixture
def draft(tmp_path):
    run_cli("draft", RAW, "--out", tmp_path, check=True)
    return tmp_path / "reader-tr.json"  # Turkish, with an emoji before the first word


def on_disk(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_every_change_is_on_disk_when_the_method_returns(draft):
    s = AnnotationSession.start(draft, "Ayşe")
    assert s.path == work_copy_name(draft, "Ayşe") and s.path.exists()
    uid = s.add_unit(0, 2)  # the emoji: two UTF-16 units
    assert [u for u in on_disk(s.path)["units"] if u["id"] == uid][0]["span"]["text"] == "📘"
    s.set_status("S1", "SUPPORTED")
    assert on_disk(s.path)["candidates"][0]["evidence"]["status"] == "SUPPORTED"
    log = on_disk(s.path)["annotation"]["log"]
    assert [e["change"] for e in log] == [f"unit {uid} marked at 0..2", "S1: status SUPPORTED"]
    assert all(e["by"] == "Ayşe" and e["at"].endswith("+00:00") for e in log)
    assert json.loads(draft.read_text(encoding="utf-8")).get("annotation") is None  # draft kept


def test_confirm_refuses_contradicting_labels_and_then_records_who_and_when(draft):
    s = AnnotationSession.start(draft, "Ayşe", clock=lambda: "2026-11-30T09:00:00+00:00")
    s.set_faithful("S4", True)  # proposed as introduced: an error and no span
    with pytest.raises(AnnotationError, match="cannot be faithful"):
        s.confirm("S4")
    s.set_faithful("S4", False)
    s.confirm("S4")
    c = on_disk(s.path)["candidates"][3]
    assert c["review"] == [] and c["confirmed"] == {"by": "Ayşe", "at": "2026-11-30T09:00:00+00:00"}
    assert s.progress().text == "1 of 4 candidates confirmed · 0 of 3 units confirmed"


def test_editing_a_confirmed_candidate_puts_that_label_back_under_review(draft):
    s = AnnotationSession.start(draft, "Ayşe")
    s.confirm("S1")
    s.set_atomic("S1", False)
    c = load_decomposition(s.path).candidate("S1")
    assert c.review == ("atomic",) and c.confirmed is None


def test_an_error_makes_a_candidate_unfaithful_and_removing_a_unit_reopens_preserves(draft):
    s = AnnotationSession.start(draft, "Ayşe")
    s.confirm_units()
    s.confirm("S1")
    s.set_errors("S2", ["qualifier"])
    assert not s.fixture.candidate("S2").faithful
    s.remove_unit("U1")
    c = s.fixture.candidate("S1")
    assert "U1" not in c.preserves and c.review == ("preserves",)


def test_reopening_resumes_and_another_annotator_is_sent_to_their_own_copy(draft):
    s = AnnotationSession.start(draft, "Ayşe")
    s.confirm("S3")
    again = AnnotationSession.start(draft, "Ayşe")
    assert again.progress().candidates.numerator == 1
    with pytest.raises(AnnotationError, match="each annotator works on their own copy"):
        AnnotationSession(s.path, "Bora")
    bora = AnnotationSession.start(draft, "Bora")
    assert bora.path != s.path and bora.progress().candidates.numerator == 0


@pytest.mark.parametrize(
    ("start", "end", "problem"),
    [
        (1, 2, "surrogate"),
        (5, 5, "start before end"),
        (-1, 3, "not a stretch"),
        (0, 10**6, "not a stretch"),
    ],
)
def test_bad_spans_are_refused_and_nothing_is_written(draft, start, end, problem):
    s = AnnotationSession.start(draft, "Ayşe")
    before = s.path.read_bytes()
    with pytest.raises(AnnotationError, match=problem):
        s.add_unit(start, end)
    with pytest.raises(AnnotationError, match=problem):
        s.set_source_span("S1", start, end)
    assert s.path.read_bytes() == before


@pytest.mark.parametrize(
    ("call", "problem"),
    [
        (lambda s: s.set_status("S1", "TRUE"), "unknown status"),
        (lambda s: s.set_errors("S1", ["typo"]), "unknown error kind"),
        (lambda s: s.set_preserves("S1", ["U99"]), "unknown unit id"),
        (lambda s: s.set_references("S1", ["R9"]), "unknown reference id"),
        (lambda s: s.confirm("S99"), "unknown candidate id"),
        (lambda s: s.remove_unit("U99"), "unknown unit id"),
    ],
)
def test_unknown_ids_and_values_are_refused(draft, call, problem):
    s = AnnotationSession.start(draft, "Ayşe")
    with pytest.raises(Exception, match=problem):
        call(s)


def test_the_annotator_widget_makes_a_unit_from_a_selection_and_confirms(draft):
    from claimlab.labs.annotation.widgets import Annotator

    s = AnnotationSession.start(draft, "Ayşe")
    a = Annotator(s)
    a.select(0, 2)
    a._key(None, {"key": "u"}, [])  # the "u" key, as the browser sends it
    assert any(u.span.text == "📘" and not u.proposed for u in s.fixture.units)
    a.chooser.value = "S4"
    a.faithful.value = True  # contradicts the proposed "introduced" error
    a._key(None, {"key": "c"}, [])
    assert "Not saved" in a.message.value and "cannot be faithful" in a.message.value
    a.faithful.value = False
    a.confirm.click()
    assert "S4 confirmed by Ayşe" in a.message.value
    assert "1 of 4 candidates confirmed" in a.progress.value
    assert load_decomposition(s.path).candidate("S4").confirmed.by == "Ayşe"


KERNEL_SCRIPT = """
import sys
from claimlab.labs.annotation.session import AnnotationSession
from claimlab.labs.annotation.widgets import Annotator
s = AnnotationSession.start(sys.argv[1], "Ayşe")
a = Annotator(s)
for cid in ("S1", "S2", "S3"):
    a.chooser.value = cid
    a.confirm.click()
print("confirmed", flush=True)
import time
while True:  # the annotator goes on; the kernel is killed here
    s.set_status("S4", "SUPPORTED" if s.fixture.candidate("S4").evidence.status != "SUPPORTED" else "NOT_IN_REFERENCE")
"""


@pytest.mark.usefixtures("user_kernels")  # the process killed is the kernel itself, at once
def test_a_killed_kernel_keeps_every_confirmed_label(draft):
    """kill -9 a real kernel while it is writing the file: the file loads, every label is kept.

    The user's own kernel, not the suite's forked one: killing the suite's launcher stops its
    kernel a moment later, and a write in that moment left a temporary file after the next save.
    """
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3", cwd=str(draft.parent))
    try:
        code = KERNEL_SCRIPT.replace("sys.argv[1]", repr(str(draft)))
        kc.execute(code)
        deadline = time.time() + 60
        seen = ""
        while "confirmed" not in seen and time.time() < deadline:
            msg = kc.get_iopub_msg(timeout=60)
            if msg["msg_type"] == "stream":
                seen += msg["content"]["text"]
            if msg["msg_type"] == "error":
                raise AssertionError(msg["content"]["evalue"])
        time.sleep(0.5)  # writing over and over
        os.kill(km.provisioner.process.pid, signal.SIGKILL)
        km.provisioner.process.wait()
    finally:
        kc.stop_channels()
        km.cleanup_resources()
    work = work_copy_name(draft, "Ayşe")
    fx = load_decomposition(work)  # a whole file: the old one or the new one, never half
    assert [c.id for c in fx.candidates if not c.review] == ["S1", "S2", "S3"]
    assert all(fx.candidate(c).confirmed.by == "Ayşe" for c in ("S1", "S2", "S3"))
    assert fx.annotation.changes >= 5
    # reopening resumes, and the leftovers of the killed write are removed by the next save
    s = AnnotationSession.start(draft, "Ayşe")
    s.set_atomic("S4", True)
    assert not [p for p in draft.parent.iterdir() if ".claimlab-tmp" in p.name]


def test_the_annotator_shows_a_hostile_file_as_text(tmp_path):
    from claimlab.labs.annotation.widgets import Annotator
    from tests.hostile.checks import html_problems
    from tests.hostile.corpus import PAYLOADS

    row = {
        "id": PAYLOADS[0],
        "answer": " ".join(PAYLOADS) + " plain words here.",
        "subclaims": [*PAYLOADS[:5], "plain words here"],
        "references": [
            {"id": PAYLOADS[2], "title": PAYLOADS[1], "version": PAYLOADS[4], "text": "t"}
        ],
    }
    raw = tmp_path / "raw.jsonl"
    raw.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    run_cli("draft", raw, "--out", tmp_path / "d", check=True)
    (draft,) = (tmp_path / "d").glob("*.json")
    s = AnnotationSession.start(draft, PAYLOADS[1])
    a = Annotator(s)
    shown = [a.progress.value, a.cand_text.value, a.message.value]
    for cid in s.fixture.candidate_ids:
        a.chooser.value = cid
        shown.append(a.cand_text.value)
    a.select(0, 3)
    a.unit_from_selection()
    shown.append(a.message.value)
    bundle = a._repr_mimebundle_()
    for fragment in [*shown, bundle["text/html"]]:
        assert html_problems(fragment) == [], fragment[:300]
    assert a.answer.text == s.fixture.original.text  # the text widget gets it as text, not HTML
