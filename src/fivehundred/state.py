"""The immutable game state.

A :class:`GameState` is created by :func:`~fivehundred.new_game`, dealt by
:func:`~fivehundred.deal` and advanced by :func:`~fivehundred.apply`; it never
changes. Inside, it is one tuple of small integers and bit masks (a card set is
a mask of ``Card.index`` bits), so copying it for each action is cheap; the
properties turn that into cards, calls and tricks.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

import attrs

from fivehundred.calls import Call, CallKind
from fivehundred.cards import CARDS, Card, Suit, cards_from_mask
from fivehundred.scoring import GameResult, HandResult

if TYPE_CHECKING:
    from fivehundred.actions import Action
    from fivehundred.rules import Rules
    from fivehundred.tricks import Context

__all__ = ["GameState", "Phase", "Trick"]


class Phase(enum.Enum):
    """Where a game is."""

    #: Waiting for a deal: before the first hand, after a hand, after a throw-in.
    DEAL = "deal"
    #: The auction (R3).
    BIDDING = "bidding"
    #: The contractor exchanges with the kitty (R4.1).
    DISCARD = "discard"
    #: The contractor may nominate the Joker's suit (R7.1).
    NOMINATE = "nominate"
    #: Five players: the contractor calls a partner (P5).
    PARTNER = "partner"
    #: Card play (R5).
    PLAY = "play"
    #: The game is over (R9).
    GAME_OVER = "game_over"


@attrs.frozen
class Trick:
    """A completed trick: who led, the cards in play order, the winner and the led suit."""

    leader: int
    #: ``(seat, card)`` pairs in play order.
    plays: tuple[tuple[int, Card], ...]
    winner: int
    #: The led suit, or ``None`` when a suitless Joker was led to the last trick (R7.5).
    led_suit: Suit | None

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards in play order."""
        return tuple(card for _, card in self.plays)


#: A completed trick inside the engine: ``((seat, card index), ...), winner, led suit or -1``.
RawTrick: TypeAlias = tuple[tuple[tuple[int, int], ...], int, int]


def make_trick(raw: RawTrick) -> Trick:
    """The public :class:`Trick` of an engine trick."""
    plays, winner, led = raw
    return Trick(
        leader=plays[0][0],
        plays=tuple((seat, CARDS[index]) for seat, index in plays),
        winner=winner,
        led_suit=Suit(led) if led >= 0 else None,
    )


class Core(NamedTuple):
    """Everything a state holds, as plain values (internal)."""

    rules: Rules
    phase: Phase
    dealer: int | None
    scores: tuple[int, ...]
    hand_number: int
    hands: tuple[int, ...]
    dead: int
    kitty: int
    discards: int
    deck: tuple[int, ...]
    auction: tuple[tuple[int, Call], ...]
    passed: int
    called: int
    passes: int
    raised: int
    high: int
    to_act: int | None
    contract: Call | None
    contractor: int | None
    partner: int
    partner_card: int
    joker_suit: Suit | None
    ctx: Context | None
    sitting_out: int
    trick: tuple[tuple[int, int], ...]
    led: int
    tricks: tuple[RawTrick, ...]
    won: tuple[int, ...]
    suits_led: int
    actions: tuple[Action, ...]
    last_hand: HandResult | None
    result: GameResult | None
    #: Finished hands: ``(dealer, deck order, actions)``.
    history: tuple[tuple[int, tuple[int, ...], tuple[Action, ...]], ...]


class GameState:
    """One moment of a game of Five Hundred. Immutable and hashable.

    Build it with :func:`~fivehundred.new_game` and :func:`~fivehundred.deal`,
    move it on with :func:`~fivehundred.apply`. Show it to a player only through
    :func:`~fivehundred.observe`.
    """

    __slots__ = ("_c", "_opts")
    _c: Core
    #: Cache of the seat to act's playable cards (engine internal; not part of the value).
    _opts: tuple[int, int] | None

    def __init__(self) -> None:
        raise TypeError("GameState is made by fivehundred.new_game(), deal() and apply()")

    @classmethod
    def _make(cls, core: Core) -> GameState:
        state = _new_object(cls)
        _set_core(state, core)
        _set_opts(state, None)
        return state

    def __setattr__(self, name: str, value: object) -> None:
        raise attrs.exceptions.FrozenInstanceError

    def __delattr__(self, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError

    def __copy__(self) -> GameState:
        return self  # immutable: a copy is the same value

    def __deepcopy__(self, memo: dict[int, object]) -> GameState:
        return self

    def __reduce__(self) -> tuple[Callable[[Core], GameState], tuple[Core]]:
        return (GameState._make, (self._c,))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, GameState):
            return self._c == other._c
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._c)

    def __repr__(self) -> str:
        c = self._c
        parts = [f"phase={c.phase.value}", f"dealer={c.dealer}", f"scores={c.scores}"]
        if c.contract is not None:
            parts.append(f"contract={c.contract} by seat {c.contractor}")
        if c.to_act is not None:
            parts.append(f"to_act={c.to_act}")
        return f"<GameState hand {c.hand_number}: {', '.join(parts)}>"

    # -- the game ---------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules of this game."""
        return self._c.rules

    @property
    def phase(self) -> Phase:
        """Where the game is."""
        return self._c.phase

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` while waiting for a deal or when the game is over."""
        return self._c.to_act

    @property
    def dealer(self) -> int | None:
        """The dealer of the current (or next) hand; ``None`` only before a random first deal."""
        return self._c.dealer

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's score."""
        return self._c.scores

    @property
    def hand_number(self) -> int:
        """Hands dealt so far in this game (thrown-in hands included)."""
        return self._c.hand_number

    @property
    def is_over(self) -> bool:
        """True when the game has ended (R9)."""
        return self._c.result is not None

    @property
    def result(self) -> GameResult | None:
        """The game's result once it is over."""
        return self._c.result

    @property
    def last_hand(self) -> HandResult | None:
        """The result of the most recently finished hand."""
        return self._c.last_hand

    # -- the hand ---------------------------------------------------------

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards a seat holds now, in card order."""
        return cards_from_mask(self._c.hands[seat])

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's cards, by seat."""
        return tuple(cards_from_mask(m) for m in self._c.hands)

    @property
    def kitty(self) -> tuple[Card, ...]:
        """The kitty until the contractor discards (R4.1); empty after."""
        return cards_from_mask(self._c.kitty)

    @property
    def dead_hand(self) -> tuple[Card, ...]:
        """The two-player game's dead hand (P2): dealt, never seen, never played."""
        return cards_from_mask(self._c.dead)

    @property
    def discards(self) -> tuple[Card, ...]:
        """The contractor's discards (out of play, never shown to players)."""
        return cards_from_mask(self._c.discards)

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deck order this hand was dealt from (R2.3); empty before the first deal."""
        return tuple(CARDS[i] for i in self._c.deck)

    @property
    def auction(self) -> tuple[tuple[int, Call], ...]:
        """The calls of this hand's auction as ``(seat, call)`` pairs."""
        return self._c.auction

    @property
    def high_bid(self) -> Call | None:
        """The standing (highest) bid of the auction, if any."""
        c = self._c
        return None if c.high < 0 else c.auction[c.high][1]

    @property
    def high_bidder(self) -> int | None:
        """The seat of the standing bid, if any."""
        c = self._c
        return None if c.high < 0 else c.auction[c.high][0]

    @property
    def passed(self) -> frozenset[int]:
        """Seats that have passed in this auction (R3.7)."""
        return frozenset(s for s in range(self._c.rules.players) if self._c.passed >> s & 1)

    @property
    def contract(self) -> Call | None:
        """The contract once the auction is won."""
        return self._c.contract

    @property
    def contractor(self) -> int | None:
        """The seat that won the auction."""
        return self._c.contractor

    @property
    def partner(self) -> int | None:
        """The five-player contractor's partner (P5), secret until revealed; ``None`` if alone.

        Only :func:`~fivehundred.observe` knows who may see it; this is the full state.
        """
        partner = self._c.partner
        return None if partner < 0 else partner

    @property
    def partner_card(self) -> Card | None:
        """The card the five-player contractor called (P5), if any."""
        index = self._c.partner_card
        return None if index < 0 else CARDS[index]

    @property
    def joker_suit(self) -> Suit | None:
        """The suit the Joker was nominated into (R7.1), if any."""
        return self._c.joker_suit

    @property
    def sitting_out(self) -> frozenset[int]:
        """Seats that sit this hand out: the misère contractor's partner (R4.2)."""
        out = self._c.sitting_out
        return frozenset(s for s in range(self._c.rules.players) if out >> s & 1)

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The trick in progress as ``(seat, card)`` pairs."""
        return tuple((seat, CARDS[i]) for seat, i in self._c.trick)

    @property
    def led_suit(self) -> Suit | None:
        """The led suit of the trick in progress, if a card has been led."""
        led = self._c.led
        return Suit(led) if 0 <= led < 4 else None

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks of this hand."""
        return tuple(make_trick(raw) for raw in self._c.tricks)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks each side has taken this hand."""
        c = self._c
        return tuple(sum(c.won[s] for s in seats) for seats in c.rules.sides)

    @property
    def tricks_won_by_seat(self) -> tuple[int, ...]:
        """Tricks each seat has taken this hand."""
        return self._c.won

    @property
    def suits_led(self) -> frozenset[Suit]:
        """Suits led so far this hand, suits named for Joker leads included (R7.4)."""
        return frozenset(s for s in Suit if self._c.suits_led >> s & 1)

    @property
    def exposed(self) -> bool:
        """True when the open-misère contractor's hand is face up (R6.3)."""
        c = self._c
        if c.contract is None or c.contract.kind is not CallKind.OPEN_MISERE:
            return False
        if c.tricks:
            return True
        return c.rules.open_before_lead and c.phase is Phase.PLAY

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions taken in this hand so far."""
        return self._c.actions


# Slot setters that bypass the frozen __setattr__: only the engine builds states.
_new_object = object.__new__
_set_core: Callable[[GameState, Core], None] = vars(GameState)["_c"].__set__
_set_opts: Callable[[GameState, tuple[int, int] | None], None] = vars(GameState)["_opts"].__set__
