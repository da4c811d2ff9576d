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
import hmac
import json
import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

import fivehundred as fh
from fivehundred.bots.tournament import DEFAULT_BUDGET, PLAYER_TYPES, make_player, strong_player
from fivehundred.records import rules_from_options, rules_options
from fivehundred.server import _present
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
from fivehundred.server._upkeep import Upkeep
from fivehundred.server.store import (
    Change,
    Conflict,
    GameRow,
    SqliteStore,
    Store,
    StoredGame,
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
#: The search player's deals per decision on a server (small: it answers within a request).
SEARCH_BUDGET: Final = min(DEFAULT_BUDGET, 8)


@attrs.define(eq=False)
class Table:
    """One game: its seats (a person or a computer player kind) and its state.

    ``hashes[seat]`` is the SHA-256 of the seat's token (people's seats only).
    The random source of each deal and each computer decision is derived from
    ``seed`` and the hand number or the move number, so a rebuilt table goes on
    exactly as the lost one would have.
    """

    id: str
    seats: tuple[str, ...]
    seed: str
    hashes: dict[int, str]
    state: fh.GameState
    #: The number of actions accepted so far, computer moves included.
    version: int = 0
    lock: threading.Lock = attrs.field(factory=threading.Lock)
    #: The public record of each finished hand, in order (the page's score sheet).
    past: list[_present.FinishedHand] = attrs.field(factory=list)
    #: When the table was made, loaded or last moved at (``time.monotonic()``).
    touched: float = attrs.field(factory=time.monotonic)
    #: Set when the table is closed: a move that waited for the lock is then refused.
    closed: bool = False
    #: Each seat's last answer to GET, as JSON bytes, with the snapshot it was made of.
    _answers: dict[int, tuple[object, bytes]] = attrs.field(factory=dict)
    #: The SHA-256 of the spectator's token (``None``: the table has no spectator link).
    spectator_hash: str | None = None
    #: The token hashes of people whose seats went to a computer player, by seat: each
    #: may watch the table and ask for the seat back (:meth:`Tables.give_back`).
    former: dict[int, str] = attrs.field(factory=dict)
    #: Each seat's name as its person gave it, or ``None`` (by seat; empty: no names).
    names: tuple[str | None, ...] = ()
    #: What readers are served: ``(version, state, finished hands, seats)`` as last
    #: stored. A change under way (``lock`` held) is not shown until :meth:`publish`.
    _shown: tuple[int, fh.GameState, int, tuple[str, ...]] = attrs.field(init=False, repr=False)
    #: ``hashes`` and its seats by token hash, for :meth:`seat_of`.
    _seats_by_hash: tuple[dict[int, str], dict[str, int]] = attrs.field(
        init=False, repr=False, factory=lambda: ({}, {})
    )

    def __attrs_post_init__(self) -> None:
        self.publish()

    def publish(self) -> None:
        """Serve the table as it is now: called once its change is stored, so a player
        never sees a move that a failed commit or a lost race then takes back."""
        self._shown = (self.version, self.state, len(self.past), self.seats)

    @property
    def slow(self) -> bool:
        """Whether a computer seat searches (its moves are worked out in a worker thread)."""
        return "search" in self.seats

    def seat_of(self, token: str) -> int | None:
        """The person's seat a token belongs to, or ``None``.

        The token is looked up by its SHA-256: what the lookup's time could tell is
        of the digest, whose tokens nobody can work out, not of the token.
        """
        hashes = self.hashes
        known, seats = self._seats_by_hash
        if known is not hashes:  # the seats changed hands since (hashes is replaced whole)
            known, seats = self._seats_by_hash = hashes, {h: s for s, h in hashes.items()}
        return seats.get(hash_token(token))

    def former_seat_of(self, token: str) -> int | None:
        """The seat a token was a person's before it went to a computer player, or ``None``."""
        digest = hash_token(token)
        found = None
        for seat, known in self.former.items():
            if hmac.compare_digest(known, digest):
                found = seat
        return found

    def seat_names(self) -> list[str | None]:
        """Each seat's name, or ``None`` where none was given."""
        return [*self.names, *[None] * (len(self.seats) - len(self.names))]

    def is_spectator(self, token: str) -> bool:
        """Whether a token is the table's spectator token (compared in constant time)."""
        known = self.spectator_hash
        return known is not None and hmac.compare_digest(known, hash_token(token))

    def view(self, seat: int) -> dict[str, Any]:
        """The seat's answer to ``GET /tables/{id}``: view, legal actions, version, and the
        cards as the page shows them (sorted, trumps marked), of the table as stored."""
        version, state, finished, seats = self._shown
        view = fh.observe(state, seat)
        legal = [fh.format_action(a) for a in view.legal_actions]
        return {
            "table": self.id,
            "seat": seat,
            "seats": list(seats),
            "names": self.seat_names(),
            "sides": [list(side) for side in state.rules.sides],
            "version": version,
            "legal_actions": legal,
            "view": fh.to_dict(view),
            "display": _present.display(view),
            "page": _present.page(
                view,
                seats,
                self.past[:finished],
                kept=_present.kept_from_kitty(state, seat),
                names=self.seat_names(),
                legal=legal,
            ),
        }

    def _cached(self, key: int, make: Callable[[], dict[str, Any]]) -> bytes:
        """``make()`` as JSON bytes, made once for each stored snapshot (polling is free)."""
        shown = self._shown
        made, cached = self._answers.get(key, (None, b""))
        if made is not shown:
            cached = _present.json_bytes(make())
            self._answers[key] = (shown, cached)
        return cached

    def answer(self, seat: int) -> bytes:
        """:meth:`view` as JSON bytes, of the table as last stored (:meth:`publish`): a
        change under way in a worker thread is not shown until it is stored."""
        return self._cached(seat, lambda: self.view(seat))

    def spectate(self) -> bytes:
        """A spectator's answer to ``GET /tables/{id}``, as JSON bytes: the body of
        :meth:`view` with no hidden card.

        It is the view of the contractor's seat (seat 0 before a contract), which
        knows a five-player partner only once everyone may, with its hand, its
        kitty and its discards taken out; ``seat`` is ``None`` and there is no
        legal action. The open-misère hand, the tricks and the auction are public.
        """
        return self._cached(SPECTATOR, self._spectator_view)

    def _spectator_view(self) -> dict[str, Any]:
        version, state, finished, seats = self._shown
        contractor = state.contractor
        seen = fh.observe(state, 0 if contractor is None else contractor)
        view = attrs.evolve(seen, hand=(), kitty=None, discards=None, legal_actions=())
        return {
            "table": self.id,
            "seat": None,
            "seats": list(seats),
            "names": self.seat_names(),
            "sides": [list(side) for side in state.rules.sides],
            "version": version,
            "legal_actions": [],
            "view": fh.to_dict(view),
            "display": _present.display(view),
            "page": _present.page(
                view, seats, self.past[:finished], names=self.seat_names(), spectator=True
            ),
        }

    def _deal(self, state: fh.GameState) -> tuple[fh.GameState, str]:
        deck = list(state.rules.deck)
        random.Random(f"{self.seed}/deal/{state.hand_number + 1}").shuffle(deck)
        return fh.deal(state, cards=deck), " ".join(map(str, deck))

    def _computer(self, state: fh.GameState, seat: int) -> fh.Action:
        rng = random.Random(f"{self.seed}/move/{self.version}")
        kind = self.seats[seat]
        # the strong seat is the strongest player, its every decision within a time budget
        player = strong_player(rng) if kind == "search" else make_player(kind, rng, SEARCH_BUDGET)
        return player.choose(fh.observe(state, seat))

    def rewind(self, version: int, state: fh.GameState) -> None:
        """Put the table back at ``version`` and ``state`` (a change that failed), with the
        record of finished hands as it was then."""
        self.version, self.state = version, state
        del self.past[max(state.hand_number - 1, 0) :]

    def advance(
        self, state: fh.GameState, moves: list[tuple[int, fh.Action]], decks: list[str]
    ) -> fh.GameState:
        """Deal and let computer seats move until a person is to act or the game is over."""
        while state.result is None:
            if state.phase is fh.Phase.DEAL:
                if state.last_hand is not None:
                    self.past.append(_present.finished(state))
                state, deck = self._deal(state)
                decks.append(deck)
                continue
            seat = state.to_act
            if seat is None or self.seats[seat] == HUMAN:
                break
            action = self._computer(state, seat)
            state = fh.apply(state, action, seat=seat)
            moves.append((seat, action))
            self.version += 1
        return state

    def act(
        self, seat: int, text: str, version: int
    ) -> tuple[list[tuple[int, fh.Action]], list[str]]:
        """Apply ``seat``'s action and the computer moves after it; the caller holds ``lock``.

        Answers the moves made (the person's first) and the decks dealt, for
        storage. Raises :class:`Refused`: 409 ``STALE_VERSION``, ``GAME_OVER`` or
        ``NOT_YOUR_TURN``; 400 ``BAD_NOTATION``; 422 with the rules' reason.
        """
        state = self.state
        if version != self.version:
            raise Refused(
                409,
                "STALE_VERSION",
                f"the table is at version {self.version}, not {version}: read it again",
            )
        if state.result is not None:
            raise Refused(409, "GAME_OVER", "the game is over")
        if state.to_act != seat:
            raise Refused(409, "NOT_YOUR_TURN", f"it is not seat {seat}'s turn")
        try:  # read in the game's phase, checked and applied: an action of another phase
            after = fh.play(state, seat, text)  # is the rules' WRONG_PHASE, not the notation's
        except fh.NotationError as err:
            raise Refused(400, "BAD_NOTATION", str(err)) from None
        except fh.IllegalActionError as err:
            raise Refused(422, err.reason.name, str(err)) from None
        action = fh.parse_action(text, phase=state.phase)  # accepted: an action of the phase
        state = after
        self.version += 1
        moves = [(seat, action)]
        decks: list[str] = []
        self.state = self.advance(state, moves, decks)
        return moves, decks


class Tables(Upkeep):
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
            _texts(moves),
            decks,
        )
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
        version, closed, seats = self._store.status(table.id)
        if closed:
            table.closed = True
            with self._lock:
                self._tables.pop(table.id, None)
            raise Refused(410, "TABLE_CLOSED", "this table is closed: its game is archived")
        # a seat given to a computer elsewhere changes the seats, not always the version:
        # its old token must stop working here at once, not when the notification comes
        moved = tuple(json.loads(seats)) != table.seats
        if version <= table.version and not moved:
            return False
        with table.lock:
            return self._reread(table, force=moved)

    def _reread(self, table: Table, *, force: bool = False) -> bool:
        """Read a table again from the store (the caller holds its lock); whether it moved
        (or, with ``force``, whether it is still stored)."""
        stored = self._store.load(table.id)
        if stored is None or (len(stored.actions) <= table.version and not force):
            return False
        fresh = _rebuild(table.id, stored)
        table.state, table.version, table.past = fresh.state, fresh.version, fresh.past
        table.seats, table.hashes, table.former = fresh.seats, fresh.hashes, fresh.former
        table.touched = time.monotonic()
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
                table.id, first, _texts(moves), before.hand_number + 1, decks, change=change
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
        if isinstance(error, Conflict):
            self._reread(table)
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
        with the others that came meanwhile (PostgreSQL's write is a worker thread's).
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
            try:  # the wait is not cancelled before the write ends: the lock is kept
                await anyio.to_thread.run_sync(self._stored, table, state, before, moves, decks)
                return table.version
            finally:
                table.lock.release()
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

        texts = _texts(moves)
        try:
            self._store.append_soon(
                table.id, before, texts, state.hand_number + 1, decks, done=stored
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
            moves, decks = table.act(seat, text, version)
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
                table.state = table.advance(state, moves, decks)
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
                table.state = table.advance(state, moves, decks)
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

    def _load(self, table_id: str) -> Table:
        stored = self._store.load(table_id)
        if stored is None:
            raise Refused(404, "NO_SUCH_TABLE", "there is no such table")
        if stored.closed:
            raise Refused(410, "TABLE_CLOSED", "this table is closed: its game is archived")
        return _rebuild(table_id, stored)


def _resolve(answer: asyncio.Future[int], outcome: int | BaseException) -> None:
    """End a move's wait (on the loop): its new version, or the error it raises."""
    if answer.cancelled():
        return
    if isinstance(outcome, BaseException):
        answer.set_exception(outcome)
    else:
        answer.set_result(outcome)


def _texts(moves: Sequence[tuple[int, fh.Action]]) -> list[tuple[int, str]]:
    """Moves as the store keeps them: each seat with its action's notation."""
    return [(seat, fh.format_action(action)) for seat, action in moves]


def _rebuild(table_id: str, stored: StoredGame) -> Table:
    """A table as stored: the decks dealt and the actions applied in order."""
    row = stored.row
    hashes = dict(stored.hashes)
    spectator_hash = hashes.pop(SPECTATOR, None)
    former = {former_key(key): hashes.pop(key) for key in [k for k in hashes if k < SPECTATOR]}
    kinds = tuple(json.loads(row.seats))
    state = fh.new_game(rules_from_options(json.loads(row.rules)), dealer=row.dealer)
    next_deck = iter(stored.decks)
    past = []
    for seat, text in stored.actions:
        if state.phase is fh.Phase.DEAL:
            if state.last_hand is not None:
                past.append(_present.finished(state))
            state = fh.deal(state, cards=next(next_deck))
        state = fh.apply(state, fh.parse_action(text, phase=state.phase), seat=seat)
    for deck in next_deck:
        if state.last_hand is not None:
            past.append(_present.finished(state))
        state = fh.deal(state, cards=deck)
    named = stored.names
    return Table(
        id=table_id,
        seats=kinds,
        seed=row.seed,
        hashes=hashes,
        state=state,
        version=len(stored.actions),
        past=past,
        spectator_hash=spectator_hash,
        former=former,
        names=tuple(named.get(seat) for seat in range(len(kinds))) if named else (),
    )
