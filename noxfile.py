"""Development sessions for fivehundred.

``nox`` runs the default sessions (lint, typecheck, tests, docs); CI runs exactly
that through ``.ci/run``. ``nox -s bench``, ``nox -s bench_openspiel`` and
``nox -s build`` are opt-in. Sessions use the interpreter nox itself runs under.

Tool versions come from ``[dependency-groups]`` in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nox

nox.needs_version = ">=2025.2.9"  # for nox.project.dependency_groups
nox.options.sessions = ["lint", "typecheck", "tests", "docs"]

ROOT = Path(__file__).parent
PYPROJECT = nox.project.load_toml(ROOT / "pyproject.toml")
TYPECHECK_DIRS = ("src", "tests", "examples")


def group(name: str) -> tuple[str, ...]:
    """Requirements of one PEP 735 dependency group in pyproject.toml."""
    return tuple(nox.project.dependency_groups(PYPROJECT, name))


@nox.session
def lint(session: nox.Session) -> None:
    """Ruff lint and format check."""
    session.install(*group("lint"))
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict over src, tests and examples (those that hold Python files)."""
    session.install("-e", ".", *group("typecheck"))
    targets = [
        name
        for name in TYPECHECK_DIRS
        if (ROOT / name).is_dir() and any((ROOT / name).rglob("*.py"))
    ]
    session.run("mypy", "--strict", *targets)


@nox.session
def tests(session: nox.Session) -> None:
    """pytest + Hypothesis under branch coverage, gated by fail_under in pyproject."""
    session.install("-e", ".", *group("test"))
    session.run("coverage", "erase")
    # pytest's own exit code is kept: 5 ("no tests collected") fails the session.
    session.run("coverage", "run", "-m", "pytest", *session.posargs)
    session.run("coverage", "report")


@nox.session
def docs(session: nox.Session) -> None:
    """Sphinx HTML build; nitpicky, warnings are errors."""
    session.install("-e", ".", *group("docs"))
    shutil.rmtree(ROOT / "docs" / "_build", ignore_errors=True)
    session.run(
        "sphinx-build", "-n", "-W", "--keep-going", "-b", "html", "docs", "docs/_build/html"
    )


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks (opt-in): python -m fivehundred.bench {posargs}."""
    session.install("-e", ".")
    session.run("python", "-m", "fivehundred.bench", *session.posargs)


@nox.session
def bench_openspiel(session: nox.Session) -> None:
    """Benchmarks with open_spiel installed, for the comparison/adapter (opt-in)."""
    session.install("-e", ".", "open_spiel")
    session.run("python", "-m", "fivehundred.bench", *session.posargs)


@nox.session
def build(session: nox.Session) -> None:
    """Build sdist and wheel into dist/ and check them with twine (opt-in)."""
    session.install(*group("build"))
    shutil.rmtree(ROOT / "dist", ignore_errors=True)
    session.run("python", "-m", "build")
    artifacts = sorted(str(path) for path in (ROOT / "dist").iterdir())
    session.run("twine", "check", "--strict", *artifacts)
