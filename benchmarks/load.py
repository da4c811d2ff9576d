"""The load generator of the server bench: a process of its own, apart from the servers.

``python -m benchmarks.load SPEC`` reads a JSON spec (see :func:`main`), loads
the ``fivehundred serve`` processes it names over raw keep-alive HTTP/1.1
connections (asyncio streams: no HTTP library's overhead), and prints one JSON
line of results. It reads the servers' CPU time from ``/proc/PID/stat`` and its
own from :func:`time.process_time` over the same window, so that the bench can
give the server's CPU per request and the generator's share of the machine.

Every table has four people's seats, all played by the one client that made
it: a move is a person's move, with no computer seat's thinking in it. A client
reads the view of the seat to act, then posts one of its legal actions at the
version it read; a finished game is replaced by a new table.

Modes:

- ``cpu``: one client, a fixed number of rounds, each ``pattern``: ``"rm"`` (the
  acting seat's read, then its move), ``"rrrrm"`` (the four seats' reads, then the
  move), ``"r"`` (the same view read again: polling, unchanged) or ``"floor"``
  (``GET /`` of the bare app of ``benchmarks/floor.py``: the HTTP stack alone);
- ``load``: ``clients`` clients that never pause, each reading and moving, for
  ``seconds`` after ``warmup`` seconds; then, with ``past`` seconds, they go on
  sending while the bench kills the servers, and every version acknowledged is
  reported, for the count of lost moves.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import time
from typing import Any

#: Clock ticks a second, for ``/proc/PID/stat``.
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float:
    """The user and system CPU seconds of process ``pid`` so far (Linux ``/proc``)."""
    with open(f"/proc/{pid}/stat", "rb") as stat:
        fields = stat.read().rpartition(b")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


class Connection:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, token: str | None = None, body: Any = None
    ) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        head = f"{method} {path} HTTP/1.1\r\nhost: 127.0.0.1\r\n"
        if token is not None:
            head += f"authorization: Bearer {token}\r\n"
        data = b""
        if body is not None:
            data = json.dumps(body, separators=(",", ":")).encode()
            head += f"content-type: application/json\r\ncontent-length: {len(data)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("the server closed the connection")
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        raw = await self.reader.readexactly(length)
        return status, json.loads(raw) if raw else None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


class Player:
    """One client: its tables (four people's seats each), one connection, its figures."""

    def __init__(self, port: int, seed: int) -> None:
        self.conn = Connection(port)
        self.rng = random.Random(seed)
        self.table = ""
        self.tokens: list[str] = []
        self.seat = 0
        self.view: dict[str, Any] = {}
        self.acknowledged: dict[str, int] = {}
        self.errors: list[str] = []
        self.latencies: dict[str, list[float]] = {"read": [], "move": [], "create": []}
        self.recording = False

    async def timed(
        self, kind: str, method: str, path: str, token: str | None, body: Any = None
    ) -> tuple[int, Any]:
        started = time.perf_counter()
        status, answer = await self.conn.request(method, path, token, body)
        if self.recording:
            self.latencies[kind].append(time.perf_counter() - started)
        return status, answer

    def failed(self, status: int, answer: Any) -> None:
        if self.recording:
            self.errors.append(f"{status} {answer}"[:300])

    async def new_table(self) -> None:
        while True:
            status, made = await self.timed(
                "create", "POST", "/tables", None, {"seats": ["human"] * 4}
            )
            if status == 201:
                break
            self.failed(status, made)
        self.table = made["table"]
        self.tokens = [made["tokens"][str(seat)] for seat in range(4)]
        self.acknowledged[self.table] = made["version"]
        self.seat = 0

    async def read(self, seat: int) -> bool:
        """Read ``seat``'s view; whether it was answered."""
        status, view = await self.timed("read", "GET", f"/tables/{self.table}", self.tokens[seat])
        if status != 200:
            self.failed(status, view)
            return False
        self.view = view
        return True

    async def round(self, reads: int) -> None:
        """Read (the acting seat's view, and ``reads - 1`` other seats'), then move."""
        if not self.table:
            await self.new_table()
        if not await self.read(self.seat):
            return
        if not self.view["legal_actions"]:
            acting = [s["seat"] for s in self.view["page"]["seats"] if s["to_act"]]
            if not acting:  # the game is over
                self.table = ""
                return
            self.seat = acting[0]
            if not await self.read(self.seat):
                return
        view = self.view
        for other in range(1, reads):  # the other seats' views changed too
            await self.read((self.seat + other) % 4)
        body = {"action": self.rng.choice(view["legal_actions"]), "version": view["version"]}
        status, answer = await self.timed(
            "move", "POST", f"/tables/{self.table}/actions", self.tokens[self.seat], body
        )
        if status != 200:
            self.failed(status, answer)
            return
        self.acknowledged[self.table] = answer["version"]  # acknowledged: it must be stored
        self.seat = (self.seat + 1) % 4  # mostly the next to act: else the next read says who


def _percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"count": 0}
    ordered = sorted(values)

    def at(fraction: float) -> float:
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000

    return {"count": len(ordered), "p50": at(0.5), "p99": at(0.99), "max": ordered[-1] * 1000}


def _cpu(pids: list[int]) -> float:
    return sum(cpu_seconds(pid) for pid in pids)


async def measure_cpu(spec: dict[str, Any]) -> dict[str, Any]:
    """One client, ``rounds`` rounds of ``pattern``: the servers' CPU per round."""
    player = Player(spec["ports"][0], spec.get("seed", 0))
    pattern, rounds = spec["pattern"], spec["rounds"]
    if pattern == "floor":  # a bare app (benchmarks/floor.py): GET / and nothing else
        return await _floor(player.conn, spec)
    for _ in range(spec.get("warm", 200)):
        await player.round(4 if pattern == "rrrrm" else 1)
    requests = 0
    server = _cpu(spec["pids"])
    own = time.process_time()
    started = time.perf_counter()
    if pattern == "r":
        while not player.view.get("legal_actions"):
            await player.round(1)
        token, path = player.tokens[player.seat], f"/tables/{player.table}"
        for _ in range(rounds):
            await player.conn.request("GET", path, token)
        requests = rounds
    else:
        before = sum(len(v) for v in player.latencies.values())
        player.recording = True
        for _ in range(rounds):
            await player.round(4 if pattern == "rrrrm" else 1)
        requests = sum(len(v) for v in player.latencies.values()) - before
    elapsed = time.perf_counter() - started
    server = _cpu(spec["pids"]) - server
    own = time.process_time() - own
    player.conn.close()
    return {
        "pattern": pattern,
        "rounds": rounds,
        "requests": requests,
        "counts": {kind: len(v) for kind, v in player.latencies.items()},
        "server_cpu": server,
        "own_cpu": own,
        "elapsed": elapsed,
        "errors": player.errors[:5],
        "error_count": len(player.errors),
    }


async def _floor(conn: Connection, spec: dict[str, Any]) -> dict[str, Any]:
    for _ in range(spec.get("warm", 200)):
        await conn.request("GET", "/")
    server, own, started = _cpu(spec["pids"]), time.process_time(), time.perf_counter()
    for _ in range(spec["rounds"]):
        await conn.request("GET", "/")
    elapsed = time.perf_counter() - started
    server, own = _cpu(spec["pids"]) - server, time.process_time() - own
    conn.close()
    found = {"pattern": "floor", "requests": spec["rounds"], "server_cpu": server, "own_cpu": own}
    return {**found, "elapsed": elapsed, "errors": [], "error_count": 0}


async def measure_load(spec: dict[str, Any]) -> dict[str, Any]:
    """``clients`` clients that never pause; figures over ``seconds`` after ``warmup``."""
    ports, clients = spec["ports"], spec["clients"]
    players = [
        Player(ports[n % len(ports)], spec.get("seed", 0) * 1000 + n) for n in range(clients)
    ]
    phase = {"end": False}
    failures: list[str] = []

    async def run(player: Player) -> None:
        try:
            while not phase["end"]:
                await player.round(1)
        except (OSError, asyncio.IncompleteReadError, ValueError) as err:
            if player.recording:
                failures.append(repr(err))
        finally:
            player.conn.close()

    tasks = [asyncio.ensure_future(run(p)) for p in players]
    await asyncio.sleep(spec.get("warmup", 1.0))
    for player in players:
        player.recording = True
    server, own, started = _cpu(spec["pids"]), time.process_time(), time.perf_counter()
    await asyncio.sleep(spec["seconds"])
    elapsed = time.perf_counter() - started
    server = _cpu(spec["pids"]) - server
    own = time.process_time() - own
    latencies = {kind: [t for p in players for t in p.latencies[kind]] for kind in ("read", "move")}
    every = [t for p in players for kind in ("read", "move", "create") for t in p.latencies[kind]]
    errors = [e for p in players for e in p.errors] + failures
    for player in players:
        player.recording = False
    result: dict[str, Any] = {
        "clients": clients,
        "elapsed": elapsed,
        "requests": len(every),
        "all": _percentiles(every),
        "read": _percentiles(latencies["read"]),
        "move": _percentiles(latencies["move"]),
        "server_cpu": server,
        "own_cpu": own,
        "error_count": len(errors),
        "errors": errors[:5],
    }
    past = spec.get("past", 0.0)
    if past:  # the bench kills the servers now: every acknowledged version is reported
        print(json.dumps({"ready_to_kill": True}), flush=True)
        await asyncio.sleep(past)
        result["acknowledged"] = {t: v for p in players for t, v in p.acknowledged.items()}
    phase["end"] = True
    await asyncio.wait(tasks, timeout=10)
    if not past:
        result["acknowledged"] = {t: v for p in players for t, v in p.acknowledged.items()}
    return result


def main(argv: list[str]) -> None:
    """``python -m benchmarks.load '{"mode": "cpu", "ports": [...], "pids": [...], ...}'``."""
    spec = json.loads(argv[0])
    measure = measure_cpu if spec["mode"] == "cpu" else measure_load
    print(json.dumps(asyncio.run(measure(spec))), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
