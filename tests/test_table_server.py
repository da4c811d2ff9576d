"""The example table server (examples/table_server.py) over real HTTP on the loopback address.

A server is started on 127.0.0.1 with a port the system picks, for each test,
and shut down afterwards. Bots play whole games through it from the views it
serves; a seat's token reads only that seat's view and acts only for it; and
every malformed or unauthorised request gets a 4xx answer and changes nothing.
"""

from __future__ import annotations

import http.client
import json
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import fivehundred as fh
from fivehundred.bots import HeuristicPlayer, RandomPlayer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
import table_server
from table_server import Client, Table, TableServer

from subprocesses import python_env

EXAMPLES = Path(table_server.__file__).resolve().parent

#: Seconds any one request may take.
TIMEOUT = 10.0


@pytest.fixture
def server() -> Iterator[TableServer]:
    """A table server for a seeded four-player game, on a free loopback port."""
    table = Table(fh.Rules(), seed=11)
    served = table_server.make_server(table, "127.0.0.1", 0)
    thread = threading.Thread(target=served.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield served
    finally:
        served.shutdown()
        served.server_close()
        thread.join(timeout=TIMEOUT)
    assert not thread.is_alive()


def client(server: TableServer, seat: int | None) -> Client:
    token = None if seat is None else server.table.tokens[seat]
    return Client(server.url, token, timeout=TIMEOUT)


def raw(
    server: TableServer,
    method: str,
    path: str,
    body: bytes = b"",
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, Any]]:
    """A request written by hand (http.client), for requests urllib would not send."""
    host, port = server.server_address[:2]
    connection = http.client.HTTPConnection(str(host), port, timeout=TIMEOUT)
    try:
        connection.putrequest(method, path, skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        connection.endheaders(body or None)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def strings(document: object, skip: frozenset[str] = frozenset()) -> set[str]:
    """Every string value in a JSON document, leaving out the values of the ``skip`` keys."""
    if isinstance(document, str):
        return {document}
    if isinstance(document, dict):
        found: set[str] = set()
        for key, value in document.items():
            if key not in skip:
                found |= strings(value, skip)
        return found
    if isinstance(document, list):
        return set().union(*(strings(value, skip) for value in document))
    return set()


# -- playing over HTTP -----------------------------------------------------------------


def test_bots_play_a_whole_game_over_http(server: TableServer) -> None:
    rng = random.Random(5)
    players = [HeuristicPlayer(random.Random(rng.getrandbits(32))) for _ in range(4)]
    final = table_server.play_over_http(server.url, server.table.tokens, players, max_actions=5000)
    state = server.table.state
    assert state.is_over and state.result is not None
    assert final["phase"] == "game_over" and final["to_act"] is None
    assert final["scores"] == list(state.scores)
    assert final["winners"] == list(state.result.winners)
    assert final["moves"] == server.table.moves > 40
    assert state.hand_number > 1  # the server dealt the later hands itself
    assert fh.replay(fh.record(state)) == state  # every accepted action was legal


def test_random_players_finish_a_game_and_every_view_matches_observe(
    server: TableServer,
) -> None:
    players = [RandomPlayer(random.Random(seat)) for seat in range(4)]
    seats = {seat: client(server, seat) for seat in range(4)}
    for _ in range(2000):
        state = server.table.state
        if state.is_over:
            break
        assert state.to_act is not None
        for seat, seat_client in seats.items():
            assert seat_client.view() == fh.observe(state, seat)
        status, answer = seats[state.to_act].act(
            players[state.to_act].choose(seats[state.to_act].view())
        )
        assert status == 200, answer
        assert answer["seat"] == state.to_act
    assert server.table.state.is_over


def test_an_accepted_action_answers_the_new_view(server: TableServer) -> None:
    seat = server.table.state.to_act
    assert seat is not None
    status, answer = client(server, seat).act("pass")
    assert status == 200
    assert answer["accepted"] == "pass"
    assert answer["moves"] == 1
    assert fh.view_from_dict(answer["view"]) == fh.observe(server.table.state, seat)


def test_the_public_table_shows_no_cards(server: TableServer) -> None:
    state = server.table.state
    cards = {str(card) for hand in state.hands for card in hand} | {str(c) for c in state.kitty}
    status, body = raw(server, "GET", "/")
    assert status == 200
    assert body["to_act"] == state.to_act and body["phase"] == "bidding"
    assert not strings(body) & cards


# -- secrecy and seats --------------------------------------------------------------------


def test_a_token_reads_only_its_own_seats_hand(server: TableServer) -> None:
    state = server.table.state
    for seat in range(4):
        status, body = client(server, seat).request("GET", "/view")
        assert status == 200 and body["seat"] == seat
        hidden = {
            str(card) for other in range(4) if other != seat for card in state.hand(other)
        } | {str(card) for card in state.kitty}
        # the legal calls (7H...) are written like cards: they are checked apart
        seen = strings(body, frozenset({"legal_actions"}))
        assert {str(card) for card in state.hand(seat)} <= seen
        assert not seen & hidden, f"seat {seat} sees {sorted(seen & hidden)}"
        legal = body["view"]["view"]["legal_actions"]
        assert all(isinstance(fh.parse_call(text), fh.Call) for text in legal)
        assert bool(legal) == (seat == state.to_act)


def test_asking_for_another_seat_still_answers_your_own(server: TableServer) -> None:
    for path in ("/view?seat=1", "/view/1", "/view?token=" + server.table.tokens[1]):
        status, body = client(server, 0).request("GET", path)
        if status == 200:
            assert body["seat"] == 0
            assert fh.view_from_dict(body["view"]) == fh.observe(server.table.state, 0)
        else:
            assert status == 404


def test_a_token_cannot_act_for_another_seat(server: TableServer) -> None:
    before = server.table.state
    to_act = before.to_act
    assert to_act is not None
    other = (to_act + 1) % 4
    status, body = client(server, other).act("pass")
    assert status == 409
    assert body["error"] == "NOT_YOUR_TURN"
    assert f"seat {to_act}" in body["message"]
    status, body = client(server, other).request(
        "POST", "/action", json.dumps({"action": "pass", "seat": to_act}).encode()
    )
    assert status == 400 and body["error"] == "BAD_REQUEST"
    assert server.table.state is before and server.table.moves == 0


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic abc"}, {"Authorization": ""}],
)
def test_no_token_or_a_wrong_token_is_unauthorised(
    server: TableServer, headers: dict[str, str]
) -> None:
    before = server.table.state
    body = json.dumps({"action": "pass"}).encode()
    for method, path, data in (("GET", "/view", b""), ("POST", "/action", body)):
        sent = dict(headers, **({"Content-Length": str(len(data))} if data else {}))
        status, answer = raw(server, method, path, data, sent)
        assert status == 401 and answer["error"] == "UNAUTHORIZED"
    assert server.table.state is before


def test_a_token_of_the_right_length_but_wrong_is_refused(server: TableServer) -> None:
    token = server.table.tokens[0]
    wrong = ("A" if token[0] != "A" else "B") + token[1:]
    status, _ = Client(server.url, wrong, timeout=TIMEOUT).request("GET", "/view")
    assert status == 401


# -- illegal and malformed requests ----------------------------------------------------------


def test_an_illegal_action_is_refused_with_its_reason_code(server: TableServer) -> None:
    before = server.table.state
    seat = before.to_act
    assert seat is not None
    status, body = client(server, seat).act("M")  # misère needs a standing seven (R3.4)
    assert status == 409
    assert body["error"] == "MISERE_NEEDS_SEVEN" and "R3.4" in body["message"]
    status, body = client(server, seat).act("KS")  # a card during the auction
    assert status in (400, 409)
    status, body = client(server, seat).act("discard 4D 5D 6D")
    assert status == 409 and body["error"] == "WRONG_PHASE"
    assert server.table.state is before and server.table.moves == 0


def test_every_reason_code_the_server_sends_is_a_reason(server: TableServer) -> None:
    seat = server.table.state.to_act
    assert seat is not None
    for text in ("M", "partner AH", "nominate H", "Jo:H", "decline"):
        status, body = client(server, seat).act(text)
        assert 400 <= status < 500
        if status == 409:
            assert fh.Reason(body["error"]) in fh.Reason


MALFORMED: list[tuple[str, str, bytes, dict[str, str], int, str]] = [
    ("POST", "/action", b"{not json", {}, 400, "BAD_JSON"),
    ("POST", "/action", b"\xff\xfe", {}, 400, "BAD_JSON"),
    ("POST", "/action", b'["pass"]', {}, 400, "BAD_JSON"),
    ("POST", "/action", b"{}", {}, 400, "BAD_REQUEST"),
    ("POST", "/action", b'{"action": 7}', {}, 400, "BAD_REQUEST"),
    ("POST", "/action", b'{"action": null}', {}, 400, "BAD_REQUEST"),
    ("POST", "/action", b'{"action": "seven hearts"}', {}, 400, "BAD_NOTATION"),
    ("POST", "/action", b'{"action": ""}', {}, 400, "BAD_NOTATION"),
    ("POST", "/action", b'{"action": "pass"}', {"Content-Length": "-3"}, 400, "BAD_REQUEST"),
    ("POST", "/action", b'{"action": "pass"}', {"Content-Length": "ten"}, 400, "BAD_REQUEST"),
    ("POST", "/action", b"", {"Content-Length": "100000"}, 413, "TOO_LARGE"),
    ("POST", "/action", b"", {"Content-Length": ""}, 400, "BAD_REQUEST"),
    ("POST", "/view", b"{}", {}, 405, "METHOD_NOT_ALLOWED"),
    ("GET", "/action", b"", {}, 405, "METHOD_NOT_ALLOWED"),
    ("DELETE", "/view", b"", {}, 405, "METHOD_NOT_ALLOWED"),
    ("PUT", "/action", b"{}", {}, 405, "METHOD_NOT_ALLOWED"),
    ("GET", "/nowhere", b"", {}, 404, "NOT_FOUND"),
    ("POST", "/", b"{}", {}, 405, "METHOD_NOT_ALLOWED"),
    ("POST", "/actions", b"{}", {}, 404, "NOT_FOUND"),
]


@pytest.mark.parametrize(
    "case", MALFORMED, ids=[f"{m} {p} {b[:12]!r} {h}" for m, p, b, h, _, _ in MALFORMED]
)
def test_malformed_requests_get_4xx_and_change_nothing(
    server: TableServer, case: tuple[str, str, bytes, dict[str, str], int, str]
) -> None:
    method, path, body, headers, status, code = case
    before = server.table.state
    seat = before.to_act
    assert seat is not None
    sent = {"Authorization": f"Bearer {server.table.tokens[seat]}"}
    if body or method in ("POST", "PUT"):
        sent["Content-Length"] = str(len(body))
    sent.update(headers)
    got, answer = raw(server, method, path, body, sent)
    assert (got, answer["error"]) == (status, code), answer
    assert isinstance(answer["message"], str) and answer["message"]
    assert server.table.state is before and server.table.moves == 0


def test_a_post_without_a_length_is_refused(server: TableServer) -> None:
    before = server.table.state
    token = server.table.tokens[0]
    status, answer = raw(server, "POST", "/action", b"", {"Authorization": f"Bearer {token}"})
    assert (status, answer["error"]) == (411, "LENGTH_REQUIRED")
    assert server.table.state is before


def test_after_the_game_is_over_actions_are_refused(server: TableServer) -> None:
    players = [RandomPlayer(random.Random(seat)) for seat in range(4)]
    table_server.play_over_http(server.url, server.table.tokens, players, max_actions=5000)
    over = server.table.state
    status, body = client(server, 0).act("pass")
    assert status == 409 and body["error"] == "GAME_OVER"
    assert server.table.state is over
    assert client(server, 0).view().phase is fh.Phase.GAME_OVER


# -- the program ------------------------------------------------------------------------------


def test_the_demo_plays_a_game_over_http() -> None:
    import io

    out = io.StringIO()
    assert table_server.main(["--demo", "--seed", "2"], out=out) == 0
    text = out.getvalue()
    assert text.startswith("serving a game at http://127.0.0.1:")
    assert "hand 1:" in text and "game over: side" in text


def test_the_program_serves_until_stopped() -> None:
    """``python examples/table_server.py --port 0`` prints its address and tokens, and serves."""
    process = subprocess.Popen(
        [sys.executable, str(EXAMPLES / "table_server.py"), "--port", "0", "--seed", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=python_env(),
    )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(5)]  # the address, then 4 seats
        url = lines[0].split()[4]
        assert url.startswith("http://127.0.0.1:"), lines[0]
        tokens = {seat: line.split()[-1] for seat, line in enumerate(lines[1:])}
        status, body = Client(url, tokens[2], timeout=TIMEOUT).request("GET", "/view")
        assert status == 200 and body["seat"] == 2
        assert Client(url, timeout=TIMEOUT).table()["players"] == 4
    finally:
        process.terminate()
        process.wait(timeout=TIMEOUT)


def test_read_action_reads_other_phases_for_a_wrong_phase_answer() -> None:
    state = fh.deal(fh.new_game(dealer=3), seed=7)
    assert table_server.read_action("7H", state) == fh.parse_call("7H")
    assert table_server.read_action("discard 4D 5D 6D", state) == fh.Discard(
        fh.parse_cards("4D 5D 6D")
    )
    with pytest.raises(fh.NotationError):
        table_server.read_action("seven hearts", state)
