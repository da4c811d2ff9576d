"""The PIMC player (``fivehundred.pimc.PIMCPlayer``): legal, deterministic choices.

Card play runs the real solver on late states (quick on the pure build); the
auction's bookkeeping is checked with the solver's answers replaced, since a
full hand per sampled deal and strain is slow without the compiled build.
"""

from __future__ import annotations

import random
from typing import Any

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


def test_pimc_bids_the_strain_the_solver_makes_R3(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[fh.Call] = []

    def fake_claim(state: fh.GameState, seat: int, tricks: int) -> bool:
        assert state.phase is fh.Phase.PLAY and state.contractor == seat
        contract = state.contract
        assert contract is not None
        made.append(contract)
        return contract.trump is fh.Suit.HEARTS

    class Forced:
        forced = True

    monkeypatch.setattr(pimc, "claim", fake_claim)
    monkeypatch.setattr(pimc, "solve", lambda state, *args, **kwargs: Forced())
    state = bidding(4)
    assert state.to_act is not None
    call = PIMCPlayer(random.Random(1), samples=2).choose(fh.observe(state, state.to_act))
    assert isinstance(call, fh.Call) and call.trump is fh.Suit.HEARTS
    assert fh.is_legal(state, call) and len(made) >= 8
    monkeypatch.setattr(pimc, "claim", lambda state, seat, tricks: False)
    again = PIMCPlayer(random.Random(1), samples=2, time_limit=0.0)
    assert again.choose(fh.observe(state, state.to_act)) == fh.PASS


def test_pimc_bids_misere_only_when_it_is_safe_R6(monkeypatch: pytest.MonkeyPatch) -> None:
    class Safe:
        forced = False

    def fake_solve(state: fh.GameState, *args: Any, **kwargs: Any) -> Safe:
        contract = state.contract
        assert contract is not None and contract.is_misere
        return Safe()

    monkeypatch.setattr(pimc, "claim", lambda state, seat, tricks: False)
    monkeypatch.setattr(pimc, "solve", fake_solve)
    for seed in range(20):
        state = bidding(seed)
        seat = state.to_act
        assert seat is not None
        while state.phase is fh.Phase.BIDDING and not any(
            isinstance(a, fh.Call) and a.is_misere for a in fh.legal_actions(state)
        ):  # bid up to where a misère may be called
            state = fh.apply(state, fh.legal_bids(state)[1])
        if state.phase is not fh.Phase.BIDDING:
            continue
        seat = state.to_act
        assert seat is not None
        call = PIMCPlayer(random.Random(1), samples=2).choose(fh.observe(state, seat))
        assert isinstance(call, fh.Call) and call.is_misere
        return
    pytest.fail("no auction reached a misère")  # pragma: no cover


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
