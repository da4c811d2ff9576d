"""The search benchmarks run and report sane figures (no timing is asserted)."""

from __future__ import annotations

import doctest

import pytest

from benchmarks import bench_search
from benchmarks.results import BenchConfig

ONE = BenchConfig(seconds=0.001, seed=3, rounds=2)


def test_sampling_is_measured_in_playouts_with_its_levels() -> None:
    (result,) = bench_search.measure_sampling(ONE, {})
    assert result.name == "sampling" and result.skipped is None
    deal = result.figure("sample_deal_playouts")
    assert deal.value > 0 and len(deal.rounds) == 2
    assert (deal.target, deal.must, deal.lower_is_better) == (5.0, 8.0, True)
    assert result.figure("sample_deals_playouts").must == 8.0
    assert result.figure("playout_us").value > 0 and result.figure("playout_us").target is None


def test_ismcts_and_its_operations_are_measured_beside_euchre(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("numpy")
    monkeypatch.setattr(bench_search, "OPERATION_STATES", 3)
    monkeypatch.setattr(bench_search, "RESAMPLES", 2)
    monkeypatch.setattr(bench_search, "ISMCTS_SIMULATIONS", 3)
    (result,) = bench_search.measure_ismcts(ONE, {})
    assert result.skipped is None
    keys = {figure.key for figure in result.figures}
    for name in ("ismcts", "clone", "legal_actions", "resample"):
        ratio = result.figure(f"{name}_ratio")
        assert ratio.value > 0 and ratio.lower_is_better and ratio.must is not None
    assert {"clone_us", "euchre_clone_us", "euchre_ismcts_per_second"} <= keys
    assert result.figure("ismcts_ratio").must == 8.0
    assert result.figure("resample_ratio").target == 10.0


def test_ismcts_is_skipped_without_open_spiel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench_search, "_load_spiel", lambda: None)
    (result,) = bench_search.measure_ismcts(ONE, {})
    assert result.skipped is not None and "fivehundred[openspiel]" in result.skipped
    assert result.figures == ()


def test_decision_states_have_a_choice_and_are_repeatable() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("euchre")
    first = bench_search.spiel_states(game, 5, 4)
    assert first == bench_search.spiel_states(game, 5, 4) and len(first) == 4
    for history in first:
        state = game.new_initial_state()
        for action in history:
            state.apply_action(action)
        assert not state.is_chance_node() and len(state.legal_actions()) > 1


def test_bench_search_doctests_pass() -> None:
    results = doctest.testmod(bench_search, optionflags=doctest.ELLIPSIS, report=False)
    assert results.attempted > 0 and results.failed == 0
