"""The old spellings whose call changed, as adapters to the new ones (deprecated names).

Internal, and imported only by ``fivehundred._deprecated`` when an old name is
read (by name, so that nothing here is loaded before then). Each adapter does
what the old function did by calling its replacement; they go with the old
names, one minor release after they were deprecated.
"""

from __future__ import annotations

from typing import Final

from fivehundred._compact import compact_size
from fivehundred.actions import Action
from fivehundred.records import GameRecord
from fivehundred.rules import Rules
from fivehundred.serialize import from_dict, from_json
from fivehundred.views import PlayerView

__all__ = [
    "COMPACT_NUM_ACTIONS",
    "action_from_dict",
    "action_from_json",
    "record_from_dict",
    "record_from_json",
    "rules_from_dict",
    "rules_from_json",
    "view_from_dict",
    "view_from_json",
]

#: ``num_actions(Rules(), layout="compact")``.
COMPACT_NUM_ACTIONS: Final = compact_size(Rules())


def rules_from_dict(data: object) -> Rules:
    """``from_dict(data, cls=Rules)``.

    Raises :class:`~fivehundred.InvalidStateError` as :func:`~fivehundred.from_dict` does.
    """
    return from_dict(data, cls=Rules)


def rules_from_json(text: str | bytes) -> Rules:
    """``from_json(text, cls=Rules)``.

    Raises :class:`~fivehundred.InvalidStateError` as :func:`~fivehundred.from_json` does.
    """
    return from_json(text, cls=Rules)


def view_from_dict(data: object) -> PlayerView:
    """``from_dict(data, cls=PlayerView)``.

    Raises :class:`~fivehundred.InvalidStateError` as :func:`~fivehundred.from_dict` does.
    """
    return from_dict(data, cls=PlayerView)


def view_from_json(text: str | bytes) -> PlayerView:
    """``from_json(text, cls=PlayerView)``.

    Raises :class:`~fivehundred.InvalidStateError` as :func:`~fivehundred.from_json` does.
    """
    return from_json(text, cls=PlayerView)


def action_from_dict(data: object) -> Action:
    """``from_dict(data, cls=Action)``.

    Raises :class:`~fivehundred.InvalidStateError` as :func:`~fivehundred.from_dict` does.
    """
    return from_dict(data, cls=Action)


def action_from_json(text: str | bytes) -> Action:
    """``from_json(text, cls=Action)``.

    Raises :class:`~fivehundred.InvalidStateError` as :func:`~fivehundred.from_json` does.
    """
    return from_json(text, cls=Action)


def record_from_dict(data: object) -> GameRecord:
    """``from_dict(data, cls=GameRecord)``.

    Raises :class:`~fivehundred.InvalidStateError` as :func:`~fivehundred.from_dict` does.
    """
    return from_dict(data, cls=GameRecord)


def record_from_json(text: str | bytes) -> GameRecord:
    """``from_json(text, cls=GameRecord)``.

    Raises :class:`~fivehundred.InvalidStateError` as :func:`~fivehundred.from_json` does.
    """
    return from_json(text, cls=GameRecord)
