"""``fivehundred serve --workers N``: several uvicorn worker processes on one database.

Every worker is a process of its own with its own application, all accepting
on one listening socket; they share the tables through the database, so
they need PostgreSQL (:class:`~fivehundred.server.store.PostgresStore`: the
version check is optimistic concurrency across processes, and NOTIFY tells
the others of each move). One SQLite file serves one process, so with a
SQLite file :func:`check_workers` refuses more than one worker.

uvicorn starts the workers with ``spawn``: each imports this module and calls
:func:`app`, which reads the database, the seed and the operator's
:class:`~fivehundred.server.settings.Settings` from the environment variable
:data:`SETTINGS` that :func:`serve_workers` sets (the operator key is in it:
the environment of a process is readable only by its user and root, and it
is never printed). The supervisor restarts a worker that dies.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Final

import attrs
import uvicorn
from starlette.applications import Starlette
from uvicorn.supervisors import Multiprocess

from fivehundred._engine.quoting import expect
from fivehundred.errors import FiveHundredError
from fivehundred.server import serve
from fivehundred.server.app import create_app
from fivehundred.server.serve import MAX_CONNECTIONS
from fivehundred.server.settings import Settings
from fivehundred.server.store import describe, is_postgres_url, open_store

__all__ = ["MAX_WORKERS", "SETTINGS", "app", "check_workers", "serve_workers", "worker_config"]

#: The most worker processes ``--workers`` takes.
MAX_WORKERS: Final = 64
#: The environment variable that hands the database, the seed and the settings to each worker.
SETTINGS: Final = "FIVEHUNDRED_SERVE_WORKER"


def check_workers(db: str | Path, workers: int) -> None:
    """Refuse a worker count out of range, or more than one worker on a SQLite file.

    Raises :class:`~fivehundred.FiveHundredError` with a sentence for the operator.
    """
    expect(workers, int, "a number of worker processes (an int)")
    if not 1 <= workers <= MAX_WORKERS:
        raise FiveHundredError(f"--workers takes 1 to {MAX_WORKERS} processes, not {workers}")
    if workers > 1 and not is_postgres_url(db):
        raise FiveHundredError(
            f"--workers {workers} needs a PostgreSQL database (--db postgresql://...): "
            "a SQLite file serves one process, so run one worker on it"
        )


def app() -> Starlette:
    """The application of one worker, on the database :func:`serve_workers` handed over."""
    given = json.loads(os.environ[SETTINGS])
    return create_app(given["db"], seed=given["seed"], settings=Settings(**given["settings"]))


def worker_config(
    db: str | Path,
    host: str,
    port: int,
    workers: int,
    *,
    max_connections: int = MAX_CONNECTIONS,
    seed: str | None = None,
    settings: Settings | None = None,
) -> uvicorn.Config:
    """The configuration of ``fivehundred serve`` with ``workers`` processes.

    It is :func:`fivehundred.server.serve.config` with the application named
    by import path instead of built here, since each worker builds its own.
    The placeholder application on an in-memory database is never served.
    """
    check_workers(db, workers)
    settings = settings or Settings()
    handed = {"db": str(db), "seed": seed, "settings": attrs.asdict(settings)}
    os.environ[SETTINGS] = json.dumps(handed)
    uv = serve.config(
        ":memory:", host, port, max_connections=max_connections, seed=seed, settings=settings
    )
    uv.app = f"{__name__}:app"
    uv.factory = True
    uv.workers = workers
    return uv


def serve_workers(
    db: str | Path,
    host: str,
    port: int,
    workers: int,
    *,
    max_connections: int = MAX_CONNECTIONS,
    seed: str | None = None,
    settings: Settings | None = None,
) -> None:  # pragma: no cover - runs until killed (tests/test_server_workers.py runs it)
    """Serve with ``workers`` processes until interrupted; prints the address once.

    Raises :class:`~fivehundred.server.store.Unavailable` when the database
    cannot be opened, before any worker starts.
    """
    uv = worker_config(
        db, host, port, workers, max_connections=max_connections, seed=seed, settings=settings
    )
    # open the database once here: a wrong URL is one error, not workers restarted for ever
    open_store(db).close()
    sockets = [uv.bind_socket()]
    print(
        f"fivehundred: serving on http://{host}:{port}/ with {workers} worker processes "
        f"(database {describe(db)})",
        flush=True,
    )
    Multiprocess(uv, sockets=sockets).run()
