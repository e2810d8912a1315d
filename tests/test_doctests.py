"""The examples in the package's docstrings run and give what they show."""

import doctest
import importlib
import pkgutil

import pytest

import claimlab

MODULES = sorted(m.name for m in pkgutil.walk_packages(claimlab.__path__, "claimlab."))
# each metric module shows its use, the zero-denominator case among them (STYLE habit 9)
METRIC_MODULES = [
    "claimlab.core.ratio",
    "claimlab.metrics.decomposition",
    "claimlab.metrics.sufficiency",
    "claimlab.metrics.factscore",
    "claimlab.metrics.context_budget",
    "claimlab.metrics.citations",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_pass(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"


@pytest.mark.parametrize("name", METRIC_MODULES)
def test_metric_modules_have_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
