"""A perfect-information Monte Carlo player built on the double-dummy solver.

:class:`PIMCPlayer` plays a card by sampling the hidden cards
(:func:`fivehundred.search.sample_state`: deals consistent with everything its
seat has seen), solving each sampled deal exactly (:func:`fivehundred.solve`)
and playing the card with the best average trick count for its side (in a
misère, the fewest tricks for the contractor when it is the contractor, the most
otherwise). It decides from its :class:`~fivehundred.PlayerView` only.

In the auction the :class:`~fivehundred.bots.HeuristicPlayer` proposes a call
and the solver checks it: for each sampled deal the player makes the proposed
bid, lets the others pass, takes the kitty and discards as the heuristic player
would, and asks the solver whether the contract is made from the first lead
(:func:`fivehundred.claim`; for a misère, whether the contractor can be forced
to win a trick). It bids only when the share of samples made reaches
``confidence`` (a misère needs ``misere_confidence``), and passes otherwise.
Letting the solver choose the strain and level itself overbids: a double-dummy
count from the first lead flatters the bidder, who "sees" every hand (in a
12-game match it bid 51 contracts and made 37 %). The kitty discard, the Joker
nomination and the five-player partner call are the heuristic player's.

>>> import random
>>> import fivehundred as fh
>>> from fivehundred.pimc import PIMCPlayer
>>> from fivehundred.bots import HeuristicPlayer
>>> state = fh.deal(fh.new_game(dealer=3), seed=4)
>>> bot = HeuristicPlayer(random.Random(3))
>>> while state.phase is not fh.Phase.PLAY or len(state.hand(state.to_act)) > 3:
...     state = fh.apply(state, bot.choose(fh.observe(state, state.to_act)))
>>> player = PIMCPlayer(random.Random(1), samples=2)
>>> fh.is_legal(state, player.choose(fh.observe(state, state.to_act)))
True
"""

from __future__ import annotations

import random
import time

import attrs

from fivehundred.actions import Action, Play
from fivehundred.bots import HeuristicPlayer
from fivehundred.bots._players import require_turn
from fivehundred.calls import PASS, Call
from fivehundred.engine import apply, legal_actions
from fivehundred.errors import FiveHundredError
from fivehundred.search import sample_state
from fivehundred.solver import claim, solve
from fivehundred.state import GameState, Phase
from fivehundred.views import PlayerView, observe

__all__ = ["PIMCPlayer"]


@attrs.define
class PIMCPlayer:
    """Plays the card with the best average double-dummy count over sampled deals.

    ``samples`` is the most deals solved per decision; ``time_limit``, when set,
    stops drawing deals once that many seconds have passed on a decision (at
    least one deal is always solved; the choice then depends on the machine's
    speed). Deterministic given its random source when ``time_limit`` is unset.

    Raises :class:`~fivehundred.FiveHundredError` for ``samples`` below 1; its ``choose`` raises
    :class:`~fivehundred.FiveHundredError` when it is not the view's seat's turn.
    """

    rng: random.Random = attrs.field(factory=random.Random)
    samples: int = attrs.field(default=8)
    time_limit: float | None = attrs.field(default=None, kw_only=True)
    #: Share of the sampled deals in which a trick bid must be made to be bid.
    confidence: float = attrs.field(default=0.6, kw_only=True)
    #: Share of the sampled deals in which a misère must be safe to be bid.
    misere_confidence: float = attrs.field(default=0.9, kw_only=True)

    @samples.validator
    def _check_samples(self, attribute: attrs.Attribute[int], value: int) -> None:
        if value < 1:
            raise FiveHundredError(f"samples={value}: the player needs at least one sampled deal")

    def choose(self, view: PlayerView) -> Action:
        """The action for ``view.seat``: solved samples in card play, heuristics elsewhere."""
        legal = require_turn(view)
        if len(legal) == 1:
            return legal[0]
        if isinstance(legal[0], Play):
            return self._play(view, [a for a in legal if isinstance(a, Play)])
        if isinstance(legal[0], Call) and view.phase is Phase.BIDDING:
            return self._bid(view)
        return HeuristicPlayer(self.rng).choose(view)

    def _budget(self) -> tuple[float, float | None]:
        return time.perf_counter(), self.time_limit

    def _bid(self, view: PlayerView) -> Action:
        """The heuristic player's bid when the solved samples make it, or a pass."""
        proposal = HeuristicPlayer(self.rng).choose(view)
        if not isinstance(proposal, Call) or not proposal.is_bid:
            return proposal  # a pass: the solver is asked only about bids
        made = 0
        start, limit = self._budget()
        drawn = 0
        for count in range(self.samples):
            if count and limit is not None and time.perf_counter() - start >= limit:
                break
            state = sample_state(view, self.rng)
            drawn += 1
            if _made(state, view.seat, proposal, self.rng):
                made += 1
        need = self.misere_confidence if proposal.is_misere else self.confidence
        return proposal if made >= need * drawn else PASS

    def _play(self, view: PlayerView, legal: list[Play]) -> Play:
        seat = view.seat
        contract = view.contract
        contractor = view.contractor
        misere = contract is not None and contract.is_misere
        totals = dict.fromkeys(legal, 0.0)
        start, limit = self._budget()
        for count in range(self.samples):
            if count and limit is not None and time.perf_counter() - start >= limit:
                break
            state = sample_state(view, self.rng)
            result = solve(state, None if contractor is not None else seat)
            ours = seat in result.side
            sign = 1.0 if ours != misere else -1.0
            for play in legal:
                totals[play] += sign * result.values[play]
        return max(legal, key=totals.__getitem__)


def _made(state: GameState, seat: int, call: Call, rng: random.Random) -> bool:
    """Whether ``seat``, bidding ``call`` in this deal and left to play it (the others
    pass; the kitty as the heuristic player takes it), makes it double-dummy."""
    heuristic = HeuristicPlayer(rng)
    state = apply(state, call)
    while state.phase is not Phase.PLAY:
        to_act = state.to_act
        if to_act is None:  # pragma: no cover - a bid stands once the others pass
            return False
        legal = legal_actions(state)
        if state.phase is Phase.BIDDING:
            action = PASS if PASS in legal else legal[0]
        else:
            action = heuristic.choose(observe(state, to_act))
        state = apply(state, action)
    if state.contractor != seat:  # pragma: no cover - the others only passed
        return False
    if call.is_misere:
        return not solve(state, actions=False).forced
    return claim(state, seat, call.tricks or 0)
