"""Run Python in a child process against this checkout, as a user would from a shell."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent


def run_python(
    args: Sequence[str],
    *,
    cwd: Path = ROOT,
    stdin: str | None = None,
    timeout: float = 300,
    **env: str,
) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` with the checkout's ``src`` first on the path; output captured as text."""
    environment = dict(os.environ, **env)
    environment["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH", "")) if p
    )
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment,
        check=False,
    )
