"""The queries every request of a PostgreSQL store asks, and what a process says when
PostgreSQL does not answer.

The status of a game (:data:`~fivehundred.server._schema.STATUS`: its number of
actions, whether it is closed, its seat kinds) is asked before every answer of a
process that shares its database with others, and a person's move is one
statement. Both are asked from the event loop, on pools of asyncio connections, as
well as from worker threads on pools of blocking ones: handing a question to a
thread and back costs the process more CPU than the question itself.
:class:`~fivehundred.server.store.PostgresStore` takes these methods.
"""

from __future__ import annotations

import asyncio
import select
import threading
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final

from fivehundred.server._schema import STATUS

#: Seconds to wait for PostgreSQL to accept a connection.
CONNECT_TIMEOUT: Final = 5
#: Connections of one process's pool to PostgreSQL, for its requests (its listener has one more).
POOL_SIZE: Final = 8
#: Seconds a request waits for a connection of the pool before it is answered 503.
POOL_WAIT: Final = 2.0
#: :data:`STATUS` in psycopg's placeholders.
PG_STATUS: Final = STATUS.replace("?", "%s")


def status_row(row: Sequence[Any]) -> tuple[int, bool, str]:
    """A row of :data:`STATUS` as :meth:`Store.status` gives it."""
    return int(row[0]), bool(row[1]), str(row[2] or "[]")


#: :data:`STATUS` of many games at once: a row for each of them still stored.
PG_STATUS_MANY: Final = (
    "SELECT g.id, (SELECT COALESCE(MAX(n) + 1, 0) FROM action WHERE game = g.id), "
    "(SELECT COUNT(*) FROM closed WHERE game = g.id), g.seats "
    "FROM game AS g WHERE g.id = ANY(%s)"
)
#: The status of a game no longer stored (purged): what :data:`STATUS` reads of it.
GONE: Final = (0, False, "[]")

#: What a client is told when the database did not answer.
UNAVAILABLE: Final = "the database did not answer: read the table again and retry"


class Unavailable(Exception):
    """The database did not answer: its connection was lost (PostgreSQL restarted, the
    network dropped) or a new one was refused. The server answers 503
    ``DATABASE_UNAVAILABLE``; the pool replaces a lost connection before the next
    call. A write that failed so may or may not be stored: the client reads the
    table's version to know."""


class _Gone(Exception):
    """A pooled connection PostgreSQL has ended (it is dropped, and another handed out)."""


async def still_open(db: Any) -> None:
    """The check of the loop's pool of writes on a connection it hands out, without a
    round trip: an idle connection has nothing to read, so one that has (PostgreSQL's
    goodbye as it restarts, or the end of the stream) is dropped for another. A
    connection ended later still is a failed write, asked once again
    (:meth:`~fivehundred.server.store.PostgresStore.append_awaited`)."""
    if db.closed or db.broken or _readable(db.fileno()):
        raise _Gone("PostgreSQL ended this connection")


def _readable(fd: int) -> bool:
    """Whether a socket has something to read now: ``poll``, where there is one, since
    ``select`` refuses a descriptor past 1,023 (a server holding many sockets)."""
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        return bool(poller.poll(0))
    return bool(select.select([fd], [], [], 0)[0])  # pragma: no cover - Windows


class Asker:
    """The status questions of one event loop, asked together: while one query is out,
    the games asked meanwhile wait, and the next query asks for all of them.

    A question never joins a query already out: that query's snapshot may predate a
    move acknowledged just before the question came.
    """

    def __init__(self, query: Callable[[list[str]], Awaitable[dict[str, tuple[int, bool, str]]]]):
        self._query = query
        self._waiting: dict[str, list[asyncio.Future[tuple[int, bool, str]]]] = {}
        self._out = False

    async def ask(self, game: str) -> tuple[int, bool, str]:
        """``game``'s status, from a query that began after this call."""
        if self._out:
            future: asyncio.Future[tuple[int, bool, str]] = (
                asyncio.get_running_loop().create_future()
            )
            self._waiting.setdefault(game, []).append(future)
            return await future
        self._out = True
        try:  # nothing out: asked at once, and the questions that come meanwhile wait
            return (await self._query([game])).get(game, GONE)
        finally:
            self._next()

    def _next(self) -> None:
        if not self._waiting:
            self._out = False
            return
        batch, self._waiting = self._waiting, {}
        asyncio.get_running_loop().create_task(self._answer(batch))

    async def _answer(self, batch: dict[str, list[asyncio.Future[tuple[int, bool, str]]]]) -> None:
        try:
            found = await self._query(list(batch))
        except BaseException as err:  # each question raises it (an outage: Unavailable)
            for futures in batch.values():
                for future in futures:
                    if not future.done():
                        future.set_exception(err)
        else:
            for game, futures in batch.items():
                for future in futures:
                    if not future.done():  # a request cancelled while it waited
                        future.set_result(found.get(game, GONE))
        finally:
            self._next()


class LoopQueries:
    """:meth:`status` and :meth:`status_soon` of a PostgreSQL store, which sets the
    attributes below, and the event loop's pools (:meth:`loop_pool`)."""

    _url: str
    _psycopg: Any
    _pool_timeout: type[Exception]
    _async_pool: Any
    _pool: Any
    _closed: threading.Event
    #: The running event loop, its pools by name (each one's opening, and the pool) and
    #: its :class:`Asker` of statuses.
    _loop_pools: (
        tuple[asyncio.AbstractEventLoop, dict[str, tuple[asyncio.Task[None], Any]], Asker] | None
    ) = None

    def status(self, game: str) -> tuple[int, bool, str]:
        # from a worker thread (a table to catch up with another process's change): one
        # statement (one snapshot by itself), with no BEGIN or COMMIT around it. A
        # connection lost meanwhile fails at once; the pool drops it, and the read is
        # asked again on the next, at most once for each connection it holds.
        if self._closed.is_set():
            raise Unavailable("the store is closed")
        for attempt in range(POOL_SIZE + 1):
            try:
                with self._pool.connection() as db:
                    return status_row(db.execute(PG_STATUS, (game, game, game)).fetchone())
            except (self._psycopg.OperationalError, self._pool_timeout) as err:
                self._status_failed(err, attempt)
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    def _status_failed(self, err: Exception, attempt: int) -> None:
        """Raise :class:`Unavailable` for a status read that failed, unless it is to be
        asked again: a lost connection, while the pool may hold others."""
        if isinstance(err, self._pool_timeout) or attempt == POOL_SIZE:
            raise self.lost(err) from None

    async def status_soon(self, game: str) -> tuple[int, bool, str]:
        # :meth:`status` on the event loop, on an asyncio pool of its own: no worker
        # thread, whose hand-over costs more CPU than the query; the questions of many
        # requests at once are one query (:class:`Asker`)
        if self._closed.is_set():
            raise Unavailable("the store is closed")
        await self.loop_pool("status", checked=False)
        assert self._loop_pools is not None  # made by loop_pool
        return await self._loop_pools[2].ask(game)

    async def _statuses(self, games: list[str]) -> dict[str, tuple[int, bool, str]]:
        """The status of each of ``games`` still stored, in one query (the same
        retries as :meth:`status`).

        One game, the usual question, is asked by :data:`PG_STATUS`, prepared: with no
        array to send, it costs the process about a sixth less than
        :data:`PG_STATUS_MANY`, and PostgreSQL less time. A game no longer stored reads
        as :data:`GONE` either way.
        """
        pool = await self.loop_pool("status", checked=False)
        for attempt in range(POOL_SIZE + 1):
            try:
                async with pool.connection() as db:
                    if len(games) == 1:
                        game = games[0]
                        cursor = await db.execute(PG_STATUS, (game, game, game), prepare=True)
                        return {game: status_row(await cursor.fetchone())}
                    rows = await (await db.execute(PG_STATUS_MANY, (games,))).fetchall()
                return {str(row[0]): status_row(row[1:]) for row in rows}
            except (self._psycopg.OperationalError, self._pool_timeout) as err:
                self._status_failed(err, attempt)
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    async def loop_pool(self, name: str, *, checked: bool) -> Any:
        """The running event loop's asyncio pool ``name``, opened on its first use (a
        test's second loop gets pools of its own); a ``checked`` pool tries each
        connection before handing it out (:func:`still_open`), as the pool of the writes
        does."""
        loop = asyncio.get_running_loop()
        if self._loop_pools is None or self._loop_pools[0] is not loop:
            self._loop_pools = (loop, {}, Asker(self._statuses))
        pools = self._loop_pools[1]
        if name not in pools:
            pool = self._async_pool(
                self._url,
                min_size=1,
                # the status has one query out at a time (Asker): two, for a lost one
                max_size=POOL_SIZE if checked else 2,
                kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT},
                check=still_open if checked else None,
                timeout=POOL_WAIT,
                reconnect_timeout=CONNECT_TIMEOUT,
                name=f"fivehundred-{name}",
                open=False,
            )
            pools[name] = (loop.create_task(pool.open()), pool)
        opening, pool = pools[name]
        await opening  # once open, a finished task: no wait
        return pool

    def lost(self, err: Exception) -> Unavailable:
        """A pool's failure as :class:`Unavailable`: a connection lost, or none in time."""
        if isinstance(err, self._pool_timeout):
            return Unavailable(f"no PostgreSQL connection within {POOL_WAIT:g} s: is it running?")
        return Unavailable(f"the PostgreSQL connection failed: {err}".strip())

    async def aclose(self) -> None:
        """Close the event loop's pools (the server's lifespan does, at its end)."""
        pools, self._loop_pools = self._loop_pools, None
        if pools is not None and pools[0] is asyncio.get_running_loop():
            for _, pool in pools[1].values():
                await pool.close()
