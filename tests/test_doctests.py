"""Every docstring example in analysis/ and kernels/ runs as a test.

Every module whose source holds ``>>>`` is collected (a new one needs no line here). A numba dispatcher
that doctest's finder does not reach is read through its ``py_func``; its examples run against the
compiled dispatcher of the same name.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import analysis
import kernels


def _modules() -> list[str]:
    names = []
    for pkg in (analysis, kernels):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            names.append(info.name)
    return sorted(names)


def _has_examples(name: str) -> bool:
    spec = importlib.util.find_spec(name)
    return spec is not None and spec.origin is not None and ">>>" in Path(spec.origin).read_text(encoding="utf-8")


MODULES = [m for m in _modules() if _has_examples(m)]


def _tests(module) -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder()
    tests = finder.find(module)
    found = {t.name for t in tests}
    for name, value in vars(module).items():
        py_func = getattr(value, "py_func", None)
        qualified = f"{module.__name__}.{name}"
        if py_func is not None and qualified not in found and inspect.getmodule(py_func) is module and py_func.__doc__:
            tests += finder.find(py_func, qualified, module=module, globs=vars(module).copy())
    return [t for t in tests if t.examples]


def test_every_module_with_examples_is_collected():
    assert {"analysis.cards", "analysis.stats", "kernels.bits"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    tests = _tests(module)
    assert tests, f"{name} has '>>>' but no example was found"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for t in tests:
        runner.run(t)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0 and result.failed == 0
