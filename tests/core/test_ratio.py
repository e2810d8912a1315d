import pytest
from hypothesis import given
from hypothesis import strategies as st

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


@pytest.mark.parametrize(
    ("a", "b", "total"),
    [
        ((1, 2), (3, 4), (4, 6)),  # micro: counts add, values do not average
        ((0, 0), (2, 5), (2, 5)),  # an undefined ratio adds nothing
        ((0, 0), (0, 0), (0, 0)),  # still N/A
        ((5, 5), (0, 3), (5, 8)),
    ],
)
def test_adding_ratios_adds_their_counts(a, b, total):
    s = Ratio(*a) + Ratio(*b)
    assert (s.numerator, s.denominator) == total
    assert s == micro_sum([Ratio(*a), Ratio(*b)])
    assert Ratio(*b) + Ratio(*a) == s  # order does not matter


def test_adding_something_else_is_not_a_ratio():
    assert Ratio(1, 2).__add__(3) is NotImplemented
    with pytest.raises(TypeError):
        Ratio(1, 2) + 3  # noqa: B018


@pytest.mark.parametrize(
    ("n", "d", "defined"), [(0, 0, False), (0, 1, True), (1, 1, True), (3, 7, True)]
)
def test_defined_means_a_denominator(n, d, defined):
    assert Ratio(n, d).defined is defined


@pytest.mark.parametrize(
    ("ratios", "value", "defined", "undefined", "display"),
    [
        ([Ratio(1, 2), Ratio(0, 0), Ratio(1, 1)], 0.75, 2, 1, "75.0% (mean of 2 defined; 1 N/A)"),
        ([Ratio(1, 4)], 0.25, 1, 0, "25.0% (mean of 1 defined; 0 N/A)"),
        ([Ratio(0, 0), Ratio(0, 0)], None, 0, 2, "N/A (0 of 2 items defined)"),
        ([], None, 0, 0, "N/A (0 of 0 items defined)"),
        ([Ratio(0, 3), Ratio(3, 3)], 0.5, 2, 0, "50.0% (mean of 2 defined; 0 N/A)"),
    ],
)
def test_macro_mean_of_defined_values(ratios, value, defined, undefined, display):
    m = macro_mean(ratios)
    assert (m.value, m.defined, m.undefined) == (value, defined, undefined)
    assert m.display == display == str(m)
    assert m.to_dict() == {
        "value": value,
        "defined": defined,
        "undefined": undefined,
        "display": display,
    }


@pytest.mark.parametrize(
    ("value", "unit", "shown"),
    [(0.7636, "", "76.4"), (None, "", "N/A"), (None, "%", "N/A"), (0.5, "%", "50.0%"),
     (0.0, "", "0.0"), (1.0, " pp", "100.0 pp")],
)  # fmt: skip
def test_percent_shows_one_decimal_or_na(value, unit, shown):
    from claimlab.core.ratio import percent

    assert percent(value, unit) == shown
    if not unit:
        assert percent(value) == shown  # no unit unless asked for


@pytest.mark.parametrize(
    ("n", "d", "error", "message"),
    [
        (-1, 2, ValueError, "Ratio.numerator must be >= 0, got -1"),
        (0, -1, ValueError, "Ratio.denominator must be >= 0, got -1"),
        (3, 2, ValueError, "Ratio numerator 3 exceeds denominator 2"),
        (1.0, 2, TypeError, "Ratio.numerator must be an int, got 1.0"),
        (1, "2", TypeError, "Ratio.denominator must be an int, got '2'"),
        (False, 2, TypeError, "Ratio.numerator must be an int, got False"),
    ],
)
def test_impossible_counts_are_named(n, d, error, message):
    with pytest.raises(error) as info:
        Ratio(n, d)
    assert str(info.value) == message


def test_a_ratio_of_equal_counts_is_allowed():
    assert Ratio(2, 2).value == 1.0 and Ratio(0, 0).value is None


@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=40), st.randoms())
def test_a_macro_mean_is_the_same_to_the_last_digit_in_any_order(pairs, rnd):
    ratios = [Ratio(min(n, d), d) for n, d in pairs]
    shuffled = list(ratios)
    rnd.shuffle(shuffled)
    assert macro_mean(shuffled) == macro_mean(ratios)


@given(st.integers(0, 10**7), st.integers(1, 10**7))
def test_a_share_shown_as_all_or_none_is_all_or_none(n, d):
    """100.0% is shown only for d of d, 0.0% only for 0 of d (1999/2000 is 99.95%, not 100.0%);
    the display and the JSON form agree."""
    n = min(n, d)
    shown = Ratio(n, d).display
    assert shown == Ratio(n, d).to_dict()["display"]
    assert shown.startswith("100.0%") == (n == d)
    assert shown.startswith("0.0%") == (n == 0)
