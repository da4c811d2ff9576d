"""Computer players. Each decides only from :func:`~fivehundred.observe`'s view.

A player is anything with ``choose(view) -> action`` (the :class:`Player`
protocol); it is asked only when ``view.my_turn`` and returns one of
``view.legal_actions``. Four players ship with the library:

- :class:`RandomPlayer` picks uniformly among the legal actions;
- :class:`HeuristicPlayer` bids from a hand evaluation and plays by rules of
  thumb;
- :class:`SearchPlayer` samples the hidden cards and plays the sampled deals out
  (how, below);
- :class:`~fivehundred.bots.pimc.PIMCPlayer` solves sampled deals exactly
  (:mod:`fivehundred.bots.pimc`).

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
- ``_sampling``: deals of the hidden cards (:func:`sample_deal` and its kin);
- ``_search``: :class:`SearchPlayer`.

- ``pimc``: the PIMC player (public: :mod:`fivehundred.bots.pimc`);
- ``tournament``: seeded matches between players (public: :mod:`fivehundred.bots.tournament`).

**How the search player decides.** :class:`SearchPlayer` decides by *determinization*
(perfect-information Monte Carlo): for each decision it deals the cards it cannot see in
``samples`` different ways, each consistent with everything its seat has seen, tries
every candidate action in every sampled deal, plays the rest of the hand out with a fast
rule-of-thumb policy, and takes the action with the best average score.

What a sampled deal respects (:func:`sample_hands`):

- the seat's own hand, every card played, its own discards, the kitty while it
  is the contractor discarding, and the exposed open-misère hand (R6.3);
- known voids: a seat that did not follow the led suit holds none of it, with
  bowers and the Joker counted in their effective suits (R5.2, R5.3);
- the Joker: held by the contractor who nominated it (R7.1), and not held by a
  void misère player who played another card (R7.3);
- the auction, loosely: a seat that bid *n* in a strain is dealt a hand worth
  about that many tricks (:func:`~fivehundred.bots.trick_estimate`), a misère
  bidder a hand of low cards (deals are redrawn a few times to fit).

The cards of other seats' discards (or the kitty, before the auction is won)
are sampled among the unseen cards too. :func:`sample_state` turns a sampled
deal into a full :class:`~fivehundred.GameState` by replaying the hand's public
actions on it, so it can be inspected with the ordinary API.

What is compared: in card play, every legal card (touching cards count once);
in the auction, passing against every level of each strain the hand might make
and misère, all over the same sampled deals (a bid is played out with this seat
as contractor, once per strain for all its levels; a pass with the standing bid
as the contract), and the score decides first (``fivehundred.bots._game``: the
bid that wins the game, no outbidding a partner's winning contract, a push
against opponents about to win); in the kitty exchange, the heuristic player's
favourite discards; and every Joker nomination. Against a misère the defence is
``fivehundred.bots._misere``'s. The score of a play-out is this side's
score change minus the other sides' average (R8).

The play-outs run on a small internal bitmask model of card play that asks the
engine's own ``fivehundred.engine.playable`` what may be played (R5, R7,
and the variants), and never leaves this module; the actions the player
returns always come from ``view.legal_actions``. Each decision draws its deals from a
seed the player takes once from its random source and from the view itself, so
one view always gets one answer, unless ``time_limit`` cuts the deals short.

>>> import random
>>> import fivehundred as fh
>>> state = fh.deal(fh.new_game(dealer=3), seed=4)
>>> player = SearchPlayer(random.Random(1), samples=4)
>>> fh.is_legal(state, player.choose(fh.observe(state, state.to_act)))
True
"""

from fivehundred.bots._hands import discard_value, misere_danger, trick_estimate
from fivehundred.bots._heuristic import (
    HeuristicPlayer,
    best_discard,
    bid_limits,
    call_partner,
    choose_bid,
    choose_play,
    nominate,
    ranked_discards,
)
from fivehundred.bots._knowledge import Knowledge, read_view
from fivehundred.bots._players import Player, RandomPlayer
from fivehundred.bots._sampling import (
    World,
    sample_deal,
    sample_deals,
    sample_hands,
    sample_state,
)
from fivehundred.bots._search import SearchPlayer

__all__ = [
    "HeuristicPlayer",
    "Knowledge",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "World",
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
    "sample_deal",
    "sample_deals",
    "sample_hands",
    "sample_state",
    "trick_estimate",
]
