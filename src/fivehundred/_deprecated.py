"""Old public names, kept for one minor release: each warns, then hands out its replacement.

Internal. A public module that lost names ends with
``__getattr__ = deprecated_getattr(__name__)`` (PEP 562): reading an old name
there raises a :class:`DeprecationWarning` that names the replacement, then
returns it. The old names are not in ``__all__`` nor in ``dir()``, so neither
``from fivehundred import *`` nor tab completion offers them. ``CHANGELOG.md``
lists each one under *Deprecated*; ``docs/reference/stability.md`` is the policy.

Targets are named by module and attribute, and imported only when an old name is
read, so that this module imports nothing of the package. A target whose call
changed (a loader that now takes ``cls=``) is an adapter in ``fivehundred._legacy``.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from typing import Final, NamedTuple

__all__ = ["DEPRECATED", "DEPRECATED_MODULES", "Moved", "deprecated_getattr", "target"]


class Moved(NamedTuple):
    """Where an old name went: the module and attribute that stand in for it, and the
    spelling to use from now on."""

    module: str
    name: str
    use: str


_ENCODING: Final = "fivehundred.encoding"
_SERIALIZE: Final = "fivehundred.serialize"
_LEGACY: Final = "fivehundred._legacy"
_COMPACT: Final = "fivehundred._compact"


def _same(module: str, name: str) -> Moved:
    """An old name that is now ``module.name``, unchanged."""
    return Moved(module, name, f"{module}.{name}")


def _compact(name: str, use: str) -> Moved:
    """A ``compact_*`` name: the same function, now ``layout="compact"`` of the encoding."""
    return Moved(_COMPACT, name, f"{_ENCODING}.{use}")


def _serializers() -> dict[str, Moved]:
    """The per-type JSON pairs: ``to_dict``/``to_json`` save anything, the loaders take
    ``cls=``."""
    old: dict[str, Moved] = {}
    for prefix, cls in (
        ("rules", "Rules"),
        ("view", "PlayerView"),
        ("action", "Action"),
        ("record", "GameRecord"),
    ):
        for form in ("dict", "json"):
            old[f"{prefix}_to_{form}"] = _same(_SERIALIZE, f"to_{form}")
            old[f"{prefix}_from_{form}"] = Moved(
                _LEGACY,
                f"{prefix}_from_{form}",
                f"{_SERIALIZE}.from_{form}(..., cls=fivehundred.{cls})",
            )
    return old


_COMPACT_NAMES: Final = {
    "COMPACT_NUM_ACTIONS": Moved(
        _LEGACY, "COMPACT_NUM_ACTIONS", f'{_ENCODING}.num_actions(Rules(), layout="compact")'
    ),
    "CompactLayout": _same(_ENCODING, "ActionLayout"),
    "DiscardCard": _same(_ENCODING, "DiscardCard"),
    "CompactAction": _same(_ENCODING, "EncodedAction"),
    "compact_apply": _compact(
        "compact_apply", 'apply_index(state, index, layout="compact", pending=)'
    ),
    "compact_decode": _compact("compact_decode", 'decode_action(index, rules, layout="compact")'),
    "compact_encode": _compact("compact_encode", 'encode_action(action, rules, layout="compact")'),
    "compact_ids": _compact("compact_ids", 'action_ids(action, rules, layout="compact")'),
    "compact_layout": _compact("compact_layout", 'action_layout(rules, layout="compact")'),
    "compact_legal": _compact("compact_indices", 'legal_action_indices(state, layout="compact")'),
    "compact_mask": _compact("compact_mask", 'legal_action_mask(state, layout="compact")'),
    "compact_num_actions": _compact("compact_size", 'num_actions(rules, layout="compact")'),
}

#: Every old name, by the public module it was read from.
DEPRECATED: Final[dict[str, dict[str, Moved]]] = {
    "fivehundred": {
        **{
            name: moved
            for name, moved in _COMPACT_NAMES.items()
            if name not in ("DiscardCard", "CompactAction")  # never top-level names
        },
        **_serializers(),
        **{
            name: _same(_ENCODING, name)
            for name in (
                "NUM_ACTIONS",
                "ActionLayout",
                "action_layout",
                "decode_action",
                "encode_action",
                "legal_action_indices",
                "legal_action_mask",
                "num_actions",
            )
        },
        "FORMAT_VERSION": _same(_SERIALIZE, "FORMAT_VERSION"),
        "DEFAULT_LADDER": _same("fivehundred.rules", "DEFAULT_LADDER"),
        "Ladder": _same("fivehundred.rules", "Ladder"),
        "Policy": _same("fivehundred.playout", "Policy"),
        "playout": _same("fivehundred.playout", "playout"),
        "Solution": _same("fivehundred.solver", "Solution"),
        "claim": _same("fivehundred.solver", "claim"),
        "solve": _same("fivehundred.solver", "solve"),
        "sample_deal": _same("fivehundred.search", "sample_deal"),
        "record_from_text": _same("fivehundred.records", "record_from_text"),
        "record_to_text": _same("fivehundred.records", "record_to_text"),
        "rules_from_options": _same("fivehundred.records", "rules_from_options"),
        "rules_options": _same("fivehundred.records", "rules_options"),
    },
    "fivehundred.compact": _COMPACT_NAMES,
    "fivehundred.records": {
        "format_action": _same("fivehundred.notation", "format_action"),
        "parse_action": _same("fivehundred.notation", "parse_action"),
    },
    _SERIALIZE: _serializers(),
}

#: Public modules that are only their old names now (their ``__all__`` is empty).
DEPRECATED_MODULES: Final = frozenset({"fivehundred.compact"})


def target(module: str, name: str) -> object:
    """What the old name ``module.name`` stands for now, without a warning."""
    moved = DEPRECATED[module][name]
    return getattr(importlib.import_module(moved.module), moved.name)


def deprecated_getattr(module: str, *, stacklevel: int = 2) -> Callable[[str], object]:
    """The module ``__getattr__`` (PEP 562) that serves ``module``'s old names, with a warning.

    ``stacklevel`` is as in :func:`warnings.warn`: 2 for the module's own ``__getattr__``,
    one more for each function between it and the reader of the name.

    A :class:`DeprecationWarning`, not a ``FutureWarning``: the old names are read by the
    code of developers, whose test runs show it, not by the players of their programs.
    """
    old = DEPRECATED[module]

    def __getattr__(name: str) -> object:
        moved = old.get(name)
        if moved is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(
            f"{module}.{name} is deprecated and will be removed in the next minor release: "
            f"use {moved.use}",
            DeprecationWarning,
            stacklevel=stacklevel,
        )
        return target(module, name)

    return __getattr__
