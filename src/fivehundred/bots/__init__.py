"""Computer players. Each decides only from :func:`~fivehundred.observe`'s view.

A player is anything with ``choose(view) -> action`` (the :class:`Player`
protocol); it is asked only when ``view.my_turn`` and returns one of
``view.legal_actions``. Three players ship with the library:

- :class:`RandomPlayer` picks uniformly among the legal actions;
- :class:`HeuristicPlayer` bids from a hand evaluation and plays by rules of
  thumb (this package);
- :class:`~fivehundred.search.SearchPlayer` samples the hidden cards and plays
  the sampled deals out (:mod:`fivehundred.search`).

>>> import random
>>> import fivehundred as fh
>>> from fivehundred.bots import HeuristicPlayer, RandomPlayer
>>> state = fh.deal(fh.new_game(dealer=3), seed=1)
>>> action = RandomPlayer(random.Random(1)).choose(fh.observe(state, state.to_act))
>>> fh.is_legal(state, action)
True
>>> fh.is_legal(state, HeuristicPlayer().choose(fh.observe(state, state.to_act)))
True

The helpers :func:`read_view`, :func:`trick_estimate`, :func:`misere_danger`
and :func:`discard_value` are what the heuristic player knows and how it judges
a hand; the search player shares them. They take and return cards; the players
compute on card-index bit masks inside the package.

The package, one job per internal module:

- ``_players``: the :class:`Player` protocol and :class:`RandomPlayer`;
- ``_knowledge``: what a seat has seen and shown (:func:`read_view`; bit masks inside);
- ``_heuristic``: hand evaluation and :class:`HeuristicPlayer`;
- ``_sampling``: deals of the hidden cards (public as :mod:`fivehundred.search`);
- ``_search``: :class:`~fivehundred.search.SearchPlayer`.

Seeded matches between players are :mod:`fivehundred.tournament`.
"""

from fivehundred.bots._heuristic import (
    HeuristicPlayer,
    best_discard,
    bid_limits,
    call_partner,
    choose_bid,
    choose_play,
    discard_value,
    misere_danger,
    nominate,
    ranked_discards,
    trick_estimate,
)
from fivehundred.bots._knowledge import Knowledge, read_view
from fivehundred.bots._players import Player, RandomPlayer

__all__ = [
    "HeuristicPlayer",
    "Knowledge",
    "Player",
    "RandomPlayer",
    "best_discard",
    "bid_limits",
    "call_partner",
    "choose_bid",
    "choose_play",
    "discard_value",
    "misere_danger",
    "nominate",
    "ranked_discards",
    "read_view",
    "trick_estimate",
]
