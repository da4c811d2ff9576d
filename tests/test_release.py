"""The release is ready to tag: versions agree, the changelog is in shape, the workflows parse.

The GitHub workflows cannot run here; these checks catch what can be caught
without GitHub: YAML that does not parse, a workflow that lost a Python
version, a platform or the trusted-publishing permission, a Read the Docs
configuration that stopped failing on warnings, and versions that disagree.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path
from typing import Any, Final

import pytest
import yaml

import fivehundred as fh

ROOT: Final = Path(__file__).resolve().parent.parent
WORKFLOWS: Final = ROOT / ".github" / "workflows"
PYPROJECT: Final[dict[str, Any]] = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))

needs_checkout = pytest.mark.skipif(
    not WORKFLOWS.is_dir(), reason="the workflows are not beside these tests (an sdist or wheel)"
)


def extra(name: str) -> list[str]:
    """The requirements of one extra of pyproject.toml."""
    found: list[str] = PYPROJECT["project"]["optional-dependencies"][name]
    return found


def workflow(name: str) -> dict[Any, Any]:
    loaded = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def steps(job: dict[str, Any]) -> str:
    """Every step of a job as text, to search for the actions and commands it uses."""
    return yaml.safe_dump(job["steps"])


#: The CPython versions of the release: every one is tested and gets compiled wheels.
PYTHONS: Final = ("3.11", "3.12", "3.13", "3.14")
#: GitHub runner images that are retired (a job asking for one waits for ever).
RETIRED_RUNNERS: Final = {
    *("macos-11", "macos-12", "macos-13"),
    *("ubuntu-18.04", "ubuntu-20.04"),
    *("windows-2016", "windows-2019"),
}


def test_the_version_is_one_value() -> None:
    version = PYPROJECT["project"]["version"]
    assert fh.__version__ == version
    assert re.fullmatch(r"\d+\.\d+\.\d+(?:\.dev\d+|rc\d+)?", version), version


def test_the_changelog_keeps_unreleased_entries_under_unreleased() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in text
    headings = re.findall(r"^## \[(.+?)\](.*)$", text, re.MULTILINE)
    for name, rest in headings:
        if name != "Unreleased":  # a released version has a date, never "unreleased"
            assert re.fullmatch(r" - \d{4}-\d{2}-\d{2}", rest), (name, rest)


def test_the_readme_points_at_the_hosted_docs_and_every_install() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    docs = PYPROJECT["project"]["urls"]["Documentation"]
    assert docs == "https://fivehundred.readthedocs.io/"
    assert docs in readme
    assert "python -m pip install ." in readme
    assert "python -m pip install fivehundred" in readme
    for extra in ("server", "openspiel", "pettingzoo"):
        assert f'"fivehundred[{extra}]"' in readme
    assert "several minutes" in readme


def default_nox_sessions() -> list[str]:
    """``nox.options.sessions`` of noxfile.py, read without importing nox."""
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "nox.options.sessions":
            sessions = ast.literal_eval(node.value)
            assert isinstance(sessions, list)
            return [str(name) for name in sessions]
    raise AssertionError("noxfile.py sets no nox.options.sessions")


@needs_checkout
def test_the_readme_says_what_nox_needs_and_how_to_run_all_but_the_browser() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```bash\n(.*?)^```$", readme, re.MULTILINE | re.DOTALL)
    # the opening two commands; the second is what CI runs
    assert blocks[1].strip() == "python -m pip install nox && nox"
    assert (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip().endswith(blocks[1].strip())
    for need in ("C compiler", "`chromium`", "`chromium-driver`", "`open_spiel`", "`pettingzoo`"):
        assert need in readme, need
    (command,) = [b.strip() for b in blocks if b.startswith("nox -s ")]
    everything_but_the_browser = [s for s in default_nox_sessions() if s != "browser"]
    assert "browser" in default_nox_sessions()
    assert command.split()[2:] == everything_but_the_browser


@needs_checkout
def test_ci_runs_the_readme_command_on_every_supported_python() -> None:
    ci = workflow("ci.yml")
    (job,) = ci["jobs"].values()
    assert job["strategy"]["matrix"]["python-version"] == list(PYTHONS)
    assert "bash .ci/run" in steps(job)
    assert any(step.get("env", {}).get("CI") == "true" for step in job["steps"])


@needs_checkout
def test_the_docs_workflow_and_read_the_docs_fail_on_warnings() -> None:
    docs = workflow("docs.yml")
    assert "sphinx-build -n -W" in steps(docs["jobs"]["sphinx"])
    rtd = yaml.safe_load((ROOT / ".readthedocs.yaml").read_text(encoding="utf-8"))
    assert rtd["version"] == 2 and rtd["sphinx"]["fail_on_warning"] is True
    assert rtd["sphinx"]["configuration"] == "docs/conf.py"
    assert 'pip install ".[docs]"' in " ".join(rtd["build"]["jobs"]["install"])
    assert '-e ".[docs]"' in steps(docs["jobs"]["sphinx"])
    conf = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    assert "nitpicky = True" in conf and '"sphinx_copybutton"' in conf


@needs_checkout
def test_the_release_builds_tests_and_publishes_every_kind_of_wheel() -> None:
    release = workflow("release.yml")
    assert release[True]["push"]["tags"] == ["v*"]  # YAML reads the key `on` as True
    jobs = release["jobs"]
    pure = steps(jobs["sdist-and-pure-wheel"])
    assert "python -m build" in pure and "twine check --strict" in pure
    assert "pytest" in pure and "FIVEHUNDRED_TEST_INSTALLED" in pure
    wheels = jobs["compiled-wheels"]
    assert "pypa/cibuildwheel@" in steps(wheels)
    platforms = {
        (e["os"].split("-")[0], e["archs"]) for e in wheels["strategy"]["matrix"]["include"]
    }
    assert platforms == {
        ("ubuntu", "x86_64"),
        ("ubuntu", "aarch64"),
        ("macos", "x86_64"),
        ("macos", "arm64"),
        ("windows", "AMD64"),
    }
    # each wheel is built and tested natively: no emulation, and the right machine
    assert "qemu" not in (WORKFLOWS / "release.yml").read_text(encoding="utf-8").lower()
    runners = {
        (e["os"].split("-")[0], e["archs"]): e["os"]
        for e in wheels["strategy"]["matrix"]["include"]
    }
    assert runners["ubuntu", "aarch64"].endswith("-arm")  # an arm64 Linux runner
    assert runners["macos", "x86_64"].endswith("-intel")  # an Intel Mac
    publish = jobs["publish"]
    assert set(publish["needs"]) == {"sdist-and-pure-wheel", "compiled-wheels"}
    assert publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    assert "pypa/gh-action-pypi-publish@" in steps(publish)
    assert "refs/tags/v" in publish["if"]


@needs_checkout
def test_no_workflow_asks_for_a_retired_runner() -> None:
    for path in sorted(WORKFLOWS.glob("*.yml")):
        labels = set(re.findall(r"\b(?:ubuntu|macos|windows)-[\w.-]+", path.read_text("utf-8")))
        assert not labels & RETIRED_RUNNERS, (path.name, labels)


def test_cibuildwheel_builds_cpython_3_11_to_3_14_and_tests_each_wheel() -> None:
    config = PYPROJECT["tool"]["cibuildwheel"]
    tags = [f"cp{version.replace('.', '')}-*" for version in PYTHONS]
    assert config["build"].split() == tags
    assert config["environment"] == {"HATCH_BUILD_HOOKS_ENABLE": "1"}
    assert config["test-environment"]["FIVEHUNDRED_TEST_COMPILED"] == "1"
    assert "pytest" in config["test-command"]
    assert config["linux"]["archs"] == ["x86_64", "aarch64"]


def test_the_classifiers_name_every_python_of_the_release() -> None:
    classifiers = PYPROJECT["project"]["classifiers"]
    named = [c.rsplit(" :: ", 1)[1] for c in classifiers if re.fullmatch(r".*Python :: 3\.\d+", c)]
    assert named == list(PYTHONS)
    assert PYPROJECT["project"]["requires-python"] == f">={PYTHONS[0]}"


def test_the_docs_extra_holds_every_sphinx_extension_and_the_theme() -> None:
    """One list of the docs tools: the ``docs`` extra, which nox, Read the Docs and CI install."""
    wanted = {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower() for r in extra("docs")}
    conf = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    extensions = set(re.findall(r'^    "(\w+)",$', conf, re.MULTILINE))  # not sphinx.ext.*
    assert extensions == {"myst_parser", "sphinx_copybutton"}, "a new extension? add it here"
    assert {name.replace("_", "-") for name in extensions} <= wanted
    theme = re.search(r'^html_theme = "(\w+)"$', conf, re.MULTILINE)
    assert theme is not None and theme[1] in wanted
    assert "sphinx" in wanted
    assert "docs" not in PYPROJECT["dependency-groups"]  # not a second list of versions
    assert '".[docs,' in (ROOT / "noxfile.py").read_text(encoding="utf-8")


def test_a_release_from_one_on_is_stable_and_has_its_changelog_section() -> None:
    """From 1.0.0 the stability policy holds: the classifier says so, and the changelog has a
    dated section for the version with the way up from the 0.x series (issue 36)."""
    version = PYPROJECT["project"]["version"]
    major = int(version.split(".")[0])
    classifiers = PYPROJECT["project"]["classifiers"]
    assert major >= 1
    assert "Development Status :: 5 - Production/Stable" in classifiers
    assert not [c for c in classifiers if c.startswith("Development Status") and "Stable" not in c]
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## \[{re.escape(version)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", text, re.M)
    if version == "1.0.0":
        assert "### Upgrading from the 0.x development series" in text
