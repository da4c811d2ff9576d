"""Benchmarks: how fast the public API plays Five Hundred, beside OpenSpiel's euchre.

Run ``python -m benchmarks`` (or ``nox -s bench``; ``nox -s bench_openspiel``
installs open_spiel for the euchre comparison). Targets are printed beside the
figures; nothing fails when a figure misses its target.

How a figure is measured. A *probe* is a prepared timing loop (its states are
collected beforehand, untimed): called with a number of seconds, it runs for
about that long and returns a :class:`Sample`. A measurement puts its probes
side by side and runs them in **interleaved rounds** — round 1: ours, euchre;
round 2: ours, euchre; … — so a machine that slows down or speeds up during the
run moves both sides alike. Each figure is worked out per round and the
**median over the rounds** is reported (``--rounds``, default 7; ``--seconds``
per probe per round). A ratio to euchre is the median of the per-round ratios.
Every random choice comes from a ``random.Random(--seed)``, so the games played
are the same on every run. ``--json`` prints a machine-readable summary.

The targets (:data:`TARGETS`) are those of the build that runs: the compiled
ones when ``fivehundred.COMPILED`` is true, the pure-Python ones otherwise.

This module uses only the public API of :mod:`fivehundred` (and, when it is
installed, ``pyspiel``): it measures any engine behind that API unchanged.

>>> config = BenchConfig(seconds=0.001, seed=1, rounds=3)
>>> ours, *_ = measure_hands(config, {})
>>> len(ours.figure("hands_per_second").rounds)
3
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import itertools
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Final, TypeAlias

import fivehundred as fh
from benchmarks.bench_search import measure_search
from benchmarks.results import (
    DEFAULT_ROUNDS,
    DEFAULT_SECONDS,
    DEFAULT_SEED,
    BenchConfig,
    Figure,
    Measurement,
    Result,
)
from fivehundred.ai.encoding import apply_index, legal_action_indices, legal_action_mask
from fivehundred.ai.playout import playout

__all__ = [
    "DEFAULT_ROUNDS",
    "DEFAULT_SECONDS",
    "DEFAULT_SEED",
    "MEASUREMENTS",
    "TARGETS",
    "BenchConfig",
    "Figure",
    "Level",
    "Measurement",
    "Probe",
    "Result",
    "Sample",
    "collect_apply_pairs",
    "collect_compact_states",
    "collect_kitty_steps",
    "collect_play_states",
    "collect_play_steps",
    "compact_mask_probe",
    "compiled",
    "euchre_deals_probe",
    "euchre_legal_actions_probe",
    "hands_probe",
    "interleave",
    "kitty_probe",
    "legal_plays_probe",
    "main",
    "measure_adapters",
    "measure_apply",
    "measure_hands",
    "measure_import",
    "measure_kitty",
    "measure_legal_plays",
    "measure_tables",
    "median_figure",
    "pettingzoo_probe",
    "playout_probe",
    "python_probe",
    "random_hands",
    "render_header",
    "render_json",
    "render_result",
    "render_text",
    "run",
    "summarize",
    "targets",
]

#: The fewest rounds the command line accepts: a median of fewer says little.
MIN_ROUNDS: Final = 7
#: How many mid-play states ``legal_plays`` (and euchre's ``legal_actions``) is timed over.
PLAY_STATES: Final = 200
#: How many kitty (DISCARD) states ``legal_action_indices`` is timed over.
KITTY_STATES: Final = 20
#: How many seeded hands give the ``(state, action)`` pairs ``apply`` is timed over.
APPLY_HANDS: Final = 50
#: The tables, besides the default four players, timed for random hands.
OTHER_TABLES: Final = (3, 5, 6)
#: A hand is over (and counted) when the game reaches one of these phases.
_HAND_OVER: Final = (fh.Phase.DEAL, fh.Phase.GAME_OVER)
#: Why the euchre side is missing when pyspiel cannot be imported.
NO_PYSPIEL: Final = (
    "pyspiel is not importable: `pip install open_spiel`, or run `nox -s bench_openspiel`"
)


# -- targets -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Level:
    """What one headline figure should reach: a goal (``target``) and a floor (``must``)."""

    target: float | None = None
    must: float | None = None
    #: True for a time (smaller is better), False for a rate or a ratio.
    lower_is_better: bool = False


#: The headline figures' levels (issue 9; the public API and ``playout`` ratios from
#: issue 27), by build: ``TARGETS[compiled]``, keyed by the figure keys of the
#: ``targets`` result (see :func:`summarize`).
TARGETS: Final[Mapping[bool, Mapping[str, Level]]] = {
    True: {
        "hands_ratio": Level(target=1.0, must=0.8),
        "playout_ratio": Level(target=3.0, must=2.0),
        "legal_plays_ratio": Level(target=1.0, must=0.7),
        "kitty_us_per_call": Level(target=100.0, lower_is_better=True),
        "import_ms": Level(lower_is_better=True),
    },
    False: {
        "hands_ratio": Level(must=0.3),
        "playout_ratio": Level(target=1.2),
        "legal_plays_ratio": Level(target=0.5),
        "kitty_us_per_call": Level(target=300.0, lower_is_better=True),
        "import_ms": Level(target=40.0, must=60.0, lower_is_better=True),
    },
}


def compiled() -> bool:
    """Whether the running fivehundred is the compiled build (``fivehundred.COMPILED``).

    Read on every call, not at import, and ``False`` when the package has no
    such flag (a build older than the compiled one).
    """
    return bool(getattr(fh, "COMPILED", False))


def targets(compiled_build: bool | None = None) -> Mapping[str, Level]:
    """The levels for ``compiled_build`` (default: the build that runs)."""
    return TARGETS[compiled() if compiled_build is None else compiled_build]


# -- interleaved rounds ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sample:
    """What one probe did in one round: ``count`` units in ``elapsed`` timed seconds."""

    count: int
    elapsed: float
    #: Other counts of the round (e.g. ``"actions"``), by name.
    extra: Mapping[str, float] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        """Units per second."""
        return self.count / self.elapsed

    @property
    def us_per_unit(self) -> float:
        """Microseconds per unit."""
        return self.elapsed / self.count * 1e6


#: A prepared timing loop: called with seconds, it runs about that long and says what it did.
Probe: TypeAlias = Callable[[float], Sample]


def interleave(
    probes: Sequence[Probe], rounds: int, seconds: float
) -> tuple[tuple[Sample, ...], ...]:
    """Run ``probes`` in turn, ``rounds`` times: round 1 is every probe once, then round 2…

    The answer is indexed ``[probe][round]``.
    """
    samples: list[list[Sample]] = [[] for _ in probes]
    for _ in range(rounds):
        for probe, taken in zip(probes, samples, strict=True):
            taken.append(probe(seconds))
    return tuple(tuple(taken) for taken in samples)


def median_figure(key: str, label: str, values: Sequence[float], **options: Any) -> Figure:
    """A figure whose value is the median of its per-round ``values``."""
    return Figure(key, label, statistics.median(values), rounds=tuple(values), **options)


def _totals(samples: Sequence[Sample]) -> dict[str, Any]:
    return {"count": sum(s.count for s in samples), "elapsed": sum(s.elapsed for s in samples)}


def _time_for(seconds: float, step: Callable[[], int]) -> Sample:
    """Call ``step`` again and again for ``seconds`` of wall time (at least once).

    ``step`` returns how many units it did; the clock is read once per step.
    """
    clock = time.perf_counter
    count = 0
    start = clock()
    deadline = start + seconds
    while True:
        count += step()
        now = clock()
        if now >= deadline:
            return Sample(count, now - start)


# -- seeded random games -----------------------------------------------------


def random_hands(
    rng: random.Random, rules: fh.Rules | None = None
) -> Iterator[tuple[tuple[fh.GameState, fh.Action], ...]]:
    """The ``(state, action)`` pairs of random hands, one hand at a time, without end.

    A game starts with ``new_game(rules, dealer=0)``; each hand is dealt with
    ``rng``; every action is ``rng.choice(legal_actions(state))``; a new game
    starts when one is over. Used to collect states to time, not in a timed loop.
    """
    state = fh.new_game(rules, dealer=0)
    while True:
        if state.phase is fh.Phase.GAME_OVER:
            state = fh.new_game(rules, dealer=0)
        state = fh.deal(state, rng=rng)
        pairs: list[tuple[fh.GameState, fh.Action]] = []
        while state.phase not in _HAND_OVER:
            action = rng.choice(fh.legal_actions(state))
            pairs.append((state, action))
            state = fh.apply(state, action)
        yield tuple(pairs)


def _collect_steps(
    seed: int, phase: fh.Phase, count: int, keep: float
) -> tuple[tuple[fh.GameState, fh.Action], ...]:
    """``count`` steps of seeded random hands whose next state is in ``phase``.

    Each such step is kept with probability ``keep``, so the states spread
    over many hands.
    """
    rng = random.Random(seed)
    steps: list[tuple[fh.GameState, fh.Action]] = []
    for hand in random_hands(rng):
        for step, (following, _) in itertools.pairwise(hand):
            if following.phase is phase and rng.random() < keep:
                steps.append(step)
                if len(steps) == count:
                    return tuple(steps)
    raise AssertionError("unreachable: random_hands never ends")  # pragma: no cover


def collect_play_steps(
    seed: int, count: int = PLAY_STATES
) -> tuple[tuple[fh.GameState, fh.Action], ...]:
    """``count`` steps ``(state, action)`` of seeded random hands that lead to a PLAY state.

    ``apply(state, action)`` is a mid-play state (a card to play). About one
    such step in four is kept, so the states spread over many hands and over
    every point of a trick (leads, follows, last tricks). Keeping the step
    rather than the state lets a benchmark build the state afresh, with
    nothing memoised on it yet.
    """
    return _collect_steps(seed, fh.Phase.PLAY, count, keep=0.25)


def collect_play_states(seed: int, count: int = PLAY_STATES) -> tuple[fh.GameState, ...]:
    """``count`` fresh PLAY-phase states of seeded random hands (see :func:`collect_play_steps`)."""
    return tuple(fh.apply(state, action) for state, action in collect_play_steps(seed, count))


def collect_kitty_steps(
    seed: int, count: int = KITTY_STATES
) -> tuple[tuple[fh.GameState, fh.Action], ...]:
    """``count`` steps of seeded random hands that lead to the kitty exchange (DISCARD).

    Every such step is kept (a hand has at most one); the steps are the
    bids that closed an auction.
    """
    return _collect_steps(seed, fh.Phase.DISCARD, count, keep=1.0)


def collect_apply_pairs(
    seed: int, hands: int = APPLY_HANDS
) -> tuple[tuple[fh.GameState, fh.Action], ...]:
    """Every ``(state, action)`` pair of ``hands`` seeded random hands, all phases."""
    played = itertools.islice(random_hands(random.Random(seed)), hands)
    return tuple(itertools.chain.from_iterable(played))


# -- our probes ------------------------------------------------------------------


def hands_probe(rules: fh.Rules | None, seed: int) -> Probe:
    """Random full hands through the public immutable API; a sample counts hands.

    The timed loop: ``new_game(rules, dealer=0)`` → ``deal(state, rng=rng)`` →
    ``apply(state, rng.choice(legal_actions(state)))`` until the hand is over
    (phase DEAL or GAME_OVER) → one hand; a new game starts when the game is
    over, and the game goes on from one round to the next. The ``rng.choice``
    and the ``deal`` are part of the time, as they are for a user's playout.
    ``extra["actions"]`` counts the actions.
    """
    rng = random.Random(seed)
    game = fh.new_game(rules, dealer=0)

    def probe(seconds: float) -> Sample:
        actions = 0

        def one_hand() -> int:
            nonlocal game, actions
            choice = rng.choice
            deal, apply, legal = fh.deal, fh.apply, fh.legal_actions
            over = _HAND_OVER
            state = game
            if state.phase is fh.Phase.GAME_OVER:
                state = fh.new_game(rules, dealer=0)
            state = deal(state, rng=rng)
            while state.phase not in over:
                state = apply(state, choice(legal(state)))
                actions += 1
            game = state
            return 1

        sample = _time_for(seconds, one_hand)
        return Sample(sample.count, sample.elapsed, {"actions": actions})

    return probe


def playout_probe(seed: int) -> Probe:
    """Random full hands through :func:`fivehundred.ai.playout.playout` (the bots' path).

    The timed loop: ``playout(state, rng=rng)`` plays one whole hand (deal,
    auction, kitty, play, score) with uniformly random legal actions; a new
    game starts when one is over.
    """
    rng = random.Random(seed)
    state = fh.new_game(dealer=0)

    def one_hand() -> int:
        nonlocal state
        if state.phase is fh.Phase.GAME_OVER:
            state = fh.new_game(dealer=0)
        state = playout(state, rng=rng)
        return 1

    return lambda seconds: _time_for(seconds, one_hand)


def _first_calls(
    seconds: float, build: Callable[[], list[Any]], call_each: Callable[[list[Any]], None]
) -> Sample:
    """Build states afresh (untimed), time ``call_each`` on them; again for ``seconds`` (wall).

    ``call_each`` makes one call on each state, written as the loop a user
    would write (no wrapper per call), so both sides pay the same loop. The
    sample counts the timed calls and only their time.
    """
    clock = time.perf_counter
    calls = 0
    timed = 0.0
    deadline = clock() + seconds
    while True:
        states = build()
        start = clock()
        call_each(states)
        now = clock()
        timed += now - start
        calls += len(states)
        if now >= deadline:
            return Sample(calls, timed)


def legal_plays_probe(steps: Sequence[tuple[fh.GameState, fh.Action]]) -> Probe:
    """``legal_plays`` called once on each state fresh from ``apply`` (built untimed)."""

    def build() -> list[Any]:
        apply = fh.apply
        return [apply(state, action) for state, action in steps]

    def call_each(states: list[Any]) -> None:
        legal = fh.legal_plays
        for state in states:
            legal(state)

    return lambda seconds: _first_calls(seconds, build, call_each)


def repeat_legal_plays_probe(states: Sequence[fh.GameState]) -> Probe:
    """``legal_plays`` over the same states again and again (what a per-state memo answers)."""

    def one_pass() -> int:
        legal = fh.legal_plays
        for state in states:
            legal(state)
        return len(states)

    return lambda seconds: _time_for(seconds, one_pass)


def kitty_probe(steps: Sequence[tuple[fh.GameState, fh.Action]]) -> Probe:
    """``legal_action_indices`` called once on each kitty state fresh from ``apply``."""

    def build() -> list[Any]:
        apply = fh.apply
        return [apply(state, action) for state, action in steps]

    def call_each(states: list[Any]) -> None:
        indices = legal_action_indices
        for state in states:
            indices(state)

    return lambda seconds: _first_calls(seconds, build, call_each)


def apply_probe(pairs: Sequence[tuple[fh.GameState, fh.Action]]) -> Probe:
    """``apply`` alone over fixed ``(state, action)`` pairs."""

    def one_pass() -> int:
        apply = fh.apply
        for state, action in pairs:
            apply(state, action)
        return len(pairs)

    return lambda seconds: _time_for(seconds, one_pass)


# -- OpenSpiel's euchre ----------------------------------------------------------


def _load_pyspiel() -> ModuleType | None:
    """OpenSpiel's ``pyspiel`` module, or ``None`` when it is not installed."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        return None


def _open_spiel_version() -> str:
    try:
        return importlib.metadata.version("open_spiel")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _sample_chance(rng: random.Random, outcomes: Sequence[tuple[int, float]]) -> int:
    """One action of a chance node, drawn by its probability."""
    r = rng.random()
    for action, probability in outcomes:
        r -= probability
        if r < 0.0:
            return action
    return outcomes[-1][0]  # rounding left a sliver: the last outcome takes it


def _euchre_step(state: Any, rng: random.Random) -> bool:
    """Apply one random action to a euchre ``state``; whether it was a chance action."""
    if state.is_chance_node():
        state.apply_action(_sample_chance(rng, state.chance_outcomes()))
        return True
    state.apply_action(rng.choice(state.legal_actions()))
    return False


def euchre_deals_probe(pyspiel: ModuleType, seed: int) -> Probe:
    """Random euchre hands from Python, played the way :func:`hands_probe` plays ours.

    Chance nodes (the deal) are drawn from ``chance_outcomes()`` with the seeded
    ``random.Random``, player nodes by ``rng.choice(state.legal_actions())``,
    ``apply_action`` until terminal; a sample counts hands, ``extra`` the
    ``"actions"`` of players and the ``"chance"`` actions.
    """
    game = pyspiel.load_game("euchre")
    rng = random.Random(seed)

    def probe(seconds: float) -> Sample:
        actions = chance = 0

        def one_hand() -> int:
            nonlocal actions, chance
            choice = rng.choice
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(_sample_chance(rng, state.chance_outcomes()))
                    chance += 1
                else:
                    state.apply_action(choice(state.legal_actions()))
                    actions += 1
            return 1

        sample = _time_for(seconds, one_hand)
        return Sample(sample.count, sample.elapsed, {"actions": actions, "chance": chance})

    return probe


def _euchre_play_steps(pyspiel: ModuleType, seed: int, count: int) -> list[tuple[Any, int]]:
    """``count`` euchre steps ``(state, action)`` whose next state is a player to play a card.

    As for ours (:func:`collect_play_steps`), about one such step in four is kept.
    """
    game = pyspiel.load_game("euchre")
    rng = random.Random(seed)
    steps: list[tuple[Any, int]] = []
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            before = state.clone()
            if _euchre_step(state, rng):
                continue
            following = state
            if (
                not following.is_terminal()
                and following.current_phase().name == "PLAY"
                and rng.random() < 0.25
            ):
                steps.append((before, state.history()[-1]))
                if len(steps) == count:
                    return steps


def euchre_legal_actions_probe(pyspiel: ModuleType, seed: int) -> Probe:
    """Euchre's ``legal_actions()`` called once on each fresh mid-play state.

    Each round the states are built afresh, untimed (``apply_action`` on a
    clone of each collected predecessor), as :func:`legal_plays_probe` builds ours.
    """
    steps = _euchre_play_steps(pyspiel, seed, PLAY_STATES)

    def build() -> list[Any]:
        states = []
        for before, action in steps:
            state = before.clone()
            state.apply_action(action)
            states.append(state)
        return states

    def call_each(states: list[Any]) -> None:
        for state in states:
            state.legal_actions()

    return lambda seconds: _first_calls(seconds, build, call_each)


# -- importing in a fresh interpreter ------------------------------------------------


def _run_python(code: str) -> float:
    """Wall seconds of ``python -c code`` in a fresh interpreter (this one's executable).

    The environment (``PYTHONPATH`` too) is this process's. Raises
    :class:`subprocess.CalledProcessError` when the code fails.
    """
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=os.environ.copy(),
    )
    return time.perf_counter() - start


def python_probe(code: str) -> Probe:
    """Fresh interpreters running ``code``, for ``seconds`` (at least one).

    ``extra["median"]`` is the median wall time of one run in the round.
    """

    def probe(seconds: float) -> Sample:
        times: list[float] = []
        deadline = time.perf_counter() + seconds
        while True:
            times.append(_run_python(code))
            if time.perf_counter() >= deadline:
                return Sample(len(times), sum(times), {"median": statistics.median(times)})

    return probe


# -- the measurements ----------------------------------------------------------


def _hands_figures(samples: Sequence[Sample], label: str = "hands/s") -> tuple[Figure, ...]:
    return (
        median_figure("hands_per_second", label, [s.rate for s in samples]),
        median_figure(
            "actions_per_second", "actions/s", [s.extra["actions"] / s.elapsed for s in samples]
        ),
        median_figure(
            "us_per_action",
            "µs/action",
            [s.elapsed / s.extra["actions"] * 1e6 for s in samples],
            lower_is_better=True,
            digits=2,
        ),
        median_figure(
            "actions_per_hand",
            "actions/hand",
            [s.extra["actions"] / s.count for s in samples],
            digits=1,
        ),
    )


def _skipped_euchre(name: str, title: str, reason: str = NO_PYSPIEL) -> Result:
    return Result(name=name, title=title, skipped=reason)


def measure_hands(config: BenchConfig, done: Mapping[str, Result]) -> tuple[Result, ...]:
    """Random full hands: the public API and ``playout()``, interleaved with euchre deals.

    Each round runs ours through the public API, then :func:`fivehundred.ai.playout.playout`,
    then OpenSpiel's euchre (when pyspiel is importable). Results:
    ``random_hands``, ``playout`` and ``openspiel_euchre``.
    """
    pyspiel = _load_pyspiel()
    euchre_title = "OpenSpiel euchre deals from Python (pyspiel), same random playout"
    probes = [hands_probe(None, config.seed), playout_probe(config.seed)]
    if pyspiel is not None:
        probes.append(euchre_deals_probe(pyspiel, config.seed))
    samples = interleave(probes, config.rounds, config.seconds)
    ours, played = samples[0], samples[1]
    results = [
        Result(
            name="random_hands",
            title="random hands, public API (new_game, deal, legal_actions, apply)",
            figures=_hands_figures(ours),
            **_totals(ours),
        ),
        Result(
            name="playout",
            title="random hands, fast playout (fivehundred.ai.playout)",
            figures=(
                median_figure("hands_per_second", "hands/s", [s.rate for s in played]),
                median_figure(
                    "us_per_hand", "µs/hand", [s.us_per_unit for s in played], lower_is_better=True
                ),
            ),
            **_totals(played),
        ),
    ]
    if pyspiel is None:
        results.append(_skipped_euchre("openspiel_euchre", euchre_title))
    else:
        euchre = samples[2]
        results.append(
            Result(
                name="openspiel_euchre",
                title=euchre_title,
                figures=(
                    median_figure("hands_per_second", "euchre hands/s", [s.rate for s in euchre]),
                    median_figure(
                        "player_actions_per_hand",
                        "player actions/hand",
                        [s.extra["actions"] / s.count for s in euchre],
                        digits=1,
                    ),
                    median_figure(
                        "chance_actions_per_hand",
                        "chance actions/hand",
                        [s.extra["chance"] / s.count for s in euchre],
                        digits=1,
                    ),
                    median_figure(
                        "us_per_action",
                        "µs/action (all)",
                        [
                            s.elapsed / (s.extra["actions"] + s.extra["chance"]) * 1e6
                            for s in euchre
                        ],
                        lower_is_better=True,
                        digits=2,
                    ),
                ),
                notes={"open_spiel": _open_spiel_version()},
                **_totals(euchre),
            )
        )
    return tuple(results)


def measure_legal_plays(config: BenchConfig, done: Mapping[str, Result]) -> tuple[Result, ...]:
    """``legal_plays`` on fresh mid-play states, interleaved with euchre's ``legal_actions``.

    Each round: *first call* (the states built afresh by ``apply``, untimed,
    then one timed ``legal_plays`` on each, the cost a playout pays); euchre's
    ``legal_actions()`` the same way; *repeat* (calls over the same states
    again and again, which a per-state memo answers). Results: ``legal_plays``
    and ``openspiel_euchre_legal_actions``.
    """
    pyspiel = _load_pyspiel()
    euchre_title = f"OpenSpiel euchre legal_actions() over {PLAY_STATES} fresh mid-play states"
    steps = collect_play_steps(config.seed)
    probes = [legal_plays_probe(steps)]
    if pyspiel is not None:
        probes.append(euchre_legal_actions_probe(pyspiel, config.seed))
    probes.append(repeat_legal_plays_probe([fh.apply(s, a) for s, a in steps]))
    samples = interleave(probes, config.rounds, config.seconds)
    first, repeat = samples[0], samples[-1]
    results = [
        Result(
            name="legal_plays",
            title=f"legal_plays over {len(steps)} mid-play states",
            figures=(
                median_figure("calls_per_second", "calls/s, first call", [s.rate for s in first]),
                median_figure(
                    "us_per_call",
                    "µs/call, first call",
                    [s.us_per_unit for s in first],
                    lower_is_better=True,
                    digits=2,
                ),
                median_figure(
                    "repeat_calls_per_second", "calls/s, repeat calls", [s.rate for s in repeat]
                ),
            ),
            count=sum(s.count for s in first + repeat),
            elapsed=sum(s.elapsed for s in first + repeat),
        )
    ]
    if pyspiel is None:
        results.append(_skipped_euchre("openspiel_euchre_legal_actions", euchre_title))
    else:
        euchre = samples[1]
        results.append(
            Result(
                name="openspiel_euchre_legal_actions",
                title=euchre_title,
                figures=(
                    median_figure(
                        "calls_per_second", "calls/s, first call", [s.rate for s in euchre]
                    ),
                    median_figure(
                        "us_per_call",
                        "µs/call, first call",
                        [s.us_per_unit for s in euchre],
                        lower_is_better=True,
                        digits=2,
                    ),
                ),
                **_totals(euchre),
            )
        )
    return tuple(results)


def measure_kitty(config: BenchConfig, done: Mapping[str, Result]) -> tuple[Result, ...]:
    """``legal_action_indices`` once on each fresh kitty (DISCARD) state, µs per call."""
    steps = collect_kitty_steps(config.seed)
    (samples,) = interleave([kitty_probe(steps)], config.rounds, config.seconds)
    return (
        Result(
            name="kitty",
            title=f"legal_action_indices over {len(steps)} fresh kitty (DISCARD) states",
            figures=(
                median_figure(
                    "us_per_call",
                    "µs/call, first call",
                    [s.us_per_unit for s in samples],
                    lower_is_better=True,
                    digits=1,
                ),
                median_figure("calls_per_second", "calls/s, first call", [s.rate for s in samples]),
            ),
            **_totals(samples),
        ),
    )


def measure_import(config: BenchConfig, done: Mapping[str, Result]) -> tuple[Result, ...]:
    """``import fivehundred`` (and ``import pyspiel``) above a bare interpreter, in ms.

    Each round runs fresh interpreters for ``--seconds`` each (at least one):
    ``python -c pass``, then ``python -c "import fivehundred"``, then
    ``python -c "import pyspiel"`` (when pyspiel is importable here and there);
    a round's figure is the median wall time of the import minus that of the
    bare interpreter. One untimed run of each first warms the file cache.
    Results: ``import`` and ``openspiel_import``.
    """
    pyspiel_title = "import pyspiel above a bare interpreter (fresh subprocesses)"
    codes = ["pass", "import fivehundred"]
    skipped: str | None = NO_PYSPIEL if _load_pyspiel() is None else None
    if skipped is None:
        try:
            _run_python("import pyspiel")
        except subprocess.CalledProcessError as error:
            last = (error.stderr or b"").decode(errors="replace").strip().splitlines()
            skipped = f"`import pyspiel` fails in a fresh interpreter: {last[-1] if last else ''}"
        else:
            codes.append("import pyspiel")
    for code in codes[:2]:
        _run_python(code)
    samples = interleave([python_probe(code) for code in codes], config.rounds, config.seconds)
    bare = [s.extra["median"] for s in samples[0]]

    def above(runs: Sequence[Sample]) -> list[float]:
        return [(s.extra["median"] - b) * 1e3 for s, b in zip(runs, bare, strict=True)]

    results = [
        Result(
            name="import",
            title="import fivehundred above a bare interpreter (fresh subprocesses)",
            figures=(
                median_figure("ms_above_bare", "ms above bare", above(samples[1]), digits=1),
                median_figure("bare_ms", "ms, bare interpreter", [b * 1e3 for b in bare], digits=1),
            ),
            **_totals(samples[1]),
        )
    ]
    if skipped is not None:
        results.append(_skipped_euchre("openspiel_import", pyspiel_title, skipped))
    else:
        results.append(
            Result(
                name="openspiel_import",
                title=pyspiel_title,
                figures=(
                    median_figure("ms_above_bare", "ms above bare", above(samples[2]), digits=1),
                ),
                **_totals(samples[2]),
            )
        )
    return tuple(results)


def measure_tables(config: BenchConfig, done: Mapping[str, Result]) -> tuple[Result, ...]:
    """Random full hands for 3, 5 and 6 players, interleaved with one another."""
    probes = [hands_probe(fh.Rules(players=n), config.seed) for n in OTHER_TABLES]
    samples = interleave(probes, config.rounds, config.seconds)
    return tuple(
        Result(
            name=f"random_hands_{n}p",
            title=f"random hands, public API, {n} players",
            figures=_hands_figures(taken),
            **_totals(taken),
        )
        for n, taken in zip(OTHER_TABLES, samples, strict=True)
    )


def measure_apply(config: BenchConfig, done: Mapping[str, Result]) -> tuple[Result, ...]:
    """Microseconds per ``apply`` alone, over the ``(state, action)`` pairs of seeded hands.

    The pairs cover every phase in the mix random play meets them. Their
    states had ``legal_actions`` asked of them while they were collected, as
    in a playout, so whatever the engine memoises on a state is in place.
    """
    pairs = collect_apply_pairs(config.seed)
    (samples,) = interleave([apply_probe(pairs)], config.rounds, config.seconds)
    return (
        Result(
            name="apply",
            title=f"apply alone over {len(pairs):,} (state, action) pairs of {APPLY_HANDS} hands",
            figures=(
                median_figure(
                    "us_per_apply",
                    "µs/apply",
                    [s.us_per_unit for s in samples],
                    lower_is_better=True,
                    digits=2,
                ),
                median_figure("applies_per_second", "applies/s", [s.rate for s in samples]),
            ),
            **_totals(samples),
        ),
    )


#: The headline figures: (key, label, ours as (result, figure), euchre's, digits).
#: A ``None`` euchre side means the figure is absolute (no ratio).
_HEADLINES: Final[tuple[tuple[str, str, tuple[str, str], tuple[str, str] | None, int], ...]] = (
    (
        "hands_ratio",
        "public-API hands ÷ euchre deals",
        ("random_hands", "hands_per_second"),
        ("openspiel_euchre", "hands_per_second"),
        2,
    ),
    (
        "playout_ratio",
        "playout() hands ÷ euchre deals",
        ("playout", "hands_per_second"),
        ("openspiel_euchre", "hands_per_second"),
        2,
    ),
    (
        "legal_plays_ratio",
        "legal_plays ÷ euchre legal_actions (first call)",
        ("legal_plays", "calls_per_second"),
        ("openspiel_euchre_legal_actions", "calls_per_second"),
        2,
    ),
    (
        "kitty_us_per_call",
        "legal_action_indices, kitty, µs/call",
        ("kitty", "us_per_call"),
        None,
        1,
    ),
    ("import_ms", "import fivehundred, ms above bare", ("import", "ms_above_bare"), None, 1),
)


def summarize(config: BenchConfig, done: Mapping[str, Result]) -> tuple[Result, ...]:
    """The headline figures beside their targets for the build that runs (result ``targets``).

    Nothing is measured here: the figures come from the results in ``done``. A
    ratio is the median of the per-round ratios of the two sides (measured in
    the same interleaved rounds). When the euchre side was skipped, the ratio
    is left out and a note gives the reason; when a side was not measured at
    all, a note says so. The text report shows each figure's range over the
    rounds beside its median, so a noisy run shows itself.
    """
    levels = targets()
    figures: list[Figure] = []
    notes: dict[str, str] = {}
    for key, label, (ours_name, ours_key), theirs, digits in _HEADLINES:
        level = levels[key]
        options: dict[str, Any] = {
            "target": level.target,
            "must": level.must,
            "lower_is_better": level.lower_is_better,
            "digits": digits,
        }
        ours = done.get(ours_name)
        if ours is None or ours.skipped is not None:
            notes[label] = f"not measured ({ours_name})"
            continue
        mine = ours.figure(ours_key)
        if theirs is None:
            figures.append(median_figure(key, label, mine.rounds, **options))
            continue
        other = done.get(theirs[0])
        if other is None:
            notes[label] = f"not measured ({theirs[0]})"
        elif other.skipped is not None:
            notes[label] = f"skipped: {other.skipped}"
        else:
            pairs = zip(mine.rounds, other.figure(theirs[1]).rounds, strict=True)
            figures.append(median_figure(key, label, [a / b for a, b in pairs], **options))
    build = "compiled" if compiled() else "pure"
    return (
        Result(
            name="targets",
            title=f"targets for the {build} build (median of {config.rounds} interleaved rounds)",
            figures=tuple(figures),
            notes=notes,
            spread=True,
        ),
    )


#: How many random hands give the states the compact mask is timed over.
MASK_HANDS: Final = 20
#: The compact mask's level (issue 12), µs per call in the slowest phase, either build.
MASK_TARGET_US: Final = 10.0
#: The PettingZoo environment's level (issue 12), agent steps per second.
PETTINGZOO_TARGET: Final = 1000.0


def collect_compact_states(
    seed: int, hands: int = MASK_HANDS
) -> dict[str, list[tuple[fh.GameState, tuple[fh.Card, ...]]]]:
    """States of random hands on compact ids, with any discard in progress, by phase
    (``"discard+pending"`` for the second and later card of a discard)."""

    rng = random.Random(seed)
    found: dict[str, list[tuple[fh.GameState, tuple[fh.Card, ...]]]] = {}
    for players in (4, 5):
        rules = fh.Rules(players=players)
        for _ in range(hands):
            state = fh.deal(fh.new_game(rules, dealer=rng.randrange(players)), rng=rng)
            pending: tuple[fh.Card, ...] = ()
            while state.phase not in _HAND_OVER:
                phase = state.phase.value + ("+pending" if pending else "")
                found.setdefault(phase, []).append((state, pending))
                move = rng.choice(legal_action_indices(state, layout="compact", pending=pending))
                state, pending = apply_index(state, move, layout="compact", pending=pending)
    return found


def compact_mask_probe(states: Sequence[tuple[fh.GameState, tuple[fh.Card, ...]]]) -> Probe:
    """``legal_action_mask(layout="compact")`` once on each of ``states``, in turn."""

    def step() -> int:
        for state, pending in states:
            legal_action_mask(state, layout="compact", pending=pending)
        return len(states)

    def probe(seconds: float) -> Sample:
        return _time_for(seconds, step)

    return probe


def pettingzoo_probe(seed: int) -> Probe:
    """Random legal agent steps of the PettingZoo environment, observations included."""
    from fivehundred.ai.pettingzoo import env

    table = env(max_hands=1_000_000)
    table.reset(seed=seed)
    rng = random.Random(seed)

    def step() -> int:
        for _ in range(100):
            agent = table.agent_selection
            if table.terminations[agent] or table.truncations[agent]:
                table.reset(seed=rng.randrange(1 << 30))
                agent = table.agent_selection
            mask = table.observe(agent)["action_mask"]
            table.step(rng.choice([i for i, ok in enumerate(mask) if ok]))
        return 100

    def probe(seconds: float) -> Sample:
        return _time_for(seconds, step)

    return probe


def measure_adapters(config: BenchConfig, done: Mapping[str, Result]) -> tuple[Result, ...]:
    """The compact mask (µs per call, each phase) and the PettingZoo env (agent steps/s)."""
    by_phase = collect_compact_states(config.seed)
    phases = sorted(by_phase)
    probes = [compact_mask_probe(by_phase[phase]) for phase in phases]
    samples = interleave(probes, config.rounds, config.seconds / len(phases))
    figures = [
        median_figure(
            f"us_per_call_{phase.replace('+', '_')}",
            f"µs/call, {phase}",
            [s.us_per_unit for s in taken],
            target=MASK_TARGET_US,
            lower_is_better=True,
            digits=2,
        )
        for phase, taken in zip(phases, samples, strict=True)
    ]
    results = [
        Result(
            name="compact_mask",
            title="compact_mask over random 4- and 5-player hands, by phase",
            figures=tuple(figures),
            **_totals([s for taken in samples for s in taken]),
        )
    ]
    try:
        import pettingzoo  # noqa: F401
    except ImportError:
        results.append(
            Result(
                "pettingzoo",
                "PettingZoo env: random legal agent steps",
                skipped="pettingzoo is not importable: `pip install fivehundred[pettingzoo]`",
            )
        )
        return tuple(results)
    (steps,) = interleave([pettingzoo_probe(config.seed)], config.rounds, config.seconds)
    results.append(
        Result(
            name="pettingzoo",
            title="PettingZoo env: random legal agent steps (observe, mask, step)",
            figures=(
                median_figure(
                    "steps_per_second",
                    "agent steps/s",
                    [s.rate for s in steps],
                    target=PETTINGZOO_TARGET,
                ),
            ),
            **_totals(steps),
        )
    )
    return tuple(results)


#: Every measurement, in the order it runs (``summarize`` last: it reads the others).
MEASUREMENTS: Final[list[Measurement]] = [
    measure_hands,
    measure_legal_plays,
    measure_kitty,
    measure_import,
    measure_tables,
    measure_apply,
    measure_adapters,
    measure_search,
    summarize,
]


def run(
    config: BenchConfig,
    measurements: Sequence[Measurement] = MEASUREMENTS,
    *,
    progress: Callable[[Result], None] | None = None,
) -> list[Result]:
    """Run the measurements in order; ``progress`` sees each result as it arrives."""
    done: dict[str, Result] = {}
    results: list[Result] = []
    for measurement in measurements:
        for result in measurement(config, done):
            done[result.name] = result
            results.append(result)
            if progress is not None:
                progress(result)
    return results


# -- output --------------------------------------------------------------------


def _environment() -> dict[str, Any]:
    return {
        "fivehundred": fh.__version__,
        "compiled": compiled(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(terse=True),
    }


def render_header(config: BenchConfig) -> str:
    """The first lines of the text report: what ran, where, how it was timed."""
    env = _environment()
    build = "compiled" if env["compiled"] else "pure"
    return (
        f"fivehundred {env['fivehundred']} benchmarks: fivehundred.COMPILED = {env['compiled']}"
        f" ({build} build), {env['python']} ({env['platform']})\n"
        f"{config.rounds} interleaved rounds of {config.seconds:g} s per figure, medians shown, "
        f"seed {config.seed}; {build}-build targets are goals, not checks"
    )


def _number(value: float, digits: int) -> str:
    return f"{value:,.{digits}f}"


def _level(word: str, figure: Figure, level: float | None, met: bool | None) -> str:
    sign = "≤" if figure.lower_is_better else "≥"
    return f"{word} {sign} {_number(level or 0.0, figure.digits)} ({'met' if met else 'not met'})"


def render_result(result: Result) -> str:
    """One result as text: its title, then a line per figure with its levels."""
    lines = [result.title]
    if result.skipped is not None:
        lines.append(f"  skipped: {result.skipped}")
        return "\n".join(lines)
    width = max((len(f.label) for f in result.figures), default=0)
    width = max(width + 2, 24)
    ranges = {
        f.key: f"[{_number(min(f.rounds), f.digits)}–{_number(max(f.rounds), f.digits)}]"
        for f in result.figures
        if result.spread and f.rounds
    }
    spread = max(map(len, ranges.values()), default=0)
    for figure in result.figures:
        line = f"  {figure.label:<{width}}{_number(figure.value, figure.digits):>12}"
        if ranges:
            line += f"  {ranges.get(figure.key, ''):<{spread}}"
        levels = []
        if figure.must is not None:
            levels.append(_level("must", figure, figure.must, figure.meets_must))
        if figure.target is not None:
            levels.append(_level("target", figure, figure.target, figure.meets_target))
        if levels:
            line += "   " + ", ".join(levels)
        lines.append(line)
    for label, text in result.notes.items():
        lines.append(f"  {label}: {text}")
    if result.count:
        lines.append(f"  ({result.count:,} timed in {result.elapsed:.2f} s)")
    return "\n".join(lines)


def render_text(config: BenchConfig, results: Sequence[Result]) -> str:
    """The whole text report."""
    return "\n\n".join([render_header(config), *(render_result(r) for r in results)])


def render_json(config: BenchConfig, results: Sequence[Result]) -> str:
    """The whole report as JSON: environment, config, and each result by name."""
    summary = {
        "environment": _environment(),
        "config": {"seconds": config.seconds, "seed": config.seed, "rounds": config.rounds},
        "results": {
            result.name: {
                "title": result.title,
                "skipped": result.skipped,
                "count": result.count,
                "elapsed": result.elapsed,
                "notes": dict(result.notes),
                "figures": {
                    figure.key: {
                        "label": figure.label,
                        "value": figure.value,
                        "rounds": list(figure.rounds),
                        "target": figure.target,
                        "must": figure.must,
                        "lower_is_better": figure.lower_is_better,
                        "meets_target": figure.meets_target,
                        "meets_must": figure.meets_must,
                    }
                    for figure in result.figures
                },
            }
            for result in results
        },
    }
    return json.dumps(summary, indent=2, ensure_ascii=False)


# -- command line --------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Benchmark the fivehundred public API (figures only: nothing fails).",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=DEFAULT_SECONDS,
        help=f"wall-clock seconds per figure per round (default {DEFAULT_SECONDS:g})",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=DEFAULT_ROUNDS,
        help=f"interleaved rounds, the median is shown (default {DEFAULT_ROUNDS}, "
        f"at least {MIN_ROUNDS})",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        help=f"seed of the random games (default {DEFAULT_SEED})",
    )
    parser.add_argument(
        "--json", action="store_true", help="print a JSON summary instead of the text report"
    )
    parser.add_argument(
        "--server",
        type=float,
        nargs="?",
        const=5.0,
        default=None,
        metavar="SECONDS",
        help="measure only the game server: its CPU per request, then 1, 4, 16 and 64 "
        "clients, on SQLite then on two processes sharing PostgreSQL (default 5 s a "
        "level, at most 30; "
        'needs pip install "fivehundred[server]")',
    )
    return parser


def _server_measurement(seconds: float) -> Measurement:
    """The game server's load measurement (benchmarks.server), run for ``seconds``."""

    def measure(config: BenchConfig, done: Mapping[str, Result]) -> Sequence[Result]:
        from benchmarks.server import measure_server

        return measure_server(config, done, seconds=seconds)

    return measure


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks``: run every measurement and print the report."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if args.rounds < MIN_ROUNDS:
        parser.error(f"--rounds must be at least {MIN_ROUNDS}")
    if args.server is not None and not 0 < args.server <= 30:
        parser.error("--server takes 0 to 30 seconds")
    config = BenchConfig(seconds=args.seconds, seed=args.seed, rounds=args.rounds)
    measurements = MEASUREMENTS if args.server is None else [_server_measurement(args.server)]
    if args.json:
        print(render_json(config, run(config, measurements)))
        return 0
    print(render_header(config), flush=True)

    def show(result: Result) -> None:
        print(f"\n{render_result(result)}", flush=True)

    run(config, measurements, progress=show)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
