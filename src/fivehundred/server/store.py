"""Where the game server keeps its tables: SQLite (the default) or PostgreSQL.

Both stores hold the same four relations: each game's rules, seats, seed and first
dealer; the hash of each person's token; the deck of every hand; and every
accepted action, numbered from 0. A table is rebuilt by dealing the stored decks
and applying the stored actions in order (:class:`~fivehundred.server.tables.Tables`
does that; a store knows nothing of the game).

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

import sqlite3
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Protocol
from urllib.parse import urlsplit, urlunsplit

import attrs

__all__ = [
    "CHANNEL",
    "Conflict",
    "GameRow",
    "PostgresStore",
    "SqliteStore",
    "Store",
    "StoredGame",
    "describe",
    "is_postgres_url",
    "open_store",
]

#: The PostgreSQL notification channel of table changes.
CHANNEL: Final = "fivehundred"

#: The relations, in SQL both databases accept.
_SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS game (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    seats TEXT NOT NULL,
    seed TEXT NOT NULL,
    dealer INTEGER NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS token (
    game TEXT NOT NULL REFERENCES game(id),
    seat INTEGER NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (game, seat)
)""",
    """CREATE TABLE IF NOT EXISTS deal (
    game TEXT NOT NULL REFERENCES game(id),
    hand INTEGER NOT NULL,
    deck TEXT NOT NULL,
    PRIMARY KEY (game, hand)
)""",
    """CREATE TABLE IF NOT EXISTS action (
    game TEXT NOT NULL REFERENCES game(id),
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game, n)
)""",
)


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
    """What a store holds of one game: its row, token hashes, decks and actions (in order),
    from action ``first`` and deck ``first_hand`` on."""

    row: GameRow
    hashes: dict[int, str]
    decks: tuple[str, ...]
    actions: tuple[tuple[int, str], ...]


class Store(Protocol):
    """The storage interface of :class:`~fivehundred.server.tables.Tables`.

    Every method is blocking and thread-safe: the server calls them from worker
    threads, never on its event loop.
    """

    def count(self) -> int:
        """The number of games stored."""
        ...

    def create(
        self,
        row: GameRow,
        hashes: Mapping[int, str],
        actions: Sequence[tuple[int, str]],
        decks: Sequence[str],
    ) -> None:
        """Store a new game with its first actions and decks, in one transaction."""
        ...

    def append(
        self,
        game: str,
        first: int,
        actions: Sequence[tuple[int, str]],
        first_hand: int,
        decks: Sequence[str],
    ) -> None:
        """Store actions numbered from ``first`` and decks numbered from ``first_hand``, in
        one transaction; :class:`Conflict` if any number is taken."""
        ...

    def load(self, game: str) -> StoredGame | None:
        """The whole game, or ``None`` if there is no such game."""
        ...

    def version(self, game: str) -> int:
        """The number of actions stored for ``game`` (0 for none or no such game)."""
        ...

    def listen(self, callback: Callable[[str, int], None]) -> None:
        """Call ``callback(game, version)`` (from another thread) whenever another process
        stores a change; a store that only one process uses never calls it."""
        ...

    def close(self) -> None:
        """Release the connections (and stop listening)."""
        ...


def is_postgres_url(db: str | Path) -> bool:
    """Whether ``--db`` names a PostgreSQL database (a ``postgresql://`` URL)."""
    return isinstance(db, str) and db.startswith(("postgresql://", "postgres://"))


def describe(db: str | Path) -> str:
    """``db`` as it may be printed or logged: a URL without its password."""
    if not is_postgres_url(db):
        return str(db)
    parts = urlsplit(str(db))
    if parts.password is None:
        return str(db)
    host = parts.hostname or ""
    user = f"{parts.username}:***@" if parts.username else ":***@"
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}{host}{port}"))


def open_store(db: str | Path) -> Store:
    """The store ``db`` names: PostgreSQL for a ``postgresql://`` URL, else a SQLite file."""
    if is_postgres_url(db):
        return PostgresStore(str(db))
    return SqliteStore(db)


class SqliteStore:
    """One SQLite file, shared by the server's threads under a lock.

    WAL mode with ``synchronous=FULL``: a committed move survives a crash of the
    process and of the machine. One process only: SQLite sends no notifications.
    """

    def __init__(self, path: str | Path) -> None:
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            for statement in _SCHEMA:
                self._db.execute(statement)

    def count(self) -> int:
        with self._lock:
            (count,) = self._db.execute("SELECT COUNT(*) FROM game").fetchone()
        return int(count)

    def create(
        self,
        row: GameRow,
        hashes: Mapping[int, str],
        actions: Sequence[tuple[int, str]],
        decks: Sequence[str],
    ) -> None:
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT INTO game VALUES (?, ?, ?, ?, ?)",
                (row.id, row.rules, row.seats, row.seed, row.dealer),
            )
            self._db.executemany(
                "INSERT INTO token VALUES (?, ?, ?)",
                [(row.id, seat, digest) for seat, digest in hashes.items()],
            )
            self._insert(row.id, 0, actions, 1, decks)

    def append(
        self,
        game: str,
        first: int,
        actions: Sequence[tuple[int, str]],
        first_hand: int,
        decks: Sequence[str],
    ) -> None:
        try:
            with self._lock, self._db:
                self._db.execute("BEGIN IMMEDIATE")
                self._insert(game, first, actions, first_hand, decks)
        except sqlite3.IntegrityError as err:
            raise Conflict(str(err)) from None

    def _insert(
        self,
        game: str,
        first: int,
        actions: Sequence[tuple[int, str]],
        first_hand: int,
        decks: Sequence[str],
    ) -> None:
        self._db.executemany(
            "INSERT INTO action VALUES (?, ?, ?, ?)",
            [(game, first + n, seat, text) for n, (seat, text) in enumerate(actions)],
        )
        self._db.executemany(
            "INSERT INTO deal VALUES (?, ?, ?)",
            [(game, first_hand + n, deck) for n, deck in enumerate(decks)],
        )

    def load(self, game: str) -> StoredGame | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, rules, seats, seed, dealer FROM game WHERE id = ?", (game,)
            ).fetchone()
            if row is None:
                return None
            hashes = dict(self._db.execute("SELECT seat, hash FROM token WHERE game = ?", (game,)))
            decks = self._db.execute(
                "SELECT deck FROM deal WHERE game = ? ORDER BY hand", (game,)
            ).fetchall()
            actions = self._db.execute(
                "SELECT seat, action FROM action WHERE game = ? ORDER BY n", (game,)
            ).fetchall()
        return StoredGame(
            GameRow(*row), hashes, tuple(d for (d,) in decks), tuple(map(tuple, actions))
        )

    def version(self, game: str) -> int:
        with self._lock:
            (count,) = self._db.execute(
                "SELECT COUNT(*) FROM action WHERE game = ?", (game,)
            ).fetchone()
        return int(count)

    def listen(self, callback: Callable[[str, int], None]) -> None:
        """Nothing to listen to: one process owns a SQLite store."""

    def close(self) -> None:
        with self._lock:
            self._db.close()


class PostgresStore:
    """A PostgreSQL database (psycopg 3), shared by any number of server processes.

    Each thread that calls the store uses a connection of a small pool guarded by a
    lock; a separate connection ``LISTEN``\\ s on :data:`CHANNEL` in a daemon thread
    once :meth:`listen` is called. Transactions are ``READ COMMITTED``: the
    primary keys do the concurrency control (:class:`Conflict`).
    """

    def __init__(self, url: str) -> None:
        import psycopg  # the server extra's PostgreSQL driver, imported only when used

        self._psycopg: Any = psycopg
        self._url = url
        self._db = psycopg.connect(url, autocommit=True)
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._listener: threading.Thread | None = None
        # one schema creation at a time across processes starting together
        with self._lock, self._db.transaction():
            self._db.execute("SELECT pg_advisory_xact_lock(500500)")
            for statement in _SCHEMA:
                self._db.execute(statement)

    def count(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT COUNT(*) FROM game").fetchone()
        return int(row[0]) if row else 0

    def create(
        self,
        row: GameRow,
        hashes: Mapping[int, str],
        actions: Sequence[tuple[int, str]],
        decks: Sequence[str],
    ) -> None:
        with self._lock, self._db.transaction():
            self._db.execute(
                "INSERT INTO game VALUES (%s, %s, %s, %s, %s)",
                (row.id, row.rules, row.seats, row.seed, row.dealer),
            )
            with self._db.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO token VALUES (%s, %s, %s)",
                    [(row.id, seat, digest) for seat, digest in hashes.items()],
                )
            self._insert(row.id, 0, actions, 1, decks)

    def append(
        self,
        game: str,
        first: int,
        actions: Sequence[tuple[int, str]],
        first_hand: int,
        decks: Sequence[str],
    ) -> None:
        try:
            with self._lock, self._db.transaction():
                self._insert(game, first, actions, first_hand, decks)
        except self._psycopg.errors.UniqueViolation as err:
            raise Conflict(str(err)) from None

    def _insert(
        self,
        game: str,
        first: int,
        actions: Sequence[tuple[int, str]],
        first_hand: int,
        decks: Sequence[str],
    ) -> None:
        with self._db.cursor() as cursor:
            if actions:
                cursor.executemany(
                    "INSERT INTO action VALUES (%s, %s, %s, %s)",
                    [(game, first + n, seat, text) for n, (seat, text) in enumerate(actions)],
                )
            if decks:
                cursor.executemany(
                    "INSERT INTO deal VALUES (%s, %s, %s)",
                    [(game, first_hand + n, deck) for n, deck in enumerate(decks)],
                )
        # delivered at commit, to every listening process (this one included)
        self._db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game} {first + len(actions)}"))

    def load(self, game: str) -> StoredGame | None:
        with self._lock, self._db.transaction():
            # one snapshot for the whole read, so a move committed meanwhile is all or nothing
            self._db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            row = self._db.execute(
                "SELECT id, rules, seats, seed, dealer FROM game WHERE id = %s", (game,)
            ).fetchone()
            if row is None:
                return None
            hashes = self._db.execute(
                "SELECT seat, hash FROM token WHERE game = %s", (game,)
            ).fetchall()
            decks = self._db.execute(
                "SELECT deck FROM deal WHERE game = %s ORDER BY hand", (game,)
            ).fetchall()
            actions = self._db.execute(
                "SELECT seat, action FROM action WHERE game = %s ORDER BY n", (game,)
            ).fetchall()
        return StoredGame(
            GameRow(*row),
            {int(seat): str(digest) for seat, digest in hashes},
            tuple(str(d) for (d,) in decks),
            tuple((int(seat), str(text)) for seat, text in actions),
        )

    def version(self, game: str) -> int:
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*) FROM action WHERE game = %s", (game,)
            ).fetchone()
        return int(row[0]) if row else 0

    def listen(self, callback: Callable[[str, int], None]) -> None:
        if self._listener is not None:
            raise RuntimeError("this store already has a listener")
        connection = self._psycopg.connect(self._url, autocommit=True)
        connection.execute(f"LISTEN {CHANNEL}")

        def run() -> None:
            with connection:
                while not self._closed.is_set():
                    # wake at least every half second to see whether the store closed
                    for note in connection.notifies(timeout=0.5):
                        game, _, version = note.payload.partition(" ")
                        if version.isdigit():
                            callback(game, int(version))

        self._listener = threading.Thread(target=run, name="fivehundred-listen", daemon=True)
        self._listener.start()

    def close(self) -> None:
        self._closed.set()
        if self._listener is not None:
            self._listener.join(timeout=2.0)
        with self._lock:
            self._db.close()
