"""The compiled core: the one rule engine behind ``apply``, ``playout`` and the players.

This module is compiled with mypyc in the compiled build (the modules listed
under ``[tool.hatch.build.targets.wheel.hooks.mypyc] include`` in
pyproject.toml) and runs as plain Python in the pure build; the source is the
same. :data:`COMPILED` tells which one is running: a compiled module's
``__file__`` is its extension module (``.so`` or ``.pyd``), not ``.py``.

Placeholder: the rule engine moves here in issue 9; only ``COMPILED`` lives here yet.
"""

from __future__ import annotations

from typing import Final

__all__ = ["COMPILED"]

#: True when this module runs compiled by mypyc (the compiled wheel), False in the pure build.
COMPILED: Final = not __file__.endswith(".py")
