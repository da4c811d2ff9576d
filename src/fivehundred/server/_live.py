"""The live table: a WebSocket per seat, pushed a fresh view after every change.

``GET /tables/{id}/live`` is a Starlette WebSocket. The client's first
message is ``{"type": "hello", "token": TOKEN}`` (a seat's token, or the
table's spectator token): the token never travels in the URL, so it never
reaches an access log. The server then sends ``{"type": "view", "version": N,
"view": BODY}``, where ``BODY`` is exactly what ``GET /tables/{id}`` answers for
that seat (a spectator's has no hidden card), and again after every change of
the table. The client may send ``{"type": "action", "ref": R, "action": "7H",
"version": N}``, answered ``{"type": "ack", "ref": R, "version": M}`` or
``{"type": "refused", "ref": R, "error": CODE, "message": TEXT}`` with the codes
of HTTP. See docs/howto/game-server.md for every message.

"A table changed" is a signal of its own, :meth:`Hub.notify`, separate from
the path that applies an action: whatever changes a table (an action over
HTTP or a socket, a seat handed to a computer, or another process that wrote
to a shared database) calls it, from any thread, and every socket of that
table reads its own view afresh. Each socket has one writer task and a
bounded outbox; a view is never queued (the writer sends the table as it is
when it wakes, so a slow reader skips views instead of piling them up), every
send has a deadline, and a socket whose outbox overflows or whose send times
out is closed, so a dead client never holds up the others.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Final

import anyio
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect

import fivehundred as fh
from fivehundred.server._guard import MAX_NUMBER, read_json
from fivehundred.server._logs import LOGGER
from fivehundred.server._review import Reviewer, finished_hands, hand_job, run_budgeted
from fivehundred.server.store import UNAVAILABLE, Unavailable
from fivehundred.server.tables import HUMAN, Refused, Table, Tables

__all__ = [
    "HELLO_TIMEOUT",
    "MAX_MESSAGE",
    "MAX_OUTBOX",
    "MAX_SOCKETS",
    "MAX_TABLE_SOCKETS",
    "SEND_TIMEOUT",
    "Hub",
    "Socket",
    "changed",
    "claim_rest",
    "live",
]

#: Open sockets in all; one more is refused ``BUSY`` and closed.
MAX_SOCKETS: Final = 200
#: Open sockets on one table (its seats' windows and its spectators).
MAX_TABLE_SOCKETS: Final = 24
#: Messages waiting to be sent on one socket; beyond, the socket is closed.
MAX_OUTBOX: Final = 32
#: Seconds one send may take before the socket is closed.
SEND_TIMEOUT: Final = 10.0
#: Seconds a client has to send its hello after connecting.
HELLO_TIMEOUT: Final = 10.0
#: The largest message a client may send, in characters.
MAX_MESSAGE: Final = 4096
#: The longest ``ref`` a client may give an action, in characters.
MAX_REF: Final = 64

#: What a socket of a seat given to a computer player is told before it is closed.
GIVEN: Final = "this seat was given to a computer player: ask for a seat's link to play on"
#: WebSocket close codes (RFC 6455): the client broke the protocol; the server is full.
POLICY: Final = 1008
TRY_LATER: Final = 1013

log = logging.getLogger(LOGGER)


class Socket:
    """One open socket of one table: its seat (``None``: a spectator) and its outbox."""

    def __init__(self, table: Table, seat: int | None, limit: int = MAX_OUTBOX) -> None:
        self.table = table
        self.seat = seat
        self.limit = limit
        self.outbox: deque[dict[str, Any]] = deque()
        self.wake = asyncio.Event()
        #: Set by :meth:`Hub.notify`: the table changed since the last view was sent.
        self.stale = True
        #: Set when the outbox overflowed: the writer closes the socket.
        self.overflowed = False
        self.last: bytes = b""
        self.wake.set()  # the first view goes out at once

    def changed(self) -> None:
        """The table changed: send a fresh view when the writer next wakes."""
        self.stale = True
        self.wake.set()

    def put(self, message: dict[str, Any]) -> None:
        """Queue a message; a full outbox marks the socket for closing instead."""
        if len(self.outbox) >= self.limit:
            self.overflowed = True
        else:
            self.outbox.append(message)
        self.wake.set()

    def body(self) -> bytes:
        """The seat's view as it is now (what ``GET /tables/{id}`` answers)."""
        return self.table.answer(self.seat) if self.seat is not None else self.table.spectate()


class Hub:
    """Every open socket of one server, by table, and the "a table changed" signal.

    ``max_sockets`` and ``max_table_sockets`` bound the sockets in all and on one
    table; ``outbox`` the messages waiting on one socket; ``send_timeout`` one send.
    """

    def __init__(
        self,
        *,
        max_sockets: int = MAX_SOCKETS,
        max_table_sockets: int = MAX_TABLE_SOCKETS,
        outbox: int = MAX_OUTBOX,
        send_timeout: float = SEND_TIMEOUT,
        hello_timeout: float = HELLO_TIMEOUT,
    ) -> None:
        self.max_sockets = max_sockets
        self.max_table_sockets = max_table_sockets
        self.outbox = outbox
        self.send_timeout = send_timeout
        self.hello_timeout = hello_timeout
        self._sockets: dict[str, set[Socket]] = {}
        self._count = 0
        #: When each person's seat lost its last socket, and when each table's first
        #: socket opened (``time.monotonic()``): how long a person has been gone.
        self._gone: dict[tuple[str, int], float] = {}
        self._seen: dict[str, float] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    def __len__(self) -> int:
        return self._count

    def sockets(self, table_id: str) -> list[Socket]:
        """The open sockets of a table."""
        return list(self._sockets.get(table_id, ()))

    def away(self, table_id: str, seat: int, now: float | None = None) -> float | None:
        """Seconds the seat's person has had no socket open (``None``: one is open now).

        Counted from their last socket's close, or else from the table's first socket
        on this server (a friend who never came), or else from now.
        """
        now = time.monotonic() if now is None else now
        if any(s.seat == seat for s in self._sockets.get(table_id, ())):
            return None
        since = self._gone.get((table_id, seat))
        if since is None:
            since = self._seen.setdefault(table_id, now)
        return max(0.0, now - since)

    def present(self, table_id: str) -> frozenset[int]:
        """The seats with a socket open on the table (people's; spectators have none).
        Callable from any thread: the sockets are copied first, in one step."""
        sockets = tuple(self._sockets.get(table_id, ()))
        return frozenset(s.seat for s in sockets if s.seat is not None)

    def full(self, table_id: str) -> str | None:
        """Why one more socket on the table is refused, or ``None``."""
        if self._count >= self.max_sockets:
            return "the server has too many live connections: try again later"
        if len(self._sockets.get(table_id, ())) >= self.max_table_sockets:
            return "this table has too many live connections: close one"
        return None

    def add(self, socket: Socket) -> None:
        """Register an open socket (in the event loop's thread)."""
        self._loop = asyncio.get_running_loop()
        self._sockets.setdefault(socket.table.id, set()).add(socket)
        self._count += 1
        self._seen.setdefault(socket.table.id, time.monotonic())
        if socket.table.pause is not None:  # one more person the table waits for
            self._changed(socket.table.id)

    def remove(self, socket: Socket) -> None:
        """Forget a closed socket."""
        sockets = self._sockets.get(socket.table.id)
        if sockets is not None and socket in sockets:
            sockets.discard(socket)
            self._count -= 1
            if socket.seat is not None and not any(s.seat == socket.seat for s in sockets):
                self._gone[(socket.table.id, socket.seat)] = time.monotonic()
            if not sockets:
                del self._sockets[socket.table.id]
            elif socket.table.pause is not None:  # one person fewer to wait for
                self._changed(socket.table.id)

    def notify(self, table_id: str, version: int | None = None) -> None:
        """Signal that a table changed: every socket of it is sent its view afresh.

        Callable from any thread (another process's change arrives on a
        listener's thread); ``version`` is the table's version after the change,
        for the record (each socket sends whatever the table holds when its
        writer wakes, and only when it differs from what it last sent).
        """
        loop = self._loop
        if loop is None:
            return  # no socket was ever opened
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._changed(table_id)
        elif not loop.is_closed():
            loop.call_soon_threadsafe(self._changed, table_id)

    def _changed(self, table_id: str) -> None:
        for socket in self._sockets.get(table_id, ()):
            socket.changed()

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        """Queue one message to every socket of a table (from any thread)."""
        loop = self._loop
        if loop is None:
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._publish(table_id, message)
        elif not loop.is_closed():
            loop.call_soon_threadsafe(self._publish, table_id, message)

    def _publish(self, table_id: str, message: dict[str, Any]) -> None:
        for socket in self._sockets.get(table_id, ()):
            socket.put(message)


def refusal(ref: object, code: str, message: str) -> dict[str, Any]:
    """A ``refused`` message."""
    return {"type": "refused", "ref": ref, "error": code, "message": message}


def _read(text: str | None) -> dict[str, Any]:
    """A client's message as a JSON object; :class:`Refused` when it is not one."""
    if text is None:
        raise Refused(400, "BAD_JSON", "send text messages of JSON, not bytes")
    if len(text) > MAX_MESSAGE:
        raise Refused(413, "TOO_LARGE", f"a message is at most {MAX_MESSAGE} characters")
    return read_json(text, "the message")  # the checks of a request's body


def _ref(message: dict[str, Any]) -> object:
    ref = message.get("ref")
    if ref is None or (
        isinstance(ref, int) and not isinstance(ref, bool) and abs(ref) <= MAX_NUMBER
    ):
        return ref  # a whole number JavaScript holds exactly
    if isinstance(ref, str) and len(ref) <= MAX_REF:
        return ref
    # refused before anything is done: an action whose answer could not be told apart
    raise Refused(
        400, "BAD_REQUEST", f"a ref is a whole number or a text of at most {MAX_REF} characters"
    )


def _version(message: dict[str, Any]) -> int:
    version = message.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise Refused(400, "BAD_REQUEST", "send the version of the view you acted on")
    return version


#: What the socket does with each kind of client message: answers its ack's version.
Handler = Callable[["Live", dict[str, Any]], Awaitable[int]]


class Live:
    """One accepted socket: its seat, the tables, and how it answers messages."""

    def __init__(self, websocket: WebSocket, hub: Hub, tables: Tables, socket: Socket) -> None:
        self.app: Any = websocket.app
        self.websocket = websocket
        self.hub = hub
        self.tables = tables
        self.socket = socket

    async def send(self, text: str) -> None:
        with anyio.fail_after(self.hub.send_timeout):
            await self.websocket.send_text(text)

    async def writer(self) -> None:
        """Send the view whenever the table changed, then the queued messages, in order."""
        socket = self.socket
        while True:
            await socket.wake.wait()
            socket.wake.clear()
            if socket.overflowed:
                await self.websocket.close(POLICY, "too many messages waiting: read faster")
                return
            if socket.seat is not None and socket.table.seats[socket.seat] != HUMAN:
                await self.send(json.dumps(refusal(None, "SEAT_GIVEN", GIVEN)))
                await self.websocket.close(POLICY, "this seat went to a computer player")
                return
            if socket.stale:
                socket.stale = False
                body = socket.body()
                if body != socket.last:
                    socket.last = body
                    version = socket.table.version
                    await self.send(f'{{"type":"view","version":{version},"view":{body.decode()}}}')
            while socket.outbox:
                await self.send(json.dumps(socket.outbox.popleft(), separators=(",", ":")))

    async def reader(self) -> None:
        """Answer the client's messages one at a time until it goes."""
        while True:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            ref: object = None
            try:
                body = _read(message.get("text"))
                ref = _ref(body)
                kind = body.get("type")
                handler = HANDLERS.get(kind) if isinstance(kind, str) else None
                if handler is None:
                    raise Refused(
                        400, "BAD_REQUEST", f"unknown message type: use {', '.join(HANDLERS)}"
                    )
                version = await handler(self, body)
            except Refused as err:
                self.socket.put(refusal(ref, err.code, err.message))
            except Unavailable:
                self.socket.put(refusal(ref, "DATABASE_UNAVAILABLE", UNAVAILABLE))
            else:
                self.socket.put({"type": "ack", "ref": ref, "version": version})

    def seat(self) -> int:
        seat = self.socket.seat
        if seat is None:
            raise Refused(403, "SPECTATOR", "a spectator watches: it cannot act")
        return seat


async def table_of(tables: Tables, table_id: str, *, check: bool = True) -> Table:
    """:meth:`Tables.get` without blocking the event loop: a table held in memory on a
    store of one process is answered at once; on a store other processes share, its
    status is asked from the loop (unless not ``check``: a person's move, whose write
    the database refuses if another process changed the table), and it is read again
    (in a worker thread) only when another process changed it. A table to load is read
    in a worker thread."""
    table = tables.held(table_id)
    if table is None:
        return await run_in_threadpool(tables.get, table_id)
    if tables.shared and check:
        behind, moved = await tables.current(table)
        if behind:
            await run_in_threadpool(tables.reread, table, moved=moved)
    return table


async def _action(live: Live, body: dict[str, Any]) -> int:
    action = body.get("action")
    if set(body) - {"type", "ref", "action", "version"} or not isinstance(action, str):
        raise Refused(
            400, "BAD_REQUEST", 'send {"type": "action", "ref": R, "action": A, "version": N}'
        )
    version = _version(body)
    if len(action) > 100:
        raise Refused(400, "BAD_NOTATION", "an action is at most 100 characters")
    seat, table, tables = live.seat(), live.socket.table, live.tables
    before = finished_hands(table.state)
    # the database write (and a search player's thinking) is done off the event loop
    new = await tables.act_soon(table, seat, action, version)
    changed(live.app, table, before)
    return new


async def _claim(live: Live, body: dict[str, Any]) -> int:
    if set(body) - {"type", "ref", "version"}:
        raise Refused(400, "BAD_REQUEST", 'send {"type": "claim", "ref": R, "version": N}')
    return await claim_rest(live.app, live.socket.table, live.seat(), _version(body))


async def _next(live: Live, body: dict[str, Any]) -> int:
    if set(body) - {"type", "ref"}:
        raise Refused(400, "BAD_REQUEST", 'send {"type": "next", "ref": R}')
    return await next_hand(live.app, live.socket.table, live.seat())


#: Each message type a client may send, and its handler.
HANDLERS: Final[dict[str, Handler]] = {"action": _action, "claim": _claim, "next": _next}


async def next_hand(app: Any, table: Table, seat: int) -> int:
    """``seat``'s person is ready for the next hand (see :mod:`~fivehundred.server._pause`);
    answer the table's version, which moves on once everyone present is ready."""
    if table.pause is None:
        return table.version
    tables: Tables = app.state.tables
    before = finished_hands(table.state)
    new = await anyio.to_thread.run_sync(tables.next_hand, table, seat)
    changed(app, table, before)
    return new


async def resume_due(app: Any) -> int:
    """Move on every table whose wait after a hand is over; answer how many moved."""
    tables: Tables = app.state.tables
    moved = 0
    for table in tables.due():
        before = finished_hands(table.state)
        try:
            await anyio.to_thread.run_sync(tables.resume, table)
        except (Refused, Unavailable) as err:  # raced or an outage: tried again soon
            log.debug("a table's wait after a hand: %s", err)
            continue
        changed(app, table, before)
        moved += 1
    return moved


async def claim_rest(app: Any, table: Table, seat: int, version: int) -> int:
    """Judge ``seat``'s claim of the rest of the tricks at ``version`` and, if it holds,
    play the hand out on the solver's line; answer the new version.

    The solver runs in a child process within :data:`~fivehundred.server._review.CLAIM_BUDGET`
    seconds (``app.state.claim_budget``), from a worker thread: the event loop
    never waits for it. Raises :class:`Refused`: 409 ``STALE_VERSION`` or
    ``NOT_IN_PLAY``, 422 ``CLAIM_REFUSED`` with the reason, 503 ``BUSY`` when
    too many claims are being judged, 503 ``CLAIM_TIMEOUT`` past the budget.
    """
    state = table.state
    if version != table.version:
        raise Refused(
            409, "STALE_VERSION", f"the table is at version {table.version}, not {version}"
        )
    if state.phase is not fh.Phase.PLAY:
        raise Refused(409, "NOT_IN_PLAY", "a claim is made during the play of the cards")
    job = hand_job(state, state.hand_number)
    claims: threading.BoundedSemaphore = app.state.claims
    if not claims.acquire(blocking=False):
        raise Refused(503, "BUSY", "too many claims are being checked: try again")
    try:
        pieces, done = await anyio.to_thread.run_sync(
            run_budgeted, "claim", job, seat, app.state.claim_budget
        )
    finally:
        claims.release()
    if not done or not pieces:
        raise Refused(
            503, "CLAIM_TIMEOUT", "the claim could not be checked in time: play the cards out"
        )
    verdict = pieces[0]
    if not verdict["accepted"]:
        raise Refused(422, "CLAIM_REFUSED", f"the claim does not hold: {verdict['why']}")
    tables: Tables = app.state.tables
    before = finished_hands(table.state)
    new = await anyio.to_thread.run_sync(tables.settle, table, version, verdict["line"])
    changed(app, table, before)
    return new


def changed(app: Any, table: Table, finished_before: int) -> None:
    """A table changed: push it to its sockets and, when it has any, start the review of
    every hand the change finished, and have the hand in play's cards valued as they
    are played (a table played over HTTP alone, such as a bot's, costs no solver
    time until a review is asked for)."""
    hub: Hub = app.state.hub
    hub.notify(table.id, table.version)
    if not hub.sockets(table.id):
        return
    state = table.state
    reviewer: Reviewer = app.state.reviewer
    for hand in range(finished_before + 1, finished_hands(state) + 1):
        reviewer.start(table.id, hand_job(state, hand, table.people))
    # in a worker thread and a child: off this path
    reviewer.follow(table.id, state, table.people)


async def _hello(websocket: WebSocket, hub: Hub, tables: Tables) -> Socket | None:
    """Read the hello; answer the socket of its token, or refuse and close."""
    try:
        with anyio.fail_after(hub.hello_timeout):
            message = await websocket.receive()
    except TimeoutError:
        await websocket.send_json(
            refusal(None, "REQUEST_TIMEOUT", f"send the hello within {hub.hello_timeout:g} s")
        )
        await websocket.close(POLICY)
        return None
    if message["type"] == "websocket.disconnect":
        return None
    try:
        body = _read(message.get("text"))
        token = body.get("token")
        if body.get("type") != "hello" or not isinstance(token, str) or len(token) > 100:
            raise Refused(400, "BAD_REQUEST", 'first send {"type": "hello", "token": TOKEN}')
        table = await table_of(tables, websocket.path_params["table_id"])
        seat = table.seat_of(token)
        if seat is None and not table.is_spectator(token) and table.former_seat_of(token) is None:
            raise Refused(401, "UNAUTHORIZED", "this token is not a seat's or a spectator's here")
        busy = hub.full(table.id)
        if busy is not None:
            raise Refused(503, "BUSY", busy)
    except Refused as err:
        await websocket.send_json(refusal(None, err.code, err.message))
        await websocket.close(TRY_LATER if err.status == 503 else POLICY)
        return None
    except Unavailable:
        await websocket.send_json(refusal(None, "DATABASE_UNAVAILABLE", UNAVAILABLE))
        await websocket.close(TRY_LATER)
        return None
    return Socket(table, seat, hub.outbox)


async def live(websocket: WebSocket) -> None:
    """``/tables/{id}/live``: the table's WebSocket (see the module's docstring)."""
    hub: Hub = websocket.app.state.hub
    tables: Tables = websocket.app.state.tables
    await websocket.accept()
    socket = await _hello(websocket, hub, tables)
    if socket is None:
        return
    connection = Live(websocket, hub, tables, socket)
    hub.add(socket)
    try:
        async with anyio.create_task_group() as group:

            async def read_then_stop() -> None:
                await connection.reader()
                group.cancel_scope.cancel()

            async def write_then_stop() -> None:
                await connection.writer()
                group.cancel_scope.cancel()

            group.start_soon(read_then_stop)
            group.start_soon(write_then_stop)
    except* (WebSocketDisconnect, TimeoutError, OSError):
        pass  # the client went, or stopped reading: its socket is dropped
    finally:
        hub.remove(socket)
