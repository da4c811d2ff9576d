"""The docstrings and signatures of compiled public objects, read from their source.

mypyc drops the docstring of every function and class it compiles, and gives
each only a text signature without annotations: in the compiled build,
``help(fh.apply)`` and ``fh.GameState.__doc__`` showed nothing. The ``.py``
source of each compiled module ships beside its extension module, so the few
public objects defined in one take their documentation back from it:

- :func:`document_class`: a compiled class is a heap type, so it takes a
  ``__doc__`` and a ``__signature__`` that read the source on first use. A
  class costs nothing until someone asks for its documentation. A class that
  mypyc leaves a Python class (an ``attrs`` class, an enum) has mypyc's filler
  docstring, and an ``attrs`` class's signature names its fields' types as
  resolved objects: both are read from the source the same way.
- :func:`documented`: a compiled function's ``__doc__`` cannot be set, and no
  text signature carries annotations, so the public name is a
  :class:`functools.partial` of it that carries both. The partial calls the
  function from C (vectorcall, no Python frame in between), so the hot entry
  points keep their compiled speed.

In the pure build each object has its own docstring and both helpers hand it
back unchanged. ``tests/test_api_surface.py`` checks that every public name
documents alike in both builds.
"""

from __future__ import annotations

import ast
import functools
import inspect
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeVar

__all__ = [
    "MYPYC_FILLER",
    "document_class",
    "document_module",
    "documented",
    "mypyc_attr",
    "stub_signature",
]

F = TypeVar("F", bound=Callable[..., Any])
C = TypeVar("C")

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr  # noqa: PLC0414 - re-exported
else:

    def mypyc_attr(**attrs: object) -> Callable[[C], C]:
        """``@mypyc_attr(acyclic=True)`` and the like: how mypyc compiles a class.

        mypyc reads the decorator as it compiles (its name resolves to
        ``mypy_extensions.mypyc_attr`` for the type checker) and leaves nothing of
        it at run time; this module is never compiled, so the pure build, which does
        run the decorator, gets this no-op and needs no ``mypy_extensions``.
        """
        return lambda cls: cls


@functools.cache
def _source_lines(module: str) -> tuple[str, ...]:
    """The lines of the ``.py`` file of ``module``, which ships beside its extension module."""
    path = Path(sys.modules[module].__file__ or "").with_name(module.rsplit(".", 1)[-1] + ".py")
    return tuple(path.read_text(encoding="utf-8").splitlines(keepends=True))


def _source_node(module: str, name: str) -> ast.FunctionDef | ast.ClassDef:
    """The top-level ``def``/``class`` ``name`` of ``module``, parsed from its ``.py`` file.

    Only that block is read and parsed (:func:`inspect.getblock`), not the whole
    module: the core's source is long, and this runs when the package is imported.
    """
    lines = _source_lines(module)
    heads = (f"def {name}(", f"class {name}:", f"class {name}(")
    start = next(at for at, line in enumerate(lines) if line.startswith(heads))
    block = "".join(inspect.getblock(lines[start:]))
    node = ast.parse(block).body[0]
    assert isinstance(node, (ast.FunctionDef, ast.ClassDef)), node
    return node


def _signature(
    node: ast.FunctionDef, *, drop_first: bool = False, namespace: dict[str, Any] | None = None
) -> inspect.Signature:
    """The signature a ``def`` has in the pure build: annotations as their source text.

    The compiled modules use ``from __future__ import annotations``, so the pure
    build's annotations are these strings. Defaults are literals (``None``, ``-1``, ``()``),
    or names looked up in ``namespace``.
    """

    def value(default: ast.expr) -> object:
        if namespace is not None and isinstance(default, ast.Name):
            return namespace[default.id]
        return ast.literal_eval(default)

    args = node.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[object] = [inspect.Parameter.empty] * (len(positional) - len(args.defaults))
    defaults += [value(default) for default in args.defaults]
    kinds: list[Any] = [inspect.Parameter.POSITIONAL_ONLY] * len(args.posonlyargs)
    kinds += [inspect.Parameter.POSITIONAL_OR_KEYWORD] * len(args.args)
    params: list[tuple[ast.arg, Any, object]] = list(zip(positional, kinds, defaults, strict=True))
    if args.vararg is not None:
        params.append((args.vararg, inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.empty))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        given = inspect.Parameter.empty if default is None else value(default)
        params.append((arg, inspect.Parameter.KEYWORD_ONLY, given))
    if args.kwarg is not None:
        params.append((args.kwarg, inspect.Parameter.VAR_KEYWORD, inspect.Parameter.empty))

    def text(annotation: ast.expr | None) -> object:
        return inspect.Parameter.empty if annotation is None else ast.unparse(annotation)

    return inspect.Signature(
        [
            inspect.Parameter(arg.arg, kind, default=default, annotation=text(arg.annotation))
            for arg, kind, default in params[1 if drop_first else 0 :]
        ],
        return_annotation=text(node.returns),
    )


def documented(function: F, *, signature: inspect.Signature | None = None) -> F:
    """``function`` as the public name, with its docstring and annotated signature.

    ``signature``, when given, is the signature to show instead of the
    function's own: that of a typed stub (:func:`stub_signature`), for a core
    function annotated ``object`` because it checks its arguments' types itself.

    A Python function (the pure build) comes back as it is, given ``signature``
    as its ``__signature__``. A compiled one comes back as a
    :class:`functools.partial` of it carrying its ``__doc__``, name, module and
    ``__signature__`` from its source (see the module docstring).
    """
    if not isinstance(function, types.BuiltinFunctionType):
        if signature is not None:
            function.__signature__ = signature  # type: ignore[attr-defined]  # read by inspect
        return function
    node = _source_node(function.__module__, function.__name__)
    assert isinstance(node, ast.FunctionDef), node
    public: Any = functools.partial(function)
    public.__doc__ = ast.get_docstring(node, clean=False)
    public.__name__ = public.__qualname__ = function.__name__
    public.__module__ = function.__module__
    public.__signature__ = _signature(node) if signature is None else signature
    return public  # type: ignore[no-any-return]  # a stand-in with F's call signature


def stub_signature(module: str, name: str) -> inspect.Signature:
    """The signature of the stub ``def name`` under ``if TYPE_CHECKING:`` in ``module``.

    A public module types a core function for type checkers with such a stub;
    this reads the stub from the module's source (the module is being imported:
    only its ``if TYPE_CHECKING:`` block is parsed), so that ``inspect.signature``
    and ``help()`` show the types mypy sees. Defaults are literals or names of
    the module (``ANY_SEAT``).
    """
    lines = _source_lines(module)
    start = next(at for at, line in enumerate(lines) if line.startswith("if TYPE_CHECKING:"))
    end = next(
        at
        for at in range(start + 1, len(lines))
        if lines[at].strip() and not lines[at][0].isspace()  # back at the top level
    )
    block = ast.parse("".join(lines[start:end]))
    guard = block.body[0]
    assert isinstance(guard, ast.If), guard
    node = next(
        item for item in guard.body if isinstance(item, ast.FunctionDef) and item.name == name
    )
    return _signature(node, namespace=vars(sys.modules[module]))


#: The docstring mypyc gives a class it leaves a Python class (``attrs`` classes, enums).
MYPYC_FILLER: Final = "mypyc filler docstring"


def _attrs_signature(owner: type, node: ast.ClassDef) -> inspect.Signature:
    """An ``attrs`` class's signature with each field's annotation as its source text.

    The parameters and defaults are those of the generated ``__init__``; only the
    annotations, resolved to objects in the compiled build, are replaced.
    """
    texts = {
        item.target.id: ast.unparse(item.annotation)
        for item in node.body
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
    }
    signature = inspect.signature(vars(owner)["__init__"])
    params = list(signature.parameters.values())[1:]  # without self
    return signature.replace(
        parameters=[p.replace(annotation=texts.get(p.name, p.annotation)) for p in params],
        return_annotation="None",
    )


class _FromSource:
    """A class's ``__doc__`` or ``__signature__``, read from its source when first asked."""

    def __init__(self, attribute: str) -> None:
        self.attribute = attribute
        self.value: object = None
        self.done = False

    def __get__(self, instance: object, owner: type) -> object:
        if not self.done:
            node = _source_node(owner.__module__, owner.__qualname__)
            assert isinstance(node, ast.ClassDef), node
            if self.attribute == "__doc__":
                self.value = ast.get_docstring(node, clean=False)
            elif hasattr(owner, "__attrs_attrs__"):
                self.value = _attrs_signature(owner, node)
            else:
                init = next(
                    item
                    for item in node.body
                    if isinstance(item, ast.FunctionDef) and item.name == "__init__"
                )
                self.value = _signature(init, drop_first=True)
            self.done = True
        return self.value


def document_class(cls: type) -> None:
    """Give a compiled class its docstring and annotated signature from its source.

    A class with a docstring of its own (the pure build) is left as it is. A compiled
    (native) class gets its docstring and the signature of its ``__init__``. A class
    that mypyc left a Python class (the filler docstring; a protocol, whose
    ``__init__`` is a Python function, with an empty one) gets its docstring, and an
    ``attrs`` class its fields' signature; the others keep the signature they have.
    """
    doc = cls.__doc__
    if doc and doc != MYPYC_FILLER:
        return
    cls.__doc__ = _FromSource("__doc__")  # type: ignore[assignment]  # type.__doc__ calls __get__
    native = doc != MYPYC_FILLER and not isinstance(vars(cls).get("__init__"), types.FunctionType)
    if native or hasattr(cls, "__attrs_attrs__"):
        cls.__signature__ = _FromSource("__signature__")  # type: ignore[attr-defined]  # inspect


def document_module(name: str) -> None:
    """Document the public objects of the compiled public module ``name`` from its source.

    Called at the end of the module: each compiled function named in its ``__all__``
    becomes its :func:`documented` stand-in in the module's namespace (the module's
    own calls go to the compiled function directly), and each class defined there is
    given to :func:`document_class`. In the pure build nothing changes.
    """
    module = sys.modules[name]
    for attr in getattr(module, "__all__", ()):
        obj = getattr(module, attr)
        if getattr(obj, "__module__", None) != name:
            continue  # imported from elsewhere
        if isinstance(obj, types.BuiltinFunctionType):
            setattr(module, attr, documented(obj))
        elif isinstance(obj, type):
            document_class(obj)
