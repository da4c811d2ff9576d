"""The game server is hard to knock over (issue 34): each way found to knock it over or get
in, first reproduced here over real HTTP, then fixed.

The server runs in a thread of this process with the configuration ``fivehundred
serve`` uses (:func:`fivehundred.server.serve.config`); the client is the
standard library's, one keep-alive connection per :class:`Client`.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the server extra is not installed")
pytest.importorskip("starlette", reason="the server extra is not installed")

import uvicorn

from fivehundred.server.serve import config
from fivehundred.server.settings import Settings
from server_helpers import Client, free_port

SEATS = ["human", "random", "random", "random"]


class Running:
    """A server in a thread of this process, on a free port, until :meth:`stop`."""

    def __init__(self, db: Path | str, **options: Any) -> None:
        settings = options.pop("settings", Settings(create_rate=0))
        self.port = free_port()
        self.server = uvicorn.Server(
            config(db, port=self.port, seed="hard", settings=settings, **options)
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self.server.started

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    running = Running(tmp_path_factory.mktemp("hard") / "tables.db")
    yield running.port
    running.stop()


def send(client: Client, method: str, path: str, data: bytes, **headers: str) -> tuple[int, Any]:
    """A request with a raw body on the client's connection: the status and the JSON answer."""
    headers.setdefault("content-type", "application/json")
    client.connection.request(method, path, body=data, headers=headers)
    response = client.connection.getresponse()
    return response.status, json.loads(response.read() or b"null")


# -- 1. a JSON integer of any size is refused, and the connection goes on ------------

HUGE = "9" * 400


@pytest.mark.parametrize(
    "body",
    [
        f'{{"rules": {{"target": {HUGE}}}}}',
        f'{{"rules": {{"players": -{HUGE}}}}}',
        f'{{"seats": ["human", {HUGE}]}}',
        f'{{"names": {{"0": {HUGE}}}}}',
        f'{{"rules": {{"target": {"9" * 4000}}}}}',
    ],
)
def test_an_integer_of_any_size_in_a_new_table_is_400(port: int, body: str) -> None:
    client = Client(port)
    status, answer = send(client, "POST", "/tables", body.encode())
    assert (status, answer["error"]) in {(400, "BAD_NUMBER"), (413, "TOO_LARGE")}
    # the same keep-alive connection still serves the next request
    status, answer, _ = client.request("GET", "/healthz")
    assert (status, answer) == (200, {"status": "ok"})
    client.close()


def test_an_integer_of_any_size_in_an_action_is_400(port: int) -> None:
    client = Client(port)
    status, created, _ = client.request("POST", "/tables", {"seats": SEATS})
    assert status == 201
    path, token = f"/tables/{created['table']}/actions", created["tokens"]["0"]
    for body in (
        f'{{"action": "pass", "version": {HUGE}}}',
        f'{{"action": "pass", "version": -{HUGE}}}',
        f'{{"action": "pass", "version": 1, "x": [{HUGE}]}}',
    ):
        status, answer = send(client, "POST", path, body.encode(), authorization=f"Bearer {token}")
        assert (status, answer["error"]) == (400, "BAD_NUMBER")
    status, answer = send(
        client,
        "POST",
        f"/tables/{created['table']}/claim",
        f'{{"version": {HUGE}}}'.encode(),
        authorization=f"Bearer {token}",
    )
    assert (status, answer["error"]) == (400, "BAD_NUMBER")
    status, view, _ = client.request("GET", f"/tables/{created['table']}", token=token)
    assert status == 200 and view["version"] == created["version"]
    client.close()


def test_after_a_crash_the_client_is_told_to_close_and_its_next_request_is_served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    running = Running(tmp_path / "crash.db")
    try:
        tables = running.server.config.app.state.tables

        def crash(*args: object) -> None:
            raise RuntimeError("a bug")

        monkeypatch.setattr(tables, "create", crash)
        client = Client(running.port)
        status, answer, response = client.request("POST", "/tables", {"seats": SEATS})
        assert (status, answer["error"]) == (500, "INTERNAL_ERROR")
        assert response.getheader("connection") == "close"
        # http.client opens a new connection, as any pool does on "connection: close"
        assert client.request("GET", "/healthz")[0] == 200
        client.close()
    finally:
        running.stop()
