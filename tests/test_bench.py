"""The benchmark suite runs and reports sane figures (no timing is asserted)."""

from __future__ import annotations

import json
import random
import sys
import types
from collections.abc import Mapping

import pytest

import fivehundred as fh
from fivehundred import bench

TINY = bench.BenchConfig(seconds=0.05, seed=11)


# -- a stand-in for pyspiel, so the euchre comparison is covered without open_spiel --


class FakeEuchreState:
    """Two chance nodes (the deal), then three player moves, then terminal."""

    def __init__(self) -> None:
        self.history: list[int] = []

    def is_terminal(self) -> bool:
        return len(self.history) == 5

    def is_chance_node(self) -> bool:
        return len(self.history) < 2

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.25), (1, 0.75)]

    def legal_actions(self) -> list[int]:
        return [2, 3, 4]

    def apply_action(self, action: int) -> None:
        allowed = [a for a, _ in self.chance_outcomes()] if self.is_chance_node() else [2, 3, 4]
        assert action in allowed
        self.history.append(action)


class FakeGame:
    def new_initial_state(self) -> FakeEuchreState:
        return FakeEuchreState()


class FakePyspiel(types.ModuleType):
    def __init__(self) -> None:
        super().__init__("pyspiel")
        self.loaded: list[str] = []

    def load_game(self, name: str) -> FakeGame:
        self.loaded.append(name)
        return FakeGame()


@pytest.fixture
def fake_pyspiel(monkeypatch: pytest.MonkeyPatch) -> FakePyspiel:
    fake = FakePyspiel()
    monkeypatch.setattr(bench, "_load_pyspiel", lambda: fake)
    return fake


@pytest.fixture
def no_pyspiel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "_load_pyspiel", lambda: None)


# -- collecting states ---------------------------------------------------------


def test_random_hands_yield_legal_steps_of_whole_hands() -> None:
    hands = bench.random_hands(random.Random(3))
    for _ in range(3):
        hand = next(hands)
        assert hand[0][0].phase is fh.Phase.BIDDING
        for state, action in hand:
            assert fh.is_legal(state, action)
        last, action = hand[-1]
        assert fh.apply(last, action).phase in (fh.Phase.DEAL, fh.Phase.GAME_OVER)


def test_play_states_are_mid_play_and_repeatable() -> None:
    states = bench.collect_play_states(5, count=40)
    assert len(states) == 40
    assert all(state.phase is fh.Phase.PLAY and fh.legal_plays(state) for state in states)
    assert states == bench.collect_play_states(5, count=40)
    assert states != bench.collect_play_states(6, count=40)


def test_apply_pairs_cover_the_phases_of_whole_hands() -> None:
    pairs = bench.collect_apply_pairs(5, hands=4)
    assert (
        sum(1 for state, _ in pairs if state.phase is fh.Phase.BIDDING and not state.auction) == 4
    )
    assert {fh.Phase.BIDDING, fh.Phase.PLAY} <= {state.phase for state, _ in pairs}
    assert pairs == bench.collect_apply_pairs(5, hands=4)


# -- the measurements ------------------------------------------------------------


def test_random_hands_figures_are_positive() -> None:
    result = bench.measure_random_hands(TINY, {})
    assert result.name == "random_hands" and result.skipped is None
    assert result.count > 0 and result.elapsed > 0
    hands = result.figure("hands_per_second")
    assert hands.value > 0 and hands.target == bench.HANDS_PER_SECOND_TARGET
    assert result.figure("actions_per_second").value > hands.value
    assert result.figure("us_per_action").value > 0
    assert result.figure("actions_per_hand").value >= 4  # at least four passes


def test_random_hands_for_other_rules_takes_its_own_name() -> None:
    measure = bench.make_random_hands(fh.Rules(), name="random_hands_p4", title="four players")
    result = measure(TINY, {})
    assert (result.name, result.title) == ("random_hands_p4", "four players")
    assert result.figure("hands_per_second").value > 0


def test_legal_plays_figures_are_positive() -> None:
    result = bench.measure_legal_plays(TINY, {})
    assert result.count >= 2 * bench.PLAY_STATES
    assert result.figure("calls_per_second").value > 0
    assert result.figure("us_per_call").value > 0
    assert result.figure("repeat_calls_per_second").value > 0


def test_apply_figures_are_positive() -> None:
    result = bench.measure_apply(TINY, {})
    assert result.count > 0
    assert result.figure("us_per_apply").value > 0
    assert result.figure("applies_per_second").value > 0


def test_euchre_is_skipped_without_pyspiel(no_pyspiel: None) -> None:
    result = bench.measure_euchre(TINY, {})
    assert result.skipped is not None and "nox -s bench_openspiel" in result.skipped
    assert result.figures == () and result.count == 0
    assert "skipped" in bench.render_result(result)


def test_euchre_ratio_uses_the_random_hands_figure(fake_pyspiel: FakePyspiel) -> None:
    ours = bench.measure_random_hands(TINY, {})
    result = bench.measure_euchre(TINY, {"random_hands": ours})
    assert fake_pyspiel.loaded == ["euchre"]
    euchre = result.figure("hands_per_second").value
    assert euchre > 0 and result.count > 0
    assert result.figure("player_actions_per_hand").value == 3
    assert result.figure("chance_actions_per_hand").value == 2
    ratio = result.figure("ratio")
    assert ratio.value == pytest.approx(ours.figure("hands_per_second").value / euchre)
    assert ratio.target == bench.EUCHRE_RATIO_TARGET
    assert "open_spiel" in result.notes


def test_euchre_measures_our_hands_when_not_done_yet(fake_pyspiel: FakePyspiel) -> None:
    assert bench.measure_euchre(TINY, {}).figure("ratio").value > 0


def test_real_openspiel_euchre_plays_whole_games() -> None:
    pytest.importorskip("pyspiel")
    result = bench.measure_euchre(TINY, {})
    assert result.skipped is None and result.count > 0
    assert result.figure("player_actions_per_hand").value > 0


def test_pyspiel_is_loaded_when_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakePyspiel()
    monkeypatch.setitem(sys.modules, "pyspiel", fake)
    assert bench._load_pyspiel() is fake
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if not installed
    assert bench._load_pyspiel() is None


def test_chance_sampling_follows_the_probabilities() -> None:
    rng = random.Random(1)
    draws = [bench._sample_chance(rng, [(0, 0.25), (1, 0.75)]) for _ in range(4000)]
    assert 0.2 < draws.count(0) / len(draws) < 0.3
    # Probabilities that fall short of 1 by rounding: the last outcome takes the rest.
    assert bench._sample_chance(rng, [(5, 0.0), (9, 0.0)]) == 9


# -- results and output ----------------------------------------------------------


def test_targets_are_judged_in_the_right_direction() -> None:
    assert bench.Figure("a", "a", 6.0, target=5.0).meets_target is True
    assert bench.Figure("a", "a", 4.0, target=5.0).meets_target is False
    assert bench.Figure("a", "a", 4.0, target=5.0, lower_is_better=True).meets_target is True
    assert bench.Figure("a", "a", 4.0).meets_target is None


def test_a_missing_figure_is_a_key_error() -> None:
    with pytest.raises(KeyError, match="nope"):
        bench.Result("r", "r").figure("nope")


def test_run_passes_earlier_results_on_and_reports_progress() -> None:
    seen: list[str] = []

    def first(config: bench.BenchConfig, done: Mapping[str, bench.Result]) -> bench.Result:
        return bench.Result("first", "first", (bench.Figure("x", "x", 1.0),))

    def second(config: bench.BenchConfig, done: Mapping[str, bench.Result]) -> bench.Result:
        assert list(done) == ["first"]
        return bench.Result("second", "second", (bench.Figure("y", "y", 2.0),))

    results = bench.run(TINY, [first, second], progress=lambda r: seen.append(r.name))
    assert [r.name for r in results] == seen == ["first", "second"]


def test_text_report_has_a_header_and_every_result(no_pyspiel: None) -> None:
    results = bench.run(TINY, [bench.measure_random_hands, bench.measure_euchre])
    text = bench.render_text(TINY, results)
    assert text.startswith(f"fivehundred {fh.__version__} benchmarks")
    assert "random hands" in text and "skipped" in text


def test_main_prints_every_figure_with_its_target(
    fake_pyspiel: FakePyspiel, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench.main(["--seconds", "0.05", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "seed 2" in out
    assert "hands/s" in out and "target ≥ 5,000" in out
    assert "target ≥ 0.50" in out
    assert "µs/apply" in out and "calls/s" in out


def test_main_json_has_every_result_and_figure(
    no_pyspiel: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench.main(["--seconds", "0.05", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert set(summary) == {"environment", "config", "results"}
    assert summary["config"] == {"seconds": 0.05, "seed": bench.DEFAULT_SEED}
    assert summary["environment"]["fivehundred"] == fh.__version__
    results = summary["results"]
    assert set(results) == {
        "random_hands",
        "random_hands_3p",
        "random_hands_5p",
        "random_hands_6p",
        "legal_plays",
        "apply",
        "playout",
        "openspiel_euchre",
    }
    assert results["playout"]["figures"]["hands_per_second"]["value"] > 0
    assert results["random_hands_5p"]["figures"]["hands_per_second"]["target"] is None
    hands = results["random_hands"]["figures"]["hands_per_second"]
    assert hands["value"] > 0 and hands["target"] == bench.HANDS_PER_SECOND_TARGET
    assert isinstance(hands["meets_target"], bool)
    assert results["apply"]["figures"]["us_per_apply"]["value"] > 0
    assert results["legal_plays"]["figures"]["calls_per_second"]["value"] > 0
    assert results["openspiel_euchre"]["skipped"]
    assert results["openspiel_euchre"]["figures"] == {}


def test_main_rejects_a_time_budget_that_is_not_positive(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bench.main(["--seconds", "0"])
    assert exit_info.value.code == 2
    assert "--seconds must be positive" in capsys.readouterr().err
