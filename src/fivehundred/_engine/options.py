"""Rule options by name: the mapping form of :class:`~fivehundred.Rules` that JSON
documents, records, the game server and the adapters use.

Internal: the public names are :func:`fivehundred.records.rules_options` and
:func:`fivehundred.records.rules_from_options`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Final

import attrs

from fivehundred._engine.quoting import quote
from fivehundred._engine.ruledata import MAX_OPTION_VALUE
from fivehundred.errors import FiveHundredError, FiveHundredTypeError, InvalidStateError
from fivehundred.rules import Rules

#: Rule options that are whole numbers (the others are True/False; ``score_cap`` may be None).
_INT_OPTIONS: Final = frozenset({"players", "team_size", "trick_points", "target", "losing_score"})
_OPTIONAL_INT_OPTIONS: Final = frozenset({"score_cap"})
#: Rule options that are a short text or None (the rule ID of a deck).
_OPTIONAL_TEXT_OPTIONS: Final = frozenset({"deck_id"})
#: The longest text a text option may hold.
MAX_OPTION_TEXT: Final = 16


@functools.lru_cache(maxsize=1)
def _option_names() -> tuple[str, ...]:
    return tuple(field.name for field in attrs.fields(Rules))


@functools.lru_cache(maxsize=16)
def _default_rules(players: int) -> Rules:
    """The default game for ``players`` (made once: a view's record names its options)."""
    return Rules(players=players)


def rules_options(rules: Rules) -> dict[str, int | bool | str | None]:
    """The options of ``rules`` that differ from the default game for its number of players.

    ``players`` is listed when it is not 4; ``team_size`` only when it is not the
    default for the player count. :func:`rules_from_options` reads them back.

    >>> import fivehundred as fh
    >>> rules_options(fh.Rules.american(players=6))
    {'players': 6, 'misere_by_value': True, 'single_round': True, 'defence_wins': True}

    Raises :class:`~fivehundred.FiveHundredTypeError` when ``rules`` is not a
    :class:`~fivehundred.Rules`.
    """
    if not isinstance(rules, Rules):
        raise FiveHundredTypeError(f"a fivehundred Rules is needed, not {quote(rules)}")
    return dict(_options_of(rules))  # a new dict each time: the caller may change it


@functools.lru_cache(maxsize=64)  # every view and record names its rules: worked out once
def _options_of(rules: Rules) -> tuple[tuple[str, int | bool | str | None], ...]:
    base = _default_rules(rules.players)
    options: list[tuple[str, int | bool | str | None]] = []
    for name in _option_names():
        value = getattr(rules, name)
        if (name == "players" and value != 4) or value != getattr(base, name):
            options.append((name, value))
    return tuple(options)


def rules_from_options(options: Mapping[str, object]) -> Rules:
    """The :class:`~fivehundred.Rules` of an option mapping (absent options: defaults).

    Every problem (an unknown option, a value of the wrong type, a combination
    the rules refuse) is listed in one :class:`~fivehundred.InvalidStateError`.

    >>> rules_from_options({"players": 5, "partner_by_seat": True}).partner_by_seat
    True
    >>> rules_from_options({"player": 5, "target": "500"})
    Traceback (most recent call last):
    ...
    fivehundred.errors.InvalidStateError: invalid state, 2 problems: (1) rules: unknown option \
'player'; (2) rules: target must be a whole number, not '500'

    Raises :class:`~fivehundred.InvalidStateError` listing every unknown option and bad value
    (``err.problems``), and :class:`~fivehundred.FiveHundredTypeError` when ``options`` is not a
    mapping.
    """
    if not isinstance(options, Mapping):
        raise FiveHundredTypeError(
            f"rule options are a mapping of names to values, not {quote(options)}"
        )
    if len(options) > MAX_OPTIONS:
        raise InvalidStateError(
            [f"rules: {len(options)} options are too many: there are {len(_option_names())}"]
        )
    problems: list[str] = []
    known = _option_names()
    values: dict[str, object] = {}
    for name, value in options.items():
        if name not in known:
            problems.append(f"rules: unknown option {quote(name)}")
            continue
        is_int = isinstance(value, int) and not isinstance(value, bool)
        if name in _INT_OPTIONS or name in _OPTIONAL_INT_OPTIONS:
            if not is_int and not (value is None and name in _OPTIONAL_INT_OPTIONS):
                kind = "a whole number" + (" or null" if name in _OPTIONAL_INT_OPTIONS else "")
                problems.append(f"rules: {name} must be {kind}, not {_short(value)}")
                continue
            if isinstance(value, int) and is_int and abs(value) > MAX_OPTION_VALUE:
                problems.append(f"rules: {name}={_short(value)} is out of range")
                continue
        elif name in _OPTIONAL_TEXT_OPTIONS:
            if value is not None and not (isinstance(value, str) and len(value) <= MAX_OPTION_TEXT):
                problems.append(
                    f"rules: {name} must be a rule ID (at most {MAX_OPTION_TEXT} characters) "
                    f"or null, not {_short(value)}"
                )
                continue
        elif not isinstance(value, bool):
            problems.append(f"rules: {name} must be true or false, not {_short(value)}")
            continue
        values[name] = value
    if problems:
        raise InvalidStateError(problems)
    try:
        rules = Rules(**values)  # type: ignore[arg-type]  # each value's type was checked above
    except FiveHundredError as err:  # the problems come as data, never re-read from the text
        raise InvalidStateError([f"rules: {problem}" for problem in err.problems]) from None
    return _one_of(rules)


@functools.lru_cache(maxsize=256)
def _one_of(rules: Rules) -> Rules:
    """One object for equal rules read from options (a server reads the same few games again
    and again): what is worked out once for a game's rules is then found by identity."""
    return rules


#: The most options :func:`rules_from_options` reads (more than there are is a mistake).
MAX_OPTIONS: Final = 64


def _short(value: object) -> str:
    if isinstance(value, int) and value.bit_length() > 128:
        return "a very large number"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
