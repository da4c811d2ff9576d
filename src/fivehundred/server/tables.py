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

import hashlib
import hmac
import json
import random
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

import fivehundred as fh
from fivehundred._quoting import expect
from fivehundred.records import rules_from_options, rules_options
from fivehundred.server import present
from fivehundred.server.names import check_names
from fivehundred.tournament import DEFAULT_BUDGET, PLAYER_TYPES, make_player
from fivehundred.tricks import display_groups, is_trump

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

#: The seat kind of a person; every other kind is a computer player (:data:`PLAYER_TYPES`).
HUMAN: Final = "human"
#: The key of the spectator's token among a table's tokens (a seat number otherwise).
SPECTATOR: Final = -1
#: Tables one server holds (a table is created only below this many).
MAX_TABLES: Final = 10_000
#: What a table id looks like (``secrets.token_urlsafe(9)``, with room to spare).
TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: Bytes of randomness in a seat token (written as 43 URL-safe characters).
TOKEN_BYTES: Final = 32
#: The search player's deals per decision on a server (small: it answers within a request).
SEARCH_BUDGET: Final = min(DEFAULT_BUDGET, 8)

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS game (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    seats TEXT NOT NULL,
    seed TEXT NOT NULL,
    dealer INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS token (
    game TEXT NOT NULL REFERENCES game(id),
    seat INTEGER NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (game, seat)
);
CREATE TABLE IF NOT EXISTS deal (
    game TEXT NOT NULL REFERENCES game(id),
    hand INTEGER NOT NULL,
    deck TEXT NOT NULL,
    PRIMARY KEY (game, hand)
);
CREATE TABLE IF NOT EXISTS name (
    game TEXT NOT NULL REFERENCES game(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (game, seat)
);
CREATE TABLE IF NOT EXISTS action (
    game TEXT NOT NULL REFERENCES game(id),
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game, n)
);
CREATE TABLE IF NOT EXISTS closed (
    game TEXT PRIMARY KEY REFERENCES game(id),
    at REAL NOT NULL,
    reason TEXT NOT NULL
);
"""


class Refused(Exception):
    """A request the tables refuse: an HTTP status, a stable code and a sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def hash_token(token: str) -> str:
    """The stored form of a seat token: its SHA-256, in hex (tokens are random, not passwords)."""
    expect(token, str, "a seat token (a str)")
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _read_action(text: str, state: fh.GameState) -> fh.Action:
    """An action in notation, read in the game's phase (``7H`` is a bid or a card).

    Text that is an action of another phase is still read, so that the rules
    refuse it (``WRONG_PHASE``) rather than the notation.
    """
    try:
        return fh.parse_action(text, phase=state.phase)
    except fh.NotationError:
        try:
            return fh.parse_action(text)
        except fh.NotationError:
            pass
        raise


def _display(view: fh.PlayerView) -> dict[str, Any]:
    """How the browser table shows a view's cards, sorted and marked by the library.

    ``hand`` is the seat's cards (with the kitty while the seat discards from it)
    and ``exposed_hand`` an open misère hand, each as groups in the order of
    :func:`~fivehundred.tricks.display_groups`; ``kitty`` is in that order too.
    ``trumps`` is every card of the deck that is a trump under the contract,
    highest first (none before there is a contract), so that the page marks
    them wherever they are shown: in the hand, the kitty or the trick.
    """
    contract, joker = view.contract, view.joker_suit

    def groups(cards: Sequence[fh.Card]) -> list[list[str]]:
        return [
            [str(c) for c in group] for group in display_groups(cards, contract, joker_suit=joker)
        ]

    trumps: list[str] = []
    if contract is not None:  # the trumps of the deck are its first group, if it has any
        first = display_groups(view.rules.deck, contract, joker_suit=joker)[0]
        trumps = [str(c) for c in first] if is_trump(first[0], contract, joker_suit=joker) else []
    kitty = view.kitty
    return {
        "hand": groups([*view.hand, *(kitty or ())]),
        "kitty": None if kitty is None else [card for group in groups(kitty) for card in group],
        "exposed_hand": None if view.exposed_hand is None else groups(view.exposed_hand),
        "trumps": trumps,
    }


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
    past: list[present.FinishedHand] = attrs.field(factory=list)
    #: When the table was made, loaded or last moved at (``time.monotonic()``).
    touched: float = attrs.field(factory=time.monotonic)
    #: Each seat's last answer to GET, as JSON bytes, with the version it is of.
    _answers: dict[int, tuple[int, bytes]] = attrs.field(factory=dict)
    #: The SHA-256 of the spectator's token (``None``: the table has no spectator link).
    spectator_hash: str | None = None
    #: Each seat's name as its person gave it, or ``None`` (by seat; empty: no names).
    names: tuple[str | None, ...] = ()

    @property
    def slow(self) -> bool:
        """Whether a computer seat searches (its moves are worked out in a worker thread)."""
        return "search" in self.seats

    def seat_of(self, token: str) -> int | None:
        """The person's seat a token belongs to (compared in constant time), or ``None``."""
        digest = hash_token(token)
        found = None
        for seat, known in self.hashes.items():
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
        cards as the page shows them (sorted, trumps marked)."""
        state = self.state
        view = fh.observe(state, seat)
        return {
            "table": self.id,
            "seat": seat,
            "seats": list(self.seats),
            "names": self.seat_names(),
            "sides": [list(side) for side in state.rules.sides],
            "version": self.version,
            "legal_actions": [fh.format_action(a) for a in view.legal_actions],
            "view": fh.to_dict(view),
            "display": _display(view),
            "page": present.page(
                view,
                self.seats,
                self.past,
                kept=present.kept_from_kitty(state, seat),
                names=self.seat_names(),
            ),
        }

    def answer(self, seat: int) -> bytes:
        """:meth:`view` as JSON bytes, made once per version (polling costs nothing).

        While a change is under way in a worker thread (``lock`` held), the
        version may be ahead of the state: the answer is then made but not kept,
        so a half-made change is never served after it is done.
        """
        version, cached = self._answers.get(seat, (-1, b""))
        if version != self.version:
            version = self.version
            cached = json.dumps(self.view(seat), separators=(",", ":")).encode()
            if not self.lock.locked():
                self._answers[seat] = (version, cached)
        return cached

    def spectate(self) -> bytes:
        """A spectator's answer to ``GET /tables/{id}``, as JSON bytes: the body of
        :meth:`view` with no hidden card.

        It is the view of the contractor's seat (seat 0 before a contract), which
        knows a five-player partner only once everyone may, with its hand, its
        kitty and its discards taken out; ``seat`` is ``None`` and there is no
        legal action. The open-misère hand, the tricks and the auction are public.
        """
        version, cached = self._answers.get(SPECTATOR, (-1, b""))
        if version != self.version:
            version = self.version
            cached = json.dumps(self._spectator_view(), separators=(",", ":")).encode()
            if not self.lock.locked():  # as in answer: keep no half-made change
                self._answers[SPECTATOR] = (version, cached)
        return cached

    def _spectator_view(self) -> dict[str, Any]:
        state = self.state
        contractor = state.contractor
        seen = fh.observe(state, 0 if contractor is None else contractor)
        view = attrs.evolve(seen, hand=(), kitty=None, discards=None, legal_actions=())
        return {
            "table": self.id,
            "seat": None,
            "seats": list(self.seats),
            "names": self.seat_names(),
            "sides": [list(side) for side in state.rules.sides],
            "version": self.version,
            "legal_actions": [],
            "view": fh.to_dict(view),
            "display": _display(view),
            "page": present.page(
                view, self.seats, self.past, names=self.seat_names(), spectator=True
            ),
        }

    def _deal(self, state: fh.GameState) -> tuple[fh.GameState, str]:
        deck = list(state.rules.deck)
        random.Random(f"{self.seed}/deal/{state.hand_number + 1}").shuffle(deck)
        return fh.deal(state, cards=deck), " ".join(map(str, deck))

    def _computer(self, state: fh.GameState, seat: int) -> fh.Action:
        rng = random.Random(f"{self.seed}/move/{self.version}")
        player = make_player(self.seats[seat], rng, SEARCH_BUDGET)
        return player.choose(fh.observe(state, seat))

    def advance(
        self, state: fh.GameState, moves: list[tuple[int, fh.Action]], decks: list[str]
    ) -> fh.GameState:
        """Deal and let computer seats move until a person is to act or the game is over."""
        while state.result is None:
            if state.phase is fh.Phase.DEAL:
                if state.last_hand is not None:
                    self.past.append(present.finished(state))
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
        try:
            action = _read_action(text, state)
        except fh.NotationError as err:
            raise Refused(400, "BAD_NOTATION", str(err)) from None
        try:
            state = fh.apply(state, action, seat=seat)
        except fh.IllegalActionError as err:
            raise Refused(422, err.reason.name, str(err)) from None
        self.version += 1
        moves = [(seat, action)]
        decks: list[str] = []
        self.state = self.advance(state, moves, decks)
        return moves, decks


def check_rules(options: object) -> fh.Rules:
    """The rules of a table's options, checked by type and range before anything is made.

    Raises :class:`Refused` 422 ``BAD_RULES`` with every problem in one sentence.
    """
    if not isinstance(options, Mapping):
        raise Refused(422, "BAD_RULES", "rules must be an object of rule options")
    try:
        return rules_from_options(options)
    except fh.InvalidStateError as err:
        raise Refused(422, "BAD_RULES", str(err)[:500]) from None


def _check_seats(seats: object, players: int) -> tuple[str, ...]:
    kinds = (HUMAN, *PLAYER_TYPES)
    if not isinstance(seats, list) or len(seats) != players:
        raise Refused(
            422, "BAD_SEATS", f"seats must be a list of {players} seat kinds: {', '.join(kinds)}"
        )
    if not all(isinstance(kind, str) and kind in kinds for kind in seats):
        raise Refused(422, "BAD_SEATS", f"every seat must be one of {', '.join(kinds)}")
    if HUMAN not in seats:
        raise Refused(422, "BAD_SEATS", "at least one seat must be a person ('human')")
    return tuple(seats)


class Tables:
    """Every table of one server, kept in memory and stored in one SQLite database.

    ``path`` is a file (``":memory:"`` for a database that dies with the
    process). The connection is shared by the server's threads under a lock;
    the database is in WAL mode with ``synchronous=FULL``, so a committed move
    survives a crash of the process and of the machine.

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
        #: When this object was made: the last activity of a table not loaded since.
        self.started = time.monotonic()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db_lock = threading.Lock()
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()
        with self._db_lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the database."""
        with self._db_lock:
            self._db.close()

    def __len__(self) -> int:
        with self._db_lock:
            (count,) = self._db.execute("SELECT COUNT(*) FROM game").fetchone()
        return int(count)

    def create(
        self, options: Mapping[str, object], seats: object, names: object = None
    ) -> tuple[Table, dict[int, str]]:
        """A new table, dealt, computer seats moved: the table and each person's token.

        ``names`` is a list of each seat's name or ``None``
        (:func:`~fivehundred.server.names.check_names`; 422 ``BAD_NAMES``).
        The tokens are by seat, and the spectator's under :data:`SPECTATOR`.
        They are answered here only; the database keeps their hashes.
        """
        rules = check_rules(options)
        kinds = _check_seats(seats, rules.players)
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
        with self._db_lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT INTO game VALUES (?, ?, ?, ?, ?)",
                (table.id, json.dumps(rules_options(rules)), json.dumps(kinds), seed, dealer),
            )
            self._db.executemany(
                "INSERT INTO token VALUES (?, ?, ?)",
                [
                    (table.id, seat, digest)
                    for seat, digest in [*table.hashes.items(), (SPECTATOR, hash_token(watcher))]
                ],
            )
            self._db.executemany(
                "INSERT INTO name VALUES (?, ?, ?)",
                [(table.id, seat, name) for seat, name in enumerate(named) if name is not None],
            )
            self._store(table, 0, moves, decks)
        with self._lock:
            self._tables[table.id] = table
        self.observer("created", "", 1)
        if moves:
            self.observer("moves", "computer", len(moves))
        return table, {**tokens, SPECTATOR: watcher}

    def get(self, table_id: str) -> Table:
        """The table of an id (loaded from the database if need be); 404 ``NO_SUCH_TABLE``,
        410 ``TABLE_CLOSED`` for a table closed (expired, finished or closed by the operator)."""
        if not TABLE_ID.fullmatch(table_id):
            raise Refused(404, "NO_SUCH_TABLE", "there is no such table")
        with self._lock:
            table = self._tables.get(table_id)
            if table is None:
                table = self._load(table_id)
                self._tables[table_id] = table
        return table

    def act(self, table: Table, seat: int, text: str, version: int) -> int:
        """Apply a person's action; store it before answering the new version."""
        with table.lock:
            before, state = table.version, table.state
            try:
                moves, decks = table.act(seat, text, version)
                hands = state.hand_number
                with self._db_lock, self._db:
                    self._db.execute("BEGIN IMMEDIATE")
                    self._store(table, before, moves, decks, hands)
            except BaseException:
                table.version, table.state = before, state
                raise
            table.touched = time.monotonic()
            self.observer("moves", "person", 1)
            if len(moves) > 1:
                self.observer("moves", "computer", len(moves) - 1)
            return table.version

    def hand_over(self, table: Table, seat: int, kind: str) -> int:
        """Give a person's seat to a computer player of ``kind``; answer the new version.

        The seat's token stops working at once; the computer plays from the
        table as it is (at once, if the seat is to act). Who may ask is the web
        layer's choice (see docs/howto/game-server.md). Raises :class:`Refused`:
        422 ``BAD_SEATS`` for a kind that is no computer player or a seat that
        is not a person's, 409 ``LAST_PERSON`` for the last person's seat.
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
            before, state, seats, hashes = table.version, table.state, table.seats, table.hashes
            try:
                table.seats = (*seats[:seat], kind, *seats[seat + 1 :])
                table.hashes = {n: h for n, h in hashes.items() if n != seat}
                table._answers.clear()
                moves: list[tuple[int, fh.Action]] = []
                decks: list[str] = []
                table.state = table.advance(state, moves, decks)
                with self._db_lock, self._db:
                    self._db.execute("BEGIN IMMEDIATE")
                    self._db.execute(
                        "UPDATE game SET seats = ? WHERE id = ?",
                        (json.dumps(table.seats), table.id),
                    )
                    self._db.execute(
                        "DELETE FROM token WHERE game = ? AND seat = ?", (table.id, seat)
                    )
                    self._store(table, before, moves, decks, state.hand_number)
            except BaseException:
                table.version, table.state, table.seats, table.hashes = before, state, seats, hashes
                table._answers.clear()
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
                hands = state.hand_number
                for seat, text in line:
                    assert isinstance(seat, int) and isinstance(text, str)
                    action = fh.parse_action(text, phase=state.phase)
                    state = fh.apply(state, action, seat=seat)
                    moves.append((seat, action))
                    table.version += 1
                table.state = table.advance(state, moves, decks)
                with self._db_lock, self._db:
                    self._db.execute("BEGIN IMMEDIATE")
                    self._store(table, before, moves, decks, hands)
            except fh.IllegalActionError as err:
                table.version, table.state = before, start
                raise Refused(422, err.reason.name, str(err)) from None
            except BaseException:
                table.version, table.state = before, start
                raise
            return table.version

    def _store(
        self,
        table: Table,
        first: int,
        moves: Sequence[tuple[int, fh.Action]],
        decks: Sequence[str],
        hands: int = 0,
    ) -> None:
        self._db.executemany(
            "INSERT INTO action VALUES (?, ?, ?, ?)",
            [
                (table.id, first + n, seat, fh.format_action(action))
                for n, (seat, action) in enumerate(moves)
            ],
        )
        self._db.executemany(
            "INSERT INTO deal VALUES (?, ?, ?)",
            [(table.id, hands + n + 1, deck) for n, deck in enumerate(decks)],
        )

    def _load(self, table_id: str) -> Table:
        with self._db_lock:
            row = self._db.execute(
                "SELECT rules, seats, seed, dealer FROM game WHERE id = ?", (table_id,)
            ).fetchone()
            if row is None:
                raise Refused(404, "NO_SUCH_TABLE", "there is no such table")
            if self._db.execute("SELECT 1 FROM closed WHERE game = ?", (table_id,)).fetchone():
                raise Refused(410, "TABLE_CLOSED", "this table is closed: its game is archived")
            hashes = dict(
                self._db.execute("SELECT seat, hash FROM token WHERE game = ?", (table_id,))
            )
            named = dict(
                self._db.execute("SELECT seat, name FROM name WHERE game = ?", (table_id,))
            )
            decks = [
                deck
                for (deck,) in self._db.execute(
                    "SELECT deck FROM deal WHERE game = ? ORDER BY hand", (table_id,)
                )
            ]
            actions = list(
                self._db.execute(
                    "SELECT seat, action FROM action WHERE game = ? ORDER BY n", (table_id,)
                )
            )
        rules_text, seats_text, seed, dealer = row
        spectator_hash = hashes.pop(SPECTATOR, None)
        kinds = tuple(json.loads(seats_text))
        state = fh.new_game(rules_from_options(json.loads(rules_text)), dealer=dealer)
        next_deck = iter(decks)
        past = []
        for seat, text in actions:
            if state.phase is fh.Phase.DEAL:
                if state.last_hand is not None:
                    past.append(present.finished(state))
                state = fh.deal(state, cards=next(next_deck))
            state = fh.apply(state, fh.parse_action(text, phase=state.phase), seat=seat)
        for deck in next_deck:
            if state.last_hand is not None:
                past.append(present.finished(state))
            state = fh.deal(state, cards=deck)
        return Table(
            id=table_id,
            seats=kinds,
            seed=seed,
            hashes=hashes,
            state=state,
            version=len(actions),
            past=past,
            spectator_hash=spectator_hash,
            names=tuple(named.get(seat) for seat in range(len(kinds))) if named else (),
        )

    # -- the operator's side: open tables, closing, expiry ------------------------

    def open_count(self) -> int:
        """The tables not closed, stored in the database (the ``max_tables`` cap counts these)."""
        with self._db_lock:
            (count,) = self._db.execute(
                "SELECT COUNT(*) FROM game WHERE id NOT IN (SELECT game FROM closed)"
            ).fetchone()
        return int(count)

    def loaded(self) -> int:
        """The tables held in memory."""
        with self._lock:
            return len(self._tables)

    def listing(self) -> list[dict[str, Any]]:
        """Every open table for the admin route: id, seats, version, finished, idle seconds.

        A table not loaded since the server started counts as idle since then.
        """
        with self._db_lock:
            rows = list(
                self._db.execute(
                    "SELECT g.id, g.seats, (SELECT COUNT(*) FROM action a WHERE a.game = g.id) "
                    "FROM game g WHERE g.id NOT IN (SELECT game FROM closed) ORDER BY g.rowid"
                )
            )
        with self._lock:
            loaded = dict(self._tables)
        now = time.monotonic()
        found = []
        for table_id, seats, actions in rows:
            table = loaded.get(table_id)
            found.append(
                {
                    "table": table_id,
                    "seats": json.loads(seats),
                    "version": actions if table is None else table.version,
                    "finished": None if table is None else table.state.result is not None,
                    "idle": round(now - (self.started if table is None else table.touched), 1),
                    "loaded": table is not None,
                }
            )
        return found

    def retire(self, table_id: str, reason: str) -> bool:
        """Close a table and archive its game: it leaves memory, and its rows stay, marked
        closed with the time and ``reason``. Answers whether it was open.

        Every later request to it is answered 410 ``TABLE_CLOSED``; :meth:`purge` deletes
        archived games.
        """
        with self._db_lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            known = self._db.execute("SELECT 1 FROM game WHERE id = ?", (table_id,)).fetchone()
            done = self._db.execute("SELECT 1 FROM closed WHERE game = ?", (table_id,)).fetchone()
            if known and not done:
                self._db.execute(
                    "INSERT INTO closed VALUES (?, ?, ?)", (table_id, time.time(), reason)
                )
        with self._lock:
            self._tables.pop(table_id, None)
        if known and not done:
            self.observer("closed", reason, 1)
        return bool(known and not done)

    def sweep(self, idle: float, finished: float, now: float | None = None) -> dict[str, int]:
        """Archive the tables idle for ``idle`` seconds and the games finished ``finished``
        seconds ago (0: never); answers how many of each.

        A table's clock is its last accepted move (``touched``); a table not
        loaded since the server started counts from the start.
        """
        now = time.monotonic() if now is None else now
        with self._lock:
            loaded = dict(self._tables)
        with self._db_lock:
            open_ids = [
                table_id
                for (table_id,) in self._db.execute(
                    "SELECT id FROM game WHERE id NOT IN (SELECT game FROM closed)"
                )
            ]
        closed = {"idle": 0, "finished": 0}
        for table_id in open_ids:
            table = loaded.get(table_id)
            touched = self.started if table is None else table.touched
            over = table is not None and table.state.result is not None
            if over and finished and now - touched >= finished:
                closed["finished"] += self.retire(table_id, "finished")
            elif not over and idle and now - touched >= idle:
                closed["idle"] += self.retire(table_id, "idle")
        return closed

    def purge(self, older: float, now: float | None = None) -> int:
        """Delete the archived games closed over ``older`` seconds ago; answers how many."""
        cutoff = (time.time() if now is None else now) - older
        with self._db_lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            ids = [
                (table_id,)
                for (table_id,) in self._db.execute(
                    "SELECT game FROM closed WHERE at <= ?", (cutoff,)
                )
            ]
            for name in ("action", "deal", "token", "name", "closed"):
                self._db.executemany(f"DELETE FROM {name} WHERE game = ?", ids)
            self._db.executemany("DELETE FROM game WHERE id = ?", ids)
        return len(ids)

    def ping(self) -> None:
        """Ask the database a trivial question (readiness); raises :class:`sqlite3.Error`."""
        with self._db_lock:
            self._db.execute("SELECT 1").fetchone()
