"""``fivehundred serve --workers N``: uvicorn workers sharing one PostgreSQL database.

The worker processes share the tables through PostgreSQL (issue 29), so a
SQLite file refuses more than one worker with a sentence. The PostgreSQL test
runs on the throwaway cluster of ``tests/postgres.py``.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("psycopg", reason="the server extra is not installed")

from fivehundred.errors import FiveHundredError
from fivehundred.server.serve import GC_THRESHOLDS, SWITCH_INTERVAL, share_the_interpreter
from fivehundred.server.settings import Settings
from fivehundred.server.workers import MAX_WORKERS, SETTINGS, app, check_workers, worker_config
from postgres import fresh_database, postgres_server
from server_helpers import Client, first_line, free_port
from subprocesses import python_env, run_python

#: Seconds to wait for the server, or for its workers, to come up or go.
WAIT = 30.0


def test_a_worker_hands_the_interpreter_between_threads_often(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each server process (a worker, or the one of ``serve``) sets a short switch interval:
    under load SQLite's writer thread would otherwise wait 5 ms for each statement; and
    it collects cyclic garbage in bigger steps than Python's 700 allocations."""
    found: list[float] = []
    collects: list[tuple[int, ...]] = []
    monkeypatch.setattr(sys, "setswitchinterval", found.append)
    monkeypatch.setattr(gc, "set_threshold", lambda *steps: collects.append(steps))
    settings: dict[str, object] = {
        "db": str(tmp_path / "w.db"),
        "seed": None,
        "settings": {},
        "parent": None,
    }
    monkeypatch.setenv(SETTINGS, json.dumps(settings))
    app()
    assert found == [SWITCH_INTERVAL] and SWITCH_INTERVAL < 0.005
    share_the_interpreter()
    assert found == [SWITCH_INTERVAL] * 2
    assert collects == [GC_THRESHOLDS] * 2


def test_sqlite_refuses_more_than_one_worker(tmp_path: Path) -> None:
    db = tmp_path / "one.db"
    result = run_python(
        ["-m", "fivehundred", "serve", "--db", str(db), "--workers", "2", "--port", "1"],
        timeout=WAIT,
    )
    assert result.returncode == 2
    assert "--workers 2 needs a PostgreSQL database" in result.stderr
    assert "a SQLite file serves one process" in result.stderr
    assert not db.exists()  # refused before anything was opened


@pytest.mark.parametrize(
    ("workers", "url", "shown"),
    [
        ("1", "postgresql://ann:hunter2@127.0.0.1:{port}/five", "postgresql://ann:***@127.0.0.1"),
        ("2", "postgresql://ann:hunter2@127.0.0.1:{port}/five", "postgresql://ann:***@127.0.0.1"),
        ("1", "postgresql://ann:hunter2@[::1/five", "postgresql://***"),
        ("1", "postgresql://ann:hunter2%zz@127.0.0.1:{port}/five", "postgresql://ann:***@"),
    ],
)
def test_a_database_that_cannot_be_opened_is_one_sentence(
    workers: str, url: str, shown: str
) -> None:
    """No traceback, and no workers restarted for ever on a wrong or malformed URL."""
    closed = url.format(port=free_port())
    command = ["-m", "fivehundred", "serve", "--db", closed, "--workers", workers]
    result = run_python([*command, "--port", str(free_port())], timeout=WAIT)
    assert result.returncode == 2
    assert f"cannot open the database {shown}" in result.stderr
    assert "hunter2" not in result.stderr + result.stdout
    assert "Traceback" not in result.stderr


def test_a_sqlite_file_in_a_missing_folder_is_one_sentence(tmp_path: Path) -> None:
    db = tmp_path / "missing" / "five.db"
    result = run_python(
        ["-m", "fivehundred", "serve", "--db", str(db), "--port", "1"], timeout=WAIT
    )
    assert result.returncode == 2
    assert f"cannot open the database {db}: unable to open database file" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_port_in_use_prints_no_address(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = ["-m", "fivehundred", "serve", "--db", str(tmp_path / "t.db")]
        result = run_python([*command, "--port", str(port)], timeout=WAIT)
    assert result.returncode == 3  # uvicorn's start-up failure
    assert "serving on" not in result.stdout
    assert "Address already in use" in result.stderr


def test_worker_counts_out_of_range_are_refused() -> None:
    check_workers("postgresql://db/five", MAX_WORKERS)  # the largest is taken
    check_workers("five.db", 1)
    for wrong in (0, MAX_WORKERS + 1):
        with pytest.raises(FiveHundredError, match=f"--workers takes 1 to {MAX_WORKERS}"):
            check_workers("postgresql://db/five", wrong)
    with pytest.raises(FiveHundredError, match="expected a number of worker processes"):
        check_workers("postgresql://db/five", "2")  # type: ignore[arg-type]  # the wrong type


@pytest.fixture
def database() -> Iterator[str]:
    with postgres_server() as server, fresh_database(server, "t_workers") as url:
        yield url


def test_each_worker_builds_its_app_with_the_operators_settings(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SETTINGS, "")  # restored after the test: worker_config sets it
    settings = Settings(operator_key="k" * 32, create_needs_key=True, idle_expiry=60.0)
    config = worker_config(database, "127.0.0.1", 1, 2, seed="handed", settings=settings)
    assert (config.app, config.factory, config.workers) == (f"{app.__module__}:app", True, 2)
    worker = app()  # what a spawned worker calls, reading only the environment
    assert worker.state.ops.settings == settings
    assert worker.state.tables._seed == "handed"  # the deals follow the seed handed over
    assert config.log_level == "info"


def _children(parent: int) -> list[int]:
    """The worker processes of the supervisor ``parent`` (spawned multiprocessing children)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == parent and b"spawn_main" in command:
            found.append(int(entry.name))
    return sorted(found)


def _wait_for_workers(parent: int, count: int) -> list[int]:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        workers = _children(parent)
        if len(workers) == count:
            return workers
        time.sleep(0.1)
    raise AssertionError(f"{count} workers did not run within {WAIT} s: {_children(parent)}")


def _wait_for_port(port: int, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited: {process.communicate(timeout=WAIT)}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"the server did not answer within {WAIT} s")


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="counts the workers through /proc")
def test_two_workers_share_the_tables_and_survive_a_kill(database: str) -> None:
    """Two workers on one database: every move is acknowledged once whichever worker
    takes it, and after a ``kill -9`` of one worker every table is served with every
    acknowledged move (the supervisor starts a new worker in its place)."""
    port = free_port()
    command = [sys.executable, "-m", "fivehundred", "serve", "--db", database]
    command += ["--port", str(port), "--workers", "2", "--seed", "workers"]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=python_env(),
        start_new_session=True,  # the workers go with the group at the end
    )
    try:
        _wait_for_port(port, process)
        workers = _wait_for_workers(process.pid, 2)
        rng = random.Random(29)
        tables: dict[str, str] = {}
        acknowledged: dict[str, int] = {}
        for _ in range(4):
            client = Client(port, timeout=WAIT)  # a new connection: any worker may take it
            try:
                status, created, _ = client.request(
                    "POST", "/tables", {"seats": ["human", "heuristic", "random", "heuristic"]}
                )
                assert status == 201, created
                tables[created["table"]] = created["tokens"]["0"]
                acknowledged[created["table"]] = created["version"]
            finally:
                client.close()
        for _ in range(40):
            table_id = rng.choice(sorted(tables))
            client = Client(port, timeout=WAIT)
            try:
                status, view, _ = client.request(
                    "GET", f"/tables/{table_id}", token=tables[table_id]
                )
                assert status == 200, view
                # whichever worker answers has every acknowledged move
                assert view["version"] == acknowledged[table_id]
                if not view["legal_actions"]:
                    continue
                body = {"action": view["legal_actions"][0], "version": view["version"]}
                status, answer, _ = client.request(
                    "POST", f"/tables/{table_id}/actions", body, token=tables[table_id]
                )
                assert status == 200, answer
                acknowledged[table_id] = answer["version"]
            finally:
                client.close()
        os.kill(workers[0], signal.SIGKILL)
        _wait_for_workers(process.pid, 2)  # replaced
        for table_id, token in tables.items():
            client = Client(port, timeout=WAIT)
            try:
                status, view, _ = client.request("GET", f"/tables/{table_id}", token=token)
            finally:
                client.close()
            assert status == 200, view
            assert view["version"] == acknowledged[table_id]
        assert process.poll() is None  # the supervisor still serves
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=WAIT)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="counts the workers through /proc")
def test_the_workers_end_with_their_parent_and_the_port_is_free_again(database: str) -> None:
    """A ``kill -9`` of the supervisor: its workers end too (issue 34), so the port is free
    for a restart; and the address was printed only once both workers had started."""
    port = free_port()
    command = [sys.executable, "-m", "fivehundred", "serve", "--db", database]
    command += ["--port", str(port), "--workers", "2", "--log-level", "warning"]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=python_env()
    )
    workers: list[int] = []
    try:
        assert process.stdout is not None
        line = first_line(process.stdout, WAIT * 6)  # once the supervisor prints it
        assert "serving on" in line and "2 worker processes" in line
        workers = _children(process.pid)
        assert len(workers) == 2  # both are up when the line is printed, with no wait
        client = Client(port, timeout=WAIT)
        assert client.request("GET", "/readyz")[0] == 200
        client.close()
        process.kill()
        process.wait(timeout=WAIT)
        deadline = time.monotonic() + WAIT
        while any(Path(f"/proc/{pid}").exists() for pid in workers):
            assert time.monotonic() < deadline, "a worker outlived its parent"
            time.sleep(0.1)
        with socket.socket() as again:  # nothing serves the port any more
            again.bind(("127.0.0.1", port))
    finally:
        process.kill()
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _series(text: str, name: str) -> float:
    """A series' value in a scrape, 0 when it is not there (yet)."""
    for row in text.splitlines():
        if row.startswith(name + " "):
            return float(row.rsplit(" ", 1)[1])
    return 0.0


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="process metrics come from /proc")
def test_the_metrics_are_whole_across_the_workers(database: str) -> None:
    """Whichever worker is scraped answers every worker's counts (issue 34: each answered
    its own), with the standard process metrics."""
    port = free_port()
    command = [sys.executable, "-m", "fivehundred", "serve", "--db", database]
    command += ["--port", str(port), "--workers", "2", "--log-level", "warning"]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=python_env(),
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        assert "serving on" in first_line(process.stdout, WAIT * 6)
        for _ in range(12):  # a new connection each: both workers take some
            client = Client(port, timeout=WAIT)
            assert client.request("GET", "/healthz")[0] == 200
            client.close()
        scrapes = []
        for _ in range(6):
            client = Client(port, timeout=WAIT)
            client.connection.request("GET", "/metrics")
            scrapes.append(client.connection.getresponse().read().decode())
            client.close()
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:  # pragma: no cover - a stuck supervisor
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=WAIT)
    healthz = 'fivehundred_requests_total{method="GET",route="/healthz",status="200"}'
    # a request is counted just after its answer, so an early scrape may miss the last
    # ones; but no scrape reads less than an earlier one (each worker's alone went up and
    # down: 4, 4, 8, 8, 4), and the last reads all 12
    seen = [_series(text, healthz) for text in scrapes]
    assert seen == sorted(seen) and seen[-1] == 12.0, seen
    scraped = 'fivehundred_requests_total{method="GET",route="/metrics",status="200"}'
    counts = [_series(text, scraped) for text in scrapes]
    assert counts == sorted(counts) and counts[-1] >= 3, counts  # the earlier scrapes
    for text in scrapes:
        assert _series(text, "process_resident_memory_bytes") > 0
        assert _series(text, "process_cpu_seconds_total") > 0
        assert _series(text, "process_start_time_seconds") > 0
