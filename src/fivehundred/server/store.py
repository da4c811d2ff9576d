"""Where the game server keeps its tables: SQLite (the default) or PostgreSQL.

Both stores hold the same relations: each game's rules, seats, seed and first
dealer; the hash of each person's token (and the spectator's, as seat -1); the
seats' names; the deck of every hand; every accepted action, numbered from 0;
and, for an archived game, when and why it was closed. A table is rebuilt by
dealing the stored decks and applying the stored actions in order
(:class:`~fivehundred.server.tables.Tables` does that; a store knows nothing of
the game).

Several server processes may share one PostgreSQL database. The action number is
part of the primary key, so two processes that both accept a move at version
``n`` cannot both store it: the second transaction fails and
:meth:`Store.append` raises :class:`Conflict`; the loser reads the table again
and answers ``409 STALE_VERSION``. Every commit also sends a notification
(``NOTIFY fivehundred``) with the table and its new version, which the other
processes receive through :meth:`Store.listen` to push the change to their
players.

:func:`open_store` picks the store from the ``--db`` setting: a
``postgresql://`` (or ``postgres://``) URL for PostgreSQL, anything else is a
SQLite file (``":memory:"`` for one that dies with the process).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Protocol

import attrs

from fivehundred._engine.quoting import expect, quote
from fivehundred.errors import FiveHundredError
from fivehundred.server._buckets import SharedBuckets
from fivehundred.server._commits import GroupCommits, Job
from fivehundred.server._dburl import describe, is_postgres_url
from fivehundred.server._logs import LOGGER
from fivehundred.server._pgloop import (
    CONNECT_TIMEOUT,
    POOL_SIZE,
    POOL_WAIT,
    UNAVAILABLE,
    LoopQueries,
    Unavailable,
    status_row,
)
from fivehundred.server._schema import (
    ACTION_ROW,
    DEAL_ROW,
    SCHEMA_VERSION,
    STATUS,
    Batch,
    SchemaTooNew,
    append_rows,
    upgrade,
)

__all__ = [
    "CHANNEL",
    "CLOSED",
    "SCHEMA_VERSION",
    "SEATS_CHANGED",
    "UNAVAILABLE",
    "Change",
    "Conflict",
    "GameRow",
    "PostgresStore",
    "SchemaTooNew",
    "SqliteStore",
    "Store",
    "StoredGame",
    "Unavailable",
    "describe",
    "is_postgres_url",
    "open_store",
]

#: The PostgreSQL notification channel of table changes: each payload is a game's id and
#: its new version, or :data:`CLOSED` or :data:`SEATS_CHANGED` in the version's place.
CHANNEL: Final = "fivehundred"
#: A plain append on PostgreSQL, one statement: every action and deck (arrays, a column
#: each), then the notification, which is sent at the statement's commit.
PG_APPEND: Final = (
    "WITH moves AS (INSERT INTO action (game, n, seat, action) "
    "SELECT * FROM unnest(%s::text[], %s::integer[], %s::integer[], %s::text[])), "
    "deals AS (INSERT INTO deal (game, hand, deck) "
    "SELECT * FROM unnest(%s::text[], %s::integer[], %s::text[])) "
    "SELECT pg_notify(%s, %s)"
)
_IF_OPEN: Final = (  # the guard of both statements below, and their notification
    "WITH ok AS (SELECT 1 FROM game WHERE id = %s AND seats::jsonb = %s::jsonb "
    "AND NOT EXISTS (SELECT 1 FROM closed WHERE game = %s)), ",
    "SELECT pg_notify(%s, %s) FROM ok",
)
#: :data:`PG_APPEND` of a person's move from the event loop, which asks no status
#: first: nothing is stored (no row comes back) unless the game is open and its seats
#: are the ones the move was applied to (a seat given away elsewhere changes them).
PG_APPEND_IF_SEATS: Final = (
    f"{_IF_OPEN[0]}moves AS (INSERT INTO action (game, n, seat, action) SELECT u.* FROM "
    "unnest(%s::text[], %s::integer[], %s::integer[], %s::text[]) AS u "
    "WHERE EXISTS (SELECT 1 FROM ok)), "
    "deals AS (INSERT INTO deal (game, hand, deck) SELECT u.* FROM "
    "unnest(%s::text[], %s::integer[], %s::text[]) AS u WHERE EXISTS (SELECT 1 FROM ok)) "
    f"{_IF_OPEN[1]}"
)
#: :data:`PG_APPEND_IF_SEATS` of one action and no deck (a person's usual move), with the
#: row's values for arrays: arrays cost the process more to send than the rest of the move.
PG_APPEND_ONE_IF_SEATS: Final = (
    f"{_IF_OPEN[0]}moves AS (INSERT INTO action (game, n, seat, action) "
    "SELECT %s::text, %s::integer, %s::integer, %s::text WHERE EXISTS (SELECT 1 FROM ok)) "
    f"{_IF_OPEN[1]}"
)
#: The version announced when a game is closed.
CLOSED: Final = -1
#: The version announced when a game's seats or tokens change (a seat given to a computer).
SEATS_CHANGED: Final = -2

#: The actions stored from a number on (:meth:`PostgresStore.append_awaited`'s check).
PG_STORED: Final = (
    "SELECT n, seat, action FROM action WHERE game = %s AND n >= %s ORDER BY n LIMIT %s"
)
#: Seconds the listener waits before it connects again after losing its connection.
RELISTEN_EVERY: Final = 1.0

log = logging.getLogger(LOGGER)

#: The relations a game's rows are in, the game's own last (foreign keys point at it).
_RELATIONS: Final = ("action", "deal", "token", "name", "closed", "game")


class Conflict(Exception):
    """Another writer stored actions with these numbers first (a move raced through two
    processes): the table must be read again."""


@attrs.frozen
class GameRow:
    """A game's fixed facts: its rules (as options JSON), seat kinds (JSON), seed and dealer."""

    id: str
    rules: str
    seats: str
    seed: str
    dealer: int


@attrs.frozen
class StoredGame:
    """What a store holds of one game: its row, token hashes by seat, names by seat, the
    decks and the actions in order, and whether the game is closed (archived)."""

    row: GameRow
    hashes: dict[int, str]
    decks: tuple[str, ...]
    actions: tuple[tuple[int, str], ...]
    names: dict[int, str] = attrs.field(factory=dict)
    closed: bool = False


@attrs.frozen
class Change:
    """Besides the actions and decks of a move: a new seat list (JSON) and a seat whose
    token is dropped, as when a person's seat is given to a computer player."""

    seats: str | None = None
    drop_token: int | None = None
    #: Token rows moved from one seat number to another, ``(from, to)`` in order: a seat
    #: given to a computer keeps its person's token as a former seat's (``-2 - seat``),
    #: so that person can watch and ask for the seat back; giving it back moves it home.
    renumber: tuple[tuple[int, int], ...] = ()


class Store(Protocol):
    """The storage interface of :class:`~fivehundred.server.tables.Tables`.

    Every method is blocking and thread-safe: the server calls them from worker
    threads, never on its event loop.
    """

    def count(self) -> int:
        """The number of games stored."""
        ...

    def open_count(self) -> int:
        """The number of games not closed."""
        ...

    def open_games(self) -> list[tuple[str, str, int]]:
        """Each open game's id, seats (JSON) and number of actions, oldest first."""
        ...

    def create(
        self,
        row: GameRow,
        hashes: Mapping[int, str],
        names: Mapping[int, str],
        actions: Sequence[tuple[int, str]],
        decks: Sequence[str],
    ) -> None:
        """Store a new game with its tokens' hashes, names, first actions and decks, in one
        transaction."""
        ...

    def append(
        self,
        game: str,
        first: int,
        actions: Sequence[tuple[int, str]],
        first_hand: int,
        decks: Sequence[str],
        *,
        change: Change | None = None,
    ) -> None:
        """Store actions numbered from ``first`` and decks numbered from ``first_hand`` (and
        ``change``), in one transaction; :class:`Conflict` if any number is taken."""
        ...

    def load(self, game: str) -> StoredGame | None:
        """The whole game, or ``None`` if there is no such game."""
        ...

    def status(self, game: str) -> tuple[int, bool, str]:
        """The number of actions stored for ``game``, whether it is closed and its seat
        kinds (JSON), which a seat given to a computer player changes."""
        ...

    async def status_soon(self, game: str) -> tuple[int, bool, str]:
        """:meth:`status`, asked from the event loop without blocking it."""
        ...

    async def aclose(self) -> None:
        """Release what the running event loop holds (:meth:`close` releases the rest)."""
        ...

    def archive(self, game: str, at: float, reason: str) -> bool:
        """Mark an open game closed at ``at`` (seconds since the epoch) for ``reason``;
        whether it was open."""
        ...

    def purge(self, before: float) -> int:
        """Delete the games closed at or before ``before``; how many."""
        ...

    def ping(self) -> None:
        """Ask the database a trivial question (readiness); raises if it cannot answer."""
        ...

    def listen(self, callback: Callable[[str, int], None], missed: Callable[[], None]) -> None:
        """Call ``callback(game, version)`` (from another thread) whenever another process
        stores a change, and ``missed()`` when changes may have gone unheard (the
        listening connection was lost, and is back); a store that only one process uses
        never calls them."""
        ...

    def close(self) -> None:
        """Release the connections (and stop listening)."""
        ...


def _append_params(batch: Batch) -> tuple[object, ...]:
    """:data:`PG_APPEND`'s parameters: the rows' columns, then the notification."""
    moves, deals = batch
    columns = [list(column) for column in zip(*moves, strict=True)]
    hands = [list(column) for column in zip(*deals, strict=True)] or [[]] * 3
    return (*columns, *hands, CHANNEL, _note(moves))


def _note(moves: list[tuple[object, ...]]) -> str:
    """The notification of an append of these action rows: the game and its new version."""
    game, last = moves[-1][0], moves[-1][1]
    return f"{game} {int(last) + 1}"  # type: ignore[call-overload]  # a row's n is an int


def open_store(db: str | Path) -> Store:
    """The store ``db`` names: PostgreSQL for a ``postgresql://`` URL, else a SQLite file."""
    if is_postgres_url(db):
        return PostgresStore(str(db))
    return SqliteStore(db)


class _Relations:
    """The store's queries, written once for both databases.

    A subclass gives the connection: :meth:`_write` (a transaction under the
    lock), :meth:`_read` (one consistent snapshot under the lock), :meth:`_rows`
    and :meth:`_many` (run a statement written with ``?`` placeholders), and
    whether an error is a taken key.
    """

    #: The order of a game's creation (SQLite's rowid; PostgreSQL's insertion order).
    _created: str = "rowid"

    def _write(self) -> contextlib.AbstractContextManager[object]:
        raise NotImplementedError

    def _read(self) -> contextlib.AbstractContextManager[object]:
        raise NotImplementedError

    def _rows(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def _many(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        raise NotImplementedError

    def _taken(self, error: Exception) -> bool:
        raise NotImplementedError

    def _announce(self, game: str, version: int) -> None:
        """Tell the other processes, at commit, that ``game`` is at ``version`` now."""

    def count(self) -> int:
        with self._read():
            return int(self._rows("SELECT COUNT(*) FROM game")[0][0])

    def open_count(self) -> int:
        with self._read():
            (row,) = self._rows(
                "SELECT COUNT(*) FROM game WHERE id NOT IN (SELECT game FROM closed)"
            )
        return int(row[0])

    def open_games(self) -> list[tuple[str, str, int]]:
        with self._read():
            rows = self._rows(
                "SELECT g.id, g.seats, (SELECT COUNT(*) FROM action a WHERE a.game = g.id) "
                "FROM game g WHERE g.id NOT IN (SELECT game FROM closed) "
                f"ORDER BY g.{self._created}"
            )
        return [(str(game), str(seats), int(count)) for game, seats, count in rows]

    def create(
        self,
        row: GameRow,
        hashes: Mapping[int, str],
        names: Mapping[int, str],
        actions: Sequence[tuple[int, str]],
        decks: Sequence[str],
    ) -> None:
        self._together(lambda: self._create_rows(row, hashes, names, actions, decks))

    def _together(self, rows: Callable[[], None], batch: Batch | None = None) -> None:
        """Run ``rows`` (statements) in a transaction of their own, committed before this
        returns; a taken key raises :class:`Conflict`. SQLite commits several at once
        (``batch``: the rows that ``rows`` inserts, where it only inserts actions and deals)."""
        try:
            with self._write():
                rows()
        except Exception as err:
            if self._taken(err):
                raise Conflict(str(err)) from None
            raise

    def _create_rows(
        self,
        row: GameRow,
        hashes: Mapping[int, str],
        names: Mapping[int, str],
        actions: Sequence[tuple[int, str]],
        decks: Sequence[str],
    ) -> None:
        self._rows(
            "INSERT INTO game (id, rules, seats, seed, dealer) VALUES (?, ?, ?, ?, ?)",
            (row.id, row.rules, row.seats, row.seed, row.dealer),
        )
        self._many(
            "INSERT INTO token VALUES (?, ?, ?)",
            [(row.id, seat, digest) for seat, digest in hashes.items()],
        )
        self._many(
            "INSERT INTO name VALUES (?, ?, ?)",
            [(row.id, seat, name) for seat, name in names.items()],
        )
        self._insert(row.id, 0, actions, 1, decks)

    def append(
        self,
        game: str,
        first: int,
        actions: Sequence[tuple[int, str]],
        first_hand: int,
        decks: Sequence[str],
        *,
        change: Change | None = None,
    ) -> None:
        self._together(*self._append_job(game, first, actions, first_hand, decks, change=change))

    def _append_job(
        self,
        game: str,
        first: int,
        actions: Sequence[tuple[int, str]],
        first_hand: int,
        decks: Sequence[str],
        *,
        change: Change | None,
    ) -> tuple[Callable[[], None], Batch | None]:
        """An append's statements, and its rows where it only inserts (no ``change``)."""

        def rows() -> None:
            if change is not None and change.seats is not None:
                self._rows("UPDATE game SET seats = ? WHERE id = ?", (change.seats, game))
            if change is not None and change.drop_token is not None:
                self._rows(
                    "DELETE FROM token WHERE game = ? AND seat = ?", (game, change.drop_token)
                )
            for start, end in () if change is None else change.renumber:
                self._rows("DELETE FROM token WHERE game = ? AND seat = ?", (game, end))
                self._rows(
                    "UPDATE token SET seat = ? WHERE game = ? AND seat = ?", (end, game, start)
                )
            if change is not None:
                self._announce(game, SEATS_CHANGED)
            self._insert(game, first, actions, first_hand, decks)

        batch = append_rows(game, first, actions, first_hand, decks)  # (PostgreSQL's unused)
        return rows, batch if change is None else None

    def _insert(
        self,
        game: str,
        first: int,
        actions: Sequence[tuple[int, str]],
        first_hand: int,
        decks: Sequence[str],
    ) -> None:
        moves, deals = append_rows(game, first, actions, first_hand, decks)
        self._many(ACTION_ROW, moves)
        self._many(DEAL_ROW, deals)
        self._announce(game, first + len(actions))

    def load(self, game: str) -> StoredGame | None:
        with self._read():
            rows = self._rows(
                "SELECT id, rules, seats, seed, dealer FROM game WHERE id = ?", (game,)
            )
            if not rows:
                return None
            hashes = self._rows("SELECT seat, hash FROM token WHERE game = ?", (game,))
            names = self._rows("SELECT seat, name FROM name WHERE game = ?", (game,))
            decks = self._rows("SELECT deck FROM deal WHERE game = ? ORDER BY hand", (game,))
            actions = self._rows(
                "SELECT seat, action FROM action WHERE game = ? ORDER BY n", (game,)
            )
            closed = self._rows("SELECT 1 FROM closed WHERE game = ?", (game,))
        return StoredGame(
            GameRow(*rows[0]),
            {int(seat): str(digest) for seat, digest in hashes},
            tuple(str(deck) for (deck,) in decks),
            tuple((int(seat), str(text)) for seat, text in actions),
            {int(seat): str(name) for seat, name in names},
            bool(closed),
        )

    def status(self, game: str) -> tuple[int, bool, str]:
        with self._read():
            (row,) = self._rows(STATUS, (game, game, game))
        return status_row(row)

    async def status_soon(self, game: str) -> tuple[int, bool, str]:
        # a file on this machine answers in microseconds; only tests ask (one process
        # owns a SQLite store, so nothing asks it before an answer)
        return self.status(game)

    async def aclose(self) -> None:
        """Nothing is held on the event loop."""

    def archive(self, game: str, at: float, reason: str) -> bool:
        with self._write():
            known = self._rows("SELECT 1 FROM game WHERE id = ?", (game,))
            done = self._rows("SELECT 1 FROM closed WHERE game = ?", (game,))
            if known and not done:
                self._rows("INSERT INTO closed VALUES (?, ?, ?)", (game, at, reason))
                self._announce(game, CLOSED)
        return bool(known and not done)

    def purge(self, before: float) -> int:
        with self._write():
            games = self._rows("SELECT game FROM closed WHERE at <= ?", (before,))
            for relation in _RELATIONS:
                column = "id" if relation == "game" else "game"
                self._many(f"DELETE FROM {relation} WHERE {column} = ?", games)
        return len(games)

    def ping(self) -> None:
        with self._read():
            self._rows("SELECT 1")


class SqliteStore(_Relations):
    """One SQLite file, shared by the server's threads under a lock.

    WAL mode with ``synchronous=FULL``: a committed move survives a crash of the
    process and of the machine. One process only: SQLite sends no notifications.

    Writes are committed in groups (:mod:`fivehundred.server._commits`): one
    ``fsync`` stores every write that arrived together, and no write is answered
    before the commit that holds it: an acknowledged move is a stored move.
    """

    def __init__(self, path: str | Path) -> None:
        expect(path, (str, Path), "a SQLite file's path (a str or Path)")
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        self._commits = GroupCommits(self._db, self._lock)
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            with self._db:  # one transaction: a failed migration leaves the old schema whole
                self._db.execute("BEGIN IMMEDIATE")
                names = self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                relations = {str(name) for (name,) in names.fetchall()}
                upgrade(self._rows, relations, postgres=False)

    @contextlib.contextmanager
    def _write(self) -> Iterator[object]:
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            yield self._db

    def _together(self, rows: Callable[[], None], batch: Batch | None = None) -> None:
        job = Job(rows, batch)
        self._commits.together(job)
        if job.error is not None:
            raise self._conflict(job.error)

    def _conflict(self, error: BaseException) -> BaseException:
        """A write's error as raised: :class:`Conflict` for a taken action number."""
        if isinstance(error, Exception) and self._taken(error):
            return Conflict(str(error))
        return error

    def append_soon(
        self,
        game: str,
        first: int,
        actions: Sequence[tuple[int, str]],
        first_hand: int,
        decks: Sequence[str],
        *,
        done: Callable[[BaseException | None], None],
    ) -> None:
        """:meth:`append` from the event loop: stored by the writer thread, which calls
        ``done`` with the write's error (``None``: stored; :class:`Conflict`: a number
        taken) once the commit that holds it is over."""
        rows, batch = self._append_job(game, first, actions, first_hand, decks, change=None)
        self._commits.soon(Job(rows, batch, lambda error: done(error and self._conflict(error))))

    def _read(self) -> contextlib.AbstractContextManager[object]:
        return self._lock

    def _rows(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        return self._db.execute(sql, params).fetchall()

    def _many(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        self._db.executemany(sql, rows)

    def _taken(self, error: Exception) -> bool:
        return isinstance(error, sqlite3.IntegrityError)

    def listen(self, callback: Callable[[str, int], None], missed: Callable[[], None]) -> None:
        """Nothing to listen to: one process owns a SQLite store."""

    def close(self) -> None:
        self._commits.close()
        with self._lock:
            self._db.close()


class PostgresStore(LoopQueries, _Relations, SharedBuckets):
    """A PostgreSQL database (psycopg 3), shared by any number of server processes.

    A pool of up to :data:`POOL_SIZE` connections (psycopg_pool) serves this
    process's threads, so requests of different tables read and commit at once;
    one more connection ``LISTEN``\\ s on :data:`CHANNEL` in a daemon thread once
    :meth:`listen` is called. Writes are ``READ COMMITTED`` transactions: the primary
    keys do the concurrency control (:class:`Conflict`). Reads take one
    ``REPEATABLE READ`` snapshot, so a move committed meanwhile is seen whole or not
    at all.
    """

    _created = "created"

    def __init__(self, url: str) -> None:
        expect(url, str, "a postgresql:// URL (a str)")
        if not is_postgres_url(url):
            raise FiveHundredError(f"not a postgresql:// URL: {quote(describe(url))}")
        # the server extra's PostgreSQL driver and its pool, imported only when used
        import psycopg
        import psycopg_pool

        self._psycopg: Any = psycopg
        self._pool_timeout: type[Exception] = psycopg_pool.PoolTimeout
        self._async_pool = psycopg_pool.AsyncConnectionPool
        self._url = url
        self._closed = threading.Event()
        self._listener: threading.Thread | None = None
        self._here = threading.local()  # the connection of this thread's transaction
        # one schema creation at a time across processes starting together
        with contextlib.closing(self._connect()) as first, first.transaction():
            first.execute("SELECT pg_advisory_xact_lock(500500)")
            names = first.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            )
            relations = {str(name) for (name,) in names.fetchall()}

            def run(sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
                cursor = first.execute(sql.replace("?", "%s"), params)
                return cursor.fetchall() if cursor.description is not None else []

            # game.created is the creation order, for the admin listing (SQLite has its rowid)
            upgrade(run, relations, postgres=True)
        self._pool: Any = psycopg_pool.ConnectionPool(
            url,
            min_size=1,
            max_size=POOL_SIZE,
            kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT},
            # a connection lost (PostgreSQL restarted) is replaced before it is handed out
            check=psycopg_pool.ConnectionPool.check_connection,
            timeout=POOL_WAIT,
            # give up a failing connection attempt soon: the next request starts a new one
            # at once, so the server is back within seconds of PostgreSQL, however long
            # it was away (the pool's own backoff would wait minutes)
            reconnect_timeout=CONNECT_TIMEOUT,
            name="fivehundred",
            open=False,
        )
        self._pool.open()

    def _connect(self) -> Any:
        """A new autocommit connection; :class:`Unavailable` if PostgreSQL refuses it."""
        try:
            return self._psycopg.connect(
                self._url, autocommit=True, connect_timeout=CONNECT_TIMEOUT
            )
        except self._psycopg.OperationalError as err:
            raise Unavailable(f"PostgreSQL refused a connection: {err}".strip()) from None
        except self._psycopg.ProgrammingError:  # its message may quote the password
            raise FiveHundredError(
                f"not a PostgreSQL URL psycopg can read: {describe(self._url)} "
                "(postgresql://USER:PASSWORD@HOST:PORT/DATABASE)"
            ) from None

    @contextlib.contextmanager
    def _connection(self) -> Iterator[Any]:
        """A connection of the pool; one that fails meanwhile, or none within
        :data:`POOL_WAIT`, is :class:`Unavailable`."""
        if self._closed.is_set():
            raise Unavailable("the store is closed")
        try:
            with self._pool.connection() as db:
                yield db
        except (self._psycopg.OperationalError, self._pool_timeout) as err:
            raise self.lost(err) from None

    @contextlib.contextmanager
    def _transaction(self, *, snapshot: bool) -> Iterator[object]:
        """A transaction on a connection of the pool (:meth:`_connection`)."""
        with self._connection() as db, db.transaction():
            if snapshot:
                db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            outer, self._here.db = getattr(self._here, "db", None), db
            try:
                yield db
            finally:
                self._here.db = outer  # a transaction inside another gets its own

    def _write(self) -> contextlib.AbstractContextManager[object]:
        return self._transaction(snapshot=False)

    def _read(self) -> contextlib.AbstractContextManager[object]:
        return self._transaction(snapshot=True)

    def _rows(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        cursor = self._here.db.execute(sql.replace("?", "%s"), params)
        return cursor.fetchall() if cursor.description is not None else []

    def _many(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        if rows:
            with self._here.db.cursor() as cursor:
                cursor.executemany(sql.replace("?", "%s"), rows)

    def _taken(self, error: Exception) -> bool:
        return isinstance(error, self._psycopg.errors.UniqueViolation)

    def _together(self, rows: Callable[[], None], batch: Batch | None = None) -> None:
        """A plain append (its ``batch`` of rows) is one statement, its own transaction:
        the actions, the decks and the notification, in one round trip, not five."""
        if batch is None or not batch[0]:
            super()._together(rows)
            return
        try:
            with self._connection() as db:
                db.execute(PG_APPEND, _append_params(batch))
        except self._psycopg.errors.UniqueViolation as err:
            raise Conflict(str(err)) from None

    async def append_awaited(self, batch: Batch, seats: str) -> None:
        """:meth:`append` of a person's move (no change of seats; its rows, as
        :func:`~fivehundred.server._schema.append_rows` gives them) from the event loop,
        in one statement, which stores it only while the game is open with these
        ``seats`` (JSON): else :class:`Conflict`, the table to be read again. So a move
        needs no status asked first: a change elsewhere refuses it at the database.

        A write whose connection failed is asked once more on another. If the first
        did reach the database after all, the second finds its numbers taken, by the
        same rows: that is the move stored, not a :class:`Conflict`.
        """
        if self._closed.is_set():
            raise Unavailable("the store is closed")
        pool = await self.loop_pool("write", checked=True)
        moves, deals = batch
        game = moves[0][0]
        if len(moves) == 1 and not deals:  # one action: its values, no arrays
            statement = PG_APPEND_ONE_IF_SEATS
            params = (game, seats, game, *moves[0], CHANNEL, _note(moves))
        else:
            statement, params = PG_APPEND_IF_SEATS, (game, seats, game, *_append_params(batch))
        for attempt in range(2):
            try:
                async with pool.connection() as db:
                    cursor = await db.execute(statement, params, prepare=True)
                    if not await cursor.fetchall():
                        raise Conflict("the game was closed, or its seats changed, elsewhere")
                return
            except self._psycopg.errors.UniqueViolation as err:
                if attempt and await self._holds(pool, batch):
                    return
                raise Conflict(str(err)) from None
            except (self._psycopg.OperationalError, self._pool_timeout) as err:
                if attempt or isinstance(err, self._pool_timeout):
                    raise self.lost(err) from None
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    async def _holds(self, pool: Any, batch: Batch) -> bool:
        """Whether the database holds exactly these actions at their numbers."""
        moves = batch[0]
        game, first = moves[0][0], moves[0][1]
        try:
            async with pool.connection() as db:
                cursor = await db.execute(PG_STORED, (game, first, len(moves)))
                stored = await cursor.fetchall()
        except (self._psycopg.OperationalError, self._pool_timeout) as err:
            raise self.lost(err) from None
        return [tuple(row) for row in stored] == [tuple(move[1:]) for move in moves]

    def _announce(self, game: str, version: int) -> None:
        # delivered at commit, to every listening process (this one included)
        self._here.db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game} {version}"))

    def listen(self, callback: Callable[[str, int], None], missed: Callable[[], None]) -> None:
        if self._listener is not None:
            raise RuntimeError("this store already has a listener")
        first = self._listening()  # the first connection's failure is the caller's to see

        def run() -> None:
            connection: Any = first
            while not self._closed.is_set():
                try:
                    if connection is None:
                        connection = self._listening()
                        missed()  # what was announced while nobody listened
                    # wake at least every half second to see whether the store closed
                    for note in connection.notifies(timeout=0.5):
                        game, _, version = note.payload.partition(" ")
                        if version.lstrip("-").isdigit():
                            callback(game, int(version))
                except (Unavailable, self._psycopg.OperationalError) as err:
                    log.warning("listening for other processes' changes: %s", err)
                    if connection is not None:
                        connection.close()
                    connection = None
                    self._closed.wait(RELISTEN_EVERY)
                except Exception:  # a callback failed: keep listening for the next change
                    log.exception("handling another process's change")
            if connection is not None:
                connection.close()

        self._listener = threading.Thread(target=run, name="fivehundred-listen", daemon=True)
        self._listener.start()

    def _listening(self) -> Any:
        connection = self._connect()
        try:
            connection.execute(f"LISTEN {CHANNEL}")
        except self._psycopg.OperationalError as err:
            connection.close()
            raise Unavailable(f"PostgreSQL refused LISTEN: {err}".strip()) from None
        return connection

    def close(self) -> None:
        self._closed.set()
        if self._listener is not None:
            self._listener.join(timeout=2.0)
        self._pool.close()
