"""``fivehundred serve``: the game server under uvicorn, with its connection limits.

uvicorn's own refusals (a malformed request, headers over the limit, a
connection over the limit, a crash) are plain text; :class:`JsonHttpToolsProtocol`
(httptools, the parser in C that ``fivehundred serve`` speaks where it is
installed, on uvloop) and :class:`JsonH11Protocol` (the fallback) answer them as
JSON with a stable code, as the application does. Both also refuse a complete
request head over :data:`MAX_HEADER_BYTES` (h11 limits only a head still
incomplete). :class:`Server` exits 0 on SIGTERM once the requests in flight are
answered (within the settings' ``shutdown_grace``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging.config
import math
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

try:  # the fast HTTP parser and event loop (the `server` extra brings both, where they build)
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    HTTPTOOLS = True
except ImportError:  # pragma: no cover - httptools is not installed
    HttpToolsProtocol = H11Protocol  # type: ignore[misc,assignment]  # the class is then unused
    HTTPTOOLS = False

from fivehundred._engine.quoting import expect
from fivehundred.server._guard import head_size
from fivehundred.server._live import MAX_MESSAGE
from fivehundred.server._logs import log_config
from fivehundred.server.app import DEADLINE, MAX_IN_FLIGHT, create_app, error_body
from fivehundred.server.settings import Settings
from fivehundred.server.store import describe

__all__ = [
    "KEEP_ALIVE",
    "MAX_CONNECTIONS",
    "MAX_HEADER_BYTES",
    "JsonH11Protocol",
    "JsonHttpToolsProtocol",
    "Server",
    "serve",
]

#: Open connections at once; one more is answered 503 ``BUSY`` and closed.
MAX_CONNECTIONS: Final = 256
#: The largest request head (request line and headers), in bytes: 431 beyond.
MAX_HEADER_BYTES: Final = 8192
#: Seconds an idle keep-alive connection is kept open.
KEEP_ALIVE: Final = 5
#: Seconds a connection has to send a whole request head, from its opening or from the end
#: of its last answer; it is closed (with a 408) otherwise.
HEAD_TIMEOUT: Final = 10.0


class _Connection(h11.Connection):
    """An h11 connection that remembers the status hint of the last protocol error, and
    refuses a complete request head over ``max_head`` bytes (h11 checks only incomplete ones).
    """

    hint = 400
    max_head = MAX_HEADER_BYTES
    #: Called when a whole request head has arrived.
    on_head: Callable[[], None] = staticmethod(lambda: None)

    def next_event(self) -> Any:
        try:
            event = super().next_event()
            if isinstance(event, h11.Request):
                self.on_head()
                if head_size(event.method, event.target, event.headers) > self.max_head:
                    raise h11.RemoteProtocolError("the request head is too large", 431)
        except h11.RemoteProtocolError as err:
            self.hint = err.error_status_hint
            raise
        return event


#: uvicorn's refusals of a request it cannot read, by the status h11 hints.
REFUSALS: Final = {
    400: "a malformed HTTP request",
    408: f"the request head did not arrive within {HEAD_TIMEOUT:g} s",
    431: "the request head is too large",
    501: "this transfer encoding is not supported: send chunked or a content-length",
}


def raw_response(status: int, message: str, body: bytes | None = None) -> bytes:
    """A whole HTTP/1.1 JSON answer that closes the connection: a refusal of ``message``,
    or ``body``."""
    body = error_body(status, message) if body is None else body
    reason = {
        200: "OK",
        400: "Bad Request",
        408: "Request Timeout",
        431: "Request Header Fields Too Large",
        501: "Not Implemented",
        503: "Service Unavailable",
    }
    head = (
        f"HTTP/1.1 {status} {reason.get(status, 'Error')}\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


#: The request line a connection over the limit is still answered (with 200).
HEALTH_LINE: Final = re.compile(rb"GET /healthz(\?[^ ]*)? HTTP/1\.[01]\r\n")
#: The answer of ``GET /healthz`` (as the application's).
HEALTHY: Final = b'{"status": "ok"}'


class _HeadGuard:
    """What both protocols add to uvicorn's: a deadline for each request head, and an
    answer for a connection over the limit.

    A connection must send each whole request head within ``head_timeout``
    seconds (from its opening, or from the end of its last answer), or it is
    answered 408 and closed: a connection that sends nothing, or a head a byte
    at a time, holds no slot for long. A connection over the limit is read
    until its head ends: ``GET /healthz`` is answered 200 (the process is alive,
    however full it is) and anything else 503 ``BUSY``.
    """

    #: Seconds for a whole request head (:data:`HEAD_TIMEOUT`; :func:`config` sets it).
    head_timeout: float = HEAD_TIMEOUT
    # uvicorn's protocols set these
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport
    connections: set[Any]

    def _guard(self, max_connections: int) -> None:
        """Start guarding a connection just made."""
        self.over_limit = len(self.connections) > max_connections
        self.early = bytearray()  # what a connection over the limit sent so far
        self.head_timer: asyncio.TimerHandle | None = None
        self._wait_for_head()

    def _wait_for_head(self) -> None:
        self._head_arrived()
        self.head_timer = self.loop.call_later(self.head_timeout, self._head_late)

    def _head_arrived(self) -> None:
        timer = getattr(self, "head_timer", None)
        if timer is not None:
            timer.cancel()
            self.head_timer = None

    def _head_late(self) -> None:
        self.head_timer = None
        if not self.transport.is_closing():
            if self.over_limit:
                self.transport.write(raw_response(503, "too many connections: try again"))
            else:
                self.transport.write(
                    raw_response(
                        408, f"the request head did not arrive within {self.head_timeout:g} s"
                    )
                )
            self.transport.close()

    def _read_over_limit(self, data: bytes) -> bool:
        """Whether ``data`` went to a connection over the limit (and was dealt with)."""
        if not self.over_limit:
            return False
        self.early.extend(data[: MAX_HEADER_BYTES + 1])
        if b"\r\n\r\n" not in self.early and len(self.early) <= MAX_HEADER_BYTES:
            return True  # the head is not all here yet
        self._head_arrived()
        if HEALTH_LINE.match(self.early):
            self.transport.write(raw_response(200, "", HEALTHY))
        else:
            self.transport.write(raw_response(503, "too many connections: try again"))
        self.transport.close()
        return True

    def _answered(self) -> None:
        """An answer is complete: the next head has its deadline too (the keep-alive timer
        stops at its first byte); a head already here (pipelined) stops it at once."""
        if not self.transport.is_closing():
            self._wait_for_head()


class JsonH11Protocol(_HeadGuard, H11Protocol):
    """uvicorn's h11 protocol with JSON refusals, the connection limit and the head's
    deadline (:class:`_HeadGuard`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn = _Connection(h11.SERVER, self.config.h11_max_incomplete_event_size or 16384)
        self.conn.max_head = self.config.h11_max_incomplete_event_size or MAX_HEADER_BYTES
        self.conn.on_head = self._head_arrived
        self.max_connections = self.limit_concurrency or MAX_CONNECTIONS
        self.limit_concurrency = None  # the application limits requests in flight itself

    # uvicorn narrows BaseProtocol.connection_made to a Transport; so does this override
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._guard(self.max_connections)

    def data_received(self, data: bytes) -> None:
        if not self._read_over_limit(data):
            super().data_received(data)

    def on_response_complete(self) -> None:
        self._answered()
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_arrived()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        status = getattr(self.conn, "hint", 400)
        text = REFUSALS.get(status)
        if text is None:  # pragma: no cover - h11 hints only 400, 431 and 501
            status, text = 400, REFUSALS[400]
        self.transport.write(raw_response(status, text))
        self.transport.close()


class JsonHttpToolsProtocol(_HeadGuard, HttpToolsProtocol):
    """uvicorn's httptools protocol (llhttp, a parser in C: the fast one), with the JSON
    refusals, the head's limit, the connection limit and the head's deadline of
    :class:`JsonH11Protocol`.

    ``fivehundred serve`` uses it where httptools is installed (the ``server`` extra
    brings it), and :class:`JsonH11Protocol` elsewhere.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_head = self.config.h11_max_incomplete_event_size or MAX_HEADER_BYTES
        self.max_connections = self.limit_concurrency or MAX_CONNECTIONS
        self.limit_concurrency = None  # the application limits requests in flight itself
        #: The status of the next refusal of a request that cannot be read, and the
        #: bytes of the request head read so far.
        self.hint = 400
        self.head = 0
        #: Bytes received since the last complete head, while no head is complete (a head
        #: never finished is refused 431 once it is over the limit, as h11 does).
        self.waiting = 0
        self.in_body = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._guard(self.max_connections)

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_arrived()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        self._answered()
        super().on_response_complete()

    def data_received(self, data: bytes) -> None:
        if self._read_over_limit(data):
            return
        if not self.in_body:
            self.waiting += len(data)
        super().data_received(data)
        if not self.in_body and self.waiting > self.max_head and not self.transport.is_closing():
            self.hint = 431
            self.send_400_response("the request head is too large")

    def _count(self, size: int) -> None:
        self.head += size
        if self.head > self.max_head:
            self.hint = 431
            raise ValueError("the request head is too large")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.hint, self.head = 400, len(" HTTP/1.1\r\n") + 2

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + 2 + len(value.rstrip(b" \t")) + 2)
        if name.lower() == b"transfer-encoding" and value.strip().lower() != b"chunked":
            self.hint = 501  # as h11: a body is read whole or chunked, nothing else
            raise ValueError("unsupported transfer encoding")
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._head_arrived()
        self._count(len(self.parser.get_method()) + 1)
        self.in_body, self.waiting = True, 0
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self.in_body, self.waiting = False, 0
        super().on_message_complete()

    def send_400_response(self, msg: str) -> None:
        status = self.hint
        text = REFUSALS.get(status)
        if text is None:  # pragma: no cover - only 400, 431 and 501 are hinted
            status, text = 400, REFUSALS[400]
        self.transport.write(raw_response(status, text))
        self.transport.close()


#: The seconds a thread may hold the interpreter while another waits for it (Python's
#: default is 0.005). Under load the event loop always wants it; SQLite's writer thread
#: needs it back after each statement of a group commit, and waits this long each time.
SWITCH_INTERVAL: Final = 0.0005


#: The cyclic garbage collector's thresholds in a server process (Python's default is
#: ``(700, 10, 10)``). A request makes thousands of short-lived containers that reference
#: counting frees, yet each 700 of them started a collection, and every few seconds a
#: full one walked the tables held (35-43 ms at 64 tables, freeing nothing): 7 % of the
#: process's CPU, and pauses that every request in flight waited out. Cycles are
#: still collected, a little later.
GC_THRESHOLDS: Final = (10_000, 20, 20)


def share_the_interpreter() -> None:
    """Hand the interpreter between threads every :data:`SWITCH_INTERVAL` seconds, and
    collect cyclic garbage in the bigger steps of :data:`GC_THRESHOLDS`: a server
    process's own settings (an application embedded elsewhere leaves them alone)."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    gc.set_threshold(*GC_THRESHOLDS)


def http_protocol() -> type[asyncio.Protocol]:
    """The HTTP protocol ``fivehundred serve`` speaks: :class:`JsonHttpToolsProtocol`, or
    :class:`JsonH11Protocol` where httptools is not installed."""
    return JsonHttpToolsProtocol if HTTPTOOLS else JsonH11Protocol


class Server(uvicorn.Server):
    """uvicorn's server, which exits 0 on SIGTERM or SIGINT once its requests are answered.

    uvicorn raises the signal again after its graceful shutdown, so the
    process would end with -15; a service manager reads that as a failure.
    The application's ``/readyz`` answers 503 from the signal on.
    """

    #: Printed once the server has started (its application included), if set.
    ready: str | None = None

    async def startup(self, sockets: list[Any] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started and self.ready is not None:
            print(self.ready, flush=True)

    def handle_exit(self, sig: int, frame: Any) -> None:
        operator = getattr(getattr(self.config.app, "state", None), "ops", None)
        if operator is not None:
            operator.draining = True
        super().handle_exit(sig, frame)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():  # pragma: no cover
            yield
            return
        handled = (signal.SIGINT, signal.SIGTERM)
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def config(
    db: str | Path,
    host: str = "127.0.0.1",
    port: int = 8500,
    *,
    max_connections: int = MAX_CONNECTIONS,
    max_in_flight: int = MAX_IN_FLIGHT,
    deadline: float = DEADLINE,
    head_timeout: float = HEAD_TIMEOUT,
    seed: str | None = None,
    settings: Settings | None = None,
) -> uvicorn.Config:
    """The uvicorn configuration of ``fivehundred serve`` (``seed``: for tests only)."""
    chosen = http_protocol()
    protocol = (
        chosen
        if head_timeout == HEAD_TIMEOUT
        else type(chosen.__name__, (chosen,), {"head_timeout": head_timeout})
    )
    settings = settings or Settings()
    # the JSON log from its first line: opening the database may migrate it, and says so
    logging.config.dictConfig(log_config(settings.log_level))
    app = create_app(
        db, max_in_flight=max_in_flight, deadline=deadline, seed=seed, settings=settings
    )
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol,
        loop="auto",  # uvloop where it is installed
        ws="websockets-sansio",  # the live table (server._live); the `server` extra brings it
        ws_max_size=MAX_MESSAGE,
        ws_per_message_deflate=False,
        lifespan="on",
        interface="asgi3",
        server_header=False,
        date_header=False,
        access_log=False,
        log_config=log_config(settings.log_level),
        log_level=settings.log_level,
        # X-Forwarded-For is read only from the proxies the operator names: none by default
        proxy_headers=bool(settings.trusted_proxies.strip()),
        forwarded_allow_ips=settings.trusted_proxies or "",
        timeout_graceful_shutdown=math.ceil(settings.shutdown_grace),
        limit_concurrency=max_connections,
        timeout_keep_alive=KEEP_ALIVE,
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        backlog=1024,
    )


def serve(
    db: str | Path,
    host: str = "127.0.0.1",
    port: int = 8500,
    *,
    max_connections: int = MAX_CONNECTIONS,
    seed: str | None = None,
    settings: Settings | None = None,
) -> None:  # pragma: no cover - runs until killed (the restart test runs it in a child)
    """Serve until SIGTERM or SIGINT (then exit 0); prints the address once, never a token."""
    expect(db, (str, Path), "a database path (a str or Path)")
    uv = config(db, host, port, max_connections=max_connections, seed=seed, settings=settings)
    server = Server(uv)
    share_the_interpreter()
    # bound before the address is printed: a port in use is uvicorn's error alone (exit 3)
    sockets = [uv.bind_socket()]
    bound = sockets[0].getsockname()[1]  # the port the system gave, for --port 0
    server.ready = f"fivehundred: serving on http://{host}:{bound}/ (database {describe(db)})"
    if seed is not None:
        print("fivehundred: --seed is set: the deals can be predicted", file=sys.stderr)
    server.run(sockets=sockets)
