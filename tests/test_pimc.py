"""The PIMC player (``fivehundred.pimc.PIMCPlayer``): legal, deterministic choices.

Card play runs the real solver on late states (quick on the pure build); the
auction's bookkeeping is checked with the solver's answers replaced, since a
full hand per sampled deal and strain is slow without the compiled build.
"""

from __future__ import annotations

import random

import pytest

import fivehundred as fh
from fivehundred import pimc
from fivehundred.bots import HeuristicPlayer
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
        def __init__(self, rng: random.Random) -> None:
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


def test_pimc_leaves_the_kitty_to_the_heuristic_and_checks_its_budget_R4() -> None:
    state = fh.apply(bidding(4), fh.parse_call("6S"))
    while state.phase is fh.Phase.BIDDING:
        state = fh.apply(state, fh.PASS)
    assert state.phase is fh.Phase.DISCARD and state.to_act is not None
    action = PIMCPlayer(random.Random(1)).choose(fh.observe(state, state.to_act))
    assert isinstance(action, fh.Discard) and fh.is_legal(state, action)
    with pytest.raises(fh.FiveHundredError, match="at least one"):
        PIMCPlayer(samples=0)
    with pytest.raises(fh.FiveHundredError, match="no action"):
        PIMCPlayer().choose(fh.observe(state, (state.to_act + 1) % 4))
    assert isinstance(make_player("pimc", random.Random(1), 8), PIMCPlayer)
