"""The exceptions the library raises, and the reason codes of illegal actions.

One taxonomy: every exception the library raises for an argument is a
:class:`FiveHundredError`, and also the built-in error a Python user expects. A bad
value is a ``ValueError`` (every :class:`FiveHundredError` is one); a value of the
wrong Python type is a :class:`FiveHundredTypeError`, which is also a ``TypeError``.
Every error carries its problems as data in ``err.problems``, one sentence each.
"""

from __future__ import annotations

import enum
import reprlib
from collections.abc import Sequence
from typing import Final, NoReturn

__all__ = [
    "MAX_NOTATION",
    "MAX_PROBLEMS",
    "MAX_QUOTE",
    "FiveHundredError",
    "FiveHundredTypeError",
    "IllegalActionError",
    "InvalidStateError",
    "NotationError",
    "Reason",
]


#: Error messages quote at most this many characters of the input (then ``…``).
MAX_QUOTE: Final = 40
#: The longest text the notation readers (parse_card, parse_cards, parse_call,
#: parse_action) read, in characters: a whole deck needs under 250.
MAX_NOTATION: Final = 1000
#: An error lists at most this many problems (then ``and K more``).
MAX_PROBLEMS: Final = 20


# How a message quotes an input, and how an enum refuses a value: the exceptions below
# use them, so they live here, at the bottom of the package. They are not in
# ``__all__``: the package's modules take them from ``fivehundred._engine.quoting``.

_REPR: Final = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = MAX_QUOTE
_REPR.maxlist = _REPR.maxdict = 4


def prefix(text: str) -> str:
    """At most the first :data:`MAX_QUOTE` characters of ``text`` (then ``…``)."""
    return text if len(text) <= MAX_QUOTE else text[:MAX_QUOTE] + "…"


def quote(value: object) -> str:
    """A short quotation of an input for a message: never the whole of a long input."""
    if isinstance(value, str):
        return repr(prefix(value))
    return _REPR.repr(value)


class FiveHundredError(ValueError):
    """Base class of every error raised by :mod:`fivehundred`; a ``ValueError``.

    ``problems`` holds what was wrong, one sentence each, as data: code reads it
    rather than splitting ``str(err)``. Raised with one message, it is that message;
    raised with ``problems=``, the message joins them with ``"; "``.

    >>> import fivehundred as fh
    >>> fh.FiveHundredError(problems=["players=9: too many", "target=0: too low"]).problems
    ('players=9: too many', 'target=0: too low')
    """

    def __init__(self, *args: object, problems: Sequence[str] | None = None) -> None:
        if problems is not None and not args:
            args = ("; ".join(problems),)
        super().__init__(*args)
        #: The problems found, each a sentence (one, the message, unless given).
        self.problems: tuple[str, ...] = (
            tuple(problems) if problems is not None else tuple(str(arg) for arg in args[:1])
        )


class FiveHundredTypeError(FiveHundredError, TypeError):
    """An argument of the wrong Python type: a :class:`FiveHundredError` and a ``TypeError``.

    As every library error, it is also a ``ValueError``, so ``except TypeError``,
    ``except ValueError`` and ``except FiveHundredError`` all catch it.

    >>> import fivehundred as fh
    >>> try:
    ...     fh.observe(None, 0)
    ... except fh.FiveHundredTypeError as err:
    ...     print(isinstance(err, TypeError), isinstance(err, fh.FiveHundredError), err)
    True True a fivehundred GameState is needed, not None
    """


class NotationError(FiveHundredError):
    """Text that is not valid card or call notation.

    >>> import fivehundred as fh
    >>> try:
    ...     fh.parse_card("1Z")
    ... except fh.NotationError as err:
    ...     err.text
    '1Z'
    """

    def __init__(self, message: str, *, text: str) -> None:
        super().__init__(message)  # problems: the message
        #: The text that could not be read: at most its first :data:`MAX_QUOTE`
        #: characters, then ``…`` (a server may log it).
        self.text = prefix(text)


def no_member(cls: type[enum.Enum], value: object) -> NoReturn:
    """Refuse a value that is none of an enum's members: the library enums' ``_missing_``.

    A value of the members' type is a bad value (:class:`FiveHundredError`, a
    ``ValueError`` as Python's own lookup raises); any other type is a
    :class:`FiveHundredTypeError`.
    """
    values = [member.value for member in cls]
    kind = type(values[0])
    wrong_type = isinstance(value, bool) or not isinstance(value, kind)
    listed = ", ".join(repr(v) for v in values) if len(values) <= 12 else f"see {cls.__name__}"
    error = FiveHundredTypeError if wrong_type else FiveHundredError
    raise error(f"{quote(value)} is not a value of {cls.__name__} ({listed})")


class Reason(enum.Enum):
    """Stable, machine-readable reason codes of :class:`IllegalActionError`.

    The value of each member is its own name, so it can be stored or sent over
    the wire as a string and read back with ``Reason(text)``.

    Looking a member up by a value that is none of its members raises
    :class:`~fivehundred.FiveHundredError` (a ``ValueError``, as Python's own lookup), or
    :class:`~fivehundred.FiveHundredTypeError` for a value of the wrong type.
    """

    @classmethod
    def _missing_(cls, value: object) -> NoReturn:
        no_member(cls, value)

    NOT_AN_ACTION = "NOT_AN_ACTION"
    GAME_OVER = "GAME_OVER"
    WRONG_PHASE = "WRONG_PHASE"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    BAD_DECK = "BAD_DECK"
    ALREADY_PASSED = "ALREADY_PASSED"
    BID_TOO_LOW = "BID_TOO_LOW"
    MISERE_NEEDS_SEVEN = "MISERE_NEEDS_SEVEN"
    BLIND_MISERE_NOT_FIRST_CALL = "BLIND_MISERE_NOT_FIRST_CALL"
    CALL_NOT_ALLOWED = "CALL_NOT_ALLOWED"
    WRONG_DISCARD_COUNT = "WRONG_DISCARD_COUNT"
    CARD_NOT_IN_HAND = "CARD_NOT_IN_HAND"
    NOMINATION_NOT_ALLOWED = "NOMINATION_NOT_ALLOWED"
    PARTNER_NOT_ALLOWED = "PARTNER_NOT_ALLOWED"
    MUST_FOLLOW_SUIT = "MUST_FOLLOW_SUIT"
    MUST_PLAY_JOKER = "MUST_PLAY_JOKER"
    JOKER_SUIT_REQUIRED = "JOKER_SUIT_REQUIRED"
    JOKER_SUIT_NOT_ALLOWED = "JOKER_SUIT_NOT_ALLOWED"
    JOKER_SUIT_ALREADY_LED = "JOKER_SUIT_ALREADY_LED"
    JOKER_LEAD_TOO_EARLY = "JOKER_LEAD_TOO_EARLY"


class IllegalActionError(FiveHundredError):
    """An action that the rules do not allow in this state.

    ``reason`` is a :class:`Reason`; ``str(err)`` is a sentence for a person,
    naming the seat, the card or call, and the rule.
    """

    def __init__(self, reason: Reason, message: str, *, seat: int | None = None) -> None:
        super().__init__(message)
        #: Why the action was refused.
        self.reason = reason
        #: The seat that tried to act, when known.
        self.seat = seat


class InvalidStateError(FiveHundredError):
    """A state (for example loaded from JSON) that breaks the rules' invariants.

    ``problems`` lists the problems found, each as a sentence: at most the first
    :data:`~fivehundred.errors.MAX_PROBLEMS`, then one ``"and K more problems"``.
    """

    def __init__(self, problems: Sequence[str]) -> None:
        found = tuple(problems)
        if len(found) > MAX_PROBLEMS:
            more = len(found) - MAX_PROBLEMS
            found = (*found[:MAX_PROBLEMS], f"and {more} more problem{'s' if more > 1 else ''}")
        if len(found) == 1:
            message = f"invalid state: {found[0]}"
        else:
            listed = "; ".join(f"({i}) {p}" for i, p in enumerate(found, 1))
            message = f"invalid state, {len(found)} problems: {listed}"
        super().__init__(message, problems=found)
