"""Computer players. Each decides only from :func:`~fivehundred.observe`'s view.

A player is anything with ``choose(view) -> action``:

>>> import random
>>> import fivehundred as fh
>>> from fivehundred.bots import RandomPlayer
>>> state = fh.deal(fh.new_game(dealer=3), seed=1)
>>> action = RandomPlayer(random.Random(1)).choose(fh.observe(state, state.to_act))
>>> fh.is_legal(state, action)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

import attrs

from fivehundred.actions import DECLINE, Action, Discard, Play
from fivehundred.calls import PASS, Call, CallKind, Strain
from fivehundred.cards import Card, Rank
from fivehundred.tricks import Context, context, contract_context, trick_winner
from fivehundred.views import PlayerView

__all__ = ["HeuristicPlayer", "Player", "RandomPlayer"]


class Player(Protocol):
    """A computer player: picks one of ``view.legal_actions``."""

    def choose(self, view: PlayerView) -> Action:
        """The action to take; called only when ``view.my_turn``."""
        ...


@attrs.define
class RandomPlayer:
    """Chooses uniformly among the legal actions, from its own random source."""

    rng: random.Random = attrs.field(factory=random.Random)

    def choose(self, view: PlayerView) -> Action:
        """A uniformly random legal action."""
        return self.rng.choice(view.legal_actions)


def _power(ctx: Context, card: Card) -> int:
    return ctx.power[card.index] + (1000 if (1 << card.index) & ctx.trump_mask else 0)


def _estimate(hand: Sequence[Card], strain: Strain) -> float:
    """Tricks this hand should take by itself in ``strain``, roughly."""
    ctx = context(strain.suit)
    tricks = 0.0
    for card in hand:
        bit = 1 << card.index
        if ctx.trump_mask & bit:
            tricks += 1.0 if ctx.power[card.index] >= 115 else 0.7
        elif card.rank is Rank.ACE:
            tricks += 0.9 if strain.suit is not None else 1.0
        elif card.rank is Rank.KING and strain.suit is None:
            tricks += 0.4
    return tricks


@attrs.define
class HeuristicPlayer:
    """A modest rule-of-thumb player: bids from a trick estimate, plays sound basics.

    Deterministic except for ties, which it breaks with its random source.
    """

    rng: random.Random = attrs.field(factory=random.Random)

    def choose(self, view: PlayerView) -> Action:
        """Pick an action for the seat this view belongs to."""
        legal = view.legal_actions
        first = legal[0]
        if isinstance(first, Call):
            return self._bid(view, [a for a in legal if isinstance(a, Call)])
        if isinstance(first, Discard):
            return self._discard(view)
        if isinstance(first, Play):
            return self._play(view, [a for a in legal if isinstance(a, Play)])
        return DECLINE  # nomination: keep the Joker free, the highest card of all (R7.2)

    def _bid(self, view: PlayerView, legal: list[Call]) -> Call:
        best = max(Strain, key=lambda s: _estimate(view.hand, s))
        level = int(_estimate(view.hand, best) + 2.5)  # the partner's share: about two tricks
        bids = [c for c in legal if c.kind is CallKind.BID and c.strain is best]
        affordable = [c for c in bids if (c.tricks or 0) <= level]
        return affordable[0] if affordable else PASS

    def _discard(self, view: PlayerView) -> Discard:
        assert view.contract is not None and view.kitty is not None
        pool = [*view.hand, *view.kitty]
        if view.contract.is_misere:
            ctx = context(None)
            ranked = sorted(pool, key=lambda c: -_power(ctx, c))
        else:
            ctx = contract_context(view.contract)
            ranked = sorted(pool, key=lambda c: _power(ctx, c))
        return Discard(ranked[:3])

    def _play(self, view: PlayerView, legal: list[Play]) -> Play:
        contract = view.contract
        assert contract is not None and view.contractor is not None
        ctx = contract_context(contract, view.joker_suit)
        by_power = sorted(legal, key=lambda p: _power(ctx, p.card))
        misere_contractor = contract.is_misere and view.contractor == view.seat
        if not view.trick:
            if misere_contractor:
                return by_power[0]
            return by_power[-1] if self._on_contract_side(view) else self.rng.choice(legal)
        cards = [card for _, card in view.trick]
        winners = [
            p
            for p in by_power
            if trick_winner(
                [*cards, p.card], contract, joker_suit=view.joker_suit, led_suit=view.led_suit
            )
            == len(cards)
        ]
        if misere_contractor:
            losers = [p for p in by_power if p not in winners]
            return losers[-1] if losers else by_power[0]
        current = view.trick[
            trick_winner(cards, contract, joker_suit=view.joker_suit, led_suit=view.led_suit)
        ][0]
        partners = {s for side in view.rules.sides if view.seat in side for s in side}
        if current in partners or not winners:
            return by_power[0]
        return winners[0]

    def _on_contract_side(self, view: PlayerView) -> bool:
        assert view.contractor is not None
        return view.rules.side_of(view.contractor) == view.rules.side_of(view.seat)
