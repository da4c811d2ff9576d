"""The game server under load: ``python -m benchmarks --server`` (``nox -s bench_server``).

A real ``fivehundred serve`` runs in a child process on a free port of
127.0.0.1 (loopback only) with a fresh database. Sixteen clients, each a
thread with one keep-alive connection and its own table (one person and three
heuristic players), read their view and play a legal action, over and over,
for at most 30 s; a finished game is replaced by a new table. Figures: the
people's moves per second (each answered only once stored), every request's
latency (p50, p99; the target is p99 ≤ 50 ms) and, after the server is killed
with SIGKILL at the end, the accepted actions missing from the database
(target 0). Nothing fails on a missed target.
"""

from __future__ import annotations

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
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from benchmarks.results import BenchConfig, Figure, Result

__all__ = ["CLIENTS", "MAX_SECONDS", "measure_server"]

#: Concurrent clients.
CLIENTS: Final = 16
#: The longest run, in seconds.
MAX_SECONDS: Final = 30.0
#: Target of the 99th percentile of request latency, in ms.
P99_TARGET_MS: Final = 50.0


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
    def __init__(self, port: int, seed: int, stop: float) -> None:
        super().__init__(daemon=True)
        self.port, self.rng, self.stop = port, random.Random(seed), stop
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
        self.latencies.append(time.perf_counter() - started)
        return answer

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
                    table, token = created["table"], created["tokens"]["0"]
                status, view = self.timed(connection, "GET", f"/tables/{table}", None, token)
                self.versions[table] = view["version"]
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
                    self.errors.append(f"{status} {answer}")
                    continue
                self.moves += 1
                self.versions[table] = answer["version"]
        except (OSError, http.client.HTTPException, ValueError) as err:
            self.errors.append(repr(err))
        finally:
            connection.close()


def _start(db: Path, port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "fivehundred", "serve", "--db", str(db), "--port", str(port)),
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


def measure_server(
    config: BenchConfig,
    done: Mapping[str, Result] | None = None,
    *,
    seconds: float = 20.0,
    clients: int = CLIENTS,
) -> tuple[Result, ...]:
    """Load a real ``fivehundred serve`` on loopback (see the module docstring)."""
    title = f"fivehundred serve on loopback: {clients} clients for {min(seconds, MAX_SECONDS):g} s"
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        return (Result("server", title, skipped='pip install "fivehundred[server]"'),)
    duration = min(seconds, MAX_SECONDS)
    with tempfile.TemporaryDirectory() as scratch:
        db = Path(scratch) / "bench.db"
        port = _free_port()
        server = _start(db, port)
        try:
            started = time.perf_counter()
            workers = [
                _Client(port, config.seed * 1000 + n, started + duration) for n in range(clients)
            ]
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join(duration + 60)
            elapsed = time.perf_counter() - started
        finally:
            os.kill(server.pid, signal.SIGKILL)
            server.wait(30)
        answered: dict[str, int] = {}
        for worker in workers:
            answered.update(worker.versions)
        with sqlite3.connect(db) as connection:
            stored = dict(
                connection.execute("SELECT game, COUNT(*) FROM action GROUP BY game").fetchall()
            )
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
            "lost_actions", "actions lost at kill -9", float(lost), target=0.0, lower_is_better=True
        ),
    )
    notes = {
        "actions stored": f"{sum(stored.values()):,} in {len(stored)} tables",
        "errors": f"{len(errors)}" + (f" (first: {errors[0]})" if errors else ""),
    }
    return (Result("server", title, figures, count=len(latencies), elapsed=elapsed, notes=notes),)
