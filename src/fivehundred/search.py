"""A search player: it samples the hidden cards and plays the sampled deals out.

:class:`SearchPlayer` decides by *determinization* (perfect-information Monte
Carlo): for each decision it deals the cards it cannot see in ``samples``
different ways, each consistent with everything its seat has seen, tries every
candidate action in every sampled deal, plays the rest of the hand out with a
fast rule-of-thumb policy, and takes the action with the best average score.

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

from fivehundred.bots._sampling import World, sample_deal, sample_deals, sample_hands, sample_state
from fivehundred.bots._search import MISERE_DOUBT as MISERE_DOUBT  # noqa: PLC0414
from fivehundred.bots._search import SearchPlayer

__all__ = [
    "SearchPlayer",
    "World",
    "sample_deal",
    "sample_deals",
    "sample_hands",
    "sample_state",
]
