"""One table of the game server: a game, its seats, what its readers are served.

:class:`Table` is the game in memory; :class:`~fivehundred.server.tables.Tables`
holds many and stores them. This module knows nothing of storage but the rows it
rebuilds a table from (:func:`rebuild`).
"""

from __future__ import annotations

import hmac
import json
import random
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs

import fivehundred as fh
from fivehundred.bots.tournament import DEFAULT_BUDGET, make_player, strong_player
from fivehundred.records import rules_from_options
from fivehundred.server import _present
from fivehundred.server._admission import HUMAN, SPECTATOR, Refused, former_key, hash_token
from fivehundred.server._pause import Pause, describe
from fivehundred.server.store import StoredGame

__all__ = ["SEARCH_BUDGET", "Table", "rebuild", "texts"]

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
    #: The wait after a hand for the people present (:mod:`~fivehundred.server._pause`):
    #: the next hand is dealt, its computer seats wait. ``None``: not waiting.
    pause: Pause | None = None
    #: The people's seats with the table open on this server (the web layer's).
    present: Callable[[], frozenset[int]] = frozenset
    #: What readers are served: ``(version, state, finished hands, seats, pause)`` as
    #: last stored. A change under way (``lock`` held) is not shown until :meth:`publish`.
    _shown: tuple[int, fh.GameState, int, tuple[str, ...], Pause | None] = attrs.field(
        init=False, repr=False
    )
    #: ``hashes`` and its seats by token hash, for :meth:`seat_of`.
    _seats_by_hash: tuple[dict[int, str], dict[str, int]] = attrs.field(
        init=False, repr=False, factory=lambda: ({}, {})
    )

    def __attrs_post_init__(self) -> None:
        self.publish()

    def publish(self) -> None:
        """Serve the table as it is now: called once its change is stored, so a player
        never sees a move that a failed commit or a lost race then takes back."""
        self._shown = (self.version, self.state, len(self.past), self.seats, self.pause)

    @property
    def people(self) -> tuple[int, ...]:
        """The seats played by people (not computers), as the table stands."""
        return tuple(seat for seat, kind in enumerate(self.seats) if kind == HUMAN)

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
        """The seat's answer to ``GET /tables/{id}``: view, legal actions, version, the
        cards as the page shows them (sorted, trumps marked), of the table as stored,
        and the wait after a hand (``pause``)."""
        return {**self._view(seat), "pause": self._pause()}

    def _view(self, seat: int) -> dict[str, Any]:
        version, state, finished, seats, _ = self._shown
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
            "pause": None,  # last: :meth:`_paused` writes the table's wait over it
        }

    def _pause(self) -> dict[str, Any] | None:
        """The wait after a hand as the answer carries it (who is still reading changes
        with who is present, so it is not kept with the answer)."""
        pause, seats = self._shown[4], self._shown[3]
        people = [seat for seat, kind in enumerate(seats) if kind == HUMAN]
        return describe(pause, self.present(), people)

    def _paused(self, body: bytes) -> bytes:
        """A kept answer (which ends with ``"pause":null}``) with the table's wait."""
        if self._shown[4] is None:
            return body
        if not body.endswith(b'"pause":null}'):  # pragma: no cover - both encoders end so
            return _present.json_bytes({**json.loads(body), "pause": self._pause()})
        return body[: -len(b"null}")] + _present.json_bytes(self._pause()) + b"}"

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
        return self._paused(self._cached(seat, lambda: self._view(seat)))

    def spectate(self) -> bytes:
        """A spectator's answer to ``GET /tables/{id}``, as JSON bytes: the body of
        :meth:`view` with no hidden card.

        It is the view of the contractor's seat (seat 0 before a contract), which
        knows a five-player partner only once everyone may, with its hand, its
        kitty and its discards taken out; ``seat`` is ``None`` and there is no
        legal action. The open-misère hand, the tricks and the auction are public.
        """
        return self._paused(self._cached(SPECTATOR, self._spectator_view))

    def _spectator_view(self) -> dict[str, Any]:
        version, state, finished, seats, _ = self._shown
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
            "pause": None,
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
        self.version, self.state, self.pause = version, state, self._shown[4]
        del self.past[max(state.hand_number - 1, 0) :]

    def advance(
        self,
        state: fh.GameState,
        moves: list[tuple[int, fh.Action]],
        decks: list[str],
        wait: float = 0.0,
    ) -> fh.GameState:
        """Deal and let computer seats move until a person is to act or the game is over.

        With ``wait`` seconds, a hand that ends is followed by the next deal and a
        :class:`~fivehundred.server._pause.Pause`: the computer seats wait for it.
        """
        while state.result is None:
            if state.phase is fh.Phase.DEAL:
                if state.last_hand is not None:
                    self.past.append(_present.finished(state))
                    if wait > 0:
                        self.pause = Pause.starting(wait)
                state, deck = self._deal(state)
                decks.append(deck)
                continue
            seat = state.to_act
            if seat is None or self.seats[seat] == HUMAN or self.pause is not None:
                break
            action = self._computer(state, seat)
            state = fh.apply(state, action, seat=seat)
            moves.append((seat, action))
            self.version += 1
        return state

    def act(
        self, seat: int, text: str, version: int, wait: float = 0.0
    ) -> tuple[list[tuple[int, fh.Action]], list[str]]:
        """Apply ``seat``'s action and the computer moves after it; the caller holds ``lock``.

        Answers the moves made (the person's first) and the decks dealt, for
        storage. ``wait`` is :meth:`advance`'s. A person's move while the table waits
        after a hand is their "next hand": the wait ends if they were the last.
        Raises :class:`Refused`: 409 ``STALE_VERSION``, ``GAME_OVER`` or
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
        if self.pause is not None:
            self.pause = self.pause.with_ready(seat)
            if self.pause.over(self.present(), time.monotonic()):
                self.pause = None
        self.state = self.advance(state, moves, decks, wait)
        return moves, decks


def texts(moves: Sequence[tuple[int, fh.Action]]) -> list[tuple[int, str]]:
    """Moves as the store keeps them: each seat with its action's notation."""
    return [(seat, fh.format_action(action)) for seat, action in moves]


def rebuild(table_id: str, stored: StoredGame) -> Table:
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
