"""Development sessions for fivehundred.

``nox`` runs the default sessions (lint, typecheck, tests, docs); CI runs exactly
that through ``.ci/run``. ``nox -s bench``, ``nox -s bench_openspiel``,
``nox -s build`` and ``nox -s fuzz`` are opt-in. Sessions use the interpreter nox
itself runs under.

Tool versions come from ``[dependency-groups]`` in pyproject.toml.
"""

from __future__ import annotations

import shutil
import tarfile
import zipfile
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
def fuzz(session: nox.Session) -> None:
    """The long fuzz run (opt-in): every parser and loader, 13,000 examples per test.

    ``tests/test_fuzz.py`` has 8 tests, so over 100,000 examples in all; the
    count per test can be changed with ``nox -s fuzz -- 20000``.
    """
    session.install("-e", ".", *group("test"))
    examples = session.posargs[0] if session.posargs else "13000"
    session.run(
        "pytest",
        "tests/test_fuzz.py",
        "-p",
        "no:cacheprovider",
        "--hypothesis-show-statistics",
        "--durations=0",
        env={"FIVEHUNDRED_FUZZ_EXAMPLES": examples},
    )


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks (opt-in): python -m fivehundred.bench {posargs}.

    Prints every figure (median of interleaved rounds) and the targets of the
    build installed (``fivehundred.COMPILED``); without open_spiel the euchre
    side is skipped. ``nox -s bench -- --seconds 0.5 --rounds 9 --json``.
    """
    session.install("-e", ".")
    session.run("python", "-m", "fivehundred.bench", *session.posargs)


@nox.session
def bench_openspiel(session: nox.Session) -> None:
    """Benchmarks beside OpenSpiel's euchre, measured in the same rounds (opt-in).

    As ``bench``, with open_spiel installed, so every ratio to euchre is printed.
    """
    session.install("-e", ".", "open_spiel")
    session.run("python", "-m", "fivehundred.bench", *session.posargs)


@nox.session
def build(session: nox.Session) -> None:
    """Build sdist and wheel into dist/ and check them (opt-in).

    ``python -m build`` makes the sdist and then the wheel from it (so the sdist
    is known to build). ``twine check --strict`` checks the metadata and that the
    README renders as the PyPI long description. The wheel must ship
    ``py.typed`` and the console script; the sdist must hold the docs, the
    examples and the tests.
    """
    session.install(*group("build"))
    dist = ROOT / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    session.run("python", "-m", "build")
    artifacts = sorted(dist.iterdir())
    session.run("twine", "check", "--strict", *map(str, artifacts))
    wheels = [path for path in artifacts if path.suffix == ".whl"]
    sdists = [path for path in artifacts if path.name.endswith(".tar.gz")]
    if len(wheels) != 1 or len(sdists) != 1:
        session.error(f"expected one wheel and one sdist in dist/, found {artifacts}")
    with zipfile.ZipFile(wheels[0]) as wheel:
        names = set(wheel.namelist())
        scripts = next(
            (wheel.read(n).decode() for n in names if n.endswith("entry_points.txt")), ""
        )
    if "fivehundred/py.typed" not in names:
        session.error(f"{wheels[0].name} does not ship fivehundred/py.typed")
    if "fivehundred = fivehundred.cli:main" not in scripts:
        session.error(f"{wheels[0].name} has no fivehundred console script")
    with tarfile.open(sdists[0]) as sdist:
        top = {name.split("/")[1] for name in sdist.getnames() if name.count("/") >= 1}
    missing = {"src", "docs", "examples", "tests", "README.md", "CHANGELOG.md", "LICENSE"} - top
    if missing:
        session.error(f"{sdists[0].name} lacks {sorted(missing)}")
    session.log(f"{wheels[0].name}: py.typed and the console script; {sdists[0].name}: complete")
