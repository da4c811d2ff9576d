"""Seeded matches between computer players, with win rates and confidence intervals.

Two player types meet over many games, one type per side. Game ``i`` is dealt
from its own seed (derived from the match seed and ``i``), and the sides swap
seats every other game, so a match is reproducible and fair to both types;
running it on several processes (``jobs``), or on any
:class:`concurrent.futures.Executor` (``executor``: threads, processes, a Ray
cluster through :class:`RayExecutor`), gives the same figures.

>>> result = run_match("heuristic", "random", games=2, seed=1)
>>> result.games, int(result.wins[0] + result.wins[1]) + result.unfinished
(2, 2)
>>> low, high = wilson_interval(380, 400)
>>> round(low, 3), round(high, 3)
(0.924, 0.967)

From the command line::

    python -m fivehundred.tournament heuristic random --games 400 --seed 1 --jobs 2
    python -m fivehundred.tournament heuristic random --games 400 --backend ray --jobs 8

With ``--backend ray`` the games run as Ray tasks (``pip install
fivehundred[ray]``): on a local Ray instance, or on a cluster with ``--address``
(``ray start --head`` there first; every node needs fivehundred installed).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, Final, TextIO

import attrs

from fivehundred._quoting import expect
from fivehundred.bots import HeuristicPlayer, Player, RandomPlayer
from fivehundred.engine import apply, deal, new_game
from fivehundred.errors import FiveHundredError
from fivehundred.pimc import PIMCPlayer
from fivehundred.rules import Rules
from fivehundred.search import SearchPlayer
from fivehundred.state import GameState, Phase
from fivehundred.views import observe

__all__ = [
    "BACKENDS",
    "DEFAULT_BUDGET",
    "MAX_HANDS",
    "PLAYER_TYPES",
    "GameOutcome",
    "MatchResult",
    "RayExecutor",
    "format_match",
    "main",
    "make_executor",
    "make_player",
    "play_game",
    "play_games",
    "run_match",
    "summarize",
    "wilson_interval",
]

#: Player types by name: a factory from a random source and a search budget.
PLAYER_TYPES: Final[dict[str, Callable[[random.Random, int], Player]]] = {
    "random": lambda rng, budget: RandomPlayer(rng),
    "heuristic": lambda rng, budget: HeuristicPlayer(rng),
    "search": lambda rng, budget: SearchPlayer(rng, samples=budget),
    "pimc": lambda rng, budget: PIMCPlayer(rng, samples=max(1, budget // 4), playouts=budget),
}
#: The search player's default worlds per decision in matches.
DEFAULT_BUDGET: Final = 16
#: A game that has not ended after this many hands is stopped and counts as unfinished.
MAX_HANDS: Final = 300


def make_player(
    kind: str,
    rng: random.Random,
    budget: int = DEFAULT_BUDGET,
    *,
    time_limit: float | None = None,
) -> Player:
    """A new player of a named type (a key of :data:`PLAYER_TYPES`).

    ``time_limit`` gives the search and PIMC players that many seconds a decision;
    ``budget`` still caps their deals, so for a match at equal time pass a budget too
    large to bind. The other players ignore it.

    >>> make_player("search", random.Random(1), 10_000, time_limit=0.1).time_limit
    0.1

    Raises :class:`~fivehundred.FiveHundredError` for an unknown ``kind`` (see
    :data:`PLAYER_TYPES`) and a ``time_limit`` that is not a positive number of seconds.
    """
    try:
        factory = PLAYER_TYPES[kind]
    except KeyError:
        known = ", ".join(PLAYER_TYPES)
        raise FiveHundredError(f"unknown player type {kind!r}: choose one of {known}") from None
    player = factory(rng, budget)
    if time_limit is None:
        return player
    if (
        not isinstance(time_limit, (int, float))
        or isinstance(time_limit, bool)
        or not 0 < time_limit < math.inf
    ):
        raise FiveHundredError(
            f"time_limit={time_limit!r}: a time limit is a positive number of seconds"
        )
    if isinstance(player, (SearchPlayer, PIMCPlayer)):
        return attrs.evolve(player, time_limit=float(time_limit))
    return player


def wilson_interval(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    >>> wilson_interval(0, 0)
    (0.0, 1.0)

    With no trials the interval is the whole of ``(0.0, 1.0)``. Raises
    :class:`~fivehundred.FiveHundredTypeError` for an argument that is not a number.
    """
    expect(successes, (int, float), "a number of successes (an int or float)")
    expect(trials, int, "a number of trials (an int)")
    expect(z, (int, float), "a z-score (an int or float)")
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@attrs.frozen
class GameOutcome:
    """The outcome of one game, by side, and what happened in its hands.

    Constructing one checks nothing and raises nothing: it is a plain record of values the
    library made.
    """

    #: The sides that won (empty when the game was stopped unfinished).
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    hands: int
    #: Per side: contracts it played, and how many it made.
    contracts: tuple[int, ...]
    made: tuple[int, ...]
    #: Per side: the sum of its score changes over the hands (for average scores).
    points: tuple[int, ...]


def play_game(
    players: Sequence[Player],
    rng: random.Random,
    rules: Rules | None = None,
    *,
    max_hands: int = MAX_HANDS,
    on_action: Callable[[GameState, GameState], None] | None = None,
) -> tuple[GameState, GameOutcome]:
    """Play one game between ``players`` (one per seat), dealing from ``rng``.

    Each player sees only :func:`~fivehundred.observe` of its own seat.
    ``on_action(before, after)`` is called after every action and deal.

    Raises :class:`~fivehundred.FiveHundredError` when the number of players is not the table's,
    :class:`~fivehundred.FiveHundredTypeError` for arguments of the wrong type, and what a
    player raises.
    """
    expect(players, (list, tuple), "a list or tuple of Players, one a seat")
    expect(rng, random.Random, "a random.Random")
    expect(rules, (Rules, type(None)), "a fivehundred Rules or None")
    rules = rules if rules is not None else Rules()
    if len(players) != rules.players:
        raise FiveHundredError(f"{rules.players} players are needed, not {len(players)}")
    sides = len(rules.sides)
    contracts = [0] * sides
    made = [0] * sides
    points = [0] * sides
    state = new_game(rules, dealer=rng.randrange(rules.players))
    hands = 0
    while not state.is_over and hands < max_hands:
        before = state
        if state.phase is Phase.DEAL:
            state = deal(state, rng=rng)
            hands += 1
        else:
            seat = state.to_act
            assert seat is not None
            state = apply(state, players[seat].choose(observe(state, seat)))
        if on_action is not None:
            on_action(before, state)
        if state.phase in (Phase.DEAL, Phase.GAME_OVER) and before.phase is not state.phase:
            result = state.last_hand
            if result is not None and result.contractor is not None:
                side = rules.side_of(result.contractor)
                contracts[side] += 1
                made[side] += bool(result.made)
                for s, change in enumerate(result.changes):
                    points[s] += change
    winners = state.result.winners if state.result is not None else ()
    record = GameOutcome(
        winners=winners,
        scores=state.scores,
        hands=hands,
        contracts=tuple(contracts),
        made=tuple(made),
        points=tuple(points),
    )
    return state, record


def _seed(match_seed: int, game: int) -> int:
    return random.Random(f"fivehundred/{match_seed}/{game}").getrandbits(64)


#: One game of a match: the player types, the match seed, the game's number, the
#: budget, the time limit and the rules.
_Task = tuple[tuple[str, ...], int, int, int, float | None, Rules]


def _one_game(args: _Task) -> GameOutcome:
    """Game ``game`` of a match: side ``k`` is played by ``kinds[k]``, rotated each game."""
    kinds, match_seed, game, budget, time_limit, rules = args
    rng = random.Random(_seed(match_seed, game))
    sides = len(rules.sides)
    shift = game % sides
    seats_kind = {}
    for side, seats in enumerate(rules.sides):
        for seat in seats:
            seats_kind[seat] = kinds[(side + shift) % sides]
    players = [
        make_player(
            seats_kind[seat], random.Random(rng.getrandbits(64)), budget, time_limit=time_limit
        )
        for seat in range(rules.players)
    ]
    _, record = play_game(players, rng, rules)
    # Report by player type: rotate the sides back so index k is kinds[k].
    return _rotate(record, -shift % sides)


def _rotate(record: GameOutcome, shift: int) -> GameOutcome:
    sides = len(record.scores)

    def turn(values: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(values[(k - shift) % sides] for k in range(sides))

    return GameOutcome(
        winners=tuple(sorted((w + shift) % sides for w in record.winners)),
        scores=turn(record.scores),
        hands=record.hands,
        contracts=turn(record.contracts),
        made=turn(record.made),
        points=turn(record.points),
    )


def play_games(
    kinds: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    rules: Rules | None = None,
    jobs: int = 1,
    executor: Executor | None = None,
    chunk: int = 1,
    time_limit: float | None = None,
) -> Iterator[GameOutcome]:
    """Play a match game by game; yields each game's record, in game order.

    ``kinds[k]`` names the player type of side ``k`` in even games; the sides
    rotate every game. Records are reported by type: index ``k`` is always
    ``kinds[k]``. Each game is dealt from its own seed, so the records are the
    same however the games run: here (``jobs=1``), on ``jobs`` processes, or on
    ``executor`` (any :class:`concurrent.futures.Executor`), ``chunk`` games
    per task. ``time_limit``: seconds a decision for the players that take one (see
    :func:`make_player`); the games then depend on the machines' speed.

    Raises :class:`~fivehundred.FiveHundredError` for an unknown player type, a number of
    types that is not one per side and a bad ``time_limit``.
    """
    rules = rules if rules is not None else Rules()
    if len(kinds) != len(rules.sides):
        raise FiveHundredError(f"{len(rules.sides)} player types are needed, one per side")
    for kind in kinds:
        make_player(kind, random.Random(0), budget, time_limit=time_limit)  # check up front
    tasks: list[_Task] = [
        (tuple(kinds), seed, game, budget, time_limit, rules) for game in range(games)
    ]
    if executor is not None:
        chunks = [tasks[at : at + chunk] for at in range(0, len(tasks), max(1, chunk))]
        for done in executor.map(_some_games, chunks):
            yield from done
        return
    if jobs <= 1 or games <= 1:
        for task in tasks:
            yield _one_game(task)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:  # pragma: no cover - subprocesses
        yield from pool.map(_one_game, tasks, chunksize=1)


def _some_games(tasks: list[_Task]) -> list[GameOutcome]:
    """Several games of a match, in order (one task of an executor)."""
    return [_one_game(task) for task in tasks]


class RayExecutor(Executor):
    """A :class:`concurrent.futures.Executor` whose calls run as Ray tasks.

    Connects to Ray on first use: ``ray.init(address=address, **options)``
    unless Ray is already initialized (then that connection is used, and left
    open by :meth:`shutdown`). Each call is one task; its result comes back
    through ``ObjectRef.future()``.

    Raises ``ImportError`` when Ray is not installed (``pip install fivehundred[ray]``), and
    what ``ray.init`` raises when it cannot connect.
    """

    def __init__(self, address: str | None = None, **options: Any) -> None:
        import ray

        self._ray = ray
        self._owner = not ray.is_initialized()
        if self._owner:
            ray.init(address=address, **options)
        self._remotes: dict[object, Any] = {}

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Run ``fn(*args, **kwargs)`` as a Ray task."""
        remote = self._remotes.get(fn)
        if remote is None:
            remote = self._remotes[fn] = self._ray.remote(fn)
        future: Future[Any] = remote.remote(*args, **kwargs).future()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Disconnect from Ray if this executor connected."""
        if self._owner and self._ray.is_initialized():
            self._ray.shutdown()
            self._owner = False


#: The executor kinds of the command line: ``--backend``.
BACKENDS: Final = ("process", "thread", "ray")


def make_executor(backend: str, jobs: int, address: str | None = None) -> Executor:
    """An executor of ``jobs`` workers: processes, threads, or Ray (``address``: a cluster).

    Raises :class:`~fivehundred.FiveHundredError` for an unknown ``backend`` (see
    :data:`BACKENDS`).
    """
    if backend == "process":
        return ProcessPoolExecutor(max_workers=jobs)
    if backend == "thread":
        return ThreadPoolExecutor(max_workers=jobs)
    if backend == "ray":
        options: dict[str, Any] = {} if address else {"num_cpus": jobs}
        return RayExecutor(address, **options)
    raise FiveHundredError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")


@attrs.frozen
class MatchResult:
    """The totals of a match, by player type (index ``k`` is ``kinds[k]``).

    Constructing one checks nothing and raises nothing: it is a plain record of values the
    library made.
    """

    kinds: tuple[str, ...]
    games: int
    wins: tuple[float, ...]
    unfinished: int
    hands: int
    contracts: tuple[int, ...]
    made: tuple[int, ...]
    points: tuple[int, ...]
    seconds: float

    def win_rate(self, side: int) -> float:
        """Share of games won by ``kinds[side]`` (a shared win counts half)."""
        return self.wins[side] / self.games if self.games else 0.0

    def interval(self, side: int) -> tuple[float, float]:
        """The 95% Wilson interval of :meth:`win_rate`."""
        return wilson_interval(self.wins[side], self.games)


def summarize(
    kinds: Sequence[str], records: Sequence[GameOutcome], seconds: float = 0.0
) -> MatchResult:
    """Add up game records into a :class:`MatchResult`.

    The totals of no games are zeros. Raises :class:`~fivehundred.FiveHundredTypeError`
    for arguments of the wrong type.
    """
    expect(kinds, (list, tuple), "a list or tuple of player type names")
    expect(records, (list, tuple), "a list or tuple of GameOutcomes")
    for record in records:
        expect(record, GameOutcome, "a GameOutcome (from play_game)")
    sides = len(kinds)
    wins = [0.0] * sides
    unfinished = 0
    for record in records:
        if not record.winners:
            unfinished += 1
        for winner in record.winners:
            wins[winner] += 1 / len(record.winners)
    return MatchResult(
        kinds=tuple(kinds),
        games=len(records),
        wins=tuple(wins),
        unfinished=unfinished,
        hands=sum(r.hands for r in records),
        contracts=tuple(sum(r.contracts[k] for r in records) for k in range(sides)),
        made=tuple(sum(r.made[k] for r in records) for k in range(sides)),
        points=tuple(sum(r.points[k] for r in records) for k in range(sides)),
        seconds=seconds,
    )


def run_match(
    first: str,
    second: str,
    *,
    games: int,
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    rules: Rules | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    executor: Executor | None = None,
    chunk: int = 1,
    time_limit: float | None = None,
) -> MatchResult:
    """Play ``games`` seeded games of ``first`` against ``second`` and add them up
    (``jobs``, ``executor``, ``chunk``, ``time_limit``: as :func:`play_games`).

    Raises :class:`~fivehundred.FiveHundredError` for an unknown player type, a number of
    types that is not one per side and a bad ``time_limit``.
    """
    kinds = (first, second)
    start = time.perf_counter()
    records = []
    for record in play_games(
        kinds,
        games,
        seed=seed,
        budget=budget,
        rules=rules,
        jobs=jobs,
        executor=executor,
        chunk=chunk,
        time_limit=time_limit,
    ):
        records.append(record)
        if progress is not None:
            progress(len(records), games)
    return summarize(kinds, records, time.perf_counter() - start)


def format_match(result: MatchResult) -> str:
    """A table of a match: win rate with its 95% interval, contracts made, average score.

    Raises :class:`~fivehundred.FiveHundredTypeError` for anything but a :class:`MatchResult`.
    """
    expect(result, MatchResult, "a MatchResult (from summarize or play_games)")
    lines = [
        f"{result.games} games, {result.hands} hands, {result.seconds:.1f} s"
        + (f", {result.unfinished} unfinished" if result.unfinished else ""),
        f"{'player':<10} {'wins':>6} {'win rate':>9} {'95% interval':>17} "
        f"{'contracts':>9} {'made':>6} {'points/game':>11}",
    ]
    for side, kind in enumerate(result.kinds):
        low, high = result.interval(side)
        contracts = result.contracts[side]
        made = f"{100 * result.made[side] / contracts:5.1f}%" if contracts else "    -"
        per_game = result.points[side] / result.games if result.games else 0.0
        lines.append(
            f"{kind:<10} {result.wins[side]:>6g} {100 * result.win_rate(side):8.1f}% "
            f"[{100 * low:5.1f}%, {100 * high:5.1f}%] {contracts:>9} {made:>6} {per_game:>11.1f}"
        )
    return "\n".join(lines)


def _progress_bar(out: TextIO) -> Callable[[int, int], None]:
    start = time.perf_counter()

    def show(done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        elapsed = time.perf_counter() - start
        out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {elapsed:6.1f} s")
        if done == total:
            out.write("\n")
        out.flush()

    return show


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m fivehundred.tournament FIRST SECOND [--games N] [--seed S] [--jobs J]``.

    Raises ``SystemExit`` (status 2, with a usage message) for bad arguments, as
    ``argparse`` does, and :class:`~fivehundred.FiveHundredTypeError` when ``argv`` is not a
    list of str; otherwise it returns the exit status.
    """
    if argv is not None:
        expect(argv, (list, tuple), "the arguments, a list of str")
        for arg in argv:
            expect(arg, str, "an argument (a str)")
    parser = argparse.ArgumentParser(
        prog="python -m fivehundred.tournament",
        description="Seeded games between two computer player types, one per side.",
    )
    parser.add_argument("first", choices=sorted(PLAYER_TYPES), help="player type of side A")
    parser.add_argument("second", choices=sorted(PLAYER_TYPES), help="player type of side B")
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="workers (default 1)")
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="process",
        help="where the games run with --jobs > 1 or --address (default process)",
    )
    parser.add_argument("--address", default=None, help="a Ray cluster's address (--backend ray)")
    parser.add_argument("--chunk", type=int, default=1, help="games per task (default 1)")
    parser.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_BUDGET,
        help=f"search player: sampled deals per decision (default {DEFAULT_BUDGET})",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="search and PIMC players: seconds per decision (with a --budget large enough"
        " not to bind, a match at equal time)",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1 or args.budget < 1 or args.chunk < 1:
        parser.error("--games, --jobs, --budget and --chunk must be at least 1")
    if args.time_limit is not None and not 0 < args.time_limit < math.inf:
        parser.error("--time-limit must be a positive number of seconds")
    executor = None
    if args.backend != "process" or args.address is not None or args.jobs > 1:
        executor = make_executor(args.backend, args.jobs, args.address)
    try:
        result = run_match(
            args.first,
            args.second,
            games=args.games,
            seed=args.seed,
            budget=args.budget,
            progress=_progress_bar(sys.stderr),
            executor=executor,
            chunk=args.chunk,
            time_limit=args.time_limit,
        )
    finally:
        if executor is not None:
            executor.shutdown()
    print(format_match(result))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
