"""One moment of a game: :class:`GameState`, and the completed tricks it links.

A state is about a dozen fields (the seat to act, each seat's hand as a mask of
deck positions, the trick under way, the tricks won) that point to the
:class:`~fivehundred._engine.hand.Hand` block of its phase. The functions at
the end read a state for the public modules. Internal; compiled by mypyc.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, final

from fivehundred._engine.docs import mypyc_attr
from fivehundred._engine.hand import BIDDING, PHASES, PLAY, Hand
from fivehundred._engine.table import SUITS
from fivehundred._engine.values import Phase, Trick
from fivehundred.actions import Action
from fivehundred.calls import Call, CallKind
from fivehundred.cards import CARDS, Card, Suit
from fivehundred.errors import FiveHundredTypeError
from fivehundred.rules import Rules
from fivehundred.scoring import GameResult, HandResult

#: True when this module runs compiled by mypyc (the compiled build).
COMPILED: Final = not __file__.endswith(".py")


@final
@mypyc_attr(acyclic=True)  # nothing it holds can lead back to it
class TrickNode:
    """A completed trick, linked to the one before (the tricks of a hand, newest first)."""

    def __init__(
        self,
        prev: TrickNode | None,
        cards: int,
        leader: int,
        winner: int,
        led: int,
        count: int,
    ) -> None:
        self.prev = prev
        #: The cards in play order, packed (see :func:`trick_cards`).
        self.cards = cards
        self.leader = leader
        self.winner = winner
        self.led = led
        self.count = count


def logged(s: GameState, action: Action) -> list[Action]:
    """The action log of a state one action on from ``s``.

    States of a hand share one list and each knows its length: the newest state's
    successor appends in place; any other state (a branch) copies its prefix. The
    append is checked afterwards, so two threads on one state never share a slot.
    """
    log = s._log
    n = s._nlog
    if len(log) == n:
        log.append(action)
        if len(log) == n + 1 and log[n] is action:
            return log
    fresh = log[:n]
    fresh.append(action)
    return fresh


def trick_cards(trick: int) -> list[int]:
    """The cards of a packed trick, in play order (three bits of count, seven a card)."""
    out: list[int] = []
    for k in range(trick & 7):
        out.append((trick >> (3 + 7 * k)) & 127)
    return out


def pack_trick(cards: Sequence[int]) -> int:
    """A trick's cards packed as :func:`trick_cards` reads them."""
    packed = len(cards)
    for k in range(len(cards)):
        packed |= cards[k] << (3 + 7 * k)
    return packed


def trick_list(node: TrickNode | None) -> list[TrickNode]:
    out: list[TrickNode] = []
    while node is not None:
        out.append(node)
        node = node.prev
    out.reverse()
    return out


def log_tuple(s: GameState) -> tuple[Action, ...]:
    return tuple(s._log[: s._nlog])


def _restore(
    h: Hand,
    to_act: int,
    hands: tuple[int, ...],
    trick: int,
    leader: int,
    led: int,
    suits_led: int,
    won: int,
    tricks: tuple[tuple[int, int, int, int, int], ...],
    actions: tuple[Action, ...],
) -> GameState:
    """Unpickle a :class:`GameState` (see :meth:`GameState.__reduce__`)."""
    node: TrickNode | None = None
    for cards, lead, winner, suit, count in tricks:
        node = TrickNode(node, cards, lead, winner, suit, count)
    log = list(actions)
    return GameState(h, to_act, hands, trick, leader, led, suits_led, won, node, log, len(log))


@final
@mypyc_attr(acyclic=True)  # immutable values all the way down: no reference cycle
class GameState:
    """One moment of a game of Five Hundred. Immutable and hashable.

    Build it with :func:`~fivehundred.new_game` and :func:`~fivehundred.deal`,
    move it on with :func:`~fivehundred.apply`. Show it to a player only through
    :func:`~fivehundred.observe`.

    Raises :class:`~fivehundred.FiveHundredTypeError` when constructed directly: states are made
    by :func:`~fivehundred.new_game`, :func:`~fivehundred.deal` and :func:`~fivehundred.apply`.
    """

    __slots__ = (
        "_codes",
        "_h",
        "_hands",
        "_leader",
        "_led",
        "_legal",
        "_log",
        "_mask",
        "_nlog",
        "_suits_led",
        "_to_act",
        "_trick",
        "_tricks",
        "_won",
    )

    def __init__(
        self,
        h: Hand | None = None,
        to_act: int = -1,
        hands: tuple[int, ...] = (),
        trick: int = 0,
        leader: int = -1,
        led: int = -1,
        suits_led: int = 0,
        won: int = 0,
        tricks: TrickNode | None = None,
        log: list[Action] | None = None,
        nlog: int = 0,
    ) -> None:
        if h is None:
            raise FiveHundredTypeError(
                "GameState is made by fivehundred.new_game(), deal() and apply()"
            )
        self._h = h
        self._to_act = to_act
        #: Every seat's hand, as a mask of positions; empty before the first deal.
        self._hands = hands
        #: The trick in progress, packed (see :func:`trick_cards`); 0 when none.
        self._trick = trick
        self._leader = leader
        self._led = led
        self._suits_led = suits_led
        #: Tricks taken by each seat, four bits a seat.
        self._won = won
        self._tricks = tricks
        #: The hand's actions: the first ``_nlog`` items of a list shared along the hand.
        self._log: list[Action] = [] if log is None else log
        self._nlog = nlog
        #: The legal actions of the seat to act, once known (not part of the value).
        self._legal: tuple[Action, ...] | None = None
        #: In card play, the mask of playable positions (``-1`` until known).
        self._mask = -1
        #: Beside ``_legal`` in card play: each play's position and named suit + 1 << 6.
        self._codes: tuple[int, ...] | None = None

    def _copy(self) -> GameState:
        return GameState(
            self._h,
            self._to_act,
            self._hands,
            self._trick,
            self._leader,
            self._led,
            self._suits_led,
            self._won,
            self._tricks,
            self._log,
            self._nlog,
        )

    def _key(self) -> tuple[object, ...]:
        return (
            self._h.key(),
            self._to_act,
            self._hands,
            self._trick,
            self._leader,
            self._led,
            self._suits_led,
            self._won,
            self._trick_tuple(),
            log_tuple(self),
        )

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, GameState):
            return self._key() == other._key()
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, GameState):
            return not self.__eq__(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __copy__(self) -> GameState:
        return self  # immutable: a copy is the same value

    def __deepcopy__(self, memo: dict[int, object]) -> GameState:
        return self

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (_restore, (self._h, *self._key()[1:]))

    def _trick_tuple(self) -> tuple[tuple[int, int, int, int, int], ...]:
        return tuple(
            (n.cards, n.leader, n.winner, n.led, n.count) for n in trick_list(self._tricks)
        )

    def __repr__(self) -> str:
        h = self._h
        parts = [f"phase={PHASES[h.phase].value}", f"dealer={self.dealer}", f"scores={h.scores}"]
        if h.contract is not None:
            parts.append(f"contract={h.contract} by seat {h.contractor}")
        if self._to_act >= 0:
            parts.append(f"to_act={self._to_act}")
        return f"<GameState hand {h.number}: {', '.join(parts)}>"

    # -- the game ---------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules of this game."""
        return self._h.rules

    @property
    def phase(self) -> Phase:
        """Where the game is."""
        return PHASES[self._h.phase]

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` while waiting for a deal or when the game is over."""
        return None if self._to_act < 0 else self._to_act

    @property
    def dealer(self) -> int | None:
        """The dealer of the current (or next) hand; ``None`` only before a random first deal."""
        return None if self._h.dealer < 0 else self._h.dealer

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's score."""
        return self._h.scores

    @property
    def hand_number(self) -> int:
        """Hands dealt so far in this game (thrown-in hands included)."""
        return self._h.number

    @property
    def is_over(self) -> bool:
        """True when the game has ended (R9)."""
        return self._h.result is not None

    @property
    def result(self) -> GameResult | None:
        """The game's result once it is over."""
        return self._h.result

    @property
    def last_hand(self) -> HandResult | None:
        """The result of the most recently finished hand."""
        return self._h.last()

    # -- the hand ---------------------------------------------------------

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards a seat holds now, in card order."""
        t = self._h.t
        if not 0 <= seat < t.players:
            raise IndexError(f"seat {seat} is not at this table")
        return t.cards_of(hand_of(self, seat))

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's cards, by seat."""
        t = self._h.t
        return tuple(t.cards_of(hand_of(self, seat)) for seat in range(t.players))

    @property
    def kitty(self) -> tuple[Card, ...]:
        """The kitty until the contractor discards (R4.1); empty after."""
        return self._h.t.cards_of(self._h.kitty)

    @property
    def dead_hand(self) -> tuple[Card, ...]:
        """The two-player game's dead hand (P2): dealt, never seen, never played."""
        return self._h.t.cards_of(self._h.dead)

    @property
    def discards(self) -> tuple[Card, ...]:
        """The contractor's discards (out of play, never shown to players)."""
        return self._h.t.cards_of(self._h.discards)

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deck order this hand was dealt from (R2.3); empty before the first deal."""
        cards = self._h.t.cards
        return tuple(cards[pos] for pos in self._h.order)

    @property
    def auction(self) -> tuple[tuple[int, Call], ...]:
        """The calls of this hand's auction as ``(seat, call)`` pairs."""
        return self._h.auction

    @property
    def high_bid(self) -> Call | None:
        """The standing (highest) bid of the auction, if any."""
        h = self._h
        return None if h.high < 0 else h.auction[h.high][1]

    @property
    def high_bidder(self) -> int | None:
        """The seat of the standing bid, if any."""
        h = self._h
        return None if h.high < 0 else h.auction[h.high][0]

    @property
    def raise_offered(self) -> bool:
        """V-SELF-RAISE: the high bidder is offered one raise now (all others passed).

        >>> import fivehundred as fh
        >>> fh.deal(fh.new_game(dealer=3), seed=7).raise_offered
        False
        """
        h = self._h
        return h.phase == BIDDING and h.high >= 0 and self._to_act == h.auction[h.high][0]

    @property
    def passed(self) -> frozenset[int]:
        """Seats that have passed in this auction (R3.7)."""
        passed = self._h.passed
        return frozenset(s for s in range(self._h.t.players) if (passed >> s) & 1)

    @property
    def contract(self) -> Call | None:
        """The contract once the auction is won."""
        return self._h.contract

    @property
    def contractor(self) -> int | None:
        """The seat that won the auction."""
        return None if self._h.contractor < 0 else self._h.contractor

    @property
    def partner(self) -> int | None:
        """The five-player contractor's partner (P5), secret until revealed; ``None`` if alone.

        Only :func:`~fivehundred.observe` knows who may see it; this is the full state.
        """
        return None if self._h.partner < 0 else self._h.partner

    @property
    def partner_card(self) -> Card | None:
        """The card the five-player contractor called (P5), if any."""
        index = self._h.partner_card
        return None if index < 0 else CARDS[index]

    @property
    def joker_suit(self) -> Suit | None:
        """The suit the Joker was nominated into (R7.1), if any."""
        suit = self._h.joker_suit
        return None if suit < 0 else SUITS[suit]

    @property
    def sitting_out(self) -> frozenset[int]:
        """Seats that sit this hand out: the misère contractor's partner (R4.2)."""
        out = self._h.out
        return frozenset(s for s in range(self._h.t.players) if (out >> s) & 1)

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The trick in progress as ``(seat, card)`` pairs."""
        return _pairs(self._h, self._trick, self._leader)

    @property
    def led_suit(self) -> Suit | None:
        """The led suit of the trick in progress, if a card has been led."""
        led = self._led
        return SUITS[led] if self._trick and 0 <= led < 4 else None

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks of this hand."""
        h = self._h
        return tuple(
            Trick(
                leader=n.leader,
                plays=_pairs(h, n.cards, n.leader),
                winner=n.winner,
                led_suit=SUITS[n.led] if n.led >= 0 else None,
            )
            for n in trick_list(self._tricks)
        )

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks each side has taken this hand."""
        t = self._h.t
        out = [0] * t.nsides
        for seat in range(t.players):
            out[t.side_of[seat]] += won_by(self, seat)
        return tuple(out)

    @property
    def tricks_won_by_seat(self) -> tuple[int, ...]:
        """Tricks each seat has taken this hand."""
        return tricks_by_seat(self)

    @property
    def suits_led(self) -> frozenset[Suit]:
        """Suits led so far this hand, suits named for Joker leads included (R7.4)."""
        return frozenset(s for s in SUITS if (self._suits_led >> s) & 1)

    @property
    def exposed(self) -> bool:
        """True when the open-misère contractor's hand is face up (R6.3)."""
        h = self._h
        contract = h.contract
        if contract is None or contract.kind is not CallKind.OPEN_MISERE:
            return False
        if self._tricks is not None:
            return True
        return h.t.open_before_lead and h.phase == PLAY

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions taken in this hand so far."""
        return log_tuple(self)


def _pairs(h: Hand, trick: int, leader: int) -> tuple[tuple[int, Card], ...]:
    """``(seat, card)`` pairs of a packed trick's cards, played in order from ``leader``."""
    out: list[tuple[int, Card]] = []
    seat = leader
    deck_cards = h.t.cards
    for pos in trick_cards(trick):
        out.append((seat, deck_cards[pos]))
        seat = h.nxt[seat]
    return tuple(out)


def hand_of(s: GameState, seat: int) -> int:
    """The position mask of one seat's hand."""
    hands = s._hands
    return hands[seat] if hands else 0


def replace_at(items: tuple[int, ...], at: int, value: int) -> tuple[int, ...]:
    """``items`` with ``value`` at ``at`` (written out for the usual table sizes: a hot path).

    The other items are read untyped: compiled, reading them as ints would unbox
    each one and box it again, a new int object each, into the new tuple.
    """
    old: tuple[Any, ...] = items
    if len(old) == 4:
        if at == 0:
            return (value, old[1], old[2], old[3])
        if at == 1:
            return (old[0], value, old[2], old[3])
        if at == 2:
            return (old[0], old[1], value, old[3])
        return (old[0], old[1], old[2], value)
    listed = list(old)
    listed[at] = value
    return tuple(listed)


def won_by(s: GameState, seat: int) -> int:
    """Tricks one seat has taken this hand."""
    return (s._won >> (4 * seat)) & 15


def hand_records(state: GameState) -> tuple[tuple[int, tuple[Card, ...], tuple[Action, ...]], ...]:
    """Every hand of the game so far, the one in progress last: ``(dealer, deck, actions)``."""
    h = state._h
    cards = h.t.cards
    out = [(dealer, tuple(cards[p] for p in deck), actions) for dealer, deck, actions in h.history]
    if BIDDING <= h.phase <= PLAY:
        out.append((h.dealer, state.deck, state.actions))
    return tuple(out)


def find(options: Sequence[object], action: object) -> int:
    """Where ``action`` is among ``options`` (identity first, then equality), or -1."""
    for at in range(len(options)):
        if options[at] is action:
            return at
    for at in range(len(options)):
        if options[at] == action:
            return at
    return -1


def to_act(s: GameState) -> int:
    """The seat to act, or -1."""
    return s._to_act


def hands_of(s: GameState) -> tuple[int, ...]:
    """Every seat's hand as a position mask."""
    return s._hands or (0,) * s._h.t.players


def trick_of(s: GameState) -> list[tuple[int, int]]:
    """The trick in progress as ``(seat, position)`` pairs."""
    h = s._h
    out: list[tuple[int, int]] = []
    seat = s._leader
    for pos in trick_cards(s._trick):
        out.append((seat, pos))
        seat = h.nxt[seat]
    return out


def led_of(s: GameState) -> int:
    """The led suit of the trick in progress, or -1."""
    return s._led if s._trick else -1


def active_seats(s: GameState) -> tuple[int, ...]:
    """The seats that play this hand (not sitting out, R4.2)."""
    out = s._h.out
    return tuple(seat for seat in range(s._h.t.players) if not (out >> seat) & 1)


def tricks_by_seat(s: GameState) -> tuple[int, ...]:
    """Tricks each seat has taken so far in this state's hand."""
    return tuple(won_by(s, seat) for seat in range(s._h.t.players))


def hand_block(s: GameState) -> Hand:
    """The hand-wide block a state shares (phase, table, contract), for the internal
    modules outside the core: they never read a state's private fields themselves."""
    return s._h


def suits_led_of(s: GameState) -> int:
    """The suits led so far this hand, as a mask of suit bits (R7.4)."""
    return s._suits_led
