"""Benchmarks: how fast the public API plays Five Hundred.

Run ``python -m fivehundred.bench`` (or ``nox -s bench``; ``nox -s bench_openspiel``
adds the OpenSpiel euchre comparison). Every figure is measured for about
``--seconds`` of wall time with :func:`time.perf_counter`, and every random
choice comes from a ``random.Random(--seed)``, so the games played are the same
on every run. Targets are printed beside the figures; nothing fails when a
figure misses its target. ``--json`` prints a machine-readable summary instead.

A measurement is a function ``(config, done) -> Result``: ``config`` holds the
time budget and the seed, ``done`` the results measured before it (by name), so
a figure can be put beside an earlier one. :data:`MEASUREMENTS` lists them in
the order they run; to add a figure, write such a function and append it there.

>>> config = BenchConfig(seconds=0.01, seed=1)
>>> result = measure_random_hands(config, {})
>>> result.figure("hands_per_second").value > 0
True
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import itertools
import json
import platform
import random
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Final, TypeAlias

from fivehundred.actions import Action
from fivehundred.engine import apply, deal, legal_actions, legal_plays, new_game
from fivehundred.playout import playout
from fivehundred.rules import Rules
from fivehundred.state import GameState, Phase

__all__ = [
    "MEASUREMENTS",
    "BenchConfig",
    "Figure",
    "Measurement",
    "Result",
    "collect_apply_pairs",
    "collect_play_states",
    "collect_play_steps",
    "main",
    "make_random_hands",
    "measure_apply",
    "measure_euchre",
    "measure_legal_plays",
    "measure_playout",
    "measure_random_hands",
    "random_hands",
    "render_header",
    "render_json",
    "render_result",
    "render_text",
    "run",
]

#: Seconds per measurement unless ``--seconds`` says otherwise.
DEFAULT_SECONDS: Final = 3.0
#: The seed of every measurement's ``random.Random`` unless ``--seed`` says otherwise.
DEFAULT_SEED: Final = 500
#: Random full hands per second wanted from the public immutable API.
HANDS_PER_SECOND_TARGET: Final = 5_000.0
#: Our hands/s over OpenSpiel euchre's hands/s wanted from the public immutable API.
EUCHRE_RATIO_TARGET: Final = 0.5
#: Random full hands per second through the fast playout path (issue 5).
PLAYOUT_HANDS_TARGET: Final = 15_000.0
#: Playout hands/s over OpenSpiel euchre's hands/s.
PLAYOUT_RATIO_TARGET: Final = 1.5
#: How many mid-play states ``legal_plays`` is timed over.
PLAY_STATES: Final = 200
#: How many seeded hands give the ``(state, action)`` pairs ``apply`` is timed over.
APPLY_HANDS: Final = 50
#: A hand is over (and counted) when the game reaches one of these phases.
_HAND_OVER: Final = (Phase.DEAL, Phase.GAME_OVER)


# -- results -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BenchConfig:
    """What every measurement is given: its time budget and its seed."""

    #: Wall-clock seconds each measurement runs for (at least one round always runs).
    seconds: float = DEFAULT_SECONDS
    #: Seed of the ``random.Random`` each measurement makes for itself.
    seed: int = DEFAULT_SEED


@dataclass(frozen=True, slots=True)
class Figure:
    """One measured number, with the target it is held against (if any)."""

    #: Machine key, e.g. ``"hands_per_second"`` (stable: used in the JSON output).
    key: str
    #: Human label, e.g. ``"hands/s"``.
    label: str
    value: float
    #: The value wanted; ``None`` when this figure has no target.
    target: float | None = None
    #: True for a time per call (smaller is better), False for a rate.
    lower_is_better: bool = False
    #: Decimal places shown in the text report.
    digits: int = 0

    @property
    def meets_target(self) -> bool | None:
        """Whether the value reaches the target; ``None`` when there is no target."""
        if self.target is None:
            return None
        if self.lower_is_better:
            return self.value <= self.target
        return self.value >= self.target


@dataclass(frozen=True, slots=True)
class Result:
    """What one measurement found: its figures, or why it was skipped."""

    #: Machine key, e.g. ``"random_hands"`` (stable: used in the JSON output).
    name: str
    #: One line for a person: what was measured.
    title: str
    figures: tuple[Figure, ...] = ()
    #: How many timed units (hands, calls) ran, and in how many seconds.
    count: int = 0
    elapsed: float = 0.0
    #: Why nothing was measured, or ``None`` when it was.
    skipped: str | None = None
    #: Further facts worth printing (e.g. the OpenSpiel version), as label → text.
    notes: Mapping[str, str] = field(default_factory=dict)

    def figure(self, key: str) -> Figure:
        """The figure with this key; ``KeyError`` if there is none."""
        for figure in self.figures:
            if figure.key == key:
                return figure
        raise KeyError(f"{self.name} has no figure {key!r}")


#: A benchmark: it is given the config and the results measured before it, by name.
Measurement: TypeAlias = Callable[[BenchConfig, Mapping[str, Result]], Result]


# -- seeded random games -----------------------------------------------------


def random_hands(
    rng: random.Random, rules: Rules | None = None
) -> Iterator[tuple[tuple[GameState, Action], ...]]:
    """The ``(state, action)`` pairs of random hands, one hand at a time, without end.

    A game starts with ``new_game(rules, dealer=0)``; each hand is dealt with
    ``rng``; every action is ``rng.choice(legal_actions(state))``; a new game
    starts when one is over. Used to collect states to time, not in a timed loop.
    """
    state = new_game(rules, dealer=0)
    while True:
        if state.phase is Phase.GAME_OVER:
            state = new_game(rules, dealer=0)
        state = deal(state, rng=rng)
        pairs: list[tuple[GameState, Action]] = []
        while state.phase not in _HAND_OVER:
            action = rng.choice(legal_actions(state))
            pairs.append((state, action))
            state = apply(state, action)
        yield tuple(pairs)


def collect_play_steps(seed: int, count: int = PLAY_STATES) -> tuple[tuple[GameState, Action], ...]:
    """``count`` steps ``(state, action)`` of seeded random hands that lead to a PLAY state.

    ``apply(state, action)`` is a mid-play state (a card to play). About one
    such step in four is kept, so the states spread over many hands and over
    every point of a trick (leads, follows, last tricks). Keeping the step
    rather than the state lets a benchmark build the state afresh, with
    nothing memoised on it yet.
    """
    rng = random.Random(seed)
    steps: list[tuple[GameState, Action]] = []
    for hand in random_hands(rng):
        for step, (following, _) in itertools.pairwise(hand):
            if following.phase is Phase.PLAY and rng.random() < 0.25:
                steps.append(step)
                if len(steps) == count:
                    return tuple(steps)
    raise AssertionError("unreachable: random_hands never ends")  # pragma: no cover


def collect_play_states(seed: int, count: int = PLAY_STATES) -> tuple[GameState, ...]:
    """``count`` fresh PLAY-phase states of seeded random hands (see :func:`collect_play_steps`)."""
    return tuple(apply(state, action) for state, action in collect_play_steps(seed, count))


def collect_apply_pairs(
    seed: int, hands: int = APPLY_HANDS
) -> tuple[tuple[GameState, Action], ...]:
    """Every ``(state, action)`` pair of ``hands`` seeded random hands, all phases."""
    played = itertools.islice(random_hands(random.Random(seed)), hands)
    return tuple(itertools.chain.from_iterable(played))


# -- the measurements ----------------------------------------------------------


def _time_rounds(seconds: float, one_round: Callable[[], int]) -> tuple[int, int, float]:
    """Call ``one_round`` again and again for ``seconds`` of wall time (at least once).

    ``one_round`` returns how many things it did (actions, calls). The answer
    is the number of rounds, the sum of those counts and the seconds taken, by
    :func:`time.perf_counter`; the clock is read once per round.
    """
    clock = time.perf_counter
    rounds = count = 0
    start = clock()
    deadline = start + seconds
    while True:
        count += one_round()
        rounds += 1
        now = clock()
        if now >= deadline:
            return rounds, count, now - start


def make_random_hands(
    rules: Rules | None = None,
    *,
    name: str = "random_hands",
    title: str | None = None,
    target: float | None = HANDS_PER_SECOND_TARGET,
) -> Measurement:
    """A measurement of random full hands per second through the public immutable API.

    The timed loop: ``new_game(rules, dealer=0)`` → ``deal(state, rng=rng)`` →
    ``apply(state, rng.choice(legal_actions(state)))`` until the hand is over
    (phase DEAL or GAME_OVER) → one hand; a new game starts when the game is
    over. The ``rng.choice`` and the ``deal`` are part of the time, as they are
    for a user's playout. Pass other ``rules`` (and a ``name``) for another table.
    """
    heading = title or "random hands, public API (new_game, deal, legal_actions, apply)"

    def measure(config: BenchConfig, done: Mapping[str, Result]) -> Result:
        rng = random.Random(config.seed)
        game = new_game(rules, dealer=0)

        def one_hand() -> int:
            nonlocal game
            choice = rng.choice
            deal_, apply_, legal = deal, apply, legal_actions
            over = _HAND_OVER
            state = game
            if state.phase is Phase.GAME_OVER:
                state = new_game(rules, dealer=0)
            state = deal_(state, rng=rng)
            actions = 0
            while state.phase not in over:
                state = apply_(state, choice(legal(state)))
                actions += 1
            game = state
            return actions

        hands, actions, elapsed = _time_rounds(config.seconds, one_hand)
        return Result(
            name=name,
            title=heading,
            figures=(
                Figure("hands_per_second", "hands/s", hands / elapsed, target=target),
                Figure("actions_per_second", "actions/s", actions / elapsed),
                Figure(
                    "us_per_action",
                    "µs/action",
                    elapsed / actions * 1e6,
                    lower_is_better=True,
                    digits=2,
                ),
                Figure("actions_per_hand", "actions/hand", actions / hands, digits=1),
            ),
            count=hands,
            elapsed=elapsed,
        )

    return measure


#: Random full hands of the default game (``Rules()``) through the public API.
measure_random_hands: Final[Measurement] = make_random_hands()


def measure_legal_plays(config: BenchConfig, done: Mapping[str, Result]) -> Result:
    """``legal_plays`` calls per second over a fixed set of mid-play states.

    Two figures, half the time budget each. *First call*: each round builds the
    states afresh (``apply`` on their seeded predecessors, untimed) and times
    one ``legal_plays`` call on each, the cost a playout pays. *Repeat*: calls
    over the same states again and again, which is what the engine's per-state
    memo (if it keeps one) answers.
    """
    steps = collect_play_steps(config.seed)
    legal, apply_ = legal_plays, apply
    clock = time.perf_counter
    half = config.seconds / 2
    first_calls = 0
    first_time = 0.0
    deadline = clock() + half
    while True:
        states = [apply_(state, action) for state, action in steps]
        start = clock()
        for state in states:
            legal(state)
        now = clock()
        first_time += now - start
        first_calls += len(states)
        if now >= deadline:
            break

    def repeat_round() -> int:
        for state in states:
            legal(state)
        return len(states)

    _, repeat_calls, repeat_time = _time_rounds(half, repeat_round)
    return Result(
        name="legal_plays",
        title=f"legal_plays over {len(steps)} mid-play states",
        figures=(
            Figure("calls_per_second", "calls/s, first call", first_calls / first_time),
            Figure(
                "us_per_call",
                "µs/call, first call",
                first_time / first_calls * 1e6,
                lower_is_better=True,
                digits=2,
            ),
            Figure("repeat_calls_per_second", "calls/s, repeat calls", repeat_calls / repeat_time),
        ),
        count=first_calls + repeat_calls,
        elapsed=first_time + repeat_time,
    )


def measure_apply(config: BenchConfig, done: Mapping[str, Result]) -> Result:
    """Microseconds per ``apply`` alone, over the ``(state, action)`` pairs of seeded hands.

    The pairs cover every phase in the mix random play meets them. Their
    states had ``legal_actions`` asked of them while they were collected, as
    in a playout, so whatever the engine memoises on a state is in place.
    """
    pairs = collect_apply_pairs(config.seed)

    def apply_round() -> int:
        apply_ = apply
        for state, action in pairs:
            apply_(state, action)
        return len(pairs)

    _, calls, elapsed = _time_rounds(config.seconds, apply_round)
    return Result(
        name="apply",
        title=f"apply alone over {len(pairs):,} (state, action) pairs of {APPLY_HANDS} hands",
        figures=(
            Figure(
                "us_per_apply", "µs/apply", elapsed / calls * 1e6, lower_is_better=True, digits=2
            ),
            Figure("applies_per_second", "applies/s", calls / elapsed),
        ),
        count=calls,
        elapsed=elapsed,
    )


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


def measure_euchre(config: BenchConfig, done: Mapping[str, Result]) -> Result:
    """OpenSpiel's euchre, played the same way from Python, and our ratio to it.

    One euchre game is one hand: ``new_initial_state()``, chance nodes (the
    deal) drawn from ``chance_outcomes()`` with the seeded ``random.Random``,
    player nodes by ``rng.choice(state.legal_actions())``, ``apply_action``
    until terminal. The ratio is our random-hands figure (measured here if it
    has not been yet) over euchre's hands/s.
    """
    name = "openspiel_euchre"
    title = "OpenSpiel euchre from Python (pyspiel), same random playout"
    pyspiel = _load_pyspiel()
    if pyspiel is None:
        return Result(
            name=name,
            title=title,
            skipped=(
                "pyspiel is not importable: `pip install open_spiel`, "
                "or run `nox -s bench_openspiel`"
            ),
        )
    ours = done.get("random_hands") or measure_random_hands(config, done)
    game = pyspiel.load_game("euchre")
    rng = random.Random(config.seed)
    choice = rng.choice
    chance = 0

    def one_game() -> int:
        """One euchre hand; its player actions (its chance actions go to ``chance``)."""
        nonlocal chance
        actions = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_sample_chance(rng, state.chance_outcomes()))
                chance += 1
            else:
                state.apply_action(choice(state.legal_actions()))
                actions += 1
        return actions

    hands, actions, elapsed = _time_rounds(config.seconds, one_game)
    euchre_rate = hands / elapsed
    ratio = ours.figure("hands_per_second").value / euchre_rate
    return Result(
        name=name,
        title=title,
        figures=(
            Figure("hands_per_second", "euchre hands/s", euchre_rate),
            Figure("player_actions_per_hand", "player actions/hand", actions / hands, digits=1),
            Figure("chance_actions_per_hand", "chance actions/hand", chance / hands, digits=1),
            Figure(
                "us_per_action",
                "µs/action (all)",
                elapsed / (actions + chance) * 1e6,
                lower_is_better=True,
                digits=2,
            ),
            Figure("ratio", "our hands/s ÷ euchre", ratio, target=EUCHRE_RATIO_TARGET, digits=2),
            *(
                (
                    Figure(
                        "playout_ratio",
                        "playout hands/s ÷ euchre",
                        done["playout"].figure("hands_per_second").value / euchre_rate,
                        target=PLAYOUT_RATIO_TARGET,
                        digits=2,
                    ),
                )
                if "playout" in done
                else ()
            ),
        ),
        count=hands,
        elapsed=elapsed,
        notes={"open_spiel": _open_spiel_version()},
    )


def measure_playout(config: BenchConfig, done: Mapping[str, Result]) -> Result:
    """Random full hands per second through :func:`~fivehundred.playout` (the bots' path).

    The timed loop: ``playout(state, rng=rng)`` plays one whole hand (deal,
    auction, kitty, play, score) with uniformly random legal actions; a new
    game starts when one is over.
    """
    rng = random.Random(config.seed)
    state = new_game(dealer=0)

    def one_hand() -> int:
        nonlocal state
        if state.phase is Phase.GAME_OVER:
            state = new_game(dealer=0)
        state = playout(state, rng=rng)
        return 1

    hands, _, elapsed = _time_rounds(config.seconds, one_hand)
    return Result(
        name="playout",
        title="random hands, fast playout (fivehundred.playout)",
        figures=(
            Figure("hands_per_second", "hands/s", hands / elapsed, target=PLAYOUT_HANDS_TARGET),
            Figure("us_per_hand", "µs/hand", elapsed / hands * 1e6, lower_is_better=True),
        ),
        count=hands,
        elapsed=elapsed,
    )


#: Every measurement, in the order it runs.
MEASUREMENTS: Final[list[Measurement]] = [
    measure_random_hands,
    *(
        make_random_hands(
            Rules(players=n),
            name=f"random_hands_{n}p",
            title=f"random hands, public API, {n} players",
            target=None,
        )
        for n in (3, 5, 6)
    ),
    measure_legal_plays,
    measure_apply,
    measure_playout,
    measure_euchre,
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
        result = measurement(config, done)
        done[result.name] = result
        results.append(result)
        if progress is not None:
            progress(result)
    return results


# -- output --------------------------------------------------------------------


def _environment() -> dict[str, str]:
    from fivehundred import __version__

    return {
        "fivehundred": __version__,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(terse=True),
    }


def render_header(config: BenchConfig) -> str:
    """The first lines of the text report: what ran, where, for how long."""
    env = _environment()
    return (
        f"fivehundred {env['fivehundred']} benchmarks on {env['python']} ({env['platform']})\n"
        f"{config.seconds:g} s per measurement, seed {config.seed}; "
        "targets are goals, not checks"
    )


def _number(value: float, digits: int) -> str:
    return f"{value:,.{digits}f}"


def render_result(result: Result) -> str:
    """One result as text: its title, then a line per figure with its target."""
    lines = [result.title]
    if result.skipped is not None:
        lines.append(f"  skipped: {result.skipped}")
        return "\n".join(lines)
    for figure in result.figures:
        line = f"  {figure.label:<24}{_number(figure.value, figure.digits):>14}"
        if figure.target is not None:
            sign = "≤" if figure.lower_is_better else "≥"
            verdict = "met" if figure.meets_target else "not met"
            line += f"   target {sign} {_number(figure.target, figure.digits)} ({verdict})"
        lines.append(line)
    for label, text in result.notes.items():
        lines.append(f"  {label:<24}{text:>14}")
    lines.append(f"  ({result.count:,} in {result.elapsed:.2f} s)")
    return "\n".join(lines)


def render_text(config: BenchConfig, results: Sequence[Result]) -> str:
    """The whole text report."""
    return "\n\n".join([render_header(config), *(render_result(r) for r in results)])


def render_json(config: BenchConfig, results: Sequence[Result]) -> str:
    """The whole report as JSON: environment, config, and each result by name."""
    summary = {
        "environment": _environment(),
        "config": {"seconds": config.seconds, "seed": config.seed},
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
                        "target": figure.target,
                        "lower_is_better": figure.lower_is_better,
                        "meets_target": figure.meets_target,
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
        prog="python -m fivehundred.bench",
        description="Benchmark the fivehundred public API (figures only: nothing fails).",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=DEFAULT_SECONDS,
        help=f"wall-clock seconds per measurement (default {DEFAULT_SECONDS:g})",
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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m fivehundred.bench``: run every measurement and print the report."""
    args = _parser().parse_args(argv)
    if args.seconds <= 0:
        _parser().error("--seconds must be positive")
    config = BenchConfig(seconds=args.seconds, seed=args.seed)
    if args.json:
        print(render_json(config, run(config)))
        return 0
    print(render_header(config), flush=True)

    def show(result: Result) -> None:
        print(f"\n{render_result(result)}", flush=True)

    run(config, progress=show)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
