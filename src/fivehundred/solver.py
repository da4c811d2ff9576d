"""A double-dummy solver: the exact tricks of a hand in play when every card is known.

:func:`solve` answers, for a state in the play phase (a
:class:`~fivehundred.GameState` knows every hand), how many of the remaining
tricks the contracting side takes when every seat plays perfectly, and what
each legal action of the seat to act is worth. :func:`claim` answers a
claim: does a seat's side take at least so many of the remaining tricks
however the others play? Servers use it to validate a claim button; analysis
tools to say "you could have made 8" (see the how-to *Validate a claim and
analyse a hand*).

The model
---------

Two sides: the **counted side** and everyone else. By default the counted
side is the contracting side (the contractor and its partners; at five
players the contractor and its called partner, P5); every other seat plays
against it as one coalition, including at three and six players where there
are three or more sides. Each side plays to maximise its own count: the
contracting side its tricks, the coalition the contracting side's losses.

- **Misère** (R6): the contractor wants no trick, so the coalition maximises
  the contractor's tricks and the contractor minimises them. Without
  V-MISERE-PLAYOUT the hand ends at the contractor's first trick (so the count
  is 0 or 1); with it, every trick is played. :attr:`~fivehundred.solver.Solution.forced` tells
  whether the contractor can be forced to win a trick. Partners sitting out
  (R4.2) do not play.
- **V-ALL-PASS** (No Trumps with no contractor): there is no contracting side;
  pass ``seat=`` to count that seat's side against the rest, otherwise
  :func:`solve` raises :class:`ValueError`.
- ``seat=`` counts another seat's side (against everyone else, who minimise
  it); in a misère, counting a seat that is not on the contractor's side, the
  coalition still plays against the counted side (the claim reading).

Every rule of the play is the engine's own: what may be played and the Joker
leads and naming (R5.3, R7, V-JOKER-LEAD-LAST, V-JOKER-NAME-ANY), the trick's
winner (R5.4: bowers, the Joker in trumps, No Trumps, the nomination) and the
order of seats. The search is null-window alpha-beta on the trick count with a
transposition table at trick boundaries and touching cards counted once; it is
compiled with the engine core in the compiled build.

>>> import fivehundred as fh
>>> state = fh.deal(fh.new_game(dealer=3), seed=4)
>>> while state.phase is not fh.Phase.PLAY or len(state.hand(state.to_act)) > 4:
...     state = fh.apply(state, fh.legal_actions(state)[-1])
>>> result = solve(state)
>>> 0 <= result.tricks <= 4 and set(result.best) <= set(fh.legal_plays(state))
True
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from fivehundred._engine.dds import NAMES, Search
from fivehundred._engine.state import GameState, tricks_by_seat
from fivehundred._engine.values import Phase
from fivehundred.actions import Play
from fivehundred.engine import legal_plays
from fivehundred.errors import FiveHundredError, FiveHundredTypeError

__all__ = ["Solution", "claim", "solve"]


@attrs.frozen
class Solution:
    """What :func:`solve` found. Trick counts are of the counted side, from the
    state solved on (the trick in progress included).

    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), seed=4)
    >>> while state.phase is not fh.Phase.PLAY or len(state.hand(state.to_act)) > 2:
    ...     state = fh.apply(state, fh.legal_actions(state)[-1])
    >>> result = solve(state)
    >>> result.total == result.taken + result.tricks
    True
    >>> state.contractor in result.side, all(p in result.values for p in result.best)
    (True, True)

    Constructing one checks nothing and raises nothing: :func:`solve` makes it.
    """

    #: Tricks the counted side takes from here under best play by every side.
    tricks: int
    #: The seats of the counted side (the contracting side by default).
    side: frozenset[int]
    #: Tricks the counted side has already won this hand.
    taken: int
    #: In a misère counted for the contractor: whether the contractor can be forced
    #: to win a trick (the misère is lost against best defence). ``None`` otherwise.
    forced: bool | None
    #: The seat to act.
    seat: int
    #: The count after each legal action of the seat to act (empty when
    #: ``actions=False`` was asked; when not :attr:`exact`, only the actions valued
    #: before the budget ran out).
    values: Mapping[Play, int] = attrs.field(factory=dict)
    #: Whether the search finished: ``False`` when the ``nodes`` budget of :func:`solve`
    #: stopped it first. :attr:`tricks` is then the count proven so far, a lower bound of
    #: the exact count (and :attr:`forced` is ``True`` only if proven).
    exact: bool = True
    #: The upper bound proven for :attr:`tricks`: equal to it when the count is exact.
    high: int = attrs.field(default=attrs.Factory(lambda self: self.tricks, takes_self=True))
    #: Positions searched (the unit of the ``nodes`` budget of :func:`solve`).
    nodes: int = 0

    @property
    def total(self) -> int:
        """The counted side's tricks for the whole hand under best play."""
        return self.taken + self.tricks

    @property
    def best(self) -> tuple[Play, ...]:
        """The optimal actions of the seat to act (those whose count is :attr:`tricks`;
        when not :attr:`exact`, only among the actions valued)."""
        return tuple(play for play, value in self.values.items() if value == self.tricks)


def _check(state: object) -> GameState:
    if not isinstance(state, GameState):
        raise FiveHundredTypeError(f"expected a GameState, got {type(state).__name__}")
    if state.phase is not Phase.PLAY:
        raise FiveHundredError(
            f"the solver needs a state in the play phase, not {state.phase.name.lower()}"
        )
    return state


def _side(state: GameState, seat: int) -> int:
    """The seat mask of ``seat``'s side (at five players, the contractor and its partner)."""
    rules = state.rules
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < rules.players:
        raise FiveHundredError(f"seat {seat!r} is not a seat: seats are 0 to {rules.players - 1}")
    contractor = state.contractor
    partner = state.partner
    if rules.calls_partner and contractor is not None and seat in (contractor, partner):
        mask = 1 << contractor
        if partner is not None:
            mask |= 1 << partner
        return mask
    mask = 0
    for other in rules.sides[rules.side_of(seat)]:
        mask |= 1 << other
    return mask


def _search(state: GameState, seat: int | None) -> tuple[Search, int, bool]:
    contractor = state.contractor
    if seat is None:
        if contractor is None:
            raise FiveHundredError(
                "V-ALL-PASS: nobody contracted, so there is no contracting side;"
                " pass seat= to count a seat's side"
            )
        seat = contractor
    counted = _side(state, seat)
    everyone = (1 << state.rules.players) - 1
    contract = state.contract
    minimising = (
        contract is not None
        and contract.is_misere
        and contractor is not None
        and (counted >> contractor) & 1 == 1
    )
    maximisers = everyone & ~counted if minimising else counted
    return Search(state, counted, maximisers), counted, minimising


def _guess(state: GameState, counted: int, minimising: bool, taken: int, remaining: int) -> int:
    """Where the search starts (it is exact from any start; a good one saves searches):
    no trick for a misère's contractor, one more than the contract still needs for the
    contracting side (contracts are mostly made double-dummy), otherwise half."""
    if minimising:
        return 0
    contract = state.contract
    contractor = state.contractor
    if (
        contract is not None
        and contract.tricks
        and contractor is not None
        and (counted >> contractor) & 1
    ):
        return max(0, min(remaining, contract.tricks - taken + 1))
    return (remaining + 1) // 2


def solve(
    state: GameState,
    seat: int | None = None,
    *,
    actions: bool = True,
    nodes: int | None = None,
) -> Solution:
    """Solve a hand in play double-dummy: the exact tricks under best play.

    ``seat`` chooses the counted side (by default the contracting side; see the
    module's model). With ``actions`` (the default) every legal action of the
    seat to act is valued too (:attr:`~fivehundred.solver.Solution.values`,
    :attr:`~fivehundred.solver.Solution.best`); without it only the count is searched, which is
    quicker.

    ``nodes`` caps the positions searched (:attr:`~fivehundred.solver.Solution.nodes`
    counts them; the reference page gives the cost by tricks left). A search that
    reaches the cap stops and returns what it has proven, marked
    ``exact=False``: the count as a range (:attr:`~fivehundred.solver.Solution.tricks`
    to :attr:`~fivehundred.solver.Solution.high`) and the actions valued so far. A
    search that finishes within the cap returns the same solution as without one.

    Raises :class:`~fivehundred.FiveHundredError` (a :class:`ValueError`) outside
    the play phase, for a seat that is not at the table, for a V-ALL-PASS hand
    without ``seat`` and for a ``nodes`` budget below 1; :class:`TypeError` when
    ``state`` is not a game state or ``nodes`` is not a whole number.

    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), seed=4)
    >>> while state.phase is not fh.Phase.PLAY or len(state.hand(state.to_act)) > 3:
    ...     state = fh.apply(state, fh.legal_actions(state)[-1])
    >>> result = solve(state)
    >>> 0 <= result.tricks <= 3, set(result.values) == set(fh.legal_plays(state))
    (True, True)
    """
    return solve_in_hand(state, seat, actions=actions, nodes=nodes)


class HandMemory:
    """What the searches of one hand may share: the transposition table and the best
    moves found (see :func:`solve_in_hand`). Its entries are bounds on the tricks from a trick
    boundary for one counted side, so they hold for every position of the hand."""

    def __init__(self, limit: int = 1_000_000) -> None:
        #: The entries kept at most: past it, the memory starts afresh.
        self.limit = limit
        self.owner: tuple[object, int, int] | None = None
        self.tt: dict[tuple[int, int, int, int, int, int], int] = {}
        self.best: dict[int, int] = {}


def _budget(nodes: object) -> None:
    if nodes is not None:
        if not isinstance(nodes, int) or isinstance(nodes, bool):
            raise FiveHundredTypeError(f"nodes must be a whole number of positions, not {nodes!r}")
        if nodes < 1:
            raise FiveHundredError(f"nodes={nodes}: a search budget is at least 1 position")


def _share(
    state: GameState, search: Search, counted: int, memory: HandMemory | None, nodes: int | None
) -> int:
    """Give ``search`` the hand's ``memory`` (afresh if it is another hand's or side's,
    or full) and the ``nodes`` budget; the tricks the counted side has taken."""
    if memory is not None:
        owner = (search.ctx, counted, search.maximisers)
        if memory.owner != owner or len(memory.tt) > memory.limit:
            memory.owner, memory.tt, memory.best = owner, {}, {}
        search.tt, search.best = memory.tt, memory.best
    if nodes is not None:
        search.limit = nodes
    taken = 0
    won = tricks_by_seat(state)
    for other in range(state.rules.players):
        if (counted >> other) & 1:
            taken += won[other]
    return taken


def solve_in_hand(
    state: GameState,
    seat: int | None = None,
    *,
    actions: bool = True,
    nodes: int | None = None,
    memory: HandMemory | None = None,
) -> Solution:
    """:func:`solve`, sharing ``memory`` with the earlier searches of the same hand (and
    counted side): a review solving every card of a hand searches each boundary once.
    A memory from another hand or side is started afresh, so it is never wrong."""
    state = _check(state)
    _budget(nodes)
    search, counted, minimising = _search(state, seat)
    taken = _share(state, search, counted, memory, nodes)
    remaining = search.remaining()
    value, high = search.bounds(
        -1, 0, remaining, _guess(state, counted, minimising, taken, remaining)
    )
    values: dict[Play, int] = {}
    if actions and not search.stopped:
        reps = search.root_moves()
        worth: dict[int, int] = {}
        for move in reps:
            low, _ = search.bounds(move, 0, remaining, value)
            if search.stopped:
                break
            worth[move] = low
        masks = {move: search.equivalent(move) for move in worth}
        pos_of = search.pos_of
        for play in legal_plays(state):
            pos = pos_of[play.card.index]
            named = -1 if play.suit is None else int(play.suit)
            for move, count in worth.items():
                if move % NAMES - 1 == named and (masks[move] >> pos) & 1:
                    values[play] = count
                    break
    sides = frozenset(s for s in range(state.rules.players) if (counted >> s) & 1)
    return Solution(
        tricks=value,
        side=sides,
        taken=taken,
        forced=(value > 0) if minimising else None,
        seat=search.to_act,
        values=values,
        exact=not search.stopped,
        high=high,
        nodes=search.nodes,
    )


@attrs.frozen
class CardReview:
    """What :func:`review_card` found of one card played. Trick counts are of the
    counted side, from the state the card was played from, like :class:`Solution`'s."""

    #: Tricks the counted side takes from here after a best card of the seat to act.
    tricks: int
    #: After the card played.
    played: int
    #: After a worst card (the one costing the seat's side most).
    worst: int
    #: The seat to act's best cards (the card played among them when it is one).
    best: tuple[Play, ...]
    #: Its worst cards.
    worst_plays: tuple[Play, ...]
    #: Tricks the counted side has already won this hand.
    taken: int
    #: Whether the search finished within its ``nodes``; if not, nothing else holds.
    exact: bool = True
    #: Positions searched.
    nodes: int = 0


def review_card(
    state: GameState,
    play: Play,
    *,
    nodes: int | None = None,
    memory: HandMemory | None = None,
    guess: int | None = None,
) -> CardReview:
    """The counts a review of ``play`` needs: after the best card, after ``play`` and
    after the worst card, with the best and the worst cards; the same as
    :func:`solve_in_hand` gives, for less search (each other card is tested against
    the best and the worst found, not valued). ``guess`` is the count after ``play``
    if it is known (say from the next card's search): it is where the search starts,
    so a wrong one costs time but no exactness."""
    state = _check(state)
    _budget(nodes)
    search, counted, minimising = _search(state, None)
    taken = _share(state, search, counted, memory, nodes)
    if guess is None:
        guess = _guess(state, counted, minimising, taken, search.remaining())
    plays = legal_plays(state)
    reps = search.root_moves()
    masks = {move: search.equivalent(move) for move in reps}
    pos_of = search.pos_of

    def rep(one: Play) -> int:
        pos = pos_of[one.card.index]
        named = -1 if one.suit is None else int(one.suit)
        return next(m for m in reps if m % NAMES - 1 == named and (masks[m] >> pos) & 1)

    best, played, worst, best_moves, worst_moves = search.judge(rep(play), guess)
    return CardReview(
        tricks=best,
        played=played,
        worst=worst,
        best=tuple(p for p in plays if rep(p) in best_moves),
        worst_plays=tuple(p for p in plays if rep(p) in worst_moves),
        taken=taken,
        exact=not search.stopped,
        nodes=search.nodes,
    )


def claim(state: GameState, seat: int, tricks: int) -> bool:
    """Does ``seat``'s side take at least ``tricks`` of the remaining tricks against
    any play? (the trick in progress included)

    Every other seat is assumed to play against the claim, whatever its own
    interest, and the claimer's side to play its best: this is what a claim
    means at the table. To check a misère contractor's claim that it loses every
    remaining trick, ask ``not solve(state).forced``.

    Raises :class:`~fivehundred.FiveHundredError` outside the play phase and for a
    seat that is not at the table; :class:`TypeError` for a state that is not a
    game state or a trick count that is not a whole number.

    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), seed=4)
    >>> while state.phase is not fh.Phase.PLAY or len(state.hand(state.to_act)) > 4:
    ...     state = fh.apply(state, fh.legal_actions(state)[-1])
    >>> claim(state, state.to_act, 0), claim(state, state.to_act, 5)
    (True, False)
    """
    state = _check(state)
    counted = _side(state, seat)
    if not isinstance(tricks, int) or isinstance(tricks, bool):
        raise FiveHundredTypeError(f"tricks must be a whole number of tricks, not {tricks!r}")
    if tricks <= 0:
        return True
    search = Search(state, counted, counted)
    if tricks > search.remaining():
        return False
    return search.ge(search.to_act, tricks)
