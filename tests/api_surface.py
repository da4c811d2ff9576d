"""The public surface of ``fivehundred`` as JSON: each public name's docstring and signature.

:func:`public_modules` finds every public module and subpackage (``pkgutil``,
no ``_``-prefixed part in the name); :func:`surface` maps ``module.name`` of
every name in each ``__all__`` to its ``inspect.getdoc`` and its
``inspect.signature`` in a normalised text form (:func:`signature_text`).

``test_api_surface`` runs it in-process, on the build under test, and in a
child process on the pure ``.py`` source of ``src/``::

    python -I tests/api_surface.py --pure

so the compiled build's documentation is checked against its own source.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
TESTS: Final = ROOT / "tests"

#: Public modules that need an optional extra, and the extra (pyproject's
#: ``[project.optional-dependencies]``). Where the extra is not installed the
#: module is reported as missing, on both sides alike; any other module must import.
OPTIONAL: Final = {
    "fivehundred.ai.openspiel": "openspiel",
    "fivehundred.ai.pettingzoo": "pettingzoo",
    "fivehundred.ai.pettingzoo.fivehundred_v1": "pettingzoo",
    "fivehundred.server": "server",
    "fivehundred.server.app": "server",
    "fivehundred.server.serve": "server",
    "fivehundred.server.tables": "server",
}

#: ``<object at 0x7f...>``: an address differs from one process to the next.
_ADDRESS: Final = re.compile(r" at 0x[0-9a-fA-F]+")


def public_modules() -> list[str]:
    """``fivehundred`` and every module and subpackage under it with no ``_`` part, sorted."""
    import fivehundred

    names = ["fivehundred"]
    for info in pkgutil.walk_packages(fivehundred.__path__, "fivehundred.", onerror=lambda _: None):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return sorted(names)


def _annotation(annotation: object) -> str:
    """An annotation as text: a string as written, an evaluated one as ``typing`` prints it."""
    if annotation is inspect.Parameter.empty:
        return ""
    if isinstance(annotation, str):
        return annotation
    return inspect.formatannotation(annotation)


def signature_text(obj: object) -> str | None:
    """``inspect.signature(obj)`` with every annotation as text, or ``None`` when it has none.

    String annotations (``from __future__ import annotations``) and evaluated
    ones compare alike: each is written as text (:func:`_annotation`).
    """
    try:
        sig = inspect.signature(obj)  # type: ignore[arg-type]  # any object: TypeError if none
    except (TypeError, ValueError):
        return None
    params = [
        param.replace(annotation=_annotation(param.annotation) or param.empty)
        for param in sig.parameters.values()
    ]
    returns = _annotation(sig.return_annotation) or sig.empty
    text = str(sig.replace(parameters=params, return_annotation=returns))
    return _ADDRESS.sub("", text)


def describe(obj: object) -> dict[str, str | None]:
    """The docstring and the signature of one public object."""
    return {"doc": inspect.getdoc(obj), "signature": signature_text(obj)}


def surface() -> dict[str, object]:
    """``{"module.name": describe(obj)}`` for every public name, plus each module's status.

    A module of an optional extra that is not installed shows as
    ``{"module": "missing extra NAME"}``; any other import error propagates.
    """
    found: dict[str, object] = {}
    for name in public_modules():
        try:
            module: ModuleType = importlib.import_module(name)
            exported = getattr(module, "__all__", None)
            names = {attr: describe(getattr(module, attr)) for attr in exported or ()}
        except ImportError:  # a lazy name may import the extra on first use
            if name not in OPTIONAL:
                raise
            found[name] = {"module": f"missing extra {OPTIONAL[name]}"}
            continue
        found[name] = {"module": "ok", "__all__": None if exported is None else len(exported)}
        found.update((f"{name}.{attr}", entry) for attr, entry in names.items())
    return found


def main(argv: Sequence[str]) -> int:
    """``[--pure]``: the surface as one JSON document, from the pure source with ``--pure``."""
    if list(argv[:1]) == ["--pure"]:
        sys.path.insert(0, str(TESTS))
        from build_trace import force_pure_source

        force_pure_source()
    import fivehundred

    print(json.dumps({"compiled": fivehundred.COMPILED, "surface": surface()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
