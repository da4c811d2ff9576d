"""The immutable game state: :class:`GameState`, :class:`Phase` and :class:`Trick`.

A :class:`GameState` is created by :func:`~fivehundred.new_game`, dealt by
:func:`~fivehundred.deal` and advanced by :func:`~fivehundred.apply`; it never
changes. Inside it is a handful of small integers and bit masks that point to a
block shared by every state of the same phase of a hand (see
``fivehundred._engine``); the properties turn that into cards, calls and tricks.
"""

from __future__ import annotations

from fivehundred._docs import document_class
from fivehundred._engine.state import GameState
from fivehundred._types import Phase, Trick

__all__ = ["GameState", "Phase", "Trick"]

document_class(GameState)  # compiled, its docstring and signature come from its source
