"""A small HTTP JSON server that hosts one game of Five Hundred (standard library only).

The server holds the authoritative game state. Each seat has a secret token; a
client sends it as ``Authorization: Bearer TOKEN``. A seat sees only its own
view of the game (:func:`fivehundred.observe`, as a ``player_view`` JSON
document: see docs/json-format.md) and may act only for itself. Every action
is checked by the library; an illegal one is refused with its reason code and
changes nothing. The server deals each hand itself, from its own seeded random
source.

API (every answer is a JSON object)::

    GET  /         the table in public: rules, phase, seat to act, scores (no cards)
    GET  /view     your seat's view
    POST /action   {"action": "7H"} in action notation: 7H, pass, discard 4D 5D 6D,
                   nominate H, decline, partner AH, KS, Jo:H; answers your new view

Refusals are ``{"error": CODE, "message": TEXT}``: 400 ``BAD_JSON``,
``BAD_REQUEST`` or ``BAD_NOTATION``; 401 ``UNAUTHORIZED`` (no or unknown token);
404 ``NOT_FOUND``; 405 ``METHOD_NOT_ALLOWED``; 408 ``REQUEST_TIMEOUT``; 411
``LENGTH_REQUIRED``; 413 ``TOO_LARGE``; and 409 with the library's reason code
(``NOT_YOUR_TURN``, ``MUST_FOLLOW_SUIT``, …) for an action the rules refuse.

Run it::

    python examples/table_server.py --seed 1          # serve on 127.0.0.1:8500
    python examples/table_server.py --demo --seed 1   # four bots play it over HTTP

The first prints each seat's token. It listens on the loopback address unless
told otherwise; tokens travel in clear text, so put it behind HTTPS before
serving anyone else.
"""

from __future__ import annotations

import argparse
import hmac
import json
import random
import secrets
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TextIO
from urllib.parse import urlsplit

import fivehundred as fh
from fivehundred.bots import HeuristicPlayer, Player

#: The largest request body the server reads, in bytes.
MAX_BODY = 4096
#: JSON documents are objects with string keys.
JSON = dict[str, Any]


def error(code: str, message: str) -> JSON:
    return {"error": code, "message": message}


class Table:
    """One game and its seats' tokens; every method is safe to call from many threads."""

    def __init__(self, rules: fh.Rules | None = None, *, seed: int | None = None) -> None:
        rules = rules if rules is not None else fh.Rules()
        self._lock = threading.Lock()
        self._rng = random.Random(seed)
        self.tokens: dict[int, str] = {
            seat: secrets.token_urlsafe(24) for seat in range(rules.players)
        }
        first = fh.new_game(rules, dealer=self._rng.randrange(rules.players))
        self._state = fh.deal(first, rng=self._rng)
        #: The number of actions accepted so far.
        self.moves = 0

    @property
    def state(self) -> fh.GameState:
        """The authoritative state (an immutable value: safe to read at any time)."""
        return self._state

    def seat_of(self, token: str) -> int | None:
        """The seat a token belongs to, compared in constant time; ``None`` if none."""
        found = None
        for seat, known in self.tokens.items():
            if hmac.compare_digest(known.encode(), token.encode()):
                found = seat
        return found

    def public(self) -> JSON:
        """What everyone may know about the table: no cards at all."""
        with self._lock:
            state, moves = self._state, self.moves
        result = state.result
        return {
            "players": state.rules.players,
            "rules": fh.rules_options(state.rules),
            "sides": [list(seats) for seats in state.rules.sides],
            "hand_number": state.hand_number,
            "phase": state.phase.value,
            "to_act": state.to_act,
            "scores": list(state.scores),
            "moves": moves,
            "winners": None if result is None else list(result.winners),
        }

    def view(self, seat: int) -> JSON:
        """The seat's view, as a ``player_view`` document, with the move count."""
        with self._lock:
            state, moves = self._state, self.moves
        return {"seat": seat, "moves": moves, "view": fh.view_to_dict(fh.observe(state, seat))}

    def act(self, seat: int, text: str) -> tuple[int, JSON]:
        """Apply ``seat``'s action written in action notation: (HTTP status, answer)."""
        with self._lock:
            state = self._state
            try:
                action = read_action(text, state)
            except fh.NotationError as err:
                return 400, error("BAD_NOTATION", str(err))
            try:
                state = fh.apply(state, action, seat=seat)
            except fh.IllegalActionError as err:
                return 409, error(err.reason.value, str(err))
            if state.phase is fh.Phase.DEAL:  # the hand is over: deal the next one
                state = fh.deal(state, rng=self._rng)
            self._state = state
            self.moves += 1
        return 200, {"accepted": fh.format_action(action), **self.view(seat)}


def read_action(text: str, state: fh.GameState) -> fh.Action:
    """Read an action in the phase the game is in (``7H`` is a bid or a card).

    Text that is an action of another phase is still read, so that the library
    can refuse it with ``WRONG_PHASE`` rather than as bad notation.
    """
    phase = state.phase if state.to_act is not None else None
    try:
        return fh.parse_action(text, phase=phase)
    except fh.NotationError:
        if phase is None:
            raise
        try:
            return fh.parse_action(text)
        except fh.NotationError:
            pass
        raise


class TableServer(ThreadingHTTPServer):
    """An HTTP server for one :class:`Table`."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], table: Table, *, verbose: bool = False) -> None:
        super().__init__(address, Handler)
        self.table = table
        self.verbose = verbose

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"


class Handler(BaseHTTPRequestHandler):
    """The three routes; everything else is refused with a JSON error."""

    server: TableServer
    #: Seconds a client may take to send its request.
    timeout = 10

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        if path == "/":
            self.reply(200, self.server.table.public())
        elif path == "/view":
            seat = self.authenticate()
            if seat is not None:
                self.reply(200, self.server.table.view(seat))
        else:
            self.not_here(path)

    def do_POST(self) -> None:
        path = urlsplit(self.path).path
        if path != "/action":
            self.not_here(path)
            return
        body = self.read_json()
        if body is None:
            return
        seat = self.authenticate()
        if seat is None:
            return
        if set(body) != {"action"} or not isinstance(body["action"], str):
            self.reply(400, error("BAD_REQUEST", 'send {"action": "..."} and nothing else'))
            return
        self.reply(*self.server.table.act(seat, body["action"]))

    def do_PUT(self) -> None:
        self.not_here(urlsplit(self.path).path)

    do_DELETE = do_PATCH = do_HEAD = do_PUT

    def not_here(self, path: str) -> None:
        if path in ("/", "/view", "/action"):
            allowed = "POST" if path == "/action" else "GET"
            self.reply(
                405,
                error("METHOD_NOT_ALLOWED", f"{path} takes {allowed}, not {self.command}"),
                {"Allow": allowed},
            )
        else:
            self.reply(404, error("NOT_FOUND", f"no such route: {path[:100]!r}"))

    def authenticate(self) -> int | None:
        """The seat of the request's bearer token, or ``None`` after answering 401."""
        scheme, _, token = self.headers.get("Authorization", "").partition(" ")
        seat = self.server.table.seat_of(token.strip()) if scheme.lower() == "bearer" else None
        if seat is None:
            self.reply(
                401,
                error("UNAUTHORIZED", "send your seat's token: Authorization: Bearer TOKEN"),
                {"WWW-Authenticate": "Bearer"},
            )
        return seat

    def read_json(self) -> JSON | None:
        """The request body as a JSON object, or ``None`` after answering the problem."""
        length_text = self.headers.get("Content-Length")
        if length_text is None:
            self.reply(411, error("LENGTH_REQUIRED", "send a Content-Length"))
            return None
        try:
            length = int(length_text)
        except ValueError:
            length = -1
        if length < 0:
            self.reply(400, error("BAD_REQUEST", "Content-Length is not a size"))
            return None
        if length > MAX_BODY:
            self.reply(413, error("TOO_LARGE", f"the body is limited to {MAX_BODY} bytes"))
            return None
        try:
            raw = self.rfile.read(length)
        except TimeoutError:
            self.reply(408, error("REQUEST_TIMEOUT", "the body did not arrive in time"))
            return None
        try:
            body = json.loads(raw)
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            self.reply(400, error("BAD_JSON", f"the body is not JSON: {err}"))
            return None
        if not isinstance(body, dict):
            self.reply(400, error("BAD_JSON", "the body must be a JSON object"))
            return None
        return body

    def reply(self, status: int, body: JSON, headers: Mapping[str, str] | None = None) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.verbose:
            super().log_message(format, *args)


def make_server(
    table: Table, host: str = "127.0.0.1", port: int = 0, *, verbose: bool = False
) -> TableServer:
    """A server for ``table``; ``port=0`` picks a free port (see ``server.url``)."""
    return TableServer((host, port), table, verbose=verbose)


# -- a client ---------------------------------------------------------------------------


class Client:
    """A seat's client of the server, on urllib (no proxies: it talks to the server only)."""

    def __init__(self, url: str, token: str | None = None, *, timeout: float = 10.0) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> tuple[int, JSON]:
        """Send one request: (HTTP status, the JSON answer)."""
        sent = dict(headers or {})
        if self.token is not None:
            sent.setdefault("Authorization", f"Bearer {self.token}")
        if body is not None:
            sent.setdefault("Content-Type", "application/json")
        request = urllib.request.Request(self.url + path, data=body, headers=sent, method=method)
        try:
            with self._opener.open(request, timeout=self.timeout) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as err:
            with err:
                return err.code, json.loads(err.read())

    def table(self) -> JSON:
        status, body = self.request("GET", "/")
        if status != 200:
            raise RuntimeError(f"GET / answered {status}: {body}")
        return body

    def view(self) -> fh.PlayerView:
        """This seat's view, read back into a :class:`fivehundred.PlayerView`."""
        status, body = self.request("GET", "/view")
        if status != 200:
            raise RuntimeError(f"GET /view answered {status}: {body}")
        return fh.view_from_dict(body["view"])

    def act(self, action: fh.Action | str) -> tuple[int, JSON]:
        text = action if isinstance(action, str) else fh.format_action(action)
        return self.request("POST", "/action", json.dumps({"action": text}).encode())


def play_over_http(
    url: str,
    tokens: Mapping[int, str],
    players: Sequence[Player],
    *,
    max_actions: int = 20_000,
    out: TextIO | None = None,
) -> JSON:
    """Let ``players`` play the server's game to its end, each from its served view.

    Returns the public table at the end. Stops with ``RuntimeError`` if an
    action is refused or the game takes more than ``max_actions`` actions.
    """
    clients = {seat: Client(url, token) for seat, token in tokens.items()}
    public = Client(url)
    reported = 0
    for _ in range(max_actions):
        table = public.table()
        seat = table["to_act"]
        finished = table["hand_number"] - (0 if seat is None else 1)
        if out is not None and finished > reported:
            reported = finished
            report_hand(clients[0].view(), out)
        if seat is None:
            return table
        view = clients[seat].view()
        status, answer = clients[seat].act(players[seat].choose(view))
        if status != 200:
            raise RuntimeError(f"seat {seat}'s action was refused: {answer}")
    raise RuntimeError(f"the game did not end within {max_actions} actions")


def report_hand(view: fh.PlayerView, out: TextIO) -> None:
    hand = view.last_hand
    if hand is None:
        return
    if hand.contract is None:
        what = "played at No Trumps after all passed" if hand.all_pass else "thrown in"
        print(f"hand {hand.number}: {what}", file=out)
        return
    verdict = "made" if hand.made else "failed"
    scores = " ".join(map(str, hand.scores))
    print(
        f"hand {hand.number}: {hand.contract} by seat {hand.contractor} {verdict}; scores {scores}",
        file=out,
    )


def demo(seed: int, rules: fh.Rules, out: TextIO) -> JSON:
    """Serve a game on a free loopback port and let four bots play it over HTTP."""
    table = Table(rules, seed=seed)
    server = make_server(table)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        print(f"serving a game at {server.url}; bots play it over HTTP", file=out)
        rng = random.Random(seed)
        players = [HeuristicPlayer(random.Random(rng.getrandbits(64))) for _ in table.tokens]
        final = play_over_http(server.url, table.tokens, players, out=out)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
    winners = " and ".join(f"side {side}" for side in final["winners"] or [])
    print(f"game over: {winners} won after {final['moves']} actions", file=out)
    return final


def main(argv: Sequence[str] | None = None, *, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(
        prog="table_server.py", description="Host a game of Five Hundred over HTTP."
    )
    parser.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8500, help="port (default 8500; 0: any)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deals")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7), help="2 to 6")
    parser.add_argument("--american", action="store_true", help="American 500 rules")
    parser.add_argument("--demo", action="store_true", help="let bots play a game over HTTP")
    parser.add_argument("--verbose", action="store_true", help="log every request")
    args = parser.parse_args(argv)
    preset = fh.Rules.american if args.american else fh.Rules.australian
    rules = preset(players=args.players)
    if args.demo:
        demo(args.seed if args.seed is not None else 1, rules, out)
        return 0
    table = Table(rules, seed=args.seed)
    server = make_server(table, args.host, args.port, verbose=args.verbose)
    print(f"Five Hundred table at {server.url}  (Ctrl-C stops it)", file=out)
    for seat, token in table.tokens.items():
        print(f"  seat {seat}: Authorization: Bearer {token}", file=out)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print("warning: tokens travel in clear text; serve this behind HTTPS", file=sys.stderr)
    out.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
