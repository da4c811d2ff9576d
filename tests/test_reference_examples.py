"""Every public name has an example in its own API entry (STYLE principle 8).

A name's entry is its directive on a reference page (``.. autofunction::
fivehundred.deal``, ``.. py:data:: PASS``, ``.. autoproperty::
fivehundred.GameState.phase``, …) with the text indented under it, and the
docstring that autodoc shows there. The entry has an example when either holds
a ``>>>`` line. Those examples run: docstrings under ``tests/test_doctests.py``,
the directive content of the pages under ``tests/test_docs.py``.

Checked for every name of ``fivehundred.__all__`` and every property of
``GameState``; a name on a page's overview example only does not count.
"""

from __future__ import annotations

import ast
import functools
import inspect
import re
from pathlib import Path
from typing import Final

import pytest

import fivehundred as fh

ROOT: Final = Path(__file__).resolve().parent.parent
REFERENCE: Final = ROOT / "docs" / "reference"
RST: Final = re.compile(r"^```\{eval-rst\}\n(.*?)^```", re.MULTILINE | re.DOTALL)
DIRECTIVE: Final = re.compile(
    r"^\.\. (?:auto(?:function|class|exception|data|property)|py:data|py:property):: (\S+)\n"
    r"((?:[ \t]+[^\n]*\n|\n)*)",
    re.MULTILINE,
)
MODULE_OPTION: Final = re.compile(r"^\s+:module: (\S+)$", re.MULTILINE)
#: ``__version__`` is a string, shown on the API overview page.
NOT_ENTRIES: Final = frozenset({"__version__"})


def entries(text: str) -> dict[str, str]:
    """Each top-level directive of a page's ``{eval-rst}`` blocks: full name -> indented content."""
    found: dict[str, str] = {}
    for block in RST.findall(text):
        for match in DIRECTIVE.finditer(block):
            name, content = match.group(1), match.group(2)
            module = MODULE_OPTION.search(content)
            if module and not name.startswith(module.group(1)):
                name = f"{module.group(1)}.{name}"
            found[name] = content
    return found


def all_entries() -> dict[str, str]:
    found: dict[str, str] = {}
    for page in sorted(REFERENCE.glob("*.md")):
        found.update(entries(page.read_text(encoding="utf-8")))
    return found


ENTRIES: Final = all_entries()


def source_docstring(obj: object) -> str:
    """The docstring of a top-level function or class as written in ``src/``.

    The compiled build drops the docstrings of the functions mypyc compiles
    (``__doc__`` is ``None``); the docs are built from the source, which has them.
    """
    module, name = getattr(obj, "__module__", None), getattr(obj, "__name__", None)
    if not (isinstance(module, str) and isinstance(name, str)):
        return ""
    path = ROOT / "src" / Path(*module.split(".")).with_suffix(".py")
    if not path.is_file():
        return ""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name == name:
            return ast.get_docstring(node) or ""
    return ""


def own_docstring(obj: object) -> str:
    """The docstring autodoc shows for a class, function or property; none for plain values.

    In the compiled build a compiled public function is a :class:`functools.partial`
    that carries its docstring (``fivehundred._engine.docs.documented``).
    """
    routine = inspect.isroutine(obj) or isinstance(obj, functools.partial)
    if inspect.isclass(obj) or routine or isinstance(obj, property):
        return inspect.getdoc(obj) or source_docstring(obj)
    return ""


def has_example(name: str, obj: object) -> bool:
    return ">>>" in own_docstring(obj) or ">>>" in ENTRIES.get(name, "")


PUBLIC: Final = sorted(set(fh.__all__) - NOT_ENTRIES)


def state_properties() -> list[str]:
    """The public properties of ``GameState``, read from its source.

    Read with ``ast`` rather than from the class, so that the compiled build
    (where mypyc turns properties into descriptors of its own) checks the same list.
    """
    tree = ast.parse(
        (ROOT / "src" / "fivehundred" / "_engine" / "state.py").read_text(encoding="utf-8")
    )
    (cls,) = (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "GameState")
    return sorted(
        item.name
        for item in cls.body
        if isinstance(item, ast.FunctionDef)
        and not item.name.startswith("_")
        and any(isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list)
    )


PROPERTIES: Final = state_properties()


def test_the_entries_and_names_are_found() -> None:
    assert len(PUBLIC) >= 50 and len(PROPERTIES) >= 30
    assert "fivehundred.deal" in ENTRIES and "fivehundred.PASS" in ENTRIES
    assert "fivehundred.GameState.phase" in ENTRIES


def test_a_docstring_is_read_from_the_source_when_the_build_dropped_it() -> None:
    assert ">>>" in source_docstring(fh.deal)
    assert source_docstring(fh.JOKER) == ""  # a value: no docstring of its own


def test_a_missing_example_is_caught() -> None:
    """The check reads the entry's own text: an example elsewhere on the page does not count."""
    page = (
        "```{eval-rst}\n.. py:data:: PASS\n   :module: fivehundred\n\n   A pass.\n\n"
        ".. autofunction:: fivehundred.deal\n\n   >>> 1 + 1\n   2\n```\n"
    )
    found = entries(page)
    assert ">>>" not in found["fivehundred.PASS"]
    assert ">>>" in found["fivehundred.deal"]


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_name_has_an_example_in_its_entry(name: str) -> None:
    full = f"fivehundred.{name}"
    assert full in ENTRIES or own_docstring(getattr(fh, name)), f"{full} has no API entry"
    assert has_example(full, getattr(fh, name)), f"the API entry of {full} has no >>> example"


@pytest.mark.parametrize("name", PROPERTIES)
def test_every_game_state_property_has_an_example_in_its_entry(name: str) -> None:
    full = f"fivehundred.GameState.{name}"
    assert has_example(full, getattr(fh.GameState, name)), f"{full} has no >>> example"
