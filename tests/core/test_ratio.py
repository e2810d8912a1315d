import pytest

from claimlab.core.ratio import Ratio, macro_mean, micro_sum


@pytest.mark.parametrize(
    ("n", "d", "value", "display"),
    [
        (3, 5, 0.6, "60.0% (3/5)"),  # 3/5 = 0.6
        (0, 0, None, "N/A (0/0)"),
        (0, 5, 0.0, "0.0% (0/5)"),
        (5, 5, 1.0, "100.0% (5/5)"),
        (2, 3, 2 / 3, "66.7% (2/3)"),
        (1, 8, 0.125, "12.5% (1/8)"),
    ],
)
def test_ratio_value_and_display(n, d, value, display):
    r = Ratio(n, d)
    assert r.value == value
    assert r.display == display == str(r)
    assert r.to_dict() == {"numerator": n, "denominator": d, "value": value, "display": display}
    assert Ratio.from_dict(r.to_dict()) == r


@pytest.mark.parametrize(
    ("n", "d", "error"),
    [(-1, 2, ValueError), (3, 2, ValueError), (1.0, 2, TypeError), (True, 2, TypeError)],
)
def test_ratio_rejects_impossible_counts(n, d, error):
    with pytest.raises(error):
        Ratio(n, d)


def test_value_or_makes_the_default_explicit():
    assert Ratio(0, 0).value_or(0.0) == 0.0
    assert Ratio(1, 4).value_or(0.0) == 0.25


def test_ratio_is_frozen():
    with pytest.raises(AttributeError):
        Ratio(1, 2).numerator = 2


def test_micro_sums_counts_and_macro_counts_undefined_items():
    items = [Ratio(1, 2), Ratio(0, 0), Ratio(3, 3)]
    assert micro_sum(items) == Ratio(4, 5)
    m = macro_mean(items)
    assert (m.value, m.defined, m.undefined) == (0.75, 2, 1)  # (0.5 + 1.0) / 2
    assert macro_mean([]).value is None
    assert macro_mean([Ratio(0, 0)]).display == "N/A (0 of 1 items defined)"
