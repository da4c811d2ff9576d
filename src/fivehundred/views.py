"""What one seat may know: :func:`observe` and :class:`PlayerView`.

``observe(state, seat)`` is the only supported way to show a game to a player
or a bot. It holds the seat's own cards, everything played or called in
public, the kitty only for the contractor while discarding, the contractor's
own discards, and the open-misère hand once it is exposed (R6.3) — and
nothing else.

>>> import fivehundred as fh
>>> state = fh.deal(fh.new_game(dealer=3), seed=7)
>>> view = fh.observe(state, 0)
>>> len(view.hand), view.hand_sizes, view.kitty
(10, (10, 10, 10, 10), None)
>>> view.legal_actions == fh.legal_actions(state)
True
"""

from __future__ import annotations

import attrs

from fivehundred._engine.state import GameState
from fivehundred._engine.values import Phase, Trick
from fivehundred.actions import Action
from fivehundred.calls import Call
from fivehundred.cards import Card, Suit
from fivehundred.errors import FiveHundredError, FiveHundredTypeError
from fivehundred.rules import Rules
from fivehundred.scoring import GameResult, HandResult

__all__ = ["PlayerView", "observe"]


@attrs.frozen
class PlayerView:
    """Everything one seat may know about a game at one moment.

    Constructing one checks nothing and raises nothing: views are made by
    :func:`~fivehundred.observe` (or read by :func:`~fivehundred.from_json`, which checks
    them).
    """

    #: The seat this view belongs to.
    seat: int
    rules: Rules
    phase: Phase
    dealer: int | None
    #: The seat to act, or ``None``.
    to_act: int | None
    #: Each side's score.
    scores: tuple[int, ...]
    hand_number: int
    #: This seat's cards, in card order.
    hand: tuple[Card, ...]
    #: How many cards each seat holds.
    hand_sizes: tuple[int, ...]
    #: The auction so far, as ``(seat, call)`` pairs.
    auction: tuple[tuple[int, Call], ...]
    #: Seats whose last call in this auction is a pass (R3.7): under V-REBID a seat
    #: that passed and bid again is not among them.
    passed: frozenset[int]
    #: V-SELF-RAISE: the high bidder is offered one raise now, everyone else having
    #: passed; it may bid higher or pass (public: the auction shows it).
    raise_offered: bool
    contract: Call | None
    contractor: int | None
    #: The kitty: only for the contractor, only while discarding (R4.1).
    kitty: tuple[Card, ...] | None
    #: The contractor's own discards, for the contractor only (R4.1).
    discards: tuple[Card, ...] | None
    #: The Joker's nominated suit (public, R7.1). Making no nomination is silent: no
    #: field says whether the contractor holds the Joker.
    joker_suit: Suit | None
    #: The card the five-player contractor called (public, P5).
    partner_card: Card | None
    #: The five-player contractor's partner, once this seat may know it (P5): when the
    #: called card has been played, when this seat holds it, or when named by seat.
    partner: int | None
    #: Seats sitting this hand out (R4.2).
    sitting_out: frozenset[int]
    #: The exposed open-misère hand once exposed (R6.3), else ``None``.
    exposed_hand: tuple[Card, ...] | None
    #: The trick in progress, as ``(seat, card)`` pairs.
    trick: tuple[tuple[int, Card], ...]
    #: The led suit of the trick in progress.
    led_suit: Suit | None
    #: Completed tricks of this hand.
    tricks: tuple[Trick, ...]
    #: Tricks taken by each side this hand.
    tricks_won: tuple[int, ...]
    #: Suits led so far this hand, Joker-lead names included (R7.4).
    suits_led: frozenset[Suit]
    last_hand: HandResult | None
    result: GameResult | None
    #: This seat's legal actions when it is to act, else empty.
    legal_actions: tuple[Action, ...]

    @property
    def my_turn(self) -> bool:
        """True when this seat is to act."""
        return self.to_act == self.seat


def observe(state: GameState, seat: int) -> PlayerView:
    """The view of ``state`` that ``seat`` may see.

    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), seed=1)
    >>> fh.observe(state, 2).hand == state.hand(2)
    True

    Raises :class:`~fivehundred.FiveHundredTypeError` for a non-state and
    :class:`~fivehundred.FiveHundredError` for a seat that is not at the table.
    """
    from fivehundred.engine import legal_actions

    if type(state) is not GameState:
        raise FiveHundredTypeError(f"a fivehundred GameState is needed, not {state!r}")
    rules = state.rules
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < rules.players:
        raise FiveHundredError(f"seat {seat!r} is not a seat: seats are 0 to {rules.players - 1}")
    contractor = state.contractor
    is_contractor = contractor == seat
    phase = state.phase
    kitty = state.kitty if is_contractor and phase is Phase.DISCARD else None
    discards = (state.discards or None) if is_contractor else None
    exposed = None
    if state.exposed and contractor is not None:
        exposed = state.hand(contractor)
    partner = state.partner
    if partner is not None and not _partner_known(state, seat):
        partner = None
    hands = state.hands
    return PlayerView(
        seat=seat,
        rules=rules,
        phase=phase,
        dealer=state.dealer,
        to_act=state.to_act,
        scores=state.scores,
        hand_number=state.hand_number,
        hand=hands[seat],
        hand_sizes=tuple(len(h) for h in hands),
        auction=state.auction,
        passed=_passed(state),
        raise_offered=_raise_offered(state),
        contract=state.contract,
        contractor=contractor,
        kitty=kitty,
        discards=discards,
        joker_suit=state.joker_suit,
        partner_card=state.partner_card,
        partner=partner,
        sitting_out=state.sitting_out,
        exposed_hand=exposed,
        trick=state.trick,
        led_suit=state.led_suit,
        tricks=state.tricks,
        tricks_won=state.tricks_won,
        suits_led=state.suits_led,
        last_hand=state.last_hand,
        result=state.result,
        legal_actions=legal_actions(state) if state.to_act == seat else (),
    )


def _passed(state: GameState) -> frozenset[int]:
    """Seats whose last call in the auction is a pass (R3.7, V-REBID)."""
    last: dict[int, Call] = dict(state.auction)
    return frozenset(seat for seat, call in last.items() if call.is_pass)


def _raise_offered(state: GameState) -> bool:
    """The V-SELF-RAISE offer: in the auction, the high bidder is to act again.

    Only the offer brings the auction back to the high bidder: otherwise the
    bidder's turn comes round only after every other seat has passed, which ends
    the auction (R3.8) or makes the offer.
    """
    bidder = state.high_bidder
    return state.phase is Phase.BIDDING and bidder is not None and state.to_act == bidder


def _partner_known(state: GameState, seat: int) -> bool:
    """Whether ``seat`` may know the five-player partner (P5)."""
    card = state.partner_card
    if card is None or seat == state.partner:
        return True  # named by seat (public), or this seat holds the called card
    played = any(c == card for trick in state.tricks for c in trick.cards)
    return played or any(c == card for _, c in state.trick)
