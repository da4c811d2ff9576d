"""Strains, calls (bids and passes) and call notation (rules R3.2–R3.3).

>>> import fivehundred as fh
>>> fh.parse_call("7nt"), str(fh.parse_call("misere")), str(fh.parse_call("10♥"))
(Call.parse('7NT'), 'M', '10H')
>>> fh.parse_call("7NT") < fh.MISERE < fh.parse_call("8S")
True
"""

from __future__ import annotations

import enum
from typing import Final, NoReturn

import attrs

from fivehundred._calltext import (
    BID_PATTERN,
    CALL_FORMS,
    CALL_WORDS,
    SANS_PATTERN,
    STRAIN_NUMBERS,
)
from fivehundred._quoting import no_member, quote, too_long
from fivehundred._tables import MAX_BID, MIN_BID
from fivehundred.cards import Suit
from fivehundred.errors import (
    FiveHundredError,
    FiveHundredTypeError,
    NotationError,
)

__all__ = [
    "BLIND_MISERE",
    "MISERE",
    "OPEN_MISERE",
    "PASS",
    "Call",
    "CallKind",
    "Strain",
    "parse_call",
]


class Strain(enum.IntEnum):
    """What a trick bid names: a trump suit or No Trumps, in bidding order (R1.2).

    Looking a member up by a value that is none of its members raises
    :class:`~fivehundred.FiveHundredError` (a ``ValueError``, as Python's own lookup), or
    :class:`~fivehundred.FiveHundredTypeError` for a value of the wrong type.
    """

    @classmethod
    def _missing_(cls, value: object) -> NoReturn:
        no_member(cls, value)

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3
    NO_TRUMPS = 4

    @property
    def letter(self) -> str:
        """The notation: ``S``, ``C``, ``D``, ``H`` or ``NT``."""
        return "NT" if self is Strain.NO_TRUMPS else Suit(self.value).letter

    @property
    def symbol(self) -> str:
        """The Unicode form: ``♠``, ``♣``, ``♦``, ``♥`` or ``NT``."""
        return "NT" if self is Strain.NO_TRUMPS else Suit(self.value).symbol

    @property
    def suit(self) -> Suit | None:
        """The trump suit, or ``None`` for No Trumps."""
        return None if self is Strain.NO_TRUMPS else Suit(self.value)

    @classmethod
    def of(cls, suit: Suit) -> Strain:
        """The strain of a trump suit."""
        return cls(int(suit))

    def __bool__(self) -> bool:
        """Always true: ``Strain.SPADES`` is 0 as an integer, but it is a strain.

        >>> bool(Strain.SPADES)
        True
        """
        return True

    def __str__(self) -> str:
        return self.letter


class CallKind(enum.Enum):
    """The kinds of call (R3.2).

    Looking a member up by a value that is none of its members raises
    :class:`~fivehundred.FiveHundredError` (a ``ValueError``, as Python's own lookup), or
    :class:`~fivehundred.FiveHundredTypeError` for a value of the wrong type.
    """

    @classmethod
    def _missing_(cls, value: object) -> NoReturn:
        no_member(cls, value)

    PASS = "pass"
    BID = "bid"
    MISERE = "misere"
    OPEN_MISERE = "open_misere"
    BLIND_MISERE = "blind_misere"


_MISERE_KINDS: Final = frozenset({CallKind.MISERE, CallKind.OPEN_MISERE, CallKind.BLIND_MISERE})


def _check_kind(instance: Call, attribute: attrs.Attribute[CallKind], value: object) -> None:
    if not isinstance(value, CallKind):
        raise FiveHundredTypeError(f"a call's kind is a CallKind, not {value!r}")


def _check_flag(instance: Call, attribute: attrs.Attribute[bool], value: object) -> None:
    if not isinstance(value, bool):
        raise FiveHundredTypeError(f"{attribute.name} is True or False, not {value!r}")


def _check_tricks(
    instance: Call, attribute: attrs.Attribute[int | None], value: int | None
) -> None:
    if instance.kind is CallKind.BID:
        if not isinstance(value, int) or isinstance(value, bool):
            raise FiveHundredTypeError(
                f"a trick bid names {MIN_BID} to {MAX_BID} tricks, not {value!r}"
            )
        if not MIN_BID <= value <= MAX_BID:
            raise FiveHundredError(
                f"a trick bid names {MIN_BID} to {MAX_BID} tricks, not {value!r}"
            )
    elif value is not None:
        raise FiveHundredError(f"only a trick bid names a number of tricks ({instance.kind.value})")


def _check_strain(
    instance: Call, attribute: attrs.Attribute[Strain | None], value: Strain | None
) -> None:
    if instance.kind is CallKind.BID:
        if not isinstance(value, Strain):
            raise FiveHundredTypeError(f"a trick bid names a Strain, not {value!r}")
    elif value is not None:
        raise FiveHundredError(f"only a trick bid names a strain ({instance.kind.value})")


@attrs.frozen(order=False, repr=False)
class Call:
    """One call of the auction: a pass, a trick bid, or a misère bid.

    Build trick bids with :meth:`Call.bid` and use the constants ``PASS``,
    ``MISERE``, ``OPEN_MISERE`` and ``BLIND_MISERE`` for the rest.
    ``sans_kitty`` marks a bid declared without the kitty (variant V-SANS-KITTY).

    Calls compare by their position on the default bid ladder (R3.3), not by
    points; open and blind misère share a rung. A pass is below every bid.

    >>> Call.bid(7, Strain.NO_TRUMPS)
    Call.parse('7NT')
    >>> Call.bid(8, Strain.SPADES) > MISERE > Call.bid(7, Strain.NO_TRUMPS)
    True

    Raises :class:`~fivehundred.FiveHundredError` for a bad value (a trick bid of other than 6
    to 10 tricks, a strain on a misère) and :class:`~fivehundred.FiveHundredTypeError` for a
    wrong type; use :meth:`Call.bid` and the constants to make calls.
    """

    kind: CallKind = attrs.field(validator=_check_kind)
    tricks: int | None = attrs.field(default=None, validator=_check_tricks)
    strain: Strain | None = attrs.field(default=None, validator=_check_strain)
    sans_kitty: bool = attrs.field(default=False, kw_only=True, validator=_check_flag)

    def __attrs_post_init__(self) -> None:
        if self.sans_kitty and self.kind is CallKind.PASS:
            raise FiveHundredError("a pass cannot be sans kitty")

    @classmethod
    def bid(cls, tricks: int, strain: Strain, *, sans_kitty: bool = False) -> Call:
        """A trick bid: ``tricks`` (``MIN_BID`` to ``MAX_BID``: 6–10) in ``strain``.

        >>> Call.bid(11, Strain.HEARTS)
        Traceback (most recent call last):
        ...
        fivehundred.errors.FiveHundredError: a trick bid names 6 to 10 tricks, not 11
        """
        return cls(CallKind.BID, tricks, strain, sans_kitty=sans_kitty)

    @classmethod
    def parse(cls, text: str) -> Call:
        """Read one call; the same as :func:`~fivehundred.parse_call`."""
        return parse_call(text)

    @property
    def is_pass(self) -> bool:
        """True for a pass."""
        return self.kind is CallKind.PASS

    @property
    def is_bid(self) -> bool:
        """True for anything but a pass."""
        return self.kind is not CallKind.PASS

    @property
    def is_misere(self) -> bool:
        """True for misère, open misère and blind misère."""
        return self.kind in _MISERE_KINDS

    @property
    def is_no_trumps_family(self) -> bool:
        """True for No Trumps and every misère contract (R1.4): no bowers."""
        return self.kind in _MISERE_KINDS or self.strain is Strain.NO_TRUMPS

    @property
    def trump(self) -> Suit | None:
        """The trump suit of this contract, or ``None`` for the No Trumps family."""
        return None if self.strain is None else self.strain.suit

    def __str__(self) -> str:
        if self.kind is CallKind.BID:
            assert self.strain is not None
            text = f"{self.tricks}{self.strain.letter}"
        else:
            text = _KIND_TEXT[self.kind]
        return text + ("-SK" if self.sans_kitty else "")

    def __repr__(self) -> str:
        return f"Call.parse('{self}')"

    @property
    def pretty(self) -> str:
        """A readable form: ``7♥``, ``7NT``, ``Misère``, ``Open Misère``, ``Pass``."""
        if self.kind is CallKind.BID:
            assert self.strain is not None
            text = f"{self.tricks}{self.strain.symbol}"
        else:
            text = _KIND_PRETTY[self.kind]
        return text + (" sans kitty" if self.sans_kitty else "")

    def _ladder_key(self) -> int:
        from fivehundred.rules import DEFAULT_LADDER

        return DEFAULT_LADDER.position(self)

    def __lt__(self, other: Call) -> bool:
        if isinstance(other, Call):
            return self._ladder_key() < other._ladder_key()
        return NotImplemented

    def __le__(self, other: Call) -> bool:
        if isinstance(other, Call):
            return self._ladder_key() <= other._ladder_key()
        return NotImplemented

    def __gt__(self, other: Call) -> bool:
        if isinstance(other, Call):
            return self._ladder_key() > other._ladder_key()
        return NotImplemented

    def __ge__(self, other: Call) -> bool:
        if isinstance(other, Call):
            return self._ladder_key() >= other._ladder_key()
        return NotImplemented


_KIND_TEXT: Final = {
    CallKind.PASS: "pass",
    CallKind.MISERE: "M",
    CallKind.OPEN_MISERE: "OM",
    CallKind.BLIND_MISERE: "BM",
}
_KIND_PRETTY: Final = {
    CallKind.PASS: "Pass",
    CallKind.MISERE: "Misère",
    CallKind.OPEN_MISERE: "Open Misère",
    CallKind.BLIND_MISERE: "Blind Misère",
}

#: A pass.
PASS: Final = Call(CallKind.PASS)
#: A misère bid (R3.2, R3.4).
MISERE: Final = Call(CallKind.MISERE)
#: An open misère bid (R3.5, R6.3).
OPEN_MISERE: Final = Call(CallKind.OPEN_MISERE)
#: A blind misère bid (R3.6).
BLIND_MISERE: Final = Call(CallKind.BLIND_MISERE)


def parse_call(text: str) -> Call:
    """Read a call from text, tolerantly.

    :func:`fivehundred.notation.parse_call` is this function.

    >>> parse_call("7NT"), parse_call("6s"), parse_call("10♥")
    (Call.parse('7NT'), Call.parse('6S'), Call.parse('10H'))
    >>> parse_call("misere"), parse_call("OM"), parse_call("BM"), parse_call("P")
    (Call.parse('M'), Call.parse('OM'), Call.parse('BM'), Call.parse('pass'))

    Bad text raises :class:`~fivehundred.NotationError`.
    """
    if not isinstance(text, str):
        raise NotationError(
            f"a call is written as text, not {type(text).__name__} {quote(text)}",
            text=quote(text),
        )
    too_long(text, "a call")
    cleaned = " ".join(text.strip().upper().split())
    sans = False
    match = SANS_PATTERN.search(cleaned)
    if match is not None and match.start() > 0:
        sans = True
        cleaned = cleaned[: match.start()].strip()
    word = CALL_WORDS.get(cleaned)
    if word is not None:
        kind = CallKind(word)
        if kind is CallKind.PASS and sans:
            raise NotationError(
                f"{quote(text)} is not a call: a pass cannot be sans kitty", text=text
            )
        return Call(kind, sans_kitty=sans)
    bid = BID_PATTERN.match(cleaned)
    if bid is not None:
        strain = STRAIN_NUMBERS.get(bid.group(2).replace(" ", ""))
        if strain is not None:
            return Call.bid(int(bid.group(1)), Strain(strain), sans_kitty=sans)
    raise NotationError(f"{quote(text)} is not a call: write {CALL_FORMS}", text=text)
