"""The public/internal line of the package stays visible (issue 10).

- A module is internal when a part of its dotted name starts with ``_``
  (``fivehundred._engine.play``, ``fivehundred.bots._search``); every other module is
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
from collections.abc import Mapping
from pathlib import Path
from typing import Final

import pytest

import fivehundred

SRC = Path(fivehundred.__file__).parent
#: The package allowed to read the private fields of the objects its modules define and share.
CORE = "fivehundred._engine"


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
    assert {"fivehundred", "fivehundred._engine.play", "fivehundred.bots._search"} <= set(SOURCES)
    assert len(SOURCES) > 30


#: The public modules; ``__main__`` is a program, not a library module, so it offers nothing.
LIBRARY_MODULES: Final = sorted(
    n for n in SOURCES if not is_internal(n) and not n.endswith("__main__")
)
#: The adapter modules, which need their extras to import.
EXTRA_MODULES: Final = {
    "fivehundred.ai.openspiel",
    "fivehundred.ai.pettingzoo",
    "fivehundred.ai.pettingzoo.fivehundred_v1",
}
#: The most names the top-level package offers: what an application needs, no more.
MAX_TOP_LEVEL_NAMES: Final = 64


@pytest.mark.parametrize("name", LIBRARY_MODULES)
def test_every_public_module_says_what_it_offers(name: str) -> None:
    if name in EXTRA_MODULES:
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


def test_the_top_level_package_offers_at_most_max_top_level_names() -> None:
    assert len(fivehundred.__all__) <= MAX_TOP_LEVEL_NAMES
    assert fivehundred.__all__ == sorted(set(fivehundred.__all__))


def test_no_private_name_is_imported_across_modules() -> None:
    """No import of another module's ``_name``, relative imports and imports inside
    functions included; an internal module itself may be imported (see
    :func:`test_no_internal_module_is_imported_from_outside_its_package`)."""
    wrong = [
        f"{module}:{line} imports {source}.{name}"
        for module, tree in SOURCES.items()
        for line, source, name in import_targets(module, tree)
        if name is not None and name.startswith("_")
    ]
    assert wrong == [], "\n".join(wrong)


def test_public_modules_import_only_public_names_of_public_modules() -> None:
    wrong = []
    for module, tree in SOURCES.items():
        if is_internal(module):
            continue
        for line, source, name in imports_from(tree):
            if is_internal(source) or is_module(source, name) or name == "*":
                continue
            if source in EXTRA_MODULES:
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
            listed = re.sub(r"\([^)]*\)", "", row.group(2))  # a package's own modules: (...)
            for name in re.findall(r"`([\w.]+)`", listed):
                layers[name] = int(row.group(1))
    return layers


#: The helper modules kept inside the core's private package whose layer is their own
#: (``_engine.cardtext`` is a value module), placed by name in the design table.
ENGINE_HELPERS: Final = (
    frozenset(name for name in design_layers() if name.startswith("_engine."))
    if DESIGN.exists()
    else frozenset()
)


def top_module(name: str) -> str:
    """The design table's name for a module: its top-level module or package, or
    ``_engine.x`` for a helper of the core's package that the table places itself."""
    parts = name.split(".")
    if len(parts) > 2 and ".".join(parts[1:3]) in ENGINE_HELPERS:
        return ".".join(parts[1:3])
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
                    found += sorted(
                        {
                            (item.lineno, top_module(f"{item.module}.{alias.name}"))
                            if f"{item.module}.{alias.name}" in SOURCES
                            else (item.lineno, top_module(item.module))
                            for alias in item.names
                        }
                    )
    return found


@pytest.mark.skipif(not DESIGN.exists(), reason="the docs are not beside this build")
def test_modules_import_only_their_own_and_lower_layers() -> None:
    layers = design_layers()
    assert layers["errors"] == 1 and layers["_engine"] == 3 and layers["cli"] == 8
    assert layers["ai"] > layers["bots"] > layers["engine"] > layers["cards"]
    assert layers["_engine.cardtext"] == layers["cards"] and layers["_engine.dds"] == 4
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
        if module != CORE and not module.startswith(CORE + ".")
        for line, text in private_reads(tree)
    ]
    assert wrong == []


def test_the_scans_would_catch_a_breach() -> None:
    """The checks above are not vacuous: each one finds its breach in a sample."""
    sample = ast.parse(
        "from fivehundred.errors import _quote\nfrom fivehundred import _engine\n"
        "def f(state):\n    return state._h.phase, _engine._private\n"
    )
    assert [(s, n) for _, s, n in imports_from(sample)] == [
        ("fivehundred.errors", "_quote"),
        ("fivehundred", "_engine"),
    ]
    assert is_module("fivehundred", "_engine") and not is_module("fivehundred.errors", "_quote")
    assert sorted(private_reads(sample)) == [(4, "_engine._private"), (4, "state._h")]
    assert is_internal("fivehundred.bots._search") and not is_internal("fivehundred.bots")
    upward = ast.parse("from fivehundred.bots import HeuristicPlayer\ndef f():\n    import x\n")
    assert top_level_imports(upward) == [(1, "bots")]  # a layer-6 import, caught in layer 1


# -- import cycles, module size and private modules (issue 26) ------------------------------

#: No module of the package is longer than this, in lines.
MAX_LINES: Final = 800


def import_targets(
    module: str, tree: ast.Module, known: Mapping[str, object] = SOURCES
) -> list[tuple[int, str, str | None]]:
    """Every import of a module of the package, anywhere in ``module``'s source.

    Each is ``(line, target, name)``: ``target`` the module the import loads,
    ``name`` the name it takes from that module (``None`` when it takes the
    module itself). Relative imports are resolved against ``module``'s package;
    ``from package import name`` targets the submodule ``package.name`` when
    there is one, else ``package`` itself; ``import a.b.c`` targets the longest
    of ``a.b.c``, ``a.b``, ``a`` that is a module of the package. ``known`` are
    the modules of the tree scanned (the package's, unless told).
    """
    is_package = any(name.startswith(f"{module}.") for name in known)
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                prefixes = (".".join(parts[:n]) for n in range(len(parts), 0, -1))
                target = next((p for p in prefixes if p in known), None)
                if target is not None:
                    found.append((node.lineno, target, None))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            if base not in known:
                continue
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    found.append((node.lineno, f"{base}.{alias.name}", None))
                else:
                    found.append((node.lineno, base, alias.name))
    return found


def import_graph(sources: dict[str, ast.Module]) -> dict[str, dict[str, list[int]]]:
    """Who imports whom: importer -> imported module -> the lines of the imports."""
    graph: dict[str, dict[str, list[int]]] = {name: {} for name in sources}
    for module, tree in sources.items():
        for line, target, _ in import_targets(module, tree, sources):
            if target != module:
                graph[module].setdefault(target, []).append(line)
    return graph


def import_cycles(graph: dict[str, dict[str, list[int]]]) -> list[list[str]]:
    """The modules of every import cycle: each strongly connected part of more than one
    module (Tarjan's algorithm), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, {})):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                part.append(member)
                if member == node:
                    break
            if len(part) > 1:
                cycles.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(cycles)


def describe_cycle(graph: dict[str, dict[str, list[int]]], members: list[str]) -> str:
    """A cycle's modules, then each import that keeps it closed (``a:12 -> b``)."""
    inside = set(members)
    edges = [
        f"{module}:{','.join(map(str, sorted(set(lines))))} -> {target}"
        for module in members
        for target, lines in sorted(graph[module].items())
        if target in inside
    ]
    return f"cycle of {len(members)}: {', '.join(members)} [{'; '.join(edges)}]"


def test_no_import_cycle_among_the_modules() -> None:
    """No module of the package imports, directly or through others, a module that
    imports it (issue 26).

    Every import counts: at the top of a module, inside a function (a lazy import
    still ties the two modules' designs together, and runs), and under
    ``if TYPE_CHECKING:`` (an import for annotations only is still a dependency a
    reader must follow, and mypy resolves it; a cycle that only type checking sees
    is fixed the same way, by moving the shared type down). A package's
    ``__init__`` is not imported by ``from package.module import x``: Python runs
    it first, but it is the parent, not a dependency the importer chose; it is
    imported by ``import package`` and by ``from package import name`` for a
    ``name`` that is not a submodule. Imports by a computed name
    (``importlib.import_module(name)``) are not seen: the lazy names of
    ``fivehundred/__init__.py`` are listed for type checkers too, and seen there.
    """
    graph = import_graph(SOURCES)
    cycles = [describe_cycle(graph, members) for members in import_cycles(graph)]
    assert cycles == [], "\n".join(cycles)


BENCHMARKS: Final = SRC.parents[1] / "benchmarks"


@pytest.mark.skipif(not BENCHMARKS.is_dir(), reason="the benchmarks are not beside this build")
def test_no_import_cycle_among_the_benchmark_modules() -> None:
    """The benchmark tree (outside the wheel) has no import cycle either, counted the
    same way: ``benchmarks.server`` and ``benchmarks.suite`` share their result types
    through ``benchmarks.results``."""
    sources = {
        ".".join(path.relative_to(BENCHMARKS.parent).with_suffix("").parts).removesuffix(
            ".__init__"
        ): ast.parse(path.read_text(encoding="utf-8"), str(path))
        for path in sorted(BENCHMARKS.glob("*.py"))
    }
    assert {"benchmarks", "benchmarks.suite", "benchmarks.server"} <= set(sources)
    graph = import_graph(sources)
    assert "benchmarks.results" in graph["benchmarks.server"]  # the scan sees the imports
    cycles = [describe_cycle(graph, members) for members in import_cycles(graph)]
    assert cycles == [], "\n".join(cycles)


def test_no_module_is_over_800_lines() -> None:
    """Every module under ``src/fivehundred``, public or internal, is at most 800 lines
    (issue 26: a module a contributor can read in one sitting)."""
    long = {
        module_name(path): n
        for path in sorted(SRC.rglob("*.py"))
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}, f"over {MAX_LINES} lines: {long}"


def owner(name: str) -> str | None:
    """The package a module is internal to: its name before the first ``_`` part
    (``fivehundred.bots`` for ``fivehundred.bots._search``); ``None`` for a public one."""
    parts = name.split(".")
    for n, part in enumerate(parts):
        if part.startswith("_") and part != "__main__":
            return ".".join(parts[:n])
    return None


def may_use_internals_of(module: str, package: str) -> bool:
    """A module may import the internal modules of its own package, of every package
    that contains it (a subpackage is part of its parent's code), and of the packages
    its own package contains (a package answers for its subpackages); never those of
    a sibling or cousin package."""
    home = module.rsplit(".", 1)[0] if "." in module else module
    inside = module == package or module.startswith(f"{package}.")
    return inside or package.startswith(f"{home}.")


def test_no_internal_module_is_imported_from_outside_its_package() -> None:
    """An internal module is used only inside the package it belongs to (issue 26).

    "Across a package boundary" means: from a package beside the one that owns the
    internal module. ``fivehundred.bots._search`` belongs to ``fivehundred.bots``:
    ``fivehundred.bots.pimc`` may import it (``fivehundred`` answers for its
    subpackages), ``fivehundred.cli._table`` may not (``cli`` and ``bots`` are
    siblings: the command line takes what ``fivehundred.bots`` offers).
    ``fivehundred._engine.explain`` belongs to ``fivehundred``, of which every subpackage
    (``bots``, ``cli``, ``server``) is part, so they may. Every import counts, as
    for cycles.
    """
    wrong = sorted(
        {
            f"{module}:{line} imports {target} (internal to {home})"
            for module, tree in SOURCES.items()
            for line, target, _ in import_targets(module, tree)
            if (home := owner(target)) is not None and not may_use_internals_of(module, home)
        }
    )
    assert wrong == [], "\n".join(wrong)


def test_the_new_scans_would_catch_a_breach() -> None:
    """The cycle, size and boundary checks find their breach in a sample."""
    sample = ast.parse(
        "from ._engine import explain\nfrom .bots import _search, players\nfrom ..x import y\n"
        "def f():\n    from fivehundred.cards import _SECRET\n    import fivehundred.bots\n"
    )
    found = import_targets("fivehundred.engine", sample)
    assert (1, "fivehundred._engine.explain", None) in found
    assert (2, "fivehundred.bots._search", None) in found
    assert (2, "fivehundred.bots", "players") in found  # not a module: a name of bots
    assert (5, "fivehundred.cards", "_SECRET") in found  # inside a function
    assert (6, "fivehundred.bots", None) in found
    assert not any(target == "x" or target.endswith(".x") for _, target, _ in found)
    assert import_targets("fivehundred.bots", ast.parse("from . import _search")) == [
        (1, "fivehundred.bots._search", None)
    ]
    loop = {"a": {"b": [1]}, "b": {"c": [2]}, "c": {"a": [3]}, "d": {"a": [4]}}
    assert import_cycles(loop) == [["a", "b", "c"]]
    assert describe_cycle(loop, ["a", "b", "c"]) == (
        "cycle of 3: a, b, c [a:1 -> b; b:2 -> c; c:3 -> a]"
    )
    assert import_cycles({"a": {"b": [1]}, "b": {}}) == []
    assert owner("fivehundred.bots._search") == "fivehundred.bots"
    assert (
        owner("fivehundred._engine.explain") == "fivehundred" and owner("fivehundred.cli") is None
    )
    assert may_use_internals_of("fivehundred.bots._search", "fivehundred")
    assert may_use_internals_of("fivehundred.bots.pimc", "fivehundred.bots")
    assert not may_use_internals_of("fivehundred.cli._table", "fivehundred.bots")
    assert not may_use_internals_of("fivehundred.server.app", "fivehundred.cli")
    assert not may_use_internals_of("fivehundred.ai.openspiel", "fivehundred.bots")
    assert MAX_LINES == 800


# -- a package laid out by audience (issue 36) ----------------------------------------------

#: The most modules and packages directly in ``src/fivehundred``, public and private together.
MAX_TOP_LEVEL_MODULES: Final = 20
#: Who each top-level package is for: the rules are the top level itself.
AUDIENCE_PACKAGES: Final = {
    "fivehundred.ai": {"encoding", "tensors", "playout", "openspiel", "pettingzoo"},
    "fivehundred.bots": {"pimc", "tournament"},
}


def top_level_entries() -> list[str]:
    """The modules (``x.py``) and packages (folders with ``__init__.py``) of the package."""
    return sorted(
        path.stem if path.is_file() else path.name
        for path in SRC.iterdir()
        if (path.is_file() and path.suffix == ".py")
        or (path.is_dir() and (path / "__init__.py").exists())
    )


def test_the_top_level_holds_at_most_twenty_modules() -> None:
    entries = top_level_entries()
    assert {"__init__", "_engine", "ai", "bots", "cards", "engine"} <= set(entries)
    assert len(entries) <= MAX_TOP_LEVEL_MODULES, entries


@pytest.mark.parametrize("package", sorted(AUDIENCE_PACKAGES))
def test_each_audience_finds_its_modules_in_its_package(package: str) -> None:
    inside = {name.removeprefix(f"{package}.").split(".")[0] for name in SOURCES}
    assert AUDIENCE_PACKAGES[package] <= inside
    assert not AUDIENCE_PACKAGES[package] & set(top_level_entries())  # and not at the top


def defines_code(tree: ast.Module) -> bool:
    """Whether a module defines a function or class of its own (not only imports)."""
    return any(isinstance(node, ast.FunctionDef | ast.ClassDef) for node in ast.walk(tree))


def twin(name: str) -> str | None:
    """The private module of the same name beside a module (``x`` and ``_x``), if any."""
    parent, _, leaf = name.rpartition(".")
    found = f"{parent}._{leaf}"
    return found if found in SOURCES else None


def test_no_public_module_only_re_exports_its_private_twin() -> None:
    """A public module is the code it offers, not a façade that only re-exports the
    private module of its name (the old ``compact``/``_compact``, ``solver``/``_solver``)."""
    facades = sorted(
        name
        for name, tree in SOURCES.items()
        if not is_internal(name) and twin(name) is not None and not defines_code(tree)
    )
    assert facades == []
    sample = ast.parse("from fivehundred._x import y\n__all__ = ['y']\n")
    assert not defines_code(sample) and defines_code(ast.parse("def f():\n    pass\n"))


def test_nothing_is_kept_for_old_names_before_the_first_release() -> None:
    """No deprecation shim: 1.0.0 is the first release (docs/reference/stability.md)."""
    shims = sorted(
        name
        for name, tree in SOURCES.items()
        if "DeprecationWarning" in ast.unparse(tree) or "deprecated_getattr" in ast.unparse(tree)
    )
    assert shims == []
    assert not hasattr(fivehundred, "encode_action")


README: Final = SRC.parents[1] / "README.md"


@pytest.mark.skipif(not README.exists(), reason="the README is not beside this build")
def test_the_readme_map_of_the_package_names_what_is_there() -> None:
    """Each dotted name the README's "Where things are" table gives is a module or a name
    of one, and each audience's package is named."""
    text = README.read_text(encoding="utf-8")
    table = text[text.index("## Where things are") :].split("\n## ", 1)[0]
    named = set(re.findall(r"`(fivehundred(?:\.\w+)*)`", table))
    assert {"fivehundred", "fivehundred.bots", "fivehundred.ai"} <= named
    for name in sorted(named):
        if name in SOURCES:
            continue
        module, _, attr = name.rpartition(".")
        if module in EXTRA_MODULES or name in EXTRA_MODULES:
            continue
        assert hasattr(importlib.import_module(module), attr), name
