"""A perfect-information Monte Carlo player built on the double-dummy solver.

:class:`PIMCPlayer` plays a card by sampling the hidden cards
(:func:`fivehundred.bots.sample_state`: deals consistent with everything its
seat has seen), solving each sampled deal exactly (:func:`fivehundred.solver.solve`)
and playing the card whose solved outcomes score best on average: each
solved trick count is turned into the hand's score change for its side minus
the others' average, as the search player scores its play-outs, so a card that
makes the contract (or sets it) is worth more than one that only takes an
extra trick. It decides from its :class:`~fivehundred.PlayerView` only.

The kitty: the heuristic player's favourite discards
(:func:`~fivehundred.bots.ranked_discards`) are each solved over the sampled
deals, and the one whose solved outcomes score best on average is kept, scored
as in card play (ties: the most tricks; in a misère, the one least often
forced). Under a ``time_limit`` the kitty, like early card play, is the search
player's (below), since one full hand solved per discard does not fit in a
decision's time.

The auction and the Joker nomination are the search player's, on purpose (it has no
auction of its own; why, below)
(:class:`~fivehundred.bots.SearchPlayer`, ``playouts`` deals a decision):
each call is valued by the score of playing it out in sampled deals
(:meth:`~fivehundred.bots.SearchPlayer.call_values`). Solved deals do not
count tricks there on purpose: a double-dummy count from the first lead
flatters the bidder, who "sees" every hand. Bidding from solved counts (the
heuristic player's proposal vetoed unless the solver made it, or the boldest
bid the solver made) won 40 to 45 % of games against the heuristic player;
bidding from play-outs won 76 of 120 (63.3 %, seeds 4 to 6, budget 16).

Misère safety can also come from solved deals (``misere_risk``): when the
search player's favourite call is a misère, up to ``samples`` deals are solved
from its first lead, and the misère is bid only if the contractor is forced to
win a trick in at most that share of them; otherwise the next best call is bid.
Under a ``time_limit`` the check has what the play-outs left of the decision's
time, and at least one solved deal. It is off by default (``1.0``: every misère
the play-outs favour stands), because double-dummy defenders are far stronger
than the players it meets. At a risk of one half it made 13 of 19 open misères
instead of 17 of 30 against the heuristic player, but won 45 of 80 games instead
of 48 (seeds 5 and 6, budget 16); at 0.1 s a decision against the search player
it won 22 of 60 games of seed 9, where two runs with the check off won 36 and 29
(a timed match varies from run to run with the machine's speed).

The player can play for the game, not only for the points (``game_value``, off
by default): a hand that ends the game (R9) then counts as plus that many points
to the winners and minus that many to the others, in the auction's play-outs, the
nomination, the solved kitty and the solved card play alike. Near the target it
bids the contract it is likeliest to make rather than the one worth most, and
from a score of 0 an open misère counts as the game it wins or loses, so it bids
more of them. At ``game_value=1000`` against the heuristic player it won 24 of 40
games of seed 5 (23 off) and 28 of 40 of seed 6 (25 off) at budget 16, within
noise; but it made 128 of its 214 contracts (59.8 %; 65.7 % off on seed 5), since
it bid 112 open misères and made 60. Off, every hand is valued by its score alone.

Early in a hand a full solve takes about 0.1 s on the compiled build, so under
a ``time_limit`` the player solves card play only once ``solve_tricks`` tricks
are left (seven by default with a time limit); before that the search player's
play-outs choose the card, many deals a decision. At 0.1 s a decision, solving
from seven tricks won 305 of 480 games against the search player (63.5 %:
seeds 7 to 13, and seed 9 twice; 76 of 120 with the kitty too left to play-outs,
seeds 12 and 13), solving every trick 30 of 60 (50 %, seed 7). Three times the
time does not widen the gap: at 0.3 s a decision it won 151 of 240 (62.9 %, seeds
13 to 15), and solving from eight tricks won 25 of 40 where seven won 27 (seed 12).
Against the heuristic player, which takes no time, 0.1 s a decision won 70 of 100
games (seed 1; 143 of its 184 contracts made), where the tournament's default
budget (16: four solved deals a card) won 48 of 80 (seeds 5 and 6).
Without a time limit every trick is solved by default. The kitty is solved only
when the hand it leaves is within ``solve_tricks`` too: with 0.1 s a decision,
solving three discards over one deal took 0.5 s at the median and up to 18 s
(200 hands after the heuristic player's auction), where the search player's
discard kept to the 0.1 s and did as well (the real deal solved after it: 160
contracts made of 200, against 158; 7.87 tricks on average, against 7.86).

>>> import random
>>> import fivehundred as fh
>>> from fivehundred.bots.pimc import PIMCPlayer
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
from collections.abc import Iterator, Sequence
from typing import Final

import attrs

from fivehundred._engine.state import GameState
from fivehundred._engine.values import Phase
from fivehundred.actions import Action, Discard, Nominate, Play
from fivehundred.bots import HeuristicPlayer, SearchPlayer, ranked_discards, sample_state
from fivehundred.bots._misere import defends_misere, misere_defence
from fivehundred.bots._players import require_turn
from fivehundred.bots._utility import HandUtility, check_game_value
from fivehundred.calls import PASS, Call
from fivehundred.engine import apply, legal_actions
from fivehundred.errors import FiveHundredError, FiveHundredTypeError
from fivehundred.rules import Rules
from fivehundred.solver import solve
from fivehundred.views import PlayerView, observe

__all__ = ["PIMCPlayer"]

#: The weight of a trick in breaking ties between cards that score the same.
_TIE: Final = 1e-3
#: The default :attr:`PIMCPlayer.misere_risk`.
MISERE_RISK: Final = 1.0
#: The default :attr:`PIMCPlayer.game_value`.
GAME_VALUE: Final = None
#: Tricks left from which card play is solved under a time limit, by default.
_TIMED_SOLVE_TRICKS: Final = 7
#: Under a time limit, the most positions one solve of card play may search: a solve
#: that would search more is dropped (a hard bound on the decision's time).
TIMED_NODES: Final = 30_000


@attrs.define
class PIMCPlayer:
    """Plays the card whose solved outcomes over sampled deals score best.

    ``samples`` is the most deals solved per card or kitty decision;
    ``playouts`` the deals the search player plays out per auction or
    nomination decision; ``time_limit``, when set, stops drawing deals once that
    many seconds have passed on a decision (at least one deal is always used;
    the choice then depends on the machine's speed). Deterministic given its
    random source when ``time_limit`` is unset.

    Raises :class:`~fivehundred.FiveHundredError` for ``samples``, ``playouts`` or
    ``discards`` below 1, a ``solve_tricks`` below 1, a ``misere_risk`` outside
    0 to 1 and a ``game_value`` below 0 or not finite, and
    :class:`~fivehundred.FiveHundredTypeError` for any count that is not a whole
    number or a ``misere_risk`` or ``game_value`` that is not a number; its ``choose`` raises
    :class:`~fivehundred.FiveHundredError` when it is not the view's seat's turn.
    """

    rng: random.Random = attrs.field(factory=random.Random)
    samples: int = attrs.field(default=8)
    time_limit: float | None = attrs.field(default=None, kw_only=True)
    #: Deals the search player plays out per decision in the auction and the nomination.
    playouts: int = attrs.field(default=16, kw_only=True)
    #: How many of the heuristic player's favourite kitty discards are solved.
    discards: int = attrs.field(default=3, kw_only=True)
    #: Card play is solved once at most this many tricks are left (the card in hand
    #: included), and the kitty when the hand it leaves has at most this many; before
    #: that the search player's play-outs choose. ``None`` (the default): every trick
    #: without a ``time_limit``, seven with one.
    solve_tricks: int | None = attrs.field(default=None, kw_only=True)
    #: The largest share of solved deals in which a misère contractor is forced to
    #: win a trick, for the player to bid that misère; 1 (the default) solves none.
    misere_risk: float = attrs.field(default=MISERE_RISK, kw_only=True)
    #: What winning the game is worth, in points, to the auction, the nomination, the
    #: kitty and card play
    #: (:attr:`SearchPlayer.game_value <fivehundred.bots.SearchPlayer.game_value>`):
    #: a hand that ends the game counts as plus this to the winners and minus this to
    #: the others. ``None`` (the default): every hand is valued by its score alone.
    game_value: float | None = attrs.field(
        default=GAME_VALUE, kw_only=True, validator=check_game_value
    )
    #: The search player it hands the auction, the nomination and early play to: one for
    #: the player's life, so that its decisions too depend on the view alone.
    _searcher: SearchPlayer | None = attrs.field(default=None, init=False, repr=False, eq=False)
    #: The random source of the decision in hand (from the seed and the view).
    _draw: random.Random = attrs.field(factory=random.Random, init=False, repr=False, eq=False)

    @samples.validator
    @playouts.validator
    @discards.validator
    @solve_tricks.validator
    def _check_count(self, attribute: attrs.Attribute[int | None], value: object) -> None:
        if value is None and attribute.name == "solve_tricks":
            return
        if not isinstance(value, int) or isinstance(value, bool):
            raise FiveHundredTypeError(f"{attribute.name} must be a whole number, not {value!r}")
        if value < 1:
            raise FiveHundredError(f"{attribute.name}={value}: the player needs at least 1")

    @misere_risk.validator
    def _check_share(self, attribute: attrs.Attribute[float], value: object) -> None:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise FiveHundredTypeError(f"{attribute.name} must be a number, not {value!r}")
        if not 0 <= value <= 1:
            raise FiveHundredError(f"{attribute.name}={value}: a share must be from 0 to 1")

    def choose(self, view: PlayerView) -> Action:
        """The action for ``view.seat``: solved samples in card play, the kitty and
        the misère check, play-outs in the auction and the nomination, heuristics
        elsewhere."""
        legal = require_turn(view)
        if len(legal) == 1:
            return legal[0]
        self._draw = self._search().decision_rng(view)
        first = legal[0]
        if isinstance(first, Play) and defends_misere(view):
            plays = [a for a in legal if isinstance(a, Play)]
            return misere_defence(view, plays, self._draw, self.samples, self.time_limit)
        if isinstance(first, Play) and self._solves(len(view.hand)):
            return self._play(view, [a for a in legal if isinstance(a, Play)])
        if isinstance(first, Discard) and self._solves(len(view.hand)):
            return self._discard(view)
        if isinstance(first, Call) and self.misere_risk < 1:  # else every misère stands
            return self._bid(view)
        if isinstance(first, (Call, Discard, Play, Nominate)):
            return self._search().choose(view)
        return HeuristicPlayer(self._draw).choose(view)

    def _search(self) -> SearchPlayer:
        """The search player that takes the auction, the nomination, early card play
        and, under a time limit, the kitty."""
        if self._searcher is None:
            self._searcher = SearchPlayer(
                self.rng, self.playouts, time_limit=self.time_limit, game_value=self.game_value
            )
        return self._searcher

    def _solves(self, tricks_left: int) -> bool:
        """Whether card play (or the kitty) with this many tricks left is solved, else
        played out."""
        limit = self.solve_tricks
        if limit is None:
            limit = _TIMED_SOLVE_TRICKS if self.time_limit is not None else tricks_left
        return tricks_left <= limit

    def _samples(self, start: float | None = None) -> Iterator[int]:
        """Count the sampled deals of one decision, within the budget (at least one);
        the time limit counts from ``start`` (a ``perf_counter`` reading), else now."""
        start = time.perf_counter() if start is None else start
        limit = self.time_limit
        for count in range(self.samples):
            if count and limit is not None and time.perf_counter() - start >= limit:
                return
            yield count

    def _bid(self, view: PlayerView) -> Call:
        """The search player's best call, a misère only if it is safe in the solved deals.

        The search player's play-outs value each call; a misère the contractor is
        forced to lose in more than :attr:`misere_risk` of the solved deals is
        refused, and the next best call is bid instead. (With the default risk of 1
        every misère stands: :meth:`choose` bids the search player's own call.)
        """
        start = time.perf_counter()
        values = self._search().call_values(view)
        safe: bool | None = None  # one verdict serves misère and open misère
        for call, _ in sorted(values, key=lambda cv: -cv[1]):  # stable: the first on ties
            if call.is_misere:
                if safe is None:
                    safe = self._misere_safe(view, call, start)
                if not safe:
                    continue
            return call
        raise FiveHundredError(  # pragma: no cover - passing or a bid is always legal
            "no call is left to bid"
        )

    def _misere_safe(self, view: PlayerView, call: Call, start: float) -> bool:
        """Whether ``call`` (a misère) is forced in at most ``misere_risk`` of the
        solved deals, the kitty exchanged by the heuristic player. The play-outs
        have used the decision's time (from ``start``) already, so under a time
        limit one deal is solved, or a few when the play-outs stopped early."""
        forced = deals = 0
        for _ in self._samples(start):
            state = sample_state(view, self._draw)
            result = solve(_to_play(apply(state, call), self._draw), actions=False)
            forced += bool(result.forced)
            deals += 1
        return forced <= self.misere_risk * deals

    def _discard(self, view: PlayerView) -> Discard:
        """The heuristic favourite discard whose solved outcomes score best on average
        over the sampled deals, as in card play (ties: more tricks, in a misère the
        one less often forced)."""
        options = ranked_discards(view, self.discards)
        if len(options) == 1:
            return options[0]
        rules = view.rules
        contract = view.contract
        misere = contract is not None and contract.is_misere
        utility = HandUtility(view, contract, view.seat, self.game_value)
        counted = rules.side_of(view.seat)
        remaining = len(view.hand)
        totals = [0.0] * len(options)
        for _ in self._samples():
            state = sample_state(view, self._draw)
            for k, option in enumerate(options):
                played = _to_play(apply(state, option), self._draw)
                result = solve(played, actions=False)
                rest = _other_side(rules, counted, played.partner)
                won = _won(view.tricks_won, counted, rest, remaining, result.tricks)
                tie = -float(bool(result.forced)) if misere else result.tricks
                totals[k] += utility(won, played.partner) + _TIE * tie
        return options[max(range(len(options)), key=totals.__getitem__)]  # ties: the first

    def _play(self, view: PlayerView, legal: list[Play]) -> Play:
        """The card whose solved outcomes score best on average (ties: more tricks
        for this seat's side; in a misère, fewer for the contractor when it is ours)."""
        rules = view.rules
        contract = view.contract
        contractor = view.contractor
        misere = contract is not None and contract.is_misere
        # V-ALL-PASS has no contractor: the tricks alone are the score
        scored = None
        if contractor is not None:
            scored = (
                HandUtility(view, contract, contractor, self.game_value),
                rules.side_of(contractor),
            )
        tie = _TIE if scored is not None else 1.0
        remaining = len(view.hand)
        mine = rules.side_of(view.seat)
        totals = dict.fromkeys(legal, 0.0)
        nodes = TIMED_NODES if self.time_limit is not None else None
        solved = 0
        start = time.perf_counter()
        for _ in self._samples(start):
            state = sample_state(view, self._draw)
            result = solve(state, None if contractor is not None else view.seat, nodes=nodes)
            if not result.exact:
                break  # too big a position for the budget: the deals solved so far decide
            solved += 1
            ours = view.seat in result.side
            sign = 1.0 if ours != misere else -1.0
            for play in legal:
                totals[play] += tie * sign * result.values[play]
            if scored is None:
                continue
            utility, counted = scored
            rest = mine if not ours else _other_side(rules, counted, state.partner)
            for play in legal:
                won = _won(view.tricks_won, counted, rest, remaining, result.values[play])
                totals[play] += utility(won, state.partner)
        if not solved:  # no deal solved within the budget: the play-outs choose, in the
            # decision's time that is left
            search = self._search()
            limit = self.time_limit
            if limit is not None:
                search.time_limit = max(0.2 * limit, limit - (time.perf_counter() - start))
            try:
                action = search.choose(view)
            finally:
                search.time_limit = limit
            assert isinstance(action, Play)
            return action
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


def _won(before: Sequence[int], counted: int, rest: int, remaining: int, tricks: int) -> list[int]:
    """The hand's tricks per side: ``before``, plus ``tricks`` of the ``remaining`` to the
    counted side and the others to ``rest``."""
    won = list(before)
    won[counted] += tricks
    won[rest] += remaining - tricks
    return won


def _other_side(rules: Rules, counted: int, partner: int | None) -> int:
    """A side that is neither the contracting side nor the side of ``partner`` (the
    five-player partner's seat): who of the coalition takes the tricks does not change
    the contracting side's value."""
    partner_side = None if partner is None else rules.side_of(partner)
    return next(side for side in range(len(rules.sides)) if side not in (counted, partner_side))
