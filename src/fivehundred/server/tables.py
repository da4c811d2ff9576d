"""Tables of the game server: the games, their seats' tokens, and their SQLite storage.

This module knows nothing of HTTP (the web layer is :mod:`fivehundred.server.app`).
A :class:`Table` is one game; :class:`Tables` holds many, each stored in SQLite
as the rules, the seats, the hash of each person's token, the deck of every hand
and every accepted action in order. An accepted action (with the computer moves
that follow it, and the next deal) is written in one transaction before it is
answered, so a crash loses nothing that was answered; a restarted server
rebuilds each table by dealing the stored decks and applying the stored actions.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Final

import fivehundred as fh
from fivehundred.bots.tournament import PLAYER_TYPES
from fivehundred.records import rules_options
from fivehundred.server._admission import (
    HUMAN,
    SPECTATOR,
    TABLE_ID,
    TOKEN_BYTES,
    Refused,
    check_rules,
    check_seats,
    former_key,
    hash_token,
)
from fivehundred.server._names import check_names
from fivehundred.server._pause import Pauses
from fivehundred.server._schema import append_rows
from fivehundred.server._table import Table, rebuild, texts
from fivehundred.server._upkeep import Upkeep
from fivehundred.server.store import (
    Change,
    Conflict,
    GameRow,
    PostgresStore,
    SqliteStore,
    Store,
    is_postgres_url,
    open_store,
)

__all__ = [
    "HUMAN",
    "MAX_TABLES",
    "SPECTATOR",
    "Refused",
    "Table",
    "Tables",
    "check_rules",
    "hash_token",
]

# the refusal is met (and documented, pickled and shown in tracebacks) as this module's
Refused.__module__ = __name__

#: Tables one server holds (a table is created only below this many).
MAX_TABLES: Final = 10_000


class Tables(Upkeep, Pauses):
    """Every table of one server, kept in memory and in a :class:`~.store.Store`.

    ``path`` is a SQLite file (``":memory:"`` for a database that dies with the
    process) or a ``postgresql://`` URL (:func:`~.store.open_store`). SQLite is
    in WAL mode with ``synchronous=FULL``, so a committed move survives a crash
    of the process and of the machine.

    With PostgreSQL, several server processes share the tables. Each keeps the
    tables it has read in memory and, before it answers, catches up with what
    the others stored (:meth:`get`); a move raced through two processes is
    stored once, and the other answers ``409 STALE_VERSION``. :meth:`subscribe`
    tells of every change, made here or, through ``LISTEN``, in another process.

    ``seed`` is for tests and demonstrations only: every table's seed is then
    ``f"{seed}/{n}"`` for the ``n``-th table of the database, so its deals and
    computer moves can be replayed. Anyone who knows it can predict the cards:
    never use it on a server people play on. By default each table gets a
    secret random seed.
    """

    def __init__(
        self, path: str | Path, *, seed: str | None = None, max_tables: int | None = None
    ) -> None:
        self._seed = seed
        #: Open tables at most (:data:`MAX_TABLES` by default).
        self.max_tables = MAX_TABLES if max_tables is None else max_tables
        #: Called with ``(event, detail, count)``: ``("created", "", 1)``, ``("moves", "", n)``
        #: and ``("closed", reason, 1)``; the server's metrics listen here.
        self.observer: Callable[[str, str, int], None] = lambda event, detail, count: None
        #: Told ``(table, reason)`` of each table closed (the operator's log line).
        self.on_closed: Callable[[str, str], None] = lambda table, reason: None
        #: When this object was made: the last activity of a table not loaded since.
        self.started = time.monotonic()
        self._store: Store = open_store(path)
        #: Whether other processes write to the store too: catch up before answering.
        self.shared = is_postgres_url(path)
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()
        self._subscribers: list[Callable[[str, int], None]] = []
        if self.shared:
            self._store.listen(self._changed_elsewhere, self._missed)

    def close(self) -> None:
        """Close the store."""
        self._store.close()

    @property
    def store(self) -> Store:
        """Where the tables are kept (the operator's rate limits share a PostgreSQL one)."""
        return self._store

    def __len__(self) -> int:
        return self._store.count()

    def subscribe(self, callback: Callable[[str, int], None]) -> None:
        """Call ``callback(table_id, version)`` when another process changed a table this
        one holds, once this process has caught up with it (from a worker thread)."""
        self._subscribers.append(callback)

    def _changed_elsewhere(self, table_id: str, version: int) -> None:
        with self._lock:
            table = self._tables.get(table_id)
        if table is None or (0 <= version <= table.version):
            return  # not held here, or this process's own change
        self._refresh(table)

    def _missed(self) -> None:
        """Changes may have gone unheard (the store lost its listening connection): catch
        up with every table held here, so their sockets hear of what they missed."""
        with self._lock:
            held = list(self._tables.values())
        for table in held:
            self._refresh(table)

    def _refresh(self, table: Table) -> None:
        """Catch a table up with the other processes; tell the subscribers if it changed."""
        try:
            changed = self._catch_up(table)  # a new move, new seats, or closed
        except Refused:  # closed meanwhile: its sockets hear of it on their next read
            changed = True
        if changed:
            for callback in self._subscribers:
                callback(table.id, table.version)

    def create(
        self, options: Mapping[str, object], seats: object, names: object = None
    ) -> tuple[Table, dict[int, str]]:
        """A new table, dealt, computer seats moved: the table and each person's token.

        ``names`` is a list of each seat's name or ``None``
        (:func:`~fivehundred.server._names.check_names`; 422 ``BAD_NAMES``).
        The tokens are by seat, and the spectator's under :data:`SPECTATOR`.
        They are answered here only; the store keeps their hashes.
        """
        rules = check_rules(options)
        kinds = check_seats(seats, rules.players)
        try:
            named = check_names(names, rules.players)
        except ValueError as err:
            raise Refused(422, "BAD_NAMES", str(err)) from None
        if self.open_count() >= self.max_tables:
            raise Refused(503, "TOO_MANY_TABLES", "this server holds no more tables")
        tokens = {
            seat: secrets.token_urlsafe(TOKEN_BYTES)
            for seat, kind in enumerate(kinds)
            if kind == HUMAN
        }
        watcher = secrets.token_urlsafe(TOKEN_BYTES)
        seed = secrets.token_hex(16) if self._seed is None else f"{self._seed}/{len(self)}"
        dealer = random.Random(f"{seed}/dealer").randrange(rules.players)
        table = Table(
            id=secrets.token_urlsafe(9),
            seats=kinds,
            seed=seed,
            hashes={seat: hash_token(token) for seat, token in tokens.items()},
            state=fh.new_game(rules, dealer=dealer),
            spectator_hash=hash_token(watcher),
            names=named,
        )
        moves: list[tuple[int, fh.Action]] = []
        decks: list[str] = []
        table.state = table.advance(table.state, moves, decks)
        self._store.create(
            GameRow(table.id, json.dumps(rules_options(rules)), json.dumps(kinds), seed, dealer),
            {**table.hashes, SPECTATOR: hash_token(watcher)},
            {seat: name for seat, name in enumerate(named) if name is not None},
            texts(moves),
            decks,
        )
        table.present = functools.partial(self.present_at, table.id)
        table.publish()
        with self._lock:
            self._tables[table.id] = table
        self.observer("created", "", 1)
        if moves:
            self.observer("moves", "computer", len(moves))
        return table, {**tokens, SPECTATOR: watcher}

    def held(self, table_id: str) -> Table | None:
        """The table of an id if this process holds it in memory, as it is (no database)."""
        with self._lock:
            return self._tables.get(table_id)

    def get(self, table_id: str) -> Table:
        """The table of an id, up to date; 404 ``NO_SUCH_TABLE``, 410 ``TABLE_CLOSED`` for a
        table closed (expired, finished or closed by the operator).

        Loaded from the store if this process does not hold it; with a shared
        store, first brought up to what the other processes stored.
        """
        if not TABLE_ID.fullmatch(table_id):
            raise Refused(404, "NO_SUCH_TABLE", "there is no such table")
        with self._lock:
            table = self._tables.get(table_id)
        if table is None:
            table = self._load(table_id)
            with self._lock:
                table = self._tables.setdefault(table_id, table)
        elif self.shared:
            self._catch_up(table)
        return table

    def _catch_up(self, table: Table) -> bool:
        """Bring a table up to the shared store; whether it changed. 410 if it was closed."""
        behind, moved = self._behind(table, self._store.status(table.id))
        return behind and self.reread(table, moved=moved)

    async def current(self, table: Table) -> tuple[bool, bool]:
        """Whether a table held here is behind the shared store, and whether its seats
        moved: asked from the event loop, with no worker thread. 410 if it was closed."""
        return self._behind(table, await self._store.status_soon(table.id))

    def _behind(self, table: Table, status: tuple[int, bool, str]) -> tuple[bool, bool]:
        version, closed, seats = status
        if closed:
            table.closed = True
            with self._lock:
                self._tables.pop(table.id, None)
            raise Refused(410, "TABLE_CLOSED", "this table is closed: its game is archived")
        # a seat given to a computer elsewhere changes the seats, not always the version:
        # its old token must stop working here at once, not when the notification comes
        moved = tuple(json.loads(seats)) != table.seats
        return version > table.version or moved, moved

    def reread(self, table: Table, *, moved: bool) -> bool:
        """Read a table behind the shared store again (:meth:`current` said so), under
        its lock; whether it changed."""
        with table.lock:
            return self._reread(table, force=moved)

    def _reread(self, table: Table, *, force: bool = False) -> bool:
        """Read a table again from the store (the caller holds its lock); whether it moved
        (or, with ``force``, whether it is still stored)."""
        stored = self._store.load(table.id)
        if stored is None or (len(stored.actions) <= table.version and not force):
            return False
        fresh = rebuild(table.id, stored)
        table.state, table.version, table.past = fresh.state, fresh.version, fresh.past
        table.seats, table.hashes, table.former = fresh.seats, fresh.hashes, fresh.former
        table.touched = time.monotonic()
        self.wait_again(table)
        table.publish()
        return True

    def _commit(
        self,
        table: Table,
        before: fh.GameState,
        first: int,
        moves: Sequence[tuple[int, fh.Action]],
        decks: Sequence[str],
        *,
        change: Change | None = None,
    ) -> None:
        """Store a table's new moves (the caller holds its lock); on failure put the table
        back at ``first`` and ``before``. A move another process stored first is 409
        ``STALE_VERSION``, with the table read again."""
        try:
            self._store.append(
                table.id, first, texts(moves), before.hand_number + 1, decks, change=change
            )
        except BaseException as err:
            self._settle(table, before, first, err)
        self._settle(table, before, first, None)

    def _settle(
        self, table: Table, before: fh.GameState, first: int, error: BaseException | None
    ) -> None:
        """Show the table's stored change (``error`` ``None``), or put the table back at
        ``first`` and ``before`` and raise: 409 ``STALE_VERSION`` for a :class:`Conflict`."""
        if error is None:
            table.publish()
            return
        table.rewind(first, before)
        if isinstance(error, Conflict):  # read again, seats and all: they may have moved
            self._reread(table, force=True)
            raise Refused(
                409, "STALE_VERSION", "another player moved first: read the table again"
            ) from None
        raise error

    def act(self, table: Table, seat: int, text: str, version: int) -> int:
        """Apply a person's action; store it before answering the new version."""
        with table.lock:
            self._stored(table, *self._applied(table, seat, text, version))
            return table.version

    async def act_soon(self, table: Table, seat: int, text: str, version: int) -> int:
        """:meth:`act` from the event loop: the rules there, the write by SQLite's writer.

        A move is a few microseconds of rules and a wait for the disk. On the loop, it
        does not queue for the interpreter behind every other request at each step, as
        a worker thread's move does under load; SQLite's one writer thread stores it
        with the others that came meanwhile; PostgreSQL's write is awaited on the loop.
        The table's lock is held till the write is over, and let go by whoever ends
        it. A table whose lock is held elsewhere, or with a computer seat that
        searches, is moved in a worker thread instead.
        """
        import anyio  # the server extra's (this module is read without it: the docs)

        if table.slow or not table.lock.acquire(blocking=False):
            return await anyio.to_thread.run_sync(self.act, table, seat, text, version)
        try:
            state, before, moves, decks = self._applied(table, seat, text, version)
        except BaseException:
            table.lock.release()
            raise
        if not isinstance(self._store, SqliteStore):
            store = self._store
            assert isinstance(store, PostgresStore)  # open_store makes one of the two
            batch = append_rows(table.id, before, texts(moves), state.hand_number + 1, decks)

            async def write() -> int:  # a task of its own: a cancelled request ends it not
                try:
                    try:
                        await store.append_awaited(batch, json.dumps(table.seats))
                    except BaseException as err:  # put back (a conflict reads the table)
                        await anyio.to_thread.run_sync(self._settle, table, state, before, err)
                    self._settle(table, state, before, None)
                    self._counted(table, moves)
                    return table.version
                finally:
                    table.lock.release()

            return await asyncio.shield(asyncio.ensure_future(write()))
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[int] = loop.create_future()

        def stored(error: BaseException | None) -> None:  # in the writer thread
            outcome: int | BaseException
            try:
                self._settle(table, state, before, error)
                self._counted(table, moves)
                outcome = table.version
            except BaseException as err:  # handed to the move's request, raised there
                outcome = err
            finally:
                table.lock.release()
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(_resolve, answer, outcome)

        rows = texts(moves)
        try:
            self._store.append_soon(
                table.id, before, rows, state.hand_number + 1, decks, done=stored
            )
        except BaseException as err:
            stored(err)
        return await answer

    def _applied(
        self, table: Table, seat: int, text: str, version: int
    ) -> tuple[fh.GameState, int, list[tuple[int, fh.Action]], list[str]]:
        """Apply the action (the caller holds the table's lock): the state and version
        before, and the moves and decks to store; the table is as before if it fails."""
        if table.closed:
            raise Refused(410, "TABLE_CLOSED", "this table is closed: its game is archived")
        before, state = table.version, table.state
        try:
            moves, decks = table.act(seat, text, version, self.waits(table))
        except BaseException:
            table.rewind(before, state)
            raise
        return state, before, moves, decks

    def _stored(
        self,
        table: Table,
        state: fh.GameState,
        before: int,
        moves: Sequence[tuple[int, fh.Action]],
        decks: Sequence[str],
    ) -> None:
        """Store the moves :meth:`_applied` made (or put the table back), and count them."""
        self._commit(table, state, before, moves, decks)
        self._counted(table, moves)

    def _counted(self, table: Table, moves: Sequence[tuple[int, fh.Action]]) -> None:
        table.touched = time.monotonic()
        self.observer("moves", "person", 1)
        if len(moves) > 1:
            self.observer("moves", "computer", len(moves) - 1)

    def hand_over(
        self, table: Table, seat: int, kind: str, check: Callable[[], None] | None = None
    ) -> int:
        """Give a person's seat to a computer player of ``kind``; answer the new version.

        The seat's token stops working at once; the computer plays from the
        table as it is (at once, if the seat is to act). Who may ask is the web
        layer's choice (see docs/howto/game-server.md). Raises :class:`Refused`:
        422 ``BAD_SEATS`` for a kind that is no computer player or a seat that
        is not a person's, 409 ``LAST_PERSON`` for the last person's seat, and
        whatever ``check`` raises (called under the table's lock, once the seat is
        known to be a person's: the web layer's rule on who may ask).
        """
        if not isinstance(kind, str) or kind not in PLAYER_TYPES:
            raise Refused(422, "BAD_SEATS", f"a seat is given to one of {', '.join(PLAYER_TYPES)}")
        with table.lock:
            if not 0 <= seat < len(table.seats) or table.seats[seat] != HUMAN:
                raise Refused(422, "BAD_SEATS", f"seat {seat} is not a person's")
            if table.seats.count(HUMAN) == 1:
                raise Refused(
                    409,
                    "LAST_PERSON",
                    "the last person's seat stays a person's: the game needs one",
                )
            if check is not None:
                check()
            before, state, seats, hashes = table.version, table.state, table.seats, table.hashes
            former = table.former
            try:
                table.seats = (*seats[:seat], kind, *seats[seat + 1 :])
                table.hashes = {n: h for n, h in hashes.items() if n != seat}
                if seat in hashes:  # its person may watch, and ask for the seat back
                    table.former = {**former, seat: hashes[seat]}
                    change = Change(
                        seats=json.dumps(table.seats), renumber=((seat, former_key(seat)),)
                    )
                else:
                    change = Change(seats=json.dumps(table.seats), drop_token=seat)
                moves: list[tuple[int, fh.Action]] = []
                decks: list[str] = []
                table.state = table.advance(state, moves, decks, self.waits(table))
                self._commit(table, state, before, moves, decks, change=change)
            except Refused as refused:
                if refused.code != "STALE_VERSION":  # else read again after a lost race
                    table.rewind(before, state)
                    table.seats, table.hashes, table.former = seats, hashes, former
                raise
            except BaseException:
                table.rewind(before, state)
                table.seats, table.hashes, table.former = seats, hashes, former
                raise
            return table.version

    def give_back(self, table: Table, seat: int) -> int:
        """Give a seat that went to a computer player back to its person; answer the version.

        The person's old link works again at once; the computer's moves stay. Raises
        :class:`Refused`: 409 ``SEAT_TAKEN`` when the seat is a person's again already
        (a race between two windows of that person: the first one wins).
        """
        with table.lock:
            if seat not in table.former or table.seats[seat] == HUMAN:
                raise Refused(409, "SEAT_TAKEN", f"seat {seat} is a person's already")
            before, state, seats = table.version, table.state, table.seats
            hashes, former = table.hashes, table.former
            try:
                table.seats = (*seats[:seat], HUMAN, *seats[seat + 1 :])
                table.hashes = {**hashes, seat: former[seat]}
                table.former = {n: h for n, h in former.items() if n != seat}
                change = Change(seats=json.dumps(table.seats), renumber=((former_key(seat), seat),))
                self._commit(table, state, before, [], [], change=change)
            except Refused as refused:
                if refused.code != "STALE_VERSION":
                    table.seats, table.hashes, table.former = seats, hashes, former
                raise
            except BaseException:
                table.seats, table.hashes, table.former = seats, hashes, former
                raise
            return table.version

    def settle(self, table: Table, version: int, line: Sequence[Sequence[object]]) -> int:
        """Play the rest of a hand on a claim's line (``[seat, action]`` pairs, every
        seat's), then the computer moves after it; store it all, answer the version.

        Raises :class:`Refused` 409 ``STALE_VERSION`` when the table moved on since
        the claim was judged, and 422 with the rules' reason for a line the rules
        refuse (the table is then left as it was).
        """
        with table.lock:
            before, start = table.version, table.state
            if version != before:
                raise Refused(
                    409, "STALE_VERSION", "the table moved on while the claim was checked"
                )
            state = start
            try:
                moves: list[tuple[int, fh.Action]] = []
                decks: list[str] = []
                for seat, text in line:
                    assert isinstance(seat, int) and isinstance(text, str)
                    action = fh.parse_action(text, phase=state.phase)
                    state = fh.apply(state, action, seat=seat)
                    moves.append((seat, action))
                    table.version += 1
                table.state = table.advance(state, moves, decks, self.waits(table))
                self._commit(table, start, before, moves, decks)
            except fh.IllegalActionError as err:
                table.rewind(before, start)
                raise Refused(422, err.reason.name, str(err)) from None
            except Refused:
                raise
            except BaseException:
                table.rewind(before, start)
                raise
            return table.version

    def resume(self, table: Table) -> int:
        """End the table's wait after a hand: its computer seats play; answer the version."""
        with table.lock:
            return self._resumed(table)

    def _resumed(self, table: Table) -> int:
        """:meth:`resume`, the caller holding the table's lock."""
        before, state = table.version, table.state
        table.pause = None
        moves: list[tuple[int, fh.Action]] = []
        decks: list[str] = []
        try:
            table.state = table.advance(state, moves, decks)
        except BaseException:
            table.rewind(before, state)
            raise
        if not moves and not decks:  # a person is to act: nothing to store
            table.publish()
            return table.version
        self._commit(table, state, before, moves, decks)
        table.touched = time.monotonic()
        if moves:
            self.observer("moves", "computer", len(moves))
        return table.version

    def _load(self, table_id: str) -> Table:
        stored = self._store.load(table_id)
        if stored is None:
            raise Refused(404, "NO_SUCH_TABLE", "there is no such table")
        if stored.closed:
            raise Refused(410, "TABLE_CLOSED", "this table is closed: its game is archived")
        table = rebuild(table_id, stored)
        table.present = functools.partial(self.present_at, table_id)
        self.wait_again(table)
        table.publish()
        return table


def _resolve(answer: asyncio.Future[int], outcome: int | BaseException) -> None:
    """End a move's wait (on the loop): its new version, or the error it raises."""
    if answer.cancelled():
        return
    if isinstance(outcome, BaseException):
        answer.set_exception(outcome)
    else:
        answer.set_result(outcome)
