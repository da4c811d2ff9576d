"""Test utilities: deal chosen hands, run scripts of actions, check refusals.

Scenarios in the rule tests are written in card and call notation::

    state = in_play("7H", 0, BOWERS.hands, BOWERS.kitty)
    state = run(state, "AH", "JD", "7H", "4H")

``deck_for`` turns four hands and a kitty into the deck order that the R2.2
dealing convention deals into exactly those hands; it is written from the rule
text, not from the engine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

import pytest

import fivehundred as fh
from fivehundred.engine import AnySeat

#: The default 43-card deck (R1.1), in card order.
FULL_DECK: tuple[fh.Card, ...] = fh.Rules().deck
PLAYERS = 4
HAND_SIZE = 10
KITTY_SIZE = 3
#: Cards per player in each round of the deal, each round followed by one kitty card (R2.2).
PACKETS = (3, 4, 3)

_SUITS: dict[str, fh.Suit] = {s.letter: s for s in fh.Suit} | {s.symbol: s for s in fh.Suit}


class Deal(NamedTuple):
    """Four hands (index = seat) and a kitty, in card notation."""

    hands: tuple[str, str, str, str]
    kitty: str


# -- notation ------------------------------------------------------------------


def card(text: str) -> fh.Card:
    """One card from notation."""
    return fh.parse_card(text)


def cards(text: str) -> tuple[fh.Card, ...]:
    """Cards from notation, in the order written."""
    return fh.parse_cards(text)


def hand_of(text: str) -> tuple[fh.Card, ...]:
    """Cards from notation in card order, as ``GameState.hand`` returns them."""
    return tuple(sorted(fh.parse_cards(text)))


def suit(text: str) -> fh.Suit:
    """A suit from its letter or symbol (``"H"``, ``"♥"``)."""
    try:
        return _SUITS[text.strip().upper()]
    except KeyError:
        raise ValueError(f"{text!r} is not a suit: write S, C, D or H") from None


def call(text: str) -> fh.Call:
    """One call from notation."""
    return fh.parse_call(text)


def play(text: str) -> fh.Play:
    """A card play: ``"JD"``, or ``"Jo:H"`` for a Joker lead naming hearts."""
    if ":" in text:
        card_text, suit_text = text.split(":", 1)
        return fh.Play(fh.parse_card(card_text), suit(suit_text))
    return fh.Play(fh.parse_card(text))


def names(actions: Iterable[fh.Action]) -> list[str]:
    """Actions in notation (``str``), e.g. the legal plays ``["9D", "10D", "Jo:C"]``."""
    return [str(a) for a in actions]


def legal(state: fh.GameState) -> list[str]:
    """The legal plays of the seat to act, in notation and canonical order."""
    return names(fh.legal_plays(state))


def bids(state: fh.GameState) -> list[str]:
    """The legal calls of the seat to act, in notation and canonical order."""
    return names(fh.legal_bids(state))


def words(*lines: str) -> list[str]:
    """Split lines of whitespace-separated plays, e.g. one trick per line."""
    return [word for line in lines for word in line.split()]


# -- dealing -------------------------------------------------------------------


def deck_for(hands: Sequence[str], kitty: str, dealer: int) -> tuple[fh.Card, ...]:
    """The deck order that the R2.2 deal turns into exactly these hands and kitty.

    ``hands[seat]`` is that seat's 10 cards and ``kitty`` the 3 kitty cards, in
    notation. Dealing starts left of the dealer and goes clockwise: 3 cards to
    each player, 1 to the kitty, 4 each, 1 to the kitty, 3 each, 1 to the kitty.
    Raises ``ValueError`` unless the cards are exactly the 43-card deck.
    """
    if len(hands) != PLAYERS:
        raise ValueError(f"deck_for: give {PLAYERS} hands (one per seat), not {len(hands)}")
    if not 0 <= dealer < PLAYERS:
        raise ValueError(f"deck_for: dealer {dealer} is not a seat 0-{PLAYERS - 1}")
    parsed = [fh.parse_cards(h) for h in hands]
    kitty_cards = fh.parse_cards(kitty)
    problems: list[str] = []
    for seat, hand in enumerate(parsed):
        if len(hand) != HAND_SIZE:
            problems.append(f"seat {seat} has {len(hand)} cards, not {HAND_SIZE}")
    if len(kitty_cards) != KITTY_SIZE:
        problems.append(f"the kitty has {len(kitty_cards)} cards, not {KITTY_SIZE}")
    everything = [c for hand in parsed for c in hand] + list(kitty_cards)
    counts = Counter(everything)
    duplicated = sorted(c for c, n in counts.items() if n > 1)
    missing = sorted(set(FULL_DECK) - set(counts))
    extra = sorted(set(counts) - set(FULL_DECK))
    if duplicated:
        problems.append("duplicated: " + " ".join(map(str, duplicated)))
    if missing:
        problems.append("missing: " + " ".join(map(str, missing)))
    if extra:
        problems.append("not in the 43-card deck: " + " ".join(map(str, extra)))
    if problems:
        raise ValueError(
            "deck_for: the hands and kitty are not a permutation of the 43-card deck: "
            + "; ".join(problems)
        )
    order: list[fh.Card] = []
    taken = [0] * PLAYERS
    for packet, kitty_card in zip(PACKETS, kitty_cards, strict=True):
        for step in range(1, PLAYERS + 1):
            seat = (dealer + step) % PLAYERS
            order.extend(parsed[seat][taken[seat] : taken[seat] + packet])
            taken[seat] += packet
        order.append(kitty_card)
    assert sorted(order) == sorted(FULL_DECK)
    return tuple(order)


def deal_next(state: fh.GameState, hands: Sequence[str], kitty: str) -> fh.GameState:
    """Deal the next hand of ``state`` (phase DEAL) so that the seats get ``hands``."""
    dealer = state.dealer
    if dealer is None:
        raise ValueError("deal_next: the state has no dealer; use new_game(dealer=...)")
    return fh.deal(state, cards=deck_for(hands, kitty, dealer))


def dealt(hands: Sequence[str], kitty: str, dealer: int = 3) -> fh.GameState:
    """A new game (default rules) whose first hand deals exactly these hands and kitty."""
    return deal_next(fh.new_game(dealer=dealer), hands, kitty)


# -- acting --------------------------------------------------------------------


def action(state: fh.GameState, text: str) -> fh.Action:
    """Read one scripted action for ``state``.

    ``"discard 4D 5D 6D"``, ``"nominate H"``, ``"decline"``; during the auction a
    call (``"7H"``, ``"pass"``, ``"M"``, ``"OM"``, ``"BM"``); otherwise a card
    play (``"JD"``, ``"Jo:H"``).
    """
    words_ = text.split()
    head = words_[0].lower() if words_ else ""
    if head == "discard":
        return fh.Discard(fh.parse_cards(" ".join(words_[1:])))
    if head == "nominate":
        if len(words_) != 2:
            raise ValueError(f"write 'nominate S|C|D|H', not {text!r}")
        return fh.Nominate(suit(words_[1]))
    if head == "decline":
        return fh.DECLINE
    if state.phase is fh.Phase.BIDDING:
        return fh.parse_call(text)
    try:
        return play(text)
    except fh.NotationError:
        return fh.parse_call(text)


def run(state: fh.GameState, *actions: str | fh.Action) -> fh.GameState:
    """Apply a script of actions (notation strings or action values) in turn."""
    for step, item in enumerate(actions, 1):
        act = action(state, item) if isinstance(item, str) else item
        try:
            state = fh.apply(state, act)
        except fh.IllegalActionError as err:
            err.add_note(f"run(): step {step}, {item!r}, in {state!r}")
            raise
    return state


def auction_for(contract: str | fh.Call, contractor: int, dealer: int) -> list[fh.Call]:
    """A short auction that the contractor wins with ``contract``.

    Seats before the contractor pass, the contractor bids, the rest pass. For
    plain misère (which needs a standing seven, R3.4) another seat bids 7S first.
    """
    bid = fh.parse_call(contract) if isinstance(contract, str) else contract
    order = [(dealer + 1 + k) % PLAYERS for k in range(PLAYERS)]
    at = order.index(contractor)
    seven, six, pass_ = fh.parse_call("7S"), fh.parse_call("6S"), fh.PASS
    if bid.kind is fh.CallKind.MISERE:
        if at == 0:
            return [six, seven, pass_, pass_, bid, pass_]
        return [seven, *[pass_] * (at - 1), bid, *[pass_] * (PLAYERS - 1 - at), pass_]
    return [*[pass_] * at, bid, *[pass_] * (PLAYERS - 1 - at)]


def after_auction(
    contract: str | fh.Call, contractor: int, hands: Sequence[str], kitty: str, dealer: int = 3
) -> fh.GameState:
    """A dealt hand whose auction the contractor has won: phase DISCARD."""
    state = run(dealt(hands, kitty, dealer), *auction_for(contract, contractor, dealer))
    assert state.phase is fh.Phase.DISCARD, state
    assert state.contractor == contractor, state
    return state


def start_play(
    state: fh.GameState, *, discard: str | None = None, nominate: str = "decline"
) -> fh.GameState:
    """From phase DISCARD to phase PLAY.

    The contractor discards ``discard`` (default: the kitty cards themselves, so
    the hands stay as dealt) and, when asked (R4.3), nominates (``"nominate H"``)
    or declines.
    """
    assert state.phase is fh.Phase.DISCARD, state
    if discard is None:
        discard = " ".join(str(c) for c in state.kitty)
    state = run(state, f"discard {discard}")
    if state.phase is fh.Phase.NOMINATE:
        state = run(state, nominate)
    elif nominate != "decline":
        raise ValueError(f"start_play: {nominate!r} given, but there is no nomination phase")
    assert state.phase is fh.Phase.PLAY, state
    return state


def in_play(
    contract: str | fh.Call,
    contractor: int,
    hands: Sequence[str],
    kitty: str,
    *,
    dealer: int = 3,
    discard: str | None = None,
    nominate: str = "decline",
) -> fh.GameState:
    """A first hand in phase PLAY: ``contractor`` holds ``contract`` with these hands."""
    state = after_auction(contract, contractor, hands, kitty, dealer)
    return start_play(state, discard=discard, nominate=nominate)


def first_legal(state: fh.GameState) -> fh.Action:
    """A deterministic policy: the first legal action in canonical order."""
    return fh.legal_actions(state)[0]


def play_out(
    state: fh.GameState, choose: Callable[[fh.GameState], fh.Action] = first_legal
) -> fh.GameState:
    """Play card by card until the hand is over (phase DEAL or GAME_OVER)."""
    for _ in range(PLAYERS * HAND_SIZE):
        if state.phase is not fh.Phase.PLAY:
            return state
        state = fh.apply(state, choose(state))
    assert state.phase is not fh.Phase.PLAY, "a hand lasts at most 40 plays"
    return state


# -- checking ------------------------------------------------------------------


def assert_refused(
    state: fh.GameState,
    act: str | fh.Action,
    reason: fh.Reason,
    *,
    seat: int,
    rule: str,
    as_seat: int | AnySeat = fh.ANY_SEAT,
) -> fh.IllegalActionError:
    """Check that ``act`` is illegal for the reason given, by every public route.

    ``check_action`` and ``apply`` raise ``IllegalActionError`` with ``reason``,
    the message names ``seat`` and the rule ID ``rule``; ``is_legal`` is False;
    the state is unchanged. ``as_seat`` is passed on as the acting ``seat=``.
    """
    the_action = action(state, act) if isinstance(act, str) else act
    before = state
    with pytest.raises(fh.IllegalActionError) as checked:
        fh.check_action(state, the_action, seat=as_seat)
    err = checked.value
    message = str(err)
    assert err.reason is reason, f"reason {err.reason} (expected {reason}): {message}"
    assert f"seat {seat}" in message, f"the message does not name seat {seat}: {message}"
    assert rule in message, f"the message does not cite {rule}: {message}"
    assert not fh.is_legal(state, the_action, seat=as_seat)
    assert the_action not in fh.legal_actions(state) or as_seat is not fh.ANY_SEAT
    with pytest.raises(fh.IllegalActionError) as applied:
        fh.apply(state, the_action, seat=as_seat)
    assert applied.value.reason is reason
    assert state == before
    return err


# -- standard deals --------------------------------------------------------------

#: Bowers in hearts: seat 1 holds JD (left bower) as its only red card; seat 2 the Joker.
BOWERS = Deal(
    (
        "JH AH KH 10H 9H AS KS AC AD KD",
        "JD 5S 6S 7S 8S 9S 5C 6C 7C 8C",
        "Jo QH 8H 7H QD 10D 9D 9C 10C JC",
        "6H 5H 4H 8D 7D 6D 5D 4D QC KC",
    ),
    "10S JS QS",
)

#: Seat 1 holds the Joker and no black card; seat 3 holds JC; seat 0 is weak.
JOKER_VOID = Deal(
    (
        "5S 6S 7S 5C 6C 7C 4D 5D 6D 4H",
        "Jo AH KH QH JH 10H AD KD QD JD",
        "8S 9S 10S 8C 9C 10C 8D 7D 9H 8H",
        "AS KS QS JS AC KC QC JC 10D 9D",
    ),
    "7H 6H 5H",
)

#: Seat 0 holds the Joker and no hearts; seat 1 holds the top of every suit.
MISERE_JOKER = Deal(
    (
        "Jo 5S 6S 7S 5C 6C 7C 4D 5D 6D",
        "AH KH QH JH 10H AS KS AC KC AD",
        "8S 9S 10S 8C 9C 10C 7D 8D 9D 10D",
        "9H 8H 7H 6H 5H 4H QS JS QC JC",
    ),
    "JD QD KD",
)

#: Seat 0 holds the Joker, two low hearts and no clubs (a Joker to nominate into hearts).
NOMINATE_HEARTS = Deal(
    (
        "Jo 5S 6S 7S 8S 4D 5D 6D 4H 5H",
        "AH KH QH AD KD QD AC KC QC AS",
        "QS JS 10S 9S 8C 7C 6C 5C 8D 7D",
        "JH 10H 9H JD 10D 9D JC 10C 9C KS",
    ),
    "8H 7H 6H",
)

#: Seat 0 holds the Joker and the ace of every suit and the top hearts: it wins every trick.
JOKER_LEAD = Deal(
    (
        "Jo AS AC AD AH KH QH JH 10H 9H",
        "KS QS JS 10S 9S KC QC JC 10C 9C",
        "8S 7S 6S 5S 8C 7C 6C 5C KD QD",
        "JD 10D 9D 8D 7D 6D 5D 4D 8H 7H",
    ),
    "6H 5H 4H",
)

_STRONG_BLACK = "10S JS QS KS AS 10C JC QC KC AC"
_STRONG_RED = "Jo 9D 10D JD QD KD AD 9H 10H JH"
_WEAK_BLACK = "5S 6S 7S 8S 9S 5C 6C 7C 8C 9C"
_WEAK_RED = "4D 5D 6D 7D 8D 4H 5H 6H 7H 8H"


def sweep(strong_side: int) -> Deal:
    """A deal in which side ``strong_side`` (0: seats 0 and 2; 1: seats 1 and 3) wins every trick
    of a No Trumps or misère hand, however anyone plays.

    In each suit every card of the strong side outranks every card of the weak
    side, and the strong side holds the Joker. The kitty (QH KH AH) is meant to be
    discarded again by whoever contracts.
    """
    hands = ["", "", "", ""]
    a, b = (0, 2) if strong_side == 0 else (1, 3)
    c, d = (1, 3) if strong_side == 0 else (0, 2)
    hands[a], hands[b] = _STRONG_BLACK, _STRONG_RED
    hands[c], hands[d] = _WEAK_BLACK, _WEAK_RED
    return Deal((hands[0], hands[1], hands[2], hands[3]), "QH KH AH")
