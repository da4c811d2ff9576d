"""The game server under load: ``python -m benchmarks --server`` (``nox -s bench_server``).

Loopback only (127.0.0.1, free ports), bounded in count and in time. Each
store is measured in turn:

- SQLite: one ``fivehundred serve`` on a fresh file (one SQLite file serves
  one process, so the two-process run is PostgreSQL's);
- PostgreSQL: :data:`PROCESSES` ``fivehundred serve`` on one fresh database
  of a throwaway cluster (``benchmarks/postgres.py``, the one the tests
  start); skipped, and said so, where there is no PostgreSQL or no psycopg.

The load comes from a process of its own (``benchmarks/load.py``: raw
keep-alive HTTP/1.1 over asyncio), never from this one, and its CPU share is
printed beside each figure. Every table has four people's seats, played by the
client that made it, so a move is a person's move and no computer seat thinks.

1. **CPU per request**, from the servers' own CPU time (``/proc/PID/stat``, user
   and system) over a fixed number of requests of one client: rounds of "the
   acting seat reads its view, then moves" and rounds of "all four seats read
   (each view changed), then the acting seat moves". The two request mixes give
   the CPU of a view read and of a move apart (a linear solve), once for each of
   :data:`CPU_PAIRS` interleaved pairs; the medians are printed, with the spread. A read of an
   unchanged view (polling) is measured on its own, and so is the floor: the CPU a
   request costs a bare ASGI app on the same uvicorn protocol (``benchmarks/floor.py``),
   what no server on this HTTP stack goes below. CPU time, unlike wall-clock time,
   hardly depends on the other processes of a shared machine.
2. **Throughput and latency** at each of :data:`LEVELS` clients that never
   pause (each reads the view of the seat to act, then moves), for ``seconds``
   each after a warm-up: requests/s, p50 and p99 of every request.
3. **Durability**: :data:`KILL_CLIENTS` clients again; at the end of their window
   every server is killed with SIGKILL while they are still sending, and the
   database is read: every move a client saw acknowledged must be stored.

Nothing fails on a missed target.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from benchmarks.results import BenchConfig, Figure, Result

__all__ = ["KILL_CLIENTS", "LEVELS", "MAX_SECONDS", "PROCESSES", "measure_server"]

#: The numbers of concurrent clients measured, each in turn.
LEVELS: Final = (1, 4, 16, 64)
#: Clients sending while the servers are killed.
KILL_CLIENTS: Final = 64
#: Server processes sharing one PostgreSQL database.
PROCESSES: Final = 2
#: The longest run of one level, in seconds.
MAX_SECONDS: Final = 30.0
#: Rounds of each request mix of the CPU measurement.
CPU_ROUNDS: Final = 600
#: The fewest requests the floor is measured over: enough 10 ms ticks of CPU to count.
FLOOR_ROUNDS: Final = 1000
#: Pairs of the two request mixes, each pair solved for a read and a move; the medians
#: are the figures (one pair's solve swings by a third with the machine's pace).
CPU_PAIRS: Final = 5
#: Targets (goal, must): server CPU ms per view read and per move (SQLite), the
#: ratio of PostgreSQL's to SQLite's, req/s at 64 clients over 4, p99 at 64 clients.
READ_MS: Final = (0.1, 0.2)
MOVE_MS: Final = (0.3, 0.8)
POSTGRES_RATIO: Final = (1.5, 2.0)
SCALING: Final = (1.0, 0.9)
P99_MS: Final = (50.0, 100.0)
#: Seconds the clients keep sending after the kill.
PAST_THE_KILL: Final = 3.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


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
    _wait_for(port, process)
    return process


def _wait_for(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    process.kill()  # pragma: no cover - a server that does not start
    raise RuntimeError("the server did not start")  # pragma: no cover


def _floor(rounds: int, seed: int) -> float:
    """The CPU seconds per request of the bare app of ``benchmarks/floor.py`` (one client)."""
    port = _free_port()
    root = str(Path(__file__).resolve().parent.parent)
    path = os.pathsep.join([root, *filter(None, [os.environ.get("PYTHONPATH")])])
    process = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.floor", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": path},
    )
    try:
        _wait_for(port, process)
        spec = {"mode": "cpu", "pattern": "floor", "rounds": rounds, "warm": min(100, rounds)}
        run = _generate({**spec, "ports": [port], "pids": [process.pid], "seed": seed})
        return float(run["server_cpu"]) / int(run["requests"])
    finally:
        process.kill()
        process.wait(30)


def _stored_sqlite(db: str) -> dict[str, int]:
    with contextlib.closing(sqlite3.connect(db)) as connection:
        rows = connection.execute("SELECT game, COUNT(*) FROM action GROUP BY game").fetchall()
    return {str(game): int(count) for game, count in rows}


def _stored_postgres(db: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(db) as connection:
        rows = connection.execute("SELECT game, COUNT(*) FROM action GROUP BY game").fetchall()
    return {str(game): int(count) for game, count in rows}


def _generator(spec: Mapping[str, Any]) -> subprocess.Popen[str]:
    """The load generator, a process of its own (``benchmarks/load.py``)."""
    root = str(Path(__file__).resolve().parent.parent)
    path = os.pathsep.join([root, *filter(None, [os.environ.get("PYTHONPATH")])])
    return subprocess.Popen(
        [sys.executable, "-m", "benchmarks.load", json.dumps(spec)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": path},
    )


def _generate(spec: Mapping[str, Any]) -> dict[str, Any]:
    generator = _generator(spec)
    out, _ = generator.communicate(timeout=600)
    if generator.returncode != 0:
        raise RuntimeError(f"the load generator failed ({generator.returncode})")
    answer: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return answer


@contextlib.contextmanager
def _servers(db: str, processes: int) -> Iterator[tuple[list[int], list[subprocess.Popen[bytes]]]]:
    ports = [_free_port() for _ in range(processes)]
    servers = [_start(db, port) for port in ports]
    try:
        yield ports, servers
    finally:
        for server in servers:
            if server.poll() is None:
                server.kill()
            server.wait(30)


def _per_request(first: Mapping[str, Any], second: Mapping[str, Any]) -> tuple[float, float]:
    """The CPU seconds of one view read and of one move, from two request mixes.

    Each mix's CPU is ``reads * r + moves * m`` (a table's creation, one in about
    fifty rounds, is counted as a move).
    """

    def mix(run: Mapping[str, Any]) -> tuple[float, float, float]:
        counts = run["counts"]
        return counts["read"], counts["move"] + counts["create"], run["server_cpu"]

    r1, m1, c1 = mix(first)
    r2, m2, c2 = mix(second)
    det = r1 * m2 - r2 * m1
    read = (c1 * m2 - c2 * m1) / det
    move = (r1 * c2 - r2 * c1) / det
    return read, move


def _spread(values: Iterable[float]) -> str:
    """The lowest and highest of a figure's values, in ms."""
    ms = sorted(1000.0 * value for value in values)
    return f"{ms[0]:.3f}-{ms[-1]:.3f}"


def _share(run: Mapping[str, Any]) -> str:
    """The generator's and the servers' CPU, each as a share of one core over the run."""
    elapsed = run["elapsed"]
    return (
        f"load generator {100 * run['own_cpu'] / elapsed:.0f} % of a core, "
        f"servers {100 * run['server_cpu'] / elapsed:.0f} %"
    )


def _measure_store(
    db: str,
    processes: int,
    stored: Any,
    *,
    seconds: float,
    levels: Sequence[int],
    rounds: int,
    seed: int,
) -> tuple[list[Figure], dict[str, str], int, float]:
    figures: list[Figure] = []
    notes: dict[str, str] = {}
    ms = 1000.0
    count, elapsed = 0, 0.0
    errors: list[str] = []
    with _servers(db, processes) as (ports, servers):
        pids = [server.pid for server in servers]
        base = {"mode": "cpu", "ports": ports, "pids": pids, "seed": seed, "warm": min(100, rounds)}
        solves: list[tuple[float, float]] = []
        for _ in range(CPU_PAIRS):  # interleaved pairs: a machine's passing pace is one pair's
            moving = _generate({**base, "pattern": "rm", "rounds": rounds})
            reading = _generate({**base, "pattern": "rrrrm", "rounds": rounds // 2})
            solves.append(_per_request(moving, reading))
            for run in (moving, reading):
                errors += run["errors"]
                count += run["requests"]
                elapsed += run["elapsed"]
        polling = _generate({**base, "pattern": "r", "rounds": rounds * 2})
        errors += polling["errors"]
        count += polling["requests"]
        elapsed += polling["elapsed"]
        read = statistics.median(solve[0] for solve in solves)
        move = statistics.median(solve[1] for solve in solves)
        figures += [
            Figure(
                "cpu_read_ms",
                "server CPU per view read (ms)",
                read * ms,
                target=READ_MS[0],
                must=READ_MS[1],
                lower_is_better=True,
                digits=3,
            ),
            Figure(
                "cpu_move_ms",
                "server CPU per move (ms)",
                move * ms,
                target=MOVE_MS[0],
                must=MOVE_MS[1],
                lower_is_better=True,
                digits=3,
            ),
            Figure(
                "cpu_poll_ms",
                "server CPU per unchanged view read (ms)",
                polling["server_cpu"] / polling["requests"] * ms,
                lower_is_better=True,
                digits=3,
            ),
            Figure(
                "cpu_floor_ms",
                "HTTP stack alone: CPU per request (ms)",
                _floor(max(2 * rounds, FLOOR_ROUNDS), seed) * ms,
                lower_is_better=True,
                digits=3,
            ),
        ]
        notes["CPU runs"] = (
            f"{CPU_PAIRS} pairs of {moving['requests']:,} + {reading['requests']:,} "
            f"requests of 1 client, then {polling['requests']:,} polling; medians shown, "
            f"read {_spread(pair[0] for pair in solves)} ms, move "
            f"{_spread(pair[1] for pair in solves)} "
            f"ms over the pairs; last pair: {_share(moving)} (read then move), "
            f"{_share(reading)} (four reads then move); {_share(polling)} (polling)"
        )
        rates: dict[int, float] = {}
        for clients in levels:
            run = _generate(
                {
                    "mode": "load",
                    "ports": ports,
                    "pids": pids,
                    "seed": seed,
                    "clients": clients,
                    "seconds": seconds,
                    "warmup": min(1.0, seconds),
                }
            )
            rates[clients] = run["requests"] / run["elapsed"]
            count += run["requests"]
            elapsed += run["elapsed"]
            errors += run["errors"]
            goal, must = P99_MS if clients == max(levels) else (None, None)
            figures += [
                Figure(f"rps_{clients}", f"{clients} clients: requests/s", rates[clients]),
                Figure(
                    f"p50_{clients}_ms",
                    f"{clients} clients: p50 (ms)",
                    run["all"]["p50"],
                    lower_is_better=True,
                    digits=1,
                ),
                Figure(
                    f"p99_{clients}_ms",
                    f"{clients} clients: p99 (ms)",
                    run["all"]["p99"],
                    target=goal,
                    must=must,
                    lower_is_better=True,
                    digits=1,
                ),
                Figure(
                    f"generator_cpu_{clients}",
                    f"{clients} clients: load generator CPU (%)",
                    100 * run["own_cpu"] / run["elapsed"],
                    lower_is_better=True,
                ),
                Figure(
                    f"server_cpu_{clients}",
                    f"{clients} clients: servers' CPU (%)",
                    100 * run["server_cpu"] / run["elapsed"],
                    lower_is_better=True,
                ),
            ]
            notes[f"{clients} clients"] = (
                f"{run['requests']:,} requests in {run['elapsed']:.1f} s; reads p50/p99 "
                f"{run['read']['p50']:.1f}/{run['read']['p99']:.1f} ms, moves "
                f"{run['move']['p50']:.1f}/{run['move']['p99']:.1f} ms; {_share(run)}"
            )
        if 4 in rates and 64 in rates:
            figures.append(
                Figure(
                    "scaling_64_4",
                    "requests/s at 64 clients / at 4",
                    rates[64] / rates[4],
                    target=SCALING[0],
                    must=SCALING[1],
                    digits=2,
                )
            )
        # durability: kill -9 every server while the clients are still sending
        generator = _generator(
            {
                "mode": "load",
                "ports": ports,
                "pids": pids,
                "seed": seed + 1,
                "clients": KILL_CLIENTS,
                "seconds": min(seconds, 3.0),
                "warmup": 0.5,
                "past": PAST_THE_KILL,
            }
        )
        assert generator.stdout is not None
        generator.stdout.readline()  # the window is over, the clients are still sending
        for server in servers:
            os.kill(server.pid, signal.SIGKILL)
        out, _ = generator.communicate(timeout=120)
        killed: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
        errors += killed["errors"]
    acknowledged: dict[str, int] = killed["acknowledged"]
    kept = stored(db)
    lost = sum(max(0, version - kept.get(table, 0)) for table, version in acknowledged.items())
    figures += [
        Figure("errors", "errors before the kill", float(len(errors)), 0.0, lower_is_better=True),
        Figure(
            "lost_actions",
            "acknowledged moves lost at kill -9",
            float(lost),
            0.0,
            lower_is_better=True,
        ),
    ]
    notes["kill -9"] = (
        f"{KILL_CLIENTS} clients; {sum(acknowledged.values()):,} moves acknowledged in "
        f"{len(acknowledged)} tables, {sum(kept.values()):,} stored"
    )
    notes["errors"] = f"{len(errors)}" + (f" (first: {errors[0]})" if errors else "")
    return figures, notes, count, elapsed


@contextlib.contextmanager
def _postgres_database() -> Iterator[str]:
    from benchmarks.postgres import fresh_database, postgres_server

    with postgres_server() as server, fresh_database(server, "fivehundred_bench") as url:
        yield url


def _machine_pace() -> str:
    """How fast this machine runs Python now, to read the CPU figures by: the CPU time and
    the wall time of one fixed loop (on a shared machine the wall time is longer)."""
    cpu, wall = time.process_time(), time.perf_counter()
    sum(range(10**7))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return f"sum(range(10**7)) took {cpu:.2f} s of CPU in {wall:.2f} s; load average " + (
        " ".join(f"{n:.1f}" for n in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    )


def measure_server(
    config: BenchConfig,
    done: Mapping[str, Result] | None = None,
    *,
    seconds: float = 5.0,
    levels: Sequence[int] = LEVELS,
    rounds: int = CPU_ROUNDS,
) -> tuple[Result, ...]:
    """Load real ``fivehundred serve`` processes on loopback (see the module docstring)."""
    duration = min(seconds, MAX_SECONDS)
    title = (
        f"fivehundred serve on loopback: {'/'.join(map(str, levels))} clients, {duration:g} s each"
    )
    pg_title = f"{title}, {PROCESSES} processes on PostgreSQL"
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        return (
            Result("server", f"{title} on SQLite", skipped='pip install "fivehundred[server]"'),
        )
    options: dict[str, Any] = {
        "seconds": duration,
        "levels": levels,
        "rounds": rounds,
        "seed": config.seed,
    }
    pace = _machine_pace()
    with tempfile.TemporaryDirectory() as scratch:
        db = str(Path(scratch) / "bench.db")
        figures, notes, count, elapsed = _measure_store(db, 1, _stored_sqlite, **options)
    notes["processes"] = "1 fivehundred serve on one SQLite file (two processes cannot share one)"
    notes["machine"] = pace
    sqlite = Result(
        "server",
        f"{title}, 1 process on SQLite",
        tuple(figures),
        count=count,
        elapsed=elapsed,
        notes=notes,
    )
    try:
        import psycopg  # noqa: F401

        from benchmarks.postgres import PostgresMissing
    except ImportError:
        return sqlite, Result("server_postgresql", pg_title, skipped="pip install psycopg")
    try:
        with _postgres_database() as url:
            figures, notes, count, elapsed = _measure_store(
                url, PROCESSES, _stored_postgres, **options
            )
    except PostgresMissing as missing:
        return sqlite, Result("server_postgresql", pg_title, skipped=str(missing))
    for key, label in (("cpu_read_ms", "view read"), ("cpu_move_ms", "move")):
        ratio = next(f for f in figures if f.key == key).value / sqlite.figure(key).value
        figures.append(
            Figure(
                f"{key}_ratio",
                f"server CPU per {label}, / SQLite's",
                ratio,
                target=POSTGRES_RATIO[0],
                must=POSTGRES_RATIO[1],
                lower_is_better=True,
                digits=2,
            )
        )
    notes["processes"] = f"{PROCESSES} fivehundred serve on one PostgreSQL database"
    notes["machine"] = pace
    postgres = Result(
        "server_postgresql", pg_title, tuple(figures), count=count, elapsed=elapsed, notes=notes
    )
    return sqlite, postgres
