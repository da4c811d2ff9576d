"""The names people give the seats of a table, checked before anything is stored.

>>> check_names([" Ann  Lee ", None], 2)
('Ann Lee', None)
>>> check_names(["Ann"], 2)
Traceback (most recent call last):
...
ValueError: names must be a list of 2 names (or nulls)
"""

from __future__ import annotations

import unicodedata
from typing import Final

__all__ = ["MAX_NAME", "check_names"]

#: The longest name of a seat, in characters.
MAX_NAME: Final = 24
#: Letters that print as nothing: the Hangul fillers and the blank Braille pattern.
BLANKS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _shows(char: str) -> bool:
    """Whether a character shows as something: a letter, a digit, a mark of punctuation or
    a symbol that is not blank (a combining accent alone, or a filler, shows nothing)."""
    return unicodedata.category(char)[0] in "LNPS" and char not in BLANKS


def check_names(names: object, players: int) -> tuple[str | None, ...]:
    """Seat names: a list of one name (or ``null``) per seat, each 1 to :data:`MAX_NAME`
    printable characters once its runs of spaces are made one, at least one of which
    shows (not only a combining accent or a blank filler); ``None`` gives no names.

    Raises :class:`ValueError` with a sentence for anything else (the tables answer
    it 422 ``BAD_NAMES``).
    """
    if names is None:
        return ()
    if not isinstance(names, list) or len(names) != players:
        raise ValueError(f"names must be a list of {players} names (or nulls)")
    checked: list[str | None] = []
    for seat, name in enumerate(names):
        if name is None:
            checked.append(None)
            continue
        if not isinstance(name, str):
            raise ValueError(f"the name of seat {seat} must be text or null")
        trimmed = " ".join(name.split())
        if (
            not 1 <= len(trimmed) <= MAX_NAME
            or not trimmed.isprintable()
            or not any(_shows(char) for char in trimmed)
        ):
            raise ValueError(
                f"the name of seat {seat} must be 1 to {MAX_NAME} printable characters, "
                "one of them a letter, a digit or a sign that shows"
            )
        checked.append(trimmed)
    return tuple(checked)
