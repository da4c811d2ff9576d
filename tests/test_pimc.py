"""The PIMC player (``fivehundred.bots.pimc.PIMCPlayer``): legal, deterministic choices.

Card play runs the real solver on late states (quick on the pure build); the
scoring of solved outcomes and the kitty are checked with the solver's answers
replaced, since a full hand per sampled deal is slow without the compiled build.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import fivehundred as fh
from fivehundred import bots
from fivehundred.bots import HeuristicPlayer, SearchPlayer, pimc
from fivehundred.bots._utility import HandUtility
from fivehundred.bots.pimc import PIMCPlayer
from fivehundred.bots.tournament import make_player


def late(seed: int, left: int = 3) -> fh.GameState:
    state = fh.deal(fh.new_game(dealer=seed % 4), seed=seed)
    bot = HeuristicPlayer(random.Random(seed))
    while state.to_act is not None and (
        state.phase is not fh.Phase.PLAY or len(state.hand(state.to_act)) > left
    ):
        state = fh.apply(state, bot.choose(fh.observe(state, state.to_act)))
    return state


def bidding(seed: int) -> fh.GameState:
    return fh.deal(fh.new_game(dealer=3), seed=seed)


def test_pimc_plays_legal_cards_and_repeats_itself_given_its_seed_R5() -> None:
    for seed in range(6):
        state = late(seed)
        if state.phase is not fh.Phase.PLAY or state.to_act is None:
            continue
        view = fh.observe(state, state.to_act)
        first = PIMCPlayer(random.Random(seed), samples=3).choose(view)
        again = PIMCPlayer(random.Random(seed), samples=3).choose(view)
        assert fh.is_legal(state, first) and first == again


def test_pimc_with_a_time_limit_solves_at_least_one_deal() -> None:
    state = late(2)
    assert state.to_act is not None
    view = fh.observe(state, state.to_act)
    player = PIMCPlayer(random.Random(1), samples=50, time_limit=0.0)
    assert fh.is_legal(state, player.choose(view))


def test_pimc_plays_a_whole_hand_late_in_every_contract() -> None:
    played = 0
    for seed in range(5):
        state = late(seed, 2)
        while state.phase is fh.Phase.PLAY and state.to_act is not None:
            seat = state.to_act
            state = fh.apply(
                state,
                PIMCPlayer(random.Random(seed), samples=2).choose(fh.observe(state, seat)),
                seat=seat,
            )
            played += 1
    assert played > 5


def test_pimc_bids_as_the_search_player_does_R3(monkeypatch: pytest.MonkeyPatch) -> None:
    """The auction is the search player's, with ``playouts`` deals a decision and the
    same ``game_value``; with the default ``misere_risk`` nothing is solved for it."""

    def no_solve(state: fh.GameState, *args: object, **kwargs: object) -> None:
        raise AssertionError("the default auction solves no deal")

    monkeypatch.setattr(pimc, "solve", no_solve)
    checked = 0
    for seed in range(8):
        state = bidding(seed)
        while state.phase is fh.Phase.BIDDING and state.to_act is not None:
            view = fh.observe(state, state.to_act)
            game = (pimc.GAME_VALUE, 1000.0, 40.0)[seed % 3]
            mine = PIMCPlayer(random.Random(seed), playouts=3, game_value=game).choose(view)
            theirs = SearchPlayer(random.Random(seed), 3, game_value=game).choose(view)
            assert mine == theirs and fh.is_legal(state, mine)
            checked += 1
            state = fh.apply(state, mine)
    assert checked > 8


def first_nomination() -> fh.GameState:
    """A state where the contractor may nominate the Joker's suit (R4.3, R7.1)."""
    for seed in range(400):
        state = bidding(seed)
        bot = HeuristicPlayer(random.Random(seed))
        while state.phase in (fh.Phase.BIDDING, fh.Phase.DISCARD) and state.to_act is not None:
            state = fh.apply(state, bot.choose(fh.observe(state, state.to_act)))
        legal = fh.legal_actions(state)
        if len(legal) > 1 and all(isinstance(a, fh.Nominate) for a in legal):
            return state
    raise AssertionError("no nomination in 400 heuristic deals")  # pragma: no cover


def test_pimc_nominates_as_the_search_player_does_R4_3() -> None:
    state = first_nomination()
    assert state.to_act is not None
    view = fh.observe(state, state.to_act)
    mine = PIMCPlayer(random.Random(2), playouts=3).choose(view)
    assert isinstance(mine, fh.Nominate) and fh.is_legal(state, mine)
    assert mine == SearchPlayer(random.Random(2), 3).choose(view)


class Solved:
    """A stand-in for :class:`fivehundred.Solution`: the values of the legal cards."""

    def __init__(self, values: dict[fh.Play, int], side: frozenset[int]) -> None:
        self.values = values
        self.side = side
        self.tricks = max(values.values())
        self.forced = None
        self.exact = True


def contractor_to_play() -> tuple[fh.GameState, int]:
    """A late state where the contractor of a trick contract plays, with two cards to
    choose from, and still needs one or two of the three tricks left."""
    for seed in range(300):
        state = late(seed, 3)
        contract, seat = state.contract, state.to_act
        if contract is None or contract.is_misere or seat is None or seat != state.contractor:
            continue
        side = state.rules.side_of(seat)
        need = (contract.tricks or 0) - state.tricks_won[side]
        if 1 <= need <= 2 and len(fh.legal_plays(state)) >= 2 and len(state.hand(seat)) == 3:
            return state, need
    raise AssertionError("no such state in 300 deals")  # pragma: no cover


def test_pimc_plays_for_the_contract_not_for_tricks_R8(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card that makes the contract in every sample beats one that takes more tricks
    on average but fails in some: the solved outcomes are scored, not counted."""
    state, need = contractor_to_play()
    seat = state.to_act
    assert seat is not None
    safe, risky = fh.legal_plays(state)[:2]
    side = frozenset(s for s in range(4) if state.rules.side_of(s) == state.rules.side_of(seat))
    calls = iter(range(100))

    def fake_solve(sample: fh.GameState, *args: object, **kwargs: object) -> Solved:
        assert sample.phase is fh.Phase.PLAY and sample.hand(seat) == state.hand(seat)
        values = dict.fromkeys(fh.legal_plays(state), 0)
        values[safe] = need  # always exactly enough
        values[risky] = 3 if next(calls) % 2 == 0 else need - 1  # more, or one short
        return Solved(values, side)

    monkeypatch.setattr(pimc, "solve", fake_solve)
    games: list[float | None] = []

    def utility(*args: Any) -> HandUtility:
        games.append(args[3])  # the game's worth reaches the scoring of the solved deals
        return HandUtility(*args)

    monkeypatch.setattr(pimc, "HandUtility", utility)
    view = fh.observe(state, seat)
    assert PIMCPlayer(random.Random(1), samples=2).choose(view) == safe
    assert PIMCPlayer(random.Random(1), samples=2, game_value=1000.0).choose(view) == safe
    assert pimc.GAME_VALUE is None and games == [None, 1000.0]
    # counted in tricks the risky card wins on average (3 + need - 1 > 2 * need): the
    # tutorial's pimc_card would play it
    assert 3 + need - 1 > 2 * need


def test_pimc_leaves_early_card_play_to_the_play_outs_before_solve_tricks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = late(3, 3)
    seat = state.to_act
    assert seat is not None and len(state.hand(seat)) == 3
    view = fh.observe(state, seat)

    def no_solve(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved although solve_tricks is below the tricks left")

    monkeypatch.setattr(pimc, "solve", no_solve)
    mine = PIMCPlayer(random.Random(5), playouts=3, solve_tricks=2).choose(view)
    assert mine == SearchPlayer(random.Random(5), 3).choose(view) and fh.is_legal(state, mine)
    # by default: seven tricks under a time limit, every trick without one
    early = late(3, 8)
    seat = early.to_act
    assert seat is not None and len(early.hand(seat)) == 8
    view = fh.observe(early, seat)
    timed = PIMCPlayer(random.Random(5), playouts=3, time_limit=0.01).choose(view)
    assert fh.is_legal(early, timed)
    solved: list[fh.GameState] = []

    def counting_solve(sample: fh.GameState, *args: object, **kwargs: object) -> Solved:
        solved.append(sample)
        return Solved(dict.fromkeys(fh.legal_plays(early), 1), frozenset({seat}))

    monkeypatch.setattr(pimc, "solve", counting_solve)
    assert fh.is_legal(early, PIMCPlayer(random.Random(5), samples=2).choose(view))
    assert len(solved) == 2


def bids(state: fh.GameState) -> list[fh.Call]:
    return [a for a in fh.legal_actions(state) if isinstance(a, fh.Call)]


def won_the_auction(*calls: str) -> fh.GameState:
    state = bidding(4)
    for call in calls:
        state = fh.apply(state, fh.parse_call(call))
    while state.phase is fh.Phase.BIDDING:
        state = fh.apply(state, fh.PASS)
    assert state.phase is fh.Phase.DISCARD and state.to_act is not None
    return state


def test_pimc_keeps_the_discard_that_solves_best_R4(monkeypatch: pytest.MonkeyPatch) -> None:
    state = won_the_auction("6S")
    assert state.to_act is not None
    view = fh.observe(state, state.to_act)
    options = bots.ranked_discards(view, 3)
    wanted = options[2]  # the heuristic's third choice, made the solver's favourite

    class Result:
        def __init__(self, tricks: int) -> None:
            self.tricks = tricks
            self.forced = None

    def fake_solve(state: fh.GameState, *args: object, **kwargs: object) -> Result:
        assert state.phase is fh.Phase.PLAY and kwargs == {"actions": False}
        return Result(7 if set(wanted.cards) <= set(state.discards) else 5)

    monkeypatch.setattr(pimc, "solve", fake_solve)
    action = PIMCPlayer(random.Random(1), samples=2).choose(view)
    assert action == wanted and fh.is_legal(state, action)
    one = PIMCPlayer(random.Random(1), samples=2, discards=1).choose(view)
    assert one == options[0]  # one option: nothing to solve


def test_pimc_keeps_the_discard_that_scores_best_not_the_most_tricks_R4_R8(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A discard that makes 6S in every deal beats one that averages more tricks but
    fails in half the deals: solved outcomes are scored (R8), as in card play."""
    state = won_the_auction("6S")
    assert state.to_act is not None
    view = fh.observe(state, state.to_act)
    safe, risky = bots.ranked_discards(view, 2)
    risky_counts = iter((9, 5))

    class Result:
        def __init__(self, tricks: int) -> None:
            self.tricks = tricks
            self.forced = None

    def fake_solve(state: fh.GameState, *args: object, **kwargs: object) -> Result:
        if set(risky.cards) <= set(state.discards):
            return Result(next(risky_counts))
        return Result(6)

    monkeypatch.setattr(pimc, "solve", fake_solve)
    # 7 tricks on average against 6, but scored (6S is 40, a defender's trick 10):
    # (40 - 10) + (-40 - 50) for the risky discard < 2 * (40 - 40) for the safe one
    assert PIMCPlayer(random.Random(1), samples=2, discards=2).choose(view) == safe


def test_pimc_leaves_the_kitty_to_the_play_outs_under_a_time_limit_R4(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = won_the_auction("6S")
    assert state.to_act is not None
    view = fh.observe(state, state.to_act)
    assert len(view.hand) == 10

    def no_solve(*args: object, **kwargs: object) -> None:
        raise AssertionError("a whole hand solved under a time limit")

    with monkeypatch.context() as patch:
        patch.setattr(pimc, "solve", no_solve)
        timed = PIMCPlayer(random.Random(2), playouts=4, time_limit=60.0).choose(view)
        early = PIMCPlayer(random.Random(2), playouts=4, solve_tricks=9).choose(view)
    search = SearchPlayer(random.Random(2), 4, time_limit=60.0).choose(view)
    assert timed == early == search and fh.is_legal(state, timed)
    # within solve_tricks, under a time limit too, the kitty is solved
    solved: list[fh.GameState] = []

    class Result:
        tricks = 6
        forced = None

    def counting_solve(sample: fh.GameState, *args: object, **kwargs: object) -> Result:
        solved.append(sample)
        return Result()

    monkeypatch.setattr(pimc, "solve", counting_solve)
    player = PIMCPlayer(random.Random(2), samples=1, solve_tricks=10, time_limit=60.0)
    assert fh.is_legal(state, player.choose(view)) and len(solved) == 3


def test_pimc_keeps_the_misere_discard_least_often_forced_R4_R6(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = won_the_auction("7S", "M")
    assert state.to_act is not None
    view = fh.observe(state, state.to_act)
    options = bots.ranked_discards(view, 2)

    class Result:
        def __init__(self, forced: bool) -> None:
            self.tricks = 0
            self.forced = forced

    monkeypatch.setattr(
        pimc,
        "solve",
        lambda state, *a, **k: Result(not set(options[1].cards) <= set(state.discards)),
    )
    assert PIMCPlayer(random.Random(1), samples=2, discards=2).choose(view) == options[1]


def test_pimc_bids_a_misere_only_if_the_solved_deals_rarely_force_it_R6(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Misère safety from solved deals: the search player's favourite call is an open
    misère, and the player bids it only if the contractor is forced to win a trick in
    at most ``misere_risk`` of them; otherwise it bids the next best call."""
    state = bidding(4)
    assert state.to_act is not None
    view = fh.observe(state, state.to_act)
    legal = [a for a in fh.legal_actions(state) if isinstance(a, fh.Call)]
    open_misere = next(c for c in legal if c.kind is fh.CallKind.OPEN_MISERE)
    six = fh.parse_call("6S")
    values = [(fh.PASS, 0.0), (six, 40.0), (open_misere, 90.0)]

    def call_values(self: SearchPlayer, view: fh.PlayerView) -> list[tuple[fh.Call, float]]:
        time.sleep(self.time_limit or 0.0)  # the play-outs use the decision's time
        return values

    monkeypatch.setattr(SearchPlayer, "call_values", call_values)
    solved: list[fh.GameState] = []

    class Result:
        tricks = 0

        def __init__(self, forced: bool) -> None:
            self.forced = forced

    def bid(forced: int, risk: float = 0.5, limit: float | None = None) -> fh.Call:
        """The call when the contractor is forced in the first ``forced`` of four deals."""
        solved.clear()

        def fake_solve(state: fh.GameState, *args: object, **kwargs: object) -> Result:
            solved.append(state)
            return Result(len(solved) <= forced)

        monkeypatch.setattr(pimc, "solve", fake_solve)
        player = PIMCPlayer(random.Random(1), samples=4, misere_risk=risk, time_limit=limit)
        call = player.choose(view)
        assert isinstance(call, fh.Call) and fh.is_legal(state, call)
        return call

    assert bid(0) == open_misere
    # each deal is solved from the first lead of the misère, the kitty taken (R4, R4.2)
    assert len(solved) == 4
    assert all(s.phase is fh.Phase.PLAY and s.contract == open_misere for s in solved)
    assert all(s.contractor == view.seat and len(s.hand(view.seat)) == 10 for s in solved)
    assert bid(2) == open_misere  # forced in half the deals, the most a risk of 0.5 takes
    assert bid(3) == six
    assert bid(1, risk=0.25) == open_misere
    assert bid(2, risk=0.25) == six
    assert bid(1, risk=0.0) == six
    # the default takes the search player's own call, and solves nothing for it
    assert pimc.MISERE_RISK == 1.0
    own = SearchPlayer(random.Random(1), 16, game_value=pimc.GAME_VALUE).choose(view)
    assert bid(4, risk=pimc.MISERE_RISK) == own and not solved
    # the play-outs used the decision's time: the check still solves one deal
    assert bid(1, limit=0.05) == six and len(solved) == 1
    assert bid(0, limit=0.05) == open_misere and len(solved) == 1
    values[1] = (six, 95.0)  # the bid is the favourite: no misère is solved
    assert bid(4) == six
    assert not solved


def test_pimc_checks_its_budget_and_its_turn() -> None:
    state = won_the_auction("6S")
    assert state.to_act is not None
    for name in ("samples", "playouts", "discards", "solve_tricks"):
        with pytest.raises(fh.FiveHundredError, match=f"{name}=0: the player needs at least 1"):
            PIMCPlayer(**{name: 0})  # type: ignore[arg-type]  # each count in turn
        for wrong in (2.5, "3", True):
            with pytest.raises(fh.FiveHundredTypeError, match=f"{name} must be a whole number"):
                PIMCPlayer(**{name: wrong})  # type: ignore[arg-type]  # a wrong type on purpose
    for share in (-0.1, 1.5, float("nan")):
        with pytest.raises(fh.FiveHundredError, match=r"misere_risk=.*from 0 to 1"):
            PIMCPlayer(misere_risk=share)
    with pytest.raises(fh.FiveHundredTypeError, match="misere_risk must be a number"):
        PIMCPlayer(misere_risk="0.2")  # type: ignore[arg-type]  # a wrong type on purpose
    with pytest.raises(fh.FiveHundredError, match="game_value=-5: a game is worth"):
        PIMCPlayer(game_value=-5)
    with pytest.raises(fh.FiveHundredTypeError, match="game_value must be a number or None"):
        PIMCPlayer(game_value="500")  # type: ignore[arg-type]  # a wrong type on purpose
    assert PIMCPlayer(game_value=None).game_value is None
    with pytest.raises(fh.FiveHundredError, match="no action"):
        PIMCPlayer().choose(fh.observe(state, (state.to_act + 1) % 4))
    player = make_player("pimc", random.Random(1), 8)
    assert isinstance(player, PIMCPlayer) and (player.samples, player.playouts) == (2, 8)
