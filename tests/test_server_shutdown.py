"""A real ``fivehundred serve`` stops on SIGTERM: it answers the request in flight, stops
being ready, and exits 0 within 2 s (issue 29); its log is JSON with no token in it."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("prometheus_client", reason="the server extra is not installed")

from server_helpers import Client, free_port, start_server

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is a POSIX signal")


def test_sigterm_answers_the_request_in_flight_and_exits_0_within_2_s(tmp_path: Path) -> None:
    port = free_port()
    log = (tmp_path / "log").open("w", encoding="utf-8")
    server = start_server(tmp_path / "t.db", port, "--log-level", "info", stderr=log)
    try:
        client = Client(port, timeout=10)
        seats = ["human", "random", "random", "random"]
        status, created, _ = client.request("POST", "/tables", {"seats": seats})
        assert status == 201
        token, table = created["tokens"]["0"], created["table"]
        status, view, _ = client.request("GET", f"/tables/{table}", token=token)
        client.close()
        body = json.dumps({"action": view["legal_actions"][0], "version": view["version"]})
        head = (
            f"POST /tables/{table}/actions HTTP/1.1\r\nhost: x\r\n"
            f"authorization: Bearer {token}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\n\r\n"
        )
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(head.encode() + body[:5].encode())  # a request in flight
            time.sleep(0.3)
            server.send_signal(signal.SIGTERM)
            time.sleep(0.3)
            sock.sendall(body[5:].encode())
            answer = b""
            while b"\r\n\r\n" not in answer and (chunk := sock.recv(4096)):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        assert server.wait(timeout=2) == 0  # drained, and a clean exit: not -15
    finally:
        if server.poll() is None:
            server.kill()
        server.communicate(timeout=10)
        log.close()
    lines = [json.loads(line) for line in (tmp_path / "log").read_text().splitlines()]
    events = [line["event"] for line in lines]
    assert "request" in events and events[-1] == f"Finished server process [{server.pid}]"
    assert not any(token in json.dumps(line) for line in lines)
    moved = [line for line in lines if line.get("route") == "/tables/{table_id}/actions"]
    assert [line["status"] for line in moved] == [200]


def test_serve_refuses_to_start_without_the_key_it_needs(tmp_path: Path) -> None:
    port = free_port()
    with pytest.raises(RuntimeError, match="needs an operator key"):
        start_server(tmp_path / "t.db", port, "--create-needs-key")
    assert not (tmp_path / "t.db").exists()  # refused before the database was opened


def test_the_readiness_probe_answers_while_serving(tmp_path: Path) -> None:
    port = free_port()
    server = start_server(tmp_path / "t.db", port)
    try:
        client = Client(port, timeout=10)
        assert client.request("GET", "/readyz")[:2] == (200, {"status": "ready"})
        assert client.request("GET", "/healthz")[:2] == (200, {"status": "ok"})
        client.close()
    finally:
        server.terminate()
        try:
            server.communicate(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - a stuck server
            server.kill()
            server.communicate(timeout=10)
    assert server.returncode == 0


def test_a_request_cut_off_by_the_grace_period_is_503_json(tmp_path: Path) -> None:
    """A request whose body never ends is cut off once the grace period is over (issue
    34): its answer is a 503 JSON with a code, not uvicorn's 500 and a traceback."""
    port = free_port()
    log = (tmp_path / "log").open("w", encoding="utf-8")
    server = start_server(
        tmp_path / "t.db", port, "--log-level", "info", "--shutdown-grace", "1", stderr=log
    )
    try:
        head = (
            "POST /tables HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            "content-length: 40\r\n\r\n"
        )
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(head.encode() + b'{"seats": ')  # the rest never comes
            time.sleep(0.3)
            server.send_signal(signal.SIGTERM)
            answer = b""
            while chunk := sock.recv(4096):
                answer += chunk
        assert server.wait(timeout=10) == 0
    finally:
        if server.poll() is None:
            server.kill()
        server.communicate(timeout=10)
        log.close()
    status_line, _, body = answer.partition(b"\r\n\r\n")
    assert status_line.startswith(b"HTTP/1.1 503"), answer[:300]
    assert json.loads(body)["error"] == "SHUTTING_DOWN"
    text = (tmp_path / "log").read_text()
    assert "Traceback" not in text and "Exception in ASGI application" not in text
