"""Every loader reads with the cyclic garbage collector paused, and leaves it as it found it.

A loader builds many small records that hold no cycle; with the collector running, each pass
walked them all again (a 100,000-candidate decomposition file: 4.2 s to load instead of 1.2 s,
HotpotQA and MuSiQue files of 100,000 questions: 7.6 s instead of 4.2 s, in a notebook or any
caller that is not the ``claimlab`` program). Rule: no collection starts while a loader makes
its records, however low the collector's threshold (a few may start as it enters and leaves
the pause), and the collector is enabled afterwards when it was
before (``reader.bulk_load``).
"""

from __future__ import annotations

import gc
import sys

import pytest

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import scale_inputs as gen  # noqa: E402


def collections_during(call):
    """The generations whose collection started while ``call`` ran (threshold 1: any allocation
    starts one when the collector is on)."""
    started = []

    def seen(phase, info):
        if phase == "start":
            started.append(info["generation"])

    threshold = gc.get_threshold()
    gc.set_threshold(1, 1, 1)
    gc.callbacks.append(seen)
    try:
        call()
    finally:
        gc.callbacks.remove(seen)
        gc.set_threshold(*threshold)
    return started


def cases():
    """Loader name -> (make its input of size n in a folder: the arguments, the loader)."""
    from claimlab.io import context_lab, decomposition, official, ragchecker, raw, sufficiency

    def official_case(key, load):
        return lambda d, n: ((gen.official_files(d, n)[key],), load)

    return {
        "load_decomposition": lambda d, n: (
            (gen.decomposition_file(d, n, 5),),
            decomposition.load_decomposition,
        ),
        "load_sufficiency": lambda d, n: (
            (gen.sufficiency_file(d, n)[0],),
            sufficiency.load_sufficiency,
        ),
        "load_chunks": lambda d, n: ((gen.citation_files(d, n, n)[1],), context_lab.load_chunks),
        "load_answer": lambda d, n: ((gen.citation_files(d, n, n)[0],), context_lab.load_answer),
        "load_raw_answers": lambda d, n: ((gen.raw_answers(d, n),), raw.load_raw_answers),
        "load_checking": lambda d, n: ((gen.rag_file(d, n),), ragchecker.load_checking),
        "load_meta_evaluation": lambda d, n: (
            gen.meta_files(d, n),
            ragchecker.load_meta_evaluation,
        ),
        "load_hotpot_gold": official_case("hotpot_gold", official.load_hotpot_gold),
        "load_hotpot_predictions": official_case("hotpot_pred", official.load_hotpot_predictions),
        "load_musique_gold": official_case("musique_gold", official.load_musique_gold),
        "load_musique_predictions": official_case(
            "musique_pred", official.load_musique_predictions
        ),
    }


NAMES = [
    "load_decomposition", "load_sufficiency", "load_chunks", "load_answer", "load_raw_answers",
    "load_checking", "load_meta_evaluation", "load_hotpot_gold", "load_hotpot_predictions",
    "load_musique_gold", "load_musique_predictions",
]  # fmt: skip


def test_the_check_sees_collections_grow_when_the_collector_runs():
    small = collections_during(lambda: [[i] for i in range(10)])
    assert len(collections_during(lambda: [[i] for i in range(100)])) > len(small) > 0


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("enabled", [True, False])
def test_no_collection_walks_the_records_a_loader_makes(tmp_path, name, enabled):
    """Only the few collections entering and leaving the pause may start, as many for 1,000
    records as for 10 (without the pause: one or more per record made); and the collector is
    left as it was found."""
    counts = []
    for n in (10, 1000):
        (tmp_path / str(n)).mkdir()
        args, load = cases()[name](tmp_path / str(n), n)
        was = gc.isenabled()
        (gc.enable if enabled else gc.disable)()
        try:
            counts.append(len(collections_during(lambda: load(*args))))  # noqa: B023
            assert gc.isenabled() is enabled
        finally:
            (gc.enable if was else gc.disable)()
    assert max(counts) <= 8, counts


def test_every_public_loader_of_the_reader_floor_is_in_the_table():
    """A new ``load_`` function of ``claimlab.io`` joins the rule (or says here why not)."""
    import importlib
    import pkgutil

    import claimlab.io

    # each of these reads through one of the loaders above, or builds no records of its own
    elsewhere = {
        "load_scanned": "one file already scanned by load_sets, inside its pause",
        "load_gold": "FEVER: the pause is inside, around the lines and their records",
        "load_predictions": "FEVER: the pause is inside, around the lines and their records",
        "load_subjects": "a list of names (no records)",
        "load_document": "the parsed JSON: read_decomposition makes its records, in its pause",
        "load_annotated": "its records are read_decomposition's, made in its pause",
        "load_sets": "each file through load_annotated, in worker processes",
        "load_table": "an Arrow table, built in C (no Python records)",
        "load_answers": "a pandas frame of load_table's columns (no Python records)",
        **DECORATED_ONLY,
    }
    found = {}
    for info in pkgutil.iter_modules(claimlab.io.__path__):
        module = importlib.import_module(f"claimlab.io.{info.name}")
        found |= {n: f for n, f in vars(module).items() if n.startswith("load_") and callable(f)}
    assert sorted(set(found) - set(NAMES) - set(elsewhere)) == []
    # the pause is bulk_load used as a decorator: the function it wraps is kept
    assert [n for n in DECORATED_ONLY if not hasattr(found[n], "__wrapped__")] == []


# paused by the same decorator, held to it by its presence (no generated input above)
SHARED = "its input is the shared data"
DECORATED_ONLY = {
    "load_labelled": SHARED,
    "load_factcheck_gpt": SHARED,
    "load_factcheck_revisions": SHARED,
    "load_passages": SHARED,
    "load_wice": SHARED,
    "load_context_lab": "its chunks and answers read by load_chunks' and load_answer's code",
    "load_claims": "RAGChecker's claims, read like load_checking",
    "load_runs": "its input is a run store (SQLite)",
}
