"""The embedding example (examples/table_server.py): the library inside one's own Starlette app.

Its routes are driven in process with Starlette's TestClient: whole games
against its computer players, every refusal with its status and code, a
token that opens only its own game, and the full server mounted beside them.
"""

from __future__ import annotations

import functools
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("httpx2", reason="httpx2 (Starlette's test client) is not installed")

from starlette.testclient import TestClient

import fivehundred as fh
from fivehundred.bots import HeuristicPlayer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
import table_server


@pytest.fixture
def client(monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    # seed every game the example deals (it takes a seed; its route passes none)
    monkeypatch.setattr(table_server, "Game", functools.partial(table_server.Game, seed=5))
    with TestClient(table_server.build_app()) as test_client:
        yield test_client


def start(client: TestClient) -> tuple[str, dict[str, str]]:
    created = client.post("/games", json={})
    assert created.status_code == 201
    body: dict[str, str] = created.json()
    return body["game"], {"authorization": f"Bearer {body['token']}"}


def move(client: TestClient, game: str, auth: dict[str, str], action: str) -> Any:
    return client.post(f"/games/{game}/moves", json={"action": action}, headers=auth)


def test_r9_a_whole_game_is_played_through_the_routes(client: TestClient) -> None:
    game, auth = start(client)
    me = HeuristicPlayer(random.Random(3))
    answer = client.get(f"/games/{game}", headers=auth).json()
    moves = 0
    while answer["legal_actions"]:
        assert moves < 3000, "the game did not end within 3000 of the person's moves"
        view = fh.from_dict(answer["view"], cls=fh.PlayerView)
        assert view.seat == table_server.YOU and view.my_turn
        assert answer["legal_actions"] == [fh.format_action(a) for a in view.legal_actions]
        reply = move(client, game, auth, fh.format_action(me.choose(view)))
        assert reply.status_code == 200, reply.json()
        answer = reply.json()
        moves += 1
    result = answer["view"]["view"]["result"]
    assert result["winners"]
    assert moves > 0
    over = move(client, game, auth, "pass")
    assert (over.status_code, over.json()["error"]) == (409, "GAME_OVER")


def test_r3_an_illegal_bid_is_422_with_its_reason_and_changes_nothing(client: TestClient) -> None:
    game, auth = start(client)
    before = client.get(f"/games/{game}", headers=auth).json()
    auction = before["view"]["view"]["auction"]
    bids = [call for _, call in auction if call != "pass"]
    text = "6S" if bids else "M"  # below a standing bid, or misère before any seven
    refused = move(client, game, auth, text)
    assert refused.status_code == 422
    reasons = {fh.Reason.BID_TOO_LOW.value, fh.Reason.MISERE_NEEDS_SEVEN.value}
    assert refused.json()["error"] in reasons
    assert client.get(f"/games/{game}", headers=auth).json() == before


@pytest.mark.parametrize("body", [{"action": "seven hearts"}, {"move": "pass"}, [1]])
def test_bad_text_is_400(client: TestClient, body: object) -> None:
    game, auth = start(client)
    refused = client.post(f"/games/{game}/moves", json=body, headers=auth)
    assert (refused.status_code, refused.json()["error"]) == (400, "BAD_NOTATION")


def test_a_token_opens_only_its_own_game(client: TestClient) -> None:
    first, first_auth = start(client)
    second, _ = start(client)
    assert client.get(f"/games/{second}", headers=first_auth).status_code == 401
    assert move(client, second, first_auth, "pass").status_code == 401
    assert client.get(f"/games/{first}").status_code == 401
    assert client.get("/games/nothing", headers=first_auth).status_code == 401


def test_out_of_turn_is_409() -> None:
    game = table_server.Game(seed=5)
    # force a state where seat 0 is not to act: the next deal's auction, from seat 1
    state = fh.deal(fh.new_game(fh.Rules(), dealer=0), seed=2)
    assert state.to_act == 1
    game.state = state
    table_server.GAMES["fixed"] = game
    with TestClient(table_server.build_app()) as client:
        refused = move(client, "fixed", {"authorization": f"Bearer {game.token}"}, "pass")
    assert (refused.status_code, refused.json()["error"]) == (409, "NOT_YOUR_TURN")


def test_the_full_server_is_mounted_beside_the_apps_routes(client: TestClient) -> None:
    page = client.get("/server/")
    assert page.status_code == 200
    assert "Five Hundred" in page.text
    created = client.post("/server/tables", json={})
    assert created.status_code == 201
    assert set(created.json()["tokens"]) == {"0"}


def test_the_demo_plays_a_game_over_http(capsys: pytest.CaptureFixture[str]) -> None:
    assert table_server.main(["--demo", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "serving at http://127.0.0.1:" in out
    assert "game over: side" in out
