"""The build under test plays exactly as the pure source does, and ``playout`` as ``apply``.

``build_trace`` plays seeded random games under random ``Rules`` and writes
every legal-action list, action, completed trick, end-of-hand state (scores,
hand and game result) and ``playout`` end state as JSON lines. It runs here, on
the ``fivehundred`` under test, and in a child process on the pure ``.py``
source of ``src/``; the two traces must be equal line for line.

- ``nox -s tests``: both sides are the pure source, in two processes with
  different hash seeds: a determinism check.
- ``nox -s tests_compiled`` (``FIVEHUNDRED_TEST_INSTALLED=1``,
  ``FIVEHUNDRED_TEST_COMPILED=1``): this side is the installed compiled wheel,
  so the compiled modules are checked against their own source.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Final

import pytest

import fivehundred as fh
from build_trace import header, trace
from subprocesses import INSTALLED

ROOT: Final = Path(__file__).resolve().parent.parent
SRC: Final = ROOT / "src"
TRACE: Final = Path(__file__).resolve().parent / "build_trace.py"
#: The suite is meant to run on the compiled build (``nox -s tests_compiled``, cibuildwheel).
EXPECT_COMPILED: Final = os.environ.get("FIVEHUNDRED_TEST_COMPILED", "") == "1"
#: One game per seed; about two seconds a side in the pure build.
SEEDS: Final = tuple(range(40))


def compiled_modules() -> list[str]:
    """The modules the compiled build compiles: the mypyc hook's ``include`` in pyproject.toml."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    paths = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]["include"]
    return [".".join(Path(path).relative_to("/src").with_suffix("").parts) for path in paths]


@pytest.fixture(scope="module")
def here() -> list[str]:
    """The trace of the build under test, in this process."""
    return list(trace(SEEDS))


@pytest.fixture(scope="module")
def pure() -> list[str]:
    """The header and trace of the pure source, in a child process (``python -I``)."""
    done = subprocess.run(
        [sys.executable, "-I", str(TRACE), "--pure", *map(str, SEEDS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_no_compiled_module_sits_in_src() -> None:
    """An extension module in src/ would shadow its .py in every ``PYTHONPATH=src`` run."""
    stray = [
        str(path.relative_to(ROOT)) for pattern in ("*.so", "*.pyd") for path in SRC.rglob(pattern)
    ]
    assert stray == [], f"delete {stray}: a compiled build left them (hatch_build.py should)"


def test_the_compiled_module_list_is_not_empty() -> None:
    modules = compiled_modules()
    assert "fivehundred._engine.play" in modules
    assert all(name.startswith("fivehundred.") for name in modules), modules


def test_the_build_under_test_is_the_one_asked_for() -> None:
    """``fh.COMPILED`` and each listed module's file say which build is imported."""
    assert fh.COMPILED is EXPECT_COMPILED
    package = Path(fh.__file__).resolve()
    assert package.is_relative_to(SRC) is not INSTALLED, package
    suffixes = (
        tuple(importlib.machinery.EXTENSION_SUFFIXES)
        if EXPECT_COMPILED
        else tuple(importlib.machinery.SOURCE_SUFFIXES)
    )
    for name in compiled_modules():
        module = importlib.import_module(name)
        assert module.__file__ is not None and module.__file__.endswith(suffixes), (
            name,
            module.__file__,
        )


def test_the_other_side_is_the_pure_source(pure: list[str]) -> None:
    first = json.loads(pure[0])
    assert first == {
        "event": "build",
        "compiled": False,
        "file": str((SRC / "fivehundred" / "__init__.py").resolve()),
    }
    assert json.loads(header())["compiled"] is EXPECT_COMPILED


def test_both_builds_play_the_same_games(here: list[str], pure: list[str]) -> None:
    """Every legal set, action, trick, score, result and playout state, line for line."""
    theirs = pure[1:]
    for number, (ours, pure_line) in enumerate(zip(here, theirs, strict=False)):
        assert ours == pure_line, (
            f"line {number} differs:\n  build under test: {ours[:2000]}\n"
            f"  pure source:      {pure_line[:2000]}"
        )
    assert len(here) == len(theirs)
    events = [json.loads(line)["event"] for line in here]
    assert events.count("game") == len(SEEDS)
    assert events.count("trick") > 10 * len(SEEDS)
    assert {"legal", "action", "deal", "hand over", "result"} <= set(events)


def test_playout_reaches_the_states_apply_reaches(here: list[str]) -> None:
    """``playout`` with the loop's policy ends where ``apply`` did; its fast path replays."""
    lines = [json.loads(line) for line in here]
    by_policy = [line["same"] for line in lines if line["event"] == "playout with the same policy"]
    fast = [line["replays"] for line in lines if line["event"] == "fast playout"]
    assert len(by_policy) == len(fast) >= len(SEEDS)
    assert all(by_policy), by_policy
    assert all(fast), fast
