"""The live table over a real ``fivehundred serve``: uvicorn's WebSocket, as a browser meets it.

The server runs in a child process; the client is the ``websockets`` package's
(the server extra's). Every receive has a timeout.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

pytest.importorskip("uvicorn", reason="the server extra is not installed")
pytest.importorskip("websockets", reason="the server extra is not installed")

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from fivehundred.server._live import MAX_MESSAGE
from server_helpers import JSON, Client, free_port, start_server

#: Seconds any one message may take.
WAIT = 30.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    port = free_port()
    process = start_server(tmp_path_factory.mktemp("live") / "t.db", port, "--seed", "wire")
    try:
        yield port
    finally:
        process.kill()
        process.wait(WAIT)
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()
        process.stderr.close()


def create(port: int) -> JSON:
    client = Client(port)
    try:
        status, created, _ = client.request(
            "POST", "/tables", {"seats": ["human", "heuristic", "human", "heuristic"]}
        )
    finally:
        client.close()
    assert status == 201
    return created


def receive(ws: ClientConnection) -> JSON:
    body: JSON = json.loads(ws.recv(timeout=WAIT))
    return body


def test_a_real_server_pushes_an_http_change_to_both_seats(server: int) -> None:
    created = create(server)
    url = f"ws://127.0.0.1:{server}/tables/{created['table']}/live"
    with connect(url, open_timeout=WAIT) as north, connect(url, open_timeout=WAIT) as south:
        north.send(json.dumps({"type": "hello", "token": created["tokens"]["0"]}))
        south.send(json.dumps({"type": "hello", "token": created["tokens"]["2"]}))
        views = {0: receive(north), 2: receive(south)}
        assert {seat: v["view"]["seat"] for seat, v in views.items()} == {0: 0, 2: 2}
        to_act = views[0]["view"]["view"]["view"]["to_act"]
        assert to_act in views
        view = views[to_act]
        client = Client(server)
        try:
            status, answer, _ = client.request(
                "POST",
                f"/tables/{created['table']}/actions",
                {"action": view["view"]["legal_actions"][0], "version": view["version"]},
                token=created["tokens"][str(to_act)],
            )
        finally:
            client.close()
        assert status == 200
        assert receive(north)["version"] == receive(south)["version"] == answer["version"]


def test_a_real_server_closes_a_socket_that_sends_an_oversized_frame(server: int) -> None:
    created = create(server)
    url = f"ws://127.0.0.1:{server}/tables/{created['table']}/live"
    with connect(url, open_timeout=WAIT) as ws:
        ws.send(json.dumps({"type": "hello", "token": created["tokens"]["0"]}))
        assert receive(ws)["type"] == "view"
        ws.send("x" * (MAX_MESSAGE + 1))
        with pytest.raises(ConnectionClosed) as closed:
            receive(ws)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_a_real_server_still_answers_plain_http_with_sockets_open(server: int) -> None:
    created = create(server)
    url = f"ws://127.0.0.1:{server}/tables/{created['table']}/live"
    with connect(url, open_timeout=WAIT) as ws:
        ws.send(json.dumps({"type": "hello", "token": created["spectator"]}))
        assert receive(ws)["view"]["seat"] is None
        client = Client(server)
        try:
            status, body, _ = client.request(
                "GET", f"/tables/{created['table']}", token=created["tokens"]["0"]
            )
        finally:
            client.close()
        assert status == 200 and body["seat"] == 0


def test_the_server_child_is_running(server: int) -> None:
    """The fixture's server answers a plain request (so a failure above is the socket's)."""
    client = Client(server)
    try:
        status, body, _ = client.request("GET", "/tables/nothing", token="x")
    finally:
        client.close()
    assert status == 404 and body["error"] == "NO_SUCH_TABLE"
