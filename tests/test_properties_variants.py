"""Property tests over random ``Rules`` and random whole games (issue 3; RULES.md V-…, P2–P6).

``test_properties.py`` checks the default game against a full reference model;
this module plays seeded games under random rules (``rules_strategies.rules``:
every table size, every option) and checks at every step what must hold under
*any* rules:

- every card of the deck is in exactly one place (R1.1, P2–P6, V-45), and the
  deal follows R2.2 generalised (P2 dead hand, V-45 kitty);
- ``apply`` and ``deal`` never change their input;
- ``is_legal`` ⇔ listed by ``legal_actions``; illegal probes are refused by
  ``check_action`` and ``apply`` with the same reason and sentence;
- a legal action exists exactly while a seat is to act;
- the calls listed follow the ladder and its options (R3, V-NO-MISERE,
  V-MISERE-ANYTIME, V-MISERE-BY-VALUE, V-OPEN-MISERE-TOP, V-BLIND-MISERE,
  V-SANS-KITTY), the plays follow R5.3 and R7 (V-JOKER-LEAD-LAST,
  V-JOKER-NAME-ANY), the discards and the partner call offer every choice (R4.1,
  V-45, P5);
- a trick has one card from each seat that is not sitting out (R4.2, P6), in
  clockwise order, led by the right seat (R5.1, V-ELDEST-LEADS, V-ALL-PASS), and
  is won by the right card (R5.4, R7, the P6 ranks);
- every scored hand matches an independent scorer written from RULES.md (R8,
  V-NO-SLAM, V-TRICK-POINTS, V-CAP, V-ALL-PASS, P3, P5, P6), and the end of the
  game matches R9, P-END, V-DEFENCE-WINS and V-TARGET;
- ``observe`` is leak-free: the cards a seat cannot see, permuted in the deck
  before the deal, give the same view while the same actions stay legal — the
  five-player secret partner (P5) and the two-player dead hand (P2) included.

The reference functions below (``ref_*``) read only RULES.md and docs/rules.md,
never the engine's helpers. Besides the random examples, a fixed pool of games
(``pool``) runs the same checks deterministically and proves that the rare paths
(V-DEFENCE-WINS deciding a game, a P5 contractor alone, misère made, …) are
reached. ``check_variant_state`` and ``check_variant_step``
are also used by ``test_stateful_variants.py``.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final, cast

import attrs
import pytest
from hypothesis import Phase, assume, given, settings
from hypothesis import strategies as st

import fivehundred as fh
import game_checks
from game_checks import check_inputs_unchanged, hands_of, redeal_base
from rules_strategies import BOOLEAN_OPTIONS, PLAYER_COUNTS, rules, rules_from_random
from strategies import (
    NOT_ACTIONS,
    POLICIES,
    Policy,
    Step,
    examples,
    game_steps,
    malformed_actions,
    policies,
    seeds,
)

SUITS: Final = tuple(fh.Suit)
TURN_PHASES: Final = frozenset(
    {fh.Phase.BIDDING, fh.Phase.DISCARD, fh.Phase.NOMINATE, fh.Phase.PARTNER, fh.Phase.PLAY}
)
HAND_ENDS: Final = frozenset({fh.Phase.DEAL, fh.Phase.GAME_OVER})
#: A variant game stops after this many deals (a target of 1000 can take many hands).
MAX_HANDS: Final = 10
#: Every call of every ladder: all trick bids, misère, open and blind misère.
ALL_CALLS: Final = (fh.PASS, *fh.Rules().ladder.calls)
#: Cards only some decks hold: 2s and 3s (P5, P6), black 4s (V-45, P5, P6), 11s–13s (P6).
RARE_CARDS: Final = fh.parse_cards("2S 3C 4S 4C 11H 12S 13D")

# =============================================================================
# The reference model, from RULES.md and docs/rules.md only
# =============================================================================

#: R8.1, copied from the table in RULES.md; sans-kitty bids are worth the same (V-SANS-KITTY).
REF_TABLE: Final[dict[str, int]] = {
    "6S": 40, "6C": 60, "6D": 80, "6H": 100, "6NT": 120,
    "7S": 140, "7C": 160, "7D": 180, "7H": 200, "7NT": 220,
    "8S": 240, "8C": 260, "8D": 280, "8H": 300, "8NT": 320,
    "9S": 340, "9C": 360, "9D": 380, "9H": 400, "9NT": 420,
    "10S": 440, "10C": 460, "10D": 480, "10H": 500, "10NT": 520,
    "M": 250, "OM": 500, "BM": 500,
}  # fmt: skip
MISERE_NAMES: Final = frozenset({"M", "OM", "BM"})
_ALL_RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def forty_five(rules: fh.Rules) -> bool:
    """Whether the rules play the V-45 deck: by ``black_fours``, or named by its rule ID."""
    return rules.black_fours or rules.deck_id == "V-45"


def ref_deck(rules: fh.Rules) -> tuple[fh.Card, ...]:
    """R1.1, V-45, P2, P3, P5, P6: the cards of the deck, sorted."""
    return _ref_deck(rules.players, forty_five(rules))


@functools.cache
def _ref_deck(players: int, black_fours: bool) -> tuple[fh.Card, ...]:
    names: list[str] = ["Jo"]
    for suit in "SCDH":
        if players in (2, 3):
            ranks: Sequence[str] = ("7", "8", "9", "10", "J", "Q", "K", "A")
        elif players == 4:
            low = "4" if suit in "DH" or black_fours else "5"
            ranks = _ALL_RANKS[_ALL_RANKS.index(low) :]
        elif players == 5:
            ranks = _ALL_RANKS
        else:  # P6: the full 52, 11s and 12s in every suit, 13s in the red suits
            ranks = (*_ALL_RANKS, "11", "12", *(("13",) if suit in "DH" else ()))
        names += [rank + suit for rank in ranks]
    return tuple(sorted(fh.parse_card(name) for name in names))


def ref_sides(rules: fh.Rules) -> tuple[tuple[int, ...], ...]:
    """Seats 0/2 vs 1/3 (four players); P6 partners opposite, or alternate seats in threes;
    everyone alone with 2, 3 and 5 players (P2, P3, P5)."""
    players = rules.players
    if players == 4:
        return ((0, 2), (1, 3))
    if players == 6 and rules.team_size == 3:
        return ((0, 2, 4), (1, 3, 5))
    if players == 6:
        return ((0, 3), (1, 4), (2, 5))
    return tuple((seat,) for seat in range(players))


def ref_side_of(rules: fh.Rules, seat: int) -> int:
    return next(i for i, seats in enumerate(ref_sides(rules)) if seat in seats)


def ref_next(rules: fh.Rules, seat: int, skip: frozenset[int]) -> int:
    """The next seat clockwise that does not sit out (R5.1)."""
    nxt = (seat + 1) % rules.players
    while nxt in skip:
        nxt = (nxt + 1) % rules.players
    return nxt


def name_of(contract: fh.Call) -> str:
    """The notation of a contract without its sans-kitty mark."""
    return str(contract).removesuffix("-SK")


def is_misere(contract: fh.Call) -> bool:
    return name_of(contract) in MISERE_NAMES


def is_nt_family(contract: fh.Call) -> bool:
    """R1.4: No Trumps and every misère contract."""
    return is_misere(contract) or name_of(contract).endswith("NT")


def ref_sitting_out(
    rules: fh.Rules, contract: fh.Call | None, contractor: int | None
) -> frozenset[int]:
    """R4.2, P6: in misère every partner of the contractor sits out (nobody with 2, 3, 5)."""
    if contract is None or contractor is None or not is_misere(contract):
        return frozenset()
    side = ref_sides(rules)[ref_side_of(rules, contractor)]
    return frozenset(side) - {contractor}


def ref_first_leader(
    rules: fh.Rules, dealer: int, contract: fh.Call | None, contractor: int | None
) -> int:
    """R5.1 the contractor; V-ELDEST-LEADS and V-ALL-PASS: the first active seat left of the
    dealer."""
    if contractor is not None and not rules.eldest_leads:
        return contractor
    return ref_next(rules, dealer, ref_sitting_out(rules, contract, contractor))


def ref_distribute(
    rules: fh.Rules, deck: Sequence[fh.Card], dealer: int
) -> tuple[list[set[fh.Card]], set[fh.Card], set[fh.Card]]:
    """R2.2 for any table: 3 each, kitty, 4 each, kitty, 3 each, kitty, from the dealer's
    left. P2: the hands go non-dealer, dead hand, dealer. V-45: the kitty takes 2, 1, 2
    (docs/rules.md). Returns the hands, the dead hand and the kitty."""
    players = rules.players
    slots = [(dealer + step) % players for step in range(1, players + 1)]
    if players == 2:
        slots = [slots[0], -1, slots[1]]  # -1: the dead hand
    packets = (2, 1, 2) if forty_five(rules) else (1, 1, 1)
    hands: dict[int, set[fh.Card]] = {slot: set() for slot in slots}
    kitty: set[fh.Card] = set()
    cards = iter(deck)
    for size, kitty_size in zip((3, 4, 3), packets, strict=True):
        for slot in slots:
            hands[slot].update(itertools.islice(cards, size))
        kitty.update(itertools.islice(cards, kitty_size))
    assert next(cards, None) is None
    return [hands[s] for s in range(players)], hands.get(-1, set()), kitty


def ref_add_defence(old: int, points: int, cap: int | None) -> int:
    """V-CAP: ``min(old + points, cap)`` when ``old < cap``; unchanged at or above the cap."""
    if cap is None:
        return old + points
    return min(old + points, cap) if old < cap else old


@dataclass(frozen=True)
class RefHand:
    """What the reference scorer makes of a played hand."""

    changes: tuple[int, ...]
    made: bool | None
    #: The contracting sides, the contractor's first (none after an all-pass hand).
    contracting: tuple[int, ...]


def ref_score(
    rules: fh.Rules,
    *,
    before: Sequence[int],
    contract: fh.Call | None,
    contractor: int | None,
    partner: int | None,
    seat_tricks: Sequence[int],
) -> RefHand:
    """R8.2–R8.4 with V-NO-SLAM, V-TRICK-POINTS, V-CAP, V-ALL-PASS, P3, P5 and P6.

    ``seat_tricks``: tricks won by each seat. ``partner``: the five-player
    partner's seat, if any (P5: contractor and partner each gain or lose the
    value; their tricks count together).
    """
    sides = ref_sides(rules)
    side_tricks = [sum(seat_tricks[s] for s in seats) for seats in sides]
    points, cap = rules.trick_points, rules.score_cap
    if contract is None:  # V-ALL-PASS: every side scores its tricks (under the cap)
        changes = tuple(
            ref_add_defence(old, points * t, cap) - old
            for old, t in zip(before, side_tricks, strict=True)
        )
        return RefHand(changes, None, ())
    assert contractor is not None
    contracting = [ref_side_of(rules, contractor)]
    if partner is not None and ref_side_of(rules, partner) not in contracting:
        contracting.append(ref_side_of(rules, partner))
    value = REF_TABLE[name_of(contract)]
    if is_misere(contract):
        made = seat_tricks[contractor] == 0  # R6.2
        taken = 0
    else:
        taken = sum(side_tricks[s] for s in contracting)
        made = taken >= _tricks_bid(contract)  # R6.1
    if made:
        slam = taken == 10 and not is_misere(contract) and rules.slam_bonus and value < 250
        result = 250 if slam else value  # R8.2, V-NO-SLAM
    else:
        result = -value  # R8.3
    each: list[int] = []
    for side, (old, t) in enumerate(zip(before, side_tricks, strict=True)):
        if side in contracting:
            each.append(result)
        elif is_misere(contract):
            each.append(0)  # R8.4: misère defenders score nothing
        else:
            each.append(ref_add_defence(old, points * t, cap) - old)  # R8.4, V-TRICK-POINTS
    return RefHand(tuple(each), made, tuple(contracting))


def _tricks_bid(contract: fh.Call) -> int:
    name = name_of(contract)
    return int(name[:-2] if name.endswith("NT") else name[:-1])


def ref_result(
    rules: fh.Rules, hand: RefHand, scores: Sequence[int]
) -> tuple[frozenset[int], str, int | None] | None:
    """R9, P-END, V-DEFENCE-WINS, V-TARGET: (winners, outcome value, deciding side) or None.

    - a contracting side that made its contract and reached the target wins (R9.1;
      P5: contractor and partner both, when both reach it);
    - a contracting side that failed and is at or below the losing score goes out
      backwards: of the other sides, the highest wins, a tie shared (R9.2, P-END);
    - with V-DEFENCE-WINS, otherwise the highest side at or above the target wins
      (the contracting side first when it made its contract and crossed).
    """
    deciding = hand.contracting[0] if hand.contracting else None
    all_sides = range(len(scores))

    def best(among: Sequence[int]) -> frozenset[int]:
        top = max(scores[s] for s in among)
        return frozenset(s for s in among if scores[s] == top)

    if hand.made:
        winners = frozenset(s for s in hand.contracting if scores[s] >= rules.target)
        if winners:
            return winners, "contract_made", deciding
    elif hand.made is not None:
        losers = {s for s in hand.contracting if scores[s] <= rules.losing_score}
        if losers:
            return best([s for s in all_sides if s not in losers]), "out_backwards", deciding
    if rules.defence_wins:
        crossed = [s for s in all_sides if scores[s] >= rules.target]
        if crossed:
            return best(crossed), "target_reached", deciding
    return None


def ref_partner(before: fh.GameState, action: fh.CallPartner) -> int | None:
    """P5: the named seat, or the holder of the called card (nobody: the contractor is alone)."""
    if action.seat is not None:
        return action.seat
    holders = [s for s, hand in enumerate(before.hands) if action.card in hand]
    return holders[0] if holders else None


# -- the ladder and legal calls (R3, V-NO-MISERE, V-MISERE-ANYTIME, V-MISERE-BY-VALUE,
# -- V-OPEN-MISERE-TOP, V-BLIND-MISERE, V-SANS-KITTY) -----------------------------------


@functools.cache
def ref_rungs(misere: bool, by_value: bool, open_top: bool, blind: bool) -> dict[str, int]:
    """R3.3 and the ladder variants: the rung of every bid's notation (open and blind
    misère share one rung)."""
    rungs: list[list[str]] = [
        [f"{tricks}{strain}"] for tricks in range(6, 11) for strain in ("S", "C", "D", "H", "NT")
    ]
    if misere:
        top = ["OM", "BM"] if blind else ["OM"]
        if open_top:
            rungs.append(top)
        else:
            rungs.insert(rungs.index(["10H"]), top)
        at = rungs.index(["8C"]) if by_value else rungs.index(["7NT"]) + 1
        rungs.insert(at, ["M"])
    return {name: rung for rung, names in enumerate(rungs) for name in names}


def rungs_of(rules: fh.Rules) -> dict[str, int]:
    return ref_rungs(rules.misere, rules.misere_by_value, rules.open_misere_top, rules.blind_misere)


def ref_legal_calls(state: fh.GameState) -> frozenset[fh.Call]:
    """The calls of the seat to act: pass, and every bid higher than the standing bid (R3.1,
    R3.3); misère over a standing bid of seven or more (R3.4) unless V-MISERE-ANYTIME;
    blind misère only as the seat's first call (R3.6); each also sans kitty (V-SANS-KITTY)."""
    rules, seat = state.rules, state.to_act
    rungs = rungs_of(rules)
    bids = [call for _, call in state.auction if not call.is_pass]
    high = name_of(bids[-1]) if bids else None
    floor = rungs[high] if high is not None else -1
    seven = high is not None and high not in MISERE_NAMES and _tricks_bid(bids[-1]) >= 7
    first_call = all(s != seat for s, _ in state.auction)
    legal = {fh.PASS}
    for name, rung in rungs.items():
        if rung <= floor:
            continue
        if name == "M" and rules.misere_needs_seven and not seven:
            continue
        if name == "BM" and not first_call:
            continue
        call = fh.parse_call(name)
        legal.add(call)
        if rules.sans_kitty:
            legal.add(fh.Call(call.kind, call.tricks, call.strain, sans_kitty=True))
    return frozenset(legal)


# -- effective suits, legal plays and trick winners (R1.3, R1.4, R5, R7, P6, V-JOKER-…) --

_LETTERS: Final = {
    "S": fh.Suit.SPADES,
    "C": fh.Suit.CLUBS,
    "D": fh.Suit.DIAMONDS,
    "H": fh.Suit.HEARTS,
}
_SAME_COLOUR: Final = {"S": "C", "C": "S", "D": "H", "H": "D"}
#: Plain order in a suit, low to high (P6: A K Q J 13 12 11 10 … 2).
_PLAIN: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K", "A")


def ref_trump(contract: fh.Call | None) -> str | None:
    """The trump suit letter; ``None`` in No Trumps, misère and the all-pass hand (R1.4)."""
    if contract is None or is_nt_family(contract):
        return None
    return name_of(contract)[-1]


def ref_suit(card: fh.Card, trump: str | None, joker_suit: str | None) -> str | None:
    """R5.2: the effective suit letter; ``None`` for a suitless Joker."""
    text = str(card)
    if text == "Jo":
        return trump if trump is not None else joker_suit
    rank, suit = text[:-1], text[-1]
    if trump is not None and rank == "J" and suit == _SAME_COLOUR[trump]:
        return trump  # the left bower
    return suit


def ref_power(card: fh.Card, trump: str | None, joker_suit: str | None) -> int:
    """Order within an effective suit, higher wins (R1.3, R1.4, R7.1, R7.2, P6)."""
    text = str(card)
    if text == "Jo":
        return 1000 if trump is not None or joker_suit is None else 900
    rank, suit = text[:-1], text[-1]
    if trump is not None and rank == "J":
        if suit == trump:
            return 999  # right bower
        if suit == _SAME_COLOUR[trump]:
            return 998  # left bower
    return _PLAIN.index(rank)


def ref_winner(
    cards: Sequence[fh.Card], trump: str | None, joker_suit: str | None, led: str | None
) -> int:
    """R5.4, R7.2: the highest trump (a trump suit's cards, or a suitless Joker), else the
    highest card of the led suit."""

    def is_trump(card: fh.Card) -> bool:
        if trump is None:
            return card == fh.JOKER and joker_suit is None
        return ref_suit(card, trump, joker_suit) == trump

    trumps = [i for i, c in enumerate(cards) if is_trump(c)]
    eligible = trumps or [i for i, c in enumerate(cards) if ref_suit(c, trump, joker_suit) == led]
    assert eligible, f"no trump and no card of the led suit {led} in {cards}"
    return max(eligible, key=lambda i: ref_power(cards[i], trump, joker_suit))


def ref_joker_suit(state: fh.GameState) -> str | None:
    """The nominated suit, from the hand's actions (R7.1)."""
    for action in state.actions:
        if isinstance(action, fh.Nominate) and action.suit is not None:
            return action.suit.letter
    return None


def ref_led(first: fh.Play, trump: str | None, joker_suit: str | None) -> str | None:
    """The led suit of a trick: the lead's effective suit, or the suit named for a Joker
    lead (R7.4); ``None`` for a suitless Joker led to the last trick (R7.5)."""
    suit = ref_suit(first.card, trump, joker_suit)
    return suit if suit is not None else (first.suit.letter if first.suit is not None else None)


def ref_trick_leads(state: fh.GameState) -> list[fh.Play]:
    """The leading play of each trick of the hand, the trick in progress included."""
    plays = [a for a in state.actions if isinstance(a, fh.Play)]
    leads, at = [], 0
    for trick in state.tricks:
        leads.append(plays[at])
        at += len(trick.plays)
    if state.trick:
        leads.append(plays[at])
    return leads


def ref_legal_plays(state: fh.GameState) -> frozenset[fh.Play]:
    """R5.3, R7.3–R7.5, V-JOKER-LEAD-LAST (which wins over V-JOKER-NAME-ANY), V-JOKER-NAME-ANY."""
    rules, seat, contract = state.rules, state.to_act, state.contract
    assert seat is not None
    hand = state.hand(seat)
    trump, joker_suit = ref_trump(contract), ref_joker_suit(state)
    free_joker = trump is None and joker_suit is None
    plays = {fh.Play(c) for c in hand if c != fh.JOKER}
    if not state.trick:
        if fh.JOKER in hand:
            if not free_joker or len(hand) == 1:
                plays.add(fh.Play(fh.JOKER))  # a trump or nominated Joker; or the last trick
            elif rules.joker_lead_last:
                pass
            elif rules.joker_name_any:
                plays |= {fh.Play(fh.JOKER, s) for s in SUITS}
            else:
                led_before = {ref_led(p, trump, joker_suit) for p in ref_trick_leads(state)}
                plays |= {fh.Play(fh.JOKER, s) for s in SUITS if s.letter not in led_before}
        return frozenset(plays)
    plays |= {fh.Play(fh.JOKER)} if fh.JOKER in hand else set()
    led = ref_led(ref_trick_leads(state)[-1], trump, joker_suit)
    if led is None:
        return frozenset(plays)
    follow = {p for p in plays if ref_suit(p.card, trump, joker_suit) == led}
    if follow:
        return frozenset(follow)
    if free_joker and fh.JOKER in hand and contract is not None and is_misere(contract):
        return frozenset({fh.Play(fh.JOKER)})  # R7.3: the void misère player must play it
    return frozenset(plays)


# =============================================================================
# Checks of one state
# =============================================================================


def seats_of(state: fh.GameState) -> range:
    return range(state.rules.players)


def check_cards(state: fh.GameState) -> None:
    """Every card of the deck in exactly one place (R1.1, P2–P6, V-45)."""
    rules = state.rules
    cards = [c for hand in state.hands for c in hand]
    cards += [*state.dead_hand, *state.kitty, *state.discards]
    cards += [c for trick in state.tricks for c in trick.cards]
    cards += [c for _, c in state.trick]
    if state.hand_number == 0:
        assert cards == [], "cards before the first deal"
        return
    deck = ref_deck(rules)
    cards.sort()
    if cards != list(deck):
        duplicated = [c for c, n in Counter(cards).items() if n > 1]
        missing, extra = set(deck) - set(cards), set(cards) - set(deck)
        raise AssertionError(f"duplicated {duplicated}, missing {missing}, extra {extra}")
    assert tuple(sorted(rules.deck)) == deck
    assert len(state.dead_hand) == (10 if rules.players == 2 else 0)


def check_turn(state: fh.GameState) -> None:
    """A legal action exists exactly while a seat is to act; nobody sitting out acts."""
    actions = fh.legal_actions(state)
    assert bool(actions) == (state.to_act is not None), (state.phase, state.to_act)
    if state.phase in TURN_PHASES:
        assert state.to_act in seats_of(state)
        assert actions, f"no legal action in {state!r}"
        assert not state.is_over and state.result is None
        assert state.to_act not in state.sitting_out
    else:
        assert state.to_act is None and actions == ()
        assert fh.legal_bids(state) == () and fh.legal_plays(state) == ()
        assert state.is_over == (state.phase is fh.Phase.GAME_OVER)
        assert (state.result is not None) == state.is_over
    if state.phase in (fh.Phase.DISCARD, fh.Phase.NOMINATE, fh.Phase.PARTNER):
        assert state.to_act == state.contractor
    if state.phase is fh.Phase.PARTNER:
        assert state.rules.players == 5
    if state.phase is fh.Phase.BIDDING and not state.rules.rebid:
        assert state.to_act not in state.passed
    if state.last_hand is not None:
        assert state.last_hand.scores == state.scores
    assert len(state.scores) == len(ref_sides(state.rules))


def hand_dealer(state: fh.GameState) -> int:
    """The dealer of the hand in progress, or of the hand just finished (the dealer moves on
    when a hand ends, R2.1)."""
    if state.phase in HAND_ENDS and state.last_hand is not None:
        return state.last_hand.dealer
    assert state.dealer is not None
    return state.dealer


def check_tricks(state: fh.GameState) -> None:
    """R4.2, P6: each trick has a card from every seat still in the hand, clockwise; R5.1 and
    V-ELDEST-LEADS/V-ALL-PASS: the right seat leads; the tricks won add up."""
    rules = state.rules
    contract, contractor = state.contract, state.contractor
    out = state.sitting_out
    assert out == ref_sitting_out(rules, contract, contractor)
    size = rules.players - len(out)
    assert len(state.trick) < size and len(state.tricks) <= 10
    leader = None
    leads = ref_trick_leads(state)
    if state.tricks or state.trick:
        leader = ref_first_leader(rules, hand_dealer(state), contract, contractor)
    for number, trick in enumerate(state.tricks):
        seats = [seat for seat, _ in trick.plays]
        assert len(seats) == size, f"trick {number + 1} has {len(seats)} cards, not {size}"
        assert seats[0] == trick.leader == leader, f"trick {number + 1}: {leader} should lead"
        assert out.isdisjoint(seats)
        for a, b in itertools.pairwise(seats):
            assert b == ref_next(rules, a, out)
        trump, joker_suit = ref_trump(contract), ref_joker_suit(state)
        led = ref_led(leads[number], trump, joker_suit)
        assert (trick.led_suit.letter if trick.led_suit is not None else None) == led
        winner = seats[ref_winner(trick.cards, trump, joker_suit, led)]
        assert trick.winner == winner, f"trick {number + 1} {trick}: {winner} wins (R5.4)"
        leader = trick.winner
    if state.trick:
        seats = [seat for seat, _ in state.trick]
        assert seats[0] == leader and out.isdisjoint(seats)
        for a, b in itertools.pairwise(seats):
            assert b == ref_next(rules, a, out)
    if state.phase is fh.Phase.PLAY:
        expected = leader if not state.trick else ref_next(rules, state.trick[-1][0], out)
        if expected is None:  # before the first lead
            assert state.dealer is not None
            expected = ref_first_leader(rules, state.dealer, contract, contractor)
        assert state.to_act == expected
    by_seat = Counter(t.winner for t in state.tricks)
    assert state.tricks_won_by_seat == tuple(by_seat[s] for s in seats_of(state))
    assert state.tricks_won == tuple(sum(by_seat[s] for s in side) for side in ref_sides(rules))


def played_cards(state: fh.GameState | fh.PlayerView) -> set[fh.Card]:
    """The cards of the completed tricks of the hand and of the trick in progress."""
    return {c for t in state.tricks for c in t.cards} | {c for _, c in state.trick}


def visible_cards(view: fh.PlayerView) -> set[fh.Card]:
    cards = {*view.hand, *(view.kitty or ()), *(view.discards or ()), *(view.exposed_hand or ())}
    return cards | played_cards(view)


def partner_public(state: fh.GameState) -> bool:
    """P5: the partner is known to all when named by seat, or once the called card is played."""
    card = state.partner_card
    return card is None or card in played_cards(state)


def check_views(state: fh.GameState) -> None:
    """What ``observe`` shows each seat (R4.1, R6.3, V-OPEN-BEFORE-LEAD, P2, P5)."""
    contract, contractor = state.contract, state.contractor
    exposed = (
        contract is not None
        and name_of(contract) == "OM"
        and (bool(state.tricks) or (state.rules.open_before_lead and state.phase is fh.Phase.PLAY))
    )
    public_cards = played_cards(state)
    hands, tricks, dead = state.hands, state.tricks, set(state.dead_hand)
    secret_partner = not partner_public(state)
    state_public = (
        state.phase, state.to_act, state.scores, state.dealer, state.auction, state.contract,
        state.contractor, state.joker_suit, state.sitting_out, state.trick, tricks,
        state.tricks_won, state.last_hand, state.result,
    )  # fmt: skip
    for seat in seats_of(state):
        view = fh.observe(state, seat)
        assert view.seat == seat and view.hand == hands[seat]
        assert view.hand_sizes == tuple(len(h) for h in hands)
        own_kitty = seat == contractor and state.phase is fh.Phase.DISCARD
        assert view.kitty == (state.kitty if own_kitty else None)
        assert view.discards == (state.discards if seat == contractor and state.discards else None)
        if exposed:
            assert contractor is not None and view.exposed_hand == hands[contractor]
        else:
            assert view.exposed_hand is None
        allowed = {*hands[seat], *public_cards, *(view.exposed_hand or ())}
        if own_kitty:
            allowed |= set(state.kitty)
        if seat == contractor:
            allowed |= set(state.discards)
        seen = visible_cards(view)
        assert seen <= allowed, f"seat {seat} sees {seen - allowed}"
        assert seen.isdisjoint(dead)  # P2: never seen
        known = not secret_partner or seat == state.partner
        assert view.partner == (state.partner if known else None), f"seat {seat}: P5 partner"
        assert view.partner_card == state.partner_card
        assert view.legal_actions == (fh.legal_actions(state) if seat == state.to_act else ())
        public = (
            view.phase, view.to_act, view.scores, view.dealer, view.auction, view.contract,
            view.contractor, view.joker_suit, view.sitting_out, view.trick, view.tricks,
            view.tricks_won, view.last_hand, view.result,
        )  # fmt: skip
        assert public == state_public


def check_legal_actions(state: fh.GameState) -> None:
    """The calls (R3 and the ladder options) and plays (R5.3, R7, V-JOKER-…) listed are the
    reference ones; discards are every choice of kitty-size cards (R4.1, V-45); the
    partner call offers every card but the Joker and the contractor's own, or every other
    seat (P5); the nomination, the four suits and decline (R7.1)."""
    actions = fh.legal_actions(state)
    phase, rules, seat = state.phase, state.rules, state.to_act
    if phase is fh.Phase.BIDDING:
        assert actions[0] == fh.PASS and frozenset(actions) == ref_legal_calls(state)
        positions = [rungs_of(rules)[name_of(c)] for c in actions[1:] if isinstance(c, fh.Call)]
        assert positions == sorted(positions), "calls not up the ladder"
    elif phase is fh.Phase.PLAY:
        assert frozenset(actions) == ref_legal_plays(state)
    elif phase is fh.Phase.DISCARD:
        assert seat is not None
        pool = [*state.hand(seat), *state.kitty]
        assert len(pool) == 10 + rules.kitty_size
        count = math.comb(len(pool), rules.kitty_size)
        assert len(actions) == count and len(set(actions)) == count
        first = cast(fh.Discard, actions[0])
        assert len(first.cards) == rules.kitty_size and set(first.cards) <= set(pool)
    elif phase is fh.Phase.PARTNER:
        assert seat is not None
        if rules.partner_by_seat:
            expected = {fh.CallPartner(seat=s) for s in range(5) if s != seat}
        else:
            own = {*state.hand(seat), fh.JOKER}
            expected = {fh.CallPartner(c) for c in ref_deck(rules) if c not in own}
        assert set(actions) == expected
    elif phase is fh.Phase.NOMINATE:  # R7.1: without the Joker, only no nomination
        if fh.JOKER in state.hand(cast(int, state.to_act)):
            assert set(actions) == {*(fh.Nominate(s) for s in SUITS), fh.DECLINE}
        else:
            assert actions == (fh.DECLINE,)


def check_variant_state(state: fh.GameState) -> None:
    """Everything that must hold in any reachable state under any rules."""
    check_cards(state)
    check_turn(state)
    check_legal_actions(state)
    check_tricks(state)
    check_views(state)


# =============================================================================
# Checks of one step
# =============================================================================


def check_deal(step: Step) -> None:
    before, after = step.before, step.after
    rules = after.rules
    dealer = after.dealer
    assert dealer is not None
    if before.dealer is not None:
        assert dealer == before.dealer
    hands, dead, kitty = ref_distribute(rules, after.deck, dealer)
    assert [set(h) for h in after.hands] == hands  # R2.2
    assert set(after.dead_hand) == dead and set(after.kitty) == kitty  # P2, V-45
    assert len(after.kitty) == (5 if forty_five(rules) else 3)
    assert after.phase is fh.Phase.BIDDING and after.to_act == (dealer + 1) % rules.players
    assert after.scores == before.scores and after.hand_number == before.hand_number + 1
    assert fh.deal(before, seed=step.deal_seed) == after  # R2.3
    assert fh.deal(redeal_base(before, after), cards=after.deck) == after


def check_call(step: Step) -> None:
    """The end of the auction: the kitty (R4.1, V-SANS-KITTY), the misère partners sitting
    out (R4.2), a throw-in (R3.9) or the all-pass hand (V-ALL-PASS)."""
    before, after = step.before, step.after
    rules = after.rules
    assert after.auction == (*before.auction, (before.to_act, step.action))
    if after.phase is fh.Phase.BIDDING:
        return
    all_passed = all(call.is_pass for _, call in after.auction)
    if after.contract is None:
        assert all_passed
        if rules.all_pass_no_trumps:  # played at No Trumps, no kitty, eldest leads
            assert after.phase is fh.Phase.PLAY and before.dealer is not None
            assert after.to_act == (before.dealer + 1) % rules.players
            assert len(after.kitty) == rules.kitty_size
        else:
            assert after.phase in HAND_ENDS  # thrown in
        return
    assert not all_passed and after.contractor is not None
    bids = [(s, c) for s, c in after.auction if not c.is_pass]
    assert (after.contractor, after.contract) == bids[-1]  # R3.8: the highest (last) bid
    assert after.sitting_out == ref_sitting_out(rules, after.contract, after.contractor)
    if after.contract.sans_kitty:  # V-SANS-KITTY: the kitty stays unseen, out of play
        assert after.phase is not fh.Phase.DISCARD
        assert len(after.kitty) == rules.kitty_size and after.discards == ()
        check_after_exchange(after)
    else:
        assert after.phase is fh.Phase.DISCARD and after.to_act == after.contractor


def check_after_exchange(after: fh.GameState) -> None:
    """R4.3, P5, V-NO-NOMINATION: partner call, then nomination, then the first lead."""
    rules, contract, contractor = after.rules, after.contract, after.contractor
    assert contract is not None and contractor is not None and after.dealer is not None
    if rules.players == 5 and not is_misere(contract):
        assert after.phase is fh.Phase.PARTNER
    else:
        check_nomination_or_lead(after)


def check_nomination_or_lead(after: fh.GameState) -> None:
    rules, contract, contractor = after.rules, after.contract, after.contractor
    assert contract is not None and contractor is not None and after.dealer is not None
    # R4.3, R7.1: every NT-family contract passes the nomination step, Joker or not
    nominate = is_nt_family(contract) and rules.joker_nomination
    if nominate:
        assert after.phase is fh.Phase.NOMINATE and after.to_act == contractor
    else:
        assert after.phase is fh.Phase.PLAY
        assert after.to_act == ref_first_leader(rules, after.dealer, contract, contractor)


def check_discard(step: Step) -> None:
    before, after = step.before, step.after
    action = cast(fh.Discard, step.action)
    contractor = before.contractor
    assert contractor is not None
    pool = {*before.hand(contractor), *before.kitty}
    assert set(after.hand(contractor)) == pool - set(action.cards)
    assert set(after.discards) == set(action.cards) and after.kitty == ()
    assert len(action.cards) == before.rules.kitty_size and len(after.hand(contractor)) == 10
    check_after_exchange(after)


def check_partner_call(step: Step) -> None:
    before, after = step.before, step.after
    action = cast(fh.CallPartner, step.action)
    assert after.partner == ref_partner(before, action)
    assert after.partner_card == action.card
    assert after.partner != before.contractor
    check_nomination_or_lead(after)


def check_hand_end(step: Step) -> None:
    """R3.9/R8.5 for a throw-in (V-SAME-DEALER), R5.5/V-MISERE-PLAYOUT for the length of a
    hand, R8 and the V-/P- scoring options, R9/P-END/V-DEFENCE-WINS for the end (R2.1)."""
    before, after, action = step.before, step.after, step.action
    rules = after.rules
    hand = after.last_hand
    assert hand is not None
    dealer = before.dealer
    assert dealer is not None
    assert hand.number == before.hand_number and hand.dealer == dealer
    moved_on = (dealer + 1) % rules.players
    if before.phase is fh.Phase.BIDDING:  # thrown in
        assert not rules.all_pass_no_trumps
        assert all(call.is_pass for _, call in after.auction)
        assert hand.contract is None and hand.contractor is None and hand.made is None
        assert set(hand.changes) == {0} and after.scores == before.scores
        assert after.phase is fh.Phase.DEAL and after.result is None
        assert after.dealer == (dealer if rules.same_dealer else moved_on)
        return
    assert isinstance(action, fh.Play)
    contract, contractor, partner = before.contract, before.contractor, before.partner
    assert (hand.contract, hand.contractor, hand.partner) == (contract, contractor, partner)
    assert hand.all_pass == (contract is None)
    winners = [t.winner for t in after.tricks]
    assert after.tricks[:-1] == before.tricks
    if contract is not None and is_misere(contract) and not rules.misere_playout:
        # R5.5: the hand ends at the first trick the misère contractor wins
        first = winners.index(contractor) + 1 if contractor in winners else 10
        assert len(winners) == first
    else:
        assert len(winners) == 10  # V-MISERE-PLAYOUT and every other contract
    by_seat = Counter(winners)
    seat_tricks = [by_seat[s] for s in range(rules.players)]
    assert hand.tricks == tuple(sum(by_seat[s] for s in side) for side in ref_sides(rules))
    ref = ref_score(
        rules,
        before=before.scores,
        contract=contract,
        contractor=contractor,
        partner=partner,
        seat_tricks=seat_tricks,
    )
    scores = tuple(s + d for s, d in zip(before.scores, ref.changes, strict=True))
    why = f"{contract} by seat {contractor} (partner {partner}), tricks by seat {seat_tricks}"
    assert hand.made == ref.made, why
    assert hand.changes == ref.changes, f"{why}: scores before {before.scores}"
    assert hand.scores == after.scores == scores
    result = ref_result(rules, ref, scores)
    if result is None:
        assert after.phase is fh.Phase.DEAL and after.result is None, f"{why}: scores {scores}"
        assert after.dealer == moved_on  # R2.1 (an all-pass hand is played, not thrown in)
    else:
        assert after.phase is fh.Phase.GAME_OVER and after.result is not None, (
            f"{why}: scores {scores} should end the game with {result}"
        )
        winners_, outcome, deciding = result
        got = after.result
        assert len(set(got.winners)) == len(got.winners)
        assert (frozenset(got.winners), got.outcome.value, got.deciding_side) == (
            winners_,
            outcome,
            deciding,
        ), f"{why}: scores {scores}"


def check_variant_step(step: Step) -> None:
    """A deal or an action follows the rules; the input is unchanged."""
    before, after, action = step.before, step.after, step.action
    if action is None:
        check_deal(step)
        return
    assert action in fh.legal_actions(before)
    if after.phase in HAND_ENDS:
        check_hand_end(step)
        return
    assert after.actions == (*before.actions, action)
    assert after.scores == before.scores and after.last_hand == before.last_hand
    assert after.hand_number == before.hand_number and after.dealer == before.dealer
    if isinstance(action, fh.Call):
        check_call(step)
    elif isinstance(action, fh.Discard):
        check_discard(step)
    elif isinstance(action, fh.CallPartner):
        check_partner_call(step)
    elif isinstance(action, fh.Nominate):
        assert after.joker_suit == action.suit
        assert after.phase is fh.Phase.PLAY and after.dealer is not None
        assert after.to_act == ref_first_leader(
            after.rules, after.dealer, after.contract, after.contractor
        )


# =============================================================================
# Games under random rules
# =============================================================================


@dataclass(frozen=True)
class Game:
    """One seeded game: its rules, seed, policy and first dealer (``None``: drawn, R2.1)."""

    rules: fh.Rules
    seed: int
    policy: Policy
    dealer: int | None

    def steps(self, max_hands: int = MAX_HANDS) -> Iterator[Step]:
        return game_steps(
            self.seed,
            policy=self.policy,
            dealer=self.dealer,
            max_hands=max_hands,
            rules=self.rules,
        )


@st.composite
def games(
    draw: st.DrawFn,
    rules_strategy: st.SearchStrategy[fh.Rules] | None = None,
    policy: Policy | None = None,
) -> Game:
    """A random game under random rules (``rules_strategy``, default: any rules)."""
    chosen = draw(rules() if rules_strategy is None else rules_strategy)
    dealer = draw(st.none() | st.integers(min_value=0, max_value=chosen.players - 1))
    return Game(chosen, draw(seeds()), draw(policies()) if policy is None else policy, dealer)


# =============================================================================
# Properties over whole games under random rules
# =============================================================================


@settings(max_examples=examples(20), deadline=None)
@given(game=games())
def test_every_card_is_in_exactly_one_place_R1_1_P2_P6_V45(game: Game) -> None:
    start = fh.new_game(game.rules, dealer=game.dealer)
    check_cards(start)
    for step in game.steps():
        check_cards(step.after)


def snapshot(state: fh.GameState) -> tuple[object, ...]:
    """Every public property of a state, each seat's view and the legal actions."""
    public = (
        state.rules, state.phase, state.to_act, state.dealer, state.scores, state.hand_number,
        state.is_over, state.result, state.last_hand, state.hands, state.dead_hand, state.kitty,
        state.discards, state.deck, state.auction, state.high_bid, state.high_bidder,
        state.passed, state.contract, state.contractor, state.partner, state.partner_card,
        state.joker_suit, state.sitting_out, state.trick, state.led_suit, state.tricks,
        state.tricks_won, state.tricks_won_by_seat, state.suits_led, state.exposed,
        state.actions, repr(state),
    )  # fmt: skip
    views = tuple(fh.observe(state, s) for s in seats_of(state))
    return (hash(state), public, views, fh.legal_actions(state))


@settings(max_examples=examples(10), deadline=None)
@given(game=games())
def test_apply_and_deal_never_change_their_input(game: Game) -> None:
    check_inputs_unchanged(game.steps(max_hands=4), snapshot)


def probe_actions(state: fh.GameState, rng: random.Random) -> list[object]:
    """Actions to try under the state's rules: legal, illegal, of every kind, not actions."""
    rules = state.rules
    deck = rules.deck
    size = rules.kitty_size
    probes: list[object] = [fh.Play(c) for c in deck]
    probes += [fh.Play(fh.JOKER, s) for s in SUITS] + [fh.Play(c) for c in RARE_CARDS]
    probes.append(fh.Play(rng.choice(deck), rng.choice(SUITS)))
    probes += ALL_CALLS
    probes += [
        fh.Call(c.kind, c.tricks, c.strain, sans_kitty=True) for c in rng.sample(ALL_CALLS[1:], 6)
    ]
    probes += [fh.Nominate(s) for s in SUITS] + [fh.DECLINE]
    seat = state.to_act
    pool = list(deck) if seat is None else [*state.hand(seat), *state.kitty]
    if len(pool) >= size:
        probes.append(fh.Discard(rng.sample(pool, size)))
    probes += [fh.Discard(rng.sample(deck, n)) for n in (0, size - 1, size, size + 1)]
    card = rng.choice(deck)
    probes.append(fh.Discard([card, card, *rng.sample(deck, size - 2)]))
    probes += [fh.CallPartner(c) for c in rng.sample(deck, 4)] + [fh.CallPartner(fh.JOKER)]
    if seat is not None and state.hand(seat):
        probes.append(fh.CallPartner(rng.choice(state.hand(seat))))
    probes += [fh.CallPartner(seat=s) for s in {-1, 0, 1, rules.players - 1, rules.players, 6}]
    probes += [*NOT_ACTIONS, *malformed_actions()]
    return probes


def check_legality_agrees(state: fh.GameState, rng: random.Random) -> None:
    """is_legal ⇔ listed; check_action and apply agree on every refusal (reason and sentence)."""
    game_checks.check_legality_agrees(state, rng, probe_actions, most=30)


@settings(max_examples=examples(6), deadline=None)
@given(game=games())
def test_is_legal_agrees_with_legal_actions_check_action_and_apply(game: Game) -> None:
    rng = random.Random(game.seed)
    check_legality_agrees(fh.new_game(game.rules, dealer=game.dealer), rng)
    for step in game.steps(max_hands=4):
        check_legality_agrees(step.after, rng)


@settings(max_examples=examples(25), deadline=None)
@given(game=games())
def test_a_legal_action_exists_exactly_while_a_seat_is_to_act(game: Game) -> None:
    last = fh.new_game(game.rules, dealer=game.dealer)
    check_turn(last)
    for step in game.steps():
        check_turn(step.after)
        last = step.after
    if last.is_over:
        with pytest.raises(fh.IllegalActionError) as err:
            fh.deal(last, seed=0)
        assert err.value.reason is fh.Reason.GAME_OVER
    else:  # stopped after MAX_HANDS deals, waiting for the next one
        assert last.phase is fh.Phase.DEAL and last.hand_number == MAX_HANDS


@settings(max_examples=examples(25), deadline=None)
@given(game=games())
def test_each_trick_has_one_card_from_every_seat_in_the_hand_R4_2_R5_1_P6(game: Game) -> None:
    for step in game.steps():
        check_tricks(step.after)


@settings(max_examples=examples(20), deadline=None)
@given(game=games())
def test_legal_calls_and_plays_follow_R3_R5_R7_and_the_ladder_and_joker_options(
    game: Game,
) -> None:
    for step in game.steps():
        check_legal_actions(step.after)


@settings(max_examples=examples(50), deadline=None)
@given(game=games())
def test_every_transition_and_score_follows_the_rules_R8_R9_V_options_P_forms(
    game: Game,
) -> None:
    """Deals, the end of the auction, the kitty, the partner call, and every scored hand
    against the independent scorer and end-of-game reference."""
    scored = 0
    for step in game.steps():
        check_variant_step(step)
        scored += step.after.phase in HAND_ENDS and step.action is not None
    assert scored >= 1


@settings(max_examples=examples(20), deadline=None)
@given(game=games())
def test_observe_shows_a_seat_only_what_it_may_know_R4_1_R6_3_P2_P5(game: Game) -> None:
    for step in game.steps():
        check_views(step.after)


# -- hidden cards cannot change a view --------------------------------------------


def hand_contract(hand_steps: Sequence[Step]) -> tuple[fh.Call | None, int | None]:
    for step in hand_steps:
        if step.after.contractor is not None:
            return step.after.contract, step.after.contractor
    return None, None


def joker_nominated(hand_steps: Sequence[Step]) -> bool:
    """Whether the contractor named a suit for the Joker this hand (public, R7.1)."""
    return any(
        isinstance(step.action, fh.Nominate) and step.action.suit is not None for step in hand_steps
    )


def hidden_groups(
    dealt: fh.GameState,
    contract: fh.Call | None,
    contractor: int | None,
    seat: int,
    *,
    nominated: bool = False,
) -> list[list[fh.Card]]:
    """Groups of cards ``seat`` never tells apart during the hand (each permuted within itself).

    The main group: the other seats' hands, the dead hand (P2), and the kitty
    unless ``seat`` takes it (R4.1; a sans-kitty kitty is seen by nobody). The
    open-misère contractor's hand is exposed (R6.3): only which of its hand and
    kitty cards were discarded stays hidden, so those form a group of their own.
    A contractor who nominates the Joker shows that it holds it (R7.1), so with
    ``nominated`` the Joker stays put; making no nomination is silent, so otherwise
    the Joker moves like any other hidden card.
    """
    rules = dealt.rules
    sans_kitty = contract is not None and contract.sans_kitty
    main = [c for s in range(rules.players) if s != seat for c in dealt.hand(s)]
    main += dealt.dead_hand
    groups: list[list[fh.Card]] = []
    if contract is not None and name_of(contract) == "OM" and contractor != seat:
        assert contractor is not None
        exposed = dealt.hand(contractor)
        main = [c for c in main if c not in exposed]
        if sans_kitty:
            main += dealt.kitty
        else:
            groups.append([*exposed, *dealt.kitty])
    elif not (seat == contractor and not sans_kitty):
        main += dealt.kitty
    groups.insert(0, main)
    if nominated:
        groups = [[c for c in group if c != fh.JOKER] for group in groups]
    return groups


def permuted_deck(
    deck: Sequence[fh.Card], groups: Sequence[Sequence[fh.Card]], rng: random.Random
) -> list[fh.Card]:
    """``deck`` with the cards of each group shuffled among the group's positions."""
    new = list(deck)
    for group in groups:
        members = set(group)
        positions = [i for i, c in enumerate(deck) if c in members]
        cards = [deck[i] for i in positions]
        rng.shuffle(cards)
        for i, card in zip(positions, cards, strict=True):
            new[i] = card
    return new


def replay_views(
    hand_steps: Sequence[Step], deck: Sequence[fh.Card], seat: int
) -> tuple[int, fh.GameState]:
    """Deal ``deck`` and replay the hand's actions while they stay legal, comparing ``seat``'s
    view at every step. Returns the number of states compared and the last replayed state."""
    deal_step = hand_steps[0]
    other = fh.deal(redeal_base(deal_step.before, deal_step.after), cards=deck)
    assert other.hand(seat) == deal_step.after.hand(seat)
    assert fh.observe(other, seat) == fh.observe(deal_step.after, seat), f"seat {seat} at the deal"
    compared = 1
    for step in hand_steps[1:]:
        assert step.action is not None
        if not fh.is_legal(other, step.action):
            break  # the other deal could not have played this: the seat may tell them apart
        other = fh.apply(other, step.action)
        assert fh.observe(other, seat) == fh.observe(step.after, seat), (
            f"seat {seat} sees a difference after {step.action}"
        )
        compared += 1
    return compared, other


@settings(max_examples=examples(25), deadline=None)
@given(game=games(), data=st.data())
def test_hidden_cards_do_not_change_what_a_seat_sees(game: Game, data: st.DataObject) -> None:
    """observe() depends only on what the seat may know (STYLE principle 3; R4.1, R6.3, P2, P5).

    For the first hands of a game, the cards one seat cannot see for the whole hand
    (``hidden_groups``) are permuted in the deck before the deal, the same actions are
    replayed while they stay legal, and the seat's view must be equal at every step.
    """
    rng = random.Random(data.draw(seeds(), label="shuffle seed"))
    compared = 0
    for hand_steps in hands_of(list(game.steps(max_hands=4))):
        dealt = hand_steps[0].after
        contract, contractor = hand_contract(hand_steps)
        for seat in rng.sample(range(game.rules.players), min(2, game.rules.players)):
            nominated = joker_nominated(hand_steps)
            groups = hidden_groups(dealt, contract, contractor, seat, nominated=nominated)
            deck = permuted_deck(dealt.deck, groups, rng)
            compared += replay_views(hand_steps, deck, seat)[0]
    assert compared >= 1


def test_the_permutation_really_moves_hidden_cards() -> None:
    """Guard against a vacuous leak test: the permuted deal differs where the seat cannot see,
    not where it can, and another seat's view does change."""
    for players in (2, 3, 4, 5, 6):
        game = Game(fh.Rules(players=players), seed=players, policy="cautious", dealer=0)
        dealt = next(game.steps()).after
        groups = hidden_groups(dealt, None, None, 0)
        other = fh.deal(
            fh.new_game(game.rules, dealer=0),
            cards=permuted_deck(dealt.deck, groups, random.Random(1)),
        )
        assert other.hand(0) == dealt.hand(0)
        assert other.hands[1:] != dealt.hands[1:]
        assert fh.observe(other, 0) == fh.observe(dealt, 0)
        assert fh.observe(other, 1) != fh.observe(dealt, 1)
        if players == 2:
            assert set(other.dead_hand) != set(dealt.dead_hand)


@settings(max_examples=examples(15), deadline=None)
@given(game=games(rules(5, partner_by_seat=False), policy="cautious"), data=st.data())
def test_the_secret_partner_is_secret_until_the_called_card_is_played_P5(
    game: Game, data: st.DataObject
) -> None:
    """P5: before the called card is played, a seat other than the partner gets the same view
    whether the partner is one seat or another.

    For each hand where the contractor calls a card held by seat A, the deal is
    rebuilt with that card swapped into the hand of another seat B (neither the
    viewer nor the contractor). The replay reaches the partner call with B as the
    partner instead of A, and the viewer's view is identical at every step.
    """
    rng = random.Random(data.draw(seeds(), label="swap seed"))
    checked = 0
    for hand_steps in hands_of(list(game.steps(max_hands=4))):
        calls = [
            (i, s)
            for i, s in enumerate(hand_steps)
            if isinstance(s.action, fh.CallPartner) and s.after.partner is not None
        ]
        if not calls:
            continue
        index, call_step = calls[0]
        card = cast(fh.CallPartner, call_step.action).card
        holder, contractor = call_step.after.partner, call_step.before.contractor
        assert card is not None and holder is not None and contractor is not None
        dealt = hand_steps[0].after
        assert card in dealt.hand(holder)  # only the contractor's hand changed since the deal
        for viewer in range(5):
            if viewer == holder:
                continue
            other_seats = [s for s in range(5) if s not in (holder, viewer, contractor)]
            new_holder = rng.choice(other_seats)
            swap = rng.choice(dealt.hand(new_holder))
            deck = [swap if c == card else card if c == swap else c for c in dealt.deck]
            compared, _ = replay_views(hand_steps[: index + 1], deck, viewer)
            assert compared == index + 1, "the replay must reach the partner call"
            replayed = fh.deal(redeal_base(hand_steps[0].before, dealt), cards=deck)
            for step in hand_steps[1 : index + 1]:
                assert step.action is not None
                replayed = fh.apply(replayed, step.action)
            assert (call_step.after.partner, replayed.partner) == (holder, new_holder)
            assert fh.observe(replayed, viewer).partner is None
            assert fh.observe(replayed, viewer) == fh.observe(call_step.after, viewer)
            # and on through the play, until the called card (or the swapped one) is played
            replay_views(hand_steps, deck, viewer)
            checked += 1
    assume(checked > 0)
    assert checked >= 4


@settings(max_examples=examples(15), deadline=None)
@given(game=games(rules(2)), data=st.data())
def test_the_dead_hand_never_changes_what_a_seat_sees_P2(game: Game, data: st.DataObject) -> None:
    """P2: the dead hand is never seen: swapping any of its cards with cards the seat cannot
    see (the other hand, an unseen kitty) changes nothing in that seat's view."""
    rng = random.Random(data.draw(seeds(), label="swap seed"))
    swaps = 0
    for hand_steps in hands_of(list(game.steps(max_hands=4))):
        dealt = hand_steps[0].after
        contract, contractor = hand_contract(hand_steps)
        for seat in (0, 1):
            nominated = joker_nominated(hand_steps)
            movable = hidden_groups(dealt, contract, contractor, seat, nominated=nominated)[0]
            dead = [c for c in movable if c in dealt.dead_hand]
            others = [c for c in movable if c not in dealt.dead_hand]
            if not others:  # the other seat's open misère: everything else is exposed (R6.3)
                continue
            count = rng.randint(1, min(len(dead), len(others)))
            swap = dict(zip(rng.sample(dead, count), rng.sample(others, count), strict=True))
            swap |= {b: a for a, b in swap.items()}
            deck = [swap.get(c, c) for c in dealt.deck]
            compared, other = replay_views(hand_steps, deck, seat)
            assert compared >= 1
            assert set(other.dead_hand) != set(dealt.dead_hand)
            swaps += count
    assert swaps >= 1


# =============================================================================
# The strategies reach every option and every rule path
# =============================================================================


def test_the_rules_strategy_reaches_every_option_and_table() -> None:
    """Every field of ``Rules`` takes a non-default value among the examples of ``rules()``,
    and every table, team size, cap of 490 and 480, and odd trick points occur."""
    drawn: list[fh.Rules] = []

    @settings(
        max_examples=300,
        database=None,
        derandomize=True,
        deadline=None,
        phases=[Phase.generate],
    )
    @given(chosen=rules())
    def collect(chosen: fh.Rules) -> None:
        drawn.append(chosen)

    collect()
    defaults = {f.name: f.default for f in attrs.fields(fh.Rules)}
    assert set(BOOLEAN_OPTIONS) <= set(defaults)
    for name, default in defaults.items():
        if name != "team_size":
            assert any(getattr(r, name) != default for r in drawn), f"{name} is never varied"
    tables = {(r.players, r.team_size) for r in drawn}
    assert tables == {(2, 1), (3, 1), (4, 2), (5, 1), (6, 2), (6, 3)}
    assert {490, 480, None} <= {r.score_cap for r in drawn}
    assert any(r.trick_points % 2 for r in drawn) and any(r.trick_points == 0 for r in drawn)
    assert any(r.single_round for r in drawn) and any(r.self_raise and r.rebid for r in drawn)
    assert all(r.score_cap is None or r.score_cap < r.target for r in drawn)


def features_of(steps: Sequence[Step]) -> Counter[str]:
    found: Counter[str] = Counter()
    for step in steps:
        action, after = step.action, step.after
        rules = after.rules
        if isinstance(action, fh.CallPartner):
            found["partner called by seat" if action.seat is not None else "partner card"] += 1
            if action.card is not None and after.partner is None:
                found["contractor alone (P5)"] += 1
        if isinstance(action, fh.Discard) and forty_five(rules):
            found["V-45 discard of five"] += 1
        if isinstance(action, fh.Nominate):
            assert after.contractor is not None
            if fh.JOKER not in step.before.hand(after.contractor):
                found["no Joker, no nomination"] += 1  # the only choice without it (R7.1)
            else:
                found["Joker nominated" if action.suit else "Joker declined"] += 1
        if len(after.sitting_out) >= 2 and after.trick:
            found["two seats sitting out (P6)"] += 1
        if after.exposed:
            found["open misère exposed"] += 1
        if action is not None and after.phase in HAND_ENDS:
            hand = after.last_hand
            assert hand is not None
            if hand.all_pass:
                found["all-pass hand played (V-ALL-PASS)"] += 1
            elif hand.contract is None:
                found["thrown-in hand"] += 1
            else:
                found[f"{hand.contract.kind.value} made={hand.made}"] += 1
                if hand.contract.sans_kitty:
                    found["sans-kitty contract"] += 1
            if rules.score_cap is not None and rules.score_cap in hand.scores:
                found["score at the cap (V-CAP)"] += 1
            found[f"{rules.players} players, hand scored"] += 1
        if after.result is not None:
            found[f"game {after.result.outcome.value}"] += 1
    return found


@functools.cache
def pool() -> tuple[Game, ...]:
    """A fixed pool of games under random rules: every table size, both policies, and some
    option sets that reach rare paths (V-DEFENCE-WINS deciding games, misère hands)."""
    rng = random.Random(500)
    focus: list[dict[str, object]] = [
        {},
        {"defence_wins": True, "target": 100},
        {"misere_needs_seven": False, "misere_playout": False},
    ]
    games = []
    for seed in range(150):
        players = PLAYER_COUNTS[seed % len(PLAYER_COUNTS)]
        chosen = rules_from_random(rng, players, **focus[seed % len(focus)])
        dealer = seed % players if seed % 3 else None
        games.append(Game(chosen, seed, POLICIES[seed // len(PLAYER_COUNTS) % 2], dealer))
    return tuple(games)


def test_every_step_of_a_fixed_pool_of_games_follows_the_rules() -> None:
    """The checks of the properties above on the games of :func:`pool`, a deterministic
    complement to the random examples that always reaches the rare paths: every transition
    and every scored hand, and the whole state at every sixth step and at each hand's end."""
    steps = 0
    for game in pool():
        for number, step in enumerate(game.steps()):
            check_variant_step(step)
            if number % 6 == 0 or step.after.phase in HAND_ENDS:
                check_variant_state(step.after)
            steps += 1
    assert steps > 10_000


def test_the_fixed_pool_of_games_covers_every_rule_path() -> None:
    """The pool reaches every path the properties must exercise (they are not vacuous)."""
    found: Counter[str] = Counter()
    for game in pool():
        found += features_of(list(game.steps()))
    wanted = [
        "partner card",
        "partner called by seat",
        "contractor alone (P5)",
        "V-45 discard of five",
        "Joker nominated",
        "Joker declined",
        "no Joker, no nomination",
        "two seats sitting out (P6)",
        "open misère exposed",
        "all-pass hand played (V-ALL-PASS)",
        "thrown-in hand",
        "sans-kitty contract",
        "score at the cap (V-CAP)",
        "bid made=True",
        "bid made=False",
        "misere made=True",
        "misere made=False",
        "game contract_made",
        "game out_backwards",
        "game target_reached",
        *(f"{n} players, hand scored" for n in PLAYER_COUNTS),
    ]
    missing = {feature: found[feature] for feature in wanted if found[feature] < 1}
    assert not missing, f"not reached: {missing}; reached: {found}"
