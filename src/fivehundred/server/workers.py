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
is never printed). The supervisor restarts a worker that dies, and a worker
ends with its supervisor: on Linux the kernel sends it SIGTERM when the
supervisor dies (``PR_SET_PDEATHSIG``), elsewhere a thread watches the parent's
pid, so a ``kill -9`` of the supervisor leaves no worker serving the port. The
address is printed once every worker has started.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, Final

import attrs
import uvicorn
from starlette.applications import Starlette
from uvicorn.supervisors import Multiprocess

from fivehundred._engine.quoting import expect
from fivehundred.errors import FiveHundredError
from fivehundred.server import serve
from fivehundred.server._metrics import MULTIPROCESS
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
    postgres = is_postgres_url(db)  # a text that is neither a file nor libpq's is refused here
    if workers > 1 and not postgres:
        raise FiveHundredError(
            f"--workers {workers} needs a PostgreSQL database (--db postgresql://...): "
            "a SQLite file serves one process, so run one worker on it"
        )


#: ``prctl``'s option that sets the signal a process gets when its parent dies (Linux).
PR_SET_PDEATHSIG: Final = 1
#: Seconds between two looks at the parent's pid, where there is no ``PR_SET_PDEATHSIG``.
WATCH_EVERY: Final = 1.0


def end_with_parent(parent: int) -> None:
    """Make this process end (SIGTERM) when the process ``parent`` does; at once if it has
    (nothing when this is ``parent``).

    On Linux the kernel sends the signal (``prctl(PR_SET_PDEATHSIG)``); elsewhere a
    daemon thread looks at the parent's pid every :data:`WATCH_EVERY` seconds.
    """
    expect(parent, int, "the parent's pid (an int)")
    if parent == os.getpid():  # the app built in the supervisor's own process: no worker
        return
    armed = False
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) == 0
    if os.getppid() != parent:  # it died before the signal was asked for
        os.kill(os.getpid(), signal.SIGTERM)
        return
    if armed:
        return

    def watch() -> None:  # pragma: no cover - Linux has PR_SET_PDEATHSIG
        while os.getppid() == parent:
            threading.Event().wait(WATCH_EVERY)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="fivehundred-parent", daemon=True).start()


def app() -> Starlette:
    """The application of one worker, on the database :func:`serve_workers` handed over."""
    given = json.loads(os.environ[SETTINGS])
    if given.get("parent") is not None:
        end_with_parent(given["parent"])
    serve.share_the_interpreter()
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
    handed = {
        "db": str(db),
        "seed": seed,
        "settings": attrs.asdict(settings),
        "parent": os.getpid(),
    }
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
    bound = sockets[0].getsockname()[1]  # the port the system gave, for --port 0
    ready = f"fivehundred: serving on http://{host}:{bound}/ with {workers} worker processes "
    # every worker writes its metrics in one folder, so that any of them answers the sums
    own = os.environ.get(MULTIPROCESS)
    folder = own or tempfile.mkdtemp(prefix="fivehundred-metrics-")
    os.environ[MULTIPROCESS] = folder
    try:
        _Supervisor(uv, sockets=sockets, ready=f"{ready}(database {describe(db)})").run()
    finally:
        if own is None:
            shutil.rmtree(folder, ignore_errors=True)


class _Supervisor(Multiprocess):
    """uvicorn's supervisor, which prints the address once every worker has started."""

    def __init__(self, config: uvicorn.Config, sockets: list[Any], ready: str) -> None:
        super().__init__(config, sockets)
        self.ready = ready

    def init_processes(self) -> None:  # pragma: no cover - runs in the served command
        super().init_processes()
        wait = self.config.timeout_worker_healthcheck
        for process in self.processes:
            # a worker slow to start (a loaded machine) is waited for, not given up on:
            # the line is printed once every worker serves, or never if one fails to start
            while not process.wait_until_ready(wait, self.should_exit):
                if self.should_exit.is_set() or not process.process.is_alive():
                    return
        print(self.ready, flush=True)
