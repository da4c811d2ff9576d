"""Misère defence, shared by the search and PIMC players.

Against a **closed** misère the defenders play the known principles, which are the
heuristic player's (:func:`~fivehundred.bots.choose_play`): lead low in a suit the
misère player may still hold (never the Joker, which only wins a trick for the
defence), follow low before the misère player, and shed high cards (unblock) on a
trick the misère player cannot win: when it is void in the suit led, or when a
defender already holds the trick.

Against an **open** misère (R6.3) the exposed hand is used exactly: the principles
read it card for card, and once few cards are left (:data:`SOLVE_TRICKS`) every
sampled deal of the other defenders' cards is solved double-dummy
(:func:`fivehundred.solver.solve`); the card that forces the misère player to win a
trick in the most deals is played, the principle's card among equals.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Final

from fivehundred.actions import Play
from fivehundred.bots._heuristic import choose_play
from fivehundred.bots._sampling import sample_state
from fivehundred.cards import JOKER
from fivehundred.solver import solve
from fivehundred.views import PlayerView

#: Against an open misère, card play is solved once at most this many tricks are left.
SOLVE_TRICKS: Final = 5
#: Positions one solve may search before it stops with what it has proven.
SOLVE_NODES: Final = 4_000


def defends_misere(view: PlayerView) -> bool:
    """Whether ``view.seat`` defends a misère contract in card play."""
    contract = view.contract
    return (
        contract is not None
        and contract.is_misere
        and view.contractor is not None
        and view.seat != view.contractor
    )


def misere_defence(
    view: PlayerView,
    legal: Sequence[Play],
    rng: random.Random,
    deals: int,
    time_limit: float | None = None,
) -> Play:
    """The defender's card against a misère: principles, and solved deals when the
    misère hand is open and few cards are left (the module's rules)."""
    principle = choose_play(view, legal)
    if view.exposed_hand is None or len(view.hand) > SOLVE_TRICKS:
        return principle
    start = time.perf_counter()
    totals = dict.fromkeys(legal, 0)
    for count in range(max(1, deals)):
        if count and time_limit is not None and time.perf_counter() - start >= time_limit:
            break
        result = solve(sample_state(view, rng), nodes=SOLVE_NODES)
        if not result.exact:
            continue  # too many positions for the budget: this deal is not counted
        for play, forced in result.values.items():
            if play in totals:
                totals[play] += forced  # the misère player's tricks: 0 or 1
    best = max(totals.values())
    if totals[principle] == best:
        return principle
    return min((p for p in legal if totals[p] == best), key=lambda p: (p.card == JOKER,))
