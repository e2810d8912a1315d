"""The checker interface: labels, the cache, retries, backends in other languages, repeats.

No model runs here: the ``python:`` checkers are small rules (``stand_ins``), the ``command:``
one is the same rule in perl, and the ``openai:`` one is a stand-in chat server on 127.0.0.1
that applies the same rule to the prompt it receives.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.checkers import (
    CheckerAnswerError,
    CheckerFailed,
    Item,
    RunOptions,
    Verdict,
    VerdictCache,
    checker_from_spec,
    from_ragchecker,
    parse_verdict,
    run_checker,
    score_repeats,
    to_ragchecker,
)
from claimlab.checkers.verdicts import CheckerUnavailable
from claimlab.core.vocab import CheckLabel, Status
from claimlab.metrics.agreement import alpha_nominal
from tests.checkers import stand_ins

HERE = Path(__file__).parent
FEW = settings(max_examples=25, deadline=None)
words = st.sampled_from(["paris", "france", "rome", "nile", "ada", "poet", "river", "x"])
texts = st.lists(words, min_size=1, max_size=5).map(" ".join)
items_st = st.lists(st.tuples(texts, st.lists(texts, max_size=3)), min_size=1, max_size=12).map(
    lambda rows: [Item(f"i{n}", c, tuple(p)) for n, (c, p) in enumerate(rows)]
)


def labels_of(run):
    return [row[0].label for row in run.verdicts]


# -- the label mapping -----------------------------------------------------------------------

MAPPING = [
    (Status.SUPPORTED, CheckLabel.ENTAILMENT),
    (Status.CONTRADICTED, CheckLabel.CONTRADICTION),
    (Status.NOT_IN_REFERENCE, CheckLabel.NEUTRAL),
]


@pytest.mark.parametrize(("ours", "theirs"), MAPPING)
def test_each_label_maps_to_ragcheckers_word(ours, theirs):
    assert to_ragchecker(ours) is theirs and from_ragchecker(theirs) is ours


@given(st.sampled_from(list(Status)))
def test_mapping_to_ragchecker_and_back_is_the_identity(label):
    # mutation caught: CONTRADICTED mapped to Neutral (two labels onto one) fails here
    assert from_ragchecker(to_ragchecker(label)) is label


@given(st.sampled_from(list(CheckLabel)))
def test_mapping_from_ragchecker_and_back_is_the_identity(label):
    assert to_ragchecker(from_ragchecker(label)) is label


ANSWERS = [
    ("SUPPORTED", Verdict(Status.SUPPORTED)),
    ("Neutral", Verdict(Status.NOT_IN_REFERENCE)),
    (
        {"label": "CONTRADICTED", "probability": 0.8, "used": [1]},
        Verdict(Status.CONTRADICTED, 0.8, (1,)),
    ),
]
BAD = [
    ("PROBABLY", "label"),
    ({"label": "SUPPORTED", "probability": 1.5}, "probability"),
    ({"label": "SUPPORTED", "used": [2]}, "used"),  # two passages: 0 and 1
    (["SUPPORTED"], "label"),
    ({"label": None}, "label"),
]


@pytest.mark.parametrize(("answer", "want"), ANSWERS)
def test_an_answer_is_read_as_a_verdict(answer, want):
    assert parse_verdict(answer, Item("c1", "claim", ("a", "b")), "demo") == want


@pytest.mark.parametrize(("answer", "field"), BAD)
def test_a_bad_answer_names_the_checker_the_item_and_the_field(answer, field):
    with pytest.raises(CheckerAnswerError) as err:
        parse_verdict(answer, Item("c7", "claim", ("a", "b")), "demo")
    assert str(err.value).startswith(f"checker demo: item c7: {field}: ")


# -- the cache ---------------------------------------------------------------------------------


def direct(checker, items):
    """The checker asked item by item, no runner, no cache: what every run must give."""
    return [parse_verdict(checker.check([i], timeout=60)[0], i, checker.name) for i in items]


@FEW
@given(items_st)
def test_the_cache_never_changes_a_label(tmp_path_factory, items):
    # mutation caught: a cache key without the evidence hash (same claim, other passages)
    checker = checker_from_spec("python:tests.checkers.stand_ins:Keyword")
    cache = VerdictCache(tmp_path_factory.mktemp("cache") / "v.sqlite")
    want = direct(checker, items)
    first = run_checker(items, checker, cache=cache)
    again = run_checker(items, checker, cache=cache)
    assert [row[0] for row in first.verdicts] == [row[0] for row in again.verdicts] == want
    assert again.calls == 0 and again.hits == len(items)


@FEW
@given(items_st, st.randoms(use_true_random=False))
def test_reordering_the_batch_never_changes_an_items_label(items, rnd):
    # mutation caught: the lexical checker's BM25 index kept by the number of passages, not by
    # the passages (an item's label then depends on which item came first)
    for spec in ("lexical", "python:tests.checkers.stand_ins:Keyword"):
        shuffled = list(items)
        rnd.shuffle(shuffled)
        options = RunOptions(batch_size=2, workers=3)
        a = run_checker(items, checker_from_spec(spec), options=options)
        b = run_checker(shuffled, checker_from_spec(spec), options=options)
        by_id = dict(zip([i.id for i in shuffled], b.verdicts, strict=True))
        assert [by_id[i.id] for i in items] == list(a.verdicts)
        fresh = checker_from_spec(spec)
        assert [row[0] for row in a.verdicts] == [direct(fresh, [i])[0] for i in items]


def test_the_second_run_makes_no_call_and_no_cache_asks_again(tmp_path):
    items = [Item(f"i{n}", f"claim {n}", ("claim 3",)) for n in range(5)]
    checker = checker_from_spec("python:tests.checkers.stand_ins:Keyword")
    cache = VerdictCache(tmp_path / "v.sqlite")
    stand_ins.Keyword.calls = 0
    assert (run_checker(items, checker, cache=cache).calls, stand_ins.Keyword.calls) == (5, 5)
    run = run_checker(items, checker, cache=cache)
    assert (run.calls, run.hits, stand_ins.Keyword.calls) == (0, 5, 5)
    assert run_checker(items, checker).calls == 5 and stand_ins.Keyword.calls == 10


def test_garbage_names_the_item_and_nothing_of_its_batch_is_stored(tmp_path):
    items = [Item(f"i{n}", f"claim {n}", ()) for n in range(3)]
    cache = VerdictCache(tmp_path / "v.sqlite")
    with pytest.raises(CheckerAnswerError, match=r"^checker python:.*:garbage: item i1: label: "):
        run_checker(
            items, checker_from_spec("python:tests.checkers.stand_ins:garbage"), cache=cache
        )
    assert cache.count() == 0


class Flaky:
    name, version, parameters, batch_size, workers, cached = "flaky", "", {}, 10, 1, True

    def __init__(self, failures):
        self.failures = failures

    def check(self, items, *, timeout):
        if self.failures:
            self.failures -= 1
            raise CheckerUnavailable("busy")
        return ["SUPPORTED" for _ in items]


def test_a_busy_checker_is_tried_again_with_doubling_waits():
    waits = []
    options = RunOptions(retries=3, backoff=0.5, sleep=waits.append)
    run = run_checker([Item("a", "c", ())], Flaky(2), options=options)
    assert labels_of(run) == [Status.SUPPORTED] and waits == [0.5, 1.0]
    with pytest.raises(CheckerFailed, match="item a: no answer after 4 tries: busy"):
        run_checker([Item("a", "c", ())], Flaky(9), options=RunOptions(sleep=waits.append))


# -- other languages, other servers ------------------------------------------------------------

SAME = [
    Item("a", "Paris is in France.", ("Paris is a city in France.", "Rome.")),
    Item("b", "Ada was a poet.", ("Ada was a mathematician.",)),
    Item("c", "The Nile is a river", ("rivers", "The Nile is long.", "a river")),
    Item("d", "Nothing here.", ()),
]


@pytest.mark.skipif(shutil.which("perl") is None, reason="perl is not installed")
def test_a_command_checker_in_perl_gives_the_python_checkers_labels():
    python = run_checker(SAME, checker_from_spec("python:tests.checkers.stand_ins:Keyword"))
    perl = run_checker(SAME, checker_from_spec(f'command:perl "{HERE / "keyword.pl"}"'))
    assert perl.verdicts == python.verdicts
    assert [v[0].label.value for v in perl.verdicts] == [
        "SUPPORTED",
        "NOT_IN_REFERENCE",
        "SUPPORTED",
        "NOT_IN_REFERENCE",
    ]


class StandIn(BaseHTTPRequestHandler):
    """A chat-completions stand-in (no model): the Keyword rule applied to the prompt it gets."""

    seen: list = []

    def do_POST(self):  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        StandIn.seen.append((self.path, self.headers.get("Authorization"), body))
        prompt = body["messages"][1]["content"]
        claim = re.search(r"^Claim: (.*)$", prompt, re.M).group(1)
        passages = re.findall(r"^\[\d+\] (.*)$", prompt, re.M)
        answer = stand_ins.keyword(claim, passages)
        answer["used"] = [u + 1 for u in answer["used"]]  # the prompt numbers passages from 1
        reply = {"choices": [{"message": {"role": "assistant", "content": json.dumps(answer)}}]}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def chat_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), StandIn)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_an_openai_checker_against_a_stand_in_server_gives_the_python_checkers_labels(
    chat_server, monkeypatch
):
    monkeypatch.setenv("CLAIMLAB_CHECKER_KEY", "sk-test-secret")
    StandIn.seen = []
    checker = checker_from_spec(f"openai:{chat_server}", model="stand-in")
    run = run_checker(SAME, checker)
    python = run_checker(SAME, checker_from_spec("python:tests.checkers.stand_ins:Keyword"))
    assert run.verdicts == python.verdicts
    path, auth, body = StandIn.seen[0]
    assert path == "/v1/chat/completions" and auth == "Bearer sk-test-secret"
    assert body["model"] == "stand-in" and body["temperature"] == 0
    assert "sk-test-secret" not in json.dumps(run.to_dict())


# -- repeats -------------------------------------------------------------------------------------


def test_repeats_flip_rate_and_alpha_match_a_hand_computation():
    items = [Item(f"c{n}", f"claim {n}", ()) for n in range(40)]
    checker = checker_from_spec("python:tests.checkers.stand_ins:Flipper")
    run = run_checker(items, checker, repeats=5)
    report = score_repeats(run.item_ids, run.verdicts)
    # by hand: the same draws; each item's majority, and the asks that differ from it
    hand = [
        ["N" if stand_ins.draw(7, f"c{n}", r) < 0.2 else "S" for r in range(5)] for n in range(40)
    ]
    flips = sum(min(row.count("S"), row.count("N")) for row in hand)
    assert (report.flip_ratio.numerator, report.flip_ratio.denominator) == (flips, 200)
    assert report.unstable_ratio.numerator == sum(len(set(row)) > 1 for row in hand)
    assert report.alpha == alpha_nominal([[row[r] for row in hand] for r in range(5)])
    assert report.alpha.value is not None and flips > 0


@FEW
@given(
    st.integers(1, 6).flatmap(
        lambda k: st.lists(st.lists(st.sampled_from(list(Status)), min_size=k, max_size=k),
                           max_size=12)
    )
)  # fmt: skip
def test_each_items_flip_rate_carries_its_counts_and_they_sum_to_the_pooled_rate(rows):
    # mutation caught: an unstable item left unnamed, or a per-item row off the pooled counts
    ids = [f"c{n}" for n in range(len(rows))]
    report = score_repeats(ids, [[Verdict(label) for label in row] for row in rows])
    data = report.to_dict()
    per_item = data.get("items", [])
    assert [r["id"] for r in per_item] == ids
    for row, r in zip(rows, per_item, strict=True):
        top = max(row.count(s) for s in set(row))
        assert (r["flips"], r["asks"]) == (len(row) - top, len(row))
        assert (r["flip_rate"]["numerator"], r["flip_rate"]["denominator"]) == (
            r["flips"],
            r["asks"],
        )
    pooled = data["flip_rate"]
    assert sum(r["flips"] for r in per_item) == pooled["numerator"]
    assert sum(r["asks"] for r in per_item) == pooled["denominator"]
    assert data.get("unstable_ids") == [r["id"] for r in per_item if r["flips"] > 0]
    assert len(data["unstable_ids"]) == data["unstable_items"]["numerator"]


@pytest.mark.parametrize(
    ("unstable", "named"),
    [
        (0, None),  # nothing to name: the pooled figure alone
        (2, "(c0 1/3, c1 1/3)"),
        (5, "(c0 1/3, c1 1/3, c2 1/3, c3 1/3, c4 1/3)"),
        (8, "(c0 1/3, c1 1/3, c2 1/3, c3 1/3, c4 1/3 and 3 more)"),
    ],
)
def test_the_repeats_line_names_the_first_unstable_items_and_counts_the_rest(unstable, named):
    from claimlab.checkers.repeats import repeats_line

    s, n = Verdict(Status.SUPPORTED), Verdict(Status.NOT_IN_REFERENCE)
    rows = [[s, s, n] if k < unstable else [s, s, s] for k in range(10)]
    line = repeats_line(score_repeats([f"c{k}" for k in range(10)], rows).to_dict())
    pooled = f"unstable items {unstable * 10}.0% ({unstable}/10)"
    assert (pooled + (f" {named}," if named else ",")) in line, line


@given(st.lists(st.sampled_from(list(Status)), min_size=1, max_size=9))
def test_a_majority_label_is_held_by_more_verdicts_than_any_other(labels):
    # mutation caught: a tie given the first label as its majority
    from claimlab.checkers.repeats import item_repeats

    r = item_repeats("x", labels)
    counts = sorted((labels.count(s) for s in set(labels)), reverse=True)
    if r.majority is None:
        assert len(counts) > 1 and counts[0] == counts[1]
    else:
        assert all(labels.count(r.majority) > labels.count(s) for s in set(labels) - {r.majority})
    assert r.flips == len(labels) - counts[0]


class Busy(StandIn):
    """Answers 503 to every other request, and a reply that is no verdict for a claim "junk"."""

    calls = 0

    def do_POST(self):  # noqa: N802 - http.server's name
        Busy.calls += 1
        if Busy.calls % 2:
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(503)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        super().do_POST()


def test_an_openai_server_that_is_busy_is_asked_again():
    import http.server

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Busy)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/v1"
        waits = []
        options = RunOptions(workers=1, sleep=waits.append)
        run = run_checker(SAME[:2], checker_from_spec(f"openai:{url}", model="m"), options=options)
        assert [v[0].label.value for v in run.verdicts] == ["SUPPORTED", "NOT_IN_REFERENCE"]
        assert waits == [0.5, 0.5]  # one 503 before each answer
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.skipif(shutil.which("perl") is None, reason="perl is not installed")
def test_a_command_that_does_not_answer_in_time_fails_after_its_retries():
    slow = checker_from_spec('command:perl -e "sleep 5"')
    waits = []
    options = RunOptions(timeout=0.2, retries=1, sleep=waits.append)
    with pytest.raises(CheckerFailed, match=r"item a: no answer after 2 tries: no answer within"):
        run_checker(SAME[:1], slow, options=options)
    assert waits == [0.5]


GRANDCHILD = """
sleep {sleep}
cat > /dev/null
echo '{{"id": "a", "label": "SUPPORTED"}}'
"""


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_a_timeout_kills_the_commands_children_and_does_not_wait_for_them(tmp_path):
    """The shell's child ``sleep`` holds the output pipe; the error must not wait for it."""
    sleep = 30
    script = tmp_path / "slow.sh"
    script.write_text(GRANDCHILD.format(sleep=sleep), encoding="utf-8")
    checker = checker_from_spec(f"command:bash {script}")
    started = time.monotonic()
    with pytest.raises(CheckerFailed, match=r"no answer after 1 tries: no answer within 1 s"):
        run_checker(SAME[:1], checker, options=RunOptions(timeout=1, retries=0))
    assert time.monotonic() - started < sleep / 2  # an order check: the child's sleep not awaited


LEFT_BEHIND = """
import json, os, signal, sys, time
how, pid_file, end = sys.argv[1:]
for line in sys.stdin:
    item = json.loads(line)
    if item["id"] != "unanswered":
        print(json.dumps({{"id": item["id"], "label": "SUPPORTED"}}), flush=True)
if os.fork() == 0:  # a child left running, ignoring SIGTERM, holding the output or not
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if how == "own session":
        os.setsid()  # out of reach
    if how == "own group":
        os.setpgid(0, 0)  # a group of its own in the program's session (a shell's job control)
    if how == "closed":
        os.close(1)
        os.close(2)
    with open(pid_file, "w") as f:
        f.write(str(os.getpid()))
    time.sleep({sleep})
    os._exit(0)
while not (os.path.exists(pid_file) and os.path.getsize(pid_file)):
    time.sleep(0.01)  # the child has started and written its id
if end == "hang":
    time.sleep({sleep})
sys.exit(int(end))
"""


def _gone(pid: int) -> bool:
    """The process has ended (a zombie counts as ended: it runs nothing)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state == "Z"


def _leaving(tmp_path, how, end, sleep):
    """A checker answering SUPPORTED to all, leaving a child (``how``), then ending (``end``)."""
    script, pid_file = tmp_path / "leaves.py", tmp_path / "child.pid"
    script.write_text(LEFT_BEHIND.format(sleep=sleep), encoding="utf-8")
    return checker_from_spec(
        f"command:{sys.executable} {script} '{how}' {pid_file} {end}"
    ), pid_file


@pytest.mark.parametrize("how", ["held", "closed", "own group", "own session"])
def test_a_command_that_ends_leaving_a_child_is_answered_at_its_end(tmp_path, how):
    """Its answers count as it ends, whoever holds its output then; a child left in its group
    or its session is killed (one in a session of its own is out of reach: it is only not
    awaited)."""
    sleep = 60
    checker, pid_file = _leaving(tmp_path, how, "0", sleep)
    started = time.monotonic()
    run = run_checker(SAME[:2], checker, options=RunOptions(timeout=sleep, retries=0))
    assert time.monotonic() - started < sleep / 2  # an order check: the child not awaited
    assert [v[0].label.value for v in run.verdicts] == ["SUPPORTED", "SUPPORTED"]
    child = int(pid_file.read_text())
    if how == "own session":
        os.kill(child, signal.SIGKILL)
        return
    deadline = time.monotonic() + 10
    while not _gone(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(child)


@pytest.mark.parametrize("retries", [0, 2])
@pytest.mark.parametrize("end", ["3", "hang"])
def test_a_try_that_fails_after_every_answer_came_leaves_the_batch_answered(tmp_path, end, retries):
    """Every answer is kept as it arrives: a program that answered all, then exited with an
    error or ran out of time, has nothing left to be asked again (asking for nothing ended the
    run with an IndexError)."""
    checker, pid_file = _leaving(tmp_path, "held", end, 60)
    waits = []
    options = RunOptions(timeout=2, retries=retries, sleep=waits.append)
    run = run_checker(SAME[:3], checker, options=options)
    assert [v[0].label.value for v in run.verdicts] == ["SUPPORTED"] * 3
    assert waits == []  # not tried again


def test_a_timeout_ends_the_wait_even_for_a_child_in_a_session_of_its_own(tmp_path):
    """The error comes at the timeout though a process out of the group's reach holds the
    output (it waited until that process ended)."""
    checker, pid_file = _leaving(tmp_path, "own session", "hang", 60)
    started = time.monotonic()
    with pytest.raises(CheckerFailed, match=r"no answer after 1 tries: no answer within 2 s"):
        run_checker([*SAME[:2], Item("unanswered", "c", ())], checker,
                    options=RunOptions(timeout=2, retries=0))  # fmt: skip
    assert time.monotonic() - started < 30  # an order check: the child's minute not awaited
    os.kill(int(pid_file.read_text()), signal.SIGKILL)


@FEW
@given(st.binary(max_size=60), st.lists(st.integers(0, 60), max_size=8))
def test_output_read_in_any_pieces_gives_the_lines_of_the_whole(data, cuts):
    """However the pipe hands the output over, the lines are those of the output read whole:
    each with its newline, a last one without it as it is."""
    from claimlab.checkers.backends import _Lines

    lines, got = _Lines(), []
    edges = [0, *sorted(c for c in cuts if c <= len(data)), len(data)]
    for a, b in zip(edges, edges[1:], strict=False):
        got += lines.feed(data[a:b]) if b > a else []
    got += [b"".join(lines.parts)] if lines.parts else []
    *whole, last = data.split(b"\n")
    assert got == [line + b"\n" for line in whole] + ([last] if last else [])


ECHO = """
import json, sys
for line in sys.stdin:
    item = json.loads(line)
    label = ["SUPPORTED", "CONTRADICTED", "NOT_IN_REFERENCE"][(len(item["claim"]) + item["repeat"]) % 3]
    print(json.dumps({"id": item["id"], "label": label}), flush=True)
"""


def test_a_command_answers_each_repeat_of_an_item_in_a_batch_of_its_own(tmp_path):
    """An answer names its item by id alone: two repeats of one item in a batch read as one item
    answered twice (every ``--repeats 2`` run of a command checker was refused)."""
    script = tmp_path / "echo.py"
    script.write_text(ECHO, encoding="utf-8")
    run = run_checker(SAME, checker_from_spec(f"command:{sys.executable} {script}"), repeats=3)
    labels = ["SUPPORTED", "CONTRADICTED", "NOT_IN_REFERENCE"]
    want = [[labels[(len(i.claim) + r) % 3] for r in range(3)] for i in SAME]
    assert [[v.label.value for v in item] for item in run.verdicts] == want
    assert run.calls == 3 * len(SAME)


@FEW
@given(st.lists(st.tuples(st.sampled_from("abcde"), st.integers(0, 3)), max_size=30),
       st.integers(1, 7))  # fmt: skip
def test_batches_hold_each_job_once_and_no_id_twice(asks, size):
    from claimlab.checkers.runner import _batches

    jobs = [(n, Item(i, "c", (), repeat=r)) for n, (i, r) in enumerate(dict.fromkeys(asks))]
    batches = _batches(jobs, size)
    assert sorted(n for b in batches for n, _ in b) == [n for n, _ in jobs]
    assert all(0 < len(b) <= size and len({i.id for _, i in b}) == len(b) for b in batches)


FLOOD = """
import sys
for _ in range(64):
    sys.stderr.buffer.write(b"x" * (1 << 20))
sys.stderr.write("the last words")
sys.exit(3)
"""


def test_a_program_flooding_its_error_output_is_held_to_the_end_of_it(tmp_path):
    """Only the end of a program's error output is kept (it ends the message): a program
    writing without end cannot fill the memory."""
    from claimlab.checkers.backends import ERRORS_KEPT, _output_lines

    script = tmp_path / "flood.py"
    script.write_text(FLOOD, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    errors = bytearray()
    assert list(_output_lines(proc, time.monotonic() + 60, errors)) == []
    proc.stdout.close()
    proc.stderr.close()
    assert proc.returncode == 3
    assert len(errors) <= ERRORS_KEPT and errors.endswith(b"xthe last words")


LATIN1 = """
import json, sys
for line in sys.stdin:
    item = json.loads(line)
    if sys.argv[1] == "extra":
        answer = {"id": item["id"], "label": "SUPPORTED", "note": "caf" + chr(0xE9)}
    else:
        answer = {"id": chr(0xE9) + item["id"], "label": "SUPPORTED"}
    sys.stdout.buffer.write(json.dumps(answer, ensure_ascii=False).encode("latin-1") + b"\\n")
"""


@pytest.mark.parametrize(
    ("where", "problem"),
    [
        # the byte's place from 1: after '{"id": "a", "label": "SUPPORTED", "note": "caf' (46)
        ("extra", "is not UTF-8 (byte 0xe9 at byte 47): b'{\"id\": \"a\", \"label\": "
         "\"SUPPORTED\", \"note\": \"caf\\xe9\"}'"),
        # after '{"id": "' (8)
        ("id", "is not UTF-8 (byte 0xe9 at byte 9): b'{\"id\": \"\\xe9a\", \"label\": "
         "\"SUPPORTED\"}'"),
    ],
)  # fmt: skip
def test_an_answer_line_that_is_not_utf8_is_refused_naming_the_checker_and_the_line(
    tmp_path, where, problem
):
    # mutation caught: bytes decoded with replacement (an extra key accepted, an id mangled)
    script = tmp_path / "latin1.py"
    script.write_text(LATIN1, encoding="utf-8")
    spec = f"command:{sys.executable} {script} {where}"
    cache = VerdictCache(tmp_path / "v.sqlite")
    with pytest.raises(CheckerAnswerError) as err:
        run_checker(SAME[:1], checker_from_spec(spec), cache=cache)
    assert str(err.value) == f"checker {spec}: output line 1: {problem}"
    assert cache.count() == 0


ANSWERS = """
import json, sys
items = [json.loads(line) for line in sys.stdin]
for item in items:
    print(json.dumps({"id": item["id"], "label": "SUPPORTED"}), flush=True)
extra = sys.argv[1]
if extra == "twice":
    print(json.dumps({"id": items[-1]["id"], "label": "CONTRADICTED"}), flush=True)
elif extra == "stranger":
    print(json.dumps({"id": "never-asked", "label": "SUPPORTED"}), flush=True)
elif extra == "junk":
    print("not json at all", flush=True)
elif extra == "bytes":
    sys.stdout.buffer.write(b"\\xff\\xfe\\n")
"""


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        ("twice", "item b: id: answered twice (again on output line 3)"),
        ("stranger", "output line 3: id: answers an item that was not asked: 'never-asked'"),
        ("junk", "output line 3: id: is not a JSON object with a string id: 'not json at all'"),
        ("bytes", "output line 3: is not UTF-8 (byte 0xff at byte 1): b'\\xff\\xfe'"),
    ],
)
def test_a_command_answer_twice_or_to_no_item_asked_is_refused_where_it_is(tmp_path, extra, where):
    """A second answer for one item, or one for an item never asked, stops the run naming the
    line or the item (never the first item of the batch by default); nothing is kept silently."""
    script = tmp_path / "answers.py"
    script.write_text(ANSWERS, encoding="utf-8")
    checker = checker_from_spec(f"command:{sys.executable} {script} {extra}")
    cache = VerdictCache(tmp_path / "v.sqlite")
    with pytest.raises(CheckerAnswerError) as err:
        run_checker([Item("a", "c", ()), Item("b", "d", ())], checker, cache=cache)
    assert str(err.value).endswith(where), str(err.value)
    assert cache.count() == 2  # the two good answers, given before, are kept


class CountsFromZero(StandIn):
    """A server that numbers the passages it used from 0, against the prompt's numbering."""

    def do_POST(self):  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers["Content-Length"]))
        answer = {"label": "SUPPORTED", "used": [0]}
        reply = {"choices": [{"message": {"role": "assistant", "content": json.dumps(answer)}}]}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def test_an_openai_reply_numbering_passages_from_zero_is_refused_in_its_own_numbers():
    server = ThreadingHTTPServer(("127.0.0.1", 0), CountsFromZero)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/v1"
        checker = checker_from_spec(f"openai:{url}", model="stand-in")
        with pytest.raises(CheckerAnswerError) as err:
            run_checker([Item("c1", "claim", ("a", "b", "c"))], checker)
    finally:
        server.shutdown()
        server.server_close()
    assert str(err.value) == (
        f"checker openai:{url}: item c1: used: used lists passage numbers 1..3, got [0]"
    )


def test_an_answer_without_a_label_says_so():
    with pytest.raises(CheckerAnswerError, match="item c1: label: no label given$"):
        parse_verdict({"probability": 0.5}, Item("c1", "claim", ()), "demo")


def test_of_batches_that_fail_together_the_earliest_is_reported(monkeypatch):
    """However late the run looks at its finished batches, the error it reports is the earliest
    batch's (crashes on items 2, 4, ... 18, all done when looked at: item 2 is named)."""
    import concurrent.futures

    from claimlab.checkers import runner
    from claimlab.checkers.backends import checker_from_spec
    from claimlab.checkers.verdicts import CheckerFailed

    def late_wait(fs, return_when):  # a busy machine: every batch is done before we look
        concurrent.futures.wait(fs, return_when=concurrent.futures.ALL_COMPLETED)
        done = set(fs)
        return done, set()

    monkeypatch.setattr(runner, "wait", late_wait)
    items = [runner.Item(f"i{n}", f"claim {n}", ("p",)) for n in range(20)]
    checker = checker_from_spec("python:tests.checkers.stand_ins:crash_on_even")
    with pytest.raises(CheckerFailed, match="item i2: "):
        runner.run_checker(items, checker, options=runner.RunOptions(batch_size=1))
