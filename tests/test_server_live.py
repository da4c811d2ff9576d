"""The live table (``/tables/{id}/live``) in process: pushes, seats' own views, spectators,
refusals, reconnects and the bounds on sockets (Starlette's TestClient WebSocket).

Every receive is bounded by :data:`WAIT` seconds, so a push that never comes fails
the test instead of hanging it.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("httpx2", reason="httpx2 (Starlette's test client) is not installed")

import anyio
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import fivehundred as fh
from fivehundred.server import create_app
from fivehundred.server._live import MAX_MESSAGE, POLICY, TRY_LATER, Hub, Live, Socket
from fivehundred.server.tables import Table, Tables
from socket_support import receive

JSON = dict[str, Any]
#: Seconds any one message may take to arrive.
WAIT = 10.0
#: Moves a test drives at most (a game of random play needs far fewer).
MAX_MOVES = 400


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "tables.db", seed="live")) as test_client:
        yield test_client


def receive_type(ws: Any, kind: str) -> JSON:
    """The next message of a kind, skipping views (bounded: at most 20 messages)."""
    for _ in range(20):
        message = receive(ws)
        if message["type"] == kind:
            return message
        assert message["type"] == "view", message
    raise AssertionError(f"no {kind} message among 20")


def create(client: TestClient, seats: list[str], **rules: object) -> JSON:
    answer = client.post("/tables", json={"rules": rules, "seats": seats})
    assert answer.status_code == 201, answer.json()
    created: JSON = answer.json()
    return created


def hello(ws: Any, token: str) -> JSON:
    ws.send_json({"type": "hello", "token": token})
    first = receive(ws)
    assert first["type"] == "view", first
    return first


def table_of(client: TestClient, table_id: str) -> Table:
    tables: Tables = client.app.state.tables  # type: ignore[attr-defined]  # Starlette's app
    return tables.get(table_id)


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]  # Starlette's app
    return hub


def inner(message: JSON) -> JSON:
    """The player view document inside a view message."""
    view: JSON = message["view"]["view"]["view"]
    return view


# -- the first view and pushes ------------------------------------------------------------


def test_each_seat_gets_its_own_view_on_connect(client: TestClient) -> None:
    created = create(client, ["human", "heuristic", "human", "heuristic"])
    table = table_of(client, created["table"])
    with (
        client.websocket_connect(f"/tables/{created['table']}/live") as north,
        client.websocket_connect(f"/tables/{created['table']}/live") as south,
    ):
        for ws, seat in ((north, 0), (south, 2)):
            first = hello(ws, created["tokens"][str(seat)])
            assert first["version"] == table.version
            assert first["view"]["seat"] == seat
            assert inner(first)["hand"] == [str(c) for c in table.state.hand(seat)]
            # exactly the body GET /tables/{id} answers that seat
            got = client.get(
                f"/tables/{created['table']}",
                headers={"authorization": f"Bearer {created['tokens'][str(seat)]}"},
            )
            assert got.json() == first["view"]


def test_a_change_is_pushed_to_every_socket_of_the_table(client: TestClient) -> None:
    created = create(client, ["human", "heuristic", "human", "heuristic"])
    other = create(client, ["human", "heuristic", "heuristic", "heuristic"])
    table_id, tokens = created["table"], created["tokens"]
    table = table_of(client, table_id)
    with (
        client.websocket_connect(f"/tables/{table_id}/live") as north,
        client.websocket_connect(f"/tables/{table_id}/live") as south,
        client.websocket_connect(f"/tables/{table_id}/live") as watcher,
        client.websocket_connect(f"/tables/{other['table']}/live") as elsewhere,
    ):
        hello(north, tokens["0"])
        hello(south, tokens["2"])
        hello(watcher, created["spectator"])
        hello(elsewhere, other["tokens"]["0"])
        sockets = {0: north, 2: south}
        rng = random.Random(7)
        for _ in range(12):  # a dozen people's moves, each pushed to all three sockets
            seat = table.state.to_act
            assert seat in sockets
            choice = fh.format_action(rng.choice(fh.legal_actions(table.state)))
            answer = client.post(
                f"/tables/{table_id}/actions",
                json={"action": choice, "version": table.version},
                headers={"authorization": f"Bearer {tokens[str(seat)]}"},
            )
            assert answer.status_code == 200, answer.json()
            for ws in (north, south, watcher):
                pushed = receive(ws)
                assert pushed["type"] == "view"
                assert pushed["version"] == answer.json()["version"] == table.version
        # the other table's socket heard nothing: its next message is its own change
        elsewhere.send_json({"type": "action", "ref": "x", "action": "pass", "version": -1})
        assert receive(elsewhere)["type"] == "refused"


def test_an_action_over_the_socket_is_acked_after_its_view(client: TestClient) -> None:
    created = create(client, ["human", "heuristic", "heuristic", "heuristic"])
    table = table_of(client, created["table"])
    with client.websocket_connect(f"/tables/{created['table']}/live") as ws:
        first = hello(ws, created["tokens"]["0"])
        assert first["view"]["legal_actions"], "seat 0 is to act after the computers"
        action = first["view"]["legal_actions"][1]  # a bid: the auction goes on, or is won
        assert action != "pass"
        ws.send_json({"type": "action", "ref": "a1", "action": action, "version": first["version"]})
        view = receive(ws)
        ack = receive(ws)
        assert view["type"] == "view" and ack == {
            "type": "ack",
            "ref": "a1",
            "version": table.version,
        }
        assert view["version"] == ack["version"] > first["version"]
        assert [0, action] in inner(view)["auction"]


def test_a_change_made_in_another_thread_is_pushed_by_notify(client: TestClient) -> None:
    """The hook another process's listener calls: notify from a thread that is no loop's."""
    created = create(client, ["human", "heuristic", "heuristic", "heuristic"])
    table = table_of(client, created["table"])
    tables: Tables = client.app.state.tables  # type: ignore[attr-defined]  # Starlette's app
    with client.websocket_connect(f"/tables/{created['table']}/live") as ws:
        first = hello(ws, created["tokens"]["0"])

        def elsewhere() -> None:
            new = tables.act(table, 0, first["view"]["legal_actions"][0], first["version"])
            hub_of(client).notify(table.id, new)

        thread = threading.Thread(target=elsewhere)
        thread.start()
        thread.join(WAIT)
        assert not thread.is_alive()
        pushed = receive(ws)
        assert pushed["type"] == "view" and pushed["version"] == table.version > first["version"]


def test_a_reconnected_socket_gets_the_table_as_it_is_now(client: TestClient) -> None:
    created = create(client, ["human", "heuristic", "heuristic", "heuristic"])
    table_id, token = created["table"], created["tokens"]["0"]
    with client.websocket_connect(f"/tables/{table_id}/live") as ws:
        first = hello(ws, token)
    assert len(hub_of(client)) == 0  # the closed socket is forgotten
    answer = client.post(
        f"/tables/{table_id}/actions",
        json={"action": first["view"]["legal_actions"][0], "version": first["version"]},
        headers={"authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 200
    with client.websocket_connect(f"/tables/{table_id}/live") as ws:
        again = hello(ws, token)
    assert again["version"] == answer.json()["version"] > first["version"]


# -- spectators ---------------------------------------------------------------------------


def hidden_cards(state: fh.GameState) -> set[str]:
    """Every card no spectator may see now: the hands (but an exposed one), the kitty, the
    discards (R4.1) and the two-player dead hand (P2)."""
    cards = {str(c) for seat in range(state.rules.players) for c in state.hand(seat)}
    cards |= {str(c) for c in state.kitty or ()}
    cards |= {str(c) for c in state.discards or ()}
    cards |= {str(c) for c in state.dead_hand or ()}
    exposed = state.exposed
    if exposed is not None:
        cards -= {str(c) for c in state.hand(exposed)}
    return cards


#: Keys whose strings are calls or public facts, not cards someone holds: the auction and
#: the contract (a bid ``7C`` is written as the card), the deck's trumps, the called card (P5).
PUBLIC: frozenset[str] = frozenset({"auction", "contract", "last_hand", "trumps", "partner_card"})


def words(body: JSON) -> set[str]:
    """Every string in a JSON body, but under the keys of :data:`PUBLIC`."""
    found: set[str] = set()
    stack: list[object] = [body]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(value for key, value in item.items() if key not in PUBLIC)
        elif isinstance(item, list):
            stack.extend(item)
    return found


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_spectator_sees_no_hidden_card_R4_1(client: TestClient, players: int) -> None:
    created = create(client, ["human"] * players, players=players)
    table_id, tokens = created["table"], created["tokens"]
    table = table_of(client, table_id)
    rng = random.Random(players)
    with client.websocket_connect(f"/tables/{table_id}/live") as watcher:
        view = hello(watcher, created["spectator"])
        for _ in range(MAX_MOVES):
            assert view["view"]["seat"] is None and view["view"]["legal_actions"] == []
            assert inner(view)["hand"] == [] and inner(view)["kitty"] is None
            assert not words(view) & hidden_cards(table.state)
            if table.state.hand_number > 1 or table.state.result is not None:
                break
            seat = table.state.to_act
            assert seat is not None
            choice = fh.format_action(rng.choice(fh.legal_actions(table.state)))
            answer = client.post(
                f"/tables/{table_id}/actions",
                json={"action": choice, "version": table.version},
                headers={"authorization": f"Bearer {tokens[str(seat)]}"},
            )
            assert answer.status_code == 200, answer.json()
            view = receive(watcher)
        else:
            raise AssertionError(f"the hand did not end within {MAX_MOVES} moves")


def test_a_spectator_can_look_over_http_but_not_act(client: TestClient) -> None:
    created = create(client, ["human", "heuristic", "heuristic", "heuristic"])
    table_id, token = created["table"], created["spectator"]
    bearer = {"authorization": f"Bearer {token}"}
    looked = client.get(f"/tables/{table_id}", headers=bearer)
    assert looked.status_code == 200 and looked.json()["seat"] is None
    assert not words(looked.json()) & hidden_cards(table_of(client, table_id).state)
    acted = client.post(
        f"/tables/{table_id}/actions", json={"action": "pass", "version": 0}, headers=bearer
    )
    assert acted.status_code == 403 and acted.json()["error"] == "SPECTATOR"
    with client.websocket_connect(f"/tables/{table_id}/live") as ws:
        view = hello(ws, token)
        ws.send_json({"type": "action", "ref": 9, "action": "pass", "version": view["version"]})
        refused = receive(ws)
    assert refused["type"] == "refused" and refused["ref"] == 9
    assert refused["error"] == "SPECTATOR"


def test_the_spectator_token_survives_a_restart(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "t.db", seed="s")) as first:
        created = create(first, ["human", "heuristic", "heuristic", "heuristic"])
    with TestClient(create_app(tmp_path / "t.db", seed="s")) as second:
        looked = second.get(
            f"/tables/{created['table']}",
            headers={"authorization": f"Bearer {created['spectator']}"},
        )
        again = second.get(
            f"/tables/{created['table']}",
            headers={"authorization": f"Bearer {created['tokens']['0']}"},
        )
    assert looked.status_code == 200 and looked.json()["seat"] is None
    assert again.status_code == 200 and again.json()["seat"] == 0


# -- refusals -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "action", "ref": 1, "action": "pass", "version": -5}, "STALE_VERSION"),
        ({"type": "action", "ref": 1, "action": "7Q", "version": None}, "BAD_REQUEST"),
        ({"type": "action", "ref": 1, "action": ["pass"], "version": 0}, "BAD_REQUEST"),
        ({"type": "action", "ref": 1, "action": "x" * 101, "version": 0}, "BAD_NOTATION"),
        ({"type": "action", "ref": 1, "action": "pass", "version": 0, "x": 1}, "BAD_REQUEST"),
        ({"type": "dance", "ref": 1}, "BAD_REQUEST"),
        ({"ref": 1}, "BAD_REQUEST"),
    ],
)
def test_a_bad_message_is_refused_with_the_http_code(
    client: TestClient, message: JSON, code: str
) -> None:
    created = create(client, ["human", "heuristic", "heuristic", "heuristic"])
    with client.websocket_connect(f"/tables/{created['table']}/live") as ws:
        hello(ws, created["tokens"]["0"])
        ws.send_json(message)
        refused = receive(ws)
        assert refused["type"] == "refused" and refused["error"] == code, refused
        assert refused["ref"] == 1 and refused["message"]
        # the socket stays open and useful after a refusal
        ws.send_json({"type": "action", "ref": 2, "action": "pass", "version": -1})
        assert receive(ws)["ref"] == 2


def test_illegal_and_out_of_turn_actions_are_refused_with_the_rules_reason_R3(
    client: TestClient,
) -> None:
    created = create(client, ["human", "heuristic", "human", "heuristic"])
    table = table_of(client, created["table"])
    with (
        client.websocket_connect(f"/tables/{created['table']}/live") as north,
        client.websocket_connect(f"/tables/{created['table']}/live") as south,
    ):
        sockets = {0: north, 2: south}
        views = {0: hello(north, created["tokens"]["0"]), 2: hello(south, created["tokens"]["2"])}
        to_act = table.state.to_act
        assert to_act in sockets
        waiting = 2 if to_act == 0 else 0
        version = table.version
        sockets[waiting].send_json(
            {"type": "action", "ref": 1, "action": "pass", "version": version}
        )
        assert receive(sockets[waiting])["error"] == "NOT_YOUR_TURN"
        high = fh.format_action(fh.legal_actions(table.state)[-1])
        sockets[to_act].send_json({"type": "action", "ref": 2, "action": high, "version": version})
        assert receive_type(sockets[to_act], "ack")["ref"] == 2
        assert views[to_act]["version"] == version
        seat = table.state.to_act
        assert seat in sockets  # the computers moved at once
        if table.state.phase is fh.Phase.BIDDING:
            sockets[seat].send_json(
                {"type": "action", "ref": 3, "action": "6S", "version": table.version}
            )
            refused = receive_type(sockets[seat], "refused")
            assert refused["error"] == "BID_TOO_LOW" and "R3" in refused["message"]


def test_bytes_and_oversized_messages_are_refused(client: TestClient) -> None:
    created = create(client, ["human", "heuristic", "heuristic", "heuristic"])
    with client.websocket_connect(f"/tables/{created['table']}/live") as ws:
        hello(ws, created["tokens"]["0"])
        ws.send_bytes(b'{"type": "action"}')
        assert receive(ws)["error"] == "BAD_JSON"
        ws.send_text("{" * 10)
        assert receive(ws)["error"] == "BAD_JSON"
        ws.send_text(json.dumps({"type": "action", "ref": "r" * (MAX_MESSAGE + 1)}))
        assert receive(ws)["error"] == "TOO_LARGE"


@pytest.mark.parametrize(
    ("hello_message", "code"),
    [
        ({"type": "hello", "token": "not-a-token"}, "UNAUTHORIZED"),
        ({"type": "hello"}, "BAD_REQUEST"),
        ({"type": "action", "action": "pass", "version": 0}, "BAD_REQUEST"),
    ],
)
def test_a_bad_hello_is_refused_and_the_socket_closed(
    client: TestClient, hello_message: JSON, code: str
) -> None:
    created = create(client, ["human", "heuristic", "heuristic", "heuristic"])
    with client.websocket_connect(f"/tables/{created['table']}/live") as ws:
        ws.send_json(hello_message)
        refused = receive(ws)
        assert refused["type"] == "refused" and refused["error"] == code
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == POLICY
    assert len(hub_of(client)) == 0


def test_an_unknown_table_is_refused(client: TestClient) -> None:
    with client.websocket_connect("/tables/nothing-here/live") as ws:
        ws.send_json({"type": "hello", "token": "x"})
        assert receive(ws)["error"] == "NO_SUCH_TABLE"


def test_a_silent_client_is_closed_after_the_hello_deadline(client: TestClient) -> None:
    created = create(client, ["human", "heuristic", "heuristic", "heuristic"])
    hub_of(client).hello_timeout = 0.2
    with client.websocket_connect(f"/tables/{created['table']}/live") as ws:
        refused = receive(ws)
        assert refused["error"] == "REQUEST_TIMEOUT"
        with pytest.raises(WebSocketDisconnect):
            receive(ws)


# -- bounds -------------------------------------------------------------------------------


def test_sockets_are_bounded_per_table_and_in_all(client: TestClient) -> None:
    hub = hub_of(client)
    hub.max_table_sockets, hub.max_sockets = 3, 5
    first = create(client, ["human", "heuristic", "heuristic", "heuristic"])
    second = create(client, ["human", "heuristic", "heuristic", "heuristic"])
    third = create(client, ["human", "heuristic", "heuristic", "heuristic"])

    def connect(created: JSON) -> Any:
        ws = client.websocket_connect(f"/tables/{created['table']}/live").__enter__()
        ws.send_json({"type": "hello", "token": created["tokens"]["0"]})
        return ws

    opened = [connect(first) for _ in range(3)]
    for ws in opened:
        assert receive(ws)["type"] == "view"
    over = connect(first)
    assert receive(over)["error"] == "BUSY"
    with pytest.raises(WebSocketDisconnect) as closed:
        receive(over)
    assert closed.value.code == TRY_LATER
    opened += [connect(second) for _ in range(2)]
    for ws in opened[3:]:
        assert receive(ws)["type"] == "view"
    assert len(hub) == 5
    over_all = connect(third)
    assert receive(over_all)["error"] == "BUSY"
    for ws in [*opened, over, over_all]:
        ws.__exit__(None, None, None)
    assert len(hub) == 0


def test_many_sockets_each_get_every_push(client: TestClient) -> None:
    created = create(client, ["human", "heuristic", "heuristic", "heuristic"])
    table = table_of(client, created["table"])
    token = created["tokens"]["0"]
    sockets = [
        client.websocket_connect(f"/tables/{created['table']}/live").__enter__() for _ in range(20)
    ]
    try:
        for ws in sockets:
            hello(ws, token if sockets.index(ws) % 2 else created["spectator"])
        legal = fh.format_action(fh.legal_actions(table.state)[0])
        answer = client.post(
            f"/tables/{created['table']}/actions",
            json={"action": legal, "version": table.version},
            headers={"authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 200
        for ws in sockets:
            assert receive(ws)["version"] == table.version
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


def test_a_full_outbox_closes_only_that_socket() -> None:
    tables = Tables(":memory:", seed="outbox")
    table, _ = tables.create({}, ["human", "heuristic", "heuristic", "heuristic"])
    slow, quick = Socket(table, 0, limit=2), Socket(table, None, limit=2)
    for n in range(3):
        slow.put({"type": "ack", "ref": n, "version": 0})
    quick.put({"type": "ack", "ref": 0, "version": 0})
    assert slow.overflowed and len(slow.outbox) == 2
    assert not quick.overflowed and len(quick.outbox) == 1


def test_a_send_that_never_ends_times_out() -> None:
    class Stuck:
        app = None

        async def send_text(self, text: str) -> None:
            await anyio.sleep_forever()

    tables = Tables(":memory:", seed="stuck")
    table, _ = tables.create({}, ["human", "heuristic", "heuristic", "heuristic"])
    hub = Hub(send_timeout=0.05)
    live = Live(Stuck(), hub, tables, Socket(table, 0))  # type: ignore[arg-type]  # a fake socket

    async def main() -> None:
        with anyio.fail_after(WAIT):
            await live.send("{}")

    with pytest.raises(TimeoutError):
        anyio.run(main)


def test_notify_before_any_socket_and_for_a_table_without_sockets_does_nothing() -> None:
    hub = Hub()
    hub.notify("nothing", 3)  # no loop yet: nothing to wake
    hub.publish("nothing", {"type": "review"})
    assert len(hub) == 0 and hub.sockets("nothing") == []


def test_a_change_under_way_is_not_shown_until_it_is_stored() -> None:
    """A worker thread's change moves the version and the state before its commit; until
    the commit (``publish``), every answer is the table as stored, so no player sees a
    move that a failed commit or a race lost to another process then takes back."""
    tables = Tables(":memory:", seed="half")
    table, _ = tables.create({}, ["human", "heuristic", "heuristic", "heuristic"])
    stored = json.loads(table.answer(0))
    done = fh.apply(table.state, fh.legal_actions(table.state)[0], seat=0)
    with table.lock:  # what Tables.act holds while it works
        table.version += 1  # the version has moved, then the state
        assert json.loads(table.answer(0)) == stored
        table.state = done
        assert json.loads(table.answer(0)) == stored
        watched = json.loads(table.spectate())
        assert watched["version"] == stored["version"]
        assert watched["view"]["view"]["auction"] == stored["view"]["view"]["auction"]
        table.publish()  # the commit succeeded
    after = json.loads(table.answer(0))
    assert after["version"] == stored["version"] + 1
    assert len(after["view"]["view"]["auction"]) == len(stored["view"]["view"]["auction"]) + 1
    assert (
        json.loads(table.spectate())["view"]["view"]["auction"] == after["view"]["view"]["auction"]
    )


def test_a_move_whose_commit_fails_is_never_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    tables = Tables(":memory:", seed="fails")
    table, _ = tables.create({}, ["human", "heuristic", "heuristic", "heuristic"])
    stored = table.answer(0)
    seen: list[bytes] = []

    def failing(*args: object, **kwargs: object) -> None:
        seen.append(table.answer(0))  # a reader while the commit is under way
        raise OSError("disk gone")

    monkeypatch.setattr(tables._store, "append", failing)
    action = fh.format_action(fh.legal_actions(table.state)[0])
    with pytest.raises(OSError):
        tables.act(table, 0, action, table.version)
    assert seen == [stored]
    assert table.answer(0) == stored


def test_a_message_that_is_no_object_or_has_a_bad_ref_is_refused(client: TestClient) -> None:
    created = create(client, ["human", "heuristic", "heuristic", "heuristic"])
    with client.websocket_connect(f"/tables/{created['table']}/live") as ws:
        hello(ws, created["tokens"]["0"])
        ws.send_json([1, 2])
        refused = receive(ws)
        assert refused["error"] == "BAD_REQUEST" and "object" in refused["message"]
        # a ref that cannot be carried back is refused before the action is judged
        for ref in (["x"], "r" * 65, True, 1.5):
            ws.send_json({"type": "action", "ref": ref, "action": "pass", "version": -1})
            refused = receive(ws)
            assert (refused["error"], refused["ref"]) == ("BAD_REQUEST", None)
            assert "a ref is a whole number or a text of at most 64" in refused["message"]
        ws.send_json({"type": "action", "ref": "r" * 64, "action": "pass", "version": -1})
        assert receive(ws)["ref"] == "r" * 64


@pytest.mark.parametrize(
    ("text", "code", "said"),
    [
        (
            '{"type":"action","ref":"\\udfff\\ud800","action":"pass","version":0}',
            "BAD_TEXT",
            "lone surrogate",
        ),
        (
            '{"type":"action","ref":1,"action":"pass","version":' + "9" * 300 + "}",
            "BAD_NUMBER",
            "over 2**53",
        ),
        (
            '{"type":"action","ref":' + str(2**53 + 1) + ',"action":"pass","version":0}',
            "BAD_NUMBER",
            "over 2**53",
        ),
        ('{"type":"action","ref":1e400,"action":"pass","version":0}', "BAD_NUMBER", "finite"),
        ("[" * 2000 + "]" * 2000, "BAD_JSON", "nested over 4 deep"),
    ],
    ids=["surrogates", "huge-version", "huge-ref", "infinite", "deep"],
)
def test_a_message_is_checked_as_a_request_body_is(
    client: TestClient, text: str, code: str, said: str
) -> None:
    """The checks of an HTTP body, on every socket message: a lone surrogate, a number no
    answer can hold, nesting Python's parser would recurse into; refused before anything is
    done, and the socket stays open."""
    created = create(client, ["human", "heuristic", "heuristic", "heuristic"])
    with client.websocket_connect(f"/tables/{created['table']}/live") as ws:
        hello(ws, created["tokens"]["0"])
        ws.send_text(text)
        refused = receive(ws)
        assert (refused["type"], refused["error"], refused["ref"]) == ("refused", code, None)
        assert said in refused["message"]
        ws.send_json({"type": "action", "ref": 2, "action": "pass", "version": -1})
        assert receive(ws)["ref"] == 2


def test_a_notify_without_a_change_sends_no_view(client: TestClient) -> None:
    created = create(client, ["human", "heuristic", "heuristic", "heuristic"])
    with client.websocket_connect(f"/tables/{created['table']}/live") as ws:
        hello(ws, created["tokens"]["0"])
        # both from this thread, not the loop's: handed to the loop in order
        hub_of(client).notify(created["table"], 0)
        hub_of(client).publish(created["table"], {"type": "note"})
        ws.send_json({"type": "action", "ref": 1, "action": "pass", "version": -1})
        assert receive(ws)["type"] == "note"  # the view had not changed: none was sent
        assert receive(ws)["type"] == "refused"


def test_claims_over_the_socket_outside_the_play_or_malformed_are_refused(
    client: TestClient,
) -> None:
    created = create(client, ["human", "heuristic", "heuristic", "heuristic"])
    table = table_of(client, created["table"])
    with client.websocket_connect(f"/tables/{created['table']}/live") as ws:
        hello(ws, created["tokens"]["0"])
        ws.send_json({"type": "claim", "ref": 1, "version": table.version, "tricks": 3})
        assert receive(ws)["error"] == "BAD_REQUEST"
        ws.send_json({"type": "claim", "ref": 2, "version": table.version})
        assert receive(ws)["error"] == "NOT_IN_PLAY"  # the auction is on
        ws.send_json({"type": "claim", "ref": 3, "version": table.version + 5})
        assert receive(ws)["error"] == "STALE_VERSION"


def test_an_action_at_a_table_with_a_search_player_is_answered(client: TestClient) -> None:
    created = create(client, ["human", "search", "heuristic", "heuristic"], players=4)
    table = table_of(client, created["table"])
    with client.websocket_connect(f"/tables/{created['table']}/live") as ws:
        first = hello(ws, created["tokens"]["0"])
        ws.send_json({"type": "action", "ref": 1, "action": "pass", "version": first["version"]})
        assert receive_type(ws, "ack")["version"] == table.version > first["version"]


def test_an_overflowing_socket_is_closed_by_its_writer() -> None:
    class Recorder:
        app = None

        def __init__(self) -> None:
            self.closed: list[int] = []
            self.sent: list[str] = []

        async def send_text(self, text: str) -> None:
            self.sent.append(text)

        async def close(self, code: int, reason: str = "") -> None:
            self.closed.append(code)

    tables = Tables(":memory:", seed="overflow")
    table, _ = tables.create({}, ["human", "heuristic", "heuristic", "heuristic"])
    socket = Socket(table, 0, limit=1)
    recorder = Recorder()
    live = Live(recorder, Hub(), tables, socket)  # type: ignore[arg-type]  # a fake socket
    socket.put({"type": "ack", "ref": 1, "version": 0})
    socket.put({"type": "ack", "ref": 2, "version": 0})  # over the limit of 1

    async def main() -> None:
        with anyio.fail_after(WAIT):
            await live.writer()

    anyio.run(main)
    assert recorder.closed == [POLICY] and recorder.sent == []
