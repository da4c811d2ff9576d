"""The game server over real HTTP: uvicorn's layer (limits, JSON refusals) and a kill -9 restart.

The first tests run uvicorn in a thread of this process, with the configuration
``fivehundred serve`` uses; the restart test runs ``fivehundred serve`` itself in
a child process and kills it with SIGKILL in the middle of a hand.
"""

from __future__ import annotations

import json
import math
import os
import random
import signal
import socket
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the server extra is not installed")
pytest.importorskip("starlette", reason="the server extra is not installed")

import uvicorn

from fivehundred.server.serve import (
    MAX_HEADER_BYTES,
    JsonH11Protocol,
    JsonHttpToolsProtocol,
    config,
    raw_response,
)
from server_helpers import JSON, Client, free_port, start_server


@pytest.fixture(scope="module", params=["httptools", "h11"])
def port(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[int]:
    """A server in a thread of this process, limited to 4 connections, speaking HTTP with
    httptools (as ``fivehundred serve`` does where it is installed) or with h11."""
    number = free_port()
    db = tmp_path_factory.mktemp("server") / "tables.db"
    settings = config(db, port=number, max_connections=4, deadline=1.0)
    if request.param == "h11":
        settings.http = JsonH11Protocol
    server = uvicorn.Server(settings)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    yield number
    server.should_exit = True
    thread.join(10)


def raw(port: int, data: bytes, *, wait: float = 5) -> bytes:
    """Send bytes on a new connection; everything answered until the server closes it."""
    deadline = time.monotonic() + wait  # each read waits at most ``wait``, and so do all
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(data)
        chunks = []
        try:
            while time.monotonic() < deadline and (chunk := sock.recv(65536)):
                chunks.append(chunk)
        except TimeoutError:
            pass
    return b"".join(chunks)


def parse(answer: bytes) -> tuple[int, dict[str, str], dict[str, object]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, json.loads(body)


def test_the_server_speaks_http_with_httptools_and_uvloop_where_installed(
    tmp_path: Path,
) -> None:
    pytest.importorskip("httptools", reason="the server extra brings httptools")
    settings = config(tmp_path / "tables.db")
    assert settings.http is JsonHttpToolsProtocol
    assert settings.loop == "auto"  # uvicorn takes uvloop where it is installed


def test_answers_carry_no_version_banner(port: int) -> None:
    client = Client(port)
    status, body, response = client.request("GET", "/missing")
    client.close()
    assert (status, body["error"]) == (404, "NOT_FOUND")
    assert response.getheader("server") is None
    assert response.getheader("content-type") == "application/json"


def test_a_trailing_slash_is_404_json_not_a_redirect(port: int) -> None:
    client = Client(port)
    status, body, response = client.request("GET", "/tables/abc/")
    client.close()
    assert (status, body["error"]) == (404, "NOT_FOUND")
    assert response.getheader("location") is None


def test_a_malformed_request_is_400_json(port: int) -> None:
    status, headers, body = parse(raw(port, b"NOT HTTP AT ALL\r\n\r\n"))
    assert (status, body["error"]) == (400, "BAD_REQUEST")
    assert headers["content-type"] == "application/json"


def test_headers_over_the_limit_are_431_json(port: int) -> None:
    # a head still unfinished beyond the limit (a whole one: tests/test_server_fuzz.py)
    big = b"x-filler: " + b"a" * (MAX_HEADER_BYTES + 100)
    status, _, body = parse(raw(port, b"GET / HTTP/1.1\r\nhost: x\r\n" + big))
    assert (status, body["error"]) == (431, "HEADERS_TOO_LARGE")


def test_a_whole_head_over_the_limit_is_431_json(port: int) -> None:
    # sent in one piece and complete: h11 alone would parse it and serve it
    big = b"x-filler: " + b"a" * MAX_HEADER_BYTES
    status, _, body = parse(raw(port, b"GET /healthz HTTP/1.1\r\nhost: x\r\n" + big + b"\r\n\r\n"))
    assert (status, body["error"]) == (431, "HEADERS_TOO_LARGE")
    small = b"x-filler: " + b"a" * (MAX_HEADER_BYTES - 100)
    status, _, _ = parse(raw(port, b"GET /healthz HTTP/1.1\r\nhost: x\r\n" + small + b"\r\n\r\n"))
    assert status == 200


def test_an_unknown_transfer_encoding_is_501_json(port: int) -> None:
    head = b"POST /tables HTTP/1.1\r\nhost: x\r\ntransfer-encoding: gzip\r\n\r\n"
    status, _, body = parse(raw(port, head))
    assert (status, body["error"]) == (501, "NOT_IMPLEMENTED")


def test_connections_over_the_limit_are_503_json(port: int) -> None:
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(4)]
    try:
        time.sleep(0.2)
        # a connection over the limit is read to its head's end (/healthz still answers)
        status, _, body = parse(raw(port, b"GET /missing HTTP/1.1\r\nhost: x\r\n\r\n"))
        assert (status, body["error"]) == (503, "BUSY")
    finally:
        for sock in idle:
            sock.close()
    time.sleep(0.2)
    client = Client(port)
    assert client.request("GET", "/missing")[0] == 404  # the slots are free again
    client.close()


def test_a_body_slower_than_the_deadline_is_408_and_closed(port: int) -> None:
    started = time.monotonic()
    answer = raw(
        port,
        b"POST /tables HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
        b"content-length: 10\r\n\r\n{",
        wait=10,
    )
    waited = time.monotonic() - started
    status, headers, body = parse(answer)
    assert (status, body["error"]) == (408, "REQUEST_TIMEOUT")
    assert headers["connection"] == "close"
    assert 0.9 <= waited < 5  # this server's deadline is 1 s from the request's start


def _errors(port: int) -> float:
    """The server's ``fivehundred_errors_total`` (answers 500), from /metrics."""
    client = Client(port)
    try:
        client.connection.request("GET", "/metrics")
        text = client.connection.getresponse().read().decode()
    finally:
        client.close()
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("fivehundred_errors_total")
    )


def test_a_client_gone_before_its_body_ended_is_no_error(port: int) -> None:
    """No input is a 500: a body cut short, or a broken chunk, is the client's fault."""
    before = _errors(port)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"POST /tables HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{}")
    chunked = b"POST /tables HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n"
    status, _, body = parse(raw(port, chunked))
    assert (status, body["error"]) == (400, "BAD_REQUEST")
    time.sleep(1.0)  # the cut request is handled after its connection closed
    assert _errors(port) == before


def test_raw_responses_are_whole_http_answers() -> None:
    answer = raw_response(503, "busy")
    status, headers, body = parse(answer)
    assert (status, body) == (503, {"error": "BUSY", "message": "busy"})
    assert int(headers["content-length"]) == len(json.dumps(body))
    assert headers["connection"] == "close"


# -- kill -9 and restart -----------------------------------------------------------------------


#: Bounds of a game played over HTTP: people's moves, and seconds.
MAX_MOVES = 3000
MAX_SECONDS = 120.0


def play_until(
    client: Client,
    table: str,
    tokens: dict[str, str],
    rng: random.Random,
    *,
    goal: str,
    reached: Callable[[JSON], bool],
) -> dict[str, JSON]:
    """People's moves chosen by ``rng`` until ``reached(seat 0's answer)``: every seat's answer.

    Bounded in moves and in time; an end of the game before the goal fails too.
    """
    deadline = time.monotonic() + MAX_SECONDS
    for _ in range(MAX_MOVES):
        views = {
            seat: client.request("GET", f"/tables/{table}", token=t)[1]
            for seat, t in tokens.items()
        }
        if reached(views["0"]):
            return views
        assert views["0"]["view"]["view"]["result"] is None, f"the game ended before {goal}"
        assert time.monotonic() < deadline, f"{goal} not reached within {MAX_SECONDS} s"
        seat = next((s for s, view in views.items() if view["legal_actions"]), None)
        assert seat is not None, f"no person may act, and not {goal}: {views['0']}"
        status, answer, _ = client.request(
            "POST",
            f"/tables/{table}/actions",
            {"action": rng.choice(views[seat]["legal_actions"]), "version": views[seat]["version"]},
            token=tokens[seat],
        )
        assert status == 200, answer
    raise AssertionError(f"{goal} not reached in {MAX_MOVES} moves")


def test_a_table_survives_kill_9_mid_hand_with_every_action_and_its_tokens(
    tmp_path: Path,
) -> None:
    db = tmp_path / "tables.db"
    number = free_port()
    # the seed makes the deals and the computer moves, and so the whole test, repeatable
    server = start_server(db, number, "--seed", "kill-9")
    try:
        client = Client(number)
        status, created, _ = client.request(
            "POST", "/tables", {"rules": {}, "seats": ["human", "heuristic", "human", "random"]}
        )
        assert status == 201
        table, tokens = created["table"], created["tokens"]
        rng = random.Random(7)
        # both people play until the hand is well under way
        before = play_until(
            client,
            table,
            tokens,
            rng,
            goal="trick 3 of a hand",
            reached=lambda view: (
                view["view"]["view"]["phase"] == "play" and len(view["view"]["view"]["tricks"]) >= 3
            ),
        )
        client.close()
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        assert server.returncode == -signal.SIGKILL
    finally:
        server.kill()
        out, err = server.communicate(timeout=10)
    assert not any(token in out + err for token in tokens.values())  # never printed

    with sqlite3.connect(db) as connection:
        (stored,) = connection.execute("SELECT COUNT(*) FROM action").fetchone()
    assert stored == before["0"]["version"]  # 0 lost actions

    server = start_server(db, number, "--seed", "kill-9")
    try:
        client = Client(number)
        after = {
            seat: client.request("GET", f"/tables/{table}", token=t)[1]
            for seat, t in tokens.items()
        }
        assert after == before  # every accepted action, the same tokens
        assert 0 < len(after["0"]["view"]["view"]["tricks"]) < 10  # it was killed mid-hand
        # finish the game with the same tokens
        views = play_until(
            client,
            table,
            tokens,
            rng,
            goal="the end of the game",
            reached=lambda view: view["view"]["view"]["result"] is not None,
        )
        assert views["0"]["view"]["view"]["result"]["winners"]
        assert views["0"]["version"] > before["0"]["version"]
        client.close()
    finally:
        server.terminate()
        server.communicate(timeout=10)


# -- the load measurement (its figures are printed by the bench, never asserted on) ------------


def test_the_server_measurement_reports_its_figures_and_no_lost_action(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from benchmarks import server
    from benchmarks.server import measure_server
    from benchmarks.suite import BenchConfig

    monkeypatch.setattr(server, "CPU_PAIRS", 2)  # a median of two: the test's time is short
    sqlite, postgres = measure_server(BenchConfig(), seconds=1.0, levels=(1, 4), rounds=60)
    assert (sqlite.name, postgres.name) == ("server", "server_postgresql")
    if postgres.skipped is not None:
        from postgres import unavailable

        unavailable(postgres.skipped)  # fails where PostgreSQL is required (CI)
    each_level = {"rps", "p50", "p99", "generator_cpu", "server_cpu"}
    for result in (sqlite, postgres):
        figures = {figure.key: figure for figure in result.figures}
        expected = {"cpu_read_ms", "cpu_move_ms", "cpu_poll_ms", "cpu_floor_ms"}
        expected |= {"errors", "lost_actions"}
        expected |= {
            f"{name}_{clients}" + ("_ms" if name in {"p50", "p99"} else "")
            for name in each_level
            for clients in (1, 4)
        }
        if result is postgres:
            expected |= {"cpu_read_ms_ratio", "cpu_move_ms_ratio"}
        assert set(figures) == expected
        assert result.skipped is None and result.count > 0
        # too few rounds here for the solve of read and move apart to be steady: finite
        assert math.isfinite(figures["cpu_read_ms"].value + figures["cpu_move_ms"].value)
        assert figures["cpu_poll_ms"].value > 0
        # the bare app on the same HTTP stack: the floor, with no target of its own
        assert figures["cpu_floor_ms"].value > 0 and figures["cpu_floor_ms"].must is None
        assert (figures["cpu_read_ms"].target, figures["cpu_read_ms"].must) == (0.1, 0.2)
        assert (figures["cpu_move_ms"].target, figures["cpu_move_ms"].must) == (0.3, 0.8)
        # the load came from another process, whose share of a core is reported
        assert 0 < figures["generator_cpu_4"].value < 200
        assert figures["rps_4"].value > 0
        # the servers were killed with SIGKILL under load: every acknowledged move stored
        assert figures["lost_actions"].value == 0
        assert figures["errors"].value == 0
        assert (figures["p99_4_ms"].target, figures["p99_4_ms"].must) == (50.0, 100.0)
        assert figures["p99_1_ms"].target is None
        assert result.notes["errors"] == "0"
        assert "load generator" in result.notes["4 clients"]
    assert "2 fivehundred serve" in postgres.notes["processes"]
    assert "1 fivehundred serve" in sqlite.notes["processes"]


def test_the_server_measurement_is_skipped_without_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from benchmarks.server import measure_server
    from benchmarks.suite import BenchConfig

    monkeypatch.setitem(sys.modules, "uvicorn", None)
    (result,) = measure_server(BenchConfig())
    assert result.skipped is not None and "fivehundred[server]" in result.skipped


def test_bench_server_runs_only_the_server_measurement(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from benchmarks import server
    from benchmarks import suite as bench

    monkeypatch.setattr(server, "CPU_PAIRS", 1)  # the command's wiring, not its figures

    assert bench.main(["--server", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert list(report["results"]) == ["server", "server_postgresql"]
    with pytest.raises(SystemExit):
        bench.main(["--server", "31"])
