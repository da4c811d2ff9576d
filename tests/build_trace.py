"""Seeded random games written as JSON lines, to compare two builds of the package.

:func:`trace` plays, for each seed, a game under random :class:`~fivehundred.Rules`
(``rules_strategies.rules_from_random``) with seeded random actions through the
public API, and yields one JSON line per event: every legal-action list and the
action taken, every completed trick, the state at the end of every hand (scores,
hand result, game result, as :func:`~fivehundred.to_json` writes it), then the
same hand played by :func:`~fivehundred.ai.playout.playout` twice — with a policy making the
same choices (its end state must be the one ``apply`` reached) and on its own
fast path (its end state, its record, and whether ``replay(record(final))``
gives it back).

``test_builds`` runs it in-process, on the build under test, and in a child
process on the pure source::

    python -I tests/build_trace.py --pure SEED...

``--pure`` puts ``src/`` first on ``sys.path`` and imports every module of
``fivehundred`` from its ``.py`` file, even if a compiled extension module sits
beside it; the first line says which build answered.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import json
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import fivehundred as fh

ROOT: Final = Path(__file__).resolve().parent.parent
SRC: Final = ROOT / "src"
TESTS: Final = ROOT / "tests"

#: Hands played per game at most (targets are often small, so many games end sooner).
MAX_HANDS: Final = 3


def _line(kind: str, **fields: object) -> str:
    return json.dumps({"event": kind, **fields}, sort_keys=True, ensure_ascii=False)


def header() -> str:
    """Which ``fivehundred`` answers: its ``COMPILED`` flag and the file it came from."""
    import fivehundred as fh

    return _line("build", compiled=fh.COMPILED, file=str(Path(fh.__file__).resolve()))


def _trick_text(trick: fh.Trick) -> str:
    plays = " ".join(f"{seat}:{card}" for seat, card in trick.plays)
    return f"{plays} -> {trick.winner} (led {trick.led_suit})"


def _choose(state: fh.GameState, rng: random.Random) -> fh.Action:
    """The seeded random action: the policy of the ``apply`` loop and of ``playout``."""
    import fivehundred as fh

    legal = fh.legal_actions(state)
    return legal[rng.randrange(len(legal))]


def _hand(start: fh.GameState, rng: random.Random, emit: Callable[[str], None]) -> fh.GameState:
    """Play one dealt hand through ``apply``, emitting every legal set, action and trick."""
    import fivehundred as fh

    state = start
    tricks = 0
    while state.phase not in (fh.Phase.DEAL, fh.Phase.GAME_OVER):
        legal = fh.legal_actions(state)
        emit(_line("legal", seat=state.to_act, actions=[fh.format_action(a) for a in legal]))
        action = _choose(state, rng)
        emit(_line("action", seat=state.to_act, action=fh.format_action(action)))
        state = fh.apply(state, action)
        if len(state.tricks) > tricks:
            emit(_line("trick", trick=_trick_text(state.tricks[-1])))
        tricks = len(state.tricks)
    return state


def trace(seeds: Sequence[int]) -> Iterator[str]:
    """The JSON lines of one game per seed (see the module docstring)."""
    import fivehundred as fh
    from fivehundred.ai.playout import playout
    from fivehundred.records import record_to_text
    from rules_strategies import rules_from_random

    for seed in seeds:
        rng = random.Random(seed)
        rules = rules_from_random(rng)
        dealer = rng.randrange(rules.players)
        lines: list[str] = [_line("game", seed=seed, rules=fh.to_dict(rules))]
        state = fh.new_game(rules, dealer=dealer)
        for _ in range(MAX_HANDS):
            if state.phase is fh.Phase.GAME_OVER:
                break
            dealt = fh.deal(state, seed=rng.randrange(2**32))
            lines.append(_line("deal", state=fh.to_dict(dealt)))
            hand_seed = rng.randrange(2**32)
            state = _hand(dealt, random.Random(hand_seed), lines.append)
            lines.append(
                _line(
                    "hand over",
                    scores=list(state.scores),
                    phase=state.phase.name,
                    state=fh.to_dict(state),
                )
            )
            by_policy = playout(dealt, _choose, random.Random(hand_seed))
            lines.append(_line("playout with the same policy", same=by_policy == state))
            fast = playout(dealt, rng=random.Random(hand_seed))
            lines.append(
                _line(
                    "fast playout",
                    state=fh.to_dict(fast),
                    record=record_to_text(fh.record(fast)),
                    replays=fh.replay(fh.record(fast)) == fast,
                )
            )
        result = state.result
        lines.append(
            _line(
                "result",
                scores=list(state.scores),
                winners=None if result is None else list(result.winners),
                outcome=None if result is None else result.outcome.value,
            )
        )
        yield from lines


def force_pure_source() -> None:
    """Import ``fivehundred`` from ``src/``, every module from its ``.py``, never compiled.

    A path hook for ``src/`` and everything under it gives a finder that knows
    only source files, so an extension module (``.so``/``.pyd``) left beside a
    ``.py`` is never loaded; ``tests/`` comes after, for ``rules_strategies``.
    """
    source_only = importlib.machinery.FileFinder.path_hook(
        (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
    )

    def hook(path: str) -> importlib.abc.PathEntryFinder:
        if Path(path).resolve().is_relative_to(SRC):
            return source_only(path)
        raise ImportError(f"{path} is not under {SRC}")

    sys.path_hooks.insert(0, hook)
    sys.path[:0] = [str(SRC), str(TESTS)]
    sys.path_importer_cache.clear()


def main(argv: Sequence[str]) -> int:
    """``[--pure] SEED...``: the header, then the trace of each seed, one line each."""
    args = list(argv)
    if args[:1] == ["--pure"]:
        del args[0]
        force_pure_source()
    print(header())
    for line in trace([int(seed) for seed in args]):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
