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

A side is played by a built-in type (a key of :data:`PLAYER_TYPES`) or by your
own player (a :data:`PlayerSpec`): a player object, a factory that makes one from a
``random.Random``, or ``"module:attr"`` naming either, imported where the games run.

From the command line::

    python -m fivehundred.bots.tournament heuristic random --games 400 --seed 1 --jobs 2
    python -m fivehundred.bots.tournament heuristic random --games 400 --backend ray --jobs 8
    python -m fivehundred.bots.tournament mybots:GreedyPlayer heuristic --games 400 --jobs 2

With ``--backend ray`` the games run as Ray tasks (``pip install
fivehundred[ray]``): on a local Ray instance, or on a cluster with ``--address``
(``ray start --head`` there first; every node needs fivehundred installed).
"""

from __future__ import annotations

import argparse
import copy
import importlib
import inspect
import math
import os
import pickle
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, Final, TextIO, TypeAlias, cast

import attrs

from fivehundred._engine.quoting import expect
from fivehundred._engine.state import GameState
from fivehundred._engine.values import Phase
from fivehundred.bots import HeuristicPlayer, Player, RandomPlayer, SearchPlayer
from fivehundred.bots.pimc import PIMCPlayer
from fivehundred.engine import apply, deal, new_game
from fivehundred.errors import FiveHundredError, FiveHundredTypeError, IllegalActionError
from fivehundred.rules import Rules
from fivehundred.views import observe

__all__ = [
    "BACKENDS",
    "DEFAULT_BUDGET",
    "MAX_HANDS",
    "PLAYER_TYPES",
    "STRONG_TIME_LIMIT",
    "GameOutcome",
    "MatchResult",
    "PlayerSpec",
    "RayExecutor",
    "format_match",
    "main",
    "make_executor",
    "make_player",
    "play_game",
    "play_games",
    "player_name",
    "run_match",
    "strong_player",
    "summarize",
    "wilson_interval",
]

#: Seconds one decision of the strongest player (``"strong"``) takes at most by default.
STRONG_TIME_LIMIT: Final = 0.1


def strong_player(rng: random.Random, time_limit: float = STRONG_TIME_LIMIT) -> PIMCPlayer:
    """The strongest shipped player, each decision's time bounded: a PIMC player whose deals
    are bounded by ``time_limit`` seconds, not by a count (each solve in positions too); the
    browser's strong seat (``"search"``) plays it. Raises what
    :class:`~fivehundred.bots.pimc.PIMCPlayer` raises for a wrong ``rng`` or ``time_limit``.

    >>> strong_player(random.Random(1)).time_limit
    0.1
    """
    return PIMCPlayer(rng, samples=64, playouts=64, time_limit=time_limit)


#: Player types by name: a factory from a random source and a search budget.
PLAYER_TYPES: Final[dict[str, Callable[[random.Random, int], Player]]] = {
    "random": lambda rng, budget: RandomPlayer(rng),
    "heuristic": lambda rng, budget: HeuristicPlayer(rng),
    "search": lambda rng, budget: SearchPlayer(rng, samples=budget),
    "pimc": lambda rng, budget: PIMCPlayer(rng, samples=max(1, budget // 4), playouts=budget),
    "strong": lambda rng, budget: strong_player(rng),
}
#: What plays a side of a match: the name of a built-in type (a key of
#: :data:`PLAYER_TYPES`), ``"module:attr"`` naming a player or a factory to import, a
#: player object (anything with ``choose(view)``), or a factory: a callable that makes
#: a player from a ``random.Random`` (or from nothing), such as a player class.
PlayerSpec: TypeAlias = str | Player | Callable[[random.Random], Player]
#: The search player's default worlds per decision in matches.
DEFAULT_BUDGET: Final = 16
#: A game that has not ended after this many hands is stopped and counts as unfinished.
MAX_HANDS: Final = 300


def make_player(
    kind: PlayerSpec,
    rng: random.Random,
    budget: int = DEFAULT_BUDGET,
    *,
    time_limit: float | None = None,
) -> Player:
    """A new player for one seat: of a built-in type (a key of :data:`PLAYER_TYPES`), or
    your own (a :data:`PlayerSpec`).

    A factory (or the factory ``"module:attr"`` names) is called with ``rng``, or with
    nothing if it takes no argument (a player class without fields); a player
    object is copied (:func:`copy.deepcopy`), so that no seat or game shares its state
    and a match gives the same games wherever they run. ``budget`` is for the built-in
    search and PIMC players. ``time_limit`` gives the search and PIMC players that many
    seconds a decision; ``budget`` still caps their deals, so for a match at equal time
    pass a budget too large to bind. The other players ignore it.

    >>> make_player("search", random.Random(1), 10_000, time_limit=0.1).time_limit
    0.1
    >>> from fivehundred.bots import RandomPlayer
    >>> type(make_player(RandomPlayer, random.Random(1))).__name__
    'RandomPlayer'
    >>> type(make_player("fivehundred.bots:HeuristicPlayer", random.Random(1))).__name__
    'HeuristicPlayer'

    Raises :class:`~fivehundred.FiveHundredError` for an unknown ``kind`` (see
    :data:`PLAYER_TYPES`), a ``"module:attr"`` that cannot be imported, and a
    ``time_limit`` that is not a positive number of seconds;
    :class:`~fivehundred.FiveHundredTypeError` for a ``kind`` that is not a player, a
    factory or a name, and a factory that does not return a player; and what the
    factory raises.
    """
    if isinstance(kind, str):
        factory = PLAYER_TYPES.get(kind)
        if factory is not None:
            player = factory(rng, budget)
        elif ":" in kind:
            player = _player_from(_import_player(kind), rng, kind)
        else:
            known = ", ".join(PLAYER_TYPES)
            raise FiveHundredError(
                f"unknown player type {kind!r}: choose one of {known},"
                " or name your own player as module:attr (e.g. mybots:GreedyPlayer)"
            )
    else:
        player = _player_from(kind, rng, player_name(kind))
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


def _is_player(obj: object) -> bool:
    return not isinstance(obj, type) and callable(getattr(obj, "choose", None))


def _player_from(obj: object, rng: random.Random, label: str) -> Player:
    """A seat's player from a player object (copied) or a factory (called with ``rng``)."""
    if _is_player(obj):
        try:
            return cast(Player, copy.deepcopy(obj))
        except Exception as error:
            raise FiveHundredError(
                f"the player {label} cannot be copied for each seat"
                f" ({type(error).__name__}: {error}): pass a factory that makes one instead"
            ) from error
    if not callable(obj):
        raise FiveHundredTypeError(
            f"{label} is not a player: give a player type's name, module:attr, an object"
            " with a choose(view) method, or a factory that makes one from a random.Random"
        )
    try:
        inspect.signature(obj).bind(rng)
    except TypeError:  # it takes no random source (a player class without fields)
        made = obj()
    except ValueError:  # pragma: no cover - a callable without a signature: give it one
        made = obj(rng)
    else:
        made = obj(rng)
    if not _is_player(made):
        raise FiveHundredTypeError(
            f"the factory {label} returned {type(made).__name__}, not a player"
            " (an object with a choose(view) method)"
        )
    return cast(Player, made)


def _import_player(text: str) -> object:
    """What ``"module:attr"`` names (``attr`` may be dotted), imported."""
    module_name, _, attr = text.partition(":")
    if not module_name or not attr:
        raise FiveHundredError(
            f"{text!r} is not a player: write module:attr, e.g. mybots:GreedyPlayer"
        )
    try:
        target: object = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name is not None and module_name.startswith(error.name):
            raise FiveHundredError(
                f"player {text!r}: there is no module {error.name!r} to import (install"
                " it, or run from the directory that holds it)"
            ) from error
        raise FiveHundredError(
            f"player {text!r}: importing {module_name!r} failed: {error}"
        ) from error
    except Exception as error:
        raise FiveHundredError(
            f"player {text!r}: importing {module_name!r} failed: {type(error).__name__}: {error}"
        ) from error
    for part in attr.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise FiveHundredError(
                f"player {text!r}: module {module_name!r} has no attribute {attr!r}"
            ) from None
    return target


def player_name(kind: PlayerSpec) -> str:
    """How a match's table names a side's player: a name as given, else a factory's or
    a player's class name.

    >>> from fivehundred.bots import HeuristicPlayer
    >>> player_name("random"), player_name(HeuristicPlayer), player_name(HeuristicPlayer())
    ('random', 'HeuristicPlayer', 'HeuristicPlayer')

    Raises nothing.
    """
    if isinstance(kind, str):
        return kind
    if not _is_player(kind):
        name = getattr(kind, "__name__", None)
        if isinstance(name, str):
            return name
    return type(kind).__name__


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
    :class:`~fivehundred.FiveHundredTypeError` for arguments of the wrong type,
    :class:`~fivehundred.IllegalActionError` for a player's illegal choice (with a note naming
    the player, its seat and the hand), and what a player raises.
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
            player = players[seat]
            try:
                state = apply(state, player.choose(observe(state, seat)))
            except IllegalActionError as err:  # say whose choice it was, not only what
                err.add_note(f"chosen by {player_name(player)} at seat {seat}, hand {hands}")
                raise
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


#: One game of a match: the players by side, the match seed, the game's number, the
#: budget, the time limit and the rules.
_Task = tuple[tuple[PlayerSpec, ...], int, int, int, float | None, Rules]


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
    kinds: Sequence[PlayerSpec],
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

    ``kinds[k]`` plays side ``k`` in even games (a built-in type's name or your own
    player: a :data:`PlayerSpec`, made for each seat by :func:`make_player`); the sides
    rotate every game. Records are reported by type: index ``k`` is always
    ``kinds[k]``. Each game is dealt from its own seed, so the records are the
    same however the games run: here (``jobs=1``), on ``jobs`` processes, or on
    ``executor`` (any :class:`concurrent.futures.Executor`), ``chunk`` games
    per task. ``time_limit``: seconds a decision for the players that take one (see
    :func:`make_player`); the games then depend on the machines' speed.

    On other processes (``jobs > 1``, a process pool, :class:`RayExecutor`) a player
    object or factory travels pickled: define it at the top level of a module, or name
    it as ``"module:attr"``, which each process imports.

    Raises :class:`~fivehundred.FiveHundredError` for an unknown player type, a
    ``"module:attr"`` that cannot be imported, a player that cannot be sent to another
    process, a number of types that is not one per side and a bad ``time_limit``;
    :class:`~fivehundred.FiveHundredTypeError` for what is not a player (see
    :func:`make_player`).
    """
    rules = rules if rules is not None else Rules()
    if len(kinds) != len(rules.sides):
        raise FiveHundredError(f"play_games takes {len(rules.sides)} player types, one per side")
    for kind in kinds:
        make_player(kind, random.Random(0), budget, time_limit=time_limit)  # check up front
    spread = executor is None and jobs > 1 and games > 1
    if spread or isinstance(executor, (ProcessPoolExecutor, RayExecutor)):
        dumps = executor.dumps if isinstance(executor, RayExecutor) else pickle.dumps
        for kind in kinds:
            _check_sendable(kind, dumps)
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


def _check_sendable(kind: PlayerSpec, dumps: Callable[[object], bytes]) -> None:
    """Raise a clear error now, not in a worker, for a player that cannot be pickled."""
    if isinstance(kind, str):
        return  # a name: each process makes the player itself
    try:
        dumps(kind)
    except Exception as error:
        raise FiveHundredError(
            f"the player {player_name(kind)} cannot be sent to another process"
            f" ({type(error).__name__}: {error}): define it at the top level of a module"
            " and pass it, or its name as module:attr, or play with jobs=1 or threads"
        ) from error


def _some_games(tasks: list[_Task]) -> list[GameOutcome]:
    """Several games of a match, in order (one task of an executor)."""
    return [_one_game(task) for task in tasks]


class RayExecutor(Executor):
    """A :class:`concurrent.futures.Executor` whose calls run as Ray tasks.

    Connects to Ray on first use: ``ray.init(address=address, **options)``
    unless Ray is already initialized (then that connection is used, and left
    open by :meth:`shutdown`). Each call is one task; its result comes back
    through ``ObjectRef.future()``.

    A local instance (no ``address``) gets this process's ``sys.path`` as its workers'
    ``PYTHONPATH`` (unless ``options`` give a ``runtime_env``), so that your players
    import there as here. On a cluster, install your bot module on every node, or
    send it with ``runtime_env={"py_modules": [...]}``.

    Raises ``ImportError`` when Ray is not installed (``pip install fivehundred[ray]``), and
    what ``ray.init`` raises when it cannot connect.
    """

    def __init__(self, address: str | None = None, **options: Any) -> None:
        import ray

        self._ray: Any = ray  # Any: the checks pass whether Ray is installed or not
        self._owner = not ray.is_initialized()
        if self._owner:
            if address is None and "runtime_env" not in options:
                path = os.pathsep.join(entry or os.getcwd() for entry in sys.path)
                options = {**options, "runtime_env": {"env_vars": {"PYTHONPATH": path}}}
            ray.init(address=address, **options)
        self._remotes: dict[object, Any] = {}

    def dumps(self, obj: object) -> bytes:
        """``obj`` pickled as Ray sends it (cloudpickle): raises what pickling raises."""
        data: bytes = self._ray.cloudpickle.dumps(obj)
        return data

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
    """Add up game records into a :class:`MatchResult` (``kinds``: the sides' names, as
    :func:`player_name` gives them).

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
    first: PlayerSpec,
    second: PlayerSpec,
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
    (``jobs``, ``executor``, ``chunk``, ``time_limit``: as :func:`play_games`). Each is
    a built-in type's name or your own player (a :data:`PlayerSpec`); the result names
    them by :func:`player_name`.

    Raises what :func:`play_games` raises.
    """
    kinds: tuple[PlayerSpec, ...] = (first, second)
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
    names = [player_name(kind) for kind in kinds]
    return summarize(names, records, time.perf_counter() - start)


def format_match(result: MatchResult) -> str:
    """A table of a match: win rate with its 95% interval, contracts made, average score.

    Raises :class:`~fivehundred.FiveHundredTypeError` for anything but a :class:`MatchResult`.
    """
    expect(result, MatchResult, "a MatchResult (from summarize or play_games)")
    width = max([10, *(len(kind) for kind in result.kinds)])
    lines = [
        f"{result.games} games, {result.hands} hands, {result.seconds:.1f} s"
        + (f", {result.unfinished} unfinished" if result.unfinished else ""),
        f"{'player':<{width}} {'wins':>6} {'win rate':>9} {'95% interval':>17} "
        f"{'contracts':>9} {'made':>6} {'points/game':>11}",
    ]
    for side, kind in enumerate(result.kinds):
        low, high = result.interval(side)
        contracts = result.contracts[side]
        made = f"{100 * result.made[side] / contracts:5.1f}%" if contracts else "    -"
        per_game = result.points[side] / result.games if result.games else 0.0
        lines.append(
            f"{kind:<{width}} {result.wins[side]:>6g} {100 * result.win_rate(side):8.1f}% "
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


def _player_argument(text: str) -> str:
    """A command line's player: a built-in type, or ``module:attr`` that imports."""
    try:
        make_player(text, random.Random(0))
    except FiveHundredError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    except Exception as error:  # the player's own code failed: say so, not "invalid"
        raise argparse.ArgumentTypeError(
            f"{text}: making the player raised {type(error).__name__}: {error}"
        ) from None
    return text


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m fivehundred.bots.tournament FIRST SECOND [--games N] [--seed S] [--jobs J]``.

    ``FIRST`` and ``SECOND`` are built-in player types or ``module:attr`` (see
    :data:`PlayerSpec`); ``python -m`` puts the current directory on the path.

    Raises ``SystemExit`` (status 2, with a usage message) for bad arguments, as
    ``argparse`` does, and :class:`~fivehundred.FiveHundredTypeError` when ``argv`` is not a
    list of str; otherwise it returns the exit status.
    """
    if argv is not None:
        expect(argv, (list, tuple), "the arguments, a list of str")
        for arg in argv:
            expect(arg, str, "an argument (a str)")
    parser = argparse.ArgumentParser(
        prog="python -m fivehundred.bots.tournament",
        description="Seeded games between two computer players, one per side.",
    )
    kinds = ", ".join(sorted(PLAYER_TYPES))
    for name, side in (("first", "A"), ("second", "B")):
        parser.add_argument(
            name,
            type=_player_argument,
            metavar=name.upper(),
            help=f"player of side {side}: {kinds}, or module:attr (your own)",
        )
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
