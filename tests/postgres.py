"""A PostgreSQL server for the tests of the PostgreSQL store.

The cluster itself comes from ``benchmarks/postgres.py``, which the server
bench shares: ``FIVEHUNDRED_TEST_POSTGRES`` may name a server to use,
otherwise a throwaway cluster starts from Debian's ``postgresql`` binaries.

Where there is no PostgreSQL the tests skip, unless
``FIVEHUNDRED_POSTGRES_REQUIRED=1`` (set by the nox test sessions under CI),
where that fails: CI cannot pass without testing the store.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterator

import pytest

from benchmarks.postgres import PostgresMissing, fresh_database
from benchmarks.postgres import postgres_server as _cluster

__all__ = ["db_fixture", "fresh_database", "postgres_server", "server_fixture", "unavailable"]


def unavailable(reason: str) -> None:
    """Skip, or fail where PostgreSQL is required."""
    if os.environ.get("FIVEHUNDRED_POSTGRES_REQUIRED") == "1":
        pytest.fail(f"PostgreSQL is required here: {reason}")
    pytest.skip(reason)


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server whose user may create databases."""
    try:
        with _cluster() as url:
            yield url
    except PostgresMissing as missing:  # raised only before the cluster starts
        unavailable(str(missing))


@pytest.fixture(scope="module", name="server")
def server_fixture() -> Iterator[str]:
    """``server``: a test module's PostgreSQL server (import this, and
    :func:`db_fixture`, into the module)."""
    with postgres_server() as url:
        yield url


@pytest.fixture(name="db")
def db_fixture(server: str, request: pytest.FixtureRequest) -> Iterator[str]:
    """``db``: a fresh database of ``server`` for each test, named after the test."""
    words = "".join(c if c.isalnum() else "_" for c in request.node.name)[:40].lower()
    digest = hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:8]
    with fresh_database(server, f"t_{digest}_{words}") as url:
        yield url
