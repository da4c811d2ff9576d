"""Tables for friends: rule options, seat names, invite links and handing a seat to a
computer player (``POST /tables``, ``POST /tables/{id}/seats/{n}``), in process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("httpx2", reason="httpx2 (Starlette's test client) is not installed")

from starlette.testclient import TestClient

from fivehundred.server import create_app
from fivehundred.server.tables import MAX_NAME, Table, Tables, check_names

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
        {"target": 10**40},
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
