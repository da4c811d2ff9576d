"""PostgreSQL from the event loop (issue 34): the status a read asks and the write of a
person's move are awaited on asyncio connections, with no worker thread, and mean the
same as the threads' versions: a change elsewhere is seen, a raced move is refused and
put back, an outage is 503 and costs no move, a cancelled request leaves no half move.

Each test gets a fresh database on a throwaway PostgreSQL cluster that
``tests/postgres.py`` starts (or on ``FIVEHUNDRED_TEST_POSTGRES``).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("psycopg", reason="the server extra is not installed")

import fivehundred as fh
from fivehundred.server import Tables
from fivehundred.server._pgloop import GONE, Asker
from fivehundred.server._schema import append_rows
from fivehundred.server.store import Conflict, PostgresStore, Unavailable
from fivehundred.server.tables import Refused
from postgres import db_fixture, server_fixture  # noqa: F401 - the fixtures

SEATS = ["human", "random", "random", "random"]


@pytest.fixture
def two(db: str) -> Iterator[tuple[Tables, Tables]]:
    """Two ``Tables`` on one database stand for two processes."""
    first, second = Tables(db, seed="loop"), Tables(db, seed="loop")
    try:
        yield first, second
    finally:
        first.close()
        second.close()


def _first_action(table: object) -> str:
    state = table.state  # type: ignore[attr-defined]  # a server Table
    return fh.format_action(fh.legal_actions(state)[0])


def test_the_status_asked_on_the_loop_is_the_threads_status(two: tuple[Tables, Tables]) -> None:
    first, _ = two
    table, _ = first.create({}, SEATS)
    store = first.store
    assert isinstance(store, PostgresStore)

    async def both() -> tuple[tuple[int, bool, str], tuple[int, bool, str]]:
        try:
            return await store.status_soon(table.id), store.status(table.id)
        finally:
            await store.aclose()

    on_loop, in_thread = asyncio.run(both())
    assert on_loop == in_thread
    assert on_loop[0] == table.version and on_loop[1] is False


def test_a_held_table_is_behind_once_another_process_moves_it(
    two: tuple[Tables, Tables], db: str
) -> None:
    first, second = two
    second._store.close()  # stop this process's listener: no notification arrives
    second._store = PostgresStore(db)
    table, _ = first.create({}, SEATS)
    other = second.get(table.id)

    async def look() -> tuple[bool, bool]:
        try:
            return await second.current(other)
        finally:
            await second.store.aclose()

    assert asyncio.run(look()) == (False, False)
    first.act(table, 0, _first_action(table), table.version)
    assert other.version < table.version  # nothing told the second process
    behind, moved = asyncio.run(look())
    assert (behind, moved) == (True, False)
    assert second.reread(other, moved=moved)
    assert other.version == table.version and other.state == table.state
    assert asyncio.run(look()) == (False, False)


def test_a_table_closed_elsewhere_is_410_from_the_loop(two: tuple[Tables, Tables]) -> None:
    first, second = two
    table, _ = first.create({}, SEATS)
    other = second.get(table.id)
    assert first.retire(table.id, "operator")

    async def look() -> tuple[bool, bool]:
        try:
            return await second.current(other)
        finally:
            await second.store.aclose()

    with pytest.raises(Refused) as closed:
        asyncio.run(look())
    assert closed.value.code == "TABLE_CLOSED"
    assert second.held(table.id) is None


def test_a_move_raced_through_two_processes_on_the_loop_is_refused_and_put_back(
    two: tuple[Tables, Tables],
) -> None:
    first, second = two
    table, _ = first.create({}, SEATS)
    other = second.get(table.id)
    action = _first_action(other)
    seen, state = other.version, other.state
    version = first.act(table, 0, action, table.version)
    other.state, other.version = state, seen  # as if the notification had not come yet
    other.publish()

    async def lose() -> int:
        try:
            return await second.act_soon(other, 0, action, seen)
        finally:
            await second.store.aclose()

    with pytest.raises(Refused) as refused:
        asyncio.run(lose())
    assert refused.value.code == "STALE_VERSION"
    assert not other.lock.locked()
    # put back, then read again: the loser agrees with the winner
    assert other.version == version and other.state == table.state


def test_a_move_awaited_on_the_loop_is_stored_before_it_is_answered(
    two: tuple[Tables, Tables],
) -> None:
    first, second = two
    table, _ = first.create({}, SEATS)

    async def move() -> int:
        try:
            return await first.act_soon(table, 0, _first_action(table), table.version)
        finally:
            await first.store.aclose()

    version = asyncio.run(move())
    assert version == table.version > 0
    stored = second.get(table.id)  # another process reads it from the database
    assert stored.version == version and stored.state == table.state


def test_peoples_moves_one_by_one_and_a_hands_last_with_its_deal_are_stored_whole(
    two: tuple[Tables, Tables],
) -> None:
    # a person's single action is written by the one-row statement; the hand's last
    # card, which brings the next deal's deck, by the arrays: both must store it all
    first, second = two
    table, tokens = first.create({}, ["human"] * 4)
    assert len(tokens) == 5  # four people and the spectator: no computer seat replies

    first_hand = table.state.hand_number

    async def hand() -> list[int]:
        versions: list[int] = []
        try:
            for _ in range(200):  # a hand is at most 4 calls a round and 43 cards
                state = table.state
                if state.hand_number > first_hand or state.result is not None:
                    break
                seat = state.to_act
                assert seat is not None
                legal = fh.legal_actions(state)
                # the first call is a bid (6♠), then everyone passes: the hand is played
                action = legal[1] if state.phase is fh.Phase.BIDDING and not versions else legal[0]
                text = fh.format_action(action)
                versions.append(await first.act_soon(table, seat, text, table.version))
        finally:
            await first.store.aclose()
        return versions

    versions = asyncio.run(hand())
    assert len(versions) > 10 and versions == list(range(1, len(versions) + 1))  # one a move
    assert table.state.hand_number == first_hand + 1 and table.state.phase is fh.Phase.BIDDING
    stored = second.get(table.id)  # another process reads it from the database
    assert stored.version == table.version and stored.state == table.state
    assert stored.past == table.past


def test_a_cancelled_request_leaves_its_move_whole(two: tuple[Tables, Tables]) -> None:
    """The write is shielded: cancelling the request mid-write neither loses the stored
    move from memory nor keeps the table's lock."""
    first, second = two
    table, _ = first.create({}, SEATS)

    before = table.version

    async def cancel() -> tuple[int | BaseException]:
        try:
            task = asyncio.ensure_future(
                first.act_soon(table, 0, _first_action(table), table.version)
            )
            for _ in range(3):  # into the write's first awaits
                await asyncio.sleep(0)
            task.cancel()
            answer = await asyncio.gather(task, return_exceptions=True)
            for _ in range(1000):  # bounded: the write ends by itself meanwhile
                if not table.lock.locked():
                    break
                await asyncio.sleep(0.01)
            return answer
        finally:
            await first.store.aclose()

    (answer,) = asyncio.run(cancel())
    assert isinstance(answer, asyncio.CancelledError)  # the request was cancelled mid-write
    assert not table.lock.locked()
    assert table.version > before  # and the move went on to be stored
    stored = second.get(table.id)
    assert (stored.version, stored.state) == (table.version, table.state)


def test_a_write_on_a_closed_store_is_unavailable_and_a_taken_number_a_conflict(
    db: str,
) -> None:
    tables = Tables(db, seed="taken")
    table, _ = tables.create({}, SEATS)
    tables.act(table, 0, _first_action(table), table.version)
    store = tables.store
    assert isinstance(store, PostgresStore)
    last = table.version - 1  # stored already
    taken = append_rows(table.id, last, [(0, "pass")], table.state.hand_number + 1, [])

    async def write() -> None:
        try:
            await store.append_awaited(taken, json.dumps(table.seats))
        finally:
            await store.aclose()

    try:
        with pytest.raises(Conflict):
            asyncio.run(write())  # the table's first action is stored already
    finally:
        tables.close()
    with pytest.raises(Unavailable, match="closed"):
        asyncio.run(write())


def test_questions_asked_while_a_query_is_out_are_asked_together_after_it() -> None:
    asked: list[list[str]] = []

    async def query(games: list[str]) -> dict[str, tuple[int, bool, str]]:
        asked.append(list(games))
        await asyncio.sleep(0.01)  # the query is out
        return {game: (len(game), False, "[]") for game in games if game != "purged"}

    async def many() -> list[tuple[int, bool, str]]:
        asker = Asker(query)
        first = asyncio.ensure_future(asker.ask("a"))
        await asyncio.sleep(0)  # the first question's query is out now
        rest = [asyncio.ensure_future(asker.ask(game)) for game in ("bb", "ccc", "bb", "purged")]
        return await asyncio.gather(first, *rest)

    answers = asyncio.run(many())
    # the first alone, at once; the others together after it, never in the first's query
    assert asked == [["a"], ["bb", "ccc", "purged"]]
    assert answers == [(1, False, "[]"), (2, False, "[]"), (3, False, "[]"), (2, False, "[]"), GONE]


def test_a_failed_query_fails_each_question_and_a_cancelled_one_harms_none() -> None:
    calls = 0

    async def query(games: list[str]) -> dict[str, tuple[int, bool, str]]:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.01)
        if calls == 2:
            raise Unavailable("the database did not answer")
        return {game: (7, False, "[]") for game in games}

    async def run() -> list[object]:
        asker = Asker(query)
        first = asyncio.ensure_future(asker.ask("a"))
        await asyncio.sleep(0)
        waiting = [asyncio.ensure_future(asker.ask(game)) for game in ("b", "c", "d")]
        await asyncio.sleep(0)
        waiting[0].cancel()  # a request that went away while it waited
        answers = await asyncio.gather(first, *waiting, return_exceptions=True)
        again = await asker.ask("e")  # and the asker is free again afterwards
        return [*answers, again]

    first, cancelled, c, d, again = asyncio.run(run())
    assert first == (7, False, "[]") and again == (7, False, "[]")
    assert isinstance(cancelled, asyncio.CancelledError)
    assert isinstance(c, Unavailable) and isinstance(d, Unavailable)


def test_many_reads_at_once_each_get_their_own_tables_status(db: str) -> None:
    tables = Tables(db, seed="many")
    try:
        made = [tables.create({}, SEATS)[0] for _ in range(6)]
        for table in made[::2]:
            tables.act(table, 0, _first_action(table), table.version)
        assert tables.retire(made[1].id, "operator")
        store = tables.store
        assert isinstance(store, PostgresStore)

        async def all_at_once() -> list[tuple[int, bool, str]]:
            try:
                return await asyncio.gather(
                    *(store.status_soon(t.id) for t in made), store.status_soon("nothing")
                )
            finally:
                await store.aclose()

        answers = asyncio.run(all_at_once())
        assert answers == [*(store.status(t.id) for t in made), GONE]
        assert answers[1][1] is True and answers[2][0] == made[2].version
    finally:
        tables.close()


def test_a_process_holds_at_most_the_connections_the_docs_count(db: str) -> None:
    """docs/howto/postgresql.md counts each process's connections against PostgreSQL's
    max_connections: "count up to 19 (times) processes"."""

    tables = Tables(db, seed="count")
    try:
        table, _ = tables.create({}, SEATS)
        store = tables.store
        assert isinstance(store, PostgresStore)

        async def use_every_pool() -> int:
            try:
                await store.status_soon(table.id)
                await tables.act_soon(table, 0, _first_action(table), table.version)
                assert store._loop_pools is not None
                return sum(pool.max_size for _, pool in store._loop_pools[1].values())
            finally:
                await store.aclose()

        on_the_loop = asyncio.run(use_every_pool())
        listening = 1
        most = store._pool.max_size + on_the_loop + listening
    finally:
        tables.close()
    docs = Path(__file__).resolve().parent.parent / "docs" / "howto" / "postgresql.md"
    if docs.exists():  # beside a checkout
        times = "\N{MULTIPLICATION SIGN}"
        assert f"count up to `{most} {times} processes`" in " ".join(docs.read_text().split())
    assert most == 19


def _quiet(tables: Tables, db: str) -> None:
    """Stop a ``Tables``' listener: no notification of another process's change arrives."""
    tables._store.close()
    tables._store = PostgresStore(db)


def test_a_move_on_a_copy_whose_seat_went_elsewhere_is_refused_at_the_database(
    two: tuple[Tables, Tables], db: str
) -> None:
    """No status is asked before a move: the write itself holds to the seats it saw."""
    first, second = two
    _quiet(second, db)
    table, _ = first.create({}, ["human", "random", "human", "random"])
    other = second.get(table.id)
    mover = table.state.to_act
    assert mover in (0, 2)  # the computers moved up to a person
    version = table.version
    first.hand_over(table, 2 - mover, "heuristic")  # the other person's seat: no move
    assert table.version == version and other.seats != table.seats

    async def move() -> int:
        try:
            return await second.act_soon(other, mover, _first_action(other), version)
        finally:
            await second.store.aclose()

    with pytest.raises(Refused) as refused:
        asyncio.run(move())
    assert refused.value.code == "STALE_VERSION"
    assert other.seats == table.seats and other.version == version  # read again, whole
    assert second._store.status(table.id)[0] == version  # and nothing stored


def test_a_move_on_a_copy_of_a_table_closed_elsewhere_is_refused_then_410(
    two: tuple[Tables, Tables], db: str
) -> None:
    first, second = two
    _quiet(second, db)
    table, _ = first.create({}, SEATS)
    other = second.get(table.id)
    assert first.retire(table.id, "operator")

    async def move() -> int:
        return await second.act_soon(other, 0, _first_action(other), other.version)

    async def look() -> tuple[bool, bool]:
        try:
            return await second.current(other)
        finally:
            await second.store.aclose()

    with pytest.raises(Refused) as refused:
        asyncio.run(move())
    assert refused.value.code == "STALE_VERSION"
    with pytest.raises(Refused) as closed:
        asyncio.run(look())
    assert closed.value.code == "TABLE_CLOSED"


def test_a_move_at_a_version_this_process_has_not_seen_catches_up_first(db: str) -> None:
    """Two apps on one database, the second deaf to notifications: a client that saw a
    move through the first makes the next one through the second, at the newer version
    (without catching up, the second's copy would refuse it as stale)."""
    from starlette.testclient import TestClient

    from fivehundred.server import create_app

    first_app, second_app = create_app(db, seed="ahead"), create_app(db, seed="ahead")
    _quiet(second_app.state.tables, db)
    with TestClient(first_app) as first, TestClient(second_app) as second:
        made = first.post("/tables", json={"seats": ["human"] * 4}).json()
        table = made["table"]
        auth = {seat: {"authorization": f"Bearer {made['tokens'][str(seat)]}"} for seat in range(4)}

        def to_act(client: TestClient) -> tuple[int, str, int]:
            for seat in range(4):
                view = client.get(f"/tables/{table}", headers=auth[seat]).json()
                if view["legal_actions"]:
                    return seat, view["legal_actions"][0], view["version"]
            raise AssertionError("nobody is to act")

        held = second.get(f"/tables/{table}", headers=auth[0]).json()["version"]
        seat, action, version = to_act(first)
        moved = first.post(
            f"/tables/{table}/actions",
            json={"action": action, "version": version},
            headers=auth[seat],
        )
        assert moved.status_code == 200 and moved.json()["version"] > held
        seat, action, version = to_act(first)  # what the client saw, through the first
        answer = second.post(
            f"/tables/{table}/actions",
            json={"action": action, "version": version},
            headers=auth[seat],
        )
        assert answer.status_code == 200, answer.json()
        now = first.get(f"/tables/{table}", headers=auth[0]).json()["version"]
        assert answer.json()["version"] == now > version


def test_a_connection_is_told_readable_past_the_select_limit() -> None:
    """The write pool's check reads a socket's state with poll, which takes any
    descriptor: a server holding many sockets has some past select's 1,023."""
    import os
    import socket

    from fivehundred.server._pgloop import _readable

    ours, theirs = socket.socketpair()
    high = os.dup2(ours.fileno(), 1500) if os.sysconf("SC_OPEN_MAX") > 1500 else ours.fileno()
    try:
        assert not _readable(high)  # idle: nothing to read
        theirs.sendall(b"goodbye")  # as PostgreSQL's last words before it closes
        assert _readable(high)
    finally:
        if high != ours.fileno():
            os.close(high)
        ours.close()
        theirs.close()
