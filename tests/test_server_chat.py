"""The table chat (``server._chat``): text only, bounded, rate limited, read by spectators."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("httpx2", reason="httpx2 (Starlette's test client) is not installed")

from starlette.testclient import TestClient

from fivehundred.server import create_app
from fivehundred.server._chat import BURST, EVERY, MAX_CHAT, Chat, clean
from fivehundred.server.tables import Refused


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "tables.db", seed="chat")) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def test_a_message_is_plain_text_of_bounded_length() -> None:
    assert clean("  hello \n\t there ") == "hello there"
    assert clean("<b>bold</b>") == "<b>bold</b>"  # kept as text: the page never runs it
    assert clean("abc\u202edcba\u200b!") == "abc dcba !"  # no hidden turn-around marks
    assert len(clean("x" * MAX_CHAT)) == MAX_CHAT
    for bad in ("", "   ", "\u200b\u202e", "x" * (MAX_CHAT + 1), 5, None, ["hi"]):
        with pytest.raises(Refused) as refused:
            clean(bad)
        assert refused.value.code == "BAD_CHAT"


def test_a_seat_may_send_a_burst_then_one_message_every_few_seconds() -> None:
    chat = Chat()
    for n in range(BURST):
        assert chat.say("t", 0, "Ann", f"m{n}", now=100.0)["n"] == n + 1
    with pytest.raises(Refused) as refused:
        chat.say("t", 0, "Ann", "one too many", now=100.0)
    assert (refused.value.status, refused.value.code) == (429, "RATE_LIMITED")
    chat.say("t", 1, "Bob", "another seat has its own allowance", now=100.0)
    assert chat.say("t", 0, "Ann", "later", now=100.0 + EVERY)["text"] == "later"
    assert [m["text"] for m in chat.messages("t")][-2:] == [
        "another seat has its own allowance",
        "later",
    ]
    assert chat.messages("other") == []


def test_people_write_and_spectators_read_over_http_and_the_socket(client: TestClient) -> None:
    created = client.post(
        "/tables", json={"seats": ["human", "heuristic", "human", "heuristic"]}
    ).json()
    table = created["table"]
    with client.websocket_connect(f"/tables/{table}/live") as ws:
        ws.send_json({"type": "hello", "token": created["spectator"]})
        assert ws.receive_json()["type"] == "view"
        sent = client.post(
            f"/tables/{table}/chat",
            json={"text": "<img src=x>"},
            headers=bearer(created["tokens"]["2"]),
        )
        assert sent.status_code == 201
        pushed = ws.receive_json()
        assert pushed == {
            "type": "chat",
            "n": 1,
            "seat": 2,
            "name": "Player 3",
            "text": "<img src=x>",
        }
    read = client.get(f"/tables/{table}/chat", headers=bearer(created["spectator"]))
    assert read.status_code == 200 and read.json()["messages"] == [pushed]
    watcher = client.post(
        f"/tables/{table}/chat", json={"text": "hi"}, headers=bearer(created["spectator"])
    )
    assert watcher.status_code == 403 and watcher.json()["error"] == "SPECTATOR"
    extra = client.post(
        f"/tables/{table}/chat",
        json={"text": "hi", "html": "<b>"},
        headers=bearer(created["tokens"]["0"]),
    )
    assert extra.status_code == 400 and extra.json()["error"] == "BAD_CHAT"
    nobody = client.get(f"/tables/{table}/chat")
    assert nobody.status_code == 401
