"""Every docstring example in the package runs (STYLE principle 8).

Each module of ``fivehundred`` (found with ``pkgutil.walk_packages``) is a test
case; its doctests must run without a failure. ``__main__`` modules are left
out: importing one would start the command line program.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import fivehundred


def package_modules() -> list[str]:
    names = [fivehundred.__name__]
    for info in pkgutil.walk_packages(fivehundred.__path__, prefix=f"{fivehundred.__name__}."):
        if info.name.rsplit(".", 1)[-1] != "__main__":
            names.append(info.name)
    return sorted(names)


MODULES = package_modules()

#: Modules of the optional extras, and the packages they need (``nox -s adapters`` has them).
OPTIONAL: dict[str, tuple[str, ...]] = {
    "fivehundred.ai.openspiel": ("pyspiel", "numpy"),
    "fivehundred.ai.pettingzoo": ("pettingzoo", "gymnasium", "numpy"),
    "fivehundred.ai.pettingzoo.fivehundred_v1": ("pettingzoo", "gymnasium", "numpy"),
}


def importable(name: str) -> bool:
    """Whether every package a module needs is installed."""
    return all(importlib.util.find_spec(need) is not None for need in OPTIONAL.get(name, ()))


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests_pass(name: str) -> None:
    if not importable(name):
        pytest.skip(f"{name} needs {', '.join(OPTIONAL[name])} (an extra)")
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in finder.find(module, name):
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples failed in {name}"


def test_the_package_has_doctests() -> None:
    """The modules above are really found, and most of them carry examples."""
    assert {"fivehundred", "fivehundred.cards", "fivehundred.engine"} <= set(MODULES)
    attempted = {
        name: doctest.testmod(importlib.import_module(name), verbose=False, report=False).attempted
        for name in MODULES
        if importable(name)
    }
    assert sum(attempted.values()) >= 20, attempted
    assert attempted["fivehundred"] > 0 and attempted["fivehundred.engine"] > 0
