"""The PIMC player (``fivehundred.pimc.PIMCPlayer``): legal, deterministic choices.

Card play runs the real solver on late states (quick on the pure build); the
auction's bookkeeping is checked with the solver's answers replaced, since a
full hand per sampled deal and strain is slow without the compiled build.
"""

from __future__ import annotations

import random

import pytest

import fivehundred as fh
from fivehundred import bots, pimc
from fivehundred.bots import HeuristicPlayer, choose_bid
from fivehundred.pimc import PIMCPlayer
from fivehundred.tournament import make_player


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


def proposing(seed: int) -> tuple[fh.GameState, fh.Call]:
    """A bidding state in which the heuristic player would bid, and that bid."""
    for offset in range(200):
        state = bidding(seed + offset)
        seat = state.to_act
        assert seat is not None
        proposal = HeuristicPlayer(random.Random(0)).choose(fh.observe(state, seat))
        if isinstance(proposal, fh.Call) and proposal.is_bid and not proposal.is_misere:
            return state, proposal
    raise AssertionError("no deal in 200 where the heuristic player bids")  # pragma: no cover


def test_pimc_bids_the_heuristic_call_when_the_solver_makes_it_R3(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[fh.Call] = []

    def fake_claim(state: fh.GameState, seat: int, tricks: int) -> bool:
        assert state.phase is fh.Phase.PLAY and state.contractor == seat
        contract = state.contract
        assert contract is not None and tricks == contract.tricks
        asked.append(contract)
        return True

    monkeypatch.setattr(pimc, "claim", fake_claim)
    state, proposal = proposing(4)
    seat = state.to_act
    assert seat is not None
    call = PIMCPlayer(random.Random(1), samples=3).choose(fh.observe(state, seat))
    assert call == proposal and fh.is_legal(state, call)
    assert asked == [proposal] * 3  # one solved deal per sample, of that contract only
    # made in no sample: the bid is vetoed
    monkeypatch.setattr(pimc, "claim", lambda state, seat, tricks: False)
    again = PIMCPlayer(random.Random(1), samples=2, time_limit=0.0)
    assert again.choose(fh.observe(state, seat)) == fh.PASS
    # made in half the samples, under a confidence of 0.6: still vetoed
    answers = iter([True, False, True, False])
    monkeypatch.setattr(pimc, "claim", lambda state, seat, tricks: next(answers))
    doubtful = PIMCPlayer(random.Random(1), samples=4, confidence=0.6)
    assert doubtful.choose(fh.observe(state, seat)) == fh.PASS


def test_pimc_passes_when_the_heuristic_would_R3(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pimc, "claim", lambda state, seat, tricks: True)  # every bid "made"
    for seed in range(200):
        state = bidding(seed)
        seat = state.to_act
        assert seat is not None
        view = fh.observe(state, seat)
        if HeuristicPlayer(random.Random(0)).choose(view) == fh.PASS:
            assert PIMCPlayer(random.Random(1), samples=2).choose(view) == fh.PASS
            return
    pytest.fail("no deal in 200 where the heuristic player passes")  # pragma: no cover


def test_pimc_bids_misere_only_when_it_is_safe_R6(monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(20):
        state = bidding(seed)
        while state.phase is fh.Phase.BIDDING and not any(
            isinstance(a, fh.Call) and a.is_misere for a in fh.legal_actions(state)
        ):  # bid up to where a misère may be called
            state = fh.apply(state, fh.legal_bids(state)[1])
        if state.phase is fh.Phase.BIDDING:
            break
    else:  # pragma: no cover
        pytest.fail("no auction reached a misère")
    seat = state.to_act
    assert seat is not None
    misere = next(a for a in fh.legal_bids(state) if a.is_misere)

    class Proposes:
        def __init__(self, rng: random.Random, boldness: float = 0.0) -> None:
            self.rng = rng

        def choose(self, view: fh.PlayerView) -> fh.Action:
            return misere if view.phase is fh.Phase.BIDDING else HeuristicPlayer().choose(view)

    class Result:
        def __init__(self, forced: bool) -> None:
            self.forced = forced

    monkeypatch.setattr(pimc, "HeuristicPlayer", Proposes)
    monkeypatch.setattr(pimc, "solve", lambda state, *args, **kwargs: Result(False))
    view = fh.observe(state, seat)
    assert PIMCPlayer(random.Random(1), samples=2).choose(view) == misere
    monkeypatch.setattr(pimc, "solve", lambda state, *args, **kwargs: Result(True))
    assert PIMCPlayer(random.Random(1), samples=2).choose(view) == fh.PASS


def test_pimc_bids_the_boldest_proposal_the_samples_make_R3(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for seed in range(200):
        state = bidding(seed)
        seat = state.to_act
        assert seat is not None
        view = fh.observe(state, seat)
        bold = HeuristicPlayer(random.Random(0), boldness=2.0).choose(view)
        if isinstance(bold, fh.Call) and bold.is_bid and choose_bid(view, bids(state)) == fh.PASS:
            break
    else:  # pragma: no cover
        pytest.fail("no deal in 200 where only a bolder heuristic player bids")
    player = PIMCPlayer(random.Random(1), samples=2, proposals=(2.0, 0.0))
    monkeypatch.setattr(pimc, "claim", lambda state, seat, tricks: True)
    assert player.choose(view) == bold  # made: the bolder bid
    monkeypatch.setattr(pimc, "claim", lambda state, seat, tricks: False)
    assert player.choose(view) == fh.PASS  # not made, and the cautious proposal passes
    assert PIMCPlayer(random.Random(1), samples=2).choose(view) == fh.PASS  # the default


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


def test_pimc_checks_its_budget_and_its_turn() -> None:
    state = won_the_auction("6S")
    assert state.to_act is not None
    with pytest.raises(fh.FiveHundredError, match="at least one"):
        PIMCPlayer(samples=0)
    with pytest.raises(fh.FiveHundredError, match="at least one discard"):
        PIMCPlayer(discards=0)
    with pytest.raises(fh.FiveHundredTypeError, match="whole number"):
        PIMCPlayer(discards=2.5)  # type: ignore[arg-type]  # a wrong type on purpose
    for proposals in ((), [1.0], ("bold",), (True,)):
        with pytest.raises(fh.FiveHundredTypeError, match="boldness"):
            PIMCPlayer(proposals=proposals)  # type: ignore[arg-type]  # wrong on purpose
    with pytest.raises(fh.FiveHundredError, match="no action"):
        PIMCPlayer().choose(fh.observe(state, (state.to_act + 1) % 4))
    assert isinstance(make_player("pimc", random.Random(1), 8), PIMCPlayer)
