"""The end of a hand waits for the people at the table (``server._pause``): the next hand
is dealt, but its computer seats play only once each person present has said "next
hand" (``POST /tables/{id}/next``, or a move of their own), or the wait's time is up."""

from __future__ import annotations

import contextlib
import functools
import json
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("httpx2", reason="httpx2 (Starlette's test client) is not installed")

import anyio
from starlette.testclient import TestClient

import fivehundred as fh
from fivehundred.server import create_app
from fivehundred.server._pause import Pause
from fivehundred.server.settings import Settings
from fivehundred.server.tables import HUMAN, Table, Tables
from socket_support import receive

JSON = dict[str, Any]
#: Moves a test makes at most to reach a hand's end (a hand is far fewer).
MOST_MOVES = 400


def to_hand_end(tables: Tables, table: Table) -> None:
    """Play each person's first legal action until the first hand is over."""
    for _ in range(MOST_MOVES):
        if table.past:
            return
        seat = table.state.to_act
        assert seat is not None and table.seats[seat] == HUMAN
        action = fh.format_action(fh.legal_actions(table.state)[0])
        tables.act(table, seat, action, table.version)
    raise AssertionError("no hand ended within the bound")


def only(seat: int, table_id: str) -> frozenset[int]:
    """One person present, at every table."""
    return frozenset({seat})


def waiting_table(tables: Tables) -> tuple[Table, int]:
    """A table of one person and three computers at the end of its first hand, the
    person present, where a computer calls first in the next hand (so it must wait)."""
    for person in range(4):
        seats = ["heuristic"] * 4
        seats[person] = "human"
        table, _ = tables.create({}, seats)
        tables.present = functools.partial(only, person)
        to_hand_end(tables, table)
        if table.state.to_act != person:
            return table, person
    raise AssertionError("in every seat, the person called first: no computer waited")


def answer(table: Table, seat: int) -> JSON:
    body: JSON = json.loads(table.answer(seat))
    return body


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[Tables]:
    opened = Tables(tmp_path / "t.db", seed="pause")
    opened.hand_pause = 60.0
    yield opened
    opened.close()


def test_a_hand_end_with_a_person_present_waits_for_them(tables: Tables) -> None:
    table, person = waiting_table(tables)
    assert table.pause is not None
    version = table.version
    state = table.state
    assert state.hand_number == 2 and state.phase is fh.Phase.BIDDING
    assert state.auction == ()  # dealt, and nobody has called: the computers wait
    pause = answer(table, person)["pause"]
    assert pause["waiting"] == [person] and pause["ready"] == [] and pause["seconds"] == 60.0
    assert abs(pause["until"] - (time.time() + 60)) < 5
    assert json.loads(table.spectate())["pause"]["waiting"] == [person]
    assert tables.due() == []  # nobody is ready and the time is not up
    tables.next_hand(table, person)
    assert table.pause is None and answer(table, person)["pause"] is None
    assert table.version > version  # the computers played on, to the person's turn
    assert table.state.to_act == person


def test_the_wait_ends_only_when_everyone_present_is_ready(tables: Tables) -> None:
    table, _ = tables.create({}, ["human", "heuristic", "human", "heuristic"])
    tables.present = lambda table_id: frozenset({0, 2})
    to_hand_end(tables, table)
    assert table.pause is not None
    version = table.version
    tables.next_hand(table, 2)
    assert table.pause is not None and table.version == version
    assert answer(table, 0)["pause"]["waiting"] == [0]
    assert answer(table, 0)["pause"]["ready"] == [2]
    tables.next_hand(table, 2)  # saying it twice changes nothing
    assert table.pause is not None and table.version == version
    tables.next_hand(table, 0)
    assert table.pause is None


def test_a_person_gone_is_not_waited_for(tables: Tables) -> None:
    table, _ = tables.create({}, ["human", "heuristic", "human", "heuristic"])
    present = {0, 2}
    tables.present = lambda table_id: frozenset(present)
    to_hand_end(tables, table)
    tables.next_hand(table, 0)
    assert table.pause is not None
    present.discard(2)  # the other person closed the page
    assert tables.due() == [table]
    tables.resume(table)
    assert table.pause is None and table.state.to_act in (0, 2)


def test_the_wait_ends_when_its_time_is_up(tables: Tables) -> None:
    table, _ = tables.create({}, ["human", "heuristic", "heuristic", "heuristic"])
    tables.present = lambda table_id: frozenset({0})
    to_hand_end(tables, table)
    assert table.pause is not None
    assert tables.due(now=table.pause.until - 1) == []
    assert tables.due(now=table.pause.until) == [table]


def test_nobody_present_or_no_pause_set_means_no_wait(tables: Tables) -> None:
    table, _ = tables.create({}, ["human", "heuristic", "heuristic", "heuristic"])
    to_hand_end(tables, table)  # a table played from Python or HTTP alone
    assert table.pause is None and answer(table, 0)["pause"] is None
    other, _ = tables.create({}, ["human", "heuristic", "heuristic", "heuristic"])
    tables.present = lambda table_id: frozenset({0})
    tables.hand_pause = 0
    to_hand_end(tables, other)
    assert other.pause is None


def test_each_persons_own_move_is_their_next_hand(tables: Tables) -> None:
    table, _ = tables.create({}, ["human"] * 4)
    tables.present = lambda table_id: frozenset(range(4))
    to_hand_end(tables, table)
    assert table.pause is not None
    first = table.pause
    movers: list[int] = []
    for _ in range(4):  # each person calls in turn: no computer is to wait for
        seat = table.state.to_act
        assert seat is not None and table.pause is not None
        assert set(table.pause.ready) == set(movers)
        movers.append(seat)
        tables.act(table, seat, fh.format_action(fh.legal_actions(table.state)[0]), table.version)
    # the four moves ended the wait (a hand passed out by all four waits anew)
    assert table.pause is None or (table.pause != first and table.pause.ready == frozenset())


def test_a_table_stored_while_it_waited_waits_again_and_moves_on(tmp_path: Path) -> None:
    first = Tables(tmp_path / "t.db", seed="pause")
    first.hand_pause = 60.0
    table, person = waiting_table(first)
    assert table.pause is not None
    stored_state, version = table.state, table.version
    first.close()
    again = Tables(tmp_path / "t.db", seed="pause")
    again.hand_pause = 60.0
    again.present = lambda table_id: frozenset({person})  # the person's page came back
    loaded = again.get(table.id)
    assert loaded.version == version and loaded.state == stored_state
    assert loaded.pause is not None  # a computer is to act: the table waits again
    assert again.due(now=loaded.pause.until - 1) == []
    assert again.due(now=loaded.pause.until) == [loaded]
    again.resume(loaded)
    assert loaded.pause is None and loaded.version > version
    moved_to = loaded.version
    again.close()
    assert stored_state.to_act != person
    third = Tables(tmp_path / "t.db", seed="pause")
    assert third.get(table.id).version == moved_to  # the computers' moves were stored
    third.close()


def test_next_hand_moves_on_a_table_whose_wait_was_another_processs(tables: Tables) -> None:
    table, person = waiting_table(tables)
    version = table.version
    with table.lock:  # as another process's copy, read again from the store: no pause
        table.pause = None
        table.publish()
    assert tables.next_hand(table, person) > version
    assert table.pause is None and table.state.to_act == person  # called up to the person


def test_a_failed_store_puts_the_wait_back(tables: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    table, _ = waiting_table(tables)
    pause, version, state = table.pause, table.version, table.state

    def failing(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(tables.store, "append", failing)
    with pytest.raises(OSError):
        tables.resume(table)
    assert table.pause == pause and table.version == version and table.state == state
    monkeypatch.undo()
    tables.resume(table)
    assert table.pause is None and table.version > version


def test_pause_ready_and_over() -> None:
    pause = Pause.starting(30)
    assert not pause.over({1, 2}, time.monotonic())
    assert not pause.with_ready(1).over({1, 2}, time.monotonic())
    assert pause.with_ready(1).with_ready(2).over({1, 2}, time.monotonic())
    assert pause.over(set(), time.monotonic())  # nobody present: nobody to wait for
    assert pause.over({1}, pause.until)


# -- over HTTP and the socket --------------------------------------------------------------


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def tables_of(client: TestClient) -> Tables:
    tables: Tables = client.app.state.tables  # type: ignore[attr-defined]  # Starlette's
    return tables


@contextlib.contextmanager
def served(
    tmp_path: Path, seats: list[str], hand_pause: float = 60
) -> Iterator[tuple[TestClient, Table, JSON, Any]]:
    """An app with a table of ``seats`` and seat 0's socket open (its first view read):
    the client, the table, the creation's answer and the socket."""
    app = create_app(tmp_path / "t.db", seed="pause", settings=Settings(hand_pause=hand_pause))
    with TestClient(app) as client:
        created = client.post("/tables", json={"seats": seats}).json()
        table = tables_of(client).get(created["table"])
        with client.websocket_connect(f"/tables/{table.id}/live") as ws:
            ws.send_json({"type": "hello", "token": created["tokens"]["0"]})
            assert receive(ws)["type"] == "view"
            yield client, table, created, ws


def test_the_page_waits_for_next_hand_over_http(tmp_path: Path) -> None:
    seats = ["human", "heuristic", "human", "heuristic"]
    with served(tmp_path, seats) as (client, table, created, _):
        tokens = created["tokens"]
        to_hand_end(tables_of(client), table)  # seat 0 has the table open; seat 2 has not
        assert table.pause is not None
        look = client.get(f"/tables/{table.id}", headers=bearer(tokens["0"])).json()
        assert look["pause"]["waiting"] == [0]
        refused = client.post(f"/tables/{table.id}/next", headers=bearer(created["spectator"]))
        assert refused.status_code == 403
        said = client.post(f"/tables/{table.id}/next", headers=bearer(tokens["0"]))
        assert said.status_code == 200 and said.json()["version"] == table.version
        assert table.pause is None
        look = client.get(f"/tables/{table.id}", headers=bearer(tokens["0"])).json()
        assert look["pause"] is None
        again = client.post(f"/tables/{table.id}/next", headers=bearer(tokens["2"]))
        assert again.status_code == 200  # not waiting: nothing to do


def test_the_wait_ends_by_itself_when_its_time_is_up(tmp_path: Path) -> None:
    seats = ["human"] + ["heuristic"] * 3
    with served(tmp_path, seats, hand_pause=0.5) as (client, table, _, _):
        to_hand_end(tables_of(client), table)
        assert table.pause is not None
        deadline = time.monotonic() + 10
        while table.pause is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert table.pause is None and table.state.to_act == 0


def test_next_over_the_socket(tmp_path: Path) -> None:
    with served(tmp_path, ["human"] + ["heuristic"] * 3) as (client, table, _, ws):
        to_hand_end(tables_of(client), table)
        ws.send_json({"type": "next", "ref": 7, "extra": 1})
        refused = receive(ws)
        assert refused["type"] == "refused" and refused["error"] == "BAD_REQUEST"
        ws.send_json({"type": "next", "ref": 8})
        for _ in range(10):
            message = receive(ws)
            if message["type"] == "ack":
                break
        assert message == {"type": "ack", "ref": 8, "version": table.version}
        assert table.pause is None


def test_a_person_arriving_during_the_wait_is_waited_for_and_told_to_everyone(
    tmp_path: Path,
) -> None:
    seats = ["human", "heuristic", "human", "heuristic"]
    with served(tmp_path, seats) as (client, table, created, ws):
        to_hand_end(tables_of(client), table)
        assert answer(table, 0)["pause"]["waiting"] == [0]
        with client.websocket_connect(f"/tables/{table.id}/live") as second:
            second.send_json({"type": "hello", "token": created["tokens"]["2"]})
            assert receive(second)["view"]["pause"]["waiting"] == [0, 2]
            pushed = receive(ws)  # the first page hears of the second person
            assert pushed["type"] == "view" and pushed["view"]["pause"]["waiting"] == [0, 2]
        pushed = receive(ws)  # and of their leaving: no longer waited for
        assert pushed["view"]["pause"]["waiting"] == [0]


def test_a_wait_that_cannot_be_ended_now_is_tried_again(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's look for waits that are over (``resume_due``, twice a second) moves on
    what it can, and leaves a table whose store is out of reach for its next look."""
    from fivehundred.server._live import Hub, resume_due
    from fivehundred.server.store import Unavailable

    table, _ = waiting_table(tables)
    app = types.SimpleNamespace(state=types.SimpleNamespace(tables=tables, hub=Hub()))
    assert anyio.run(resume_due, app) == 0  # the person present is not ready yet
    tables.present = lambda table_id: frozenset()  # the person closed the page
    real = tables.resume

    def unreachable(table: Table) -> int:
        raise Unavailable("PostgreSQL refused a connection")

    monkeypatch.setattr(tables, "resume", unreachable)
    assert anyio.run(resume_due, app) == 0 and table.pause is not None
    monkeypatch.setattr(tables, "resume", real)
    due = tables.due()  # the other tables the helper made wait too, nobody present now
    assert table in due
    assert anyio.run(resume_due, app) == len(due) and table.pause is None
    assert tables.due() == []
