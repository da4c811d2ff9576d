"""Search for bots: OpenSpiel's ISMCTS and its operations beside euchre, and sampling.

Part of the suite (``python -m benchmarks``; ``nox -s bench_openspiel`` or
``nox -s bench_compiled`` install open_spiel); alone, ``python -m benchmarks.bench_search``.
Every figure is measured in interleaved rounds and the median is shown (see
:mod:`benchmarks.suite`); a ratio is the median of the per-round ratios of two
probes timed in the same rounds.

- **ISMCTS**: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with 50
  simulations and one random rollout (``mcts.RandomRolloutEvaluator``), the same
  settings for both games, deciding at seeded mid-hand decision states of
  ``python_five_hundred`` and of OpenSpiel's C++ ``euchre``. The figure is
  euchre's decisions per second over ours.
- **Operations**, five_hundred's time per call over euchre's, on fresh states
  (nothing worked out yet, as in a search, where each state is new):
  ``clone``; ``legal_actions``; ``resample_from_infostate``, 50 draws a state (as
  ISMCTS draws 50 worlds for one decision).
- **Sampling** (no OpenSpiel needed): ``sample_deal`` drawing again for the same
  view, and ``sample_deals`` per deal, each as a number of random play-outs
  (``fivehundred.ai.playout.playout`` to the end of the hand) from the same states.

>>> from benchmarks.results import BenchConfig
>>> (sampling,) = measure_sampling(BenchConfig(seconds=0.01, seed=1, rounds=1), {})
>>> sampling.figure("sample_deal_playouts").value > 0
True
"""

from __future__ import annotations

import importlib
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import fivehundred as fh
from benchmarks.results import BenchConfig, Figure, Result
from fivehundred.ai.playout import playout
from fivehundred.bots import sample_deal, sample_deals

__all__ = [
    "ISMCTS_SIMULATIONS",
    "LEVELS",
    "measure_ismcts",
    "measure_sampling",
    "measure_search",
    "spiel_states",
]

#: ISMCTS settings, the same for both games: simulations a decision, random rollouts.
ISMCTS_SIMULATIONS: Final = 50
ISMCTS_ROLLOUTS: Final = 1
#: How many decision states each game's operations are timed over.
OPERATION_STATES: Final = 60
#: Draws of ``resample_from_infostate`` a state, as ISMCTS draws a world a simulation.
RESAMPLES: Final = ISMCTS_SIMULATIONS
#: How many library states the sampling figures are timed over, and deals a batch.
SAMPLING_STATES: Final = 40
BATCH: Final = 50

#: (goal, must) of each figure; every one is better lower (issue 27).
LEVELS: Final[Mapping[str, tuple[float, float]]] = {
    "ismcts_ratio": (5.0, 8.0),
    "clone_ratio": (10.0, 25.0),
    "resample_ratio": (10.0, 25.0),
    "legal_actions_ratio": (10.0, 25.0),
    "sample_deal_playouts": (5.0, 8.0),
    "sample_deals_playouts": (5.0, 8.0),
}

#: A timing loop: given seconds, it runs about that long and returns (units, seconds).
Timer = Callable[[float], tuple[int, float]]


def _rounds(timers: Sequence[Timer], config: BenchConfig) -> list[list[float]]:
    """Seconds per unit of each timer in each round, the timers interleaved in a round
    (each runs ``config.seconds`` a round)."""
    out: list[list[float]] = [[] for _ in timers]
    for _ in range(config.rounds):
        for timer, taken in zip(timers, out, strict=True):
            units, elapsed = timer(config.seconds)
            taken.append(elapsed / units)
    return out


def _figure(key: str, label: str, values: Sequence[float], digits: int = 1) -> Figure:
    goal, must = LEVELS.get(key, (None, None))
    return Figure(
        key,
        label,
        statistics.median(values),
        target=goal,
        must=must,
        lower_is_better=True,
        digits=digits,
        rounds=tuple(values),
    )


def _plain(key: str, label: str, values: Sequence[float], digits: int = 1) -> Figure:
    return Figure(key, label, statistics.median(values), digits=digits, rounds=tuple(values))


def _loop(seconds: float, batch: Callable[[], int]) -> tuple[int, float]:
    """Call ``batch`` (it returns the units it timed) until ``seconds`` have passed."""
    clock = time.perf_counter
    units = 0
    start = clock()
    while True:
        units += batch()
        elapsed = clock() - start
        if elapsed >= seconds:
            return units, elapsed


# -- sampling --------------------------------------------------------------------


def _library_states(seed: int, count: int) -> list[fh.GameState]:
    """Seeded random mid-hand states with a seat to act, a few from each hand."""
    rng = random.Random(seed)
    out: list[fh.GameState] = []
    for _ in range(10 * count):
        state = fh.deal(fh.new_game(dealer=rng.randrange(4)), rng=rng)
        seen = []
        while state.phase not in (fh.Phase.DEAL, fh.Phase.GAME_OVER):
            seen.append(state)
            state = fh.apply(state, rng.choice(fh.legal_actions(state)))
        out += rng.sample(seen, min(4, len(seen)))
        if len(out) >= count:
            return out[:count]
    raise AssertionError("no random hand lasted long enough")  # pragma: no cover


def measure_sampling(config: BenchConfig, done: Mapping[str, Result]) -> tuple[Result, ...]:
    """``sample_deal`` again for one view, and ``sample_deals`` per deal, in play-outs."""
    states = _library_states(config.seed, SAMPLING_STATES)
    views = [fh.observe(s, s.to_act if s.to_act is not None else 0) for s in states]
    rng = random.Random(config.seed)
    for view in views:  # the count of each view, once, untimed: then every draw is "again"
        sample_deal(view, rng)
    pairs = list(zip(states, views, strict=True))
    at = [0, 0, 0]

    def cycling(which: int, each: Callable[[fh.GameState, fh.PlayerView], int]) -> Timer:
        """A timer that takes the states in turn, one a step, where the last one stopped."""

        def step() -> int:
            state, view = pairs[at[which] % len(pairs)]
            at[which] += 1
            return each(state, view)

        return lambda seconds: _loop(seconds, step)

    def again(state: fh.GameState, view: fh.PlayerView) -> int:
        sample_deal(view, rng)
        return 1

    def batched(state: fh.GameState, view: fh.PlayerView) -> int:
        # a new view object: its deals are counted once for the batch (and kept)
        sample_deals(fh.observe(state, view.seat), BATCH, rng)
        return BATCH

    def played(state: fh.GameState, view: fh.PlayerView) -> int:
        playout(state, rng=rng)
        return 1

    deal_s, batch_s, playout_s = _rounds(
        [cycling(0, again), cycling(1, batched), cycling(2, played)], config
    )
    return (
        Result(
            name="sampling",
            title=(
                "sample_deal and sample_deals, in random play-outs from the same states "
                f"({len(pairs)} mid-hand states)"
            ),
            figures=(
                _figure(
                    "sample_deal_playouts",
                    "sample_deal, same view again (play-outs)",
                    [a / b for a, b in zip(deal_s, playout_s, strict=True)],
                ),
                _figure(
                    "sample_deals_playouts",
                    f"sample_deals, per deal of {BATCH} for a new view (play-outs)",
                    [a / b for a, b in zip(batch_s, playout_s, strict=True)],
                ),
                _plain("sample_deal_us", "sample_deal, same view again (µs)", _us(deal_s)),
                _plain("sample_deals_us", f"sample_deals, per deal of {BATCH} (µs)", _us(batch_s)),
                _plain("playout_us", "random play-out to the hand's end (µs)", _us(playout_s)),
            ),
        ),
    )


def _us(values: Sequence[float]) -> list[float]:
    return [v * 1e6 for v in values]


# -- OpenSpiel -----------------------------------------------------------------------


def _load_spiel() -> tuple[Any, Any, Any] | None:
    """``pyspiel``, ``ismcts`` and ``mcts``, with five_hundred registered; or ``None``."""
    try:
        pyspiel = importlib.import_module("pyspiel")
        ismcts = importlib.import_module("open_spiel.python.algorithms.ismcts")
        mcts = importlib.import_module("open_spiel.python.algorithms.mcts")
        importlib.import_module("fivehundred.ai.openspiel")
        importlib.import_module("numpy")
    except ImportError:
        return None
    return pyspiel, ismcts, mcts


def spiel_states(game: Any, seed: int, count: int) -> list[list[int]]:
    """The histories of ``count`` seeded decision states of ``game`` with a choice to make:
    random play from new games, a state kept now and then."""
    rng = random.Random(seed)
    out: list[list[int]] = []
    for _ in range(100 * count):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.15:
                out.append(list(state.history()))
                if len(out) == count:
                    return out
            state.apply_action(rng.choice(legal))
    raise AssertionError("too few decision states")  # pragma: no cover


def _replayed(game: Any, histories: Sequence[list[int]]) -> list[Any]:
    """Fresh states with these histories (nothing worked out on them yet)."""
    out = []
    for history in histories:
        state = game.new_initial_state()
        for action in history:
            state.apply_action(action)
        out.append(state)
    return out


def _operation_timers(game: Any, histories: Sequence[list[int]], pyspiel: Any) -> list[Timer]:
    """Timers of clone, legal_actions and 50 resamples a state, on fresh states."""
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)

    def fresh_loop(seconds: float, each: Callable[[Any], int]) -> tuple[int, float]:
        """Time ``each`` on fresh states for ``seconds`` (at most twice that of wall time,
        since making the states is not timed)."""
        clock = time.perf_counter
        units = 0
        elapsed = 0.0
        wall = clock() + 2 * seconds
        while elapsed < seconds and (units == 0 or clock() < wall):
            states = _replayed(game, histories)  # untimed
            start = clock()
            for state in states:
                units += each(state)
            elapsed += clock() - start
        return units, elapsed

    def clone(state: Any) -> int:
        state.clone()
        return 1

    def legal(state: Any) -> int:
        state.legal_actions()
        return 1

    def resample(state: Any) -> int:
        player = state.current_player()
        for _ in range(RESAMPLES):
            state.resample_from_infostate(player, sampler)
        return RESAMPLES

    return [
        lambda seconds: fresh_loop(seconds, clone),
        lambda seconds: fresh_loop(seconds, legal),
        lambda seconds: fresh_loop(seconds, resample),
    ]


def measure_ismcts(config: BenchConfig, done: Mapping[str, Result]) -> tuple[Result, ...]:
    """ISMCTS decisions/s and clone/legal_actions/resample per call, ours beside euchre's."""
    loaded = _load_spiel()
    title = "OpenSpiel ISMCTS (50 simulations, 1 random rollout) and its operations, vs euchre"
    if loaded is None:
        return (
            Result(
                "ismcts",
                title,
                skipped="open_spiel is not importable: `pip install fivehundred[openspiel]`, "
                "or run `nox -s bench_openspiel`",
            ),
        )
    pyspiel, ismcts, mcts = loaded
    import numpy as np

    games = [pyspiel.load_game("python_five_hundred"), pyspiel.load_game("euchre")]
    histories = [spiel_states(game, config.seed, OPERATION_STATES) for game in games]

    def decider(game: Any, states: list[list[int]]) -> Timer:
        bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(
                n_rollouts=ISMCTS_ROLLOUTS, random_state=np.random.RandomState(config.seed)
            ),
            uct_c=2.0,
            max_simulations=ISMCTS_SIMULATIONS,
            random_state=np.random.RandomState(config.seed),
        )
        at = 0

        def timer(seconds: float) -> tuple[int, float]:
            nonlocal at
            clock = time.perf_counter
            units = 0
            elapsed = 0.0
            wall = clock() + 2 * seconds
            while elapsed < seconds and (units == 0 or clock() < wall):
                (state,) = _replayed(game, [states[at % len(states)]])
                at += 1
                start = clock()
                bot.step(state)
                elapsed += clock() - start
                units += 1
            return units, elapsed

        return timer

    ours_ops = _operation_timers(games[0], histories[0], pyspiel)
    theirs_ops = _operation_timers(games[1], histories[1], pyspiel)
    timers = [decider(games[0], histories[0]), decider(games[1], histories[1])]
    for mine, theirs in zip(ours_ops, theirs_ops, strict=True):
        timers += [mine, theirs]
    ours, euchre, *ops = _rounds(timers, config)
    figures = [
        _figure(
            "ismcts_ratio",
            "ISMCTS decisions/s, euchre ÷ five_hundred",
            [a / b for a, b in zip(ours, euchre, strict=True)],
        ),
        _plain("ismcts_per_second", "five_hundred ISMCTS decisions/s", [1 / v for v in ours]),
        _plain("euchre_ismcts_per_second", "euchre ISMCTS decisions/s", [1 / v for v in euchre]),
    ]
    for name, label, (mine_s, theirs_s) in zip(
        ("clone", "legal_actions", "resample"),
        ("clone", "legal_actions", "resample_from_infostate"),
        zip(ops[::2], ops[1::2], strict=True),
        strict=True,
    ):
        figures.append(
            _figure(
                f"{name}_ratio",
                f"{label}, five_hundred ÷ euchre (per call)",
                [a / b for a, b in zip(mine_s, theirs_s, strict=True)],
            )
        )
        figures.append(_plain(f"{name}_us", f"{label}, five_hundred (µs)", _us(mine_s), 2))
        figures.append(_plain(f"euchre_{name}_us", f"{label}, euchre (µs)", _us(theirs_s), 2))
    return (Result("ismcts", title, figures=tuple(figures), spread=True),)


def measure_search(config: BenchConfig, done: Mapping[str, Result]) -> tuple[Result, ...]:
    """Every figure of this module: sampling, then ISMCTS beside euchre."""
    return (*measure_sampling(config, done), *measure_ismcts(config, done))


if __name__ == "__main__":  # pragma: no cover - the suite runs it as a measurement
    import argparse

    from benchmarks.results import DEFAULT_ROUNDS, DEFAULT_SECONDS, DEFAULT_SEED

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS)
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args()
    config = BenchConfig(seconds=args.seconds, seed=args.seed, rounds=args.rounds)
    print(f"fivehundred.COMPILED = {fh.COMPILED}; {config}")
    for result in measure_search(config, {}):
        print(result.title)
        if result.skipped:
            print(f"  skipped: {result.skipped}")
        for figure in result.figures:
            level = ""
            if figure.target is not None:
                level = (
                    f"  goal ≤ {figure.target:g} ({'met' if figure.meets_target else 'not met'}),"
                    f" must ≤ {figure.must:g} ({'met' if figure.meets_must else 'not met'})"
                )
            print(f"  {figure.label}: {figure.value:,.{figure.digits}f}{level}")
