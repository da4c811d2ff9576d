"""Scenario utilities for every table: any ``Rules``, any player count, any kitty size.

``dealt(rules, {0: "AH KH ...", 2: "..."}, kitty="...", dealer=3)`` deals a new
game whose seats hold exactly the cards asked for; seats (and the kitty, and the
two-player dead hand) left out are filled with the remaining cards in card
order. The deck order is built by inverting the deal of R2.2 as generalised in
RULES.md ("Other numbers of players") and V-45, and the result is checked by
dealing it::

    state = dealt(fh.Rules(players=5), {0: "AS KS QS ..."}, dealer=4)
    state = go(state, "7NT pass pass pass pass", "discard 2C 3C 4C", "partner AH")

``go`` runs a compact script: whitespace-separated calls and card plays, with
``discard c1 … ck`` (k = the kitty size), ``partner AH`` / ``partner seat 2``,
``nominate H`` and ``decline`` as multi-word actions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple, TypeAlias

import fivehundred as fh

#: The hands, given by seat (missing or ``None`` seats are filled).
Hands: TypeAlias = Mapping[int, str] | Sequence[str | None]
Policy: TypeAlias = Callable[[fh.GameState], fh.Action]

#: Cards to each hand per round of the deal, each round followed by a kitty packet (R2.2).
PACKETS = (3, 4, 3)

_SUITS: dict[str, fh.Suit] = {s.letter: s for s in fh.Suit}


class Table(NamedTuple):
    """A deal written out: the hands by seat, the kitty, and the P2 dead hand, in notation."""

    hands: tuple[str, ...]
    kitty: str
    dead: str | None = None


class Layout(NamedTuple):
    """Where every card of a deck goes: the hands by seat, the kitty, the dead hand (P2)."""

    hands: tuple[tuple[fh.Card, ...], ...]
    kitty: tuple[fh.Card, ...]
    dead: tuple[fh.Card, ...]


def cards_of(text: str | Iterable[fh.Card]) -> tuple[fh.Card, ...]:
    """Cards from notation (or cards), in card order."""
    items = fh.parse_cards(text) if isinstance(text, str) else tuple(text)
    return tuple(sorted(items))


def kitty_packets(rules: fh.Rules) -> tuple[int, int, int]:
    """Kitty cards after each round of the deal: 1, 1, 1; or 2, 1, 2 for the kitty of 5 (V-45)."""
    return (2, 1, 2) if rules.kitty_size == 5 else (1, 1, 1)


def deal_slots(rules: fh.Rules, dealer: int) -> list[int]:
    """Hands in dealing order from the dealer's left; the P2 dead hand is slot ``players``.

    With two players the dead hand is dealt between the non-dealer and the
    dealer (P2: "non-dealer, dead hand, dealer").
    """
    n = rules.players
    slots = [(dealer + step) % n for step in range(1, n + 1)]
    if rules.has_dead_hand:
        slots.insert(1, n)
    return slots


def layout(
    rules: fh.Rules,
    hands: Hands = (),
    kitty: str | None = None,
    dead: str | None = None,
) -> Layout:
    """Complete a partial layout: the unnamed hands, kitty and dead hand get the rest of the
    deck in card order (the lowest seat first, then the kitty, then the dead hand).

    Raises ``ValueError`` when a card is not in this deck, is given twice, or a
    hand, the kitty or the dead hand has the wrong number of cards.
    """
    n = rules.players
    given: dict[int, str] = {}
    if isinstance(hands, Mapping):
        given = {seat: text for seat, text in hands.items()}
    else:
        given = {seat: text for seat, text in enumerate(hands) if text is not None}
    bad_seats = sorted(s for s in given if not 0 <= s < n)
    if bad_seats:
        raise ValueError(f"layout: seats {bad_seats} are not seats 0-{n - 1}")
    if dead is not None and not rules.has_dead_hand:
        raise ValueError("layout: only the two-player game has a dead hand (P2)")
    named: dict[int | str, tuple[fh.Card, ...]] = {s: cards_of(t) for s, t in given.items()}
    if kitty is not None:
        named["kitty"] = cards_of(kitty)
    if dead is not None:
        named["dead"] = cards_of(dead)
    sizes: dict[int | str, int] = dict.fromkeys(range(n), rules.hand_size)
    sizes["kitty"] = rules.kitty_size
    if rules.has_dead_hand:
        sizes["dead"] = rules.hand_size
    problems: list[str] = []
    for place, held in named.items():
        if len(held) != sizes[place]:
            what = f"seat {place}" if isinstance(place, int) else f"the {place}"
            problems.append(f"{what} has {len(held)} cards, not {sizes[place]}")
    deck = rules.deck
    counts = Counter(card for held in named.values() for card in held)
    twice = sorted(card for card, k in counts.items() if k > 1)
    foreign = sorted(set(counts) - set(deck))
    if twice:
        problems.append("given twice: " + " ".join(map(str, twice)))
    if foreign:
        problems.append(f"not in the {len(deck)}-card deck: " + " ".join(map(str, foreign)))
    if problems:
        raise ValueError("layout: " + "; ".join(problems))
    rest = [card for card in deck if card not in counts]
    for place, size in sizes.items():
        if place not in named:
            named[place] = tuple(rest[:size])
            del rest[:size]
    assert not rest, rest
    return Layout(
        hands=tuple(named[seat] for seat in range(n)),
        kitty=named["kitty"],
        dead=named.get("dead", ()),
    )


def deck_order(rules: fh.Rules, where: Layout, dealer: int) -> tuple[fh.Card, ...]:
    """The deck order (top card first) that the deal turns into exactly ``where``.

    From the dealer's left: 3 cards to each hand, a kitty packet, 4 to each, a
    kitty packet, 3 to each, a kitty packet (packets 1, 1, 1; 2, 1, 2 with V-45).
    """
    if not 0 <= dealer < rules.players:
        raise ValueError(f"deck_order: dealer {dealer} is not a seat 0-{rules.players - 1}")
    piles: dict[int, tuple[fh.Card, ...]] = dict(enumerate(where.hands))
    piles[rules.players] = where.dead
    taken = dict.fromkeys(piles, 0)
    kitty_taken = 0
    order: list[fh.Card] = []
    for packet, kitty_packet in zip(PACKETS, kitty_packets(rules), strict=True):
        for slot in deal_slots(rules, dealer):
            order.extend(piles[slot][taken[slot] : taken[slot] + packet])
            taken[slot] += packet
        order.extend(where.kitty[kitty_taken : kitty_taken + kitty_packet])
        kitty_taken += kitty_packet
    if sorted(order) != sorted(rules.deck):
        raise ValueError("deck_order: the layout is not the whole deck")
    return tuple(order)


def deal_layout(state: fh.GameState, where: Layout) -> fh.GameState:
    """Deal the next hand of ``state`` as ``where`` says, and check that it did."""
    rules = state.rules
    dealer = state.dealer
    if dealer is None:
        raise ValueError("deal_layout: the game has no dealer; use new_game(dealer=...)")
    state = fh.deal(state, cards=deck_order(rules, where, dealer))
    assert state.hands == where.hands, (state.hands, where.hands)
    assert state.kitty == where.kitty, (state.kitty, where.kitty)
    assert state.dead_hand == where.dead, (state.dead_hand, where.dead)
    return state


def deal_next(
    state: fh.GameState,
    hands: Hands = (),
    kitty: str | None = None,
    dead: str | None = None,
) -> fh.GameState:
    """Deal the next hand of ``state`` so that the named seats hold the named cards."""
    return deal_layout(state, layout(state.rules, hands, kitty, dead))


def deal_table(rules: fh.Rules, table: Table, *, dealer: int) -> fh.GameState:
    """A new game under ``rules`` whose first hand deals ``table``."""
    return dealt(rules, table.hands, table.kitty, table.dead, dealer=dealer)


def dealt(
    rules: fh.Rules,
    hands: Hands = (),
    kitty: str | None = None,
    dead: str | None = None,
    *,
    dealer: int,
) -> fh.GameState:
    """A new game under ``rules`` whose first hand deals these cards (the rest filled in)."""
    return deal_next(fh.new_game(rules, dealer=dealer), hands, kitty, dead)


# -- actions -------------------------------------------------------------------------


def call(text: str) -> fh.Call:
    """One call from notation (``"7H"``, ``"7H-SK"``, ``"M"``, ``"pass"``)."""
    return fh.parse_call(text)


def play(text: str) -> fh.Play:
    """A card play: ``"JD"``, or ``"Jo:H"`` for a Joker lead naming hearts."""
    if ":" in text:
        card_text, suit_text = text.split(":", 1)
        return fh.Play(fh.parse_card(card_text), _SUITS[suit_text.upper()])
    return fh.Play(fh.parse_card(text))


def names(actions: Iterable[fh.Action]) -> list[str]:
    """Actions in notation."""
    return [str(a) for a in actions]


def bids(state: fh.GameState) -> list[str]:
    """The legal calls of the seat to act, in notation."""
    return names(fh.legal_bids(state))


def plays(state: fh.GameState) -> list[str]:
    """The legal plays of the seat to act, in notation."""
    return names(fh.legal_plays(state))


def _read(state: fh.GameState, words: list[str]) -> fh.Action:
    """Take one action off the front of ``words`` (which it consumes)."""
    head = words.pop(0)
    low = head.lower()
    if low == "discard":
        size = state.rules.kitty_size
        taken, words[:size] = words[:size], []
        return fh.Discard(fh.parse_cards(" ".join(taken)))
    if low == "partner":
        what = words.pop(0)
        if what.lower() == "seat":
            return fh.CallPartner(seat=int(words.pop(0)))
        return fh.CallPartner(fh.parse_card(what))
    if low == "nominate":
        return fh.Nominate(_SUITS[words.pop(0).upper()])
    if low == "decline":
        return fh.DECLINE
    if state.phase is fh.Phase.BIDDING:
        return fh.parse_call(head)
    return play(head)


def go(state: fh.GameState, *script: str | fh.Action) -> fh.GameState:
    """Apply a script of actions in turn.

    Each string holds one or more whitespace-separated actions (``|`` may
    separate tricks for the reader and is ignored); action values are applied as
    they are. A refused action gets a note naming its step.
    """
    step = 0
    for item in script:
        if not isinstance(item, str):
            step += 1
            state = _apply(state, item, step, repr(item))
            continue
        words = [w for w in item.split() if w != "|"]
        while words:
            step += 1
            text = " ".join(words[:6])
            state = _apply(state, _read(state, words), step, text)
    return state


def _apply(state: fh.GameState, action: fh.Action, step: int, text: str) -> fh.GameState:
    try:
        return fh.apply(state, action)
    except fh.IllegalActionError as err:
        err.add_note(f"go(): step {step} ({text} ...) in {state!r}")
        raise


def first_legal(state: fh.GameState) -> fh.Action:
    """A deterministic policy: the first legal action in canonical order."""
    return fh.legal_actions(state)[0]


def finish(state: fh.GameState, policy: Policy = first_legal) -> fh.GameState:
    """Play card by card until the hand is over (phase DEAL or GAME_OVER)."""
    limit = state.rules.players * state.rules.hand_size
    for _ in range(limit):
        if state.phase is not fh.Phase.PLAY:
            return state
        state = fh.apply(state, policy(state))
    assert state.phase is not fh.Phase.PLAY, "a hand lasts at most ten tricks"
    return state


def scripted(plays_by_seat: Mapping[int, str], otherwise: Policy = first_legal) -> Policy:
    """A policy: each named seat plays its cards in the order written, the others ``otherwise``.

    ``{0: "AS AC Jo"}`` makes seat 0 play AS, then AC, then the Joker (a Joker
    lead without a named suit is given the first suit the rules allow).
    """
    queues = {seat: text.split() for seat, text in plays_by_seat.items()}

    def policy(state: fh.GameState) -> fh.Action:
        seat = state.to_act
        queue = queues.get(seat) if seat is not None else None
        if not queue:
            return otherwise(state)
        wanted = play(queue.pop(0))
        if wanted.card.is_joker and wanted.suit is None:
            jokers = [p for p in fh.legal_plays(state) if p.card.is_joker]
            if jokers:
                return jokers[0]
        return wanted

    return policy


# -- auctions --------------------------------------------------------------------------


def auction(
    rules: fh.Rules, dealer: int, contractor: int, contract: str | fh.Call
) -> list[fh.Call]:
    """A short auction under the continuous rules that ``contractor`` wins with ``contract``.

    Seats before the contractor pass, the contractor bids, the rest pass. A plain
    misère that needs a standing seven (R3.4) is bid over a 7S of another seat.
    """
    bid = fh.parse_call(contract) if isinstance(contract, str) else contract
    n = rules.players
    order = [(dealer + 1 + k) % n for k in range(n)]
    at = order.index(contractor)
    pass_ = fh.PASS
    if bid.kind is fh.CallKind.MISERE and rules.misere_needs_seven:
        six, seven = fh.parse_call("6S"), fh.parse_call("7S")
        if at == 0:
            return [six, seven, *[pass_] * (n - 2), bid, pass_]
        return [seven, *[pass_] * (at - 1), bid, *[pass_] * (n - 1 - at), pass_]
    return [*[pass_] * at, bid, *[pass_] * (n - 1 - at)]


def won(state: fh.GameState, contractor: int, contract: str | fh.Call) -> fh.GameState:
    """Run ``auction(...)`` on a freshly dealt state and check the contractor won it."""
    assert state.dealer is not None
    bid = fh.parse_call(contract) if isinstance(contract, str) else contract
    state = go(state, *auction(state.rules, state.dealer, contractor, bid))
    assert state.contractor == contractor and state.contract == bid, state
    return state


def to_play(
    state: fh.GameState,
    *,
    discard: str | None = None,
    partner: str | None = None,
    nominate: str = "decline",
) -> fh.GameState:
    """From the kitty exchange to the first lead.

    The contractor discards ``discard`` (default: the kitty itself, so the hands
    stay as dealt); with five players calls ``partner`` (``"AH"`` or ``"seat 2"``;
    required then); and when asked nominates (``"nominate H"``) or declines.
    """
    if state.phase is fh.Phase.DISCARD:
        if discard is None:
            discard = " ".join(str(c) for c in state.kitty)
        state = go(state, f"discard {discard}")
    if state.phase is fh.Phase.PARTNER:
        if partner is None:
            raise ValueError("to_play: the five-player contractor must call a partner")
        state = go(state, f"partner {partner}")
    if state.phase is fh.Phase.NOMINATE:
        state = go(state, nominate)
    assert state.phase is fh.Phase.PLAY, state
    return state


def card_leaks(view: fh.PlayerView, hidden: Iterable[fh.Card]) -> list[fh.Card]:
    """The ``hidden`` cards that appear anywhere in a view (compared by their repr)."""
    text = repr(view)
    return [card for card in hidden if repr(card) in text]
