"""Random valid ``Rules``: every player count and every option of RULES.md (V-…, P2–P6).

:func:`rules` is the Hypothesis strategy; :func:`rules_from_random` makes the same
choices from a :class:`random.Random` (for fixed pools of games built outside
Hypothesis, such as the coverage test of ``test_properties_variants``).

Aligned with ``rules_strategy.random_rules`` (the JSON tests' strategy): the same
option space and the same combinations refused by ``Rules`` — ``team_size`` per
player count (2 or 3 for six players), ``partner_by_seat`` only for five,
``black_fours`` (V-45) only for four, no ``self_raise``/``rebid`` with
``single_round`` (V-AMERICAN), a ``score_cap`` (V-CAP) below the target — plus:

- the boolean options are read from the fields of ``fh.Rules`` itself, so an
  option added later is drawn without touching this module (a field that is not
  a boolean and is not handled here stops the import);
- every choice lists the default first, so Hypothesis shrinks a failing example
  towards the default game and reports only the options that matter;
- ``trick_points`` (V-TRICK-POINTS) takes 0, negative and odd values;
  ``score_cap`` takes 490, 480 (when below the target), values just under the
  target, and no cap; ``target`` and ``losing_score`` (V-TARGET) vary, small
  values included so that games end quickly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

import attrs
from hypothesis import strategies as st

import fivehundred as fh
from fivehundred._engine import ruledata as _tables

__all__ = [
    "BOOLEAN_OPTIONS",
    "PLAYER_COUNTS",
    "TEAM_SIZES",
    "rules",
    "rules_from_random",
]

T = TypeVar("T")

#: Every table size (P2–P6), the default game first.
PLAYER_COUNTS: Final = (4, 2, 3, 5, 6)
#: The team sizes ``Rules`` accepts for each table size (P6: two teams of three or three of two).
TEAM_SIZES: Final[dict[int, tuple[int, ...]]] = {2: (1,), 3: (1,), 4: (2,), 5: (1,), 6: (2, 3)}
#: Fields drawn with their own constraints below.
_CONSTRAINED: Final = frozenset(
    {
        "players",
        "team_size",
        "partner_by_seat",
        "black_fours",
        "deck_id",
        "single_round",
        "self_raise",
        "rebid",
        "trick_points",
        "score_cap",
        "target",
        "losing_score",
    }
)
_DEFAULTS: Final[dict[str, Any]] = {f.name: f.default for f in attrs.fields(fh.Rules)}
#: The boolean options free of constraints, by name, with their defaults.
BOOLEAN_OPTIONS: Final[dict[str, bool]] = {
    name: default
    for name, default in _DEFAULTS.items()
    if name not in _CONSTRAINED and isinstance(default, bool)
}
_UNHANDLED = set(_DEFAULTS) - _CONSTRAINED - set(BOOLEAN_OPTIONS)
if _UNHANDLED:  # pragma: no cover - a new kind of option: teach this module to draw it
    raise ImportError(f"rules_strategies does not know how to draw Rules fields {_UNHANDLED}")

#: V-TRICK-POINTS: the default first, then 0, odd, negative and large values.
TRICK_POINTS: Final = (10, 0, 5, 1, 7, 15, 20, 25, -10, -5)
#: V-TARGET: the default first; small targets make short games.
TARGETS: Final = (500, 250, 100, 300, 1000)
LOSING_SCORES: Final = (-500, -250, -100, -300, -1000)


def _caps(target: int) -> tuple[int | None, ...]:
    """V-CAP choices below ``target``: none (the default), 490, 480, just under the target."""
    caps: list[int | None] = [None]
    for cap in (490, 480, target - 10, target - 20, target - 1):
        if cap < target and cap not in caps:
            caps.append(cap)
    return tuple(caps)


def _build(
    pick: Callable[[Sequence[Any]], Any], players: int | None, fixed: dict[str, Any]
) -> fh.Rules:
    """``Rules`` from the choices of ``pick``; ``fixed`` options are not drawn."""

    def choose(name: str, values: Sequence[T]) -> T:
        if name in fixed:
            value: T = fixed[name]
            return value
        chosen: T = pick(values)
        return chosen

    n = players if players is not None else choose("players", PLAYER_COUNTS)
    options: dict[str, Any] = {"players": n, "team_size": choose("team_size", TEAM_SIZES[n])}
    options["partner_by_seat"] = choose("partner_by_seat", (False, True)) if n == 5 else False
    options["black_fours"] = choose("black_fours", (False, True)) if n == 4 else False
    # a deck named by its rule ID: the table's own, or (four players) the V-45 deck
    named = (None, *(row.rule for (k, _), row in _tables.DECKS.items() if k == n))
    options["deck_id"] = None if options["black_fours"] else choose("deck_id", named)
    for name, default in BOOLEAN_OPTIONS.items():
        options[name] = choose(name, (default, not default))
    single = choose("single_round", (False, True))
    options["single_round"] = single
    options["self_raise"] = False if single else choose("self_raise", (False, True))
    options["rebid"] = False if single else choose("rebid", (False, True))
    options["trick_points"] = choose("trick_points", TRICK_POINTS)
    target = choose("target", TARGETS)
    options["target"] = target
    options["losing_score"] = choose("losing_score", LOSING_SCORES)
    options["score_cap"] = choose("score_cap", _caps(target))
    return fh.Rules(**options)


@st.composite
def _rules(draw: st.DrawFn, players: int | None, fixed: dict[str, Any]) -> fh.Rules:
    return _build(lambda values: draw(st.sampled_from(values)), players, fixed)


def rules(players: int | None = None, **fixed: Any) -> st.SearchStrategy[fh.Rules]:
    """Any valid ``Rules``: every table size and every option (see the module docstring).

    ``players`` fixes the table size; any other keyword fixes that option (the
    caller keeps the combination valid), e.g. ``rules(5, partner_by_seat=False)``.
    Shrinks towards the default game.
    """
    if players is not None and players not in TEAM_SIZES:
        raise ValueError(f"players={players!r}: 2 to 6")
    unknown = set(fixed) - set(_DEFAULTS)
    if unknown:
        raise TypeError(f"not Rules options: {sorted(unknown)}")
    return _rules(players, fixed)


def rules_from_random(rng: random.Random, players: int | None = None, **fixed: Any) -> fh.Rules:
    """The same choices as :func:`rules`, made by ``rng``."""
    return _build(rng.choice, players, fixed)
