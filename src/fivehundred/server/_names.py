"""The names people give the seats of a table, checked before anything is stored.

>>> check_names([" Ann  Lee ", None], 2)
('Ann Lee', None)
>>> check_names(["Ann"], 2)
Traceback (most recent call last):
...
ValueError: names must be a list of 2 names (or nulls)
"""

from __future__ import annotations

from typing import Final

__all__ = ["MAX_NAME", "check_names"]

#: The longest name of a seat, in characters.
MAX_NAME: Final = 24


def check_names(names: object, players: int) -> tuple[str | None, ...]:
    """Seat names: a list of one name (or ``null``) per seat, each 1 to :data:`MAX_NAME`
    printable characters once its runs of spaces are made one; ``None`` gives no names.

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
        if not 1 <= len(trimmed) <= MAX_NAME or not trimmed.isprintable():
            raise ValueError(
                f"the name of seat {seat} must be 1 to {MAX_NAME} printable characters"
            )
        checked.append(trimmed)
    return tuple(checked)
