"""The public/internal line of the package stays visible (issue 10).

- A module is internal when a part of its dotted name starts with ``_``
  (``fivehundred._core``, ``fivehundred.bots._search``); every other module is
  public and says what it offers in ``__all__``.
- No module imports another module's private (``_``-prefixed) name: a name one
  module lends another is a public name of an internal module.
- A public module imports from another public module only what that module
  offers in ``__all__``; anything else it needs comes from an internal module.
- No module outside the core reads another object's private attribute
  (``state._h``): the core offers functions for what the rest needs.

The checks read the source (``ast``), so they hold for the compiled build too.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from typing import Final

import pytest

import fivehundred
from fivehundred._deprecated import DEPRECATED_MODULES

SRC = Path(fivehundred.__file__).parent
#: Modules allowed to read the private fields of the objects they define and share.
CORE = {"fivehundred._core", "fivehundred._order"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_internal(name: str) -> bool:
    return any(part.startswith("_") and part != "__main__" for part in name.split("."))


SOURCES = {
    module_name(path): ast.parse(path.read_text(encoding="utf-8"), str(path))
    for path in sorted(SRC.rglob("*.py"))
}


def imports_from(tree: ast.Module) -> list[tuple[int, str, str]]:
    """Every ``from fivehundred... import name`` of a module: (line, module, name)."""
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.level == 0
            and node.module.split(".")[0] == "fivehundred"
        ):
            found += [(node.lineno, node.module, alias.name) for alias in node.names]
    return found


def is_module(parent: str, name: str) -> bool:
    return f"{parent}.{name}" in SOURCES


def test_the_scan_sees_the_package() -> None:
    assert {"fivehundred", "fivehundred._core", "fivehundred.bots._search"} <= set(SOURCES)
    assert len(SOURCES) > 30


#: The public modules; ``__main__`` is a program, not a library module, so it offers nothing,
#: and a deprecated module offers only its old names (which warn), so nothing in ``__all__``.
LIBRARY_MODULES: Final = sorted(
    n
    for n in SOURCES
    if not is_internal(n) and not n.endswith("__main__") and n not in DEPRECATED_MODULES
)
#: The most names the top-level package offers: what an application needs, no more.
MAX_TOP_LEVEL_NAMES: Final = 60


@pytest.mark.parametrize("name", LIBRARY_MODULES)
def test_every_public_module_says_what_it_offers(name: str) -> None:
    if name in {"fivehundred.openspiel", "fivehundred.pettingzoo"}:
        assert "__all__" in ast.unparse(SOURCES[name])  # their extras may be missing here
        return
    module = importlib.import_module(name)
    assert isinstance(module.__all__, list) and module.__all__, name


@pytest.mark.parametrize("name", LIBRARY_MODULES)
def test_every_public_module_lists_its_names_sorted(name: str) -> None:
    """``__all__`` sorted, without repeats: in plain ``sorted()`` order (as ``dir()``
    shows names), or in ruff's isort style (constants, then classes, then the rest)."""
    tree = SOURCES[name]
    (listed,) = [
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        and any(
            isinstance(t, ast.Name) and t.id == "__all__"
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        )
    ]
    names = ast.literal_eval(listed) if listed is not None else None
    assert isinstance(names, list) and len(names) == len(set(names)), name
    isort_style = sorted(names, key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n))
    assert names in (sorted(names), isort_style), name


def test_the_top_level_package_offers_at_most_sixty_names() -> None:
    assert len(fivehundred.__all__) <= MAX_TOP_LEVEL_NAMES
    assert fivehundred.__all__ == sorted(set(fivehundred.__all__))


def test_a_deprecated_module_offers_nothing_new() -> None:
    for name in DEPRECATED_MODULES:
        module = importlib.import_module(name)
        assert module.__all__ == [] and not [n for n in dir(module) if not n.startswith("_")]


def test_no_private_name_is_imported_across_modules() -> None:
    wrong = [
        f"{module}:{line} imports {source}.{name}"
        for module, tree in SOURCES.items()
        for line, source, name in imports_from(tree)
        if name.startswith("_") and not is_module(source, name)
    ]
    assert wrong == []


def test_public_modules_import_only_public_names_of_public_modules() -> None:
    wrong = []
    for module, tree in SOURCES.items():
        if is_internal(module):
            continue
        for line, source, name in imports_from(tree):
            if is_internal(source) or is_module(source, name) or name == "*":
                continue
            if source in {"fivehundred.openspiel", "fivehundred.pettingzoo"}:
                continue  # not imported by the library itself; extras
            offered = importlib.import_module(source).__all__
            if name not in offered:
                wrong.append(f"{module}:{line} imports {name}, not in {source}.__all__")
    assert wrong == []


DESIGN = SRC.parents[1] / "docs" / "explanation" / "design.md"


def design_layers() -> dict[str, int]:
    """The layer of each top-level module, from the table of the contributor's map."""
    layers: dict[str, int] = {}
    for line in DESIGN.read_text(encoding="utf-8").splitlines():
        row = re.match(r"^\| (\d)\. [^|]+\| ([^|]+)\|", line)
        if row:
            listed = re.sub(r"\([^)]*\)", "", row.group(2))  # bots' own modules are in (...)
            for name in re.findall(r"`(\w+)`", listed):
                layers[name] = int(row.group(1))
    return layers


def top_module(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def top_level_imports(tree: ast.Module) -> list[tuple[int, str]]:
    """The package modules a module imports when it loads (not those for type checkers)."""
    found = []
    for node in tree.body:
        checking = isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for item in node.body if isinstance(node, ast.If) and not checking else [node]:
            if isinstance(item, ast.ImportFrom) and item.module and item.level == 0:
                if item.module == "fivehundred":
                    found += [(item.lineno, alias.name) for alias in item.names]
                elif item.module.startswith("fivehundred."):
                    found.append((item.lineno, top_module(item.module)))
    return found


@pytest.mark.skipif(not DESIGN.exists(), reason="the docs are not beside this build")
def test_modules_import_only_their_own_and_lower_layers() -> None:
    layers = design_layers()
    assert layers["errors"] == 1 and layers["_core"] == 3 and layers["cli"] == 7
    assert layers["bots"] > layers["tensors"] > layers["cards"]
    unplaced = sorted({top_module(m) for m in SOURCES} - set(layers) - {"fivehundred"})
    assert unplaced == [], "place these modules in the table of docs/explanation/design.md"
    wrong = [
        f"{module}:{line} (layer {layers[top_module(module)]}) imports {target} "
        f"(layer {layers[target]})"
        for module, tree in SOURCES.items()
        if module != "fivehundred"
        for line, target in top_level_imports(tree)
        if target in layers and layers[target] > layers[top_module(module)]
    ]
    assert wrong == []


def own_private_names(tree: ast.Module) -> set[str]:
    """The ``_``-prefixed names a module defines: functions, class fields, self attributes."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
    return {name for name in names if name.startswith("_")}


def private_reads(tree: ast.Module) -> list[tuple[int, str]]:
    """Reads of a private attribute that the module does not define, or of an
    imported module's private name."""
    own = own_private_names(tree)
    modules = {  # the internal modules this one imports: their names are theirs to lend
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
        for alias in node.names
        if is_module(node.module, alias.name)
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        attr = node.attr
        if not attr.startswith("_") or attr.startswith("__"):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in modules:
            found.append((node.lineno, ast.unparse(node)))  # another module's private name
            continue
        if attr in own:
            continue
        if isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"}:
            continue
        if isinstance(node.value, ast.Name) and node.value.id in {"sys", "os"}:
            continue  # sys._getframe and the like: the standard library's own API
        found.append((node.lineno, ast.unparse(node)))
    return found


def test_no_module_outside_the_core_reads_private_fields() -> None:
    wrong = [
        f"{module}:{line} reads {text}"
        for module, tree in SOURCES.items()
        if module not in CORE
        for line, text in private_reads(tree)
    ]
    assert wrong == []


def test_the_scans_would_catch_a_breach() -> None:
    """The checks above are not vacuous: each one finds its breach in a sample."""
    sample = ast.parse(
        "from fivehundred.errors import _quote\nfrom fivehundred import _core\n"
        "def f(state):\n    return state._h.phase, _core._private\n"
    )
    assert [(s, n) for _, s, n in imports_from(sample)] == [
        ("fivehundred.errors", "_quote"),
        ("fivehundred", "_core"),
    ]
    assert is_module("fivehundred", "_core") and not is_module("fivehundred.errors", "_quote")
    assert sorted(private_reads(sample)) == [(4, "_core._private"), (4, "state._h")]
    assert is_internal("fivehundred.bots._search") and not is_internal("fivehundred.bots")
    upward = ast.parse("from fivehundred.bots import HeuristicPlayer\ndef f():\n    import x\n")
    assert top_level_imports(upward) == [(1, "bots")]  # a layer-6 import, caught in layer 1
