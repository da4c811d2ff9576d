"""Bidding for the game: every player's auction reads the scores, the target and R9.

The positions are written as a player would state them: "at 120, with partner's
7♦ and this hand, bid 9♦". The game situation itself lives in one place,
``fivehundred.bots._game``, which every player's auction calls.
"""

from __future__ import annotations

import random

import pytest

import fivehundred as fh
from fivehundred.bots import HeuristicPlayer, SearchPlayer, bid_limits
from fivehundred.bots._game import game_call, situation
from fivehundred.bots.pimc import PIMCPlayer
from helpers import deal_next, run

#: Seat 2 holds the issue's hand: the Joker, A♠ J♠ and K Q 9 7 4♦ (and two low cards);
#: its partner, seat 0, holds a hand worth its 7♦.
SUPPORT = (
    "JD JH AD 10D 8D AC KC 5S 6S 7H",
    "KS QS 10S 9S QC JC 10C AH KH 4H",
    "Jo AS JS KD QD 9D 7D 4D 6C 5H",
    "8S 7S 9C 8C 7C 5C 5D 6D QH 10H",
)
SUPPORT_KITTY = "6H 8H 9H"


def after_partners_seven(score: int, theirs: int = 0) -> fh.PlayerView:
    """Seat 2's view after its partner's 7♦ and a pass, its side at ``score``."""
    state = deal_next(fh.new_game(dealer=3, scores=(score, theirs)), SUPPORT, SUPPORT_KITTY)
    return fh.observe(run(state, "7D", "pass"), 2)


@pytest.mark.parametrize(
    ("score", "bid"),
    [
        (0, "10D"),  # the side's full value: the contract scores what is bid
        (120, "9D"),  # 9♦ is worth 380: just enough to reach 500 (R8.1, R9.1)
        (480, "pass"),  # partner's 7♦ already wins the game: do not outbid it
    ],
)
def test_heuristic_raises_partners_seven_diamonds_for_the_game(score: int, bid: str) -> None:
    view = after_partners_seven(score)
    for seed in range(5):
        assert HeuristicPlayer(random.Random(seed)).choose(view) == fh.parse_call(bid)


def test_search_players_do_not_outbid_a_partner_whose_contract_wins_the_game_R9_1() -> None:
    view = after_partners_seven(480)
    assert SearchPlayer(random.Random(1), samples=4).choose(view) == fh.PASS
    assert PIMCPlayer(random.Random(1), samples=2, playouts=4).choose(view) == fh.PASS


def test_at_120_the_search_player_bids_no_more_than_the_game_needs() -> None:
    """9♦ reaches 500 from 120: it never bids 10♦, which wins no more."""
    view = after_partners_seven(120)
    calls = {SearchPlayer(random.Random(seed), samples=4).choose(view) for seed in range(4)}
    assert fh.parse_call("10D") not in calls


def test_the_situation_reads_the_target_and_the_standing_bid() -> None:
    game = situation(after_partners_seven(120))
    assert game.ours and not game.standing_wins  # 120 + 180 is 300
    assert game.wins_if_made(fh.parse_call("9D")) and not game.wins_if_made(fh.parse_call("8D"))
    assert situation(after_partners_seven(480)).standing_wins


def test_a_lower_target_changes_the_game_bid_V_TARGET() -> None:
    rules = fh.Rules(target=300, losing_score=-300)
    state = deal_next(fh.new_game(rules, dealer=3, scores=(0, 0)), SUPPORT, SUPPORT_KITTY)
    view = fh.observe(run(state, "7D", "pass"), 2)
    # 8♦ (280) does not reach 300 from 0, 9♦ (380) does: the likeliest winning bid
    assert HeuristicPlayer().choose(view) == fh.parse_call("9D")


#: Seat 2 holds a fair hand in hearts; the opponents at 400 have bid 7♦, which wins them
#: the game if they make it.
PUSH = (
    "8S 7S 9C 8C 7C 5C 5D 6D QH 10H",
    "JD JH AD 10D 8D AC KC 5S 6S 7H",
    "AH KH 9H 8H 6H AS 6C 4D 7D JS",
    "KS QS 10S 9S QC JC 10C 4H 5H 9D",
)
PUSH_KITTY = "KD QD Jo"


def test_pushes_opponents_whose_contract_would_win_them_the_game() -> None:
    def view_at(theirs: int) -> fh.PlayerView:
        state = deal_next(fh.new_game(dealer=0, scores=(0, theirs)), PUSH, PUSH_KITTY)
        return fh.observe(run(state, "7D"), 2)

    calm, pressed = view_at(0), view_at(400)
    assert bid_limits(calm)[fh.Strain.HEARTS] < 7  # not a 7♥ hand by itself
    assert HeuristicPlayer().choose(calm) == fh.PASS
    assert HeuristicPlayer().choose(pressed) == fh.parse_call("7H")


def test_game_call_leaves_an_ordinary_score_to_the_player() -> None:
    view = after_partners_seven(0)
    chances = {fh.parse_call("8D"): 0.9, fh.parse_call("10D"): 0.6}
    assert game_call(view, chances) is None
    assert game_call(after_partners_seven(120), chances) == fh.parse_call("10D")
    assert game_call(after_partners_seven(480), chances) == fh.PASS
