"""The game server under load: ``python -m benchmarks --server`` (``nox -s bench_server``).

Loopback only (127.0.0.1, free ports), bounded in count and in time. Each
store is measured in turn, with :data:`CLIENTS` clients spread over the
server processes:

- SQLite: one ``fivehundred serve`` on a fresh file (one SQLite file serves
  one process, so the two-process run is PostgreSQL's);
- PostgreSQL: :data:`PROCESSES` ``fivehundred serve`` on one fresh database
  of a throwaway cluster (``benchmarks/postgres.py``, the one the tests
  start); skipped, and said so, where there is no PostgreSQL or no psycopg.

Each client is a thread with one keep-alive connection and its own table (one
person and three heuristic players): it reads its view and plays a legal
action, over and over; a finished game is replaced by a new table. After at
most :data:`MAX_SECONDS` every server is killed with SIGKILL while the
clients are still sending, and the database is read: every action a client
saw acknowledged must be stored. Figures, each with its target: the people's
moves per second, every request's latency (p50, p99 ≤ 50 ms), the errors
before the kill (0) and the acknowledged actions lost at the kill (0).
Nothing fails on a missed target.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from benchmarks.results import BenchConfig, Figure, Result

__all__ = ["CLIENTS", "MAX_SECONDS", "PROCESSES", "measure_server"]

#: Concurrent clients.
CLIENTS: Final = 64
#: Server processes sharing one PostgreSQL database.
PROCESSES: Final = 2
#: The longest run of one store, in seconds.
MAX_SECONDS: Final = 30.0
#: Target of the 99th percentile of request latency, in ms.
P99_TARGET_MS: Final = 50.0
#: Seconds a client keeps sending after the planned end, so the kill lands under load.
PAST_THE_KILL: Final = 5.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _request(
    connection: http.client.HTTPConnection, method: str, path: str, body: object, token: str | None
) -> tuple[int, Any]:
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    connection.request(method, path, body=data, headers=headers)
    response = connection.getresponse()
    return response.status, json.loads(response.read())


class _Client(threading.Thread):
    """One player's loop; what happens after ``killed`` is set is not measured."""

    def __init__(self, port: int, seed: int, stop: float, killed: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.rng, self.stop, self.killed = port, random.Random(seed), stop, killed
        self.latencies: list[float] = []
        self.moves = 0
        self.versions: dict[str, int] = {}
        self.errors: list[str] = []

    def timed(
        self,
        connection: http.client.HTTPConnection,
        method: str,
        path: str,
        body: object,
        token: str | None,
    ) -> tuple[int, Any]:
        started = time.perf_counter()
        answer = _request(connection, method, path, body, token)
        if not self.killed.is_set():
            self.latencies.append(time.perf_counter() - started)
        return answer

    def refused(self, status: int, answer: object) -> None:
        if not self.killed.is_set():
            self.errors.append(f"{status} {answer}")

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        seats = ["human", "heuristic", "heuristic", "heuristic"]
        table = token = None
        try:
            while time.perf_counter() < self.stop:
                if table is None:
                    status, created = self.timed(
                        connection, "POST", "/tables", {"seats": seats}, None
                    )
                    if status != 201:
                        self.refused(status, created)
                        continue
                    table, token = created["table"], created["tokens"]["0"]
                    self.versions[table] = created["version"]
                status, view = self.timed(connection, "GET", f"/tables/{table}", None, token)
                if status != 200:
                    self.refused(status, view)
                    continue
                if not view["legal_actions"]:
                    table = None  # the game is over
                    continue
                body = {
                    "action": self.rng.choice(view["legal_actions"]),
                    "version": view["version"],
                }
                status, answer = self.timed(
                    connection, "POST", f"/tables/{table}/actions", body, token
                )
                if status != 200:
                    self.refused(status, answer)
                    continue
                self.moves += 1
                self.versions[table] = answer["version"]  # acknowledged: it must be stored
        except (OSError, http.client.HTTPException, ValueError) as err:
            if not self.killed.is_set():
                self.errors.append(repr(err))
        finally:
            connection.close()


def _start(db: str, port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "fivehundred", "serve", "--db", db, "--port", str(port)),
            # every client is on 127.0.0.1: no limit on table creation, no line a request
            *("--create-rate", "0", "--log-level", "warning"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            time.sleep(0.05)
    process.kill()  # pragma: no cover - a server that does not start
    raise RuntimeError("fivehundred serve did not start")  # pragma: no cover


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _stored_sqlite(db: str) -> dict[str, int]:
    with contextlib.closing(sqlite3.connect(db)) as connection:
        rows = connection.execute("SELECT game, COUNT(*) FROM action GROUP BY game").fetchall()
    return {str(game): int(count) for game, count in rows}


def _stored_postgres(db: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(db) as connection:
        rows = connection.execute("SELECT game, COUNT(*) FROM action GROUP BY game").fetchall()
    return {str(game): int(count) for game, count in rows}


def _load(
    config: BenchConfig, db: str, processes: int, duration: float, clients: int
) -> tuple[list[_Client], float]:
    """Run the clients on ``processes`` servers of ``db``, then kill -9 them under load."""
    ports = [_free_port() for _ in range(processes)]
    servers = [_start(db, port) for port in ports]
    killed = threading.Event()
    workers: list[_Client] = []
    try:
        started = time.perf_counter()
        stop = started + duration + PAST_THE_KILL
        workers = [
            _Client(ports[n % processes], config.seed * 1000 + n, stop, killed)
            for n in range(clients)
        ]
        for worker in workers:
            worker.start()
        time.sleep(duration)
        elapsed = time.perf_counter() - started
        killed.set()
    finally:
        for server in servers:
            os.kill(server.pid, signal.SIGKILL)  # under load: the clients are still sending
        for server in servers:
            server.wait(30)
    for worker in workers:
        worker.join(PAST_THE_KILL + 60)
    return workers, elapsed


def _result(
    key: str,
    title: str,
    *,
    workers: list[_Client],
    elapsed: float,
    stored: Mapping[str, int],
    processes: str,
) -> Result:
    answered: dict[str, int] = {}
    for worker in workers:
        answered.update(worker.versions)
    latencies = [t for worker in workers for t in worker.latencies]
    moves = sum(worker.moves for worker in workers)
    lost = sum(max(0, version - stored.get(table, 0)) for table, version in answered.items())
    errors = [e for worker in workers for e in worker.errors]
    ms = 1000.0
    figures = (
        Figure("moves_per_second", "people's moves/s", moves / elapsed, digits=0),
        Figure("requests_per_second", "requests/s", len(latencies) / elapsed, digits=0),
        Figure(
            "p50_ms",
            "latency p50 (ms)",
            _percentile(latencies, 0.50) * ms,
            lower_is_better=True,
            digits=1,
        ),
        Figure(
            "p99_ms",
            "latency p99 (ms)",
            _percentile(latencies, 0.99) * ms,
            target=P99_TARGET_MS,
            lower_is_better=True,
            digits=1,
        ),
        Figure("max_ms", "latency max (ms)", max(latencies) * ms, lower_is_better=True, digits=1),
        Figure(
            "errors", "errors before the kill", float(len(errors)), target=0.0, lower_is_better=True
        ),
        Figure(
            "lost_actions",
            "acknowledged actions lost at kill -9",
            float(lost),
            target=0.0,
            lower_is_better=True,
        ),
    )
    notes = {
        "processes": processes,
        "actions stored": f"{sum(stored.values()):,} in {len(stored)} tables",
        "acknowledged": f"{sum(answered.values()):,} actions in {len(answered)} tables",
        "errors": f"{len(errors)}" + (f" (first: {errors[0]})" if errors else ""),
    }
    return Result(key, title, figures, count=len(latencies), elapsed=elapsed, notes=notes)


@contextlib.contextmanager
def _postgres_database() -> Iterator[str]:
    from benchmarks.postgres import fresh_database, postgres_server

    with postgres_server() as server, fresh_database(server, "fivehundred_bench") as url:
        yield url


def measure_server(
    config: BenchConfig,
    done: Mapping[str, Result] | None = None,
    *,
    seconds: float = 20.0,
    clients: int = CLIENTS,
) -> tuple[Result, ...]:
    """Load real ``fivehundred serve`` processes on loopback (see the module docstring)."""
    duration = min(seconds, MAX_SECONDS)
    title = f"fivehundred serve on loopback: {clients} clients for {duration:g} s"
    pg_title = f"{title}, {PROCESSES} processes on PostgreSQL"
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        return (
            Result("server", f"{title} on SQLite", skipped='pip install "fivehundred[server]"'),
        )
    with tempfile.TemporaryDirectory() as scratch:
        db = str(Path(scratch) / "bench.db")
        workers, elapsed = _load(config, db, 1, duration, clients)
        sqlite = _result(
            "server",
            f"{title}, 1 process on SQLite",
            workers=workers,
            elapsed=elapsed,
            stored=_stored_sqlite(db),
            processes="1 fivehundred serve on one SQLite file (two processes cannot share one)",
        )
    try:
        import psycopg  # noqa: F401

        from benchmarks.postgres import PostgresMissing
    except ImportError:
        return sqlite, Result("server_postgresql", pg_title, skipped="pip install psycopg")
    try:
        with _postgres_database() as url:
            workers, elapsed = _load(config, url, PROCESSES, duration, clients)
            stored = _stored_postgres(url)
    except PostgresMissing as missing:
        return sqlite, Result("server_postgresql", pg_title, skipped=str(missing))
    postgres = _result(
        "server_postgresql",
        pg_title,
        workers=workers,
        elapsed=elapsed,
        stored=stored,
        processes=f"{PROCESSES} fivehundred serve on one PostgreSQL database",
    )
    return sqlite, postgres
