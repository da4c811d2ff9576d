"""No public value is falsy: ``if value:`` never mistakes a real value for "none".

``Suit.SPADES`` and ``Strain.SPADES`` are 0 as integers (they are ``IntEnum``
members); before they defined ``__bool__``, ``if play.suit:`` skipped spades,
and the command line offered "C, D, H" to a Joker lead that could name spades
too. Every enum reachable from the public modules, and every public constant,
is checked here, so a new enum or constant cannot bring the trap back.
"""

from __future__ import annotations

import enum
import importlib
import inspect
from typing import Final

import pytest

import fivehundred as fh
from fivehundred.rules import DEFAULT_LADDER

#: The public modules whose ``__all__`` is searched (the top level re-exports most).
MODULES: Final = (
    "fivehundred",
    "fivehundred.actions",
    "fivehundred.bots",
    "fivehundred.calls",
    "fivehundred.cards",
    "fivehundred.ai.encoding",
    "fivehundred.engine",
    "fivehundred.errors",
    "fivehundred.ai.playout",
    "fivehundred.records",
    "fivehundred.rules",
    "fivehundred.scoring",
    "fivehundred.serialize",
    "fivehundred.engine",
    "fivehundred.tricks",
    "fivehundred.views",
)


def public_values() -> dict[str, object]:
    found: dict[str, object] = {}
    for name in MODULES:
        module = importlib.import_module(name)
        for attr in getattr(module, "__all__", ()):
            found[f"{name}.{attr}"] = getattr(module, attr)
    return found


def public_enums() -> list[type[enum.Enum]]:
    enums = {
        value
        for value in public_values().values()
        if inspect.isclass(value) and issubclass(value, enum.Enum)
    }
    return sorted(enums, key=lambda cls: cls.__qualname__)


ENUMS: Final = public_enums()


def test_the_public_enums_are_found() -> None:
    assert {fh.Suit, fh.Rank, fh.Strain, fh.CallKind, fh.Phase, fh.Outcome, fh.Reason} <= set(ENUMS)


@pytest.mark.parametrize("cls", ENUMS, ids=lambda cls: cls.__qualname__)
def test_every_member_of_a_public_enum_is_truthy(cls: type[enum.Enum]) -> None:
    falsy = [member for member in cls if not member]
    assert not falsy, f"{cls.__qualname__} members that are falsy: {falsy}"


def test_spades_is_a_suit_and_a_strain_though_it_is_zero_R1_2() -> None:
    assert int(fh.Suit.SPADES) == 0 and bool(fh.Suit.SPADES) is True
    assert int(fh.Strain.SPADES) == 0 and bool(fh.Strain.SPADES) is True
    assert [suit.letter for suit in fh.Suit if suit] == ["S", "C", "D", "H"]
    # Still integers for everything else: arithmetic, indexing, ordering.
    assert fh.Suit.SPADES + 1 == fh.Suit.CLUBS and "SCDH"[fh.Suit.SPADES] == "S"


def test_every_public_constant_is_truthy() -> None:
    """Constants (not classes, functions or modules) are truthy, except flags.

    ``COMPILED`` is a ``bool`` whose ``False`` is its meaning (the pure build).
    """
    falsy = [
        name
        for name, value in public_values().items()
        if not (inspect.isclass(value) or callable(value) or inspect.ismodule(value))
        and not isinstance(value, bool)
        and not value
    ]
    assert not falsy, falsy
    assert fh.JOKER and fh.PASS and fh.DECLINE and DEFAULT_LADDER
