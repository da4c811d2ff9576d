"""How error messages quote a user's input: short, and never the whole of a long input.

:func:`quote`, :func:`prefix` and :func:`no_member` are written in
:mod:`fivehundred.errors`, whose exceptions use them (so that ``errors`` imports
nothing of the package); the package's modules take them from here, with
:func:`too_long`.
"""

from __future__ import annotations

from fivehundred.errors import MAX_NOTATION, NotationError, no_member, prefix, quote

__all__ = ["no_member", "prefix", "quote", "too_long"]


def too_long(text: str, what: str) -> None:
    """Refuse notation longer than :data:`~fivehundred.errors.MAX_NOTATION` before reading it.

    Raises :class:`~fivehundred.NotationError` for a longer text.
    """
    if len(text) > MAX_NOTATION:
        raise NotationError(
            f"{quote(text)} is too long for {what}: {len(text)} characters, at most {MAX_NOTATION}",
            text=text,
        )
