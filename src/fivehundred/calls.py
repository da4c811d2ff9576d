"""Strains, calls (bids and passes) and call notation (rules R3.2–R3.3).

>>> import fivehundred as fh
>>> fh.parse_call("7nt"), str(fh.parse_call("misere")), str(fh.parse_call("10♥"))
(Call.parse('7NT'), 'M', '10H')
>>> fh.parse_call("7NT") < fh.MISERE < fh.parse_call("8S")
True
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from functools import cache
from typing import Final, NoReturn

import attrs

from fivehundred._engine import ruledata as _tables
from fivehundred._engine.calltext import (
    BID_PATTERN,
    CALL_FORMS,
    CALL_WORDS,
    SANS_PATTERN,
    STRAIN_NUMBERS,
)
from fivehundred._engine.quoting import no_member, quote, too_long
from fivehundred._engine.ruledata import BID_TRICKS, MAX_BID, MIN_BID
from fivehundred.cards import Suit
from fivehundred.errors import (
    FiveHundredError,
    FiveHundredTypeError,
    NotationError,
    Reason,
)

__all__ = [
    "BLIND_MISERE",
    "DEFAULT_LADDER",
    "MISERE",
    "OPEN_MISERE",
    "PASS",
    "Call",
    "CallKind",
    "Ladder",
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


@attrs.frozen(order=False, repr=False, cache_hash=True)
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
            reason=Reason.NOT_TEXT,
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
                f"{quote(text)} is not a call: a pass cannot be sans kitty",
                text=text,
                reason=Reason.NOT_A_CALL,
            )
        return Call(kind, sans_kitty=sans)
    bid = BID_PATTERN.match(cleaned)
    if bid is not None:
        strain = STRAIN_NUMBERS.get(bid.group(2).replace(" ", ""))
        if strain is not None:
            return Call.bid(int(bid.group(1)), Strain(strain), sans_kitty=sans)
    raise NotationError(
        f"{quote(text)} is not a call: write {CALL_FORMS}", text=text, reason=Reason.NOT_A_CALL
    )


# -- the bid ladder (R3.3) -----------------------------------------------------------------


def _call_key(call: Call) -> tuple[CallKind, int | None, Strain | None]:
    return (call.kind, call.tricks, call.strain)


@attrs.frozen
class Ladder:
    """The bid ladder (R3.3): rungs from low to high; calls on one rung are equal.

    >>> from fivehundred import OPEN_MISERE, BLIND_MISERE
    >>> from fivehundred.calls import DEFAULT_LADDER
    >>> DEFAULT_LADDER.position(OPEN_MISERE) == DEFAULT_LADDER.position(BLIND_MISERE)
    True

    Raises :class:`~fivehundred.FiveHundredTypeError` when ``rungs`` is not a tuple of tuples of
    :class:`~fivehundred.Call`.
    """

    rungs: tuple[tuple[Call, ...], ...]
    _positions: dict[tuple[CallKind, int | None, Strain | None], int] = attrs.field(
        init=False, eq=False, repr=False
    )

    def __attrs_post_init__(self) -> None:
        try:
            rungs = tuple(tuple(calls) for calls in self.rungs)
        except TypeError:
            raise FiveHundredTypeError(
                f"a ladder's rungs are a sequence of sequences of Calls, not {self.rungs!r}"
            ) from None
        if not all(isinstance(call, Call) for calls in rungs for call in calls):
            raise FiveHundredTypeError(f"a ladder's rungs hold Calls, not {self.rungs!r}")
        positions = {_call_key(call): rung for rung, calls in enumerate(rungs) for call in calls}
        object.__setattr__(self, "_positions", positions)

    @property
    def calls(self) -> tuple[Call, ...]:
        """Every bid on the ladder, low to high (calls sharing a rung side by side)."""
        return tuple(call for rung in self.rungs for call in rung)

    def position(self, call: Call) -> int:
        """The rung of a call; a pass is ``-1``. Sans-kitty bids rank as the plain bid."""
        if call.kind is CallKind.PASS:
            return -1
        try:
            return self._positions[_call_key(call)]
        except KeyError:
            raise FiveHundredError(f"{call} is not on this ladder") from None

    @classmethod
    def of_options(cls, options: Mapping[str, object]) -> Ladder:
        """The ladder for the values of the options the misère table names (R3.3).

        ``options`` maps option names to values (``Rules`` passes its fields); a
        name the table reads that ``options`` lacks is not an on/off option. The
        same placements of the misère calls give the same object.

        >>> Ladder.of_options({"misere": True, "misere_by_value": False,
        ...                    "open_misere_top": False, "blind_misere": True}) is DEFAULT_LADDER
        True

        Raises :class:`~fivehundred.FiveHundredError` listing every problem of a misère
        table these options cannot represent.
        """
        places = _tables.MISERE_PLACES
        values = tuple(options.get(flag) for flag in _ladder_flags(places))
        ladder, problems = _ladder_of(places, values)
        if ladder is None:
            raise FiveHundredError(problems=problems)
        return ladder

    def __contains__(self, call: object) -> bool:
        return isinstance(call, Call) and _call_key(call) in self._positions


@cache
def _ladder_flags(places: tuple[_tables.MiserePlace, ...]) -> tuple[str, ...]:
    """The ``Rules`` flags that shape the ladder: those the misère table names."""
    names = (name for place in places for name in (*place.needs, place.moved_by))
    return tuple(dict.fromkeys(names))


#: A ladder's misère rungs: each misère call on it with the bid it sits just above.
_Placements = tuple[tuple[Call, Call], ...]


@cache
def _notation(text: str) -> Call | None:
    try:
        return parse_call(text)
    except NotationError:
        return None


@cache
def _placements_of(
    places: tuple[_tables.MiserePlace, ...], values: tuple[object, ...]
) -> tuple[_Placements, tuple[str, ...]]:
    """Where the misère calls sit under the values of the table's flags, read from the
    table, and the problems found: a table the options cannot be represented by,
    such as a misère call placed above a bid that is not on the ladder."""
    options = dict(zip(_ladder_flags(places), values, strict=True))
    placements: list[tuple[Call, Call]] = []
    problems: list[str] = []
    for place in places:
        flags = (*place.needs, place.moved_by)
        unknown = [flag for flag in flags if not isinstance(options.get(flag), bool)]
        if unknown:
            problems.append(
                f"the misère table (MISERE_PLACES) places {place.call} by "
                f"{', '.join(unknown)}, which is not an on/off option of Rules"
            )
            continue
        if not all(options[flag] for flag in place.needs):
            continue
        call = _notation(place.call)
        above_text = place.moved_above if options[place.moved_by] else place.above
        above = _notation(above_text)
        if call is None or not call.is_misere or call.sans_kitty:
            problems.append(
                f"the misère table (MISERE_PLACES) names {place.call!r}, not a misère call"
            )
        elif above is None or above.kind is not CallKind.BID or above.sans_kitty:
            problems.append(
                f"the misère table (MISERE_PLACES) places {place.call} above {above_text!r}, "
                f"which is not a trick bid of {MIN_BID} to {MAX_BID} tricks (R3.3)"
            )
        else:
            placements.append((call, above))
    return tuple(placements), tuple(problems)


@cache
def _ladder_of(
    places: tuple[_tables.MiserePlace, ...], values: tuple[object, ...]
) -> tuple[Ladder | None, tuple[str, ...]]:
    """The ladder for the table and the values of its flags, or ``None`` and the problems
    (cached on both, so a ``Rules`` checks its ladder with one lookup)."""
    placements, problems = _placements_of(places, values)
    return (None, problems) if problems else (_ladder(placements), ())


#: Every ladder built so far, by its misère placements: one object per ladder.
_LADDERS: Final[dict[_Placements, Ladder]] = {}


def _ladder(placements: _Placements) -> Ladder:
    """The ladder of the trick bids (R3.3) with these misère rungs; one object per placement."""
    ladder = _LADDERS.get(placements)
    if ladder is None:
        rungs: list[tuple[Call, ...]] = []
        for tricks in BID_TRICKS:
            for strain in Strain:
                bid = Call.bid(tricks, strain)
                rungs.append((bid,))
                above = tuple(call for call, below in placements if below == bid)
                if above:
                    rungs.append(above)
        ladder = _LADDERS.setdefault(placements, Ladder(tuple(rungs)))
    return ladder


def build_ladder(
    *,
    misere: bool = True,
    misere_by_value: bool = False,
    open_misere_top: bool = False,
    blind_misere: bool = True,
) -> Ladder:
    """The bid ladder for a set of ladder options (R3.3 and the ladder variants).

    Ladders are built once per placement of the misère calls: the same options
    give the same object, so ``Rules().ladder is DEFAULT_LADDER``.

    >>> from fivehundred import Rules
    >>> build_ladder() is DEFAULT_LADDER is Rules().ladder
    True
    >>> build_ladder(misere=False) is build_ladder(misere=False, misere_by_value=True)
    True
    """
    return Ladder.of_options(
        {
            "misere": misere,
            "misere_by_value": misere_by_value,
            "open_misere_top": open_misere_top,
            "blind_misere": blind_misere,
        }
    )


#: The default ladder of R3.3, the ladder of ``Rules()``.
DEFAULT_LADDER: Final = build_ladder()
