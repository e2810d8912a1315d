"""Intervals and paired comparisons: coverage on simulated ledgers, exact small cases, the contract."""

import json

import numpy as np
import pyarrow.parquet as pq
import pytest

from claimlab.labs.ledger.demo import demo_ledger
from claimlab.metrics.stats.comparisons import holm, paired_comparison, ranking_stability
from claimlab.metrics.stats.intervals import bootstrap_intervals, wilson
from claimlab.metrics.stats.resampling import macro_parts
from tests.conftest import run_cli

TRUE_DIFFERENCE = 0.1 * 4 / 6  # B covers each unit with 0.9 times A's chance; E[p] = 4/6


def simulated_pair(rng, answers=200):
    """Per-answer (covered, units) of two decomposers on the same answers, true difference known.

    Answer i has m_i = 1 + Poisson(4) units and difficulty p_i ~ Beta(4, 2), shared by both
    decomposers (that is what pairing exploits): A covers each unit with probability p_i, B
    with 0.9 p_i. Micro coverage A - B is then 0.1 E[m p] / E[m] = 0.1 E[p] = 1/15.
    """
    m = 1 + rng.poisson(4, answers)
    p = rng.beta(4, 2, answers)
    a = rng.binomial(m, p)
    b = rng.binomial(m, 0.9 * p)
    return (a.astype(float), m.astype(float)), (b.astype(float), m.astype(float))


def test_paired_interval_covers_the_true_difference_at_its_level_and_is_narrower():
    rng = np.random.default_rng(20261201)
    covered = 0
    paired_width, unpaired_width = [], []
    runs = 400
    for k in range(runs):
        a, b = simulated_pair(rng)
        c = paired_comparison(a, b, resamples=1000, permutations=1, seed=k, unpaired_from=(a, b))
        d = c.difference
        covered += d.low <= TRUE_DIFFERENCE <= d.high
        paired_width.append(d.high - d.low)
        unpaired_width.append(c.unpaired.high - c.unpaired.low)
    rate = covered / runs
    print(
        f"seed 20261201: 95% paired interval covered the true difference in {covered}/{runs} "
        f"= {rate:.1%}; mean width paired {np.mean(paired_width):.4f}, "
        f"unpaired {np.mean(unpaired_width):.4f}"
    )
    assert 0.93 <= rate <= 0.97
    assert np.mean(unpaired_width) > 1.3 * np.mean(paired_width)


def test_two_identical_decomposers_differ_by_nothing():
    rng = np.random.default_rng(1)
    a, _ = simulated_pair(rng)
    c = paired_comparison(a, a, resamples=500, permutations=500, seed=2)
    assert c.difference.value == 0.0
    assert (c.difference.low, c.difference.high) == (None, None)  # no spread, no interval
    assert c.reason.startswith("every resample gives +0.0 points")
    assert c.p_value == 1.0


def test_a_real_difference_on_many_answers_has_the_smallest_p_value_there_is():
    rng = np.random.default_rng(3)
    a, b = simulated_pair(rng, answers=3000)
    c = paired_comparison(a, b, resamples=500, permutations=999, seed=4)
    assert c.p_value == pytest.approx(1 / 1000)  # no permutation as extreme as the truth
    assert c.difference.low > 0


@pytest.mark.parametrize(
    ("p", "adjusted"),
    [
        ([0.01, 0.04, 0.03], [0.03, 0.06, 0.06]),  # 3*0.01; max(3*0.01, 2*0.03); max(0.06, 0.04)
        ([0.2, 0.5], [0.4, 0.5]),
        ([0.9, 0.9, 0.9], [1.0, 1.0, 1.0]),  # capped at 1
        ([None, 0.01], [None, 0.01]),  # an undefined comparison is not counted
        ([], []),
    ],
)
def test_holm_table(p, adjusted):
    assert holm(p) == pytest.approx(adjusted) if p else holm(p) == []


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Wilson: (p + z^2/2n +- z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n), z = 1.959964
        (3, 5, 0.230724, 0.882379),
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
    ],
)
def test_wilson_table(k, n, low, high):
    w = wilson(k, n)
    assert (w.low, w.high) == pytest.approx((low, high), abs=1e-6)
    assert w.method == "Wilson" and w.clusters == n


def test_undefined_figures_have_no_interval_and_undefined_answers_are_counted():
    out = bootstrap_intervals(
        {
            "none": (np.zeros(4), np.zeros(4)),
            "macro": macro_parts(np.array([1, 0, 2, 0.0]), np.array([2, 0, 2, 0.0])),
        },
        resamples=200,
        seed=0,
    )
    assert not out["none"] and "no denominator" in out["none"].reason  # N/A: no interval
    assert out["macro"].undefined_clusters == 2
    assert wilson(0, 0) is None


def test_same_seed_same_interval_other_seed_other_interval():
    a = (np.arange(50.0) % 7, np.full(50, 6.0))
    one = bootstrap_intervals({"x": a}, seed=5, resamples=300)["x"]
    two = bootstrap_intervals({"x": a}, seed=5, resamples=300)["x"]
    three = bootstrap_intervals({"x": a}, seed=6, resamples=300)["x"]
    assert one == two and one != three


def test_percentile_and_bca_agree_on_a_symmetric_case_and_bca_moves_on_a_skewed_one():
    rng = np.random.default_rng(9)
    sym = (rng.binomial(20, 0.5, 300).astype(float), np.full(300, 20.0))
    p = bootstrap_intervals({"x": sym}, seed=1, method="percentile")["x"]
    b = bootstrap_intervals({"x": sym}, seed=1, method="bca")["x"]
    assert abs(p.low - b.low) < 0.005 and abs(p.high - b.high) < 0.005
    skew = (rng.binomial(1, 0.03, 300).astype(float), np.ones(300))
    p = bootstrap_intervals({"x": skew}, seed=1, method="percentile")["x"]
    b = bootstrap_intervals({"x": skew}, seed=1, method="bca")["x"]
    assert (p.low, p.high) != (b.low, b.high)


def test_ranking_stability_of_clearly_and_barely_separated_systems():
    rng = np.random.default_rng(2)
    m = np.full(300, 10.0)
    clear = {
        "high": (rng.binomial(10, 0.8, 300).astype(float), m),
        "low": (rng.binomial(10, 0.4, 300).astype(float), m),
    }
    out = ranking_stability(clear, resamples=500, seed=1)
    assert out.order == ("high", "low") and out.same_order == 1.0
    assert out.to_dict()["order"] == ["high", "low"] and set(out.to_dict()["values"]) == {
        "high",
        "low",
    }
    p = rng.beta(4, 2, 300)
    a = rng.binomial(10, p).astype(float)
    close = {"a": (a, m), "b": (a + (rng.random(300) < 0.05), m)}
    out = ranking_stability(close, resamples=500, seed=1)
    assert 0.5 < out.same_order <= 1.0 and out.pairs[0].above == "b"


@pytest.fixture(scope="module")
def ledger_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("ledger")
    cand, units = demo_ledger(300, seed=11)
    pq.write_table(cand, d / "c.parquet")
    pq.write_table(units, d / "u.parquet")
    return d / "c.parquet", d / "u.parquet"


def test_ledger_json_contract_for_intervals_and_comparisons(ledger_files):
    c, u = ledger_files
    args = ["ledger", c, "--units", u, "--by", "model", "--ci", "0.9", "--bootstrap", "300"]
    proc = run_cli(*args, "--seed", "7", "--compare", "all", "--permutations", "300", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    ci = data["corpus"]["micro"]["coverage"]["ci"]
    assert set(ci) >= {"low", "high", "level", "method", "resamples", "clusters"}
    assert ci["level"] == 0.9 and ci["method"] == "BCa" and ci["resamples"] == 300
    # three decomposers split the same 300 answers: an answer is one cluster with all its rows
    assert ci["clusters"] == 300 and ci["low"] <= data["corpus"]["micro"]["coverage"]["value"]
    assert data["by_group"]["faithful"]["macro"]["raw_support"]["ci"]["clusters"] == 300
    comps = data["comparisons"]
    assert len(comps) == 3 * 8  # three pairs x four metrics x micro and macro
    first = comps[0]
    assert set(first) >= {
        "a", "b", "metric", "aggregate", "difference", "p_value", "p_adjusted", "shared",
        "only_a", "only_b",
    }  # fmt: skip
    assert set(first["difference"]) == {"value", "low", "high"}
    assert {c["metric"] for c in comps} == {
        "preservation",
        "coverage",
        "confirmed_support",
        "raw_support",
    }
    assert all(c["p_adjusted"] >= c["p_value"] for c in comps)
    again = json.loads(
        run_cli(*args, "--seed", "7", "--compare", "all", "--permutations", "300", "--json").stdout
    )
    assert again["comparisons"] == comps  # reproducible for a seed


def test_ledger_comparison_pairs_answers_one_side_produced_nothing_for(tmp_path):
    import pyarrow.compute as pc

    cand, units = demo_ledger(200, seed=4)
    # drop half of one decomposer's answers entirely (rows and all)
    answers = sorted(set(cand.column("answer_id").to_pylist()))
    gone = set(answers[::2])
    keep = pc.invert(
        pc.and_(
            pc.equal(cand.column("model"), "adds-claims"),
            pc.is_in(cand.column("answer_id"), pa_array(gone)),
        )
    )
    pq.write_table(cand.filter(keep), tmp_path / "c.parquet")
    pq.write_table(units, tmp_path / "u.parquet")
    proc = run_cli(
        "ledger", tmp_path / "c.parquet", "--units", tmp_path / "u.parquet", "--by", "model",
        "--compare", "faithful", "adds-claims", "--bootstrap", "200", "--permutations", "200",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    line = next(
        x for x in proc.stdout.splitlines() if "coverage" in x and "micro" in x and " - " in x
    )
    # the 100 answers adds-claims produced nothing for cover 0 of their units: all 200 pair
    assert "200 shared, 0 only faithful, 0 only adds-claims" in line
    data = json.loads(
        run_cli(
            "ledger", tmp_path / "c.parquet", "--units", tmp_path / "u.parquet", "--by", "model",
            "--compare", "faithful", "adds-claims", "--bootstrap", "200", "--permutations", "200",
            "--json",
        ).stdout
    )  # fmt: skip
    c = data["comparisons"][0]
    # the ledger scores an answer without rows as an empty selection: its preservation is N/A
    # (0/0), so that comparison leaves those answers out and counts them
    assert c["metric"] == "preservation"
    assert (c["shared"], c["only_a"], c["only_b"], c["undefined"]) == (100, 0, 0, 100)


def pa_array(values):
    import pyarrow as pa

    return pa.array(sorted(values))


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        (["--ci", "95"], "between 0 and 1"),
        (["--ci", "x"], "between 0 and 1"),
        (["--compare", "faithful", "nobody"], "no model 'nobody'"),
        (["--compare", "a", "b", "c"], "two model names, or all"),
    ],
)
def test_bad_uncertainty_options_are_one_line_errors(ledger_files, extra, problem):
    c, u = ledger_files
    proc = run_cli("ledger", c, "--units", u, "--by", "model", *extra)
    assert proc.returncode == 2 and problem in proc.stderr and proc.stderr.count("\n") == 1


def test_an_unknown_compare_name_is_refused_before_out_is_written(ledger_files, tmp_path):
    c, u = ledger_files
    out = tmp_path / "answers.csv"
    proc = run_cli(
        "ledger", c, "--units", u, "--by", "model", "--compare", "faithful", "nobody",
        "--out", out, "--ci", "0.95", "--bootstrap", "5000",
    )  # fmt: skip
    assert proc.returncode == 2 and "no model 'nobody' (there are: " in proc.stderr
    assert proc.stderr.count("\n") == 1 and not out.exists()


@pytest.mark.parametrize(
    ("compare", "problem"),
    [(["a", "a"], "'a' twice: a model compared with itself"), (["one"], "two model names")],
)
def test_the_shape_of_compare_is_refused_before_any_file_is_read(tmp_path, compare, problem):
    missing = tmp_path / "not-there.csv"  # never opened: the options are checked first
    proc = run_cli(
        "ledger", missing, "--units", missing, "--by", "model", "--compare", *compare
    )  # fmt: skip
    assert proc.returncode == 2 and problem in proc.stderr and proc.stderr.count("\n") == 1


def test_factscore_compare_names_are_the_file_names_checked_before_reading(tmp_path):
    files = [tmp_path / "alpha.jsonl", tmp_path / "beta.jsonl"]  # neither exists
    proc = run_cli("factscore", *files, "--compare", "alpha", "gamma")
    assert proc.returncode == 2 and "no subject 'gamma' (there are: alpha, beta)" in proc.stderr


def test_compare_needs_by(ledger_files):
    c, u = ledger_files
    proc = run_cli("ledger", c, "--units", u, "--compare", "all")
    assert proc.returncode == 2 and "--compare needs --by" in proc.stderr


@pytest.mark.realdata
def test_factscore_chatgpt_against_instructgpt_on_the_human_annotations():
    from tests.conftest import require_data

    chat = require_data("factscore", "ChatGPT.jsonl")
    instr = require_data("factscore", "InstructGPT.jsonl")
    args = ["factscore", chat, instr, "--irrelevant", "paper", "--ci", "0.95", "--seed", "1"]
    proc = run_cli(*args, "--compare", "ChatGPT", "InstructGPT", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    comps = {c["metric"]: c for c in data["comparisons"]}
    fs = comps["factscore"]
    # the paper's human FActScores: ChatGPT 58.3, InstructGPT 42.6 (the difference, exactly)
    assert fs["difference"]["value"] == pytest.approx(0.582771523739219 - 0.425758336465452)
    assert (
        0.10 < fs["difference"]["low"] < fs["difference"]["value"] < fs["difference"]["high"] < 0.22
    )
    assert (fs["shared"], fs["only_a"], fs["only_b"]) == (183, 0, 0)
    assert fs["p_value"] < 0.01 and fs["p_adjusted"] >= fs["p_value"]
    ci = data["files"][0]["ci"]
    assert ci["respond_ratio"]["method"] == "Wilson" and ci["factscore"]["clusters"] == 183
    assert data["ranking"]["order"] == ["ChatGPT", "InstructGPT"]
    text = run_cli(*args, "--compare", "all").stdout
    assert "ChatGPT - InstructGPT  factscore        +15.7 points" in text
    assert "ranking by FActScore ChatGPT > InstructGPT holds in" in text


def test_factscore_compare_names_the_subjects(tmp_path):
    row = {"topic": "t", "cat": [], "annotations": None}
    f = tmp_path / "One.jsonl"
    f.write_text(json.dumps(row) + "\n", encoding="utf-8")
    proc = run_cli("factscore", f, "--compare", "One", "Two")
    assert proc.returncode == 2 and "no subject 'Two'" in proc.stderr and "One" in proc.stderr
    proc = run_cli("factscore", f, "--ci", "0.95", "--json")
    assert json.loads(proc.stdout)["files"][0]["ci"]["factscore"] is None  # nobody responded: N/A


def test_prediction_powered_mean_equals_the_published_formula_and_ppi_python():
    from claimlab.metrics.stats.prediction_powered import ppi_mean

    rng = np.random.default_rng(8)
    y = rng.binomial(1, 0.6, 120).astype(float)
    yhat = np.clip(y + rng.normal(0.1, 0.2, 120), 0, 1)
    yu = np.clip(rng.binomial(1, 0.6, 2000) + rng.normal(0.1, 0.2, 2000), 0, 1)
    theta, lo, hi = ppi_mean(y, yhat, yu, level=0.9)
    # theta = mean(f(X~)) - mean(f(X) - Y); se^2 = var(f(X~))/N + var(f(X) - Y)/n
    assert theta == pytest.approx(yu.mean() - (yhat - y).mean())
    se = np.sqrt(yu.var(ddof=1) / 2000 + (yhat - y).var(ddof=1) / 120)
    assert (hi - lo) / 2 == pytest.approx(1.6448536 * se, rel=1e-6)
    ppi_py = pytest.importorskip("ppi_py")
    ref_lo, ref_hi = ppi_py.ppi_mean_ci(y, yhat, yu, alpha=0.1, lam=1)
    # ppi_py divides the variances by n and N (ddof 0): the same interval to 1e-3
    assert (lo, hi) == pytest.approx((float(ref_lo[0]), float(ref_hi[0])), abs=1e-3)


@pytest.mark.realdata
def test_prediction_powered_interval_covers_the_human_figure_where_the_autorater_alone_does_not():
    from claimlab.io.factscore import load_subjects
    from claimlab.labs.factscore.studies import ppi_study
    from tests.conftest import require_data

    folder = require_data("factscore")
    responses = [r for rs in load_subjects(folder).values() for r in rs]
    s = ppi_study(responses, labelled=100, optimism=0.3, pessimism=0.05, runs=200, level=0.9)
    print(f"coverage over {s.runs} runs at 90%: {s.covered}; mean widths {s.mean_width}")
    assert s.covered["ppi"] >= 0.9 * s.runs - 2 * np.sqrt(0.09 * s.runs)  # at the stated rate
    assert s.covered["naive"] < 0.5 * s.runs  # the biased autorater misses the truth
    assert s.mean_width["ppi"] < s.mean_width["human"]  # and is narrower than people alone
    ex = s.example
    assert (ex.labelled, ex.labelled + ex.unlabelled) == (ex.human.n, ex.ppi.n)


def test_error_bars_are_drawn_with_the_counts_still_on_the_bars():
    import matplotlib

    matplotlib.use("Agg")
    from claimlab.core.ratio import Ratio
    from claimlab.metrics.stats.intervals import Interval
    from claimlab.notebook.style import plot_grouped_ratios

    iv = Interval(0.5, 0.7, 0.95, "BCa", 100, 40)
    ax = plot_grouped_ratios(
        {"A": {"x": Ratio(3, 5), "y": Ratio(0, 0)}},
        intervals={"A": {"x": iv, "y": None}},
    )
    caps = [c for c in ax.containers if c.__class__.__name__ == "ErrorbarContainer"]
    assert len(caps) == 1  # the N/A bar has no interval
    (segments,) = [lc.get_segments() for lc in caps[0].lines[2]]
    (x0, lo), (_, hi) = segments[0]
    assert (lo, hi) == pytest.approx((0.5, 0.7))
    texts = [t.get_text() for t in ax.texts]
    assert "3/5" in texts and any("N/A" in t for t in texts)


def test_a_tie_in_the_observed_order_holds_while_the_systems_stay_tied():
    m = np.full(50, 4.0)
    tie = {"a": (m.copy(), m), "b": (m.copy(), m), "c": (m / 2, m)}  # a = b = 100% > c = 50%
    out = ranking_stability(tie, resamples=200, seed=0)
    assert out.same_order == 1.0 and out.pairs[0].tied and not out.pairs[1].tied


def test_ledger_rankings_of_the_decomposers(ledger_files):
    c, u = ledger_files
    proc = run_cli(
        "ledger", c, "--units", u, "--by", "model", "--compare", "all",
        "--bootstrap", "200", "--permutations", "200", "--json",
    )  # fmt: skip
    ranks = {r["metric"]: r for r in json.loads(proc.stdout)["rankings"]}
    assert set(ranks) == {"preservation", "coverage", "confirmed_support", "raw_support"}
    assert ranks["coverage"]["order"][-1] == "drops-hard" and ranks["coverage"]["same_order"] == 1.0


def test_ledger_with_peoples_labels_on_some_answers_corrects_a_lenient_autorater(tmp_path):
    import pyarrow as pa
    import pyarrow.compute as pc

    cand, units = demo_ledger(1500, seed=21)
    one = cand.filter(pc.equal(cand.column("model"), "faithful")).drop(["model"])
    # the autorater reads 40% of the NOT_IN_REFERENCE claims as SUPPORTED
    rng = np.random.default_rng(5)
    status = np.array(one.column("status").to_pylist(), dtype=object)
    lenient = (status == "NOT_IN_REFERENCE") & (rng.random(len(status)) < 0.4)
    auto = one.set_column(
        one.schema.get_field_index("status"),
        "status",
        pa.array(np.where(lenient, "SUPPORTED", status).tolist()),
    )
    answers = sorted(set(one.column("answer_id").to_pylist()))
    chosen = pa.array(list(rng.choice(answers, 300, replace=False)))
    human = one.filter(pc.is_in(one.column("answer_id"), chosen))
    for name, table in (("auto", auto), ("human", human), ("truth", one)):
        pq.write_table(table, tmp_path / f"{name}.parquet")
    pq.write_table(units, tmp_path / "u.parquet")
    truth = json.loads(
        run_cli(
            "ledger", tmp_path / "truth.parquet", "--units", tmp_path / "u.parquet", "--json"
        ).stdout
    )
    true_value = truth["corpus"]["micro"]["confirmed_support"]["value"]
    proc = run_cli(
        "ledger", tmp_path / "auto.parquet", "--units", tmp_path / "u.parquet",
        "--human", tmp_path / "human.parquet", "--json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    got = {(p["figure"], p["aggregate"]): p for p in json.loads(proc.stdout)["prediction_powered"]}
    p = got[("confirmed_support", "micro")]
    assert (p["labelled"], p["unlabelled"]) == (300, 1200)
    assert p["ppi"]["low"] <= true_value <= p["ppi"]["high"]
    assert not p["naive_autorater"]["low"] <= true_value <= p["naive_autorater"]["high"]
    assert p["ppi"]["high"] - p["ppi"]["low"] < p["human_only"]["high"] - p["human_only"]["low"]
    text = run_cli(
        "ledger", tmp_path / "auto.parquet", "--units", tmp_path / "u.parquet",
        "--human", tmp_path / "human.parquet",
    ).stdout  # fmt: skip
    assert "corrected by people's on 300 of them (1200 not labelled)" in text
    bad = run_cli(
        "ledger", tmp_path / "auto.parquet", "--units", tmp_path / "u.parquet",
        "--human", tmp_path / "human.parquet", "--by", "model",
    )  # fmt: skip
    assert bad.returncode == 2


@pytest.mark.parametrize("policy", ["paper", "exclude", "unsupported"])
def test_the_fast_autorater_counts_equal_find_factscore_on_the_relabelled_responses(policy):
    """The prediction-powered study draws its autorater fast; the figures must be the slow ones.

    Real human annotations (every label kind, irrelevant sentences and abstentions) and a
    made-up set of every label in every place.
    """
    from claimlab.io import factscore as fs_io
    from claimlab.io.factscore import LabelledResponse, LabelledSentence
    from claimlab.labs.factscore.simulations import AutoraterCounts, simulate_autorater
    from claimlab.metrics.factscore import score_factscore
    from tests.conftest import DATA

    def sentence(relevant, facts):
        return LabelledSentence("s", relevant, tuple(t for t, _ in facts or ()), facts)

    made_up = [
        LabelledResponse(1, "a", (), (sentence(True, (("x", "S"), ("y", "NS"), ("z", "IR"))),)),
        LabelledResponse(2, "b", (), None),
        LabelledResponse(3, "c", (), (sentence(False, None), sentence(True, ()))),
        LabelledResponse(4, "d", (), (sentence(True, (("x", "NS"),) * 5),)),
    ]
    sets = [made_up]
    if (DATA / "factscore").exists():
        sets.append([r for rs in fs_io.load_subjects(DATA / "factscore").values() for r in rs])
    for responses in sets:
        fast = AutoraterCounts(responses, policy=policy)
        for seed in (0, 3, 11):
            slow = score_factscore(
                simulate_autorater(responses, optimism=0.4, pessimism=0.2, seed=seed),
                policy=policy,
                gamma=0,
            )
            n = [r.support.numerator if r.support else 0 for r in slow.responses]
            d = [r.support.denominator if r.support else 0 for r in slow.responses]
            got_n, got_d = fast.counts(optimism=0.4, pessimism=0.2, seed=seed)
            assert got_n.tolist() == n and got_d.tolist() == d


def test_a_ranking_is_a_frozen_record_whose_json_keeps_its_order_of_keys():
    import dataclasses

    from claimlab.metrics.stats.comparisons import Ranking

    m = np.full(40, 10.0)
    out = ranking_stability({"x": (m * 0.9, m), "y": (m * 0.5, m)}, resamples=200, seed=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        out.same_order = 0.0  # type: ignore[misc]
    more = out.with_about(metric="coverage", answers=40)
    assert list(more.to_dict()) == [
        "order", "values", "same_order", "pairs", "resamples", "metric", "answers",
    ]  # fmt: skip
    with pytest.raises(TypeError):
        more.about["metric"] = "x"  # type: ignore[index]
    alone = Ranking(("x",), None, (), 0)
    assert alone.to_dict() == {"order": ["x"], "same_order": None, "pairs": [], "resamples": 0}
