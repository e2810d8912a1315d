"""``--store`` and ``claimlab history`` as a user runs them: runs, inputs, a plot, trusted claims."""

import hashlib
import json
import re

import pytest

from tests.conftest import FIXTURES, run_cli
from tests.labs.ledger.test_release_gate import write_ledger


@pytest.mark.journey  # a release's runs into one store, then history
def test_two_ledger_runs_and_an_audit_in_one_store(tmp_path):
    store = tmp_path / "runs.sqlite"
    c1, u1 = write_ledger(tmp_path / "one", set())
    c2, u2 = write_ledger(tmp_path / "two", {1, 2, 3})
    run_cli("ledger", c1, "--units", u1, "--store", store, check=True)
    run_cli("ledger", c2, "--units", u2, "--store", store, "--json", check=True)
    fixture = FIXTURES / "atlas_nova.json"
    run_cli("decomposition", fixture, "--mode", "baseline", "--store", store, check=True)
    data = json.loads(run_cli("history", "--store", store, "--json", check=True).stdout)
    runs = data["runs"]
    assert [r["command"] for r in runs] == ["ledger", "ledger", "decomposition"]
    for r, files in zip(runs, ([c1, u1], [c2, u2], [fixture]), strict=True):
        assert [i["sha256"] for i in r["inputs"]] == [
            hashlib.sha256(f.read_bytes()).hexdigest() for f in files
        ]
    cov = [next(f for f in r["figures"] if f["name"] == "corpus.micro.coverage") for r in runs[:2]]
    assert [(f["numerator"], f["denominator"]) for f in cov] == [(1800, 1800), (1797, 1800)]
    plot = tmp_path / "coverage.png"
    out = run_cli(
        "history", "--store", store, "--metric", "corpus.micro.coverage", "--plot", plot, check=True
    )
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and "3 runs" in out.stdout
    # the text listing counts what it leaves out: every figure is listed or counted, per run
    text = run_cli("history", "--store", store, check=True).stdout
    blocks = text.split("\n  #")[1:]
    assert len(blocks) == 3
    for block, r in zip(blocks, runs, strict=True):
        listed = [
            line
            for line in block.splitlines()[1:]
            if line.startswith("      ") and "..." not in line
        ]
        more = re.search(r"\.\.\. and (\d+) more figures", block)
        assert len(listed) + (int(more[1]) if more else 0) == len(r["figures"])


@pytest.mark.journey  # a release's runs into one store, then history
def test_trusted_claims_after_a_revision_that_contradicts_one(tmp_path, write_variant):
    store = tmp_path / "runs.sqlite"
    original = FIXTURES / "atlas_nova.json"
    run_cli("decomposition", original, "--mode", "baseline", "--store", store, check=True)
    first = json.loads(
        run_cli("history", "--store", store, "--trusted", "--json", check=True).stdout
    )
    ids = [c["candidate_id"] for c in first["trusted"]]
    assert "C1" in ids

    def revise(d):
        d["original"]["version"] = d["original"].get("version", "v") + "-revised"
        for c in d["candidates"]:
            if c["id"] == "C1":
                c["evidence"]["status"] = "CONTRADICTED"

    revised = write_variant("atlas_nova.json", revise, filename="atlas_nova_revised.json")
    run_cli("decomposition", revised, "--mode", "baseline", "--store", store, check=True)
    after = json.loads(
        run_cli("history", "--store", store, "--trusted", "--json", check=True).stdout
    )
    assert [c["candidate_id"] for c in after["trusted"]] == [i for i in ids if i != "C1"]
    assert {c["answer_version"] for c in after["trusted"]} == {"answer-v1-revised"}
    text = run_cli("history", "--store", store, "--trusted").stdout
    assert "may be reused as trusted facts" in text


def test_history_refuses_a_missing_store_and_a_plot_without_a_metric(tmp_path):
    proc = run_cli("history", "--store", tmp_path / "none.sqlite")
    assert proc.returncode == 2 and "no store here" in proc.stderr
    proc = run_cli("history", "--store", tmp_path / "none.sqlite", "--plot", tmp_path / "x.png")
    assert proc.returncode == 2 and "--metric" in proc.stderr


def test_history_json_shows_the_ledgers_interval_as_printed(tmp_path, capsys):
    from claimlab.tooling.cli import main

    store = tmp_path / "runs.sqlite"
    c, u = write_ledger(tmp_path / "one", set(range(0, 600, 7)))
    ledger = ["ledger", str(c), "--units", str(u), "--ci", "0.9", "--bootstrap", "100"]
    assert main([*ledger, "--json", "--store", str(store)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert main(["history", "--store", str(store), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    figures = {f["name"]: f for f in data["runs"][0]["figures"]}
    for aggregate in ("micro", "macro"):
        ci = printed["corpus"][aggregate]["coverage"]["ci"]
        got = figures[f"corpus.{aggregate}.coverage"]
        assert (got["low"], got["high"], got["level"], got["method"]) == (
            ci["low"], ci["high"], 0.9, ci["method"]
        )  # fmt: skip
        assert got["aggregate"] == aggregate
    assert figures["corpus.macro.coverage"]["defined"] == 600
    assert main(["history", "--store", str(store), "--metric", "corpus.micro.coverage"]) == 0
    low, high = (100 * printed["corpus"]["micro"]["coverage"]["ci"][k] for k in ("low", "high"))
    assert f"[{low:.1f}%, {high:.1f}%] 90% BCa" in capsys.readouterr().out


MODEL = "gpt$\\frac{1}{$x"


def two_models(folder):
    """30 answers of three units split by two decomposers, one named like TeX."""
    import pandas as pd

    folder.mkdir(parents=True, exist_ok=True)
    cand = [
        {"model": m, "answer_id": f"a{i}", "candidate_id": f"C{k}", "fingerprint": f"f{k}",
         "preserves": "" if (m == MODEL and k == 3 and i % 4 == 0) else f"U{k}",
         "faithful": "true", "atomic": "true", "status": "SUPPORTED"}
        for m in ("A", MODEL) for i in range(30) for k in (1, 2, 3)
    ]  # fmt: skip
    units = [{"answer_id": f"a{i}", "unit_id": f"U{k}"} for i in range(30) for k in (1, 2, 3)]
    pd.DataFrame(cand).to_csv(folder / "c.csv", index=False)
    pd.DataFrame(units).to_csv(folder / "u.csv", index=False)
    return folder / "c.csv", folder / "u.csv"


def test_a_model_named_like_tex_plots_and_an_unknown_metric_is_refused(tmp_path, capsys):
    from claimlab.tooling.cli import main

    store, plot = tmp_path / "runs.sqlite", tmp_path / "cov.png"
    c, u = two_models(tmp_path / "in")
    for _ in range(2):
        assert (
            main(["ledger", str(c), "--units", str(u), "--by", "model", "--store", str(store)]) == 0
        )
    capsys.readouterr()
    args = ["history", "--store", str(store), "--metric"]
    assert main([*args, f"by_group.{MODEL}.micro.coverage", "--plot", str(plot)]) == 0
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    capsys.readouterr()
    for extra in ([], ["--plot", str(tmp_path / "none.png")], ["--json"]):
        assert main([*args, "coverag", *extra]) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1
        assert "no figure named 'coverag'" in err and "known names: " in err
        assert "corpus.micro.coverage" in err
    assert not (tmp_path / "none.png").exists()


def test_a_stored_paired_comparison_keeps_its_level_method_pairs_and_reason(tmp_path, capsys):
    """Each comparison's difference is read back as printed: its interval's level and method,
    the answers it paired and those N/A on one side, or why it has no interval."""
    from claimlab.tooling.cli import main

    c, u = two_models(tmp_path / "two")
    store = tmp_path / "runs.sqlite"
    args = ["ledger", str(c), "--units", str(u), "--by", "model", "--compare", "A", MODEL,
            "--ci", "0.9", "--bootstrap", "200", "--permutations", "200", "--json"]  # fmt: skip
    assert main([*args, "--store", str(store)]) == 0
    printed = {
        (x["metric"], x["aggregate"]): x for x in json.loads(capsys.readouterr().out)["comparisons"]
    }
    assert main(["history", "--store", str(store), "--json"]) == 0
    stored = {f["name"]: f for f in json.loads(capsys.readouterr().out)["runs"][0]["figures"]}
    for (metric, aggregate), p in printed.items():
        got = stored[f"comparisons[A|{MODEL}|{metric}|{aggregate}].difference"]
        assert (got["level"], got["defined"], got["undefined"]) == (
            0.9,
            p["shared"],
            p["undefined"],
        )
        assert got["method"] == "paired bootstrap, 200 resamples"
        assert got["note"] == (p.get("reason", "") if p["difference"]["low"] is None else "")
