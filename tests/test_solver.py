"""The double-dummy solver (``fivehundred.solver.solve``, ``fivehundred.solver.claim``).

The reference is a plain minimax over ``fh.legal_plays`` and ``fh.apply``,
written here with no pruning and no shared code: the solver must agree with it
on random endings at every table size (2-6 players), in trumps, No Trumps with
Joker leads (R7.4, R7.5), misère (R6, R4.2 sitting out, V-MISERE-PLAYOUT),
V-JOKER-LEAD-LAST, V-JOKER-NAME-ANY and V-ALL-PASS. Set
``FIVEHUNDRED_SOLVER_MANY=1`` for the bigger run (thousands of endings of up
to four tricks; ``nox -s solver_many`` runs it on the compiled wheel).
"""

from __future__ import annotations

import os
import random
from typing import Final

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fivehundred as fh
from fivehundred import solver
from fivehundred._engine.simulate import simulation
from fivehundred._engine.state import hands_of, to_act
from fivehundred.bots import RandomPlayer
from fivehundred.solver import claim, solve

MANY: Final = bool(os.environ.get("FIVEHUNDRED_SOLVER_MANY"))
OPTIONS: Final = ("misere_playout", "joker_lead_last", "joker_name_any", "all_pass_no_trumps")


def random_rules(rng: random.Random, players: int) -> fh.Rules:
    chosen = {option: True for option in OPTIONS if rng.random() < 0.3}
    try:
        return fh.Rules.australian(players=players, **chosen)
    except (TypeError, ValueError):
        return fh.Rules(players=players)


def seat_of(state: fh.GameState) -> int:
    seat = state.to_act
    assert seat is not None
    return seat


def in_play(rules: fh.Rules, rng: random.Random, misere: bool = False) -> fh.GameState:
    """A random state at the first lead (random auction, or a misère when asked)."""
    for _ in range(1000):
        state = fh.deal(fh.new_game(rules, dealer=rng.randrange(rules.players)), rng=rng)
        player = RandomPlayer(rng)
        while state.phase not in (fh.Phase.PLAY, fh.Phase.DEAL):
            legal = fh.legal_actions(state)
            wanted = [a for a in legal if isinstance(a, fh.Call) and a.is_misere]
            if misere and wanted:
                state = fh.apply(state, wanted[0])
            else:
                state = fh.apply(state, player.choose(fh.observe(state, seat_of(state))))
        contract = state.contract
        if state.phase is fh.Phase.PLAY and (not misere or (contract and contract.is_misere)):
            return state
    raise AssertionError(f"no deal of 1000 reached the first lead{' in misère' if misere else ''}")


def ending(rng: random.Random, players: int, most: int, misere: bool = False) -> fh.GameState:
    """A random state with at most ``most`` tricks left, sometimes inside a trick."""
    for _ in range(1000):
        state = in_play(random_rules(rng, players), rng, misere)
        left = rng.randint(1, most)
        player = RandomPlayer(rng)
        while state.phase is fh.Phase.PLAY and len(state.hand(seat_of(state))) > left:
            state = fh.apply(state, player.choose(fh.observe(state, seat_of(state))))
        for _ in range(rng.randrange(3)):
            if state.phase is fh.Phase.PLAY:
                state = fh.apply(state, player.choose(fh.observe(state, seat_of(state))))
        if state.phase is fh.Phase.PLAY:
            return state
    raise AssertionError(f"no hand of 1000 was still in play with {most} tricks or fewer left")


def side_tricks(state: fh.GameState, counted: frozenset[int]) -> int:
    """Tricks the counted seats have taken this hand (the finished hand's record too)."""
    if state.phase is fh.Phase.PLAY:
        return sum(state.tricks_won_by_seat[seat] for seat in counted)
    last = state.last_hand
    assert last is not None
    rules = state.rules
    sides = {rules.side_of(seat) for seat in counted}
    return sum(last.tricks[side] for side in sides)


def position(state: fh.GameState) -> object:
    """What the rest of a hand in play depends on besides its contract: every hand, the
    trick so far, the suits led (R7.4) and the tricks each seat has won."""
    return (
        state.hands,
        state.trick,
        state.led_suit,
        state.suits_led,
        state.tricks_won_by_seat,
        state.to_act,
    )


def minimax(
    state: fh.GameState,
    counted: frozenset[int],
    maximisers: frozenset[int],
    memo: dict[object, int],
) -> int:
    """The counted seats' tricks for the rest of the hand, by plain minimax (every
    line searched; ``memo`` remembers the value of each position already met)."""
    if state.phase is not fh.Phase.PLAY:
        return side_tricks(state, counted)
    key = position(state)
    found = memo.get(key)
    if found is not None:
        return found
    seat = state.to_act
    assert seat is not None
    values = [
        minimax(fh.apply(state, play), counted, maximisers, memo) for play in fh.legal_plays(state)
    ]
    value = max(values) if seat in maximisers else min(values)
    memo[key] = value
    return value


def reference(state: fh.GameState, seat: int | None) -> tuple[int, dict[fh.Play, int]]:
    """The minimax count from ``state`` and after each legal play (as ``solve`` counts)."""
    result = solve(state, seat, actions=False)
    counted = result.side
    contract = state.contract
    everyone = frozenset(range(state.rules.players))
    misere = contract is not None and contract.is_misere and state.contractor in counted
    maximisers = everyone - counted if misere else counted
    before = side_tricks(state, counted)
    memo: dict[object, int] = {}
    after = {
        play: minimax(fh.apply(state, play), counted, maximisers, memo) - before
        for play in fh.legal_plays(state)
    }
    return minimax(state, counted, maximisers, memo) - before, after


def check_endings(seed: int, count: int, most: int) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        players = rng.randint(2, 6)
        state = ending(rng, players, most, misere=rng.random() < 0.25)
        seat = None if state.contractor is not None else state.to_act
        found = solve(state, seat)
        total, after = reference(state, seat)
        assert found.tricks == total, (state, found)
        assert dict(found.values) == after, (state, found)
        assert set(found.best) == {p for p, v in after.items() if v == total}


@pytest.mark.parametrize("seed", range(4))
def test_the_solver_agrees_with_plain_minimax_on_random_endings_R5_R6_R7(seed: int) -> None:
    check_endings(seed, 1500 if MANY else 40, 4 if MANY else 3)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_solver_agrees_with_minimax_at_every_table_size(players: int) -> None:
    rng = random.Random(players)
    for _ in range(400 if MANY else 20):
        state = ending(rng, players, 3, misere=rng.random() < 0.3)
        seat = None if state.contractor is not None else state.to_act
        assert solve(state, seat, actions=False).tricks == reference(state, seat)[0]


def test_a_misere_is_forced_when_the_contractor_must_win_a_trick_R6() -> None:
    rng = random.Random(11)
    seen = set()
    for _ in range(40):
        state = ending(rng, 4, 3, misere=True)
        result = solve(state)
        assert result.forced is not None
        assert result.forced == (result.tricks > 0)
        assert state.contractor in result.side
        seen.add(result.forced)
    assert seen == {True, False}


def play_line(state: fh.GameState) -> tuple[fh.GameState, int]:
    """Play the solver's line to the end (each seat takes an optimal action)."""
    first = solve(state)
    while state.phase is fh.Phase.PLAY:
        state = fh.apply(state, solve(state, None if state.contractor is not None else 0).best[0])
    return state, first.total


def test_the_optimal_line_played_out_achieves_the_count_R5() -> None:
    rng = random.Random(5)
    for _ in range(4):
        state = ending(rng, 4, 5)
        if state.contractor is None:
            continue
        counted = solve(state).side
        end, total = play_line(state)
        assert side_tricks(end, counted) == total


@pytest.mark.skipif(not (MANY or fh.COMPILED), reason="a full hand is slow on the pure build")
def test_a_full_hand_line_achieves_the_count() -> None:
    rng = random.Random(8)
    state = in_play(fh.Rules(), rng)
    counted = solve(state, actions=False).side
    end, total = play_line(state)
    assert side_tricks(end, counted) == total


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_a_made_contracts_line_makes_it_R8(seed: int) -> None:
    rng = random.Random(seed)
    state = ending(rng, 4, 3)
    contract = state.contract
    if contract is None or contract.is_misere:
        return
    end, total = play_line(state)
    last = end.last_hand
    assert last is not None
    assert last.made == (total >= (contract.tricks or 0))


def upgraded(state: fh.GameState, rng: random.Random) -> tuple[fh.GameState, int] | None:
    """The same position with one card of the counted side exchanged for a higher card
    of the same effective suit held by another seat (a pure upgrade), at a trick boundary."""
    h = state._h
    ctx = h.ctx
    assert ctx is not None
    counted = solve(state, actions=False).side
    hands = list(hands_of(state))
    pairs = []
    for mine in counted:
        for other in range(len(hands)):
            if other in counted:
                continue
            for low in range(h.t.size):
                if not (hands[mine] >> low) & 1 or ctx.suits[low] < 0:
                    continue
                for high in range(h.t.size):
                    same = ctx.suits[high] == ctx.suits[low]
                    if (hands[other] >> high) & 1 and same and ctx.power[high] > ctx.power[low]:
                        pairs.append((mine, other, low, high))
    if not pairs:
        return None
    mine, other, low, high = rng.choice(pairs)
    hands[mine] ^= (1 << low) | (1 << high)
    hands[other] ^= (1 << low) | (1 << high)
    done = sum(state.tricks_won_by_seat)
    twin = simulation(
        h.t,
        h.contract,
        h.contractor,
        h.joker_suit,
        h.partner,
        h.dealer,
        tuple(hands),
        (),
        to_act(state),
        -1,
        state._suits_led,
        done,
    )
    return twin, mine


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4, 6]))
def test_a_pure_upgrade_never_loses_a_trick(seed: int, players: int) -> None:
    rng = random.Random(seed)
    state = ending(rng, players, 4)
    while state.trick:
        state = fh.apply(state, fh.legal_plays(state)[0])
        if state.phase is not fh.Phase.PLAY:
            return
    contract = state.contract
    if contract is None or contract.is_misere:
        return
    made = upgraded(state, rng)
    if made is None:
        return
    twin, seat = made
    before = solve(state, seat, actions=False).tricks
    after = solve(twin, seat, actions=False).tricks
    assert after >= before


def test_a_claim_holds_exactly_up_to_the_solved_count() -> None:
    rng = random.Random(3)
    for _ in range(20):
        state = ending(rng, 4, 4)
        seat = state.to_act
        assert seat is not None
        best = solve(state, seat, actions=False)
        remaining = len(state.hand(seat))
        if state.contract is not None and state.contract.is_misere and seat == state.contractor:
            continue
        assert claim(state, seat, best.tricks)
        assert not claim(state, seat, best.tricks + 1) or best.tricks >= remaining
        assert claim(state, seat, 0)
        assert not claim(state, seat, remaining + 1)


def test_the_solver_refuses_what_it_cannot_solve() -> None:
    state = fh.deal(fh.new_game(dealer=0), seed=1)
    with pytest.raises(fh.FiveHundredError, match="play phase"):
        solve(state)
    with pytest.raises(TypeError, match="GameState"):
        solve(fh.observe(state, 0))  # type: ignore[arg-type]  # a view is not a state
    rules = fh.Rules(all_pass_no_trumps=True)
    passed = fh.deal(fh.new_game(rules, dealer=0), seed=1)
    while passed.phase is fh.Phase.BIDDING:
        passed = fh.apply(passed, fh.PASS)
    assert passed.contractor is None
    with pytest.raises(fh.FiveHundredError, match="V-ALL-PASS"):
        solve(passed)
    assert solve(passed, 0, actions=False).side == frozenset({0, 2})
    with pytest.raises(fh.FiveHundredError, match="seat 9"):
        claim(passed, 9, 1)
    with pytest.raises(fh.FiveHundredError, match="seat True"):
        claim(passed, True, 1)
    with pytest.raises(TypeError, match="whole number"):
        claim(passed, 0, 1.5)  # type: ignore[arg-type]  # a fraction of a trick


def test_solution_totals_and_exports() -> None:
    assert solve is solver.solve
    assert claim is solver.claim
    rng = random.Random(2)
    state = ending(rng, 4, 2)
    seat = None if state.contractor is not None else 0
    result = solve(state, seat)
    assert result.total == result.taken + result.tricks
    assert result.best and all(result.values[p] == result.tricks for p in result.best)


@pytest.mark.parametrize("seed", range(3))
def test_a_node_budget_holds_and_marks_what_it_proved_R5_R6(seed: int) -> None:
    """Within its budget a search gives the exact solution; short of it, at most that
    many positions, ``exact=False``, a range holding the exact count, and only exact
    action values."""
    rng = random.Random(seed)
    for _ in range(6):
        players = rng.randint(2, 6)
        state = ending(rng, players, 6, misere=rng.random() < 0.25)
        seat = None if state.contractor is not None else state.to_act
        full = solve(state, seat)
        assert full.exact and full.high == full.tricks and full.nodes >= 1
        assert solve(state, seat, nodes=full.nodes) == full
        assert solve(state, seat, nodes=10**9) == full
        for budget in sorted({1, 2, full.nodes // 3, full.nodes // 2, full.nodes - 1}):
            if budget < 1:
                continue
            cut = solve(state, seat, nodes=budget)
            assert cut.nodes <= budget, (budget, cut)
            assert not cut.exact, (budget, cut)
            assert cut.tricks <= full.tricks <= cut.high, (cut, full)
            assert cut.forced in (None, False) or full.forced
            assert all(full.values[play] == value for play, value in cut.values.items())
            assert set(cut.best) <= set(full.best)


def test_a_node_budget_cuts_a_whole_hand_short() -> None:
    """From the first lead a small budget stops the search well before its end."""
    state = in_play(fh.Rules(), random.Random(7))
    cut = solve(state, nodes=200)
    assert not cut.exact and cut.nodes == 200
    assert 0 <= cut.tricks <= cut.high <= 10
    count = solve(state, actions=False, nodes=200)
    assert count.nodes == 200 and not count.exact and not count.values


def test_a_node_budget_must_be_a_positive_whole_number() -> None:
    state = ending(random.Random(3), 4, 3)
    seat = None if state.contractor is not None else state.to_act
    with pytest.raises(fh.FiveHundredError, match="at least 1"):
        solve(state, seat, nodes=0)
    with pytest.raises(TypeError, match="whole number"):
        solve(state, seat, nodes=2.5)  # type: ignore[arg-type]  # a fraction of a position
    with pytest.raises(TypeError, match="whole number"):
        solve(state, seat, nodes=True)
