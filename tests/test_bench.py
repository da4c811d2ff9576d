"""The benchmark suite runs and reports sane figures (no timing is asserted)."""

from __future__ import annotations

import importlib.metadata
import itertools
import json
import random
import statistics
import subprocess
import sys
import types
from collections.abc import Iterator, Mapping

import pytest

import fivehundred as fh
from benchmarks import bench_search
from benchmarks import suite as bench
from fivehundred.ai.encoding import legal_action_indices

TINY = bench.BenchConfig(seconds=0.001, seed=11, rounds=7)


# -- a stand-in for pyspiel, so the euchre comparison is covered without open_spiel --


class FakeEuchreState:
    """Two chance nodes (the deal), one bid, then two cards played, then terminal."""

    def __init__(self, moves: list[int] | None = None) -> None:
        self.moves: list[int] = list(moves or [])

    def is_terminal(self) -> bool:
        return len(self.moves) == 5

    def is_chance_node(self) -> bool:
        return len(self.moves) < 2

    def current_phase(self) -> types.SimpleNamespace:
        names = ["DEAL", "DEAL", "BIDDING", "PLAY", "PLAY", "GAME_OVER"]
        return types.SimpleNamespace(name=names[len(self.moves)])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.25), (1, 0.75)]

    def legal_actions(self) -> list[int]:
        assert not self.is_chance_node() and not self.is_terminal()
        return [2, 3, 4]

    def apply_action(self, action: int) -> None:
        allowed = [a for a, _ in self.chance_outcomes()] if self.is_chance_node() else [2, 3, 4]
        assert action in allowed and not self.is_terminal()
        self.moves.append(action)

    def history(self) -> list[int]:
        return list(self.moves)

    def clone(self) -> FakeEuchreState:
        return FakeEuchreState(self.moves)


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


#: Wall seconds of each fake fresh interpreter, by the code it runs.
FAKE_PYTHON: Mapping[str, float] = {
    "pass": 0.010,
    "import fivehundred": 0.045,
    "import pyspiel": 0.030,
}


@pytest.fixture
def fake_python(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``_run_python`` answers from :data:`FAKE_PYTHON` (no subprocess); the codes run, in order."""
    ran: list[str] = []

    def run_python(code: str) -> float:
        ran.append(code)
        return FAKE_PYTHON[code]

    monkeypatch.setattr(bench, "_run_python", run_python)
    return ran


@pytest.fixture
def fake_pyspiel(monkeypatch: pytest.MonkeyPatch, fake_python: list[str]) -> FakePyspiel:
    fake = FakePyspiel()
    monkeypatch.setattr(bench, "_load_pyspiel", lambda: fake)
    monkeypatch.setattr(bench_search, "_load_spiel", lambda: None)  # ISMCTS needs the real one
    return fake


@pytest.fixture
def no_pyspiel(monkeypatch: pytest.MonkeyPatch, fake_python: list[str]) -> None:
    monkeypatch.setattr(bench, "_load_pyspiel", lambda: None)
    monkeypatch.setattr(bench_search, "_load_spiel", lambda: None)


def scripted(
    log: list[str], name: str, values: list[tuple[int, float, dict[str, float]]]
) -> bench.Probe:
    """A probe that logs its name and answers ``values`` one round after another."""
    answers: Iterator[tuple[int, float, dict[str, float]]] = iter(values)

    def probe(seconds: float) -> bench.Sample:
        log.append(name)
        count, elapsed, extra = next(answers)
        return bench.Sample(count, elapsed, extra)

    return probe


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


def test_kitty_steps_lead_to_the_exchange_R4_1() -> None:
    steps = bench.collect_kitty_steps(5, count=6)
    assert len(steps) == 6
    for state, action in steps:
        assert state.phase is fh.Phase.BIDDING
        kitty = fh.apply(state, action)
        assert kitty.phase is fh.Phase.DISCARD and legal_action_indices(kitty)
    assert steps == bench.collect_kitty_steps(5, count=6)


def test_apply_pairs_cover_the_phases_of_whole_hands() -> None:
    pairs = bench.collect_apply_pairs(5, hands=4)
    assert (
        sum(1 for state, _ in pairs if state.phase is fh.Phase.BIDDING and not state.auction) == 4
    )
    assert {fh.Phase.BIDDING, fh.Phase.PLAY} <= {state.phase for state, _ in pairs}
    assert pairs == bench.collect_apply_pairs(5, hands=4)


# -- interleaved rounds and medians ------------------------------------------------


def test_rounds_interleave_the_probes() -> None:
    log: list[str] = []
    ours = scripted(log, "ours", [(n, 1.0, {}) for n in range(1, 8)])
    euchre = scripted(log, "euchre", [(n, 2.0, {}) for n in range(1, 8)])
    samples = bench.interleave([ours, euchre], rounds=7, seconds=0.5)
    assert log == ["ours", "euchre"] * 7
    assert [s.count for s in samples[0]] == list(range(1, 8))
    assert [s.rate for s in samples[1]] == [n / 2.0 for n in range(1, 8)]


def test_a_figure_is_the_median_of_its_rounds() -> None:
    figure = bench.median_figure("x", "x", [5.0, 1.0, 40.0, 2.0, 3.0, 4.0, 6.0], digits=1)
    assert figure.value == 4.0 and figure.digits == 1
    assert figure.rounds == (5.0, 1.0, 40.0, 2.0, 3.0, 4.0, 6.0)


def test_time_for_runs_at_least_once() -> None:
    calls: list[int] = []

    def step() -> int:
        calls.append(1)
        return 3

    sample = bench._time_for(0.0, step)
    assert calls == [1] and sample.count == 3 and sample.elapsed >= 0


#: Per round (count, elapsed, extra): ours 10..70 hands of 40 actions in 1 s; playout
#: twice ours; euchre 100 hands in 1 s except two slow rounds.
OURS_ROUNDS: list[tuple[int, float, dict[str, float]]] = [
    (10 * n, 1.0, {"actions": 400.0 * n}) for n in range(1, 8)
]
PLAYOUT_ROUNDS: list[tuple[int, float, dict[str, float]]] = [(20 * n, 1.0, {}) for n in range(1, 8)]
EUCHRE_COUNTS = [100, 100, 100, 20, 20, 100, 100]
EUCHRE_ROUNDS: list[tuple[int, float, dict[str, float]]] = [
    (n, 1.0, {"actions": 20.0 * n, "chance": 20.0 * n}) for n in EUCHRE_COUNTS
]


@pytest.fixture
def scripted_hands(monkeypatch: pytest.MonkeyPatch, fake_pyspiel: FakePyspiel) -> list[str]:
    """``measure_hands`` runs the scripted probes above; the log of their calls."""
    log: list[str] = []
    monkeypatch.setattr(
        bench, "hands_probe", lambda rules, seed: scripted(log, "ours", OURS_ROUNDS)
    )
    monkeypatch.setattr(
        bench, "playout_probe", lambda seed: scripted(log, "playout", PLAYOUT_ROUNDS)
    )
    monkeypatch.setattr(
        bench, "euchre_deals_probe", lambda pyspiel, seed: scripted(log, "euchre", EUCHRE_ROUNDS)
    )
    return log


def test_hands_measure_ours_then_euchre_round_by_round(scripted_hands: list[str]) -> None:
    ours, played, euchre = bench.measure_hands(TINY, {})
    assert scripted_hands == ["ours", "playout", "euchre"] * 7
    assert ours.figure("hands_per_second").value == 40.0  # median of 10, 20, …, 70
    assert ours.figure("hands_per_second").rounds == tuple(10.0 * n for n in range(1, 8))
    assert ours.figure("actions_per_hand").value == 40.0
    assert ours.figure("us_per_action").value == pytest.approx(1e6 / 1600)
    assert (ours.count, ours.elapsed) == (280, 7.0)
    assert played.figure("hands_per_second").value == 80.0
    assert euchre.figure("hands_per_second").value == 100.0
    assert euchre.figure("chance_actions_per_hand").value == 20.0


def test_a_ratio_is_the_median_of_the_per_round_ratios(scripted_hands: list[str]) -> None:
    done = {result.name: result for result in bench.measure_hands(TINY, {})}
    (summary,) = bench.summarize(TINY, done)
    ratios = [10 * n / e for n, e in zip(range(1, 8), EUCHRE_COUNTS, strict=True)]
    hands = summary.figure("hands_ratio")
    assert hands.rounds == pytest.approx(ratios)
    assert hands.value == pytest.approx(statistics.median(ratios)) == pytest.approx(0.6)
    # Not the ratio of the medians (40 / 100): each round pairs ours with euchre's.
    assert hands.value != pytest.approx(0.4)
    assert summary.figure("playout_ratio").value == pytest.approx(1.2)
    # The other headline figures were not measured here: said so, not made up.
    assert summary.notes["legal_action_indices, kitty, µs/call"] == "not measured (kitty)"
    assert "not measured (legal_plays)" in summary.notes.values()


def test_a_missing_euchre_side_is_said_not_measured() -> None:
    ours = bench.Result("legal_plays", "t", (bench.median_figure("calls_per_second", "c", [1.0]),))
    (summary,) = bench.summarize(TINY, {"legal_plays": ours})
    label = "legal_plays ÷ euchre legal_actions (first call)"
    assert summary.notes[label] == "not measured (openspiel_euchre_legal_actions)"
    assert not any(f.key == "legal_plays_ratio" for f in summary.figures)


# -- targets for the build that runs ------------------------------------------------


def test_targets_follow_the_compiled_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(fh, "COMPILED", raising=False)
    assert bench.compiled() is False  # a build without the flag is the pure one
    assert bench.targets() is bench.TARGETS[False]
    assert bench.targets()["hands_ratio"] == bench.Level(must=0.3)
    assert "COMPILED = False (pure build)" in bench.render_header(TINY)
    monkeypatch.setattr(fh, "COMPILED", True, raising=False)
    assert bench.compiled() is True
    assert bench.targets()["hands_ratio"] == bench.Level(target=1.0, must=0.8)
    assert bench.targets()["playout_ratio"] == bench.Level(target=3.0, must=2.0)
    assert bench.targets()["import_ms"].target is None
    assert "COMPILED = True (compiled build)" in bench.render_header(TINY)
    assert bench.targets(False)["kitty_us_per_call"].target == 300.0


def test_the_summary_holds_each_figure_to_the_running_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    done = {
        "kitty": bench.Result("kitty", "k", (bench.median_figure("us_per_call", "µs", [200.0]),)),
        "import": bench.Result(
            "import", "i", (bench.median_figure("ms_above_bare", "ms", [50.0]),)
        ),
    }
    monkeypatch.setattr(fh, "COMPILED", False, raising=False)
    (pure,) = bench.summarize(TINY, done)
    assert pure.title.startswith("targets for the pure build")
    kitty, imported = pure.figure("kitty_us_per_call"), pure.figure("import_ms")
    assert (kitty.target, kitty.meets_target) == (300.0, True)
    assert (imported.target, imported.must) == (40.0, 60.0)
    assert (imported.meets_target, imported.meets_must) == (False, True)
    text = bench.render_result(pure)
    assert "must ≤ 60.0 (met), target ≤ 40.0 (not met)" in text
    assert "50.0  [50.0–50.0]" in text  # the summary shows the range over the rounds
    monkeypatch.setattr(fh, "COMPILED", True, raising=False)
    (built,) = bench.summarize(TINY, done)
    assert built.title.startswith("targets for the compiled build")
    assert built.figure("kitty_us_per_call").meets_target is False  # ≤ 100 µs
    assert built.figure("import_ms").target is None
    assert built.figure("import_ms").meets_target is None


def test_levels_are_judged_in_the_right_direction() -> None:
    assert bench.Figure("a", "a", 6.0, target=5.0).meets_target is True
    assert bench.Figure("a", "a", 4.0, target=5.0).meets_target is False
    assert bench.Figure("a", "a", 4.0, target=5.0, lower_is_better=True).meets_target is True
    assert bench.Figure("a", "a", 4.0, must=3.0).meets_must is True
    assert bench.Figure("a", "a", 4.0, must=3.0, lower_is_better=True).meets_must is False
    assert bench.Figure("a", "a", 4.0).meets_target is None
    assert bench.Figure("a", "a", 4.0).meets_must is None


# -- the measurements on the real engine ---------------------------------------------


def test_hands_figures_are_positive(fake_pyspiel: FakePyspiel) -> None:
    ours, played, euchre = bench.measure_hands(TINY, {})
    assert fake_pyspiel.loaded == ["euchre"]
    assert (ours.name, played.name, euchre.name) == ("random_hands", "playout", "openspiel_euchre")
    hands = ours.figure("hands_per_second")
    assert hands.value > 0 and len(hands.rounds) == 7
    assert hands.value == statistics.median(hands.rounds)
    assert ours.figure("actions_per_second").value > hands.value
    assert ours.figure("actions_per_hand").value >= 4  # at least four passes
    assert played.figure("hands_per_second").value > 0
    assert played.figure("us_per_hand").value > 0
    assert euchre.figure("player_actions_per_hand").value == 3
    assert euchre.figure("chance_actions_per_hand").value == 2
    assert euchre.figure("us_per_action").value > 0
    assert euchre.notes["open_spiel"]


def test_legal_plays_figures_are_positive(fake_pyspiel: FakePyspiel) -> None:
    ours, euchre = bench.measure_legal_plays(TINY, {})
    assert ours.count >= 2 * 7 * bench.PLAY_STATES  # first and repeat calls, every round
    assert ours.figure("calls_per_second").value > 0
    assert ours.figure("us_per_call").value > 0
    assert ours.figure("repeat_calls_per_second").value > 0
    assert euchre.name == "openspiel_euchre_legal_actions"
    assert euchre.count >= 7 * bench.PLAY_STATES
    assert euchre.figure("calls_per_second").value > 0


def test_euchre_legal_actions_are_timed_on_fresh_play_states(fake_pyspiel: FakePyspiel) -> None:
    steps = bench._euchre_play_steps(fake_pyspiel, 3, count=30)
    assert len(steps) == 30
    for before, action in steps:
        state = before.clone()
        state.apply_action(action)
        assert state.current_phase().name == "PLAY"
        assert before.moves == state.moves[:-1]  # the predecessor is left as it was


def test_kitty_figures_are_positive() -> None:
    (kitty,) = bench.measure_kitty(TINY, {})
    assert kitty.name == "kitty" and kitty.count >= 7 * bench.KITTY_STATES
    assert kitty.figure("us_per_call").value > 0
    assert kitty.figure("us_per_call").lower_is_better


def test_tables_and_apply_figures_are_positive() -> None:
    tables = bench.measure_tables(TINY, {})
    assert [r.name for r in tables] == ["random_hands_3p", "random_hands_5p", "random_hands_6p"]
    assert all(r.figure("hands_per_second").value > 0 for r in tables)
    (applied,) = bench.measure_apply(TINY, {})
    assert applied.figure("us_per_apply").value > 0
    assert applied.figure("applies_per_second").value > 0


def test_import_is_measured_above_a_bare_interpreter(
    fake_pyspiel: FakePyspiel, fake_python: list[str]
) -> None:
    ours, theirs = bench.measure_import(TINY, {})
    # A warm-up run of each, then bare, ours, pyspiel (as often as the round's time allows).
    assert fake_python[:3] == ["import pyspiel", "pass", "import fivehundred"]
    runs = [code for code, _ in itertools.groupby(fake_python[3:])]
    assert runs == ["pass", "import fivehundred", "import pyspiel"] * 7
    assert ours.figure("ms_above_bare").value == pytest.approx(35.0)
    assert ours.figure("bare_ms").value == pytest.approx(10.0)
    assert theirs.name == "openspiel_import" and theirs.skipped is None
    assert theirs.figure("ms_above_bare").value == pytest.approx(20.0)


def test_import_of_pyspiel_that_fails_is_skipped(
    monkeypatch: pytest.MonkeyPatch, fake_pyspiel: FakePyspiel
) -> None:
    def run_python(code: str) -> float:
        if code == "import pyspiel":
            raise subprocess.CalledProcessError(1, code, stderr=b"Traceback\nImportError: nope\n")
        return FAKE_PYTHON[code]

    monkeypatch.setattr(bench, "_run_python", run_python)
    ours, theirs = bench.measure_import(TINY, {})
    assert ours.figure("ms_above_bare").value == pytest.approx(35.0)
    assert theirs.skipped is not None and theirs.skipped.endswith("ImportError: nope")


def test_fresh_interpreters_really_run() -> None:
    probe = bench.python_probe("pass")
    sample = probe(0.0)
    assert sample.count == 1 and sample.extra["median"] == sample.elapsed > 0
    with pytest.raises(subprocess.CalledProcessError):
        bench._run_python("raise SystemExit(3)")


def test_real_openspiel_euchre_plays_whole_games() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    sample = bench.euchre_deals_probe(pyspiel, 1)(0.001)
    assert sample.count > 0 and sample.extra["actions"] > 0 and sample.extra["chance"] > 0
    legal = bench.euchre_legal_actions_probe(pyspiel, 1)(0.001)
    assert legal.count >= bench.PLAY_STATES


# -- without pyspiel ------------------------------------------------------------------


def test_without_pyspiel_euchre_is_skipped_and_no_ratio_is_printed(no_pyspiel: None) -> None:
    results = bench.run(TINY, bench.MEASUREMENTS)
    by_name = {result.name: result for result in results}
    for name in ("openspiel_euchre", "openspiel_euchre_legal_actions", "openspiel_import"):
        skipped = by_name[name].skipped
        assert skipped is not None and "nox -s bench_openspiel" in skipped
        assert by_name[name].figures == () and by_name[name].count == 0
    summary = by_name["targets"]
    assert {f.key for f in summary.figures} == {"kitty_us_per_call", "import_ms"}
    assert len(summary.notes) == 3
    assert all(
        note.startswith("skipped: pyspiel is not importable") for note in summary.notes.values()
    )
    text = bench.render_text(TINY, results)
    assert "skipped: pyspiel is not importable" in text
    assert "hands ÷ euchre deals: skipped" in text
    assert "must ≥" not in text  # the ratios' levels: no ratio, no level
    assert by_name["random_hands"].figure("hands_per_second").value > 0


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


def test_a_missing_figure_is_a_key_error() -> None:
    with pytest.raises(KeyError, match="nope"):
        bench.Result("r", "r").figure("nope")


def test_run_passes_earlier_results_on_and_reports_progress() -> None:
    seen: list[str] = []

    def first(config: bench.BenchConfig, done: Mapping[str, bench.Result]) -> list[bench.Result]:
        return [bench.Result("a", "a"), bench.Result("b", "b")]

    def second(config: bench.BenchConfig, done: Mapping[str, bench.Result]) -> list[bench.Result]:
        assert list(done) == ["a", "b"]
        return [bench.Result("c", "c", (bench.Figure("y", "y", 2.0),))]

    results = bench.run(TINY, [first, second], progress=lambda r: seen.append(r.name))
    assert [r.name for r in results] == seen == ["a", "b", "c"]


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """``main(argv)`` succeeds; what it printed."""
    assert bench.main(argv) == 0
    return capsys.readouterr().out


def test_main_prints_every_figure_with_its_levels(
    fake_pyspiel: FakePyspiel, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fh, "COMPILED", False, raising=False)
    out = run_main(["--seconds", "0.001", "--seed", "2"], capsys)
    header = out.splitlines()[0]
    assert "fivehundred.COMPILED = False" in header and sys.version.split()[0] in header
    assert "7 interleaved rounds of 0.001 s per figure" in out and "seed 2" in out
    for label in (
        "public-API hands ÷ euchre deals",
        "playout() hands ÷ euchre deals",
        "legal_plays ÷ euchre legal_actions (first call)",
        "legal_action_indices, kitty, µs/call",
        "import fivehundred, ms above bare",
    ):
        assert label in out
    assert "must ≥ 0.30" in out and "target ≥ 1.20" in out
    assert "target ≤ 300.0" in out and "must ≤ 60.0" in out
    assert "µs/apply" in out and "calls/s" in out and "6 players" in out


def test_main_json_has_every_result_and_figure(
    fake_pyspiel: FakePyspiel, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fh, "COMPILED", True, raising=False)
    out = run_main(["--seconds", "0.001", "--rounds", "8", "--json"], capsys)
    summary = json.loads(out)
    assert set(summary) == {"environment", "config", "results"}
    assert summary["config"] == {"seconds": 0.001, "seed": bench.DEFAULT_SEED, "rounds": 8}
    assert summary["environment"]["fivehundred"] == fh.__version__
    assert summary["environment"]["compiled"] is True
    results = summary["results"]
    assert set(results) == {
        "random_hands",
        "playout",
        "openspiel_euchre",
        "legal_plays",
        "openspiel_euchre_legal_actions",
        "kitty",
        "import",
        "openspiel_import",
        "random_hands_3p",
        "random_hands_5p",
        "random_hands_6p",
        "apply",
        "compact_mask",
        "pettingzoo",
        "sampling",
        "ismcts",
        "targets",
    }
    hands = results["random_hands"]["figures"]["hands_per_second"]
    assert hands["value"] > 0 and len(hands["rounds"]) == 8 and hands["target"] is None
    targets = results["targets"]["figures"]
    assert set(targets) == {
        "hands_ratio",
        "playout_ratio",
        "legal_plays_ratio",
        "kitty_us_per_call",
        "import_ms",
    }
    ratio = targets["hands_ratio"]
    assert (ratio["target"], ratio["must"]) == (1.0, 0.8)  # the compiled build's
    assert isinstance(ratio["meets_target"], bool) and isinstance(ratio["meets_must"], bool)
    assert len(ratio["rounds"]) == 8
    assert targets["import_ms"]["target"] is None and targets["import_ms"]["meets_target"] is None
    assert results["apply"]["figures"]["us_per_apply"]["value"] > 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seconds", "0"], "--seconds must be positive"),
        (["--rounds", "6"], "--rounds must be at least 7"),
    ],
)
def test_main_rejects_a_budget_that_says_little(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bench.main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_an_unknown_open_spiel_version_is_said_so(monkeypatch: pytest.MonkeyPatch) -> None:
    def version(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", version)
    assert bench._open_spiel_version() == "unknown"


def test_the_adapters_are_measured_or_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    mask, zoo = bench.measure_adapters(TINY, {})
    phases = {f.key for f in mask.figures}
    assert {"us_per_call_bidding", "us_per_call_discard_pending", "us_per_call_play"} <= phases
    assert "us_per_call_partner" in phases  # five players (P5)
    assert all(f.value > 0 and f.target == bench.MASK_TARGET_US for f in mask.figures)
    if zoo.skipped is None:
        assert zoo.figure("steps_per_second").value > 0
    monkeypatch.setitem(sys.modules, "pettingzoo", None)  # as if not installed
    _, missing = bench.measure_adapters(TINY, {})
    assert missing.skipped is not None and "fivehundred[pettingzoo]" in missing.skipped


@pytest.mark.parametrize("name", ["benchmarks", "benchmarks.suite", "benchmarks.server"])
def test_benchmark_doctests_pass(name: str) -> None:
    """The suite's docstring examples run (test_doctests walks only the package)."""
    import doctest
    import importlib

    module = importlib.import_module(name)
    results = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples failed"


def test_the_benchmarks_are_not_in_the_package() -> None:
    import importlib.util
    from pathlib import Path

    assert importlib.util.find_spec("fivehundred.bench") is None
    assert importlib.util.find_spec("fivehundred.server.bench") is None
    package = Path(fh.__file__).parent
    assert not [path for path in package.rglob("*.py") if "bench" in path.name]


def test_every_module_the_noxfile_runs_of_ours_exists() -> None:
    """``nox -s bench`` and its siblings run a module by name: a moved suite must not
    leave them pointing at nothing (they ran ``fivehundred.bench`` after the move)."""
    import importlib.util
    import re
    from pathlib import Path

    noxfile = Path(__file__).resolve().parent.parent / "noxfile.py"
    if not noxfile.exists():  # pragma: no cover - the tests of an sdist or wheel
        pytest.skip("the noxfile is not beside these tests")
    modules = set(re.findall(r'"-m",\s*"([\w.]+)"', noxfile.read_text(encoding="utf-8")))
    ours = sorted(m for m in modules if m.split(".")[0] in {"benchmarks", "fivehundred"})
    assert "benchmarks" in ours
    assert [m for m in ours if importlib.util.find_spec(m) is None] == []
