"""Every example in README.md and docs/ runs, and the docs cover the whole library.

- Each page's ```python blocks run in order in one namespace: a block in
  ``>>>`` form is a doctest (ELLIPSIS and NORMALIZE_WHITESPACE on), any other
  block is executed as a script (its ``assert`` statements are the checks).
- ```console blocks whose commands run an example (``$ python examples/...``)
  are run, and their output must match the page.
- The generated tables (``docs/_gen.py``) must be fresh.
- Every public name of every module has a reference page entry and an example,
  every rule ID of the rule book is on the rules page, and every reason code is
  explained on the page about validating moves.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import re
import shlex
from pathlib import Path
from types import ModuleType
from typing import Final

import pytest

import fivehundred as fh
from subprocesses import run_python

ROOT: Final = Path(__file__).resolve().parent.parent
DOCS: Final = ROOT / "docs"
PAGES: Final = sorted(
    [ROOT / "README.md"]
    + [
        path
        for path in DOCS.rglob("*.md")
        if not {"_build", "_generated"} & set(path.relative_to(DOCS).parts)
    ]
)
FENCE: Final = re.compile(
    r"^(?P<fence>`{3,})(?P<lang>[\w{}:-]*)[^\n]*\n(?P<body>.*?)^(?P=fence)[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
FLAGS: Final = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def page_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


def blocks(path: Path, language: str) -> list[tuple[int, str]]:
    """``(line number, body)`` of each fenced block of ``language`` on a page."""
    text = path.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, match.start("body")) + 1, match.group("body"))
        for match in FENCE.finditer(text)
        if match.group("lang") == language
    ]


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Examples that write files write them into a fresh folder."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def example_blocks(path: Path) -> list[tuple[int, str, str]]:
    """``(line number, language, body)`` of each python and ``{eval-rst}`` block, in page order.

    The ``>>>`` examples inside an ``{eval-rst}`` block are the examples of the
    API entries (directive content under ``autofunction`` and the like).
    """
    text = path.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, match.start("body")) + 1, match.group("lang"), match.group("body"))
        for match in FENCE.finditer(text)
        if match.group("lang") in {"python", "{eval-rst}"}
    ]


#: A page whose examples need optional packages says so on its first line, e.g.
#: ``<!-- requires: pyspiel pettingzoo -->``; without them its examples are skipped
#: (``nox -s adapters`` installs the extras and runs them).
REQUIRES: Final = re.compile(r"\A<!-- requires: ([\w. ]+) -->")


def required(path: Path) -> list[str]:
    """The packages a page's examples need (its ``requires`` line)."""
    found = REQUIRES.match(path.read_text(encoding="utf-8"))
    return found.group(1).split() if found else []


@pytest.mark.parametrize("path", PAGES, ids=page_id)
def test_python_examples_run(path: Path, in_tmp: Path) -> None:
    for package in required(path):
        pytest.importorskip(package, reason=f"{page_id(path)} needs {package} (an extra)")
    namespace: dict[str, object] = {"__name__": "__docs__"}
    failures: list[str] = []
    for line, language, body in example_blocks(path):
        where = f"{page_id(path)}:{line}"
        if language == "{eval-rst}" or body.lstrip().startswith(">>>"):
            test = doctest.DocTestParser().get_doctest(body, namespace, where, where, line - 1)
            runner = doctest.DocTestRunner(optionflags=FLAGS)
            runner.run(test, out=failures.append, clear_globs=False)
            namespace.update(test.globs)  # DocTest works on a copy of the namespace
        else:
            try:
                exec(compile(body, where, "exec"), namespace)
            except Exception as err:
                failures.append(f"{where}: {type(err).__name__}: {err}")
        assert not failures, "\n".join(failures)


#: Fenced blocks that are not Python: shell commands, data, and MyST directives.
OTHER_BLOCKS: Final = frozenset(
    {"console", "bash", "text", "json", "{toctree}", "{eval-rst}", "{include}", "{cli-help}"}
    | {"{py:module}", "{literalinclude}"}
    # the server's config file example: tests/test_server_config.py reads and checks it
    | {"toml"}
)


@pytest.mark.parametrize("path", PAGES, ids=page_id)
def test_no_code_block_escapes_the_tests(path: Path) -> None:
    """Python is written ```python (so it runs); every other block is a known kind."""
    text = path.read_text(encoding="utf-8")
    kinds = {match.group("lang") for match in FENCE.finditer(text)}
    unknown = kinds - OTHER_BLOCKS - {"python"}
    assert not unknown, f"{page_id(path)}: blocks of kind {sorted(unknown)} are not run"


#: The pages a newcomer reads first: they must run in a new interpreter, in this order.
NEWCOMER_PAGES: Final = (
    "README.md",
    "docs/tutorials/first-hand.md",
    "docs/tutorials/computer-player.md",
)
FRESH_RUNNER: Final = """
import doctest, re, sys
failures = 0
flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
for path in sys.argv[1:]:
    text = open(path, encoding="utf-8").read()
    namespace = {"__name__": "__newcomer__"}
    for match in re.finditer(r"^```python\\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
        body = match.group(1)
        if body.lstrip().startswith(">>>"):
            test = doctest.DocTestParser().get_doctest(body, namespace, path, path, 0)
            runner = doctest.DocTestRunner(optionflags=flags)
            runner.run(test, clear_globs=False)
            namespace.update(test.globs)
            failures += runner.failures
        else:
            exec(compile(body, path, "exec"), namespace)
print("failures:", failures)
"""


def test_the_readme_and_tutorials_run_in_a_new_interpreter(in_tmp: Path) -> None:
    """As a newcomer types them: nothing imported before, so no module is there by accident."""
    done = run_python(
        ["-c", FRESH_RUNNER, *(str(ROOT / page) for page in NEWCOMER_PAGES)], cwd=in_tmp
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "failures: 0", done.stdout


def test_the_pages_have_examples() -> None:
    """The pages above are really found and most of them carry Python examples."""
    with_examples = [path for path in PAGES if blocks(path, "python")]
    assert ROOT / "README.md" in with_examples
    assert DOCS / "tutorials" / "first-hand.md" in with_examples
    assert len(with_examples) >= 20, [page_id(path) for path in with_examples]


# -- console examples ----------------------------------------------------------


def console_commands(path: Path) -> list[tuple[str, str, str]]:
    """``(where, command, expected output)`` of each ``$ python examples/...`` line."""
    found = []
    for line, body in blocks(path, "console"):
        parts = re.split(r"^\$ ", body, flags=re.MULTILINE)
        for part in parts[1:]:
            command, _, output = part.partition("\n")
            if command.startswith("python examples/"):
                found.append((f"{page_id(path)}:{line}", command, output))
    return found


CONSOLE: Final = [item for path in PAGES for item in console_commands(path)]


@pytest.mark.parametrize(("where", "command", "expected"), CONSOLE, ids=[c[0] for c in CONSOLE])
def test_console_examples_print_what_the_page_shows(
    where: str, command: str, expected: str
) -> None:
    words = shlex.split(command)
    stdin = None
    if "<<<" in words:  # a here-string: the text after <<< is the input
        at = words.index("<<<")
        stdin = words[at + 1].replace("\\n", "\n") + "\n"
        words = words[:at]
    done = run_python(words[1:], stdin=stdin, timeout=120, COLUMNS="88")
    got = done.stdout + done.stderr
    checker = doctest.OutputChecker()
    assert checker.check_output(expected, got, FLAGS), f"{where}: {command}\n{got}"


def test_console_examples_are_found() -> None:
    assert len(CONSOLE) >= 2, CONSOLE


# -- generated tables ------------------------------------------------------------


def load_gen() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_gen", DOCS / "_gen.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_tables_are_fresh() -> None:
    gen = load_gen()
    assert gen.stale() == [], "run python docs/_gen.py and commit docs/_generated/"


def test_a_stale_generated_table_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The freshness check compares real text: a changed score in a copy is reported."""
    gen = load_gen()
    for name in gen.FILES:
        (tmp_path / name).write_text((gen.OUT / name).read_text(encoding="utf-8"), "utf-8")
    scores = tmp_path / "scores.md"
    scores.write_text(scores.read_text(encoding="utf-8").replace("| 220 |", "| 230 |"), "utf-8")
    monkeypatch.setattr(gen, "OUT", tmp_path)
    assert gen.stale() == ["scores.md"]


def test_the_tables_come_from_the_library() -> None:
    gen = load_gen()
    ladder = (gen.OUT / "ladder.md").read_text(encoding="utf-8")
    assert ladder.count("\n| ") == 1 + len(fh.Rules().ladder.rungs)
    assert "| 10 | Misère | `M` | 250 |" in ladder
    for name in gen.FILES:
        pages = [p for p in PAGES if f"_generated/{name}" in p.read_text(encoding="utf-8")]
        assert pages, f"no page includes docs/_generated/{name}"


# -- coverage of the library --------------------------------------------------------

#: The reference pages of each public module (the state has a page of its own).
MODULE_PAGES: Final[dict[str, str | tuple[str, ...]]] = {
    "cards": "cards",
    "calls": "calls",
    "rules": "rules",
    "actions": "actions",
    "engine": ("engine", "state"),
    "views": "views",
    "tricks": "tricks",
    "scoring": "scoring",
    "records": "records",
    "notation": "notation",
    "serialize": "serialize",
    "ai.encoding": "encoding",
    "ai.playout": "playout",
    "errors": "errors",
    "ai.tensors": "tensors",
    "solver": "solver",
}
DIRECTIVE: Final = re.compile(
    r"^\.\. (?:auto(?:class|function|data|exception)|py:data):: (\S+)", re.MULTILINE
)


def pages_of(pages: str | tuple[str, ...]) -> tuple[str, ...]:
    return (pages,) if isinstance(pages, str) else pages


def documented(pages: str | tuple[str, ...]) -> set[str]:
    return {
        name.rsplit(".", 1)[-1]
        for page in pages_of(pages)
        for name in DIRECTIVE.findall((DOCS / "reference" / f"{page}.md").read_text("utf-8"))
    }


def example_text(pages: str | tuple[str, ...]) -> str:
    return "\n".join(
        body
        for page in pages_of(pages)
        for _, body in blocks(DOCS / "reference" / f"{page}.md", "python")
    )


@pytest.mark.parametrize("module", sorted(MODULE_PAGES))
def test_every_public_name_is_documented_with_an_example(module: str) -> None:
    mod = importlib.import_module(f"fivehundred.{module}")
    page = MODULE_PAGES[module]
    names = set(mod.__all__)
    missing = names - documented(page)
    assert not missing, f"reference/{page}.md documents no {sorted(missing)}"
    examples = example_text(page)
    without = []
    for name in sorted(names):
        doc = getattr(getattr(mod, name), "__doc__", None) or ""
        own_doc = not isinstance(getattr(mod, name), (int, str, dict, tuple))
        if (own_doc and ">>>" in doc) or re.search(rf"\b{re.escape(name)}\b", examples):
            continue
        without.append(name)
    assert not without, f"no example of {without} on reference/{page}.md or in a docstring"


def test_every_top_level_name_has_a_reference_entry() -> None:
    everywhere = set().union(*(documented(page) for page in MODULE_PAGES.values()))
    missing = set(fh.__all__) - everywhere - {"__version__"}
    assert not missing, sorted(missing)


def test_bots_have_an_autodoc_page() -> None:
    text = (DOCS / "reference" / "bots.md").read_text(encoding="utf-8")
    assert ".. automodule:: fivehundred.bots" in text


# -- rule IDs and reason codes -----------------------------------------------------

#: Every rule ID of the rule book (RULES.md), as of format version 1.
RULE_IDS: Final = (
    *(f"R1.{i}" for i in range(1, 5)),
    *(f"R2.{i}" for i in range(1, 4)),
    *(f"R3.{i}" for i in range(1, 10)),
    *(f"R4.{i}" for i in range(1, 4)),
    *(f"R5.{i}" for i in range(1, 6)),
    *(f"R6.{i}" for i in range(1, 4)),
    *(f"R7.{i}" for i in range(1, 7)),
    *(f"R8.{i}" for i in range(1, 6)),
    *(f"R9.{i}" for i in range(1, 4)),
    *(
        f"V-{name}"
        for name in [
            "NO-MISERE",
            "MISERE-ANYTIME",
            "MISERE-BY-VALUE",
            "OPEN-MISERE-TOP",
            "BLIND-MISERE",
            "SANS-KITTY",
            "AMERICAN",
            "SELF-RAISE",
            "REBID",
            "ALL-PASS",
            "JOKER-LEAD-LAST",
            "JOKER-NAME-ANY",
            "NO-NOMINATION",
            "OPEN-BEFORE-LEAD",
            "ELDEST-LEADS",
            "NO-SLAM",
            "TRICK-POINTS",
            "CAP",
            "DEFENCE-WINS",
            "TARGET",
            "MISERE-PLAYOUT",
            "SAME-DEALER",
            "45",
        ]
    ),
    "P2",
    "P3",
    "P5",
    "P6",
    "P-END",
)


def rule_book_ids() -> set[str] | None:
    """The IDs of the shared rule book when it is beside the checkout (as in CI)."""
    book = ROOT.parent / "shared" / "RULES.md"
    if not book.is_file():
        return None
    text = book.read_text(encoding="utf-8")
    found = set(re.findall(r"\*\*(R\d\.\d|P\d|P-END)\b", text))
    return found | set(re.findall(r"^\| (V-[A-Z0-9-]+) \|", text, re.MULTILINE))


def test_the_rule_id_list_matches_the_rule_book() -> None:
    found = rule_book_ids()
    if found is None:
        pytest.skip("the shared rule book is not beside this checkout")
    assert found == set(RULE_IDS), sorted(found ^ set(RULE_IDS))


def test_every_rule_id_is_on_the_rules_page() -> None:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    missing = [rule for rule in RULE_IDS if not re.search(rf"\b{re.escape(rule)}(?![\w.-])", text)]
    assert not missing, missing


def test_every_reason_code_is_explained() -> None:
    """The page includes the table generated from the enum (fresh: see the _gen test)."""
    text = (DOCS / "howto" / "validate-moves.md").read_text(encoding="utf-8")
    assert "```{include} ../_generated/reasons.md" in text
    table = (DOCS / "_generated" / "reasons.md").read_text(encoding="utf-8")
    missing = [reason.name for reason in fh.Reason if f"| `{reason.name}` |" not in table]
    assert not missing, missing
    assert "| `NOT_A_CARD` | `NotationError` |" in table
    assert "| `BID_TOO_LOW` | `IllegalActionError` |" in table
