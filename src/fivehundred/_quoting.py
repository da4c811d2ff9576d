"""How error messages quote a user's input: short, and never the whole of a long input."""

from __future__ import annotations

import reprlib
from typing import Final

from fivehundred.errors import MAX_NOTATION, MAX_QUOTE, NotationError

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
