"""Steady judgement: one view gets one answer, and a clear choice is every seed's choice."""

from __future__ import annotations

import random

import fivehundred as fh
from fivehundred.bots import HeuristicPlayer, SearchPlayer
from fivehundred.bots.pimc import PIMCPlayer
from helpers import in_play, run
from test_bots import TRUMPS, TRUMPS_KITTY, acting_view

#: Points of expected value between the best call and the next that make a choice clear:
#: half a level of a trump bid (R8.1), five defenders' tricks (R8.4).
CLEAR = 50.0


def test_a_seeded_player_gives_one_answer_for_one_view() -> None:
    auction = fh.observe(fh.deal(fh.new_game(dealer=3), seed=5), 0)
    play = acting_view(run(in_play("7H", 0, TRUMPS, TRUMPS_KITTY), "AS", "10S", "JS"))
    for view in (auction, play):
        players = (
            SearchPlayer(random.Random(3), samples=6),
            PIMCPlayer(random.Random(3), samples=2, playouts=6),
            HeuristicPlayer(random.Random(3)),
        )
        for player in players:
            first = player.choose(view)
            player.choose(fh.observe(fh.deal(fh.new_game(dealer=3), seed=6), 0))  # another view
            assert player.choose(view) == first, type(player).__name__


def test_search_players_with_different_seeds_agree_on_a_clear_call() -> None:
    """Each seed values every call over its own deals; where one seed finds the best call
    clearly ahead of the next, the other seeds bid it too."""
    clear = 0
    for deal_seed in range(6):
        state = fh.deal(fh.new_game(dealer=3), seed=deal_seed)
        view = fh.observe(state, 0)
        picks = []
        for seed in range(3):
            values = sorted(
                SearchPlayer(random.Random(seed), samples=16).call_values(view),
                key=lambda cv: -cv[1],
            )
            picks.append((values[0][0], values[0][1] - values[1][1]))
        if any(gap > CLEAR for _, gap in picks):
            clear += 1
            assert len({call for call, _ in picks}) == 1, (deal_seed, picks)
    assert clear >= 2  # the sweep met clear choices
