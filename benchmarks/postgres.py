"""A throwaway PostgreSQL cluster, for the bench and the tests of the PostgreSQL store.

``FIVEHUNDRED_TEST_POSTGRES`` may name a server to use instead (a
``postgresql://`` URL whose user may create databases). Otherwise
:func:`postgres_server` starts a cluster of its own from Debian's
``postgresql`` binaries (``/usr/lib/postgresql/*/bin``): ``initdb`` in a
temporary folder, a free loopback port, stopped and deleted afterwards.
PostgreSQL refuses to run as root, so as root the cluster runs as the
``postgres`` user Debian's package creates, in a folder that user can reach
(:func:`_cluster_folder`): a checkout or a ``TMPDIR`` under a folder closed to
other users (mode 0700) must not keep it out. Without the binaries it raises
:class:`PostgresMissing`; ``tests/postgres.py`` turns that into a skip, or a
failure where PostgreSQL is required.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Final

__all__ = ["START_TIMEOUT", "PostgresMissing", "fresh_database", "postgres_server"]

#: Seconds to wait for the cluster to start or stop.
START_TIMEOUT: Final = 60


class PostgresMissing(RuntimeError):
    """There is no PostgreSQL to start here."""


def _binaries() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    return found[-1].parent if found else None


def _as_owner(command: list[str]) -> list[str]:
    """``command`` run as the ``postgres`` user when this process is root."""
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


def _cluster_folder() -> Path:
    """A new empty folder for the cluster's data, log and socket, owned by its user.

    As root the cluster runs as ``postgres``, which must reach the folder: the
    default temporary folder may lie in a folder closed to other users (nox
    points ``TMPDIR`` into the checkout, which may be under ``/root`` or a
    ``mktemp -d`` folder), so the folder is made in ``/tmp`` then, and given to
    ``postgres``. Otherwise the cluster runs as this user, in the default
    temporary folder.
    """
    if os.geteuid() != 0:
        return Path(tempfile.mkdtemp(prefix="fivehundred-pg-"))
    folder = Path(tempfile.mkdtemp(prefix="fivehundred-pg-", dir="/tmp"))
    shutil.chown(folder, "postgres", "postgres")
    return folder


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server whose user may create databases."""
    given = os.environ.get("FIVEHUNDRED_TEST_POSTGRES")
    if given:
        yield given
        return
    binaries = _binaries()
    if binaries is None:
        raise PostgresMissing(
            "no PostgreSQL binaries under /usr/lib/postgresql (apt install postgresql)"
        )
    folder = _cluster_folder()
    data = folder / "data"
    port = _free_port()
    initdb = [str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust"]
    subprocess.run(
        _as_owner([*initdb, "-E", "UTF8"]),
        cwd=folder,  # the postgres user may not enter this process's working folder
        check=True,
        capture_output=True,
        timeout=START_TIMEOUT,
    )
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=on"
    pg_ctl = [str(binaries / "pg_ctl"), "-D", str(data)]
    start = ["-o", options, "-l", str(folder / "log"), "-w", "-t", str(START_TIMEOUT), "start"]
    try:
        subprocess.run(
            _as_owner([*pg_ctl, *start]),
            cwd=folder,
            check=True,
            capture_output=True,
            timeout=START_TIMEOUT + 5,
        )
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_owner([*pg_ctl, "-m", "immediate", "-w", "stop"]),
            cwd=folder,
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
