"""The server bench's load generator (benchmarks/load.py), run in this process against a
real ``fivehundred serve``: the bench runs it as a process of its own, where coverage does
not follow, so its figures are checked here (issue 34)."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")

from benchmarks import load
from server_helpers import free_port, start_server

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int]]:
    """A server on a fresh SQLite file: its port and process id. As the bench's servers,
    it has no creation limit: random games end within a hand or two, and its clients make
    a new table for each, over 30 a minute on a fast machine."""
    port = free_port()
    process: subprocess.Popen[str] = start_server(
        tmp_path_factory.mktemp("load") / "tables.db", port, "--seed", "load", "--create-rate", "0"
    )
    try:
        yield port, process.pid
    finally:
        process.terminate()
        process.communicate(timeout=10)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads CPU time from /proc")
def test_a_process_cpu_time_is_read_from_proc() -> None:
    spent = load.cpu_seconds(os.getpid())
    sum(range(2_000_000))
    assert load.cpu_seconds(os.getpid()) >= spent >= 0


@pytest.mark.parametrize("pattern", ["rm", "rrrrm", "r"])
def test_the_cpu_measurement_counts_its_requests(server: tuple[int, int], pattern: str) -> None:
    port, pid = server
    spec = {"ports": [port], "pids": [pid], "pattern": pattern, "rounds": 12, "warm": 3}
    found = asyncio.run(load.measure_cpu(spec))
    assert found["error_count"] == 0, found["errors"]
    reads_a_round = {"rm": 1, "rrrrm": 4, "r": 1}[pattern]
    assert found["requests"] >= 12 * (1 if pattern == "r" else reads_a_round)
    assert found["server_cpu"] >= 0 and found["own_cpu"] >= 0 and found["elapsed"] > 0
    if pattern != "r":
        assert found["counts"]["read"] >= 12 * reads_a_round and found["counts"]["move"] >= 1


def test_the_load_measurement_reports_latencies_and_every_acknowledged_move(
    server: tuple[int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    port, pid = server
    spec = {"ports": [port], "pids": [pid], "clients": 3, "seconds": 1.0, "warmup": 0.2}
    found = asyncio.run(load.measure_load(spec))
    assert found["clients"] == 3 and found["error_count"] == 0, found["errors"]
    assert found["requests"] > 0 and found["read"]["p50"] <= found["read"]["p99"]
    assert found["acknowledged"] and all(v >= 1 for v in found["acknowledged"].values())
    spec = {**spec, "mode": "load", "seconds": 0.3, "past": 0.2}
    load.main([json.dumps(spec)])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0] == {"ready_to_kill": True}
    assert lines[-1]["clients"] == 3 and "acknowledged" in lines[-1]


def test_the_floor_app_answers_every_request_with_its_body() -> None:
    """benchmarks/floor.py: every HTTP request gets the fixed body; a lifespan nothing."""
    from benchmarks import floor

    sent: list[dict[str, object]] = []

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    async def serve() -> None:
        await floor.app({"type": "lifespan"}, None, send)
        await floor.app({"type": "http", "path": "/"}, None, send)

    asyncio.run(serve())
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[1]["body"] == floor.BODY and len(floor.BODY) > 5000
    assert (b"content-length", str(len(floor.BODY)).encode()) in floor.HEAD


def test_the_floor_measurement_counts_its_requests() -> None:
    """The load generator's ``floor`` pattern: GET / of the bare app, the CPU per request."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.floor", str(port)],
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])},
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the floor app did not start"
                time.sleep(0.05)
        spec = {"ports": [port], "pids": [process.pid], "pattern": "floor", "rounds": 30}
        found = asyncio.run(load.measure_cpu({**spec, "warm": 3}))
    finally:
        process.kill()
        process.wait(10)
    assert (found["requests"], found["error_count"]) == (30, 0)
    assert found["server_cpu"] >= 0 and found["elapsed"] > 0
