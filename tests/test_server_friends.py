"""Tables for friends: rule options, seat names, invite links and handing a seat to a
computer player (``POST /tables``, ``POST /tables/{id}/seats/{n}``), in process."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("httpx2", reason="httpx2 (Starlette's test client) is not installed")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from fivehundred.server import create_app
from fivehundred.server._live import POLICY
from fivehundred.server._names import MAX_NAME, check_names
from fivehundred.server.settings import Settings
from fivehundred.server.tables import Table, Tables
from socket_support import receive

JSON = dict[str, Any]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "tables.db", seed="friends")) as test_client:
        yield test_client


def tables_of(client: TestClient) -> Tables:
    tables: Tables = client.app.state.tables  # type: ignore[attr-defined]  # Starlette's app
    return tables


def table_of(client: TestClient, table_id: str) -> Table:
    return tables_of(client).get(table_id)


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


# -- rule options -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_table_takes_two_to_six_players_and_a_target_R9(client: TestClient, players: int) -> None:
    answer = client.post("/tables", json={"rules": {"players": players, "target": 300}})
    assert answer.status_code == 201, answer.json()
    created = answer.json()
    assert created["seats"] == ["human"] + ["heuristic"] * (players - 1)
    table = table_of(client, created["table"])
    assert table.state.rules.players == players and table.state.rules.target == 300


def test_a_table_takes_the_main_variants(client: TestClient) -> None:
    rules = {"misere": False, "blind_misere": False, "joker_lead_last": True, "target": 250}
    answer = client.post("/tables", json={"rules": rules})
    assert answer.status_code == 201
    made = table_of(client, answer.json()["table"]).state.rules
    assert (made.misere, made.blind_misere, made.joker_lead_last) == (False, False, True)
    assert (
        "OM"
        not in client.get(
            f"/tables/{answer.json()['table']}", headers=bearer(answer.json()["tokens"]["0"])
        ).json()["legal_actions"]
    )


@pytest.mark.parametrize(
    "rules",
    [
        {"players": 7},
        {"players": 1},
        {"players": 10**9},  # refused before any list of a billion seats is made
        {"players": "4"},
        {"players": True},
        {"target": "500"},
        {"target": 10**12},  # below 2**53 (JSON's whole numbers), over the rules' range
        {"misere": "yes"},
        {"no_such_option": 1},
        ["players", 4],
    ],
)
def test_bad_rule_options_are_refused_before_anything_is_made(
    client: TestClient, rules: object
) -> None:
    answer = client.post("/tables", json={"rules": rules})
    assert answer.status_code == 422 and answer.json()["error"] == "BAD_RULES"
    assert answer.json()["message"]
    assert len(tables_of(client)) == 0


# -- names and links ----------------------------------------------------------------------


def test_names_are_in_every_view_and_survive_a_restart(tmp_path: Path) -> None:
    names = ["Ann", None, "  Bo   Li ", "Cy"]
    with TestClient(create_app(tmp_path / "t.db", seed="n")) as first:
        answer = first.post(
            "/tables",
            json={"seats": ["human", "heuristic", "human", "human"], "names": names},
        )
        assert answer.status_code == 201, answer.json()
        created = answer.json()
        assert created["names"] == ["Ann", None, "Bo Li", "Cy"]
        view = first.get(f"/tables/{created['table']}", headers=bearer(created["tokens"]["2"]))
        watched = first.get(f"/tables/{created['table']}", headers=bearer(created["spectator"]))
        assert view.json()["names"] == watched.json()["names"] == created["names"]
    with TestClient(create_app(tmp_path / "t.db", seed="n")) as second:
        again = second.get(f"/tables/{created['table']}", headers=bearer(created["tokens"]["0"]))
        assert again.json()["names"] == created["names"]


def test_a_table_without_names_has_a_null_for_each_seat(client: TestClient) -> None:
    created = client.post("/tables", json={"rules": {"players": 3}}).json()
    assert created["names"] == [None, None, None]


@pytest.mark.parametrize(
    "names",
    [
        ["Ann", "Bo", "Cy"],  # one short
        "Ann",
        ["Ann", 5, None, None],
        ["", None, None, None],
        ["   ", None, None, None],
        ["x" * (MAX_NAME + 1), None, None, None],
        ["Ann\x07", None, None, None],
    ],
)
def test_bad_names_are_refused(client: TestClient, names: object) -> None:
    answer = client.post("/tables", json={"names": names})
    assert answer.status_code == 422 and answer.json()["error"] == "BAD_NAMES"
    assert len(tables_of(client)) == 0


def test_check_names_trims_and_keeps_nulls() -> None:
    assert check_names([" a  b ", None], 2) == ("a b", None)
    assert check_names(None, 4) == ()
    with pytest.raises(ValueError, match="seat 1 must be text"):
        check_names(["a", 1], 2)


@pytest.mark.parametrize("blank", ["\u0301", "\u1160", "\u2800", "\u115f\u115f", "\u3164 \u0301"])
def test_a_name_that_shows_nothing_is_refused(blank: str) -> None:
    """Printable, yet blank on the page: a lone combining accent, a Hangul filler, the empty
    Braille pattern. A name with one letter, digit or sign that shows is kept."""
    with pytest.raises(ValueError, match="a letter, a digit or a sign that shows"):
        check_names([blank, None], 2)
    assert check_names(["O\u0301", "李"], 2) == ("O\u0301", "李")
    assert check_names(["-", "\N{GRINNING FACE}"], 2) == ("-", "\N{GRINNING FACE}")


def test_the_creator_gets_an_invite_link_for_each_person_and_one_to_watch(
    client: TestClient,
) -> None:
    created = client.post(
        "/tables", json={"seats": ["human", "heuristic", "human", "human"]}
    ).json()
    assert set(created["links"]) == set(created["tokens"]) == {"0", "2", "3"}
    for seat, link in created["links"].items():
        assert link == f"/#table={created['table']}&token={created['tokens'][seat]}"
    assert created["spectator_link"].endswith(f"&token={created['spectator']}")
    tokens = [*created["tokens"].values(), created["spectator"]]
    assert len(set(tokens)) == len(tokens)


# -- handing a seat to a computer player --------------------------------------------------


def create_friends(client: TestClient) -> JSON:
    answer = client.post("/tables", json={"seats": ["human", "heuristic", "human", "heuristic"]})
    assert answer.status_code == 201
    created: JSON = answer.json()
    return created


def test_a_person_who_leaves_gives_their_seat_to_a_computer(client: TestClient) -> None:
    created = create_friends(client)
    table = table_of(client, created["table"])
    leaving = table.state.to_act
    assert leaving in (0, 2)
    staying = 2 if leaving == 0 else 0
    answer = client.post(
        f"/tables/{created['table']}/seats/{leaving}",
        json={"player": "heuristic"},
        headers=bearer(created["tokens"][str(leaving)]),
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["seats"][leaving] == "heuristic"
    assert table.state.to_act in (staying, None)  # the computer moved in the seat's place
    assert answer.json()["version"] == table.version > created["version"]
    gone = client.get(
        f"/tables/{created['table']}", headers=bearer(created["tokens"][str(leaving)])
    )
    # the person who left watches: the spectator's view, no card of anyone's
    assert gone.status_code == 200 and gone.json()["seat"] is None
    assert gone.json()["view"]["view"]["hand"] == []
    acted = client.post(
        f"/tables/{created['table']}/actions",
        json={"action": "pass", "version": gone.json()["version"]},
        headers=bearer(created["tokens"][str(leaving)]),
    )
    assert acted.status_code == 403 and acted.json()["error"] == "SEAT_GIVEN"
    view = client.get(
        f"/tables/{created['table']}", headers=bearer(created["tokens"][str(staying)])
    )
    assert view.json()["seats"][leaving] == "heuristic"


def test_a_seat_given_away_is_stored(tmp_path: Path) -> None:
    now = Settings(seat_grace=0)
    with TestClient(create_app(tmp_path / "t.db", seed="h", settings=now)) as first:
        created = create_friends(first)
        answer = first.post(
            f"/tables/{created['table']}/seats/2",
            json={"player": "random"},
            headers=bearer(created["tokens"]["0"]),
        )
        assert answer.status_code == 200
        version = answer.json()["version"]
    with TestClient(create_app(tmp_path / "t.db", seed="h")) as second:
        view = second.get(f"/tables/{created['table']}", headers=bearer(created["tokens"]["0"]))
        assert view.json()["seats"] == ["human", "heuristic", "random", "heuristic"]
        assert view.json()["version"] == version
        gone = second.get(f"/tables/{created['table']}", headers=bearer(created["tokens"]["2"]))
        assert gone.status_code == 200 and gone.json()["seat"] is None  # watching
        back = second.post(
            f"/tables/{created['table']}/return", headers=bearer(created["tokens"]["2"])
        )
        assert back.status_code == 200 and back.json()["seat"] == 2
        assert back.json()["seats"] == ["human", "heuristic", "human", "heuristic"]
    with TestClient(create_app(tmp_path / "t.db", seed="h")) as third:  # and so it stays
        mine = third.get(f"/tables/{created['table']}", headers=bearer(created["tokens"]["2"]))
        assert mine.status_code == 200 and mine.json()["seat"] == 2
        again = third.post(
            f"/tables/{created['table']}/return", headers=bearer(created["tokens"]["2"])
        )
        assert again.status_code == 401  # a seat's own token is no former seat's


def test_a_seat_goes_to_a_computer_only_after_its_person_was_gone_the_grace(
    tmp_path: Path,
) -> None:
    """Another person may give a seat away only once its person has had no page open
    for ``seat_grace`` seconds; ``GET /people`` says who is here and how long to wait."""
    with TestClient(create_app(tmp_path / "t.db", seed="g")) as client:  # grace 120 s
        created = create_friends(client)
        table, mine = created["table"], bearer(created["tokens"]["0"])
        with client.websocket_connect(f"/tables/{table}/live") as ws:
            ws.send_json({"type": "hello", "token": created["tokens"]["2"]})
            assert receive(ws)["type"] == "view"
            here = client.get(f"/tables/{table}/people", headers=mine).json()
            assert here["grace"] == 120 and here["seats"] == [
                {"seat": 2, "here": True, "gone": None, "wait": None}
            ]
        gone = client.get(f"/tables/{table}/people", headers=mine).json()["seats"][0]
        assert not gone["here"] and 0 <= gone["gone"] < 120 and 0 < gone["wait"] <= 120
        early = client.post(f"/tables/{table}/seats/2", json={"player": "heuristic"}, headers=mine)
        assert early.status_code == 409 and early.json()["error"] == "NOT_GONE_LONG"
        assert "may be given away after 120 s" in early.json()["message"]
        assert table_of(client, table).seats[2] == "human"
    with TestClient(create_app(tmp_path / "t.db", settings=Settings(seat_grace=0))) as client:
        given = client.post(f"/tables/{table}/seats/2", json={"player": "heuristic"}, headers=mine)
        assert given.status_code == 200
        # the person comes back: their page watches, then takes the seat back
        with client.websocket_connect(f"/tables/{table}/live") as ws:
            ws.send_json({"type": "hello", "token": created["tokens"]["2"]})
            watched = receive(ws)
            assert watched["type"] == "view" and watched["view"]["seat"] is None
        back = client.post(f"/tables/{table}/return", headers=bearer(created["tokens"]["2"]))
        assert back.status_code == 200 and table_of(client, table).seats[2] == "human"
        twice = client.post(f"/tables/{table}/return", headers=bearer(created["tokens"]["2"]))
        assert twice.status_code == 401


def test_a_seat_whose_person_is_connected_cannot_be_taken(client: TestClient) -> None:
    created = create_friends(client)
    with client.websocket_connect(f"/tables/{created['table']}/live") as ws:
        ws.send_json({"type": "hello", "token": created["tokens"]["2"]})
        assert receive(ws)["type"] == "view"
        answer = client.post(
            f"/tables/{created['table']}/seats/2",
            json={"player": "heuristic"},
            headers=bearer(created["tokens"]["0"]),
        )
        assert answer.status_code == 409 and answer.json()["error"] == "SEAT_IN_USE"
        # the person gives it themselves: their socket is told, then closed
        answer = client.post(
            f"/tables/{created['table']}/seats/2",
            json={"player": "heuristic"},
            headers=bearer(created["tokens"]["2"]),
        )
        assert answer.status_code == 200
        told = receive(ws)
        assert told["type"] == "refused" and told["error"] == "SEAT_GIVEN"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == POLICY


@pytest.mark.parametrize(
    ("seat", "body", "status", "code"),
    [
        (1, {"player": "heuristic"}, 422, "BAD_SEATS"),  # already a computer's
        (9, {"player": "heuristic"}, 422, "BAD_SEATS"),
        (2, {"player": "human"}, 422, "BAD_SEATS"),
        (2, {"player": "grandmaster"}, 422, "BAD_SEATS"),
        (2, {"player": 3}, 400, "BAD_REQUEST"),
        (2, {}, 400, "BAD_REQUEST"),
        ("two", {"player": "heuristic"}, 404, "NOT_FOUND"),
    ],
)
def test_a_bad_hand_over_is_refused(
    client: TestClient, seat: object, body: JSON, status: int, code: str
) -> None:
    created = create_friends(client)
    answer = client.post(
        f"/tables/{created['table']}/seats/{seat}",
        json=body,
        headers=bearer(created["tokens"]["0"]),
    )
    assert answer.status_code == status and answer.json()["error"] == code
    assert table_of(client, created["table"]).seats == ("human", "heuristic", "human", "heuristic")


def test_the_last_person_keeps_their_seat(client: TestClient) -> None:
    created = client.post("/tables", json={}).json()
    answer = client.post(
        f"/tables/{created['table']}/seats/0",
        json={"player": "heuristic"},
        headers=bearer(created["tokens"]["0"]),
    )
    assert answer.status_code == 409 and answer.json()["error"] == "LAST_PERSON"


def test_a_spectator_cannot_give_a_seat_away(client: TestClient) -> None:
    created = create_friends(client)
    answer = client.post(
        f"/tables/{created['table']}/seats/2",
        json={"player": "heuristic"},
        headers=bearer(created["spectator"]),
    )
    assert answer.status_code == 403 and answer.json()["error"] == "SPECTATOR"


def test_hand_over_in_the_tables_undoes_itself_when_storing_fails() -> None:
    tables = Tables(":memory:", seed="undo")
    table, _ = tables.create({}, ["human", "heuristic", "human", "heuristic"])
    before = (table.seats, dict(table.hashes), table.version, table.state)
    tables.close()  # every write now fails
    with pytest.raises(sqlite3.ProgrammingError):
        tables.hand_over(table, 2, "heuristic")
    assert (table.seats, table.hashes, table.version, table.state) == before
