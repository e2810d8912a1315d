"""Text from fixtures and files reaches Markdown escaped, and reads as it was written."""

import pytest
from nbconvert.filters.markdown_mistune import markdown2html_mistune as render

from claimlab.core.text import md_code, md_text

HOSTILE = "<img src=x onerror=alert(1)> *bold* demo_file [link](javascript:x) `tick`"


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("demo_candidates.parquet", "<code>demo_candidates.parquet</code>"),  # no stray backslash
        (
            "<img src=x onerror=alert(1)> *b*",
            "<code>&lt;img src=x onerror=alert(1)&gt; *b*</code>",
        ),
        ("a `b` c", "<code>a `b` c</code>"),
        ("`x", "<code>`x</code>"),
        ("line1\nline2 & co", "<code>line1 line2 &amp; co</code>"),
        ("Ürün “X” ร้าน 회의실", "<code>Ürün “X” ร้าน 회의실</code>"),
    ],
)
def test_md_code_is_a_literal_escaped_code_span(text, html):
    assert render(f"see {md_code(text)} here") == f"<p>see {html} here</p>\n"


@pytest.mark.parametrize("wrap", [md_text, md_code], ids=["md_text", "md_code"])
def test_hostile_text_renders_as_text(wrap):
    out = render(wrap(HOSTILE))
    assert "<img" not in out and "<a " not in out and "<em>" not in out and "<strong>" not in out
    assert "alert(1)" in out


def test_md_text_keeps_the_words_as_written():
    out = render(md_text("demo_file *not bold* (a) #1"))
    assert out == "<p>demo_file *not bold* (a) #1</p>\n"


def test_ledger_table_has_a_column_per_group_and_every_count():
    from claimlab.labs.ledger.demo import demo_ledger
    from claimlab.labs.ledger.views import ledger_table
    from claimlab.metrics.ledger import count_ledger, summarise

    cand, units = demo_ledger(40, seed=1)
    counts = count_ledger(cand, units, by="model")
    result = summarise(counts, by="model")
    table = ledger_table(result.groups)
    assert list(table.columns) == ["adds-claims", "drops-hard", "faithful"]
    drops = result.groups["drops-hard"]
    col = table["drops-hard"]
    assert col["answers"] == str(drops.answers)
    assert col["preservation: micro"] == drops.micro["preservation"].display
    assert col["preservation: macro"] == drops.macro["preservation"].display
    assert drops.empty_answers > 0
    assert f"{drops.empty_answers} N/A" in col["preservation: macro"]  # skipped answers: N/A
    assert col["coverage: micro"].endswith(f"/{drops.micro['coverage'].denominator})")


def test_factscore_ledger_table_puts_init_score_beside_the_ledger():
    from claimlab.labs.factscore.ledgers import factscore_beside_ledgers
    from claimlab.labs.factscore.simulations import simulated_subjects
    from claimlab.labs.factscore.views import factscore_ledger_table

    subjects = simulated_subjects()
    table = factscore_ledger_table(*factscore_beside_ledgers(subjects, policy="exclude"))
    assert list(table.columns) == ["thorough", "brief", "abstainer", "silent"]
    thorough = table["thorough"]
    assert thorough["FActScore init_score"] == "70.0"  # 21 of 30 facts in each response
    assert thorough["ledger raw support (macro)"] == "70.0% (mean of 10 defined; 0 N/A)"
    assert thorough["ledger raw support (micro)"] == "70.0% (210/300)"
    assert table["silent"]["FActScore init_score"] == "N/A"
    assert table["silent"]["ledger raw support (micro)"] == "N/A (0/0)"
    assert table["abstainer"]["responding responses"] == "2"
