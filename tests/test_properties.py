"""Property tests over random whole games (RULES.md R1–R9).

Every test plays seeded games through the public API (``strategies.game_steps``)
and checks a property at every state or every step. The expected values come
from a small reference model written from RULES.md alone — the scoring table
(R8), effective suits and card order (R1.3, R1.4, R5.2, R7), trick winners
(R5.4), legal calls (R3) and legal plays (R5.3, R7.3–R7.5), the deal (R2.2) and
the end of the game (R9) — not from the engine's own helpers.

``check_state`` and ``check_step`` are also used by ``test_stateful.py``.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Final, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fivehundred as fh
import game_checks
from game_checks import check_inputs_unchanged, hands_of, redeal_base
from strategies import (
    MALFORMED,
    NOT_ACTIONS,
    POLICIES,
    Policy,
    Step,
    any_actions,
    examples,
    game_states,
    game_steps,
    malformed_actions,
    policies,
    seeds,
    whole_games,
)

RULES: Final = fh.Rules()
DECK: Final = RULES.deck
SEATS: Final = tuple(range(RULES.players))
SUITS: Final = tuple(fh.Suit)
TURN_PHASES: Final = frozenset(
    {fh.Phase.BIDDING, fh.Phase.DISCARD, fh.Phase.NOMINATE, fh.Phase.PLAY}
)
HAND_ENDS: Final = frozenset({fh.Phase.DEAL, fh.Phase.GAME_OVER})

# =============================================================================
# The reference model, from RULES.md only
# =============================================================================

#: R8.1, copied from the table in RULES.md.
REF_TABLE: Final[dict[str, int]] = {
    "6S": 40, "6C": 60, "6D": 80, "6H": 100, "6NT": 120,
    "7S": 140, "7C": 160, "7D": 180, "7H": 200, "7NT": 220,
    "8S": 240, "8C": 260, "8D": 280, "8H": 300, "8NT": 320,
    "9S": 340, "9C": 360, "9D": 380, "9H": 400, "9NT": 420,
    "10S": 440, "10C": 460, "10D": 480, "10H": 500, "10NT": 520,
    "M": 250, "OM": 500, "BM": 500,
}  # fmt: skip
#: R3.3, low to high; "OM/BM" is one rung.
REF_LADDER: Final = (
    "6S 6C 6D 6H 6NT 7S 7C 7D 7H 7NT M 8S 8C 8D 8H 8NT 9S 9C 9D 9H 9NT 10S 10C 10D OM/BM 10H 10NT"
)
REF_RUNG: Final[dict[str, int]] = {
    name: rung for rung, names in enumerate(REF_LADDER.split()) for name in names.split("/")
}
#: Every bid, low to high, open misère before blind misère on their shared rung.
REF_BIDS: Final = tuple(fh.parse_call(name) for name in REF_RUNG)
#: Plain rank order, low to high (R1.3, R1.4): jacks between 10 and Q outside trumps.
REF_RANKS: Final = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
REF_SUIT_LETTERS: Final = {
    "S": fh.Suit.SPADES,
    "C": fh.Suit.CLUBS,
    "D": fh.Suit.DIAMONDS,
    "H": fh.Suit.HEARTS,
}
#: Same-colour suits (R1.2).
REF_SAME_COLOUR: Final = {
    fh.Suit.SPADES: fh.Suit.CLUBS,
    fh.Suit.CLUBS: fh.Suit.SPADES,
    fh.Suit.DIAMONDS: fh.Suit.HEARTS,
    fh.Suit.HEARTS: fh.Suit.DIAMONDS,
}
TARGET: Final = 500
LOSING: Final = -500


def ref_side(seat: int) -> int:
    """Seats 0 and 2 are side 0, seats 1 and 3 side 1."""
    return seat % 2


def ref_partner(seat: int) -> int:
    return (seat + 2) % 4


def printed(card: fh.Card) -> tuple[str, fh.Suit | None]:
    """The rank text and printed suit of a card, read from its notation."""
    text = str(card)
    if text == "Jo":
        return "Jo", None
    return text[:-1], REF_SUIT_LETTERS[text[-1]]


def is_misere(call: fh.Call) -> bool:
    return str(call) in ("M", "OM", "BM")


def ref_trump(contract: fh.Call) -> fh.Suit | None:
    """The trump suit of a contract; ``None`` for No Trumps and every misère (R1.4)."""
    name = str(contract)
    if is_misere(contract) or name.endswith("NT"):
        return None
    return REF_SUIT_LETTERS[name[-1]]


def ref_value(contract: fh.Call) -> int:
    return REF_TABLE[str(contract)]


def ref_suit(card: fh.Card, trump: fh.Suit | None, joker_suit: fh.Suit | None) -> fh.Suit | None:
    """The effective suit of a card (R1.3, R5.2, R7.1); ``None`` for a suitless Joker."""
    rank, suit = printed(card)
    if suit is None:
        return trump if trump is not None else joker_suit
    if trump is not None and rank == "J" and suit == REF_SAME_COLOUR[trump]:
        return trump  # the left bower
    return suit


def ref_is_trump(card: fh.Card, trump: fh.Suit | None, joker_suit: fh.Suit | None) -> bool:
    if trump is None:
        return card == fh.JOKER and joker_suit is None  # R5.4: only a free Joker in NT family
    return ref_suit(card, trump, joker_suit) == trump


def ref_power(card: fh.Card, trump: fh.Suit | None, joker_suit: fh.Suit | None) -> int:
    """Order among cards of one effective suit (or among trumps): higher wins."""
    rank, suit = printed(card)
    if suit is None:
        return 1000 if ref_is_trump(card, trump, joker_suit) else 100  # nominated: above the A
    if trump is not None and rank == "J" and suit == trump:
        return 999  # right bower
    if trump is not None and rank == "J" and suit == REF_SAME_COLOUR[trump]:
        return 998  # left bower
    return REF_RANKS.index(rank)


def ref_winner(
    cards: Sequence[fh.Card],
    trump: fh.Suit | None,
    joker_suit: fh.Suit | None,
    led: fh.Suit | None,
) -> int:
    """The position of the winning card (R5.4, R7.1, R7.2, R7.4, R7.5)."""
    trumps = [i for i, c in enumerate(cards) if ref_is_trump(c, trump, joker_suit)]
    eligible = trumps or [i for i, c in enumerate(cards) if ref_suit(c, trump, joker_suit) == led]
    assert eligible, f"no card of the led suit {led} in {cards}"
    return max(eligible, key=lambda i: ref_power(cards[i], trump, joker_suit))


def ref_joker_suit(state: fh.GameState) -> fh.Suit | None:
    """The nominated suit, read from the hand's actions (R7.1)."""
    for action in state.actions:
        if isinstance(action, fh.Nominate):
            return action.suit
    return None


def ref_trick_size(contract: fh.Call) -> int:
    return 3 if is_misere(contract) else 4  # R4.2


def ref_leads(state: fh.GameState) -> list[tuple[fh.Play, fh.Suit | None]]:
    """Each trick's leading play and led suit (R5.2, R7.4, R7.5), from the hand's actions."""
    contract = state.contract
    assert contract is not None
    trump, joker_suit = ref_trump(contract), ref_joker_suit(state)
    plays = [a for a in state.actions if isinstance(a, fh.Play)]
    leads = []
    for play in plays[:: ref_trick_size(contract)]:
        suit = ref_suit(play.card, trump, joker_suit)
        leads.append((play, play.suit if suit is None else suit))
    return leads


def ref_suits_led(state: fh.GameState) -> frozenset[fh.Suit]:
    return frozenset(led for _, led in ref_leads(state) if led is not None)


def ref_next_seat(seat: int, skip: frozenset[int]) -> int:
    nxt = (seat + 1) % 4
    while nxt in skip:
        nxt = (nxt + 1) % 4
    return nxt


def ref_sitting_out(contract: fh.Call, contractor: int) -> frozenset[int]:
    return frozenset({ref_partner(contractor)}) if is_misere(contract) else frozenset()


def ref_legal_calls(state: fh.GameState) -> tuple[fh.Call, ...]:
    """Pass, then every bid the seat to act may make, low to high (R3.1–R3.7)."""
    seat = state.to_act
    assert seat is not None
    bids = [call for _, call in state.auction if not call.is_pass]
    high = bids[-1] if bids else None
    floor = REF_RUNG[str(high)] if high is not None else -1
    first_call = all(s != seat for s, _ in state.auction)
    legal = [fh.PASS]
    for bid in REF_BIDS:
        name = str(bid)
        if REF_RUNG[name] <= floor:
            continue
        if name == "M" and not (high is not None and str(high).startswith("7")):
            continue  # R3.4: misère only over a standing seven
        if name == "BM" and not first_call:
            continue  # R3.6
        legal.append(bid)
    return tuple(legal)


def ref_legal_plays(state: fh.GameState) -> frozenset[fh.Play]:
    """The legal plays of the seat to act (R5.3, R7.3, R7.4, R7.5)."""
    seat, contract = state.to_act, state.contract
    assert seat is not None and contract is not None
    hand = state.hand(seat)
    trump, joker_suit = ref_trump(contract), ref_joker_suit(state)
    free_joker = trump is None and joker_suit is None
    if not state.trick:
        plays = {fh.Play(c) for c in hand if c != fh.JOKER}
        if fh.JOKER in hand:
            if not free_joker or len(hand) == 1:
                plays.add(fh.Play(fh.JOKER))  # a suited Joker, or the last trick (R7.5)
            else:
                unled = [s for s in SUITS if s not in ref_suits_led(state)]
                plays |= {fh.Play(fh.JOKER, s) for s in unled}  # R7.4; none left: R7.5
        return frozenset(plays)
    led = ref_leads(state)[-1][1]
    follow = [c for c in hand if led is not None and ref_suit(c, trump, joker_suit) == led]
    if follow:
        return frozenset(fh.Play(c) for c in follow)
    if free_joker and fh.JOKER in hand and is_misere(contract):
        return frozenset({fh.Play(fh.JOKER)})  # R7.3: must play the Joker in misère
    return frozenset(fh.Play(c) for c in hand)


def ref_made(contract: fh.Call, side_tricks: int) -> bool:
    if is_misere(contract):
        return side_tricks == 0  # R6.2
    name = str(contract)
    return side_tricks >= int(name[:-2] if name.endswith("NT") else name[:-1])  # R6.1


def ref_hand_changes(contract: fh.Call, side: int, side_tricks: Sequence[int]) -> tuple[int, ...]:
    """R8.2–R8.4: the contracting side's ± value (slam rule), defenders 10 a trick."""
    value = ref_value(contract)
    taken = side_tricks[side]
    if ref_made(contract, taken):
        if taken == 10 and not is_misere(contract) and value < 250:
            value = 250  # R8.2 slam
        contracting = value
    else:
        contracting = -value  # R8.3
    return tuple(
        contracting if s == side else (0 if is_misere(contract) else 10 * t)
        for s, t in enumerate(side_tricks)
    )


def ref_result(side: int, made: bool, scores: Sequence[int]) -> tuple[tuple[int, ...], str] | None:
    """R9: (winners, outcome value) or ``None`` when the game goes on."""
    if made and scores[side] >= TARGET:
        return (side,), "contract_made"
    if not made and scores[side] <= LOSING:
        return (1 - side,), "out_backwards"
    return None


def ref_distribute(deck: Sequence[fh.Card], dealer: int) -> tuple[list[set[fh.Card]], set[fh.Card]]:
    """R2.2: 3 each, 1 kitty, 4 each, 1 kitty, 3 each, 1 kitty, from the dealer's left."""
    hands: list[set[fh.Card]] = [set() for _ in SEATS]
    kitty: set[fh.Card] = set()
    cards = iter(deck)
    for packet in (3, 4, 3):
        for step in range(1, 5):
            hands[(dealer + step) % 4].update(itertools.islice(cards, packet))
        kitty.add(next(cards))
    return hands, kitty


# =============================================================================
# Checks of one state and of one step
# =============================================================================


def cards_in_play(state: fh.GameState) -> list[fh.Card]:
    """Hands, kitty, discards, completed tricks and the trick in progress."""
    cards = [c for hand in state.hands for c in hand]
    cards += [*state.kitty, *state.discards]
    cards += [c for trick in state.tricks for c in trick.cards]
    cards += [c for _, c in state.trick]
    return cards


def check_cards_accounted_for(state: fh.GameState) -> None:
    cards = cards_in_play(state)
    if state.hand_number == 0:
        assert cards == [], "cards before the first deal"
        return
    counts = Counter(cards)
    assert not [c for c, n in counts.items() if n > 1], f"duplicated cards {counts}"
    assert len(cards) == len(DECK) == 43
    assert set(cards) == set(DECK)


def public_properties(state: fh.GameState) -> tuple[object, ...]:
    """Every public property of a state (what ``apply`` must leave untouched)."""
    return (
        state.rules, state.phase, state.to_act, state.dealer, state.scores, state.hand_number,
        state.is_over, state.result, state.last_hand, state.hands, state.kitty, state.discards,
        state.deck, state.auction, state.high_bid, state.high_bidder, state.passed,
        state.contract, state.contractor, state.joker_suit, state.sitting_out, state.trick,
        state.led_suit, state.tricks, state.tricks_won, state.tricks_won_by_seat,
        state.suits_led, state.exposed, state.actions, repr(state),
    )  # fmt: skip


def snapshot(state: fh.GameState) -> tuple[object, ...]:
    return (hash(state), public_properties(state), tuple(fh.observe(state, s) for s in SEATS))


def check_turn(state: fh.GameState) -> None:
    """A legal action exists exactly while a seat is to act."""
    actions = fh.legal_actions(state)
    if state.phase in TURN_PHASES:
        assert state.to_act in SEATS
        assert actions, f"no legal action in {state!r}"
        assert not state.is_over
        assert state.to_act not in state.sitting_out
    else:
        assert state.to_act is None
        assert actions == ()
        assert fh.legal_bids(state) == () and fh.legal_plays(state) == ()
        assert state.is_over == (state.phase is fh.Phase.GAME_OVER)
        assert (state.result is not None) == state.is_over
    if state.phase is fh.Phase.BIDDING:
        assert state.to_act not in state.passed
    if state.phase in (fh.Phase.DISCARD, fh.Phase.NOMINATE):
        assert state.to_act == state.contractor
    if state.last_hand is not None:
        assert state.last_hand.scores == state.scores


def check_legal_actions(state: fh.GameState) -> None:
    """Canonical order, no duplicates, and the same set as the reference model."""
    actions = fh.legal_actions(state)
    assert len(set(actions)) == len(actions), "duplicate legal actions"
    phase = state.phase
    if phase is fh.Phase.BIDDING:
        assert actions == ref_legal_calls(state)  # pass first, then up the ladder
        assert fh.legal_bids(state) == actions and fh.legal_plays(state) == ()
    elif phase is fh.Phase.DISCARD:
        seat = state.to_act
        assert seat is not None and len(state.kitty) == 3
        pool = sorted([*state.hand(seat), *state.kitty])
        expected = [fh.Discard(combo) for combo in itertools.combinations(pool, 3)]
        assert list(actions) == expected  # every choice, in card order
        assert len(actions) == 286
    elif phase is fh.Phase.NOMINATE:  # R7.1: without the Joker, only no nomination
        if fh.JOKER in state.hand(cast(int, state.to_act)):
            assert actions == (*(fh.Nominate(s) for s in SUITS), fh.DECLINE)
        else:
            assert actions == (fh.DECLINE,)
    elif phase is fh.Phase.PLAY:
        seat = state.to_act
        assert seat is not None
        plays = [cast(fh.Play, a) for a in actions]
        assert fh.legal_plays(state) == actions and fh.legal_bids(state) == ()
        assert all(p.card in state.hand(seat) for p in plays)
        keys = [(p.card, -1 if p.suit is None else int(p.suit)) for p in plays]
        assert keys == sorted(keys), "plays not in card order"
        assert frozenset(plays) == ref_legal_plays(state)


def check_tricks(state: fh.GameState) -> None:
    """Trick sizes and counts (R4.2, R5.5), each completed trick's winner (R5.4)."""
    contract = state.contract
    assert len(state.tricks) <= 10
    if contract is None or state.phase not in (fh.Phase.PLAY, *HAND_ENDS):
        assert state.tricks == () and state.trick == ()
        return
    size = ref_trick_size(contract)
    assert len(state.trick) < size
    trump, joker_suit = ref_trump(contract), ref_joker_suit(state)
    leads = ref_leads(state)
    leader = state.contractor
    for number, trick in enumerate(state.tricks):
        assert len(trick.plays) == size
        assert trick.leader == leader == trick.plays[0][0]
        seats = [seat for seat, _ in trick.plays]
        assert state.sitting_out.isdisjoint(seats)
        for a, b in itertools.pairwise(seats):
            assert b == ref_next_seat(a, state.sitting_out)
        led = leads[number][1]
        assert trick.led_suit == led
        winner = trick.plays[ref_winner(trick.cards, trump, joker_suit, led)][0]
        assert trick.winner == winner, f"trick {number + 1} {trick}: winner should be {winner}"
        leader = winner
    if state.phase is fh.Phase.PLAY:
        expected_next = leader if not state.trick else None
        if state.trick:
            assert state.trick[0][0] == leader
            expected_next = ref_next_seat(state.trick[-1][0], state.sitting_out)
            assert state.led_suit == leads[-1][1]
        assert state.to_act == expected_next
        assert state.suits_led == ref_suits_led(state)
    won = Counter(ref_side(t.winner) for t in state.tricks)
    assert state.tricks_won == (won[0], won[1])


def check_views(state: fh.GameState) -> None:
    """What ``observe`` shows each seat, and what it hides."""
    contractor = state.contractor
    exposed = (
        state.contract is not None
        and str(state.contract) == "OM"
        and len(state.tricks) >= 1
        and contractor is not None
    )
    for seat in SEATS:
        view = fh.observe(state, seat)
        assert view.seat == seat
        assert view.hand == state.hand(seat)
        others = {c for s in SEATS if s != seat for c in state.hand(s)}
        assert others.isdisjoint(view.hand)
        assert view.hand_sizes == tuple(len(h) for h in state.hands)
        if seat == contractor and state.phase is fh.Phase.DISCARD:
            assert view.kitty == state.kitty
        else:
            assert view.kitty is None
        if seat != contractor:
            assert view.discards is None
        elif state.discards:
            assert view.discards == state.discards
        if exposed:
            assert contractor is not None
            assert view.exposed_hand == state.hand(contractor)
        else:
            assert view.exposed_hand is None
        assert view.legal_actions == (fh.legal_actions(state) if seat == state.to_act else ())
        assert view.my_turn == (seat == state.to_act)
        public = (view.phase, view.to_act, view.scores, view.dealer, view.auction, view.contract)
        assert public == (
            state.phase,
            state.to_act,
            state.scores,
            state.dealer,
            state.auction,
            state.contract,
        )
        assert (view.trick, view.tricks, view.tricks_won) == (
            state.trick,
            state.tricks,
            state.tricks_won,
        )


def check_state(state: fh.GameState) -> None:
    """Everything that must hold in any reachable state."""
    check_cards_accounted_for(state)
    check_turn(state)
    check_legal_actions(state)
    check_tricks(state)
    check_views(state)


def check_deal(step: Step) -> None:
    before, after = step.before, step.after
    dealer = after.dealer
    assert dealer is not None
    if before.dealer is not None:
        assert dealer == before.dealer  # the dealer was moved on when the last hand ended
    hands, kitty = ref_distribute(after.deck, dealer)
    assert [set(h) for h in after.hands] == hands  # R2.2
    assert set(after.kitty) == kitty
    assert after.phase is fh.Phase.BIDDING and after.to_act == (dealer + 1) % 4  # R3.1
    assert after.scores == before.scores and after.hand_number == before.hand_number + 1
    assert fh.deal(before, seed=step.deal_seed) == after  # R2.3: the seed decides the deal
    assert fh.deal(redeal_base(before, after), cards=after.deck) == after


def check_call(step: Step) -> None:
    """The auction moves on, ends with a contract, or throws the hand in (R3.1, R3.8, R3.9)."""
    before, after = step.before, step.after
    seat = before.to_act
    assert seat is not None
    passed = frozenset(s for s, c in after.auction if c.is_pass)
    bids = [(s, c) for s, c in after.auction if not c.is_pass]
    assert after.auction == (*before.auction, (seat, step.action))
    if len(passed) == 4:
        assert after.phase is fh.Phase.DEAL  # thrown in
        return
    if bids and len(passed) == 3:
        contractor, contract = bids[-1]
        assert after.phase is fh.Phase.DISCARD
        assert (after.contractor, after.contract) == (contractor, contract)
        assert after.to_act == contractor
        assert after.sitting_out == ref_sitting_out(contract, contractor)
        return
    assert after.phase is fh.Phase.BIDDING
    assert after.to_act == ref_next_seat(seat, passed)
    assert after.passed == passed
    assert after.high_bid == (bids[-1][1] if bids else None)


def check_discard(step: Step) -> None:
    """R4.1 and R4.3: the kitty exchange, then the nomination or the contractor's lead."""
    before, after = step.before, step.after
    action = cast(fh.Discard, step.action)
    contractor, contract = before.contractor, before.contract
    assert contractor is not None and contract is not None
    pool = {*before.hand(contractor), *before.kitty}
    assert set(after.hand(contractor)) == pool - set(action.cards)
    assert set(after.discards) == set(action.cards) and after.kitty == ()
    assert len(after.hand(contractor)) == 10
    # R4.3, R7.1: every NT-family contract passes the nomination step, Joker or not
    nominate = ref_trump(contract) is None
    assert after.phase is (fh.Phase.NOMINATE if nominate else fh.Phase.PLAY)
    assert after.to_act == contractor


def check_hand_end(step: Step) -> None:
    """R8 and R9 for a scored hand; R3.9 and R8.5 for a thrown-in one; R2.1 for the dealer."""
    before, after, action = step.before, step.after, step.action
    hand = after.last_hand
    assert hand is not None
    dealer = before.dealer
    assert dealer is not None
    assert hand.number == before.hand_number and hand.dealer == dealer
    if before.phase is fh.Phase.BIDDING:  # every player passed
        assert [c for _, c in after.auction] == [fh.PASS] * 4
        assert hand.contract is None and hand.contractor is None and hand.made is None
        assert hand.changes == (0, 0) and after.scores == before.scores
        assert after.phase is fh.Phase.DEAL and after.dealer == (dealer + 1) % 4
        return
    assert isinstance(action, fh.Play)
    contract, contractor = before.contract, before.contractor
    assert contract is not None and contractor is not None
    assert (hand.contract, hand.contractor) == (contract, contractor)
    trump, joker_suit = ref_trump(contract), ref_joker_suit(before)
    seat = before.to_act
    assert seat is not None
    last = [*(c for _, c in before.trick), action.card]
    seats = [*(s for s, _ in before.trick), seat]
    assert len(last) == ref_trick_size(contract), "the hand ended in the middle of a trick"
    led = ref_leads(before)[-1][1]  # the last trick was led before this action
    winners = [t.winner for t in before.tricks]
    winners.append(seats[ref_winner(last, trump, joker_suit, led)])
    side = ref_side(contractor)
    if is_misere(contract):
        # R5.5: a misère hand ends at the first trick the contractor wins, or after ten.
        first_win = winners.index(contractor) + 1 if contractor in winners else 10
        assert len(winners) == first_win
    else:
        assert len(winners) == 10
    side_tricks = (
        sum(ref_side(w) == 0 for w in winners),
        sum(ref_side(w) == 1 for w in winners),
    )
    made = ref_made(contract, side_tricks[side])
    changes = ref_hand_changes(contract, side, side_tricks)
    scores = tuple(s + d for s, d in zip(before.scores, changes, strict=True))
    assert hand.tricks == side_tricks
    assert hand.made == made
    assert hand.changes == changes, f"{contract} by side {side}, tricks {side_tricks}"
    assert hand.scores == after.scores == scores
    result = ref_result(side, made, scores)
    if result is None:
        assert after.phase is fh.Phase.DEAL and after.result is None
        assert after.dealer == (dealer + 1) % 4  # R2.1
    else:
        assert after.phase is fh.Phase.GAME_OVER and after.result is not None
        assert (after.result.winners, after.result.outcome.value) == result
        assert after.result.deciding_side == side


def check_step(step: Step) -> None:
    """A deal or an action: the transition follows the rules; the input is unchanged."""
    before, after, action = step.before, step.after, step.action
    if action is None:
        check_deal(step)
        return
    assert action in fh.legal_actions(before)
    assert after.actions == (*before.actions, action) or after.phase in HAND_ENDS
    if after.phase in HAND_ENDS:
        check_hand_end(step)
    else:
        assert after.scores == before.scores and after.last_hand == before.last_hand
        assert after.hand_number == before.hand_number and after.dealer == before.dealer
    if isinstance(action, fh.Call) and before.phase is fh.Phase.BIDDING:
        check_call(step)
    elif isinstance(action, fh.Discard):
        check_discard(step)
    elif isinstance(action, fh.Nominate):
        assert after.joker_suit == action.suit and after.phase is fh.Phase.PLAY
        assert after.to_act == before.contractor  # R4.3: the contractor leads trick 1


def game(seed: int, policy: Policy) -> Iterator[Step]:
    """The steps of one seeded game, ending in GAME_OVER (asserted)."""
    last: Step | None = None
    for step in game_steps(seed, policy=policy):
        yield step
        last = step
    assert last is not None and last.after.is_over, "the game did not end"


# =============================================================================
# Properties over whole games
# =============================================================================

GAME = settings(max_examples=examples(12), deadline=None)


@GAME
@given(seed=seeds(), policy=policies())
def test_every_card_is_accounted_for_at_every_step_R1_1(seed: int, policy: Policy) -> None:
    state = fh.new_game(dealer=seed % 4)
    check_cards_accounted_for(state)
    for step in game(seed, policy):
        check_cards_accounted_for(step.after)


@GAME
@given(seed=seeds(), policy=policies())
def test_apply_never_changes_its_input(seed: int, policy: Policy) -> None:
    check_inputs_unchanged(game(seed, policy), snapshot)


def probe_actions(state: fh.GameState, rng: random.Random) -> list[object]:
    """Actions to try: legal, illegal, of the wrong kind, and not actions at all."""
    probes: list[object] = [fh.Play(c) for c in DECK]
    probes += [fh.Play(fh.JOKER, s) for s in SUITS]
    probes.append(fh.Play(rng.choice(DECK), rng.choice(SUITS)))
    probes += [fh.PASS, *RULES.ladder.calls, fh.Call.bid(7, fh.Strain.HEARTS, sans_kitty=True)]
    probes += [fh.Nominate(s) for s in SUITS] + [fh.DECLINE]
    seat = state.to_act
    pool = list(DECK) if seat is None else [*state.hand(seat), *state.kitty]
    if len(pool) >= 3:
        probes.append(fh.Discard(rng.sample(pool, 3)))
    probes += [fh.Discard(rng.sample(DECK, n)) for n in (0, 2, 3, 4)]
    card = rng.choice(DECK)
    probes.append(fh.Discard([card, card, rng.choice(DECK)]))
    probes += [*NOT_ACTIONS, *malformed_actions()]
    return probes


def check_refused_or_accepted_alike(state: fh.GameState, action: object) -> None:
    """is_legal, check_action and apply agree; a refusal is always an IllegalActionError."""
    legal = fh.is_legal(state, action)
    try:
        fh.check_action(state, action)
    except fh.IllegalActionError as err:
        checked: fh.Reason | None = err.reason
    else:
        checked = None
    try:
        fh.apply(state, cast(fh.Action, action))
    except fh.IllegalActionError as err:
        applied: fh.Reason | None = err.reason
    else:
        applied = None
    assert (legal, checked) in ((True, None), (False, applied)), (
        f"{action!r} in {state.phase}: is_legal={legal}, check_action={checked}, apply={applied}"
    )
    assert (checked is None) == (applied is None)


def check_legality_agrees(state: fh.GameState, rng: random.Random) -> None:
    """is_legal ⇔ in legal_actions; check_action and apply raise the same error otherwise."""
    game_checks.check_legality_agrees(state, rng, probe_actions)


@settings(max_examples=examples(6), deadline=None)
@given(seed=seeds(), policy=policies())
def test_is_legal_agrees_with_legal_actions_check_action_and_apply(
    seed: int, policy: Policy
) -> None:
    rng = random.Random(seed)
    check_legality_agrees(fh.new_game(dealer=0), rng)
    for step in game(seed, policy):
        check_legality_agrees(step.after, rng)


@settings(max_examples=examples(6), deadline=None)
@given(seed=seeds(), policy=policies())
def test_malformed_actions_are_refused_with_an_illegal_action_error(
    seed: int, policy: Policy
) -> None:
    """Action classes given values of the wrong type (an untyped caller): each is refused
    when it is built (TypeError/ValueError), or else by is_legal, check_action and apply
    alike, with an IllegalActionError — never a crash, never accepted."""
    refused_at_construction = 0
    for factory in MALFORMED:
        try:
            factory()
        except (TypeError, ValueError):
            refused_at_construction += 1
    malformed = malformed_actions()
    assert refused_at_construction + len(malformed) == len(MALFORMED)
    for step in game(seed, policy):
        for action in malformed:
            check_refused_or_accepted_alike(step.after, action)
            assert not fh.is_legal(step.after, action)


@settings(max_examples=examples(4), deadline=None)
@given(seed=seeds(), policy=policies())
def test_a_seat_outside_the_table_is_refused_with_an_illegal_action_error(
    seed: int, policy: Policy
) -> None:
    """``apply(..., seat=...)`` validates a client's seat: a seat that is not at the table
    is never the seat to act, and is refused like any other wrong seat."""
    for step in game(seed, policy):
        state = step.after
        for seat in (-1, 4, 100):
            for action in (*fh.legal_actions(state)[:2], fh.PASS, fh.Play(DECK[0])):
                assert not fh.is_legal(state, action, seat=seat)
                with pytest.raises(fh.IllegalActionError) as checked:
                    fh.check_action(state, action, seat=seat)
                with pytest.raises(fh.IllegalActionError) as applied:
                    fh.apply(state, action, seat=seat)
                assert applied.value.reason is checked.value.reason


@settings(max_examples=examples(40), deadline=None)
@given(state=game_states(), action=any_actions())
def test_is_legal_never_raises_and_check_action_explains_R3_R7(
    state: fh.GameState, action: object
) -> None:
    legal = fh.is_legal(state, action)
    assert legal == (action in set(fh.legal_actions(state)))
    if legal:
        fh.check_action(state, action)
        assert fh.apply(state, cast(fh.Action, action)) != state
    else:
        with pytest.raises(fh.IllegalActionError) as checked:
            fh.check_action(state, action)
        assert isinstance(checked.value.reason, fh.Reason) and str(checked.value)
        with pytest.raises(fh.IllegalActionError) as applied:
            fh.apply(state, cast(fh.Action, action))
        assert applied.value.reason is checked.value.reason


@GAME
@given(seed=seeds(), policy=policies())
def test_a_legal_action_exists_until_the_game_is_over(seed: int, policy: Policy) -> None:
    check_turn(fh.new_game(dealer=1))
    last = fh.new_game(dealer=1)
    for step in game(seed, policy):
        check_turn(step.after)
        last = step.after
    assert last.phase is fh.Phase.GAME_OVER and fh.legal_actions(last) == ()
    with pytest.raises(fh.IllegalActionError) as err:
        fh.deal(last, seed=0)
    assert err.value.reason is fh.Reason.GAME_OVER


@GAME
@given(seed=seeds(), policy=policies())
def test_every_transition_follows_the_rules_R2_R3_R4_R8_R9(seed: int, policy: Policy) -> None:
    """Deals (R2.2), calls (R3), the kitty (R4), scoring (R8) and the end (R9)."""
    scored = 0
    for step in game(seed, policy):
        check_step(step)
        scored += step.after.phase in HAND_ENDS and step.action is not None
    assert scored >= 1


@GAME
@given(seed=seeds(), policy=policies())
def test_legal_actions_are_canonical_and_follow_R3_R5_R7(seed: int, policy: Policy) -> None:
    for step in game(seed, policy):
        check_legal_actions(step.after)
        check_tricks(step.after)


@GAME
@given(seed=seeds(), policy=policies())
def test_observe_shows_a_seat_only_what_it_may_know_R4_1_R6_3(seed: int, policy: Policy) -> None:
    for step in game(seed, policy):
        check_views(step.after)


# -- hidden cards cannot change a view --------------------------------------------


def hidden_places(
    dealt: fh.GameState, contract: fh.Call | None, contractor: int | None, seat: int
) -> list[str]:
    """The places whose cards ``seat`` never sees during this hand.

    Other seats' hands, and the kitty when ``seat`` is not the contractor. In an
    open misère the contractor's hand (kitty included) is exposed after trick 1,
    so it is not hidden from anyone. (The Joker is handled by the caller: a
    contractor who nominates it shows that it holds it, R7.1.)
    """
    places = [f"hand{s}" for s in SEATS if s != seat]
    if seat != contractor:
        places.append("kitty")
    if contract is not None and str(contract) == "OM" and contractor != seat:
        places = [p for p in places if p not in (f"hand{contractor}", "kitty")]
    return places


def place_of(dealt: fh.GameState) -> dict[fh.Card, str]:
    where = {c: f"hand{s}" for s in SEATS for c in dealt.hand(s)}
    where.update({c: "kitty" for c in dealt.kitty})
    return where


def check_hidden_cards_do_not_change_view(
    hand_steps: Sequence[Step], seat: int, rng: random.Random
) -> int:
    """Permute the cards hidden from ``seat`` in the deck, replay, compare ``seat``'s view.

    The replay stops at the first action that is illegal with the permuted
    cards (a hidden card is about to be played or discarded). Returns the
    number of steps compared.
    """
    deal_step = hand_steps[0]
    assert deal_step.action is None
    pre, dealt = deal_step.before, deal_step.after
    end = hand_steps[-1].after
    places = hidden_places(dealt, end.contract, end.contractor, seat)
    where = place_of(dealt)
    deck = list(dealt.deck)
    # R7.1: only a nomination is public (the nominating contractor holds the Joker), so
    # then the Joker stays put; making no nomination is silent, so otherwise it moves too.
    public_joker = any(
        isinstance(step.action, fh.Nominate) and step.action.suit is not None for step in hand_steps
    )
    positions = [
        i for i, c in enumerate(deck) if where[c] in places and not (public_joker and c == fh.JOKER)
    ]
    hidden = [deck[i] for i in positions]
    rng.shuffle(hidden)
    for i, card in zip(positions, hidden, strict=True):
        deck[i] = card
    other = fh.deal(redeal_base(pre, dealt), cards=deck)
    for s in SEATS:
        if f"hand{s}" not in places:
            assert other.hand(s) == dealt.hand(s)
    assert fh.observe(other, seat) == fh.observe(dealt, seat)
    compared = 1
    for step in hand_steps[1:]:
        assert step.action is not None
        if not fh.is_legal(other, step.action):
            break
        other = fh.apply(other, step.action)
        assert fh.observe(other, seat) == fh.observe(step.after, seat), (
            f"seat {seat} sees a difference after {step.action} (hidden places {places})"
        )
        compared += 1
    return compared


@settings(max_examples=examples(10), deadline=None)
@given(seed=seeds(), policy=policies(), data=st.data())
def test_hidden_cards_do_not_change_what_a_seat_sees(
    seed: int, policy: Policy, data: st.DataObject
) -> None:
    """observe() depends only on what the seat may know (STYLE principle 3; R4.1, R6.3).

    For each of the first hands of a game, the cards hidden from one seat for
    the whole hand (other hands; the kitty unless the seat is the contractor;
    not the open-misère contractor's hand; not a Joker that the contractor
    nominates, which is public by R7.1, while making no nomination is silent and
    the Joker moves then too) are permuted in
    the deck before the deal. The same actions are replayed while they stay
    legal, and that seat's view must be equal at every step.
    """
    rng = random.Random(data.draw(seeds(), label="shuffle seed"))
    compared = 0
    for hand_steps in hands_of(list(game(seed, policy)))[:4]:
        seat = data.draw(st.sampled_from(SEATS), label="seat")
        compared += check_hidden_cards_do_not_change_view(hand_steps, seat, rng)
    assert compared >= 1


def test_hidden_cards_view_check_detects_a_leak() -> None:
    """The permutation really moves hidden cards, so a leak would be seen."""
    steps = list(game_steps(3, policy="cautious"))
    dealt = steps[0].after
    rng = random.Random(0)
    deck = list(dealt.deck)
    where = place_of(dealt)
    positions = [i for i, c in enumerate(deck) if where[c] in hidden_places(dealt, None, None, 0)]
    hidden = [deck[i] for i in positions]
    rng.shuffle(hidden)
    for i, card in zip(positions, hidden, strict=True):
        deck[i] = card
    other = fh.deal(redeal_base(steps[0].before, dealt), cards=deck)
    assert other.hands[1:] != dealt.hands[1:]
    assert other.hand(0) == dealt.hand(0)
    assert fh.observe(other, 0) == fh.observe(dealt, 0)
    assert fh.observe(other, 1) != fh.observe(dealt, 1)


# -- the generated games cover the rules --------------------------------------------

COVERAGE_SEEDS: Final = range(40)


def features_of(steps: Sequence[Step]) -> Counter[str]:
    found: Counter[str] = Counter()
    for step in steps:
        action, after = step.action, step.after
        if isinstance(action, fh.Nominate) and after.contract is not None:
            strain = "NT" if ref_trump(after.contract) is None else "trumps"
            held = fh.JOKER in step.before.hand(cast(int, after.contractor))
            if not is_misere(after.contract):
                if not held:
                    found[f"{strain} no Joker, no nomination"] += 1  # the only choice (R7.1)
                else:
                    found[
                        f"{strain} Joker nominated" if action.suit else f"{strain} Joker declined"
                    ] += 1
        if isinstance(action, fh.Play) and action.suit is not None:
            found["Joker lead naming a suit"] += 1
        if action is not None and after.phase in HAND_ENDS:
            hand = after.last_hand
            assert hand is not None
            if hand.contract is None:
                found["thrown-in hand"] += 1
            else:
                found[f"{hand.contract.kind.value} contract"] += 1
                found[f"{hand.contract.kind.value} made={hand.made}"] += 1
                if str(hand.contract).endswith("NT"):
                    found["NT contract"] += 1
                if hand.changes[ref_side(cast(int, hand.contractor))] == 250 and not is_misere(
                    hand.contract
                ):
                    found["slam bonus"] += 1
        if after.result is not None:
            found[f"game {after.result.outcome.value}"] += 1
    return found


def test_generated_games_cover_every_rule_path() -> None:
    """The fixed seeds reach every path the properties must exercise."""
    found: Counter[str] = Counter()
    for policy in POLICIES:
        for seed in COVERAGE_SEEDS:
            steps = list(game(seed, policy))
            found += features_of(steps)
            assert steps[-1].after.is_over
    for feature in (
        "misere contract",
        "open_misere contract",
        "NT Joker nominated",
        "NT Joker declined",
        "NT no Joker, no nomination",
        "Joker lead naming a suit",
        "thrown-in hand",
        "game contract_made",
        "game out_backwards",
    ):
        assert found[feature] >= 2, f"{feature!r} reached {found[feature]} times: {found}"
    assert found["game contract_made"] + found["game out_backwards"] == 2 * len(COVERAGE_SEEDS)


def test_cautious_games_last_several_hands() -> None:
    lengths = [
        max(s.after.hand_number for s in game_steps(seed, policy="cautious"))
        for seed in COVERAGE_SEEDS
    ]
    assert sum(lengths) / len(lengths) >= 4, lengths


@settings(max_examples=examples(30), deadline=None)
@given(state=game_states())
def test_game_states_are_reachable_and_consistent(state: fh.GameState) -> None:
    check_state(state)
    check_legality_agrees(state, random.Random(state.hand_number))


@pytest.mark.parametrize("policy", POLICIES)
def test_whole_games_yield_every_state_from_new_game_to_game_over(policy: Policy) -> None:
    states = list(whole_games(11, policy=policy, dealer=2))
    assert states[0] == fh.new_game(dealer=2)
    assert states[-1].is_over
    assert all(not s.is_over for s in states[:-1])
    for state in states[:: max(1, len(states) // 50)]:
        check_state(state)
