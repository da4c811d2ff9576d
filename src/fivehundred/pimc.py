"""A perfect-information Monte Carlo player built on the double-dummy solver.

:class:`PIMCPlayer` plays a card by sampling the hidden cards
(:func:`fivehundred.search.sample_state`: deals consistent with everything its
seat has seen), solving each sampled deal exactly (:func:`fivehundred.solve`)
and playing the card with the best average trick count for its side (in a
misère, the fewest tricks for the contractor when it is the contractor, the most
otherwise). It decides from its :class:`~fivehundred.PlayerView` only.

In the auction the :class:`~fivehundred.bots.HeuristicPlayer` proposes calls
and the solver checks them. The heuristic player is asked at each of the
``proposals`` boldness levels (boldest first); for each sampled deal the player
makes each proposed bid, lets the others pass, takes the kitty and discards as
the heuristic player would, and asks the solver whether the contract is made
from the first lead (:func:`fivehundred.claim`; for a misère, whether the
contractor can be forced to win a trick). It bids the boldest proposal whose
share of samples made reaches ``confidence`` (a misère needs
``misere_confidence``), and passes when none does. By default there is one
proposal, the heuristic player's own: the solver only vetoes. Letting the solver choose
the strain and level unchecked overbids: a double-dummy count from the first
lead flatters the bidder, who "sees" every hand (in a 12-game match it bid 51
contracts and made 37 %).

The kitty: the heuristic player's favourite discards
(:func:`~fivehundred.bots.ranked_discards`) are each solved over the sampled
deals, and the one with the most tricks on average is kept (in a misère, the
one least often forced). The Joker nomination and the five-player partner call
are the heuristic player's.

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
from collections.abc import Iterator

import attrs

from fivehundred.actions import Action, Discard, Play
from fivehundred.bots import HeuristicPlayer, ranked_discards
from fivehundred.bots._players import require_turn
from fivehundred.calls import PASS, Call
from fivehundred.engine import apply, legal_actions
from fivehundred.errors import FiveHundredError, FiveHundredTypeError
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

    Raises :class:`~fivehundred.FiveHundredError` for ``samples`` or ``discards`` below 1 and
    :class:`~fivehundred.FiveHundredTypeError` for ``proposals`` that are not a non-empty
    tuple of numbers or ``discards`` that is not a whole number; its ``choose`` raises
    :class:`~fivehundred.FiveHundredError` when it is not the view's seat's turn.
    """

    rng: random.Random = attrs.field(factory=random.Random)
    samples: int = attrs.field(default=8)
    time_limit: float | None = attrs.field(default=None, kw_only=True)
    #: Share of the sampled deals in which a trick bid must be made to be bid.
    confidence: float = attrs.field(default=0.6, kw_only=True)
    #: Share of the sampled deals in which a misère must be safe to be bid.
    misere_confidence: float = attrs.field(default=0.9, kw_only=True)
    #: The heuristic player's boldness (tricks added to its estimates) for each proposal
    #: checked in the auction, boldest first. By default only its own: bolder proposals,
    #: ``(1.5, 0.75, 0.0)``, won 7 of 20 games against the heuristic player (seed 4, 4
    #: samples), where one proposal won 18 of 40.
    proposals: tuple[float, ...] = attrs.field(default=(0.0,), kw_only=True)
    #: How many of the heuristic player's favourite kitty discards are solved.
    discards: int = attrs.field(default=3, kw_only=True)

    @proposals.validator
    def _check_proposals(
        self, attribute: attrs.Attribute[tuple[float, ...]], value: object
    ) -> None:
        if (
            not isinstance(value, tuple)
            or not value
            or not all(isinstance(b, (int, float)) and not isinstance(b, bool) for b in value)
        ):
            raise FiveHundredTypeError(
                f"proposals must be a non-empty tuple of boldness levels, not {value!r}"
            )

    @discards.validator
    def _check_discards(self, attribute: attrs.Attribute[int], value: object) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            raise FiveHundredTypeError(f"discards must be a whole number, not {value!r}")
        if value < 1:
            raise FiveHundredError(f"discards={value}: the player needs at least one discard")

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
        if isinstance(legal[0], Discard):
            return self._discard(view)
        return HeuristicPlayer(self.rng).choose(view)

    def _samples(self) -> Iterator[int]:
        """Count the sampled deals of one decision, within the budget (at least one)."""
        start = time.perf_counter()
        limit = self.time_limit
        for count in range(self.samples):
            if count and limit is not None and time.perf_counter() - start >= limit:
                return
            yield count

    def _bid(self, view: PlayerView) -> Action:
        """The boldest heuristic proposal the solved samples make, or a pass."""
        calls: list[Call] = []
        for boldness in self.proposals:
            proposal = HeuristicPlayer(self.rng, boldness=boldness).choose(view)
            if isinstance(proposal, Call) and proposal.is_bid and proposal not in calls:
                calls.append(proposal)
        if not calls:
            return PASS  # the solver is asked only about bids
        made = dict.fromkeys(calls, 0)
        drawn = 0
        for _ in self._samples():
            state = sample_state(view, self.rng)
            drawn += 1
            for call in calls:
                if _made(state, view.seat, call, self.rng):
                    made[call] += 1
        for call in calls:
            need = self.misere_confidence if call.is_misere else self.confidence
            if made[call] >= need * drawn:
                return call
        return PASS

    def _discard(self, view: PlayerView) -> Discard:
        """The heuristic favourite discard that solves best over the sampled deals."""
        options = ranked_discards(view, self.discards)
        if len(options) == 1:
            return options[0]
        contract = view.contract
        misere = contract is not None and contract.is_misere
        totals = [0.0] * len(options)
        for _ in self._samples():
            state = sample_state(view, self.rng)
            for k, option in enumerate(options):
                result = solve(_to_play(apply(state, option), self.rng), actions=False)
                totals[k] += -float(bool(result.forced)) if misere else result.tricks
        return options[max(range(len(options)), key=totals.__getitem__)]  # ties: the first

    def _play(self, view: PlayerView, legal: list[Play]) -> Play:
        seat = view.seat
        contract = view.contract
        contractor = view.contractor
        misere = contract is not None and contract.is_misere
        totals = dict.fromkeys(legal, 0.0)
        for _ in self._samples():
            state = sample_state(view, self.rng)
            result = solve(state, None if contractor is not None else seat)
            ours = seat in result.side
            sign = 1.0 if ours != misere else -1.0
            for play in legal:
                totals[play] += sign * result.values[play]
        return max(legal, key=totals.__getitem__)


def _to_play(state: GameState, rng: random.Random) -> GameState:
    """The state at the first lead: the others pass, and the heuristic player takes the
    rest of the kitty exchange (the discard, the partner call, the nomination)."""
    heuristic = HeuristicPlayer(rng)
    while state.phase is not Phase.PLAY:
        to_act = state.to_act
        if to_act is None:  # pragma: no cover - a bid stands once the others pass
            raise FiveHundredError("the sampled hand was thrown in")
        legal = legal_actions(state)
        if state.phase is Phase.BIDDING:
            action = PASS if PASS in legal else legal[0]
        else:
            action = heuristic.choose(observe(state, to_act))
        state = apply(state, action)
    return state


def _made(state: GameState, seat: int, call: Call, rng: random.Random) -> bool:
    """Whether ``seat``, bidding ``call`` in this deal and left to play it (the others
    pass; the kitty as the heuristic player takes it), makes it double-dummy."""
    state = _to_play(apply(state, call), rng)
    if state.contractor != seat:  # pragma: no cover - the others only passed
        return False
    if call.is_misere:
        return not solve(state, actions=False).forced
    return claim(state, seat, call.tricks or 0)
