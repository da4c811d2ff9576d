"""The relations of the server's database, the version of their schema, and its migrations.

Both stores (:mod:`fivehundred.server.store`) create these relations and bring an
older database up to :data:`SCHEMA_VERSION` on start-up with :func:`upgrade`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, Final

from fivehundred.errors import FiveHundredError
from fivehundred.server._logs import LOGGER

log = logging.getLogger(LOGGER)

#: The inserts of a move's append: its actions' rows and its deals' rows (:func:`append_rows`).
Batch = tuple[list[tuple[object, ...]], list[tuple[object, ...]]]
#: The statements that insert them.
ACTION_ROW: Final = "INSERT INTO action VALUES (?, ?, ?, ?)"
DEAL_ROW: Final = "INSERT INTO deal VALUES (?, ?, ?)"


def append_rows(
    game: str, first: int, actions: Sequence[tuple[int, str]], first_hand: int, decks: Sequence[str]
) -> Batch:
    """The rows of the ``action`` and ``deal`` relations that an append of ``game`` adds."""
    return (
        [(game, first + n, seat, text) for n, (seat, text) in enumerate(actions)],
        [(game, first_hand + n, deck) for n, deck in enumerate(decks)],
    )


#: The relations, in SQL both databases accept.
SCHEMA: Final = (
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
    """CREATE TABLE IF NOT EXISTS name (
    game TEXT NOT NULL REFERENCES game(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (game, seat)
)""",
    """CREATE TABLE IF NOT EXISTS action (
    game TEXT NOT NULL REFERENCES game(id),
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game, n)
)""",
    """CREATE TABLE IF NOT EXISTS closed (
    game TEXT PRIMARY KEY REFERENCES game(id),
    at DOUBLE PRECISION NOT NULL,
    reason TEXT NOT NULL
)""",
)
#: A game's number of actions, whether it is closed, and its seats, in one statement. The
#: actions are numbered from 0 with no gap, so the last number (the end of the primary
#: key's index) gives their count without counting them.
STATUS: Final = (
    "SELECT (SELECT COALESCE(MAX(n) + 1, 0) FROM action WHERE game = ?), "
    "(SELECT COUNT(*) FROM closed WHERE game = ?), "
    "(SELECT seats FROM game WHERE id = ?)"
)


#: The version of the relations above, held in the database (``schema_version``). Each
#: version's changes are in :data:`MIGRATIONS`; a database without the relation
#: ``schema_version`` but with ``game`` is of an earlier release (version 0).
SCHEMA_VERSION: Final = 2
#: What a server that finds a newer schema says to do.
UPGRADE: Final = 'pip install --upgrade "fivehundred[server]"'


def version_1(postgres: bool) -> tuple[str, ...]:
    """From the releases before versions: every relation that is missing (the first held
    no ``name`` and no ``closed``; some had one of the two), PostgreSQL's order of
    creation, and the version itself."""
    created = ("ALTER TABLE game ADD COLUMN IF NOT EXISTS created BIGSERIAL",) if postgres else ()
    return (*SCHEMA, *created, "CREATE TABLE schema_version (version INTEGER NOT NULL)")


def version_2(postgres: bool) -> tuple[str, ...]:
    """The rate limits' token buckets, which the processes on one PostgreSQL share."""
    return (
        """CREATE TABLE rate_bucket (
    kind TEXT NOT NULL,
    client TEXT NOT NULL,
    tokens DOUBLE PRECISION NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    full_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (kind, client)
)""",
    )


#: The statements that bring a database to each version from the one before.
MIGRATIONS: Final[dict[int, Callable[[bool], tuple[str, ...]]]] = {
    1: version_1,
    2: version_2,
}


class SchemaTooNew(FiveHundredError):
    """The database was written by a newer ``fivehundred``: this one must not touch it."""


class NotOurs(FiveHundredError):
    """The database holds relations of the server's names that are not the server's (another
    program's file, or a version that is no version): nothing is written to it."""


#: The columns of the first relations that every shipped schema has had (version 0 on).
FIRST_COLUMNS: Final = {
    "game": frozenset({"id", "rules", "seats", "seed", "dealer"}),
    "action": frozenset({"game", "n", "seat", "action"}),
    "deal": frozenset({"game", "hand", "deck"}),
    "token": frozenset({"game", "seat", "hash"}),
}


def _columns(run: Callable[..., list[tuple[Any, ...]]], relation: str, postgres: bool) -> set[str]:
    if postgres:
        rows = run(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = ?",
            (relation,),
        )
    else:
        rows = run("SELECT name FROM pragma_table_info(?)", (relation,))
    return {str(row[0]) for row in rows}


def _found_version(
    run: Callable[..., list[tuple[Any, ...]]], relations: set[str], postgres: bool
) -> int | None:
    """The schema's version in the database (``None``: empty), or :class:`NotOurs`."""
    for relation, columns in FIRST_COLUMNS.items():
        missing = columns - _columns(run, relation, postgres) if relation in relations else set()
        if missing:
            raise NotOurs(
                f"the database has a relation {relation!r} that is not fivehundred's (it lacks "
                f"{', '.join(sorted(missing))}): give the server a database of its own"
            )
    if "schema_version" not in relations:
        return 0 if "game" in relations else None
    rows = run("SELECT version FROM schema_version")
    versions = {row[0] for row in rows}
    if len(versions) != 1 or not all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in versions
    ):
        shown = ", ".join(sorted(repr(v) for v in versions)[:3]) or "no row"
        raise NotOurs(
            f"the database's schema_version holds {shown}, not one version of "
            f"fivehundred's schema (0 to {SCHEMA_VERSION}): give the server a database of "
            "its own, or restore this one"
        )
    (found,) = versions
    return int(found)


def upgrade(
    run: Callable[..., list[tuple[Any, ...]]], relations: set[str], *, postgres: bool
) -> int | None:
    """Bring the schema to :data:`SCHEMA_VERSION`, in the caller's transaction.

    ``run(sql, params)`` runs a statement written with ``?`` placeholders;
    ``relations`` are the names of the tables there now. Answers the version
    found (``None`` for an empty database). Raises :class:`SchemaTooNew`, with
    the command to run, for a version this release does not know, and :class:`NotOurs`
    for relations of its names that are not its own, or a version that is no version.
    """
    found = _found_version(run, relations, postgres)
    if found is not None and found > SCHEMA_VERSION:
        raise SchemaTooNew(
            f"the database's schema is version {found}, newer than this fivehundred's "
            f"({SCHEMA_VERSION}): it was written by a newer release, so upgrade this one "
            f"({UPGRADE}) before serving it"
        )
    if found == SCHEMA_VERSION:
        return found
    for version in range((found or 0) + 1, SCHEMA_VERSION + 1):
        for statement in MIGRATIONS[version](postgres):
            run(statement)
    run("DELETE FROM schema_version")
    run("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))
    if found is not None:
        log.warning(
            "migrated the database's schema",
            extra={"fields": {"from": found, "to": SCHEMA_VERSION}},
        )
    return found
