"""The PostgreSQL store: several server processes sharing the tables (issue 29).

Each test gets a fresh database on a throwaway PostgreSQL cluster that
``tests/postgres.py`` starts (or on ``FIVEHUNDRED_TEST_POSTGRES``).
"""

from __future__ import annotations

import random
import signal
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import attrs
import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("psycopg", reason="the server extra is not installed")

import fivehundred as fh
from fivehundred.errors import FiveHundredError
from fivehundred.server import Tables
from fivehundred.server.store import (
    Change,
    Conflict,
    GameRow,
    PostgresStore,
    SqliteStore,
    Store,
    Unavailable,
    describe,
    open_store,
)
from fivehundred.server.tables import SPECTATOR, Refused
from postgres import db_fixture, server_fixture  # noqa: F401 - the fixtures
from server_helpers import Client, free_port, start_server

#: Seconds a test waits for a notification from another connection.
WAIT = 10.0


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        opened: Store = SqliteStore(tmp_path / "store.db")
    else:
        opened = PostgresStore(request.getfixturevalue("db"))
    try:
        yield opened
    finally:
        opened.close()


ROW = GameRow("g1", '{"players": 4}', '["human", "random", "random", "random"]', "s", 2)


def test_both_stores_keep_a_game_and_refuse_a_taken_action_number(store: Store) -> None:
    assert store.load("g1") is None
    assert store.status("g1") == (0, False, "[]")
    store.create(ROW, {0: "hash0", -1: "watch"}, {0: "Ann"}, [(0, "P"), (1, "6S")], ["deck1"])
    store.append("g1", 2, [(2, "P")], 2, ["deck2"])
    stored = store.load("g1")
    assert stored is not None
    assert stored.row == ROW
    assert stored.hashes == {0: "hash0", -1: "watch"}
    assert stored.names == {0: "Ann"}
    assert stored.actions == ((0, "P"), (1, "6S"), (2, "P"))
    assert stored.decks == ("deck1", "deck2")
    assert store.status("g1") == (3, False, ROW.seats)
    assert (store.count(), store.open_count()) == (1, 1)
    # a second writer at version 2 (a move raced through another process) is refused whole
    with pytest.raises(Conflict):
        store.append("g1", 2, [(3, "7H"), (0, "P")], 3, [])
    assert store.status("g1") == (3, False, ROW.seats)
    loaded = store.load("g1")
    assert loaded is not None and loaded.actions == stored.actions


def test_both_stores_hand_a_seat_over_archive_and_purge(store: Store) -> None:
    store.create(ROW, {0: "hash0", 2: "hash2"}, {}, [], ["deck1"])
    store.create(attrs.evolve(ROW, id="g2"), {0: "h"}, {}, [], ["deck"])
    seats = '["human", "random", "heuristic", "random"]'
    store.append("g1", 0, [(0, "P")], 2, [], change=Change(seats=seats, drop_token=2))
    stored = store.load("g1")
    assert stored is not None
    assert (stored.row.seats, stored.hashes) == (seats, {0: "hash0"})
    assert [game for game, _, _ in store.open_games()] == ["g1", "g2"]
    assert store.archive("g1", 1000.0, "idle") is True
    assert store.archive("g1", 1001.0, "idle") is False  # closed once
    assert store.archive("nothing", 1000.0, "idle") is False
    assert store.status("g1") == (1, True, seats)
    closed = store.load("g1")
    assert closed is not None and closed.closed
    assert [game for game, _, _ in store.open_games()] == ["g2"]
    assert (store.count(), store.open_count()) == (2, 1)
    assert store.purge(999.0) == 0
    assert store.purge(1000.0) == 1
    assert store.load("g1") is None
    assert store.count() == 1
    store.ping()


def test_writes_from_many_threads_are_each_stored_and_a_taken_number_fails_alone(
    store: Store,
) -> None:
    """SQLite commits the writes of many threads in one transaction (a group commit):
    every write that returned is stored, and a write that takes a number already
    stored fails alone, with the others of its group kept."""
    games = [f"g{n}" for n in range(24)]
    for game in games:
        store.create(attrs.evolve(ROW, id=game), {0: "h"}, {}, [], ["deck"])
    done: dict[str, int] = {}
    refused: list[str] = []
    start = threading.Barrier(len(games))

    def play(game: str) -> None:
        start.wait(10)
        for n in range(8):
            store.append(game, n, [(n % 4, "P")], 2, [])
            done[game] = n + 1
        try:
            store.append(game, 3, [(0, "P")], 2, [])  # number 3 is taken: refused alone
        except Conflict:
            refused.append(game)

    threads = [threading.Thread(target=play, args=(game,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(refused) == sorted(games)
    assert done == dict.fromkeys(games, 8)
    for game in games:
        assert store.status(game)[0] == 8
        stored = store.load(game)
        assert stored is not None and [seat for seat, _ in stored.actions] == [0, 1, 2, 3] * 2


def _until(ready: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 10
    while not ready():
        assert time.monotonic() < deadline, f"waited 10 s for {what}"
        time.sleep(0.005)


@pytest.mark.parametrize("taken", [False, True])
def test_a_group_of_moves_is_inserted_together_and_a_taken_number_fails_alone(
    tmp_path: Path, taken: bool
) -> None:
    """The plain appends of one SQLite group commit are inserted together; when one of
    them takes a stored number, each is run again on its own and only that one fails."""
    store = SqliteStore(tmp_path / "group.db")
    games = [f"g{n}" for n in range(6)]
    for game in games:
        store.create(attrs.evolve(ROW, id=game), {0: "h"}, {}, [], ["deck"])
    store.append("g1", 0, [(0, "P")], 2, [])  # g1's number 0 is taken
    outcome: dict[str, str] = {}

    def write(game: str) -> None:
        first = 0 if taken or game != "g1" else 1
        try:
            store.append(game, first, [(1, "P"), (2, "8S")], 2, [f"deck of {game}"])
            outcome[game] = "stored"
        except Conflict:
            outcome[game] = "taken"

    threads = [threading.Thread(target=write, args=(game,)) for game in games]
    with store._lock:  # the commits wait: the first write leads, the others wait as one group
        threads[0].start()
        commits = store._commits
        _until(lambda: commits.committing and not commits.waiting, "the first write to lead")
        for thread in threads[1:]:
            thread.start()
        _until(lambda: len(commits.waiting) == 5, "five writes to wait together")
    for thread in threads:
        thread.join(10)
    assert outcome == {game: "taken" if taken and game == "g1" else "stored" for game in games}
    for game in games:
        stored = store.load(game)
        assert stored is not None
        texts = [text for _, text in stored.actions]
        assert texts == (["P"] if taken and game == "g1" else ["P", "P", "8S"][game != "g1" :])
        assert list(stored.decks[1:]) == ([] if taken and game == "g1" else [f"deck of {game}"])
    store.close()


def test_writes_from_the_event_loop_are_stored_by_one_writer_and_told_when_done(
    tmp_path: Path,
) -> None:
    """SQLite's writer thread stores the loop's writes in groups and calls each one's
    callback once its commit is over: ``None`` when stored, Conflict for a taken number."""
    store = SqliteStore(tmp_path / "soon.db")
    games = [f"g{n}" for n in range(12)]
    for game in games:
        store.create(attrs.evolve(ROW, id=game), {0: "h"}, {}, [(0, "P")], ["deck"])
    told: dict[str, BaseException | None] = {}
    threads: set[str] = set()
    every = threading.Event()

    def done(game: str) -> Callable[[BaseException | None], None]:
        def call(error: BaseException | None) -> None:
            told[game] = error
            threads.add(threading.current_thread().name)
            if len(told) == len(games):
                every.set()

        return call

    for n, game in enumerate(games):  # g0's number 0 is taken; the others append at 1
        store.append_soon(game, 0 if n == 0 else 1, [(1, "P")], 2, [], done=done(game))
    assert every.wait(10)
    assert isinstance(told["g0"], Conflict)
    assert all(told[game] is None for game in games[1:])
    assert threads == {"fivehundred-sqlite-writer"}
    for game in games[1:]:
        stored = store.load(game)
        assert stored is not None and [text for _, text in stored.actions] == ["P", "P"]
    every.clear()

    def broken(error: BaseException | None) -> None:
        raise RuntimeError("a callback's bug")

    store.append_soon("g1", 2, [(2, "P")], 2, [], done=broken)  # logged: the writer goes on
    store.append_soon("g2", 2, [(2, "P")], 2, [], done=lambda error: every.set())
    assert every.wait(10)
    assert [len(game.actions) for game in map(store.load, ["g1", "g2"]) if game] == [3, 3]
    store.close()
    with pytest.raises(sqlite3.ProgrammingError):  # a closed store takes no more writes
        store.append_soon("g1", 3, [(3, "P")], 2, [], done=done("g1"))


def test_a_move_on_postgresql_is_one_statement_and_a_closed_store_refuses_it(db: str) -> None:
    """A plain append on PostgreSQL stores its actions and decks in one statement, which
    notifies the listeners; a taken number is Conflict, and a closed store Unavailable."""
    store = PostgresStore(db)
    heard: list[tuple[str, int]] = []
    store.listen(lambda game, version: heard.append((game, version)), lambda: None)
    store.create(ROW, {0: "h"}, {}, [(0, "P")], ["deck 1"])
    store.append("g1", 1, [(1, "P"), (2, "8S")], 2, ["deck 2", "deck 3"])
    stored = store.load("g1")
    assert stored is not None
    assert [text for _, text in stored.actions] == ["P", "P", "8S"]
    assert list(stored.decks) == ["deck 1", "deck 2", "deck 3"]
    with pytest.raises(Conflict):
        store.append("g1", 2, [(3, "P")], 4, [])
    deadline = time.monotonic() + 10
    while ("g1", 3) not in heard and time.monotonic() < deadline:
        time.sleep(0.02)
    assert ("g1", 3) in heard
    store.close()
    with pytest.raises(Unavailable):
        store.append("g1", 3, [(3, "P")], 4, [])


def test_open_store_reads_the_db_setting(tmp_path: Path, db: str) -> None:
    sqlite = open_store(tmp_path / "x.db")
    postgres = open_store(db)
    try:
        assert isinstance(sqlite, SqliteStore)
        assert isinstance(postgres, PostgresStore)
    finally:
        sqlite.close()
        postgres.close()


def test_a_password_is_never_printed() -> None:
    url = "postgresql://app:s3cret@db.example:5433/five"
    assert describe(url) == "postgresql://app:***@db.example:5433/five"
    assert "s3cret" not in describe(url)
    assert describe("postgresql://app@db/five") == "postgresql://app@db/five"
    assert describe("tables.db") == "tables.db"
    # in the query, in a URL too malformed to take apart, beside a port that is no number
    assert describe("postgresql://db/five?user=app&PASSWORD=s3cret&sslmode=require") == (
        "postgresql://db/five?user=app&PASSWORD=***&sslmode=require"
    )
    assert describe("postgresql://app:s3cret@[::1/five") == "postgresql://***"
    # a key libpq decodes to password, and a URL with no host (a socket given as a parameter)
    assert "s3cret" not in describe("postgresql://db/five?user=app&pass%77ord=s3cret")
    assert describe("postgresql:///five?host=/run/pg&password=x") == (
        "postgresql:///five?host=/run/pg&password=***"
    )
    assert describe("postgresql://app:s3cret@db:port/five") == "postgresql://app:***@db:port/five"


@pytest.mark.parametrize(
    "url",
    ["postgresql://app:s3cret@[::1/five", "postgresql://app:s3cret%zz@127.0.0.1:1/five"],
)
def test_a_url_psycopg_cannot_read_is_refused_without_its_password(url: str) -> None:
    with pytest.raises(FiveHundredError, match="not a PostgreSQL URL psycopg can read") as err:
        PostgresStore(url)
    assert "s3cret" not in str(err.value)


def _first_legal(view: dict[str, object]) -> str:
    actions = view["legal_actions"]
    assert isinstance(actions, list) and actions
    return str(actions[0])


def test_a_move_raced_through_two_processes_is_applied_once(db: str) -> None:
    """Two ``Tables`` on one database stand for two processes: each has its own connections."""
    first, second = Tables(db, seed="race"), Tables(db, seed="race")
    try:
        table, tokens = first.create({}, ["human", "heuristic", "heuristic", "heuristic"])
        (seat,) = (seat for seat in tokens if seat != SPECTATOR)
        other = second.get(table.id)
        assert other.version == table.version
        action = fh.format_action(fh.legal_actions(other.state)[0])
        seen = other.version  # what the second process's client read
        version = first.act(table, seat, action, table.version)
        # refused by the database's key, or by the version check if the notification
        # already brought the second copy up to date: stale either way
        with pytest.raises(Refused) as refused:
            second.act(other, seat, action, seen)
        assert refused.value.code == "STALE_VERSION"
        # the loser has read the table again: both processes now agree
        assert other.version == version == second.get(table.id).version
        assert second.get(table.id).state == first.get(table.id).state
    finally:
        first.close()
        second.close()


def test_a_change_in_another_process_is_announced(db: str) -> None:
    first, second = Tables(db, seed="notify"), Tables(db, seed="notify")
    heard: list[tuple[str, int]] = []
    arrived = threading.Event()

    def hear(table_id: str, version: int) -> None:
        heard.append((table_id, version))
        arrived.set()

    try:
        table, tokens = first.create({}, ["human", "random", "random", "random"])
        (seat,) = (seat for seat in tokens if seat != SPECTATOR)
        assert second.get(table.id).version == table.version
        second.subscribe(hear)
        action = fh.format_action(fh.legal_actions(table.state)[0])
        version = first.act(table, seat, action, table.version)
        assert arrived.wait(WAIT), "no notification within the wait"
        assert (table.id, version) in heard
        # the listener brought the second process's copy up to date by itself
        assert second.get(table.id).state == table.state
    finally:
        first.close()
        second.close()


def _name(db: str) -> str:
    return db.rsplit("/", 1)[1].split("?", maxsplit=1)[0]


def _end_connections(server: str, db: str, *, refuse: bool | None = None) -> int:
    """End every backend connected to ``db``, as a PostgreSQL restart would; how many.
    ``refuse`` turns new connections to ``db`` off (``True``) or on again (``False``)."""
    import psycopg

    with psycopg.connect(server, autocommit=True) as admin:
        if refuse is not None:
            allow = "false" if refuse else "true"
            admin.execute(f'ALTER DATABASE "{_name(db)}" ALLOW_CONNECTIONS {allow}')
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (_name(db),),
        ).fetchall()
    return len(rows)


def test_lost_database_connections_are_replaced_without_a_restart(server: str, db: str) -> None:
    """PostgreSQL restarting costs no request, and nothing needs restarting after it."""
    first, second = Tables(db, seed="restart"), Tables(db, seed="restart")
    heard = threading.Event()
    second.subscribe(lambda table_id, version: heard.set())
    try:
        table, tokens = first.create({}, ["human", "random", "random", "random"])
        (seat,) = (seat for seat in tokens if seat != SPECTATOR)
        other = second.get(table.id)
        assert _end_connections(server, db) >= 4  # each process's pool and its listener
        assert first.get(table.id) is table  # the pool handed out a new connection
        action = fh.format_action(fh.legal_actions(table.state)[0])
        version = first.act(table, seat, action, table.version)
        # the second process's listener is back too, and heard of the move
        assert heard.wait(WAIT), "the listener did not come back within the wait"
        assert other.version == version
    finally:
        first.close()
        second.close()


def test_a_database_refusing_connections_is_503_then_served_again(server: str, db: str) -> None:
    """Never a 500: while PostgreSQL refuses, requests are 503 DATABASE_UNAVAILABLE."""
    port = free_port()
    process = start_server(db, port, "--seed", "gone")
    client = Client(port, timeout=WAIT + 10)
    try:
        seats = ["human", "random", "random", "random"]
        status, created, _ = client.request("POST", "/tables", {"seats": seats})
        assert status == 201, created
        table, token = created["table"], created["tokens"]["0"]
        status, seen, _ = client.request("GET", f"/tables/{table}", token=token)
        move = {"action": seen["legal_actions"][0], "version": seen["version"]}  # seat 0 acts
        _end_connections(server, db, refuse=True)
        status, answer, _ = client.request("GET", f"/tables/{table}", token=token)
        assert (status, answer["error"]) == (503, "DATABASE_UNAVAILABLE")
        assert "retry" in answer["message"]
        # a move is refused too, and put back: the version read below has not moved
        status, answer, _ = client.request("POST", f"/tables/{table}/actions", move, token=token)
        assert (status, answer["error"]) == (503, "DATABASE_UNAVAILABLE")
        status, ready, _ = client.request("GET", "/readyz")
        assert status == 503, ready
        _end_connections(server, db, refuse=False)
        back = time.monotonic()
        while True:  # answered again within seconds: nothing restarted
            status, view, _ = client.request("GET", f"/tables/{table}", token=token)
            if status != 503 or time.monotonic() - back > WAIT:
                break
            time.sleep(0.2)
        assert status == 200 and view["version"] == created["version"]
        assert time.monotonic() - back < WAIT
    finally:
        _end_connections(server, db, refuse=False)
        client.close()
        process.kill()
        process.communicate(timeout=WAIT)


def test_a_seat_given_away_stops_its_token_at_once_elsewhere(db: str) -> None:
    """The other process need not wait for the notification: its next read sees new seats."""
    first, second = Tables(db, seed="seats"), Tables(db, seed="seats")
    try:
        table, tokens = first.create({}, ["human", "random", "human", "random"])
        other = second.get(table.id)
        second._store.close()  # stop this process's listener: no notification arrives
        second._store = PostgresStore(db)
        first.hand_over(table, 2, "heuristic")
        assert second.get(table.id).seat_of(tokens[2]) is None
        assert other.seats == ("human", "random", "heuristic", "random")
    finally:
        first.close()
        second.close()


def test_a_seat_given_away_or_a_table_closed_in_one_process_holds_in_the_other(db: str) -> None:
    first, second = Tables(db, seed="handover"), Tables(db, seed="handover")
    heard = threading.Event()
    second.subscribe(lambda table_id, version: heard.set())
    try:
        table, tokens = first.create({}, ["human", "random", "human", "random"])
        other = second.get(table.id)
        assert other.seat_of(tokens[2]) == 2
        first.hand_over(table, 2, "heuristic")
        assert heard.wait(WAIT), "no notification within the wait"
        # the second process's copy has the new seats, and the old token no longer works
        assert other.seats == table.seats == ("human", "random", "heuristic", "random")
        assert other.seat_of(tokens[2]) is None
        assert first.retire(table.id, "operator") is True
        with pytest.raises(Refused) as closed:
            second.get(table.id)
        assert closed.value.status == 410
    finally:
        first.close()
        second.close()


def test_two_server_processes_share_tables_and_one_may_die(db: str, tmp_path: Path) -> None:
    """Moves sent alternately through two ``fivehundred serve`` processes on one database;
    then a ``kill -9`` of one: the other serves every table with every acknowledged move."""
    ports = [free_port(), free_port()]
    servers = [start_server(db, port, "--seed", "two") for port in ports]
    clients = [Client(port) for port in ports]
    try:
        tables: dict[str, tuple[str, int]] = {}
        for n in range(3):
            status, created, _ = clients[n % 2].request(
                "POST", "/tables", {"rules": {}, "seats": ["human", "heuristic", "human", "random"]}
            )
            assert status == 201, created
            tokens = created["tokens"]
            tables[created["table"]] = (tokens["0"], created["version"])
            tables[created["table"] + "#2"] = (tokens["2"], created["version"])
        rng = random.Random(7)
        acknowledged: dict[str, int] = {}
        for step in range(60):
            key = rng.choice(sorted(tables))
            table_id = key.split("#")[0]
            token, _ = tables[key]
            client = clients[step % 2]
            status, view, _ = client.request("GET", f"/tables/{table_id}", token=token)
            assert status == 200, view
            # the view read through either process is the latest acknowledged one
            assert view["version"] == acknowledged.get(table_id, view["version"])
            if not view["legal_actions"]:
                continue
            status, answer, _ = client.request(
                "POST",
                f"/tables/{table_id}/actions",
                {"action": _first_legal(view), "version": view["version"]},
                token=token,
            )
            assert status == 200, answer
            acknowledged[table_id] = answer["version"]
        assert len(acknowledged) == 3
        servers[0].send_signal(signal.SIGKILL)
        servers[0].wait(timeout=30)
        for key, (token, _) in tables.items():
            table_id = key.split("#")[0]
            status, view, _ = clients[1].request("GET", f"/tables/{table_id}", token=token)
            assert status == 200, view
            assert view["version"] == acknowledged.get(table_id, view["version"])
    finally:
        for client in clients:
            client.close()
        for process in servers:
            process.kill()
            process.wait(timeout=30)


def test_a_move_through_one_process_reaches_a_socket_on_the_other(db: str) -> None:
    """The live push crosses processes: LISTEN/NOTIFY wakes the other process's sockets."""
    import json

    from websockets.sync.client import connect

    ports = [free_port(), free_port()]
    servers = [start_server(db, port, "--seed", "push") for port in ports]
    http = Client(ports[0])
    try:
        status, created, _ = http.request(
            "POST", "/tables", {"seats": ["human", "heuristic", "heuristic", "heuristic"]}
        )
        assert status == 201, created
        token = created["tokens"]["0"]
        url = f"ws://127.0.0.1:{ports[1]}/tables/{created['table']}/live"
        with connect(url, open_timeout=WAIT) as socket:
            socket.send(json.dumps({"type": "hello", "token": token}))
            first = json.loads(socket.recv(timeout=WAIT))
            assert first["type"] == "view" and first["version"] == created["version"]
            action = first["view"]["legal_actions"][0]
            status, answer, _ = http.request(
                "POST",
                f"/tables/{created['table']}/actions",
                {"action": action, "version": first["version"]},
                token=token,
            )
            assert status == 200, answer
            pushed = json.loads(socket.recv(timeout=WAIT))
            assert pushed["type"] == "view"
            assert pushed["version"] == answer["version"] > first["version"]
    finally:
        http.close()
        for process in servers:
            process.kill()
            process.wait(timeout=30)


def test_a_move_lost_to_another_process_leaves_no_finished_hand_behind(tmp_path: Path) -> None:
    """The loser of a raced move is put back whole: its state, version and score sheet."""
    db = tmp_path / "race.db"  # two Tables on one SQLite file race as two processes would
    first, second = Tables(db, seed="sheet"), Tables(db, seed="sheet")
    try:
        table, _ = first.create({}, ["human", "heuristic", "heuristic", "heuristic"])
        for _ in range(400):  # bounded: a few hands of a game
            if table.state.result is not None or table.state.hand_number > 3:
                break
            assert len(table.past) == max(table.state.hand_number - 1, 0)
            action = fh.format_action(fh.legal_actions(table.state)[0])
            other = second.get(table.id)
            before = (other.version, other.state, list(other.past))
            first.act(table, 0, action, table.version)
            # the second process's copy still at the old version loses the same move
            with pytest.raises(Refused) as lost:
                second.act(other, 0, action, before[0])
            assert lost.value.code in {"STALE_VERSION", "NOT_YOUR_TURN"}
            # and, read again, it matches the winner's, score sheet included
            assert (other.version, other.state, other.past) == (
                table.version,
                table.state,
                table.past,
            )
        assert table.state.hand_number > 1, "the test never finished a hand"
    finally:
        first.close()
        second.close()
