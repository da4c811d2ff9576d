"""Hatchling build hook: leave no compiled extension module in the source tree.

hatch-mypyc compiles in place (``setup.py build_ext --inplace``), so a compiled
wheel built straight from a checkout (``HATCH_BUILD_HOOKS_ENABLE=1 python -m pip
install .``) leaves ``src/fivehundred/_engine/play.cpython-*.so`` and friends behind.
Python's import system prefers an extension module to the ``.py`` beside it, so
every later run with ``src`` on the path (the test helpers, ``PYTHONPATH=src``)
would silently use the compiled, possibly stale, module. Once the wheel is
written they have served their purpose, and this hook deletes them.
(``python -m build`` compiles in a copy of the sdist and never touches src/.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.config import BuilderConfig
from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The source tree, where no compiled file belongs (.gitignore ignores them too).
SOURCES = "src"
EXTENSIONS = ("*.so", "*.pyd")


class CleanCompiledHook(BuildHookInterface[BuilderConfig]):
    """Delete ``*.so``/``*.pyd`` under ``src/`` after each wheel is built."""

    PLUGIN_NAME = "custom"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        root = Path(self.root) / SOURCES
        for pattern in EXTENSIONS:
            for path in root.rglob(pattern):
                path.unlink()
