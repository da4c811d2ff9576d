"""How error messages quote a user's input: short, and never the whole of a long input."""

from __future__ import annotations

import enum
import reprlib
from typing import Final, NoReturn

from fivehundred.errors import (
    MAX_NOTATION,
    MAX_QUOTE,
    FiveHundredError,
    FiveHundredTypeError,
    NotationError,
)

_REPR: Final = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = MAX_QUOTE
_REPR.maxlist = _REPR.maxdict = 4


def prefix(text: str) -> str:
    """At most the first :data:`~fivehundred.errors.MAX_QUOTE` characters (then ``…``)."""
    return text if len(text) <= MAX_QUOTE else text[:MAX_QUOTE] + "…"


def quote(value: object) -> str:
    """A short quotation of an input for a message: never the whole of a long input."""
    if isinstance(value, str):
        return repr(prefix(value))
    return _REPR.repr(value)


def too_long(text: str, what: str) -> None:
    """Refuse notation longer than :data:`~fivehundred.errors.MAX_NOTATION` before reading it.

    Raises :class:`~fivehundred.NotationError` for a longer text.
    """
    if len(text) > MAX_NOTATION:
        raise NotationError(
            f"{quote(text)} is too long for {what}: {len(text)} characters, at most {MAX_NOTATION}",
            text=text,
        )


def no_member(cls: type[enum.Enum], value: object) -> NoReturn:
    """Refuse a value that is none of an enum's members: the library enums' ``_missing_``.

    A value of the members' type is a bad value (:class:`~fivehundred.FiveHundredError`,
    a ``ValueError`` as Python's own lookup raises); any other type is a
    :class:`~fivehundred.FiveHundredTypeError`.
    """
    values = [member.value for member in cls]
    kind = type(values[0])
    wrong_type = isinstance(value, bool) or not isinstance(value, kind)
    listed = ", ".join(repr(v) for v in values) if len(values) <= 12 else f"see {cls.__name__}"
    error = FiveHundredTypeError if wrong_type else FiveHundredError
    raise error(f"{quote(value)} is not a value of {cls.__name__} ({listed})")


def expect(value: object, kind: type | tuple[type, ...], what: str) -> None:
    """Refuse an argument that is not a ``kind``; ``what`` names what belongs there.

    The one check at a public function's entry, so that a wrong type gets a
    sentence instead of an ``AttributeError`` from deep inside. Raises
    :class:`~fivehundred.FiveHundredTypeError`: "expected a PlayerView (from
    observe), got <GameState ...>".
    """
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _kinds(kind)):
        raise FiveHundredTypeError(f"expected {what}, got {quote(value)}")


def _kinds(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)
