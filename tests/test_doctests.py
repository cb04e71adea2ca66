"""The docstring examples of the analysis layer run as tests."""

import doctest
import importlib

import pytest

MODULES = ["analysis.cards", "analysis.stats"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
