"""``claimlab.metrics.diff``: the changes between two runs, grouped, counted and weighed."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.io.ragchecker import RagQuery
from claimlab.metrics.diff import Unit, diff_runs, move
from claimlab.metrics.rag import RATIO_METRICS, rag_units, score_rag


def unit(item, key, entailed, kind="claim"):
    return Unit(item, kind, key, f"text of {key}", {"entailed": entailed},
                {"recall": (int(entailed), 1)})  # fmt: skip


@pytest.mark.parametrize(
    ("name", "before", "after", "want"),
    [
        ("entailed", True, False, "entailed: yes -> no"),
        ("status", "SUPPORTED", "CONTRADICTED", "status: SUPPORTED -> CONTRADICTED"),
        ("covered", 5, 4, "covered fell"),
        ("covered", 4, 5, "covered rose"),
        ("chunks", ("d1",), (), "chunks: some -> none"),
        ("chunks", (), ("d1",), "chunks: none -> some"),
        ("chunks", ("d1",), ("d2",), "chunks: changed"),
    ],
)
def test_each_kind_of_label_moves_in_words(name, before, after, want):
    assert move(name, before, after) == want


def test_a_group_is_weighed_by_the_figure_with_only_its_changes_applied():
    a = [
        unit("q1", "c1", True),
        unit("q1", "c2", True),
        unit("q2", "c3", False),
        unit("q2", "c4", True),
    ]
    b = [
        unit("q1", "c1", False),
        unit("q1", "c2", False),
        unit("q2", "c3", True),
        unit("q2", "c4", True),
    ]
    d = diff_runs(a, b, figure="recall")
    # recall 3/4 before; losing c1 and c2 alone gives 1/4: a drop of 50 points; c3 alone 4/4
    assert [(g.name, g.count, g.items, g.effect) for g in d.groups] == [
        ("claim: entailed: yes -> no", 2, 1, 0.5),
        ("claim: entailed: no -> yes", 1, 1, -0.25),
    ]
    assert (d.before.counts, d.after.counts, d.changed, d.matched) == ("3/4", "2/4", 3, 4)


def test_a_unit_only_one_run_holds_is_a_change_and_an_empty_figure_has_no_effect():
    d = diff_runs([unit("q1", "c1", True)], [unit("q9", "c9", True)], figure="recall")
    assert sorted((g.name, g.count) for g in d.groups) == [
        ("claim: only in run A", 1), ("claim: only in run B", 1)]  # fmt: skip
    assert diff_runs([], [unit("q", "c", True)], figure="recall").groups[0].effect is None


def test_two_units_named_alike_are_refused():
    with pytest.raises(ValueError, match="two units named q1 / claim / c1"):
        diff_runs([unit("q1", "c1", True), unit("q1", "c1", False)], [], figure="recall")


# --- properties -----------------------------------------------------------------------------


@st.composite
def rag_queries(draw):
    """Small RAGChecker queries with labels drawn at random."""
    queries = []
    for i in range(draw(st.integers(1, 5))):
        nr, ng, nk = (draw(st.integers(0, 4)) for _ in range(3))
        row = st.lists(st.booleans(), min_size=nk, max_size=nk).map(tuple)
        queries.append(RagQuery(
            f"q{i}", "", tuple(f"r{j}" for j in range(nr)), tuple(f"g{j}" for j in range(ng)),
            tuple((f"d{k}", "") for k in range(nk)),
            tuple(draw(st.lists(st.booleans(), min_size=nr, max_size=nr))),
            tuple(draw(st.lists(st.booleans(), min_size=ng, max_size=ng))),
            tuple(draw(row) for _ in range(nr)), tuple(draw(row) for _ in range(ng)), {},
        ))  # fmt: skip
    return queries


def flip(queries, seed, share=0.3):
    """Each claim's entailment flipped with probability ``share``; the flipped claims named."""
    import dataclasses

    rng, out, flipped = random.Random(seed), [], set()
    for q in queries:
        correct, recalled = list(q.correct), list(q.recalled)
        for side, labels, texts in (("response claim", correct, q.response_claims),
                                    ("ground-truth claim", recalled, q.answer_claims)):  # fmt: skip
            for j in range(len(labels)):
                if rng.random() < share:
                    labels[j] = not labels[j]
                    flipped.add((q.query_id, side, texts[j]))
        out.append(dataclasses.replace(q, correct=tuple(correct), recalled=tuple(recalled)))
    return out, flipped


@settings(max_examples=60, deadline=None)
@given(rag_queries(), st.sampled_from(RATIO_METRICS))
def test_a_run_compared_with_itself_has_no_change(queries, figure):
    units = rag_units(queries)
    d = diff_runs(units, units, figure=figure)
    assert d.groups == () and d.changed == 0 and d.matched == len(units)


@settings(max_examples=60, deadline=None)
@given(rag_queries(), st.integers(0, 10_000))
def test_the_diff_counts_exactly_the_changes_generated(queries, seed):
    changed, flipped = flip(queries, seed)
    d = diff_runs(rag_units(queries), rag_units(changed), figure="recall")
    found = {(c.item, c.kind, c.text) for g in d.groups for c in g.changes}
    assert found == flipped and d.changed == len(flipped)


@settings(max_examples=60, deadline=None)
@given(rag_queries(), st.integers(0, 10_000), st.sampled_from(RATIO_METRICS))
def test_renaming_ids_never_changes_a_diffs_counts_or_effects(queries, seed, figure):
    import dataclasses

    changed, _ = flip(queries, seed)

    def renamed(qs):
        return [dataclasses.replace(q, query_id=f"renamed-{q.query_id[::-1]}") for q in qs]

    d = diff_runs(rag_units(queries), rag_units(changed), figure=figure)
    r = diff_runs(rag_units(renamed(queries)), rag_units(renamed(changed)), figure=figure)
    assert [(g.name, g.count, g.items, g.effect) for g in d.groups] == [
        (g.name, g.count, g.items, g.effect) for g in r.groups
    ]


@settings(max_examples=60, deadline=None)
@given(rag_queries())
def test_the_claims_shares_sum_to_the_reports_micro_counts(queries):
    from claimlab.io.ragchecker import RagChecking

    report = score_rag(RagChecking("f", tuple(queries), {}))
    units = rag_units(queries)
    for m in RATIO_METRICS:
        num = sum(u.counts.get(m, (0, 0))[0] for u in units)
        den = sum(u.counts.get(m, (0, 0))[1] for u in units)
        assert (num, den) == (report.micro[m].numerator, report.micro[m].denominator), m


@settings(max_examples=60, deadline=None)
@given(rag_queries(), st.integers(0, 10_000), st.sampled_from(RATIO_METRICS))
def test_the_groups_effects_add_up_to_the_figures_drop(queries, seed, figure):
    """Flipping entailments keeps every denominator: the groups' effects sum to the drop."""
    changed, _ = flip(queries, seed)
    d = diff_runs(rag_units(queries), rag_units(changed), figure=figure)
    if d.drop is None:
        assert all(g.effect is None for g in d.groups)
    else:
        assert sum(g.effect for g in d.groups) == pytest.approx(d.drop, abs=1e-12)
