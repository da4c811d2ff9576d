"""The operator's surface of the game server: guard, metrics, logs, admin, health, expiry.

- :class:`Operations`: ASGI middleware, outermost, around every HTTP request:
  the request head's limit (431), the per-client rate limits (429), the operator
  key that creating a table may need (401), and for every answer a JSON log
  line and the Prometheus metrics;
- :func:`routes`: ``GET /healthz``, ``GET /readyz``, ``GET /metrics``, and the
  admin routes ``GET /admin/tables`` and ``POST /admin/tables/{id}/close``
  (``Authorization: Bearer OPERATOR_KEY``);
- :func:`lifespan`: the sweep that archives idle and finished tables and
  deletes old archived games, every ``sweep_every`` seconds, off the event loop.

The state they share is an :class:`Operator`, at ``app.state.ops``.
See docs/howto/operate-the-server.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import math
import time
from collections.abc import AsyncIterator
from typing import Any, Final

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fivehundred.server._guard import head_size
from fivehundred.server._live import resume_due
from fivehundred.server._logs import LOGGER
from fivehundred.server._metrics import CONTENT_TYPE, Metrics
from fivehundred.server.settings import Settings
from fivehundred.server.store import Unavailable
from fivehundred.server.tables import Refused, Tables

__all__ = [
    "MAX_CLIENTS",
    "MAX_HEAD",
    "Buckets",
    "Operations",
    "Operator",
    "lifespan",
    "routes",
]

#: The largest request head the application accepts, in bytes (as ``fivehundred serve``).
MAX_HEAD: Final = 8192
#: Clients whose rate a limiter remembers at once (the longest-known are forgotten first).
MAX_CLIENTS: Final = 10_000
#: The bytes of a refusal's body read for its code (the metrics' ``code`` label).
MAX_REFUSAL: Final = 2048
#: Tables on a page of ``GET /admin/tables``, by default and at most.
PAGE: Final = 100
MAX_PAGE: Final = 1000
#: Seconds between two counts of the open tables in the database (for ``/metrics``, which
#: never waits on the database; tables created and closed here count at once).
COUNT_EVERY: Final = 10.0
#: Seconds between two looks for tables whose wait after a hand is over.
PAUSE_EVERY: Final = 0.5

log = logging.getLogger(LOGGER)


class Buckets:
    """Per-client token buckets: ``rate`` a second, in bursts of ``burst``. Raises nothing.

    >>> buckets = Buckets(rate=1.0, burst=2)
    >>> [buckets.take("a", now=0.0) for _ in range(3)], buckets.take("b", now=0.0)
    ([0.0, 0.0, 1.0], 0.0)
    >>> buckets.take("a", now=1.0)
    0.0
    """

    def __init__(self, rate: float, burst: float, max_clients: int = MAX_CLIENTS) -> None:
        self.rate, self.burst, self.max_clients = rate, burst, max_clients
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, client: str, now: float | None = None) -> float:
        """Take one token of ``client``'s bucket: 0.0, or the seconds until one is there."""
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.pop(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if len(self._buckets) >= self.max_clients:  # forget the longest-known client
            del self._buckets[next(iter(self._buckets))]
        if tokens >= 1.0:
            self._buckets[client] = (tokens - 1.0, now)
            return 0.0
        self._buckets[client] = (tokens, now)
        return (1.0 - tokens) / self.rate

    def give_back(self, client: str) -> None:
        """Return the token a refused request took (its burst is not exceeded)."""
        if client in self._buckets:
            tokens, last = self._buckets[client]
            self._buckets[client] = (min(self.burst, tokens + 1.0), last)


class Operator:
    """What the operator's pieces share: settings, metrics, the tables, the limiters."""

    def __init__(self, tables: Tables, settings: Settings) -> None:
        self.tables, self.settings = tables, settings
        self.metrics = Metrics()
        tables.observer = self.observe
        tables.on_closed = self.closed
        #: Set when the server stops: ``/readyz`` answers 503 from then on.
        self.draining = False
        self.creates = (
            Buckets(settings.create_rate / 60, max(1.0, settings.create_rate))
            if settings.create_rate
            else None
        )
        self.requests = (
            Buckets(settings.request_rate, max(1.0, 2 * settings.request_rate))
            if settings.request_rate
            else None
        )

    async def take(self, kind: str, client: str) -> float:
        """Take a token of ``client``'s ``kind`` limit (``create`` or ``request``): 0.0, or
        the seconds to wait. On PostgreSQL every process on the database shares the
        buckets; while the database does not answer, the limit lets requests by (they
        meet the outage themselves)."""
        buckets = self.creates if kind == "create" else self.requests
        if buckets is None:
            return 0.0
        take = getattr(self.tables.store, "take_token", None)
        if take is None:  # SQLite: one process, its buckets in memory
            return buckets.take(client)
        try:
            wait: float = await anyio.to_thread.run_sync(
                take, kind, client, buckets.rate, buckets.burst, time.time()
            )
        except Unavailable as err:
            log.warning("rate limit not checked: %s", err)
            return 0.0
        return wait

    async def give_back(self, kind: str, client: str) -> None:
        """Return the token of ``kind`` that a refused request took."""
        buckets = self.creates if kind == "create" else self.requests
        if buckets is None:
            return
        give = getattr(self.tables.store, "give_token", None)
        if give is None:
            buckets.give_back(client)
            return
        with contextlib.suppress(Unavailable):
            await anyio.to_thread.run_sync(give, kind, client, buckets.burst)

    def observe(self, event: str, detail: str, count: int) -> None:
        """The tables' events: into the metrics, and a closed table into the log."""
        self.metrics.observe(event, detail, count)
        if event == "created":
            self.metrics.open_tables.inc(count)
        elif event == "closed":
            self.metrics.open_tables.dec(count)

    def closed(self, table: str, reason: str) -> None:
        """A table closed: one log line with its id and why."""
        log.info("table closed", extra={"fields": {"table": table, "reason": reason}})

    def is_operator(self, headers: list[tuple[bytes, bytes]]) -> bool:
        """Whether the request carries ``Authorization: Bearer`` the operator key."""
        key = self.settings.operator_key
        if key is None:
            return False
        for name, value in headers:
            if name == b"authorization":
                kind, _, given = value.partition(b" ")
                if kind.lower() == b"bearer" and hmac.compare_digest(
                    given.strip(), key.encode("utf-8")
                ):
                    return True
        return False

    def count_open(self) -> None:
        """Count the open tables in the database (in a worker thread), for ``/metrics``."""
        self.metrics.open_tables.set(self.tables.open_count())

    def sweep(self) -> None:
        """One sweep (in a worker thread): archive idle and finished tables, purge old ones."""
        s = self.settings
        closed = self.tables.sweep(s.idle_expiry, s.finished_expiry)
        purged = self.tables.purge(s.keep_archived) if s.keep_archived else 0
        forget = getattr(self.tables.store, "forget_full", None)
        if forget is not None:  # the shared buckets that are full again
            forget(time.time())
        self.metrics.purged.inc(purged)
        if purged or any(closed.values()):
            log.info("sweep", extra={"fields": {**closed, "purged": purged}})


#: What a request cut off by the server's shutdown is told.
STOPPING: Final = (
    "the server is stopping: this request may or may not have been applied, "
    "so read the table again and retry"
)


async def _nothing() -> Message:
    return {"type": "http.disconnect"}


def _refusal(status: int, code: str, message: str, **headers: str) -> Response:
    return JSONResponse({"error": code, "message": message}, status_code=status, headers=headers)


#: The paths that are their own route template (for requests refused before routing).
FIXED: Final = frozenset({"/", "/tables", "/healthz", "/readyz", "/metrics", "/admin/tables"})


def _route(scope: Scope) -> str:
    """The route template of a request (a label of few values), ``unmatched`` if none."""
    path = getattr(scope.get("route"), "path", None)
    if isinstance(path, str):
        return path
    return scope["path"] if scope["path"] in FIXED else "unmatched"


class Operations:
    """ASGI middleware: the head's limit, rate limits, the key to create, logs and metrics."""

    def __init__(self, app: ASGIApp, *, operator: Operator, max_head: int = MAX_HEAD) -> None:
        self.app, self.operator, self.max_head = app, operator, max_head

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        metrics = self.operator.metrics
        started = time.perf_counter()
        client = str((scope.get("client") or ("unknown",))[0])
        status, code = 500, ""
        body = bytearray()

        begun = False  # whether the answer has begun

        async def sending(message: Message) -> None:
            nonlocal status, begun
            if message["type"] == "http.response.start":
                status, begun = message["status"], True
            elif status >= 400 and len(body) < MAX_REFUSAL:
                body.extend(message.get("body", b"")[:MAX_REFUSAL])
            await send(message)

        metrics.in_flight.inc()
        took = False  # whether this request took a token of the creation limit
        try:
            refusal = await self.refuse(scope, client)
            took = refusal is None and self.takes_create(scope)
            if refusal is not None:
                await refusal(scope, receive, sending)
            else:
                await self.app(scope, receive, sending)
        except asyncio.CancelledError:
            # uvicorn cancels the requests still in flight when the shutdown grace is
            # over: answer 503 (not uvicorn's 500 with a traceback) and end the request
            if not self.operator.draining:
                raise
            if not begun:
                status = 503
                await _refusal(503, "SHUTTING_DOWN", STOPPING, connection="close")(
                    scope, _nothing, sending
                )
            log.warning("cut off by the shutdown", extra={"fields": {"path": scope["path"][:200]}})
        except Exception:
            status = 500
            metrics.errors.inc()
            log.exception("crash", extra={"fields": {"path": scope["path"], "client": client}})
            raise
        finally:
            if took and 400 <= status < 500:
                await self.operator.give_back("create", client)  # a refusal costs nothing
            metrics.in_flight.dec()
            elapsed = time.perf_counter() - started
            route = _route(scope)
            if status >= 400:
                code = "INTERNAL_ERROR" if status == 500 else _code(bytes(body))
                if status != 500:
                    metrics.refusals.labels(code=code).inc()
            metrics.answered(route, scope["method"], status, elapsed)
            if log.isEnabledFor(logging.INFO):  # the line's fields are made only if it is kept
                fields = {
                    "method": scope["method"],
                    "route": route,
                    "path": scope["path"][:200],
                    "status": status,
                    "ms": round(elapsed * 1000, 2),
                    "client": client,
                }
                if code:
                    fields["code"] = code
                log.info("request", extra={"fields": fields})

    def takes_create(self, scope: Scope) -> bool:
        """Whether the request is one the creation limit counts (and :meth:`refuse` let by)."""
        return (
            scope["method"] == "POST"
            and scope["path"] == "/tables"
            and not self.operator.is_operator(scope["headers"])
        )

    async def refuse(self, scope: Scope, client: str) -> Response | None:
        """The answer that refuses a request before the application sees it, if any."""
        ops = self.operator
        headers = scope["headers"]
        if head_size(scope["method"], scope.get("raw_path") or b"", headers) > self.max_head:
            return _refusal(
                431, "HEADERS_TOO_LARGE", f"the request head is over {self.max_head} bytes"
            )
        if ops.requests is not None and not ops.is_operator(headers):  # the key: never limited
            wait = await ops.take("request", client)
            if wait:
                return _refusal(
                    429,
                    "RATE_LIMITED",
                    "too many requests from your address: slow down",
                    **{"retry-after": str(math.ceil(wait))},
                )
        if scope["method"] == "POST" and scope["path"] == "/tables":
            if ops.is_operator(headers):
                return None
            if ops.settings.create_needs_key:
                return _refusal(
                    401, "KEY_REQUIRED", "creating a table needs the operator key on this server"
                )
            wait = await ops.take("create", client)
            if wait:
                return _refusal(
                    429,
                    "RATE_LIMITED",
                    f"your address created {ops.settings.create_rate:g} tables in a minute: "
                    "wait before creating another",
                    **{"retry-after": str(math.ceil(wait))},
                )
        return None


def _code(body: bytes) -> str:
    start = body.find(b'"error":')
    if start < 0:
        return "NONE"
    rest = body[start + 8 :].lstrip()
    end = rest.find(b'"', 1)
    code = rest[1:end].decode("ascii", "replace") if rest[:1] == b'"' and end > 0 else ""
    return code if code.replace("_", "").isalnum() and len(code) <= 40 else "NONE"


def _operator(request: Request) -> Operator:
    ops: Operator = request.app.state.ops
    return ops


def _admin(request: Request) -> Operator:
    ops = _operator(request)
    if ops.settings.operator_key is None:
        raise Refused(
            403, "ADMIN_OFF", "the admin routes are off: start the server with an operator key"
        )
    if not ops.is_operator(request.scope["headers"]):
        raise Refused(401, "UNAUTHORIZED", "send Authorization: Bearer OPERATOR_KEY")
    return ops


async def healthz(request: Request) -> Response:
    """``GET /healthz``: the process answers (its event loop runs)."""
    return JSONResponse({"status": "ok"}, headers={"cache-control": "no-store"})


async def readyz(request: Request) -> Response:
    """``GET /readyz``: 200 while the database answers and the server is not stopping."""
    ops = _operator(request)
    if ops.draining:
        return JSONResponse({"status": "draining"}, status_code=503)
    try:
        with anyio.fail_after(2):
            await anyio.to_thread.run_sync(ops.tables.ping)
    except Exception as err:  # an outage, not a bug: one line, no traceback
        log.warning("not ready: %s", f"{type(err).__name__}: {err}" if str(err) else repr(err))
        return JSONResponse({"status": "database unavailable"}, status_code=503)
    return JSONResponse({"status": "ready"}, headers={"cache-control": "no-store"})


async def metrics(request: Request) -> Response:
    """``GET /metrics``: every metric, in Prometheus' text format, without waiting on the
    database (the open tables are counted there every :data:`COUNT_EVERY` seconds)."""
    ops = _operator(request)
    ops.metrics.loaded_tables.set(ops.tables.loaded())
    return Response(ops.metrics.render(), media_type=CONTENT_TYPE)


def _page(request: Request) -> tuple[int, str | None]:
    """The ``limit`` and ``after`` of a listing's query (400 ``BAD_QUERY`` if wrong)."""
    text = request.query_params.get("limit", str(PAGE))
    if not text.isdigit() or not 1 <= int(text) <= MAX_PAGE:
        raise Refused(400, "BAD_QUERY", f"limit is a whole number from 1 to {MAX_PAGE}")
    return int(text), request.query_params.get("after")


async def admin_tables(request: Request) -> Response:
    """``GET /admin/tables?limit=N&after=ID``: the open tables, oldest first, a page at a
    time, each with its version and idle seconds; ``next`` is the ``after`` of the next
    page (``null`` on the last)."""
    ops = _admin(request)
    limit, after = _page(request)
    listing = await anyio.to_thread.run_sync(ops.tables.listing)
    start = 0
    if after is not None:
        ids = [row["table"] for row in listing]
        if after not in ids:
            raise Refused(404, "NO_SUCH_TABLE", "after names no open table: start again")
        start = ids.index(after) + 1
    page = listing[start : start + limit]
    more = start + limit < len(listing)
    return JSONResponse(
        {"tables": page, "next": page[-1]["table"] if more else None},
        headers={"cache-control": "no-store"},
    )


async def admin_close(request: Request) -> Response:
    """``POST /admin/tables/{id}/close``: close the table and archive its game."""
    ops = _admin(request)
    table_id = request.path_params["table_id"]
    if not await anyio.to_thread.run_sync(ops.tables.retire, table_id, "operator"):
        raise Refused(404, "NO_SUCH_TABLE", "there is no open table of this id")
    return JSONResponse({"table": table_id, "closed": True})


def routes() -> list[Route]:
    """The operator's routes, for the application's route list. Raises nothing."""
    return [
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/metrics", metrics, methods=["GET"]),
        Route("/admin/tables", admin_tables, methods=["GET"]),
        Route("/admin/tables/{table_id}/close", admin_close, methods=["POST"]),
    ]


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
    """Runs the sweep every ``sweep_every`` seconds while the application serves."""
    ops: Operator = app.state.ops

    async def sweeping() -> None:
        while True:
            await anyio.sleep(ops.settings.sweep_every)
            try:
                await anyio.to_thread.run_sync(ops.sweep)
            except Exception:  # pragma: no cover - a database failure: logged, swept again later
                log.exception("sweep failed")

    async def pausing() -> None:  # the ends of hands whose wait is over move on
        while True:
            await anyio.sleep(PAUSE_EVERY)
            try:
                await resume_due(app)
            except Exception:  # pragma: no cover - logged; the tables are tried again
                log.exception("moving on after a hand failed")

    async def counting() -> None:
        while True:
            await anyio.sleep(COUNT_EVERY)
            ops.metrics.update_process()  # a worker's process_* gauges (--workers)
            try:
                await anyio.to_thread.run_sync(ops.count_open)
            except Exception as err:  # an outage: the last count stands until the next
                log.debug("counting the open tables: %s", err)

    async with anyio.create_task_group() as group:
        if ops.settings.sweep_every:
            group.start_soon(sweeping)
        group.start_soon(counting)
        group.start_soon(pausing)
        count = ops.tables.open_count()
        ops.metrics.open_tables.set(count)
        log.info("started", extra={"fields": {"open_tables": count}})
        yield {}
        ops.draining = True
        group.cancel_scope.cancel()
    await ops.tables.store.aclose()  # the pool of this event loop, if it has one
    log.info("stopped")
