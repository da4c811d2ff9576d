"""A PostgreSQL server for the tests of the PostgreSQL store.

``FIVEHUNDRED_TEST_POSTGRES`` may name a server to use (a ``postgresql://``
URL whose user may create databases). Otherwise the tests start a throwaway
cluster of their own from Debian's ``postgresql`` binaries
(``/usr/lib/postgresql/*/bin``): ``initdb`` in a temporary folder, a free
loopback port, stopped and deleted afterwards. PostgreSQL refuses to run as
root, so as root the cluster runs as the ``postgres`` user Debian's package
creates.

Where there is no PostgreSQL the tests skip, unless
``FIVEHUNDRED_POSTGRES_REQUIRED=1`` (the nox ``postgres`` session, which CI runs),
where that fails: CI cannot pass without testing the store.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from server_helpers import free_port

#: Seconds to wait for the cluster to start or stop.
START_TIMEOUT = 60


def _binaries() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    return found[-1].parent if found else None


def _as_owner(command: list[str]) -> list[str]:
    """``command`` run as the ``postgres`` user when this process is root."""
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


def unavailable(reason: str) -> None:
    """Skip, or fail where PostgreSQL is required."""
    if os.environ.get("FIVEHUNDRED_POSTGRES_REQUIRED") == "1":
        pytest.fail(f"PostgreSQL is required here: {reason}")
    pytest.skip(reason)


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server whose user may create databases."""
    given = os.environ.get("FIVEHUNDRED_TEST_POSTGRES")
    if given:
        yield given
        return
    binaries = _binaries()
    if binaries is None:
        unavailable("no PostgreSQL binaries under /usr/lib/postgresql (apt install postgresql)")
        return
    folder = Path(tempfile.mkdtemp(prefix="fivehundred-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    data = folder / "data"
    port = free_port()
    initdb = [str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust"]
    subprocess.run(
        _as_owner([*initdb, "-E", "UTF8"]),
        check=True,
        capture_output=True,
        timeout=START_TIMEOUT,
    )
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=on"
    pg_ctl = [str(binaries / "pg_ctl"), "-D", str(data)]
    subprocess.run(
        _as_owner([*pg_ctl, "-o", options, "-l", str(folder / "log"), "-w", "start"]),
        check=True,
        capture_output=True,
        timeout=START_TIMEOUT + 5,
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_owner([*pg_ctl, "-m", "immediate", "-w", "stop"]),
            check=False,
            capture_output=True,
            timeout=START_TIMEOUT,
        )
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def fresh_database(server: str, name: str) -> Iterator[str]:
    """A new empty database on ``server``, dropped afterwards: its URL."""
    import psycopg

    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = server.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
