"""Unit tests of ``metrics/uncertainty.py``, in process, on small hand-made ledgers and results.

Each function is held to its definition: the per-answer parts it builds are written out by
hand, and its intervals, comparisons, rankings and corrected figures must equal those of the
statistics floor (tested on its own) called on those hand-made parts.
"""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from claimlab.core.ratio import Ratio
from claimlab.metrics import uncertainty as U
from claimlab.metrics.stats.comparisons import (
    paired_comparisons,
    ranking_stability,
    rankings_stability,
    with_holm,
)
from claimlab.metrics.stats.intervals import bootstrap_intervals, wilson
from claimlab.metrics.stats.prediction_powered import prediction_powered
from claimlab.metrics.stats.resampling import macro_parts, ratio_parts

COLS = ("faithful", "unique", "covered", "units", "supported_unique", "supported_raw", "raw")
DEFS = {
    "preservation": ("faithful", "unique"),
    "coverage": ("covered", "units"),
    "confirmed_support": ("supported_unique", "unique"),
    "raw_support": ("supported_raw", "raw"),
}
R = 200  # resamples: enough for an interval, quick


def _table(rows):
    """(model, answer, faithful, unique, covered, units, supported_unique, supported_raw, raw).

    The model column is categorical, as the ledger makes it, with a category no row has.
    """
    t = pd.DataFrame(rows, columns=["model", "answer_id", *COLS])
    names = sorted({r[0] for r in rows})
    t["model"] = pd.Categorical(t["model"], categories=[*names, "unused"])
    return t


# two decomposers; B has no row that scores a6 (raw 0) and one for a7 that A lacks
ROWS = [
    ("B", "a2", 1, 2, 1, 3, 1, 1, 2),
    ("A", "a1", 2, 3, 2, 2, 1, 2, 3),
    ("A", "a2", 0, 1, 0, 3, 0, 0, 1),
    ("A", "a3", 3, 3, 1, 1, 3, 3, 4),
    ("B", "a1", 1, 1, 2, 2, 1, 1, 1),
    ("A", "a4", 1, 2, 2, 4, 0, 1, 2),
    ("B", "a3", 2, 4, 0, 1, 2, 2, 4),
    ("A", "a5", 0, 0, 0, 2, 0, 0, 0),  # A scored nothing on a5: every ratio undefined there
    ("B", "a4", 2, 2, 3, 4, 2, 2, 2),
    ("B", "a5", 1, 3, 1, 2, 1, 1, 3),
    ("A", "a6", 2, 2, 1, 1, 1, 2, 2),
    ("B", "a6", 0, 0, 0, 1, 0, 0, 0),
    ("B", "a7", 1, 1, 1, 1, 0, 0, 1),
]


def _by_answer(rows):
    """Each column summed per answer, answers in sorted order (the clusters)."""
    ids = sorted({r[1] for r in rows})
    sums = {a: np.zeros(len(COLS)) for a in ids}
    for r in rows:
        sums[r[1]] += np.array(r[2:], dtype=np.float64)
    return ids, {c: np.array([sums[a][i] for a in ids]) for i, c in enumerate(COLS)}


def _macro_by_answer(rows, metric):
    """Per answer, the sum of its rows' ratios and the number of its rows with a ratio."""
    num, den = (COLS.index(c) for c in DEFS[metric])
    ids = sorted({r[1] for r in rows})
    r_sum, defined = dict.fromkeys(ids, 0.0), dict.fromkeys(ids, 0.0)
    for row in rows:
        n, d = row[2 + num], row[2 + den]
        if d > 0:
            r_sum[row[1]] += n / d
            defined[row[1]] += 1
    return np.array([r_sum[a] for a in ids]), np.array([defined[a] for a in ids])


def _expected_figures(rows):
    _, sums = _by_answer(rows)
    out = {}
    for metric, (num, den) in DEFS.items():
        out[f"micro/{metric}"] = (sums[num], sums[den])
        out[f"macro/{metric}"] = _macro_by_answer(rows, metric)
    return out


def _same_parts(got, expected):
    assert list(got) == list(expected)
    for k in expected:
        for x, y in zip(got[k], expected[k], strict=True):
            assert np.array_equal(x, y), k


def test_ledger_figures_sum_each_answers_rows_in_sorted_answer_order():
    found, figures = U._ledger_figures(_table(ROWS))
    assert list(found) == ["a1", "a2", "a3", "a4", "a5", "a6", "a7"]
    _same_parts(figures, _expected_figures(ROWS))
    # by hand, micro coverage: covered 4, 1, 1, 5, 1, 1, 1 of units 4, 6, 2, 8, 4, 2, 1
    assert figures["micro/coverage"][0].tolist() == [4, 1, 1, 5, 1, 1, 1]
    assert figures["micro/coverage"][1].tolist() == [4, 6, 2, 8, 4, 2, 1]
    # macro preservation of a5: A undefined (0/0), B 1/3; of a6: A 2/2, B undefined
    r, defined = figures["macro/preservation"]
    assert (r[4], defined[4]) == (pytest.approx(1 / 3), 1.0)
    assert (r[5], defined[5]) == (1.0, 1.0)


def test_ledger_intervals_are_the_bootstrap_of_the_per_answer_parts():
    got = U.ledger_intervals(_table(ROWS), level=0.9, resamples=R, seed=3, method="percentile")
    want = bootstrap_intervals(
        _expected_figures(ROWS), level=0.9, resamples=R, seed=3, method="percentile"
    )
    assert got == {tuple(k.split("/")): v for k, v in want.items()}
    assert set(got) == {(a, m) for a in ("micro", "macro") for m in DEFS}
    assert all(iv and iv.clusters == 7 and iv.level == 0.9 for iv in got.values())


@pytest.mark.parametrize("method", ["bca", "percentile"])
def test_group_intervals_equal_separate_calls_for_the_corpus_and_each_group(method):
    """A and B over the same answers share one resampling, C (other answers) has its own;
    every group's intervals are those of a call on its rows alone."""
    same = [r for r in ROWS if r[1] != "a7"] + [("A", "a7", 1, 1, 1, 1, 1, 1, 1)]
    other = [("C", "c1", 1, 2, 1, 2, 1, 1, 2), ("C", "c2", 2, 2, 0, 1, 2, 2, 2)]
    other += [("C", "c3", 0, 1, 1, 1, 0, 0, 1)]
    table = _table(same + other)
    kw = {"level": 0.8, "resamples": R, "seed": 5, "method": method}
    got = U.ledger_group_intervals(table, by_group=True, **kw)
    assert list(got) == [None, "A", "B", "C"]
    assert got[None] == U.ledger_intervals(table, **kw)
    for g in ("A", "B", "C"):
        alone = U.ledger_intervals(table[table["model"] == g], **kw)
        assert got[g] == alone, g
    assert got["C"][("micro", "coverage")].clusters == 3
    assert U.ledger_group_intervals(table, by_group=False, **kw) == {None: got[None]}


def test_groups_on_the_corpus_answers_share_the_corpus_resampling():
    """Both groups have a row for every answer: their intervals come from the one resampling."""
    rows = [r for r in ROWS if r[1] != "a7"] + [("A", "a7", 1, 1, 1, 1, 1, 1, 1)]
    rows.append(("B", "a7", 0, 1, 1, 1, 0, 0, 1))
    table = _table(rows)
    kw = {"level": 0.95, "resamples": R, "seed": 1, "method": "bca"}
    got = U.ledger_group_intervals(table, by_group=True, **kw)
    parts = {f"{i}|{k}": v for i, rs in enumerate([rows, [r for r in rows if r[0] == "A"]])
             for k, v in _expected_figures(rs).items()}  # fmt: skip
    parts.update(
        {f"2|{k}": v for k, v in _expected_figures([r for r in rows if r[0] == "B"]).items()}
    )
    done = bootstrap_intervals(parts, **kw)
    for i, g in enumerate([None, "A", "B"]):
        assert got[g] == {tuple(k.split("/")): done[f"{i}|{k}"] for k in _expected_figures(rows)}


def test_scored_by_group_keeps_every_answer_a_group_was_given():
    groups = U.scored_by_group(_table(ROWS))
    assert sorted(groups) == ["A", "B"]
    assert list(groups["A"].index) == ["a1", "a2", "a3", "a4", "a5", "a6"]  # a5: raw 0, kept
    assert list(groups["B"].index) == ["a2", "a1", "a3", "a4", "a5", "a6", "a7"]  # a6: raw 0
    one = _table([("X", "x", 0, 0, 0, 0, 0, 0, 1), ("X", "y", 0, 0, 0, 0, 0, 0, 0)])
    assert list(U.scored_by_group(one)["X"].index) == ["x", "y"]


def _cell(rows, g, answer, column):
    return next(r for r in rows if r[:2] == (g, answer))[2 + COLS.index(column)]


def _defined_shared(rows, a, b, den):
    """A's answers (in A's order) that B also holds, with the figure defined on both sides."""
    held_b = {r[1] for r in rows if r[0] == b}
    return [
        r[1] for r in rows if r[0] == a and r[1] in held_b
        and _cell(rows, a, r[1], den) > 0 and _cell(rows, b, r[1], den) > 0
    ]  # fmt: skip


def _paired_by_hand(rows, a, b, **kw):
    """Each metric's comparisons on its own pairs, the counts of what it left out by hand."""
    held = {g: [r[1] for r in rows if r[0] == g] for g in (a, b)}
    both = [x for x in held[a] if x in held[b]]
    out = []
    for metric, (num, den) in DEFS.items():
        shared = _defined_shared(rows, a, b, den)
        figures = {}
        for aggregate in ("micro", "macro"):
            sides = []
            for g in (a, b):
                n = np.array([_cell(rows, g, s, num) for s in shared], np.float64)
                d = np.array([_cell(rows, g, s, den) for s in shared], np.float64)
                sides.append(ratio_parts(n, d, aggregate))
            figures[(metric, aggregate)] = tuple(sides)
        only = (len(held[a]) - len(both), len(held[b]) - len(both))
        out += paired_comparisons(
            figures, names=(a, b), only=only, undefined=len(both) - len(shared), **kw
        )
    return out


def test_ledger_comparisons_pair_every_answer_both_were_given_where_the_figure_is_defined():
    kw = {"level": 0.9, "resamples": R, "permutations": R, "seed": 2}
    got = U.ledger_comparisons(_table(ROWS), [("A", "B")], **kw)
    assert got == with_holm(_paired_by_hand(ROWS, "A", "B", **kw))
    counts = {(c.metric, c.shared, c.only_a, c.only_b, c.undefined) for c in got}
    # a5 (A produced nothing) and a6 (B produced nothing) pair for coverage (0 of their units)
    # and are left out, as N/A on one side, of the three figures over candidates; a7 only B
    assert counts == {
        ("coverage", 6, 0, 1, 0),
        ("preservation", 4, 0, 1, 2),
        ("confirmed_support", 4, 0, 1, 2),
        ("raw_support", 4, 0, 1, 2),
    }
    back = U.ledger_comparisons(_table(ROWS), [("B", "A")], **kw)
    assert {(c.a, c.b, c.only_a, c.only_b) for c in back} == {("B", "A", 1, 0)}


def test_holm_runs_over_every_pair_at_once():
    rows = ROWS + [("C", r[1], *r[2:]) for r in ROWS if r[0] == "A"]
    kw = {"resamples": R, "permutations": R, "seed": 0}
    both = U.ledger_comparisons(_table(rows), [("A", "B"), ("B", "C")], **kw)
    raw = [*_paired_by_hand(rows, "A", "B", **kw), *_paired_by_hand(rows, "B", "C", **kw)]
    assert both == with_holm(raw) and len(both) == 16


@pytest.mark.parametrize(("pair", "named"), [(("A", "Z"), "'Z'"), (("Z", "B"), "'Z'")])
def test_an_unknown_group_is_refused_naming_the_known_ones(pair, named):
    with pytest.raises(KeyError, match=f"no group {named} in the ledger \\(groups: A, B\\)"):
        U.ledger_comparisons(_table(ROWS), [pair], resamples=R, permutations=R)
    with pytest.raises(KeyError, match=r"\(groups: none\)"):
        U.ledger_comparisons(_table([]), [("A", "B")], resamples=R, permutations=R)


# ------------------------------------------------------------------------------ FActScore


def _response(topic, score, init, support, responded=True):
    return SimpleNamespace(
        topic=topic, score=score, init_score=init, support=support, responded=responded
    )


def _result(*responses):
    return SimpleNamespace(responses=list(responses))


FS = _result(
    _response("Ada", 0.5, 0.6, Ratio(3, 5)),
    _response("Bo", None, None, None, responded=False),
    _response("Ada", 1.0, 1.0, Ratio(2, 2)),
    _response("Cy", 0.25, 0.3, Ratio(1, 4)),
    _response("Ada", 0.0, 0.0, Ratio(0, 1)),
)


FS_FIGURES = ("factscore", "init_score", "micro_precision", "respond_ratio")  # in order


def test_prompt_keys_number_a_repeated_topic_from_its_second_time():
    assert U._prompt_keys(FS) == ["Ada", "Bo", "Ada #2", "Cy", "Ada #3"]
    assert U._prompt_keys(_result()) == []


def test_factscore_parts_by_prompt():
    parts = U.factscore_parts(FS)
    want = {
        "factscore": ([0.5, 0.0, 1.0, 0.25, 0.0], [1, 0, 1, 1, 1]),
        "init_score": ([0.6, 0.0, 1.0, 0.3, 0.0], [1, 0, 1, 1, 1]),
        "micro_precision": ([3, 0, 2, 1, 0], [5, 0, 2, 4, 1]),
        "respond_ratio": ([1, 0, 1, 1, 1], [1, 1, 1, 1, 1]),
    }
    assert list(parts) == list(want)
    for k, (a, b) in want.items():
        assert parts[k][0].tolist() == a and parts[k][1].tolist() == b, k
        assert parts[k][0].dtype == np.float64 and parts[k][1].dtype == np.float64


def test_a_score_without_an_init_score_is_left_out_of_the_mean():
    """Only a prompt with an init score is defined; its score counts, else nothing does."""
    odd = _result(_response("A", 0.7, None, Ratio(1, 2)), _response("B", None, 0.4, Ratio(0, 0)))
    parts = U.factscore_parts(odd)
    assert parts["factscore"][0].tolist() == [0.0, 0.0] and parts["factscore"][1].tolist() == [0, 1]
    assert parts["init_score"][0].tolist() == [0.0, 0.4]
    assert parts["micro_precision"][1].tolist() == [2, 0]


def test_factscore_intervals_bootstrap_the_prompts_and_wilson_the_respond_ratio():
    got = U.factscore_intervals(FS, level=0.9, resamples=R, seed=4, method="percentile")
    parts = U.factscore_parts(FS)
    parts.pop("respond_ratio")
    want = dict(bootstrap_intervals(parts, level=0.9, resamples=R, seed=4, method="percentile"))
    assert list(got) == [*FS_FIGURES[:3], "respond_ratio"]
    assert {k: got[k] for k in want} == want
    assert got["respond_ratio"] == wilson(4, 5, 0.9)


def test_aligned_parts_keep_the_first_results_order_of_the_shared_prompts():
    other = _result(
        _response("Cy", 0.5, 0.5, Ratio(1, 2)),
        _response("Ada", 0.2, 0.2, Ratio(1, 5)),
        _response("Dee", 1.0, 1.0, Ratio(1, 1)),
        _response("Ada", 0.4, 0.4, Ratio(2, 5)),
    )
    shared, parts = U.aligned_parts({"x": FS, "y": other}, ["x", "y"])
    assert shared == ["Ada", "Ada #2", "Cy"]
    assert parts["x"]["factscore"][0].tolist() == [0.5, 1.0, 0.25]
    assert parts["y"]["factscore"][0].tolist() == [0.2, 0.4, 0.5]
    assert parts["y"]["micro_precision"][1].tolist() == [5, 5, 2]
    back, _ = U.aligned_parts({"x": FS, "y": other}, ["y", "x"])
    assert back == ["Cy", "Ada", "Ada #2"]
    alone, _ = U.aligned_parts({"x": FS}, ["x"])
    assert alone == ["Ada", "Bo", "Ada #2", "Cy", "Ada #3"]


def test_factscore_comparisons_on_shared_prompts_macro_scores_micro_precision():
    other = _result(
        _response("Ada", 0.2, 0.3, Ratio(1, 5)),
        _response("Cy", 0.5, 0.5, Ratio(1, 2)),
        _response("Eve", 1.0, 1.0, Ratio(1, 1)),
        _response("Bo", 0.9, 0.9, Ratio(9, 10)),
        _response("Ada", 0.4, 0.4, Ratio(2, 5)),
        _response("Ada", 0.1, 0.1, Ratio(1, 9)),
    )
    results = {"x": FS, "y": other}
    kw = {"level": 0.9, "resamples": R, "permutations": R, "seed": 6}
    got = U.factscore_comparisons(results, [("x", "y")], **kw)
    shared, parts = U.aligned_parts(results, ["x", "y"])
    assert len(shared) == 5
    aggregates = {"factscore": "macro", "init_score": "macro", "micro_precision": "micro",
                  "respond_ratio": "micro"}  # fmt: skip
    figures = {(f, aggregates[f]): (parts["x"][f], parts["y"][f]) for f in FS_FIGURES}
    want = with_holm(paired_comparisons(figures, names=("x", "y"), only=(0, 1), **kw))
    assert got == want
    assert [(c.metric, c.aggregate) for c in got] == list(figures)
    assert {(c.shared, c.only_a, c.only_b) for c in got} == {(5, 0, 1)}


def test_factscore_ranking_resamples_the_prompts_every_subject_has():
    other = _result(_response("Ada", 0.9, 0.9, Ratio(9, 10)), _response("Cy", 0.1, 0.1, Ratio(1, 9)),
                    _response("Ada", 0.8, 0.8, Ratio(4, 5)))  # fmt: skip
    results = {"x": FS, "y": other}
    got = U.factscore_ranking(results, figure="init_score", resamples=R, seed=8)
    _, parts = U.aligned_parts(results, ["x", "y"])
    want = ranking_stability({n: parts[n]["init_score"] for n in ("x", "y")}, resamples=R, seed=8)
    assert got == want.with_about(prompts=3, figure="init_score")
    assert dict(got.about) == {"prompts": 3, "figure": "init_score"}


# ------------------------------------------------------------------------------ rankings


def test_ledger_rankings_resample_the_answers_every_decomposer_was_given():
    rows = ROWS + [("C", r[1], *r[2:]) for r in ROWS if r[0] == "B" and r[1] != "a3"]
    table = _table(rows)
    # A's order of the answers A, B and C all hold (a3 is not C's), the figure defined for all
    shared = {"coverage": ["a1", "a2", "a4", "a5", "a6"], "raw_support": ["a1", "a2", "a4"]}
    got = U.ledger_rankings(table, metrics=("coverage", "raw_support"), aggregate="macro",
                            resamples=R, seed=9)  # fmt: skip
    want = []
    for metric in ("coverage", "raw_support"):
        num, den = DEFS[metric]
        figure = {
            g: macro_parts(
                np.array([_cell(rows, g, s, num) for s in shared[metric]], np.float64),
                np.array([_cell(rows, g, s, den) for s in shared[metric]], np.float64),
            )
            for g in ("A", "B", "C")
        }
        one = rankings_stability({metric: figure}, resamples=R, seed=9)[metric]
        want.append(one.with_about(metric=metric, aggregate="macro", answers=len(shared[metric])))
    assert got == want
    one = U.ledger_ranking(table, metric="raw_support", aggregate="macro", resamples=R, seed=9)
    assert one == got[1]


def test_one_decomposer_has_no_ranking():
    table = _table([r for r in ROWS if r[0] == "A"])
    got = U.ledger_rankings(table, metrics=("coverage", "preservation"), resamples=R)
    assert [(r.order, r.same_order, r.pairs, r.resamples) for r in got] == [
        (("A",), None, (), 0)
    ] * 2
    assert [dict(r.about) for r in got] == [{"metric": "coverage"}, {"metric": "preservation"}]
    assert U.ledger_ranking(table, resamples=R).about["metric"] == "coverage"


# ------------------------------------------------------------------------------ prediction-powered


def test_ledger_prediction_powered_corrects_with_the_answers_people_labelled():
    auto_rows = [("M", f"a{k}", k % 3, 3, k % 4, 4, k % 2, k % 3, 3) for k in range(8)]
    people = {"a1": (0, 3, 1, 4, 0, 0, 1), "a2": (1, 3, 2, 4, 1, 1, 3), "a5": (2, 3, 3, 4, 1, 2, 3),
              "a6": (1, 3, 0, 4, 0, 1, 3), "a7": (3, 3, 3, 4, 3, 3, 0)}  # fmt: skip
    human = _table([("M", a, *v) for a, v in reversed(people.items())])  # order does not matter
    got = U.ledger_prediction_powered(_table(auto_rows), human, level=0.8)
    labelled = np.array([a in people and people[a][-1] > 0 for a in (r[1] for r in auto_rows)])
    assert labelled.tolist() == [False, True, True, False, False, True, True, False]  # a7: raw 0
    want = []
    for metric, (num, den) in DEFS.items():
        i, j = COLS.index(num), COLS.index(den)
        an = np.array([r[2 + i] for r in auto_rows], np.float64)
        ad = np.array([r[2 + j] for r in auto_rows], np.float64)
        hn = np.array([people.get(r[1], (0,) * 7)[i] for r in auto_rows], np.float64)
        hd = np.array([people.get(r[1], (0,) * 7)[j] for r in auto_rows], np.float64)
        for aggregate in ("micro", "macro"):
            want.append(prediction_powered((an, ad), (hn, hd), labelled, figure=metric,
                                           aggregate=aggregate, level=0.8))  # fmt: skip
    assert got == want and len(got) == 8
    assert U.ledger_prediction_powered(_table(auto_rows), human) == U.ledger_prediction_powered(
        _table(auto_rows), human, level=0.95
    )  # the default level


# ------------------------------------------------------------------------------ defaults


def _noisy(seed=0, answers=30):
    """Two decomposers close enough that resampling changes their order now and then."""
    rng = np.random.default_rng(seed)
    rows = []
    for k in range(answers):
        for m in ("A", "B"):
            units = int(rng.integers(1, 6))
            unique = int(rng.integers(1, 6))
            rows.append((m, f"a{k:02d}", int(rng.integers(0, unique + 1)), unique,
                         int(rng.integers(0, units + 1)), units, int(rng.integers(0, unique + 1)),
                         int(rng.integers(0, unique + 1)), unique))  # fmt: skip
    return _table(rows)


def test_the_ledgers_defaults_are_95_percent_2000_resamples_seed_0_and_bca():
    t = _noisy()
    explicit = {"level": 0.95, "resamples": 2000, "seed": 0, "method": "bca"}
    assert U.ledger_intervals(t) == U.ledger_intervals(t, **explicit)
    assert U.ledger_group_intervals(t, by_group=True) == U.ledger_group_intervals(
        t, by_group=True, **explicit
    )
    pair = [("A", "B")]
    assert U.ledger_comparisons(t, pair) == U.ledger_comparisons(
        t, pair, level=0.95, resamples=2000, permutations=2000, seed=0
    )
    assert U.ledger_rankings(t) == U.ledger_rankings(
        t, metrics=tuple(DEFS), aggregate="micro", resamples=2000, seed=0
    )
    assert U.ledger_ranking(t) == U.ledger_rankings(t, metrics=("coverage",))[0]


def test_factscores_defaults_are_95_percent_2000_resamples_seed_0_and_bca():
    results = {"x": FS, "y": _result(*reversed(FS.responses))}
    assert U.factscore_intervals(FS) == U.factscore_intervals(
        FS, level=0.95, resamples=2000, seed=0, method="bca"
    )
    pair = [("x", "y")]
    assert U.factscore_comparisons(results, pair) == U.factscore_comparisons(
        results, pair, level=0.95, resamples=2000, permutations=2000, seed=0
    )
    assert U.factscore_ranking(results) == U.factscore_ranking(
        results, figure="factscore", resamples=2000, seed=0
    )


def test_a_ranking_of_close_decomposers_depends_on_its_seed_and_one_metric_is_one_of_many():
    t = _noisy(1)
    one = U.ledger_ranking(t, metric="preservation", aggregate="macro", resamples=R, seed=9)
    many = U.ledger_rankings(t, metrics=("coverage", "preservation"), aggregate="macro",
                             resamples=R, seed=9)  # fmt: skip
    assert one == many[1]
    assert one != U.ledger_ranking(t, metric="preservation", aggregate="macro", resamples=R, seed=0)
    assert 0 < one.same_order < 1


def test_factscore_comparisons_of_several_pairs_are_all_kept_and_holm_adjusted_together():
    y = _result(*reversed(FS.responses))
    z = _result(*FS.responses[:3])
    results = {"x": FS, "y": y, "z": z}
    kw = {"resamples": R, "permutations": R, "seed": 1}
    got = U.factscore_comparisons(results, [("x", "y"), ("x", "z")], **kw)
    one = U.factscore_comparisons(results, [("x", "y")], **kw)
    two = U.factscore_comparisons(results, [("x", "z")], **kw)
    assert len(got) == 8
    strip = [c.__class__(**{**c.__dict__, "p_adjusted": None}) for c in got]
    assert strip == [c.__class__(**{**c.__dict__, "p_adjusted": None}) for c in one + two]
    assert [c.p_adjusted for c in got] == [c.p_adjusted for c in with_holm(got)]


def test_results_without_a_shared_prompt_align_to_nothing():
    other = _result(_response("Zed", 0.5, 0.5, Ratio(1, 2)))
    shared, parts = U.aligned_parts({"x": FS, "y": other}, ["x", "y"])
    assert shared == []
    assert all(len(a) == len(b) == 0 for p in parts.values() for a, b in p.values())


def test_rankings_draw_the_answers_by_their_values_not_their_ids_or_rows():
    """The answers are drawn in the order of their values: the same seed draws the same
    answers however the ledger was sorted and whatever its answers are called."""
    t = _noisy(1)
    a, b = t[t["model"] == "A"].iloc[::-1], t[t["model"] == "B"]  # A: a29 ... a00, B: a00 ...
    reversed_rows = pd.concat([a, b], ignore_index=True)
    renamed = t.assign(answer_id=t["answer_id"].map(lambda x: f"ответ-{99 - int(x[1:])}"))
    got = U.ledger_rankings(t, metrics=("coverage",), aggregate="macro", resamples=R, seed=4)
    for other in (reversed_rows, renamed):
        again = U.ledger_rankings(other, metrics=("coverage",), aggregate="macro", resamples=R,
                                  seed=4)  # fmt: skip
        assert again == got
    groups = U.scored_by_group(t)
    order = list(groups["A"].index)
    parts = {g: macro_parts(groups[g].loc[order, "covered"].to_numpy(np.float64),
                            groups[g].loc[order, "units"].to_numpy(np.float64))
             for g in ("A", "B")}  # fmt: skip
    want = rankings_stability({"coverage": parts}, resamples=R, seed=4)["coverage"]
    assert got == [want.with_about(metric="coverage", aggregate="macro", answers=30)]
    assert got[0].same_order == 0.665  # 0.675 in sorted order of ids, 0.63 in rows
