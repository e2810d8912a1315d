"""The checker behind the commands: fact-estimate against people, a run killed and resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from claimlab.io.factscore import load_labelled, relabelled
from claimlab.metrics.factscore import score_factscore
from claimlab.tooling.cli import main
from tests.checkers import stand_ins
from tests.conftest import FIXTURES, ROOT, require_data

HERE = Path(__file__).resolve().parent

FLIPPED = "python:tests.checkers.stand_ins:PeopleFlipped"
ATLAS = FIXTURES / "atlas_nova.json"


def cli_json(capsys, *args):
    capsys.readouterr()
    assert main([*map(str, args), "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def flipped_by_hand(path):
    """The people's file with the stand-in's seeded 10% flipped, computed without the checker."""
    counter = iter(range(10**9))
    ids = []
    responses = load_labelled(path)
    for r in responses:  # the item ids the command gives: SYSTEM:LINE:SENTENCE:FACT
        for si, s in enumerate(r.sentences or ()):
            for fi, (_, label) in enumerate(s.human_facts or ()):
                if label != "IR":
                    ids.append(f"{path.stem}:{r.line}:{si}:{fi}")
    left = iter(ids)

    def change(topic, fact, label):
        if label == "IR":
            return label
        next(counter)
        flip = stand_ins.draw(45, next(left)) < 0.10
        return {"S": "NS", "NS": "S"}[label] if flip else label

    return responses, relabelled(responses, change)


@pytest.mark.slow
@pytest.mark.realdata
def test_fact_estimate_with_a_checker_of_flipped_people_labels(tmp_path, capsys):
    files = [
        require_data("factscore", f"{n}.jsonl") for n in ("ChatGPT", "InstructGPT", "PerplexityAI")
    ]
    cache = tmp_path / "verdicts.sqlite"
    stand_ins.PeopleFlipped.calls = 0
    args = [*files, "--checker", FLIPPED, "--cache", cache]  # people label a quarter of topics
    first = cli_json(capsys, "fact-estimate", *args)
    asked = stand_ins.PeopleFlipped.calls
    assert asked > 10000 and first["checker"]["checker"]["calls"] == asked
    for system, path in zip(first["systems"], files, strict=True):
        human, flipped = flipped_by_hand(path)
        want = score_factscore(flipped, name=system["name"], policy="paper", gamma=10).factscore
        people = score_factscore(human, name=system["name"], policy="paper", gamma=10)
        # the error rate is the flips' effect, to the rounding of the report (2 decimals)
        assert system["error_rate_points"] == pytest.approx(
            100 * (want - people.factscore), abs=0.3
        )  # a fact repeated on the same evidence is asked once
        assert 0.85 < system["fact_agreement"]["value"] < 0.95  # about 90% kept
        kappa = system["against_people"]["kappa"]["value"]
        assert 0.6 < kappa < 0.9
        ppi = system["prediction_powered"]["ppi"]
        assert ppi["low"] <= people.init_score <= ppi["high"], system["name"]
    second = cli_json(capsys, "fact-estimate", *args)
    assert stand_ins.PeopleFlipped.calls == asked  # counted by the checker: no call at all
    assert second["checker"]["checker"]["calls"] == 0
    assert second["checker"]["checker"]["hits"] == asked + first["checker"]["checker"]["hits"]
    assert second["systems"] == first["systems"]


def tiny_file(path, facts=20):
    def sentences(topic):
        return [
            {
                "text": f"s{n}",
                "is-relevant": True,
                "model-atomic-facts": [],
                "human-atomic-facts": [
                    {"text": f"{topic} fact {n}.", "label": "S" if n % 3 else "NS"}
                ],
            }
            for n in range(facts)
        ]

    rows = [{"topic": t, "annotations": sentences(t)} for t in ("T", "U")]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.mark.slow
def test_a_run_killed_half_way_resumes_with_only_the_missing_items(tmp_path):
    people = tiny_file(tmp_path / "sys.jsonl")
    log = tmp_path / "asked.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DYING_LOG": str(log), "DYING_AT": "21"}
    argv = [
        sys.executable,
        "-c",
        "import sys; from claimlab.tooling.cli import main; sys.exit(main())",
        "fact-estimate",
        str(people),
        "--checker",
        "python:tests.checkers.stand_ins:dying",
        "--cache",
        str(tmp_path / "v.sqlite"),
        "--batch",
        "1",
        "--json",
    ]
    killed = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=ROOT)
    assert killed.returncode == -signal.SIGKILL
    first = log.read_text().splitlines()
    assert len(first) == 20  # 40 facts: killed asking the 21st
    env["DYING_AT"] = "0"
    done = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    second = log.read_text().splitlines()[20:]
    assert len(second) == 20 and not set(first) & set(second)  # only the missing ones
    run = json.loads(done.stdout)["checker"]["checker"]
    assert (run["calls"], run["hits"]) == (20, 20)


@pytest.mark.slow
def test_a_command_checker_killed_half_way_keeps_every_answer_it_gave(tmp_path):
    """At the default batch (all 40 facts in one), the answers a command gave before the run
    died are kept one by one as they came: the run again asks only the other 20."""
    people = tiny_file(tmp_path / "sys.jsonl")
    log = tmp_path / "asked.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DYING_LOG": str(log), "DYING_AT": "20"}
    command = f"command:{sys.executable} {HERE / 'dying_command.py'}"
    argv = [
        sys.executable, "-c", "import sys; from claimlab.tooling.cli import main; sys.exit(main())",
        "fact-estimate", str(people), "--checker", command,
        "--cache", str(tmp_path / "v.sqlite"), "--json",
    ]  # fmt: skip
    killed = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=ROOT)
    assert killed.returncode == -signal.SIGKILL
    first = log.read_text().splitlines()
    assert len(first) == 20
    env["DYING_AT"] = "0"
    done = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    second = log.read_text().splitlines()[20:]
    assert len(second) == 20 and not set(first) & set(second)  # only the missing ones
    run = json.loads(done.stdout)["checker"]["checker"]
    assert (run["calls"], run["hits"]) == (20, 20)


def test_a_checker_that_raises_exits_2_in_one_line_naming_it_and_the_item(tmp_path, capsys):
    people = tiny_file(tmp_path / "sys.jsonl", facts=3)
    args = ["fact-estimate", str(people), "--checker", "python:tests.checkers.stand_ins:crashing"]
    assert main([*args, "--cache", str(tmp_path / "v.sqlite"), "--batch", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "error: checker python:tests.checkers.stand_ins:crashing: item sys:1:1:0: " in err
    assert err.rstrip().endswith("RuntimeError: the model crashed on sys:1:1:0")


def test_a_checker_answering_garbage_exits_2_naming_the_item(tmp_path, capsys):
    people = tiny_file(tmp_path / "sys.jsonl", facts=3)
    args = ["fact-estimate", str(people), "--checker", "python:tests.checkers.stand_ins:garbage"]
    assert main([*args, "--cache", str(tmp_path / "v.sqlite")]) == 2
    err = capsys.readouterr().err
    assert "garbage: item sys:1:1:0: label: unknown label 'PROBABLY'" in err


def test_a_checker_other_than_lexical_is_sent_the_bm25_best_passages():
    from claimlab.checkers.verdicts import Item
    from claimlab.labs.factscore.estimator import retrieved

    passages = ("Bread is baked.", "Ada Lovelace wrote notes.", "Ada was a poet's daughter.")
    (item,) = retrieved([Item("f", "Ada Lovelace wrote notes.", passages)], 2)
    assert item.passages == ("Ada Lovelace wrote notes.", "Ada was a poet's daughter.")
    assert retrieved([Item("g", "x", ())], 2)[0].passages == ()


def test_the_estimate_table_shows_kappa_with_the_people():
    from claimlab.io.factscore import LabelledResponse, LabelledSentence
    from claimlab.labs.factscore.estimator import estimator_report
    from claimlab.labs.factscore.views import estimate_table

    def response(topic, labels):
        facts = tuple((f"{topic} fact {n}", lab) for n, lab in enumerate(labels))
        return LabelledResponse(1, topic, ("rare",), (LabelledSentence("s", True, (), facts),))

    human = {"A": [response("T", ["S", "NS", "S", "NS"])]}
    auto = {"A": [response("T", ["S", "NS", "NS", "NS"])]}
    table = estimate_table(estimator_report(human, auto))
    # 3 of 4 agree; kappa = (0.75 - 0.5) / (1 - 0.5) with chance 0.5 * 0.25 + 0.5 * 0.75 = 0.5
    assert table.loc["A", "facts agreed"] == "75.0% (3/4)"
    assert table.loc["A", "kappa"] == "0.500"


OWN_CHECKER = """
class Mine:
    calls = 0
    def __call__(self, items):
        return ["SUPPORTED" if "fact 1" in item.claim else "NOT_IN_REFERENCE" for item in items]
"""


@pytest.mark.parametrize(
    ("module", "packages"),
    [
        ("my_checker", "regular"),
        ("tests.my_checker", "regular"),
        ("lab.checks.mine", "regular"),
        ("ns_pkg.mine", "namespace"),  # ./ns_pkg/ without __init__.py: `python -m` finds it
    ],
)
def test_a_checker_module_of_the_folder_the_command_runs_in_is_found(tmp_path, module, packages):
    """As ``python -m`` would: the folder the command runs in comes first for a module that is
    there, even when an installed package ships the same top name (a top-level ``tests``), and a
    folder without ``__init__.py`` there is a namespace package."""
    path = tmp_path.joinpath(*module.split(".")).with_suffix(".py")
    for parent in reversed(path.relative_to(tmp_path).parents[:-1]):  # packages, outermost first
        (tmp_path / parent).mkdir()
        if packages == "regular":
            (tmp_path / parent / "__init__.py").touch()
    path.write_text(OWN_CHECKER, encoding="utf-8")
    people = tiny_file(tmp_path / "sys.jsonl", facts=4)
    claimlab = Path(sys.executable).with_name("claimlab")  # the console script: no cwd on its path
    proc = subprocess.run(
        [claimlab, "fact-estimate", people.name, "--checker", f"python:{module}:Mine", "--no-cache",
         "--json"],
        cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ""},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["checker"]["checker"]["calls"] == 8  # 2 topics x 4 facts


def not_sqlite(tmp_path):
    (tmp_path / "notdb.sqlite").write_text("hello\n", encoding="utf-8")
    return tmp_path / "notdb.sqlite", "not a verdict cache (file is not a database)"


def other_table(tmp_path):
    import sqlite3

    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE verdicts (a)")
    return path, "not a verdict cache (no such column: key)"


def no_folder(tmp_path):
    return Path("/proc/nope/c.sqlite"), "cannot open the verdict cache (No such file or directory)"


@pytest.mark.parametrize("bad", [not_sqlite, other_table, no_folder])
def test_a_cache_that_cannot_be_a_verdict_cache_exits_2_naming_the_file_and_cache(
    tmp_path, capsys, bad
):
    # mutation caught: sqlite's DatabaseError let through (exit 1), or --cache left unnamed
    if bad is no_folder and not Path("/proc").is_dir():
        pytest.skip("no /proc here")
    cache, problem = bad(tmp_path)
    before = cache.read_bytes() if cache.exists() else None
    out = tmp_path / "z.json"
    args = ["check", str(ATLAS), "--out", str(out), "--cache", str(cache), "--checker", FLIPPED]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err == f"claimlab check: error: {cache}: --cache: {problem}\n"
    assert not out.exists()
    assert (cache.read_bytes() if cache.exists() else None) == before  # a file not ours: untouched


LATIN1_ANSWERS = """
import json, sys
for line in sys.stdin:
    key = json.loads(line)["id"]
    answer = {"id": key, "label": "SUPPORTED", "note": "caf" + chr(0xE9)}
    if sys.argv[1] == "id":
        answer = {"id": chr(0xE9) + key, "label": "SUPPORTED"}
    sys.stdout.buffer.write(json.dumps(answer, ensure_ascii=False).encode("latin-1") + b"\\n")
"""


@pytest.mark.parametrize("where", ["extra", "id"])
def test_a_command_answering_latin1_exits_2_naming_the_line_and_writes_nothing(
    tmp_path, capsys, where
):
    script = tmp_path / "latin1.py"
    script.write_text(LATIN1_ANSWERS, encoding="utf-8")
    out = tmp_path / "z.json"
    spec = f"command:{sys.executable} {script} {where}"
    assert main(["check", str(ATLAS), "--out", str(out), "--checker", spec, "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"checker {spec}: output line 1: is not UTF-8 (" in err
    assert not out.exists()


def test_the_timeout_is_said_to_apply_to_command_and_openai_checkers_not_python_ones(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "per call of a command: or openai: checker" in help_text
    assert "a python: checker runs in this process and is not stopped by it" in help_text
    guide = " ".join((ROOT / "docs" / "guide" / "rag.md").read_text(encoding="utf-8").split())
    assert "The timeout applies to `command:` and `openai:` checkers only" in guide


DEEP_ANSWERS = """
import json, sys
depth, where = int(sys.argv[1]), sys.argv[2]
for line in sys.stdin:
    key = json.loads(line)["id"]
    deep = "[" * depth + "]" * depth
    body = {"extra": '"label": "SUPPORTED", "note": ', "label": '"label": ',
            "used": '"label": "SUPPORTED", "used": '}[where]
    sys.stdout.write('{"id": ' + json.dumps(key) + ", " + body + deep + "}\\n")
"""


@pytest.mark.parametrize("depth", [900, 1000, 3000])
@pytest.mark.parametrize("where", ["extra", "label", "used"])
def test_a_command_answering_values_nested_deep_is_read_or_refused_in_one_line(
    tmp_path, capsys, where, depth
):
    """A judge's answer nested as deep as a JSON parser reads, or deeper: read (an unknown
    field), or refused in one line naming the checker and the line or item, never a
    RecursionError."""
    script = tmp_path / "deep.py"
    script.write_text(DEEP_ANSWERS, encoding="utf-8")
    spec = f"command:{sys.executable} {script} {depth} {where}"
    code = main(["check", str(ATLAS), "--out", str(tmp_path / "z.json"), "--checker", spec,
                 "--no-cache"])  # fmt: skip
    err = capsys.readouterr().err
    assert code in (0, 2) and "Recursion" not in err, err[-300:]
    assert code == 0 or (err.count("\n") == 1 and f"checker {spec}: " in err)
