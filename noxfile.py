"""Development sessions for fivehundred.

``nox`` runs the default sessions (lint, typecheck, tests, tests_compiled,
browser, docs, adapters); CI runs exactly that through ``.ci/run``, which first
installs Debian's ``chromium`` and ``chromium-driver`` for ``browser`` and Debian's
``postgresql`` for the PostgreSQL store's tests: ``tests/postgres.py`` starts a
throwaway cluster from its binaries (``initdb`` in a temporary folder, a free
loopback port). Under CI (``CI=true``) ``tests`` and ``tests_compiled`` set
``FIVEHUNDRED_POSTGRES_REQUIRED=1``, so a missing PostgreSQL fails those tests
instead of skipping them; elsewhere they skip without it.
``nox -s bench``, ``nox -s bench_compiled``, ``nox -s bench_openspiel``,
``nox -s bench_server``, ``nox -s build``, ``nox -s fuzz`` and ``nox -s ray`` are
opt-in. The sessions that import the game server install the ``server`` extra.
Sessions use the interpreter nox itself runs under.

Tool versions come from ``[dependency-groups]`` in pyproject.toml.

Two builds come from the same source: the pure ``py3-none-any`` wheel (the
default; ``pip install .`` needs no C compiler) and the compiled wheel, whose
modules listed under ``[tool.hatch.build.targets.wheel.hooks.mypyc] include`` in
pyproject.toml are compiled by mypyc (hatch-mypyc), turned on by
``HATCH_BUILD_HOOKS_ENABLE=1``. ``tests`` runs the suite on the source (an
editable install); ``tests_compiled`` builds the compiled wheel, installs it
(not editable) and runs the suite on it. The test helpers read two variables,
which ``tests_compiled`` and cibuildwheel set:

- ``FIVEHUNDRED_TEST_INSTALLED=1``: the suite tests an installed wheel; the
  child processes of the docs, example and CLI tests (``tests/subprocesses.py``)
  import that installed package instead of putting ``src/`` first on the path.
- ``FIVEHUNDRED_TEST_COMPILED=1``: ``tests/test_builds.py`` requires
  ``fivehundred.COMPILED`` and every listed module to be compiled.
"""

from __future__ import annotations

import os
import shutil
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

import nox

nox.needs_version = ">=2025.2.9"  # for nox.project.dependency_groups
nox.options.sessions = [
    "lint",
    "typecheck",
    "tests",
    "tests_compiled",
    "browser",
    "docs",
    "adapters",
]

ROOT = Path(__file__).parent
PYPROJECT = nox.project.load_toml(ROOT / "pyproject.toml")
TYPECHECK_DIRS = ("src", "tests", "examples", "benchmarks")
#: Turns on the mypyc build hook (hatchling's switch for every hook that is off by default).
COMPILE: dict[str, str] = {"HATCH_BUILD_HOOKS_ENABLE": "1"}
#: Exits non-zero unless ``fivehundred`` is compiled and installed, not imported from src/.
IS_COMPILED = (
    "import fivehundred, pathlib, sys; "
    "f = pathlib.Path(fivehundred.__file__).resolve(); "
    "print('fivehundred', f.parent, 'COMPILED =', fivehundred.COMPILED); "
    f"sys.exit(not fivehundred.COMPILED or f.is_relative_to({str(ROOT / 'src')!r}))"
)
#: The JSON Schema of the format, package data every wheel must ship.
SCHEMA = "fivehundred/schema/format-1.schema.json"
#: What the test helpers read under tests_compiled (see the module docstring).
TEST_COMPILED: dict[str, str] = {
    "FIVEHUNDRED_TEST_INSTALLED": "1",
    "FIVEHUNDRED_TEST_COMPILED": "1",
}


def postgres_required() -> dict[str, str]:
    """``FIVEHUNDRED_POSTGRES_REQUIRED=1`` under CI: the PostgreSQL tests fail, never skip."""
    return {"FIVEHUNDRED_POSTGRES_REQUIRED": "1"} if os.environ.get("CI") == "true" else {}


def group(name: str) -> tuple[str, ...]:
    """Requirements of one PEP 735 dependency group in pyproject.toml."""
    return tuple(nox.project.dependency_groups(PYPROJECT, name))


def extra(name: str) -> tuple[str, ...]:
    """Requirements of one extra (``[project.optional-dependencies]``) in pyproject.toml."""
    return tuple(PYPROJECT["project"]["optional-dependencies"][name])


def compiled_modules() -> list[str]:
    """The compiled modules, as ``fivehundred._engine.play``: the mypyc hook's ``include``."""
    paths = PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]["include"]
    return [".".join(Path(path).relative_to("/src").with_suffix("").parts) for path in paths]


def build_compiled_wheel(session: nox.Session, sdist: Path, outdir: Path) -> Path:
    """Build the compiled wheel for this interpreter from ``sdist`` into ``outdir``.

    The sdist is unpacked in a temporary directory and built there (as
    ``python -m build`` builds the pure wheel), so the checkout's ``src/`` never
    sees a compiled file. ``build`` fetches hatch-mypyc and mypy into its
    isolated environment itself: they are the hook's ``dependencies``.
    """
    with tempfile.TemporaryDirectory() as scratch:
        with tarfile.open(sdist) as archive:
            archive.extractall(scratch, filter="data")
        (tree,) = Path(scratch).iterdir()
        before = set(outdir.glob("*.whl"))
        session.run(
            "python", "-m", "build", "--wheel", "--outdir", str(outdir), str(tree), env=COMPILE
        )
    (wheel,) = set(outdir.glob("*.whl")) - before
    return wheel


def check_wheel(session: nox.Session, wheel: Path, *, compiled: bool) -> None:
    """py.typed, the Schema, the console script, no benchmark code; extensions iff ``compiled``."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        scripts = next(
            (archive.read(n).decode() for n in names if n.endswith("entry_points.txt")), ""
        )
    if "fivehundred/py.typed" not in names:
        session.error(f"{wheel.name} does not ship fivehundred/py.typed")
    if SCHEMA not in names:
        session.error(f"{wheel.name} does not ship the JSON Schema {SCHEMA}")
    if "fivehundred = fivehundred.cli:main" not in scripts:
        session.error(f"{wheel.name} has no fivehundred console script")
    benchmarks = sorted(n for n in names if "bench" in n.lower())
    if benchmarks:
        session.error(f"{wheel.name} ships benchmark code: {benchmarks}")
    extensions = sorted(n for n in names if n.endswith((".so", ".pyd")))
    if not compiled:
        if not wheel.name.endswith("-py3-none-any.whl") or extensions:
            session.error(f"{wheel.name} should be pure (py3-none-any), holds {extensions}")
        return
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    if f"-{tag}-{tag}-" not in wheel.name:
        session.error(f"{wheel.name} is not a {tag} wheel")
    for module in compiled_modules():
        stem = module.replace(".", "/")
        if not any(n.startswith(f"{stem}.") for n in extensions):
            session.error(f"{wheel.name} has no compiled {module}: {extensions}")
        if f"{stem}.py" not in names:
            session.error(f"{wheel.name} lacks the source {stem}.py beside the compiled module")


@nox.session
def lint(session: nox.Session) -> None:
    """Ruff lint and format check."""
    session.install(*group("lint"))
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict over src, tests and examples (those that hold Python files)."""
    session.install("-e", ".[server]", *group("typecheck"))
    targets = [
        name
        for name in TYPECHECK_DIRS
        if (ROOT / name).is_dir() and any((ROOT / name).rglob("*.py"))
    ]
    session.run("mypy", "--strict", *targets)


def browser_modules() -> list[str]:
    """The test modules that drive Chromium: ``browser`` runs them, and only it."""
    found = [*ROOT.glob("tests/test_browser_*.py"), ROOT / "tests" / "test_server_browser.py"]
    return sorted(str(path.relative_to(ROOT)) for path in found)


def without_the_browser(posargs: list[str]) -> list[str]:
    """pytest's arguments for every module but the browser's (unless modules are named)."""
    if any(arg.startswith("tests") for arg in posargs):
        return posargs
    return [*(f"--ignore={module}" for module in browser_modules()), *posargs]


@nox.session
def tests(session: nox.Session) -> None:
    """pytest + Hypothesis under branch coverage, gated by fail_under in pyproject.

    Every module but the browser's, which ``browser`` runs (once, not once a build).
    """
    session.install("-e", ".[server]", *group("test"))
    session.run("coverage", "erase")
    # pytest's own exit code is kept: 5 ("no tests collected") fails the session.
    arguments = without_the_browser(session.posargs)
    session.run("coverage", "run", "-m", "pytest", *arguments, env=postgres_required())
    session.run("coverage", "report")


def install_compiled(session: nox.Session) -> None:
    """Build the compiled wheel in the session's scratch directory and install it (not editable).

    The sdist first, then the compiled wheel from it (mypyc, hatch-mypyc); the
    wheel must hold every listed module compiled, and ``fivehundred`` must then
    import compiled from the environment, not from ``src/``.
    """
    session.install(*group("build"))
    dist = Path(session.create_tmp()) / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    session.run("python", "-m", "build", "--sdist", "--outdir", str(dist))
    (sdist,) = dist.glob("*.tar.gz")
    wheel = build_compiled_wheel(session, sdist, dist)
    check_wheel(session, wheel, compiled=True)
    session.install("--force-reinstall", str(wheel))
    with session.chdir(dist):
        session.run("python", "-c", IS_COMPILED)


@nox.session
def tests_compiled(session: nox.Session) -> None:
    """The pytest suite against the compiled wheel, installed (not editable), but the
    browser's modules (the page, not the build, is what they test; ``browser`` runs them).

    Builds and installs the compiled wheel (``install_compiled``), then runs
    pytest with ``FIVEHUNDRED_TEST_INSTALLED=1`` and ``FIVEHUNDRED_TEST_COMPILED=1``
    (see the module docstring). ``tests/`` is on pytest's path, ``src/`` is not.
    No coverage: ``tests`` measures that on the source.
    """
    install_compiled(session)
    session.install(*extra("server"), *group("test"))
    arguments = without_the_browser(session.posargs)
    session.run("pytest", *arguments, env={**TEST_COMPILED, **postgres_required()})


@nox.session
def browser(session: nox.Session) -> None:
    """The browser table end to end: headless Chromium plays whole games through the page.

    Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs
    them under CI); fails rather than skips when they are missing, so CI cannot
    pass without the browser. A screenshot of every phase, at 1280x900 and 390x844,
    and the axe-core scan's results (``axe-results.json``) go to
    ``$FIVEHUNDRED_SCREENSHOTS`` or ``build/screenshots/``; with
    ``FIVEHUNDRED_SCREENSHOT=docs/_static/server-table.png`` the docs picture is refreshed.
    """
    if not shutil.which("chromium") or not shutil.which("chromedriver"):
        session.error("install chromium and chromium-driver (apt-get install -y ...) first")
    session.install("-e", ".[server]", *group("test"))
    session.run(
        "pytest",
        *browser_modules(),
        "-p",
        "no:cacheprovider",
        *session.posargs,
        env={"FIVEHUNDRED_BROWSER_REQUIRED": "1", **postgres_required()},
    )


@nox.session
def docs(session: nox.Session) -> None:
    """Sphinx HTML build; nitpicky, warnings are errors."""
    # the docs extra (Sphinx and its extensions), and the adapters' extras: their
    # pages document fivehundred.ai.openspiel and .pettingzoo
    session.install("-e", ".[docs,openspiel,pettingzoo]")
    shutil.rmtree(ROOT / "docs" / "_build", ignore_errors=True)
    session.run(
        "sphinx-build", "-n", "-W", "--keep-going", "-b", "html", "docs", "docs/_build/html"
    )


#: The tests of the adapters (the extras openspiel and pettingzoo), and the adapter modules.
#: The docs first: docs/howto/variants.md checks `game.rules is american`, which holds
#: only while no equal Rules was met before (the core keeps one table per equal Rules).
ADAPTER_TESTS = (
    "tests/test_docs.py",
    "tests/test_doctests.py",
    "tests/test_openspiel.py",
    "tests/test_pettingzoo.py",
)
#: Coverage settings of the adapter modules alone (the main settings omit them).
ADAPTER_COVERAGE = "tests/adapters-coverage.toml"


@nox.session
def adapters(session: nox.Session) -> None:
    """The OpenSpiel and PettingZoo adapters, with the extras installed, under coverage.

    ``tests`` runs without the extras (their tests skip there, and coverage omits the
    two modules); this session installs ``.[openspiel,pettingzoo]`` and runs the
    adapters' tests, the docs pages that need them and the module doctests, with
    the same 95% branch-coverage gate on the adapter modules. Where the extras
    cannot be installed (no wheel for the platform) the session is skipped,
    except under CI (``CI=true``), where that fails.
    """
    try:
        session.install("-e", ".[openspiel,pettingzoo,server]", *group("test"))
    except nox.command.CommandFailed:
        if os.environ.get("CI") == "true":
            raise
        session.skip("the openspiel and pettingzoo extras cannot be installed here")
    session.run("coverage", "erase")
    session.run(
        "coverage", "run", "--rcfile", ADAPTER_COVERAGE, "-m", "pytest",
        *(session.posargs or ADAPTER_TESTS),
    )  # fmt: skip
    session.run("coverage", "report", "--rcfile", ADAPTER_COVERAGE)


@nox.session
def ray(session: nox.Session) -> None:
    """Tournaments on a local Ray instance (opt-in: Ray is large), with the speed-up.

    Installs ``.[ray]`` and runs ``tests/test_ray.py`` with ``FIVEHUNDRED_TEST_RAY=1``:
    the same games on Ray (``ray.init(num_cpus=2)``) as in one process, with the
    built-in players and with a bot author's own (object, factory, ``module:attr``),
    and the speed-up printed.
    """
    session.install("-e", ".[ray]", *group("test"))
    session.run(
        "pytest", "-s", "-p", "no:cacheprovider", "tests/test_ray.py",
        env={"FIVEHUNDRED_TEST_RAY": "1"},
    )  # fmt: skip


@nox.session
def fuzz(session: nox.Session) -> None:
    """The long fuzz run (opt-in): every parser and loader, 13,000 examples per test,
    and the game server, 5,000 examples per test.

    ``tests/test_fuzz.py`` has 10 tests, so over 130,000 examples in all; the
    count per test can be changed with ``nox -s fuzz -- 20000``. The server's
    (``tests/test_server_fuzz.py``) print their request counts, statuses and
    slowest request; ``nox -s fuzz -- 20000 10000`` sets their count too.
    """
    session.install("-e", ".[server]", *group("test"))
    examples = session.posargs[0] if session.posargs else "13000"
    server = session.posargs[1] if len(session.posargs) > 1 else "5000"
    session.run(
        "pytest",
        "tests/test_fuzz.py",
        "tests/test_server_fuzz.py",
        "-s",
        "-p",
        "no:cacheprovider",
        "--hypothesis-show-statistics",
        "--durations=0",
        env={"FIVEHUNDRED_FUZZ_EXAMPLES": examples, "FIVEHUNDRED_SERVER_FUZZ_EXAMPLES": server},
    )


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks (opt-in): python -m benchmarks {posargs}.

    Prints every figure (median of interleaved rounds) and the targets of the
    build installed (``fivehundred.COMPILED``); without open_spiel the euchre
    side is skipped. ``nox -s bench -- --seconds 0.5 --rounds 9 --json``.
    """
    session.install("-e", ".")
    session.run("python", "-m", "benchmarks", *session.posargs)


@nox.session
def bench_server(session: nox.Session) -> None:
    """The game server under load (opt-in): python -m benchmarks --server.

    Loopback only: one ``fivehundred serve`` on a fresh SQLite file, then two
    sharing a fresh PostgreSQL database (a throwaway cluster from Debian's
    ``postgresql``, as the tests start; skipped without it), loaded from a
    separate process (benchmarks/load.py). Prints the servers' CPU per view
    read and per move, req/s and p50/p99 at 1, 4, 16 and 64 clients with the
    load generator's CPU share, then kills the servers with SIGKILL under load
    and counts the acknowledged moves missing from the database (target 0).
    """
    session.install("-e", ".[server]")
    session.run("python", "-m", "benchmarks", "--server", *session.posargs)


@nox.session
def bench_compiled(session: nox.Session) -> None:
    """Benchmarks on the compiled wheel, installed (opt-in), beside OpenSpiel's euchre.

    The same as ``bench_openspiel`` for the compiled build: open_spiel is installed so
    every ratio to euchre is printed.
    """
    install_compiled(session)
    session.install("open_spiel")
    session.run("python", "-m", "benchmarks", *session.posargs)


@nox.session
def bench_bots(session: nox.Session) -> None:
    """The strongest player's seeded matches and decision time, on the compiled wheel
    (opt-in): python -m benchmarks.bench_bots {posargs}.

    2,000 games against the heuristic and the search players by default, and the
    decision-time percentiles, each against its target; ``-- --games 200`` for a
    shorter run. It exits non-zero when a "must" target is missed.
    """
    install_compiled(session)
    session.run("python", "-m", "benchmarks.bench_bots", *session.posargs)


@nox.session
def bench_openspiel(session: nox.Session) -> None:
    """Benchmarks beside OpenSpiel's euchre, measured in the same rounds (opt-in).

    As ``bench``, with open_spiel installed, so every ratio to euchre is printed.
    """
    session.install("-e", ".", "open_spiel")
    session.run("python", "-m", "benchmarks", *session.posargs)


@nox.session
def solver_many(session: nox.Session) -> None:
    """The solver's big agreement run (opt-in), on the compiled wheel: thousands of random
    endings of up to four tricks, and 400 at each table size, against plain minimax
    (``FIVEHUNDRED_SOLVER_MANY=1 pytest tests/test_solver.py``; 35 minutes here).
    """
    install_compiled(session)
    session.install(*group("test"))
    env = {**TEST_COMPILED, "FIVEHUNDRED_SOLVER_MANY": "1"}
    session.run("pytest", "tests/test_solver.py", *session.posargs, env=env)


@nox.session
def bench_solver(session: nox.Session) -> None:
    """The solver's speed on both builds (opt-in): benchmarks/bench_solver.py {posargs}.

    The positions searched and the time to solve 50 seeded four-player hands, median and
    worst, by tricks left (10 to 1), pure then compiled: the table of
    docs/reference/solver.md. ``nox -s bench_solver -- --hands 50 --left 10 5``.
    """
    session.install(".")
    session.run("python", "benchmarks/bench_solver.py", *session.posargs)
    install_compiled(session)
    session.run("python", "benchmarks/bench_solver.py", *session.posargs)


@nox.session
def build(session: nox.Session) -> None:
    """Build the sdist, the pure wheel and the compiled wheel into dist/ and check them (opt-in).

    ``python -m build`` makes the sdist and then the pure ``py3-none-any`` wheel
    from it (so the sdist is known to build); the compiled wheel for this
    interpreter is built from the same sdist with ``HATCH_BUILD_HOOKS_ENABLE=1``.
    ``twine check --strict`` checks the metadata and that the README renders as
    the PyPI long description. Each wheel must ship ``py.typed``, the JSON
    Schema and the console script; the pure wheel holds no extension module, the compiled one
    an extension module for every module the mypyc hook lists; the sdist must
    hold the docs, the examples and the tests.
    """
    session.install(*group("build"))
    dist = ROOT / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    session.run("python", "-m", "build")
    sdists = sorted(dist.glob("*.tar.gz"))
    pure = sorted(dist.glob("*.whl"))
    if len(pure) != 1 or len(sdists) != 1:
        session.error(f"expected one wheel and one sdist in dist/, found {sorted(dist.iterdir())}")
    compiled = build_compiled_wheel(session, sdists[0], dist)
    artifacts = sorted(dist.iterdir())
    session.run("twine", "check", "--strict", *map(str, artifacts))
    check_wheel(session, pure[0], compiled=False)
    check_wheel(session, compiled, compiled=True)
    with tarfile.open(sdists[0]) as sdist:
        top = {name.split("/")[1] for name in sdist.getnames() if name.count("/") >= 1}
    missing = {
        *("src", "docs", "examples", "tests", "benchmarks"),
        *("README.md", "CHANGELOG.md", "LICENSE"),
    } - top
    if missing:
        session.error(f"{sdists[0].name} lacks {sorted(missing)}")
    # The compiled wheel must import, compiled (its support library shipped too).
    session.install("--force-reinstall", str(compiled))
    with session.chdir(dist):
        session.run("python", "-c", IS_COMPILED)
    session.log(
        f"{pure[0].name}: pure; {compiled.name}: compiled {', '.join(compiled_modules())}; "
        f"both with py.typed and the console script; {sdists[0].name}: complete"
    )
