"""Both builds document every public name alike (issue 26).

mypyc drops the docstrings of what it compiles and gives compiled functions
signatures without annotations; ``fivehundred._engine.docs`` gives them back from the
source. Here every name in every public ``__all__`` (``tests/api_surface.py``
finds the modules with ``pkgutil``) must have the same ``inspect.getdoc`` and
``inspect.signature`` in the build under test as in the pure ``.py`` source,
read in a child process.

- ``nox -s tests``: both sides are the pure source: the surface is read the
  same way twice, and the helpers are tested on stand-ins below.
- ``nox -s tests_compiled``: this side is the installed compiled wheel.
"""

from __future__ import annotations

import ast
import enum
import functools
import importlib
import inspect
import json
import math
import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path
from typing import Any, Final

import attrs
import pytest

import fivehundred as fh
from api_surface import OPTIONAL, public_modules, signature_text, surface
from fivehundred._engine import docs as _docs

ROOT: Final = Path(__file__).resolve().parent.parent
SURFACE: Final = Path(__file__).resolve().parent / "api_surface.py"
EXPECT_COMPILED: Final = os.environ.get("FIVEHUNDRED_TEST_COMPILED", "") == "1"


@pytest.fixture(scope="module")
def pure() -> dict[str, Any]:
    """The surface of the pure source, from a child process (``python -I``)."""
    done = subprocess.run(
        [sys.executable, "-I", str(SURFACE), "--pure"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    assert found["compiled"] is False
    return found


def test_every_public_name_documents_as_in_the_pure_source(pure: dict[str, Any]) -> None:
    here = json.loads(json.dumps(surface()))
    assert fh.COMPILED is EXPECT_COMPILED
    assert sorted(here) == sorted(pure["surface"])
    differ = {
        name: {"here": here[name], "pure": pure["surface"][name]}
        for name in here
        if here[name] != pure["surface"][name]
    }
    assert differ == {}


def test_the_surface_holds_every_public_module_and_name() -> None:
    modules = public_modules()
    assert {"fivehundred", "fivehundred.engine", "fivehundred.tricks"} <= set(modules)
    assert not any(part.startswith("_") for name in modules for part in name.split("."))
    found = surface()
    for name in modules:
        status = found[name]
        assert isinstance(status, dict)
        if status["module"] != "ok":  # only a module of a missing optional extra
            assert status["module"] == f"missing extra {OPTIONAL[name]}"
            continue
        module = sys.modules[name]
        assert all(f"{name}.{attr}" in found for attr in getattr(module, "__all__", ()))


@pytest.mark.parametrize(
    ("name", "words", "annotated"),
    [
        ("apply", "The state after ``action``", "action: 'Action'"),
        ("legal_actions", "Every legal action", "-> 'tuple[Action, ...]'"),
        ("GameState", "One moment of a game", "to_act: 'int' = -1"),
    ],
)
def test_the_hot_entry_points_show_their_docs_and_types(
    name: str, words: str, annotated: str
) -> None:
    """What ``help()`` shows: the docstring, and a signature with its annotations."""
    obj = getattr(fh, name)
    assert (inspect.getdoc(obj) or "").startswith(words)
    assert annotated in (signature_text(obj) or "")


def test_a_state_reports_its_class_docstring() -> None:
    state = fh.deal(fh.new_game(dealer=0), seed=1)
    assert inspect.getdoc(state) == inspect.getdoc(fh.GameState)


# -- the helpers, on stand-ins for a compiled function and class ------------------------------

FIXTURE: Final = '''
from __future__ import annotations


def floor(x: float, /, *args: int, scale: int | None = None, **named: str) -> int:
    """The floor.

    In whole numbers.
    """
    return 0


class Plain:
    """A plain class, as mypyc leaves it (no docstring at run time)."""

    def __init__(self, a: int, b: tuple[int, ...] = ()) -> None:
        self.a = a


class Record:
    """An attrs class, which mypyc leaves a Python class with its filler docstring."""

    name: Card
    size: int = 3


class Kind:
    """An enum, which mypyc leaves a Python class too."""


class Shape(Protocol):
    """A protocol, which mypyc leaves with an empty docstring."""
'''


@pytest.fixture
def fixture_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """A module whose source is :data:`FIXTURE`, registered as ``fixture_docs``."""
    path = tmp_path / "fixture_docs.py"
    path.write_text(textwrap.dedent(FIXTURE), encoding="utf-8")
    module = types.ModuleType("fixture_docs")
    module.__file__ = str(path)
    monkeypatch.setitem(sys.modules, "fixture_docs", module)
    _docs._source_lines.cache_clear()
    return module


def test_a_compiled_function_gets_its_docs_from_its_source(
    fixture_module: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # math.floor stands in: a builtin function, as mypyc makes, named as in FIXTURE
    monkeypatch.setattr(math.floor, "__module__", "fixture_docs")
    public = _docs.documented(math.floor)
    assert public is not math.floor
    assert public(2.5) == 2  # the builtin itself is called
    assert inspect.getdoc(public) == "The floor.\n\nIn whole numbers."
    assert (public.__name__, public.__module__) == ("floor", "fixture_docs")
    assert signature_text(public) == (
        "(x: 'float', /, *args: 'int', scale: 'int | None' = None, **named: 'str') -> 'int'"
    )


def test_a_python_function_is_its_own_documentation() -> None:
    assert _docs.documented(fh.deal) is fh.deal


def test_a_compiled_class_gets_its_docs_from_its_source(
    fixture_module: types.ModuleType,
) -> None:
    plain = type("Plain", (), {"__module__": "fixture_docs", "__doc__": None})
    _docs.document_class(plain)
    assert inspect.getdoc(plain) == "A plain class, as mypyc leaves it (no docstring at run time)."
    assert inspect.getdoc(plain) == inspect.getdoc(plain())  # read once, then kept
    assert signature_text(plain) == "(a: 'int', b: 'tuple[int, ...]' = ()) -> 'None'"


def test_a_compiled_attrs_class_gets_its_docs_and_field_types_from_its_source(
    fixture_module: types.ModuleType,
) -> None:
    # as in the compiled build: the filler docstring, and annotations resolved to objects
    namespace: dict[str, object] = {"__module__": "fixture_docs", "__doc__": _docs.MYPYC_FILLER}
    namespace["__annotations__"] = {"name": fh.Card, "size": int}
    namespace["size"] = 3
    record = attrs.frozen(type("Record", (), namespace))
    assert "fivehundred.cards.Card" in (signature_text(record) or "")
    _docs.document_class(record)
    assert inspect.getdoc(record) == (
        "An attrs class, which mypyc leaves a Python class with its filler docstring."
    )
    assert signature_text(record) == "(name: 'Card', size: 'int' = 3) -> 'None'"


def test_a_compiled_enum_gets_its_docstring_and_keeps_its_signature(
    fixture_module: types.ModuleType,
) -> None:
    kind = enum.Enum("Kind", ["A"], module="fixture_docs")  # type: ignore[misc]  # a stand-in
    kind.__doc__ = _docs.MYPYC_FILLER
    before = signature_text(kind)
    _docs.document_class(kind)
    assert inspect.getdoc(kind) == "An enum, which mypyc leaves a Python class too."
    assert "__signature__" not in vars(kind) and signature_text(kind) == before


def test_a_compiled_protocol_gets_its_docstring_and_keeps_its_signature(
    fixture_module: types.ModuleType,
) -> None:
    def no_init(self: object) -> None:  # what typing gives a protocol: a Python __init__
        pass

    shape = type("Shape", (), {"__module__": "fixture_docs", "__doc__": "", "__init__": no_init})
    _docs.document_class(shape)
    assert inspect.getdoc(shape) == "A protocol, which mypyc leaves with an empty docstring."
    assert "__signature__" not in vars(shape)


def test_a_compiled_module_documents_its_own_public_names(
    fixture_module: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(math.floor, "__module__", "fixture_docs")  # as compiled in FIXTURE
    plain = type("Plain", (), {"__module__": "fixture_docs", "__doc__": None})
    names = {"floor": math.floor, "Plain": plain, "sqrt": math.sqrt, "limit": 3}
    vars(fixture_module).update(names, __all__=sorted(names))
    _docs.document_module("fixture_docs")
    public = fixture_module.floor
    assert public is not math.floor and public(2.5) == 2
    assert inspect.getdoc(public) == "The floor.\n\nIn whole numbers."
    assert inspect.getdoc(plain) == "A plain class, as mypyc leaves it (no docstring at run time)."
    assert fixture_module.sqrt is math.sqrt  # defined elsewhere: left as it is
    assert fixture_module.limit == 3


def test_a_class_with_a_docstring_is_left_as_it_is() -> None:
    class Documented:
        """Its own."""

    _docs.document_class(Documented)
    assert Documented.__doc__ == "Its own."
    assert "__signature__" not in vars(Documented)


# -- the runtime signatures against the annotations in the source ------------------------------


def _source_path(module: types.ModuleType) -> Path:
    """The ``.py`` source of a module, which ships beside a compiled module's extension."""
    path = Path(module.__file__ or "")
    return path if path.suffix == ".py" else path.with_name(module.__name__.rsplit(".")[-1] + ".py")


def _source_defs(module: types.ModuleType) -> dict[str, ast.FunctionDef]:
    """The ``def`` of each name in a module's source: a typed stub under ``if TYPE_CHECKING:``
    wins (it is what type checkers read), else the last top-level ``def`` (an overloaded
    function's implementation)."""
    tree = ast.parse(_source_path(module).read_text(encoding="utf-8"))
    found: dict[str, ast.FunctionDef] = {}
    stubs: dict[str, ast.FunctionDef] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found[node.name] = node
        elif isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            stubs.update((n.name, n) for n in node.body if isinstance(n, ast.FunctionDef))
    return {**found, **stubs}


def _written(node: ast.FunctionDef) -> list[tuple[str, str]]:
    """Each parameter's name and annotation as written, in order, then the return annotation."""
    args = node.args
    every = [*args.posonlyargs, *args.args, *([args.vararg] if args.vararg else [])]
    every += [*args.kwonlyargs, *([args.kwarg] if args.kwarg else [])]
    pairs = [(arg.arg, ast.unparse(arg.annotation) if arg.annotation else "") for arg in every]
    return [*pairs, ("return", ast.unparse(node.returns) if node.returns else "")]


def _text(annotation: object) -> str:
    if annotation is inspect.Parameter.empty:
        return ""
    return annotation if isinstance(annotation, str) else f"evaluated {annotation!r}"


def _shown(obj: Any) -> list[tuple[str, str]]:
    """Each parameter's name and annotation as ``inspect.signature`` shows them, then the return."""
    sig = inspect.signature(obj)
    pairs = [(name, _text(param.annotation)) for name, param in sig.parameters.items()]
    return [*pairs, ("return", _text(sig.return_annotation))]


def _public_functions() -> list[tuple[str, str]]:
    """``(module, name)`` of every public function (compiled stand-ins included)."""
    found = []
    for name in public_modules():
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue  # a module of a missing optional extra
        for attr in getattr(module, "__all__", ()):
            obj = getattr(module, attr)
            if inspect.isfunction(obj) or isinstance(
                obj, (functools.partial, types.BuiltinFunctionType)
            ):
                found.append((name, attr))
    return found


PUBLIC_FUNCTIONS: Final = _public_functions()


def _stub(name: str, obj: object) -> ast.FunctionDef | None:
    """The typed stub of ``name`` in a public module that exports this very object, if any."""
    for module, attr in PUBLIC_FUNCTIONS:
        home = sys.modules[module]
        if attr == name and getattr(home, attr) is obj:
            for node in ast.parse(_source_path(home).read_text(encoding="utf-8")).body:
                if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
                    for item in node.body:
                        if isinstance(item, ast.FunctionDef) and item.name == name:
                            return item
    return None


@pytest.mark.parametrize(
    ("module", "name"), PUBLIC_FUNCTIONS, ids=[f"{m}.{n}" for m, n in PUBLIC_FUNCTIONS]
)
def test_each_public_function_shows_the_annotations_of_its_source(module: str, name: str) -> None:
    """``inspect.signature`` (``help()``) shows the types written in the source, on both builds:
    the typed stub where a public module has one (``apply``: not the core's ``object``)."""
    obj = getattr(sys.modules[module], name)
    node = _stub(name, obj)
    if node is None:  # the def in the module that defines it
        target = obj.func if isinstance(obj, functools.partial) else obj
        node = _source_defs(sys.modules[target.__module__]).get(name)
    assert node is not None, f"no def {name} in the source"
    assert _shown(obj) == _written(node)


def test_apply_shows_the_types_mypy_sees() -> None:
    sig = inspect.signature(fh.apply)
    assert str(sig) == (
        "(state: 'GameState', action: 'Action', *, seat: 'int | AnySeat' = fivehundred.ANY_SEAT)"
        " -> 'GameState'"
    )
    assert "'object'" not in str(inspect.signature(fh.legal_actions))
