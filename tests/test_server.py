"""The game server's JSON API in process (Starlette's TestClient): tables, refusals, limits."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("httpx2", reason="httpx2 (Starlette's test client) is not installed")

from starlette.testclient import TestClient

import fivehundred as fh
from fivehundred._engine.convert import json_depth
from fivehundred.server import Tables, create_app
from fivehundred.server.app import MAX_BODY, MAX_DEPTH
from fivehundred.server.tables import HUMAN, Refused, hash_token

JSON = dict[str, Any]
#: The media type of every JSON body (anything else is 415).
JSON_TYPE = {"content-type": "application/json"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "tables.db", seed="tests")) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def create(client: TestClient, seats: list[str] | None = None, **rules: object) -> JSON:
    body: JSON = {"rules": rules}
    if seats is not None:
        body["seats"] = seats
    answer = client.post("/tables", json=body)
    assert answer.status_code == 201, answer.json()
    created: JSON = answer.json()
    return created


def look(client: TestClient, table: str, token: str) -> JSON:
    answer = client.get(f"/tables/{table}", headers=bearer(token))
    assert answer.status_code == 200, answer.json()
    view: JSON = answer.json()
    return view


def act(client: TestClient, table: str, token: str, action: str, version: int) -> Any:
    return client.post(
        f"/tables/{table}/actions",
        json={"action": action, "version": version},
        headers=bearer(token),
    )


#: More of one person's moves than a game of random play needs (play_out fails beyond).
MAX_MOVES = 3000


def play_out(client: TestClient, table: str, token: str, seed: int) -> tuple[JSON, int]:
    """The person plays random legal actions until the game is over."""
    rng = random.Random(seed)
    for moves in range(MAX_MOVES):
        view = look(client, table, token)
        if view["view"]["view"]["result"] is not None:
            return view, moves
        answer = act(client, table, token, rng.choice(view["legal_actions"]), view["version"])
        assert answer.status_code == 200, answer.json()
    raise AssertionError(f"the game did not end within {MAX_MOVES} of the person's moves")


# -- creating tables ---------------------------------------------------------------------


def test_a_table_answers_one_token_per_person(client: TestClient) -> None:
    created = create(client, ["human", "random", "human", "search"])
    assert set(created["tokens"]) == {"0", "2"}
    assert created["seats"] == ["human", "random", "human", "search"]
    assert len({*created["tokens"].values()}) == 2
    assert all(len(token) >= 40 for token in created["tokens"].values())
    for seat, token in created["tokens"].items():
        assert look(client, created["table"], token)["seat"] == int(seat)


def test_a_table_without_seats_is_you_against_heuristic_players(client: TestClient) -> None:
    created = create(client, None, players=5)
    assert created["seats"] == ["human"] + ["heuristic"] * 4
    view = look(client, created["table"], created["tokens"]["0"])
    assert view["sides"] == [[0], [1], [2], [3], [4]]
    assert len(view["view"]["view"]["hand_sizes"]) == 5


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"seats": ["human", "random"]}, 422, "BAD_SEATS"),
        ({"seats": ["random"] * 4}, 422, "BAD_SEATS"),
        ({"seats": ["human", "wizard", "random", "random"]}, 422, "BAD_SEATS"),
        ({"seats": "human"}, 422, "BAD_SEATS"),
        ({"rules": {"target": "500"}}, 422, "BAD_RULES"),
        ({"rules": {"players": 9}}, 422, "BAD_RULES"),
        ({"rules": []}, 422, "BAD_RULES"),
        ({"seat": ["human"]}, 400, "BAD_REQUEST"),
        ([1, 2], 400, "BAD_REQUEST"),
    ],
)
def test_a_bad_table_is_refused_with_a_code(
    client: TestClient, body: object, status: int, code: str
) -> None:
    answer = client.post("/tables", json=body)
    assert answer.status_code == status
    assert answer.json()["error"] == code
    assert answer.json()["message"]


def test_a_bad_rule_is_refused_in_the_rule_books_words(client: TestClient) -> None:
    answer = client.post("/tables", json={"rules": {"target": -5}})
    assert answer.json() == {
        "error": "BAD_RULES",
        "message": "rules: target=-5 must be positive (V-TARGET)",
    }


def test_rules_options_reach_the_game(client: TestClient) -> None:
    created = create(client, ["human", "random", "random"], players=3, target=250)
    view = look(client, created["table"], created["tokens"]["0"])
    assert view["view"]["view"]["rules"] == {"players": 3, "target": 250}


# -- reading a table ---------------------------------------------------------------------


def test_a_seat_sees_its_own_view_and_legal_actions(client: TestClient) -> None:
    created = create(client, ["human", "heuristic", "heuristic", "heuristic"])
    table, token = created["table"], created["tokens"]["0"]
    view = look(client, table, token)
    document = view["view"]
    assert document["type"] == "player_view"
    loaded = fh.from_dict(document, cls=fh.PlayerView)
    assert loaded.seat == 0
    assert view["legal_actions"] == [fh.format_action(a) for a in loaded.legal_actions]
    assert view["version"] == len(document["view"]["auction"])  # only bids so far
    assert view["seats"] == created["seats"]
    assert view["legal_actions"]  # the person is to act (computers moved first)


def test_a_view_holds_no_other_seats_cards(client: TestClient) -> None:
    created = create(client, ["human", "heuristic", "human", "heuristic"])
    table = created["table"]
    mine = look(client, table, created["tokens"]["0"])["view"]["view"]["hand"]
    theirs = look(client, table, created["tokens"]["2"])["view"]["view"]["hand"]
    assert not set(mine) & set(theirs)
    view = look(client, table, created["tokens"]["0"])["view"]["view"]
    cards = [*view["hand"], *(view["kitty"] or []), *(view["discards"] or [])]
    assert not set(cards) & set(theirs)
    assert view["hand_sizes"][2] == len(theirs)


@pytest.mark.parametrize(
    "headers",
    [{}, {"authorization": "Bearer nope"}, {"authorization": "Basic abc"}, {"authorization": ""}],
)
def test_a_table_needs_a_seats_token(client: TestClient, headers: dict[str, str]) -> None:
    created = create(client, ["human", "random", "random", "random"])
    answer = client.get(f"/tables/{created['table']}", headers=headers)
    assert answer.status_code == 401
    assert answer.json()["error"] == "UNAUTHORIZED"


def test_a_token_opens_only_its_own_table(client: TestClient) -> None:
    first = create(client, ["human", "random", "random", "random"])
    second = create(client, ["human", "random", "random", "random"])
    answer = client.get(f"/tables/{second['table']}", headers=bearer(first["tokens"]["0"]))
    assert answer.status_code == 401


def test_an_unknown_table_is_404(client: TestClient) -> None:
    answer = client.get("/tables/nothing", headers=bearer("x"))
    assert answer.status_code == 404
    assert answer.json()["error"] == "NO_SUCH_TABLE"


# -- acting --------------------------------------------------------------------------------


def test_an_accepted_action_answers_the_new_version(client: TestClient) -> None:
    created = create(client, ["human", "random", "random", "random"])
    table, token = created["table"], created["tokens"]["0"]
    view = look(client, table, token)
    answer = act(client, table, token, "pass", view["version"])
    assert answer.status_code == 200
    assert answer.json()["version"] > view["version"]
    assert look(client, table, token)["version"] == answer.json()["version"]


def test_a_replayed_request_is_refused_as_stale(client: TestClient) -> None:
    created = create(client, ["human", "random", "random", "random"])
    table, token = created["table"], created["tokens"]["0"]
    version = look(client, table, token)["version"]
    assert act(client, table, token, "pass", version).status_code == 200
    again = act(client, table, token, "pass", version)
    assert again.status_code == 409
    assert again.json()["error"] == "STALE_VERSION"


def test_acting_out_of_turn_is_409(client: TestClient) -> None:
    created = create(client, ["human", "human", "human", "human"])
    table = created["table"]
    first = look(client, table, created["tokens"]["0"])
    to_act = first["view"]["view"]["to_act"]
    other = str((to_act + 1) % 4)
    answer = act(client, table, created["tokens"][other], "pass", first["version"])
    assert answer.status_code == 409
    assert answer.json()["error"] == "NOT_YOUR_TURN"


def test_r3_a_bid_too_low_is_422_with_its_reason(client: TestClient) -> None:
    created = create(client, ["human", "human", "human", "human"])
    table, tokens = created["table"], created["tokens"]
    view = look(client, table, tokens["0"])
    seat = view["view"]["view"]["to_act"]
    assert act(client, table, tokens[str(seat)], "7H", view["version"]).status_code == 200
    nxt = (seat + 1) % 4
    answer = act(client, table, tokens[str(nxt)], "6S", view["version"] + 1)
    assert answer.status_code == 422
    assert answer.json()["error"] == fh.Reason.BID_TOO_LOW.name
    assert "7" in answer.json()["message"]


def test_r5_a_card_not_held_is_422(client: TestClient) -> None:
    created = create(client, ["human", "human", "human", "human"])
    table, tokens = created["table"], created["tokens"]
    view = look(client, table, tokens["0"])
    seat = view["view"]["view"]["to_act"]
    answer = act(client, table, tokens[str(seat)], "AH", view["version"])
    # in the auction, "AH" is read as a card: an action of another phase
    assert answer.status_code == 422
    assert answer.json()["error"] == fh.Reason.WRONG_PHASE.name


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"action": "pass"}, "BAD_REQUEST"),
        ({"action": "pass", "version": "3"}, "BAD_REQUEST"),
        ({"action": "pass", "version": True}, "BAD_REQUEST"),
        ({"action": 7, "version": 0}, "BAD_REQUEST"),
        ({"action": "pass", "version": 0, "seat": 1}, "BAD_REQUEST"),
        ({"action": "x" * 101, "version": 0}, "BAD_NOTATION"),
    ],
)
def test_a_malformed_action_is_400(client: TestClient, body: JSON, code: str) -> None:
    created = create(client, ["human", "random", "random", "random"])
    answer = client.post(
        f"/tables/{created['table']}/actions", json=body, headers=bearer(created["tokens"]["0"])
    )
    assert answer.status_code == 400
    assert answer.json()["error"] == code


def test_bad_notation_is_400(client: TestClient) -> None:
    created = create(client, ["human", "random", "random", "random"])
    table, token = created["table"], created["tokens"]["0"]
    answer = act(client, table, token, "seven hearts", look(client, table, token)["version"])
    assert answer.status_code == 400
    assert answer.json()["error"] == "BAD_NOTATION"
    assert answer.json()["message"].endswith("(R3.2, R3.3)")  # the phase's rule (fh.play)


def test_r9_a_whole_game_against_computer_players_ends_and_then_refuses(
    client: TestClient,
) -> None:
    created = create(client, ["human", "heuristic", "random", "heuristic"], target=150)
    table, token = created["table"], created["tokens"]["0"]
    view, moves = play_out(client, table, token, seed=1)
    assert moves >= 1
    assert view["view"]["view"]["last_hand"] is not None  # a hand was played and scored
    result = view["view"]["view"]["result"]
    assert result["winners"]
    assert view["legal_actions"] == []
    assert view["view"]["view"]["phase"] == "game_over"
    answer = act(client, table, token, "pass", view["version"])
    assert answer.status_code == 409
    assert answer.json()["error"] == "GAME_OVER"


# -- storage ---------------------------------------------------------------------------------


def test_a_reopened_database_resumes_every_table_with_the_same_tokens(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    with TestClient(create_app(db, seed="tests")) as first:
        created = create(first, ["human", "search", "human", "heuristic"])
        table, tokens = created["table"], created["tokens"]
        rng = random.Random(4)
        for _ in range(6):
            for token in tokens.values():
                view = look(first, table, token)
                if view["legal_actions"]:
                    choice = rng.choice(view["legal_actions"])
                    assert act(first, table, token, choice, view["version"]).status_code == 200
        before = {seat: look(first, table, token) for seat, token in tokens.items()}
    with TestClient(create_app(db, seed="tests")) as second:
        after = {seat: look(second, table, token) for seat, token in tokens.items()}
    assert after == before
    assert before["0"]["version"] >= 6


def test_tokens_are_stored_only_as_hashes(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    with TestClient(create_app(db, seed="tests")) as client:
        created = create(client, ["human", "random", "human", "random"])
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    with sqlite3.connect(db) as connection:
        stored = dict(connection.execute("SELECT seat, hash FROM token"))
    for seat, token in created["tokens"].items():
        assert token.encode() not in raw
        assert stored[int(seat)] == hash_token(token)


def test_the_database_is_in_wal_mode_and_holds_every_action(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    with TestClient(create_app(db, seed="tests")) as client:
        created = create(client, ["human", "random", "random", "random"])
        table, token = created["table"], created["tokens"]["0"]
        view, played = play_turns_in_process(client, table, token, turns=5)
    with sqlite3.connect(db) as connection:
        (mode,) = connection.execute("PRAGMA journal_mode").fetchone()
        (count,) = connection.execute("SELECT COUNT(*) FROM action").fetchone()
    assert mode == "wal"
    assert played >= 1  # the auction needs every other seat's pass (R3.8): the person called
    assert count == view["version"] > played


def play_turns_in_process(
    client: TestClient, table: str, token: str, *, turns: int
) -> tuple[JSON, int]:
    """The person plays up to ``turns`` random legal actions; fewer if the game ends.

    The table's seed is secret, so its deals differ run to run: in about one
    game in thirty the computers' random bids end it within five turns: for
    instance the partner's open misère fails, -500 (R9.2), while the person
    sits out the hand.
    """
    rng = random.Random(2)
    played = 0
    for _ in range(turns):
        view = look(client, table, token)
        if view["view"]["view"]["result"] is not None:
            assert view["legal_actions"] == []
            break
        assert act(client, table, token, rng.choice(view["legal_actions"]), view["version"])
        played += 1
    return look(client, table, token), played


def test_a_failed_write_changes_nothing(tmp_path: Path) -> None:
    tables = Tables(tmp_path / "tables.db", seed="tests")
    table, tokens = tables.create({}, [HUMAN, "random", "random", "random"])
    state, version = table.state, table.version
    legal = fh.format_action(fh.observe(state, 0).legal_actions[0])
    tables.close()  # every write now fails
    with pytest.raises(sqlite3.ProgrammingError):
        tables.act(table, 0, legal, version)
    assert (table.state, table.version) == (state, version)
    with pytest.raises(sqlite3.ProgrammingError):  # the same from the event loop
        asyncio.run(tables.act_soon(table, 0, legal, version))
    assert (table.state, table.version) == (state, version)
    assert not table.lock.locked()
    assert table.seat_of(tokens[0]) == 0


def test_a_move_from_the_event_loop_is_stored_before_its_answer(tmp_path: Path) -> None:
    """The rules run on the event loop and only the write in a worker thread: the move
    is stored when its version is answered, the table's lock is free again, and an
    illegal move leaves the table as it was."""
    tables = Tables(tmp_path / "loop.db", seed="loop")
    table, _ = tables.create({}, [HUMAN] * 4)
    seat = table.state.to_act
    assert seat is not None
    legal = fh.format_action(fh.legal_actions(table.state)[0])
    with pytest.raises(Refused) as refused:
        asyncio.run(tables.act_soon(table, seat, "AS", 0))
    assert refused.value.code == "WRONG_PHASE" and table.version == 0
    assert asyncio.run(tables.act_soon(table, seat, legal, 0)) == 1
    assert not table.lock.locked()
    stored = tables.store.load(table.id)
    assert stored is not None and stored.actions == ((seat, legal),)
    tables.close()


def test_a_move_to_a_table_whose_lock_is_held_waits_in_a_worker_thread(tmp_path: Path) -> None:
    """While another change holds the table's lock, a move waits for it in a worker
    thread, never on the event loop, and is then applied and stored."""
    tables = Tables(tmp_path / "held.db", seed="held")
    table, _ = tables.create({}, [HUMAN] * 4)
    seat = table.state.to_act
    assert seat is not None
    legal = fh.format_action(fh.legal_actions(table.state)[0])

    async def move_while_held() -> tuple[bool, int]:
        table.lock.acquire()  # another change under way
        move = asyncio.create_task(tables.act_soon(table, seat, legal, 0))
        await asyncio.sleep(0.05)  # the loop goes on meanwhile
        waited = not move.done()
        table.lock.release()
        return waited, await asyncio.wait_for(move, 10)

    assert asyncio.run(move_while_held()) == (True, 1)
    stored = tables.store.load(table.id)
    assert stored is not None and len(stored.actions) == 1
    tables.close()


def test_a_seeded_server_deals_the_same_tables_again_R2_3() -> None:
    """``seed`` (``fivehundred serve --seed``, for tests) makes the deals repeatable."""
    seats = [HUMAN, "heuristic", HUMAN, "random"]

    def deals(seed: str | None) -> list[fh.GameState]:
        tables = Tables(":memory:", seed=seed)
        try:
            return [tables.create({}, seats)[0].state for _ in range(3)]
        finally:
            tables.close()

    seeded = deals("test")
    assert seeded == deals("test")
    assert len({state.hands for state in seeded}) == 3  # each table has its own seed
    assert deals("other") != seeded
    assert deals(None) != deals(None)  # by default a secret seed per table


def test_the_tables_refuse_beyond_their_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("fivehundred.server.tables.MAX_TABLES", 1)
    tables = Tables(":memory:", seed="tests")
    tables.create({}, [HUMAN, "random", "random", "random"])
    with pytest.raises(Refused) as refused:
        tables.create({}, [HUMAN, "random", "random", "random"])
    assert (refused.value.status, refused.value.code) == (503, "TOO_MANY_TABLES")
    assert len(tables) == 1


# -- bounds and errors ---------------------------------------------------------------------------


def test_every_unknown_route_and_method_is_json(client: TestClient) -> None:
    missing = client.get("/nowhere")
    assert (missing.status_code, missing.json()["error"]) == (404, "NOT_FOUND")
    static = client.get("/static/nothing.js")
    assert (static.status_code, static.json()["error"]) == (404, "NOT_FOUND")
    wrong = client.delete("/tables")
    assert (wrong.status_code, wrong.json()["error"]) == (405, "METHOD_NOT_ALLOWED")
    assert "server" not in wrong.headers


def test_a_large_body_is_413(client: TestClient) -> None:
    answer = client.post("/tables", content=b" " * (MAX_BODY + 1))
    assert (answer.status_code, answer.json()["error"]) == (413, "TOO_LARGE")
    bad = client.post("/tables", content=b"{}", headers={"content-length": "x"})
    assert bad.status_code in {400, 413}


def test_a_large_streamed_body_is_413_as_it_arrives(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"rules": {}, "seats": ['
        for _ in range(MAX_BODY):
            yield b'"human", '

    answer = client.post("/tables", content=chunks(), headers=JSON_TYPE)
    assert (answer.status_code, answer.json()["error"]) == (413, "TOO_LARGE")


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b"[" * 1000 + b"]" * 1000, "BAD_JSON"),
        (b'{"rules": {"a": {"b": {"c": {"d": 1}}}}}', "BAD_JSON"),
        (b"{not json", "BAD_JSON"),
        (b"\xff\xfe", "BAD_JSON"),
        (b'"text"', "BAD_REQUEST"),
    ],
)
def test_bad_json_is_400(client: TestClient, content: bytes, code: str) -> None:
    answer = client.post("/tables", content=content, headers=JSON_TYPE)
    assert (answer.status_code, answer.json()["error"]) == (400, code)


def test_json_depth_skips_strings() -> None:
    assert json_depth('{"a": "[[[[[[[[", "b": [1, {"c": "\\"]]]"}]}') == 3
    assert json_depth("[]") == 1
    assert json_depth('"[[["') == 0
    assert json_depth("[" * (MAX_DEPTH + 1)) == MAX_DEPTH + 1


def test_a_crash_is_answered_500_as_json(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Tables, "create", broken)
    with TestClient(client.app, raise_server_exceptions=False) as quiet:
        answer = quiet.post("/tables", json={})
    assert (answer.status_code, answer.json()["error"]) == (500, "INTERNAL_ERROR")
    assert "a bug" not in answer.text


def test_too_many_requests_at_once_are_503() -> None:
    with TestClient(create_app(max_in_flight=0)) as client:
        answer = client.get("/")
    assert (answer.status_code, answer.json()["error"]) == (503, "BUSY")


def test_the_browser_table_is_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "/static/table.js" in page.text
    assert 'name="viewport"' in page.text
    script = client.get("/static/table.js")
    assert script.status_code == 200
    assert "legal_actions" in script.text
    style = client.get("/static/style.css")
    assert "@media" in style.text


# -- the command line and the package --------------------------------------------------------


def test_serve_without_the_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from fivehundred import cli

    for name in ("fivehundred.server.serve", "fivehundred.server.app"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert cli.main(["serve", "--db", ":memory:"]) == 2
    err = capsys.readouterr().err
    assert 'pip install "fivehundred[server]"' in err


def test_serve_reraises_an_unrelated_import_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from fivehundred import cli

    monkeypatch.delitem(sys.modules, "fivehundred.server.serve", raising=False)
    monkeypatch.setitem(sys.modules, "sqlite3", None)
    monkeypatch.delitem(sys.modules, "fivehundred.server.store", raising=False)
    monkeypatch.delitem(sys.modules, "fivehundred.server.tables", raising=False)
    monkeypatch.delitem(sys.modules, "fivehundred.server", raising=False)
    with pytest.raises(ImportError):
        cli.main(["serve"])


def test_the_package_imports_the_web_layer_on_first_use() -> None:
    from fivehundred import server

    assert server.create_app is create_app
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = server.nothing


def test_a_table_reopened_before_any_action_has_its_deal(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    first = Tables(db, seed="tests")
    table, tokens = first.create({}, [HUMAN] * 4)  # nobody moves: a deal and no action
    first.close()
    again = Tables(db).get(table.id)
    assert (again.state, again.version) == (table.state, 0)
    assert again.seat_of(tokens[0]) == 0


def test_an_answer_is_the_same_json_with_orjson_or_without(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A seat's answer is encoded with orjson where it is installed, else with ``json``:
    the same JSON value either way, non-ASCII text (suit symbols, misère) included."""
    import json

    from fivehundred.server import _present as module

    pytest.importorskip("orjson", reason="the server extra brings orjson")
    server = Tables(":memory:", seed="orjson")
    table, _ = server.create({}, [HUMAN, "random", "random", "random"])
    view = table.view(0)
    fast = module.json_bytes(view)
    monkeypatch.setattr(module, "_fast_json", None)
    plain = module.json_bytes(view)
    assert fast != plain  # orjson writes ♠ as it is, json escapes it
    assert json.loads(fast) == json.loads(plain) == json.loads(json.dumps(view))
    assert "♠" in fast.decode("utf-8") and b"\\u2660" in plain
    assert json.loads(table.answer(0)) == json.loads(plain)


def test_the_strong_seat_is_the_strongest_player_with_a_time_budget(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A "search" seat plays :func:`~fivehundred.bots.tournament.strong_player`: every decision
    bounded by its time limit."""
    from fivehundred.bots.tournament import STRONG_TIME_LIMIT, strong_player
    from fivehundred.server import _table

    made: list[float | None] = []

    def recording(rng: random.Random) -> fh.bots.Player:
        player = strong_player(rng)
        made.append(player.time_limit)
        return player

    monkeypatch.setattr(_table, "strong_player", recording)
    created = create(client, ["human", "search", "search", "search"])
    token = created["tokens"]["0"]
    for _ in range(200):
        view = look(client, created["table"], token)
        if view["legal_actions"]:
            break
    assert view["legal_actions"]  # the computers moved first
    if view["view"]["view"]["to_act"] == 0 and not made:  # seat 0 called first
        act(client, created["table"], token, view["legal_actions"][0], view["version"])
        for _ in range(200):
            if look(client, created["table"], token)["legal_actions"]:
                break
    assert made and set(made) == {STRONG_TIME_LIMIT}
