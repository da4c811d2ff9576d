"""The web layer of the game server: a Starlette application over :class:`~.tables.Tables`.

Routes (every answer is JSON, except the browser table's files)::

    GET  /                       the browser table (static/index.html)
    GET  /static/...             its script and style sheet
    POST /tables                 {"rules": {...}, "seats": ["human", "heuristic", ...]}
                                 -> 201 {"table", "tokens": {"0": TOKEN}, "spectator": TOKEN,
                                         "version", "seats"}
    GET  /tables/{id}            Authorization: Bearer TOKEN -> the seat's view (a spectator's:
                                 no hidden card)
    POST /tables/{id}/actions    {"action": "7H", "version": N} -> {"version": M}
    POST /tables/{id}/seats/{n}  {"player": "heuristic"} -> the seat goes to a computer
    GET  /tables/{id}/people     who of the people is here, and how long the others are gone
    POST /tables/{id}/return     a person whose seat went to a computer takes it back
    GET  /tables/{id}/chat       the table chat's last messages (spectators read them too)
    POST /tables/{id}/chat       {"text": "..."} -> a message to everyone at the table
    POST /tables/{id}/claim      {"version": N} -> the rest of the tricks, if the solver agrees
    GET  /tables/{id}/review/{h} hand h's review (202 while it is worked out)
    WS   /tables/{id}/live       the seat's view pushed after every change (server._live)

Every refusal is ``{"error": CODE, "message": TEXT}`` with a stable ``CODE``.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fivehundred._engine.quoting import expect
from fivehundred.server import _ops
from fivehundred.server._chat import Chat
from fivehundred.server._guard import MAX_DEPTH, create_request, read_json
from fivehundred.server._live import Hub, changed, claim_rest, live, next_hand, table_of
from fivehundred.server._review import (
    CLAIM_BUDGET,
    REVIEW_BUDGET,
    Reviewer,
    finished_hands,
    hand_job,
)
from fivehundred.server.settings import Settings
from fivehundred.server.store import UNAVAILABLE, Unavailable
from fivehundred.server.tables import HUMAN, SPECTATOR, Refused, Tables

__all__ = [
    "DEADLINE",
    "MAX_BODY",
    "MAX_CLAIMS",
    "MAX_DEPTH",
    "MAX_IN_FLIGHT",
    "create_app",
    "error_body",
]

#: The largest request body, in bytes.
MAX_BODY: Final = 4096
#: Seconds a client has to send its whole request body.
DEADLINE: Final = 10.0
#: Requests handled at once; more are answered 503 ``BUSY``.
MAX_IN_FLIGHT: Final = 64

#: Claims judged at once (each in a child process); more are answered 503 ``BUSY``.
MAX_CLAIMS: Final = 4

#: The stable error code of each HTTP status the server answers by itself.
STATUS_CODES: Final = {
    400: "BAD_REQUEST",
    401: "UNAUTHORIZED",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    408: "REQUEST_TIMEOUT",
    413: "TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
    431: "HEADERS_TOO_LARGE",
    500: "INTERNAL_ERROR",
    501: "NOT_IMPLEMENTED",
    503: "BUSY",
}

STATIC: Final = resources.files("fivehundred.server") / "static"


def error(status: int, code: str, message: str) -> JSONResponse:
    """A JSON refusal."""
    return JSONResponse({"error": code, "message": message}, status_code=status)


def error_body(status: int, message: str) -> bytes:
    """The body of a refusal by status (for the layers below the application)."""
    expect(status, int, "an HTTP status (an int)")
    expect(message, str, "a message (a str)")
    code = STATUS_CODES.get(status, "ERROR")
    return json.dumps({"error": code, "message": message}).encode()


class _BodyLimit(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Limits:
    """ASGI middleware: requests in flight, body size and the body's deadline.

    Bodies are counted as they arrive (a ``Content-Length`` over the limit is
    refused before any is read), and the whole body must arrive within
    ``deadline`` seconds of the request's start.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body: int = MAX_BODY,
        deadline: float = DEADLINE,
        max_in_flight: int = MAX_IN_FLIGHT,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.deadline = deadline
        self.max_in_flight = max_in_flight
        self.in_flight = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.in_flight >= self.max_in_flight:
            await error(503, "BUSY", "too many requests at once: try again")(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length" and (not value.isdigit() or int(value) > self.max_body):
                answer = error(413, "TOO_LARGE", f"the request body is over {self.max_body} bytes")
                answer.headers["connection"] = "close"
                await answer(scope, receive, send)
                return
        received = 0
        # the body's deadline on the event loop's clock: asyncio's own timeout costs a
        # receive() under half of what anyio's cancel scope does (the server is asyncio's)
        end = asyncio.get_running_loop().time() + self.deadline

        async def limited() -> Message:
            nonlocal received
            try:
                async with asyncio.timeout_at(end):
                    message = await receive()
            except TimeoutError:
                raise _BodyLimit(408, f"the request body took over {self.deadline} s") from None
            received += len(message.get("body", b""))
            if received > self.max_body:
                raise _BodyLimit(413, f"the request body is over {self.max_body} bytes")
            return message

        self.in_flight += 1
        try:
            await self.app(scope, limited, send)
        finally:
            self.in_flight -= 1


async def _json_body(request: Request) -> dict[str, Any]:
    media = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media != "application/json":  # a form or text/plain: what a page elsewhere can post
        raise Refused(
            415, "UNSUPPORTED_MEDIA_TYPE", "send the body as content-type: application/json"
        )
    try:
        raw = await request.body()
    except _BodyLimit as err:
        raise Refused(err.status, STATUS_CODES[err.status], str(err)) from None
    except ClientDisconnect:  # gone before its body arrived (or a broken chunk): no bug
        raise Refused(400, "BAD_REQUEST", "the connection closed before the body ended") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(400, "BAD_JSON", "the body is not UTF-8") from None
    return read_json(text, "the body")


def _tables(request: Request) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def _seat(
    request: Request, table_id: str, *, watch: bool = False, moving: bool = False
) -> tuple[Any, int | None]:
    """The table and the token's seat; ``None`` for the spectator's token when ``watch``.

    A person ``moving`` on a shared store is served from this process's copy: its
    write is refused at the database if another process changed the table. A token
    this copy does not know is checked against the store first, as every read is.
    """
    kind, _, token = request.headers.get("authorization", "").partition(" ")
    tables = _tables(request)
    table = await table_of(tables, table_id, check=not moving)
    token = token.strip() if kind.lower() == "bearer" else ""
    seat = table.seat_of(token) if token else None
    if seat is None and moving and tables.shared:  # a seat given back elsewhere, say
        table = await table_of(tables, table_id)
        seat = table.seat_of(token) if token else None
    if seat is None and token and table.is_spectator(token):
        if watch:
            return table, None
        raise Refused(403, "SPECTATOR", "a spectator watches: it cannot act")
    if seat is None and token and table.former_seat_of(token) is not None:
        if watch:  # a person whose seat went to a computer watches, and may ask it back
            return table, None
        raise Refused(403, "SEAT_GIVEN", "this seat went to a computer player: ask for it back")
    if seat is None:
        raise Refused(401, "UNAUTHORIZED", "send Authorization: Bearer TOKEN of a seat")
    return table, seat


async def _person(request: Request, table_id: str, *, moving: bool = False) -> tuple[Any, int]:
    table, seat = await _seat(request, table_id, moving=moving)
    assert seat is not None  # a spectator is refused above
    return table, seat


async def index(request: Request) -> Response:
    """The browser table."""
    with resources.as_file(STATIC / "index.html") as path:
        return FileResponse(Path(path), media_type="text/html")


async def create_table(request: Request) -> Response:
    """``POST /tables``: a new table; the only answer that holds the seats' tokens."""
    body = await _json_body(request)
    options, seats = create_request(body)
    names = body.get("names")
    # the database write (and a search player's thinking) is done off the event loop
    table, tokens = await run_in_threadpool(_tables(request).create, options, seats, names)
    root = request.scope.get("root_path", "")
    return JSONResponse(
        {
            "table": table.id,
            "seats": list(table.seats),
            "version": table.version,
            "names": table.seat_names(),
            "tokens": {str(seat): token for seat, token in tokens.items() if seat != SPECTATOR},
            "spectator": tokens[SPECTATOR],
            "links": {
                str(seat): f"{root}/#table={table.id}&token={token}"
                for seat, token in tokens.items()
                if seat != SPECTATOR
            },
            "spectator_link": f"{root}/#table={table.id}&token={tokens[SPECTATOR]}",
        },
        status_code=201,
        headers={"cache-control": "no-store", "location": f"/tables/{table.id}"},
    )


async def get_table(request: Request) -> Response:
    """``GET /tables/{id}``: the seat's view, its legal actions and the version."""
    table, seat = await _seat(request, request.path_params["table_id"], watch=True)
    body = table.spectate() if seat is None else table.answer(seat)
    return Response(body, media_type="application/json", headers={"cache-control": "no-store"})


async def post_action(request: Request) -> Response:
    """``POST /tables/{id}/actions``: apply the seat's action at the version it saw."""
    table_id = request.path_params["table_id"]
    table, seat = await _person(request, table_id, moving=True)
    body = await _json_body(request)
    action, version = body.get("action"), body.get("version")
    if (
        set(body) != {"action", "version"}
        or not isinstance(action, str)
        or not isinstance(version, int)
        or isinstance(version, bool)
    ):
        raise Refused(400, "BAD_REQUEST", 'send {"action": NOTATION, "version": N} only')
    if len(action) > 100:
        raise Refused(400, "BAD_NOTATION", "an action is at most 100 characters")
    if version > table.version:  # the client saw a move this copy has not: catch up
        table, seat = await _person(request, table_id)
    before = finished_hands(table.state)
    # the database write (and a search player's thinking) is done off the event loop
    new = await _tables(request).act_soon(table, seat, action, version)
    changed(request.app, table, before)
    return JSONResponse({"version": new})


async def post_claim(request: Request) -> Response:
    """``POST /tables/{id}/claim``: claim the rest of the tricks (see server._live)."""
    table, seat = await _person(request, request.path_params["table_id"])
    body = await _json_body(request)
    version = body.get("version")
    if set(body) != {"version"} or not isinstance(version, int) or isinstance(version, bool):
        raise Refused(400, "BAD_REQUEST", 'send {"version": N} only')
    return JSONResponse({"version": await claim_rest(request.app, table, seat, version)})


async def post_next(request: Request) -> Response:
    """``POST /tables/{id}/next``: the seat's person is ready for the next hand; the table
    moves on once everyone with it open is (see server._pause). Any body is ignored."""
    table, seat = await _person(request, request.path_params["table_id"])
    return JSONResponse({"version": await next_hand(request.app, table, seat)})


async def get_review(request: Request) -> Response:
    """``GET /tables/{id}/review/{hand}``: a finished hand's review (any token of the
    table); 202 while it is being worked out."""
    table, _ = await _seat(request, request.path_params["table_id"], watch=True)
    try:
        hand = int(request.path_params["hand"])
    except ValueError:
        raise Refused(404, "NOT_FOUND", "a hand is a number, from 1") from None
    state = table.state
    if not 1 <= hand <= state.hand_number:
        raise Refused(404, "NO_SUCH_HAND", f"hand {hand} has not been dealt")
    if hand > finished_hands(state):
        raise Refused(409, "HAND_NOT_OVER", f"hand {hand} is still being played")
    reviewer: Reviewer = request.app.state.reviewer
    review = reviewer.get(table.id, hand)
    if review is not None:
        return JSONResponse(review, headers={"cache-control": "no-store"})
    if not reviewer.start(table.id, hand_job(state, hand, table.people)):
        raise Refused(503, "BUSY", "too many reviews are being worked out: try again")
    return JSONResponse(
        {"hand": hand, "status": "pending"}, status_code=202, headers={"retry-after": "1"}
    )


async def hand_over(request: Request) -> Response:
    """``POST /tables/{id}/seats/{seat}``: give a person's seat to a computer player.

    A person may give their own seat (they leave), or another person's seat
    that has had no live socket open for the operator's ``seat_grace`` seconds
    (that person has gone): friends at one table can carry on without someone
    who left, but cannot take a seat from someone who is still there or only
    reloading. The person replaced may watch and take it back (``/return``).
    """
    table, me = await _person(request, request.path_params["table_id"])
    body = await _json_body(request)
    kind = body.get("player")
    if set(body) != {"player"} or not isinstance(kind, str):
        raise Refused(400, "BAD_REQUEST", 'send {"player": KIND}, a computer player\'s kind')
    try:
        seat = int(request.path_params["seat"])
    except ValueError:
        raise Refused(404, "NOT_FOUND", "a seat is a number") from None
    hub, grace = _hub(request), float(request.app.state.ops.settings.seat_grace)

    def gone_long_enough() -> None:  # checked once the seat is known to be a person's
        if seat == me:
            return
        gone = hub.away(table.id, seat)
        if gone is None:
            raise Refused(409, "SEAT_IN_USE", f"seat {seat} is still at the table: they can leave")
        if gone < grace:
            raise Refused(
                409,
                "NOT_GONE_LONG",
                f"seat {seat} has been gone {gone:.0f} s: their seat may be given away "
                f"after {grace:.0f} s",
            )

    tables = _tables(request)
    before = finished_hands(table.state)
    # the database write (and a computer player's moves) is done off the event loop
    new = await run_in_threadpool(tables.hand_over, table, seat, kind, gone_long_enough)
    changed(request.app, table, before)
    return JSONResponse({"version": new, "seats": list(table.seats)})


async def people(request: Request) -> Response:
    """``GET /tables/{id}/people``: each other person's seat, whether they are here, how
    long they have been gone and how long until their seat may go to a computer player."""
    table, me = await _person(request, request.path_params["table_id"])
    hub = _hub(request)
    grace: float = request.app.state.ops.settings.seat_grace
    seats = []
    for seat, kind in enumerate(table.seats):
        if kind != HUMAN or seat == me:
            continue
        gone = hub.away(table.id, seat)
        seats.append(
            {
                "seat": seat,
                "here": gone is None,
                "gone": None if gone is None else round(gone, 1),
                "wait": None if gone is None else round(max(0.0, grace - gone), 1),
            }
        )
    return JSONResponse({"grace": grace, "seats": seats}, headers={"cache-control": "no-store"})


async def take_back(request: Request) -> Response:
    """``POST /tables/{id}/return``: the person whose seat went to a computer player takes
    it back with their old link; the computer's moves meanwhile stay."""
    kind, _, token = request.headers.get("authorization", "").partition(" ")
    table = await table_of(_tables(request), request.path_params["table_id"])
    token = token.strip() if kind.lower() == "bearer" else ""
    seat = table.former_seat_of(token) if token else None
    if seat is None:
        raise Refused(401, "UNAUTHORIZED", "send Authorization: Bearer TOKEN of a former seat")
    tables = _tables(request)
    before = finished_hands(table.state)
    new = await run_in_threadpool(tables.give_back, table, seat)
    changed(request.app, table, before)
    return JSONResponse({"version": new, "seat": seat, "seats": list(table.seats)})


async def get_chat(request: Request) -> Response:
    """``GET /tables/{id}/chat``: the table chat's last messages, for its people and its
    spectators (server._chat)."""
    table, _ = await _seat(request, request.path_params["table_id"], watch=True)
    chat: Chat = request.app.state.chat
    return JSONResponse(
        {"messages": chat.messages(table.id)}, headers={"cache-control": "no-store"}
    )


async def post_chat(request: Request) -> Response:
    """``POST /tables/{id}/chat``: a person's message, pushed to every socket of the table."""
    table, seat = await _person(request, request.path_params["table_id"])
    body = await _json_body(request)
    if set(body) != {"text"}:
        raise Refused(400, "BAD_CHAT", 'send {"text": TEXT} only')
    name = table.seat_names()[seat] or f"Player {seat + 1}"
    chat: Chat = request.app.state.chat
    message = chat.say(table.id, seat, name, body["text"])
    _hub(request).publish(table.id, message)
    return JSONResponse(message, status_code=201)


async def _refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Refused)
    answer = error(exc.status, exc.code, exc.message)
    if exc.status in {408, 413}:  # the rest of the body is not read: the connection is done
        answer.headers["connection"] = "close"
    return answer


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = STATUS_CODES.get(exc.status_code, "ERROR")
    message = exc.detail if exc.status_code != 404 else "there is nothing here"
    return JSONResponse(
        {"error": code, "message": message}, status_code=exc.status_code, headers=exc.headers
    )


async def _unavailable(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Unavailable)
    _ops.log.warning("database unavailable: %s", exc)
    return error(503, "DATABASE_UNAVAILABLE", UNAVAILABLE)


async def _crash(request: Request, exc: Exception) -> Response:
    answer = error(500, "INTERNAL_ERROR", "the server failed on this request")
    # uvicorn closes the connection after a crash: say so, or a client's next pooled
    # request on it is reset
    answer.headers["connection"] = "close"
    return answer


def create_app(
    db: str | Path = ":memory:",
    *,
    max_body: int = MAX_BODY,
    deadline: float = DEADLINE,
    max_in_flight: int = MAX_IN_FLIGHT,
    seed: str | None = None,
    review_budget: float = REVIEW_BUDGET,
    claim_budget: float = CLAIM_BUDGET,
    settings: Settings | None = None,
) -> Starlette:
    """The server's ASGI application, storing its tables in the SQLite database ``db``.

    ``review_budget`` and ``claim_budget`` are the seconds the solver may spend
    on a hand's review and on a claim (each in a child process).

    Embed it in another ASGI app, or serve it with uvicorn (``fivehundred serve``).
    ``seed`` makes every table's deals and computer moves repeatable, for tests
    only (see :class:`~fivehundred.server.tables.Tables`): the cards can then be
    predicted. ``settings`` are the operator's (:class:`~.settings.Settings`:
    the operator key, rate limits, expiry; see docs/howto/operate-the-server.md).
    """
    expect(review_budget, (int, float), "a review budget in seconds (a number)")
    expect(claim_budget, (int, float), "a claim budget in seconds (a number)")
    expect(settings, (Settings, type(None)), "the operator's settings (a Settings or None)")
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        Refused: _refused,
        Unavailable: _unavailable,
        HTTPException: _http_error,
        Exception: _crash,
    }
    app = Starlette(
        routes=[
            Route("/", index, methods=["GET"]),
            Route("/tables", create_table, methods=["POST"]),
            Route("/tables/{table_id}", get_table, methods=["GET"]),
            Route("/tables/{table_id}/actions", post_action, methods=["POST"]),
            Route("/tables/{table_id}/seats/{seat}", hand_over, methods=["POST"]),
            Route("/tables/{table_id}/people", people, methods=["GET"]),
            Route("/tables/{table_id}/return", take_back, methods=["POST"]),
            Route("/tables/{table_id}/chat", get_chat, methods=["GET"]),
            Route("/tables/{table_id}/chat", post_chat, methods=["POST"]),
            Route("/tables/{table_id}/claim", post_claim, methods=["POST"]),
            Route("/tables/{table_id}/next", post_next, methods=["POST"]),
            Route("/tables/{table_id}/review/{hand}", get_review, methods=["GET"]),
            WebSocketRoute("/tables/{table_id}/live", live),
            Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
            *_ops.routes(),
        ],
        exception_handlers=handlers,
        lifespan=_ops.lifespan,
    )
    settings = settings or Settings()
    app.state.tables = Tables(db, seed=seed, max_tables=settings.max_tables)
    app.state.hub = hub = Hub()
    # the end of a hand waits for the people with the table open here (server._pause)
    app.state.tables.present = hub.present
    app.state.tables.hand_pause = settings.hand_pause
    # another process's change (a shared PostgreSQL store) reaches this one's sockets too
    app.state.tables.subscribe(hub.notify)
    app.state.reviewer = Reviewer(hub.publish, budget=review_budget)
    app.state.claims = threading.BoundedSemaphore(MAX_CLAIMS)
    app.state.chat = Chat()
    app.state.claim_budget = claim_budget
    app.state.ops = _ops.Operator(app.state.tables, settings)
    app.add_middleware(Limits, max_body=max_body, deadline=deadline, max_in_flight=max_in_flight)
    app.add_middleware(_ops.Operations, operator=app.state.ops)
    # /tables/ID/ is 404 JSON like any unknown path: no redirect built from the Host header
    app.router.redirect_slashes = False
    return app
