"""Run Python in a child process against this checkout, as a user would from a shell.

By default the child imports ``fivehundred`` from the checkout's ``src`` (put
first on ``PYTHONPATH``). With ``FIVEHUNDRED_TEST_INSTALLED=1`` in the
environment (``nox -s tests_compiled`` sets it) the suite tests an installed
wheel instead, and the child uses that same installed package: ``src`` is not
put on the path.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
#: The suite runs against an installed ``fivehundred`` (a built wheel), not ``src``.
INSTALLED: Final = os.environ.get("FIVEHUNDRED_TEST_INSTALLED", "") == "1"


def python_env(**env: str) -> dict[str, str]:
    """The environment of a child Python: ours plus ``env``, ``src`` first unless INSTALLED."""
    environment = dict(os.environ, **env)
    if not INSTALLED:
        environment["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH", "")) if p
        )
    return environment


def run_python(
    args: Sequence[str],
    *,
    cwd: Path = ROOT,
    stdin: str | None = None,
    timeout: float = 300,
    **env: str,
) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` with the package under test (see the module docstring); output as text."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=python_env(**env),
        check=False,
    )
