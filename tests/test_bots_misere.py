"""Misère defence: each position has one card a good defender plays.

Open misère (R6.3) positions expose the misère hand before the first lead
(V-OPEN-BEFORE-LEAD) and let the eldest lead (V-ELDEST-LEADS), so the defence's
first card is the position. Seat 1 is the misère player; its partner, seat 3,
sits out (R4.2).
"""

from __future__ import annotations

import random

import pytest

import fivehundred as fh
from fivehundred.bots import HeuristicPlayer, SearchPlayer
from fivehundred.bots._misere import SOLVE_TRICKS, defends_misere, misere_defence
from fivehundred.bots.pimc import PIMCPlayer
from helpers import auction_for, deal_next, run, start_play

OPEN_FIRST = fh.Rules(open_before_lead=True, eldest_leads=True)

#: Seat 1's only danger is its lone 6♦; seat 2 holds no diamond. Seat 0 forces it by
#: leading 4♦ (seat 1 must win with 6♦). Leading the Joker naming diamonds lets 6♦ go
#: under it and the misère is made; every high diamond lets it duck.
LONE_DIAMOND = (
    "4D 10D QD KD AD Jo 8S 9S 8C 9C",
    "6D 5S 6S 7S 5C 6C 7C 4H 5H 6H",
    "10S JS QS KS AS 10C JC QC KC AC",
    "5D 7D 8D 9D JD 7H 8H 9H 10H JH",
)
LONE_DIAMOND_KITTY = "QH KH AH"

#: Seat 1 holds no club. Seat 2 leads one; seat 0 plays before seat 1.
NO_CLUBS = (
    "AC 6C 9C JS QS KS AS 7D KD QD",
    "5S 6S 7S 4D 5D 6D 4H 5H 6H 7H",
    "5C 7C 8C 8S 9S 10S AD 8D 8H 9H",
    "10C JC QC KC 9D 10D JD 10H JH QH",
)
NO_CLUBS_KITTY = "KH AH Jo"


def players() -> list[fh.bots.Player]:
    return [
        HeuristicPlayer(random.Random(1)),
        SearchPlayer(random.Random(1), samples=8),
        PIMCPlayer(random.Random(1), samples=4, playouts=8),
    ]


def misere_hand(
    contract: str, hands: tuple[str, ...], kitty: str, dealer: int, rules: fh.Rules
) -> fh.GameState:
    state = deal_next(fh.new_game(rules, dealer=dealer), hands, kitty)
    return start_play(run(state, *auction_for(contract, 1, dealer)))


def test_open_misere_lead_under_the_lone_card_and_not_the_joker_R6_3_R7_4() -> None:
    state = misere_hand("OM", LONE_DIAMOND, LONE_DIAMOND_KITTY, 3, OPEN_FIRST)
    view = fh.observe(state, 0)
    assert view.my_turn and view.exposed_hand is not None
    for player in players():
        assert player.choose(view) == fh.Play(fh.parse_card("4D")), type(player).__name__


@pytest.mark.parametrize("contract", ["OM", "M"])
def test_unblock_a_high_card_when_the_misere_player_is_void_R6(contract: str) -> None:
    """Seat 1 holds no club: seat 0, before it, follows with its ace to shed it."""
    if contract == "OM":
        state = misere_hand(contract, NO_CLUBS, NO_CLUBS_KITTY, 1, OPEN_FIRST)
        state = run(state, "5C")  # seat 2 leads
    else:  # closed: seat 1 shows its club void first
        state = misere_hand(contract, NO_CLUBS, NO_CLUBS_KITTY, 3, fh.Rules())
        state = run(state, "5S", "8S", "JS", "9C", "7H", "7C", "7D", "6D", "AD")
        assert state.to_act == 2
        state = run(state, "5C")  # seat 2 holds the trick and leads a club
    view = fh.observe(state, 0)
    assert view.my_turn
    for player in players():
        assert player.choose(view) == fh.Play(fh.parse_card("AC")), type(player).__name__


def test_closed_misere_lead_low_in_a_suit_the_misere_player_holds() -> None:
    """Seat 1 has shown a club void; seat 0 leads its lowest diamond, not a club."""
    state = misere_hand("M", NO_CLUBS, NO_CLUBS_KITTY, 3, fh.Rules())
    state = run(state, "5S", "8S", "JS", "9C", "7H", "5C")  # seat 0 holds both tricks
    view = fh.observe(state, 0)
    assert view.my_turn and view.exposed_hand is None
    for player in players():
        assert player.choose(view) == fh.Play(fh.parse_card("7D")), type(player).__name__


def test_open_misere_solves_the_last_tricks_exactly() -> None:
    """With few cards left the defence solves the sampled deals: a forcing card, and
    the same card from every seed."""
    state = misere_hand("OM", NO_CLUBS, NO_CLUBS_KITTY, 3, fh.Rules())  # seat 1 leads
    while state.phase is fh.Phase.PLAY and state.to_act is not None:
        seat = state.to_act
        if len(state.hand(seat)) <= SOLVE_TRICKS:
            break
        state = fh.apply(state, HeuristicPlayer().choose(fh.observe(state, seat)))
    if state.phase is not fh.Phase.PLAY or state.to_act is None or state.to_act == 1:
        pytest.fail("the position did not reach a defender with few cards")
    view = fh.observe(state, state.to_act)
    assert defends_misere(view)
    plays = [a for a in view.legal_actions if isinstance(a, fh.Play)]
    picks = {misere_defence(view, plays, random.Random(seed), 3) for seed in range(3)}
    assert len(picks) == 1
    result = fh.solver.solve(state)
    assert result.values[picks.pop()] == result.tricks  # a best card of the real deal
