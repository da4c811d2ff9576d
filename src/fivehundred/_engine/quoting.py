"""How error messages quote a user's input: short, and never the whole of a long input.

:func:`quote`, :func:`prefix` and :func:`no_member` are written in
:mod:`fivehundred.errors`, whose exceptions use them (so that ``errors`` imports
nothing of the package); the package's modules take them from here, with
:func:`too_long`.
"""

from __future__ import annotations

from fivehundred.errors import (
    MAX_NOTATION,
    FiveHundredTypeError,
    NotationError,
    Reason,
    no_member,
    prefix,
    quote,
)

__all__ = ["no_member", "prefix", "quote", "too_long"]


def too_long(text: str, what: str) -> None:
    """Refuse notation longer than :data:`~fivehundred.errors.MAX_NOTATION` before reading it.

    Raises :class:`~fivehundred.NotationError` for a longer text.
    """
    if len(text) > MAX_NOTATION:
        raise NotationError(
            f"{quote(text)} is too long for {what}: {len(text)} characters, at most {MAX_NOTATION}",
            text=text,
            reason=Reason.TOO_LONG,
        )


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
