"""Thai, Korean, Turkish and emoji in figures: drawn with the installed fonts, never as empty boxes.

matplotlib warns "Glyph N (...) missing from font(s) ..." when it draws a character no font of
the style has (an empty box on the page); every test here fails on that warning. The notebooks'
figures are drawn on the shipped Thai fixtures and on Korean versions of them (each Thai letter
written as a Hangul syllable, so every span, id and link still holds).
"""

from __future__ import annotations

import json
import warnings
from contextlib import contextmanager

import matplotlib
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from claimlab.core.ratio import Ratio  # noqa: E402
from claimlab.notebook.style import label, plot_ratios, styled  # noqa: E402
from tests.conftest import FIXTURES  # noqa: E402


@contextmanager
def no_missing_glyph():
    """Fail on any missing-glyph warning raised while drawing inside."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    missing = [str(w.message) for w in caught if "Glyph" in str(w.message)]
    assert missing == [], missing[:3]


def draw(ax):
    """Render the figure (where matplotlib looks glyphs up) and close it."""
    fig = ax.figure
    fig.canvas.draw()
    plt.close(fig)


def korean(value):
    """A fixture's content with every Thai letter written as a Hangul syllable (one UTF-16 unit
    for one, so spans, ids and chain links are kept)."""
    if isinstance(value, str):
        return "".join(
            chr(0xAC00 + ord(c) - 0x0E00) if 0x0E00 <= ord(c) <= 0x0E7F else c for c in value
        )
    if isinstance(value, list):
        return [korean(v) for v in value]
    if isinstance(value, dict):
        return {korean(k): korean(v) for k, v in value.items()}
    return value


def fixture_path(name, script, tmp_path):
    path = FIXTURES / name
    if script == "th":
        return path
    out = tmp_path / name.replace("_th", "_ko")
    out.write_text(
        json.dumps(korean(json.loads(path.read_text("utf-8"))), ensure_ascii=False), "utf-8"
    )
    return out


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings(v)


@styled
def _texts(texts):
    fig, ax = plt.subplots()
    for i, t in enumerate(texts):
        ax.text(0, i, label(t, 80))
    ax.set_ylim(0, max(len(texts), 1))
    return ax


@pytest.mark.parametrize("script", ["th", "ko"])
def test_notebook_01_and_06_figures_on_the_thai_and_korean_decomposition(tmp_path, script):
    from claimlab.io.decomposition import load_decomposition
    from claimlab.labs.decomposition import views
    from claimlab.metrics.decomposition import named_selections, score_decomposition
    from claimlab.metrics.selection import core_select, entity_groups

    fx = load_decomposition(fixture_path("atlas_nova_th.json", script, tmp_path))
    results = {n: score_decomposition(fx, ids) for n, ids in named_selections(fx, "all").items()}
    core = {n: core_select(fx, r.selection) for n, r in results.items()}
    groups = {n: entity_groups(fx, r.selection) for n, r in results.items()}
    first = next(iter(results))
    with no_missing_glyph():
        draw(views.plot_decomposition(results[first], title=fx.original.text[:20]))
        draw(views.plot_mode_comparison(results, title="all"))
        draw(views.plot_decompscore_atomicity(results, title="papers"))
        draw(views.plot_core_coverage(results, core, title="core"))
        draw(views.plot_entity_groups(groups, title="groups"))
        draw(views.plot_versions(results, results, labels=("a", "b"), title="versions"))


@pytest.mark.parametrize("script", ["th", "ko"])
@pytest.mark.parametrize("name", ["aurora_th.json", "library_loans_th.json"])
def test_notebook_02_and_07_figures_on_the_thai_and_korean_sufficiency(tmp_path, name, script):
    from claimlab.io.sufficiency import load_sufficiency
    from claimlab.labs.sufficiency import views
    from claimlab.metrics.selective import risk_coverage, selective_items
    from claimlab.metrics.sufficiency import score_fixture_sufficiency

    fx = load_sufficiency(fixture_path(name, script, tmp_path))
    with no_missing_glyph():
        for s in fx.scenarios.values():
            result = score_fixture_sufficiency(
                fx, s.question, s.context, ignore_metadata=s.ignore_metadata
            )
            draw(views.plot_chains(fx, s.question, result))
        items = selective_items(fx)
        draw(views.plot_risk_coverage(risk_coverage(items, [0.5, 0.9]), title="risk"))


@pytest.mark.parametrize(
    "name",
    ["atlas_nova_th.json", "aurora_th.json", "library_loans_th.json", "atlas_nova.json",
     "leave_policy_tr.json", "raw_subclaims.jsonl"],
)  # fmt: skip
@pytest.mark.parametrize("script", ["th", "ko"])
def test_every_text_of_a_shipped_file_draws_without_an_empty_box(tmp_path, name, script):
    """Every string of the file (Thai, Korean, Turkish, emoji such as a blue book) in a figure."""
    raw = (FIXTURES / name).read_text("utf-8")
    docs = (
        [json.loads(x) for x in raw.splitlines()] if name.endswith("jsonl") else [json.loads(raw)]
    )
    texts = sorted({t for d in docs for t in strings(korean(d) if script == "ko" else d)})
    with no_missing_glyph():
        for start in range(0, len(texts), 60):
            draw(_texts(texts[start : start + 60]))


SCRIPTS = st.sampled_from(
    [
        "ห้องประชุมชั้นสองใช้บัตรสีน้ำเงิน",  # Thai, with its vowels and tone marks
        "파란 카드는 305호로 갑니다",  # Korean
        "Ödünç süresi on dört gündür; İĞÜŞÖÇ ığüşöç",  # Turkish
        "📘 😀 👍 ✔ ★",  # pictographs and emoji
        "Adults pay 5 euros",
    ]
)


@settings(max_examples=15, deadline=None)
@given(parts=st.lists(SCRIPTS, min_size=1, max_size=4), cut=st.integers(1, 40))
def test_any_mix_of_the_seeds_scripts_draws_without_a_missing_glyph(parts, cut):
    """Invariant: a label mixing Thai, Korean, Turkish and emoji never draws an empty box."""
    text = " ".join(parts)[:cut]
    with no_missing_glyph():
        draw(plot_ratios({text: Ratio(1, 2), text[::-1]: Ratio(0, 0)}, title=text))


@settings(max_examples=12, deadline=None)
@given(texts=st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=12))
def test_any_character_is_drawn_or_named_never_an_empty_box(texts):
    """Invariant: a character no installed font has is written as [U+XXXX], so no text of a
    file (private-use, unassigned, a script with no font here) reaches a figure as a box; a
    character a font has is kept as it is."""
    from claimlab.notebook.style import drawable

    with no_missing_glyph():
        draw(_texts(texts))
    for text in texts:
        shown = drawable(text)
        assert all(ch in shown for ch in text if drawable(ch) == ch)


def test_a_figure_in_thai_and_korean_is_drawn_to_the_same_bytes_twice():
    """Deterministic output holds with the fallback fonts (the notebooks' PNG figures)."""
    import io

    def render(fmt):
        ax = plot_ratios({"ห้อง A3": Ratio(1, 2), "305호": Ratio(0, 0)}, title="บัตร · 카드")
        buf = io.BytesIO()
        ax.figure.savefig(
            buf, format=fmt, metadata={"Software": None} if fmt == "png" else {"Date": None}
        )
        plt.close(ax.figure)
        return buf.getvalue()

    assert render("png") == render("png")


def test_the_fallback_list_keeps_its_order_and_only_installed_families():
    from matplotlib import font_manager

    from claimlab.notebook.style import FONT_FALLBACK, font_families

    installed = {f.name for f in font_manager.fontManager.ttflist}
    families = font_families()
    assert families[0] == "DejaVu Sans"
    assert [f for f in FONT_FALLBACK if f in families] == list(families)
    assert all(f in installed for f in families)


SCRIPTS = "abcXYZ019 %/·…ğüşıİÖçสวัสดีครับ한국어문장✓★→😀"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(SCRIPTS), max_size=30) | st.text(max_size=20))
def test_a_text_keeps_the_family_that_draws_each_of_its_characters(text):
    """Invariant: narrowing a text's families never changes which family draws a character
    (for each one, the first family of the full list that has its glyph is kept, in order)."""
    from claimlab.notebook.style import _coverage, families_for

    full = [name for name, _ in _coverage()]
    kept = families_for(text)
    assert kept[0] == full[0] and kept == sorted(kept, key=full.index)
    for ch in text:
        first = next((name for name, points in _coverage() if ord(ch) in points), None)
        assert first is None or first in kept, (ch, first, kept)
        # and no family before that first one in the narrowed list has it either
        for name in kept[: kept.index(first) if first else len(kept)]:
            assert ord(ch) not in dict(_coverage())[name]


def test_a_figure_in_thai_and_korean_is_drawn_with_narrowed_families_and_no_missing_glyph():
    from claimlab.notebook.display import show_figure
    from claimlab.notebook.style import font_families, narrow_fonts

    with no_missing_glyph():
        ax = plot_ratios({"สวัสดี": Ratio(1, 2), "한국어": Ratio(0, 0), "plain": Ratio(3, 4)},
                         title="ภาษาไทย / 한국어")  # fmt: skip
        fig = ax.figure
        show_figure(ax)
    narrowed = {tuple(t.get_fontfamily()) for t in fig.findobj(matplotlib.text.Text)}
    narrow_fonts(fig)  # again: a narrowed text is no longer in the house families, left as is
    assert {tuple(t.get_fontfamily()) for t in fig.findobj(matplotlib.text.Text)} == narrowed
    assert ("DejaVu Sans",) in narrowed and tuple(font_families()) not in narrowed
    assert any(len(f) > 1 for f in narrowed)  # the Thai and Korean texts kept their fonts
