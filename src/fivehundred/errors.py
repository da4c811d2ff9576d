"""The exceptions the library raises, and the reason codes of illegal actions.

One taxonomy: every exception the library raises for an argument is a
:class:`FiveHundredError`, and also the built-in error a Python user expects. A bad
value is a ``ValueError`` (every :class:`FiveHundredError` is one); a value of the
wrong Python type is a :class:`FiveHundredTypeError`, which is also a ``TypeError``.
Every error carries its problems as data in ``err.problems``, one sentence each.

A move can fail two ways: its text is not notation of an action
(:class:`NotationError`) or the rules refuse it (:class:`IllegalActionError`).
Both are a :class:`MoveError` with a :class:`Reason` in ``err.reason``, from one
table of codes, so an app that takes moves with :func:`~fivehundred.play`
catches one class and branches on one code.
"""

from __future__ import annotations

import enum
import reprlib
from collections.abc import Sequence
from typing import Final, NoReturn

__all__ = [
    "MAX_NOTATION",
    "MAX_PROBLEMS",
    "MAX_QUOTE",
    "NOTATION_REASONS",
    "FiveHundredError",
    "FiveHundredTypeError",
    "IllegalActionError",
    "InvalidStateError",
    "MoveError",
    "NotationError",
    "Reason",
]


#: Error messages quote at most this many characters of the input (then ``…``).
MAX_QUOTE: Final = 40
#: The longest text the notation readers (parse_card, parse_cards, parse_call,
#: parse_action) read, in characters: a whole deck needs under 250.
MAX_NOTATION: Final = 1000
#: An error lists at most this many problems (then ``and K more``).
MAX_PROBLEMS: Final = 20


# How a message quotes an input, and how an enum refuses a value: the exceptions below
# use them, so they live here, at the bottom of the package. They are not in
# ``__all__``: the package's modules take them from ``fivehundred._engine.quoting``.

_REPR: Final = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = MAX_QUOTE
_REPR.maxlist = _REPR.maxdict = 4


def prefix(text: str) -> str:
    """At most the first :data:`MAX_QUOTE` characters of ``text`` (then ``…``)."""
    return text if len(text) <= MAX_QUOTE else text[:MAX_QUOTE] + "…"


def quote(value: object) -> str:
    """A short quotation of an input for a message: never the whole of a long input."""
    if isinstance(value, str):
        return repr(prefix(value))
    return _REPR.repr(value)


class FiveHundredError(ValueError):
    """Base class of every error raised by :mod:`fivehundred`; a ``ValueError``.

    ``problems`` holds what was wrong, one sentence each, as data: code reads it
    rather than splitting ``str(err)``. Raised with one message, it is that message;
    raised with ``problems=``, the message joins them with ``"; "``.

    >>> import fivehundred as fh
    >>> fh.FiveHundredError(problems=["players=9: too many", "target=0: too low"]).problems
    ('players=9: too many', 'target=0: too low')
    """

    def __init__(self, *args: object, problems: Sequence[str] | None = None) -> None:
        if problems is not None and not args:
            args = ("; ".join(problems),)
        super().__init__(*args)
        #: The problems found, each a sentence (one, the message, unless given).
        self.problems: tuple[str, ...] = (
            tuple(problems) if problems is not None else tuple(str(arg) for arg in args[:1])
        )


class FiveHundredTypeError(FiveHundredError, TypeError):
    """An argument of the wrong Python type: a :class:`FiveHundredError` and a ``TypeError``.

    As every library error, it is also a ``ValueError``, so ``except TypeError``,
    ``except ValueError`` and ``except FiveHundredError`` all catch it.

    >>> import fivehundred as fh
    >>> try:
    ...     fh.observe(None, 0)
    ... except fh.FiveHundredTypeError as err:
    ...     print(isinstance(err, TypeError), isinstance(err, fh.FiveHundredError), err)
    True True a fivehundred GameState is needed, not None
    """


def no_member(cls: type[enum.Enum], value: object) -> NoReturn:
    """Refuse a value that is none of an enum's members: the library enums' ``_missing_``.

    A value of the members' type is a bad value (:class:`FiveHundredError`, a
    ``ValueError`` as Python's own lookup raises); any other type is a
    :class:`FiveHundredTypeError`.
    """
    values = [member.value for member in cls]
    kind = type(values[0])
    wrong_type = isinstance(value, bool) or not isinstance(value, kind)
    listed = ", ".join(repr(v) for v in values) if len(values) <= 12 else f"see {cls.__name__}"
    error = FiveHundredTypeError if wrong_type else FiveHundredError
    raise error(f"{quote(value)} is not a value of {cls.__name__} ({listed})")


class Reason(enum.Enum):
    """Stable, machine-readable reason codes of a refused move (:class:`MoveError`).

    The rules' codes come first (:class:`IllegalActionError`), then the codes of
    text that is not an action (:class:`NotationError`, from ``NOT_TEXT`` on);
    ``NOT_AN_ACTION`` and ``WRONG_PHASE`` serve both: text that is no action, and
    text that is an action of another phase, read by :func:`~fivehundred.play`.

    The value of each member is its own name, so it can be stored or sent over
    the wire as a string and read back with ``Reason(text)``.

    Looking a member up by a value that is none of its members raises
    :class:`~fivehundred.FiveHundredError` (a ``ValueError``, as Python's own lookup), or
    :class:`~fivehundred.FiveHundredTypeError` for a value of the wrong type.
    """

    @classmethod
    def _missing_(cls, value: object) -> NoReturn:
        no_member(cls, value)

    #: it is not an action value at all (not a `Call`, `Discard`, `Nominate`, `CallPartner` or
    #: `Play`), or holds something other than cards and suits; as text: no action of the phase (`8S
    #: 4D 9D` in the kitty exchange, which is `discard 8S 4D 9D`). Typically: a bug in the caller; a
    #: player.
    NOT_AN_ACTION = "NOT_AN_ACTION"
    #: the game has ended (R9). Typically: a late client.
    GAME_OVER = "GAME_OVER"
    #: it is the wrong kind of action for the phase: a card during the auction, a call after it, any
    #: action before the next deal; as text too (`AS` in the auction). Typically: a stale client.
    WRONG_PHASE = "WRONG_PHASE"
    #: another seat is to act, or the seat is not at the table — `None` included (R3.1, R4.1, R5.1,
    #: R7.1, P5). Typically: a stale or hostile client.
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    #: `deal(cards=…)` was given a deck order that is not the deck of the rules, once each (R1.1,
    #: R2.2). Typically: a bug in the caller.
    BAD_DECK = "BAD_DECK"
    #: the seat has passed and may not call again (R3.7). Typically: a player who changed their
    #: mind.
    ALREADY_PASSED = "ALREADY_PASSED"
    #: the bid is not higher on the ladder than the standing bid (R3.1, R3.3). Typically: a player.
    BID_TOO_LOW = "BID_TOO_LOW"
    #: misère is called without a standing 7-level bid (R3.4). Typically: a player.
    MISERE_NEEDS_SEVEN = "MISERE_NEEDS_SEVEN"
    #: blind misère is called after the seat's first call (R3.6). Typically: a player.
    BLIND_MISERE_NOT_FIRST_CALL = "BLIND_MISERE_NOT_FIRST_CALL"
    #: the call is not in these rules (a sans-kitty bid without V-SANS-KITTY, misère with
    #: V-NO-MISERE), or not possible now. Typically: a player, or a client on other rules.
    CALL_NOT_ALLOWED = "CALL_NOT_ALLOWED"
    #: the discard is not exactly the kitty's number of different cards (R4.1). Typically: a player.
    WRONG_DISCARD_COUNT = "WRONG_DISCARD_COUNT"
    #: the card (or a discarded card) is not in the seat's hand (and kitty) (R4.1, R5.1). Typically:
    #: a stale or hostile client.
    CARD_NOT_IN_HAND = "CARD_NOT_IN_HAND"
    #: the contractor names a suit for the Joker without holding it: every No Trumps and misère
    #: contract has the nomination step, and without the Joker no nomination (`DECLINE`) is the only
    #: choice (R7.1); a nomination out of its phase is `WRONG_PHASE`. Typically: a player.
    NOMINATION_NOT_ALLOWED = "NOMINATION_NOT_ALLOWED"
    #: the five-player partner call names the Joker, the contractor's own card, or a seat when a
    #: card is called (or the reverse) (P5). Typically: a player.
    PARTNER_NOT_ALLOWED = "PARTNER_NOT_ALLOWED"
    #: the seat holds a card of the led suit — bowers and the Joker count in their effective suit —
    #: and did not play one (R5.3, R7.3). Typically: a player.
    MUST_FOLLOW_SUIT = "MUST_FOLLOW_SUIT"
    #: in misère, a seat that cannot follow and holds the suitless Joker must play it (R7.3).
    #: Typically: a player.
    MUST_PLAY_JOKER = "MUST_PLAY_JOKER"
    #: a suitless Joker is led without naming a suit (R7.4). Typically: a client that forgot to ask.
    JOKER_SUIT_REQUIRED = "JOKER_SUIT_REQUIRED"
    #: a suit is named where none may be: for a card that is not the Joker, a Joker not led, a
    #: nominated Joker, or the Joker led to the last trick (R7.4, R7.5). Typically: a client.
    JOKER_SUIT_NOT_ALLOWED = "JOKER_SUIT_NOT_ALLOWED"
    #: the suit named for a Joker lead has been led this hand (R7.4). Typically: a player.
    JOKER_SUIT_ALREADY_LED = "JOKER_SUIT_ALREADY_LED"
    #: the suitless Joker may not be led now: all four suits have been led, or V-JOKER-LEAD-LAST
    #: (R7.5). Typically: a player.
    JOKER_LEAD_TOO_EARLY = "JOKER_LEAD_TOO_EARLY"
    # -- the notation's codes (NotationError) --
    #: the notation is not text (a `str`). Typically: a bug in the caller.
    NOT_TEXT = "NOT_TEXT"
    #: the text is longer than the reader takes (`MAX_NOTATION`, 1,000 characters; a record 1 MiB).
    #: Typically: a hostile client.
    TOO_LONG = "TOO_LONG"
    #: the text reads two ways without a phase (`7H`: a bid or a card play). Typically: a bug in the
    #: caller.
    AMBIGUOUS_TEXT = "AMBIGUOUS_TEXT"
    #: a word that must be a card is not one (`1Z`). Typically: a player.
    NOT_A_CARD = "NOT_A_CARD"
    #: a word that must be a suit is not one (`nominate X`, `Jo:X`). Typically: a player.
    NOT_A_SUIT = "NOT_A_SUIT"
    #: the text is not a call (`seven hearts`). Typically: a player.
    NOT_A_CALL = "NOT_A_CALL"
    #: a seat number is not one (`partner seat 123`). Typically: a player.
    NOT_A_SEAT = "NOT_A_SEAT"
    #: a suit is named on a card that is not the Joker (`KS:H`): only a Joker lead names a suit
    #: (R7.4). Typically: a client.
    SUIT_ON_NON_JOKER = "SUIT_ON_NON_JOKER"
    #: the text is not a scored hand of a real table (`parse_hand_score`). Typically: a scorekeeper.
    NOT_A_HAND = "NOT_A_HAND"
    #: the text is not a game record (`record_from_text`). Typically: a damaged file.
    NOT_A_RECORD = "NOT_A_RECORD"


class MoveError(FiveHundredError):
    """A move refused, for its text or by the rules: ``reason`` says why, as a :class:`Reason`.

    The base of :class:`NotationError` (the text is not an action) and
    :class:`IllegalActionError` (the rules refuse the action now), so that
    ``except fh.MoveError`` catches every refusal :func:`~fivehundred.play` makes,
    and ``err.reason`` tells them apart. ``str(err)`` is a sentence for a person
    that names the rule; ``seat`` is the seat that tried to act, when known.

    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), seed=7)
    >>> for seat, text in ((0, "seven hearts"), (0, "AS"), (1, "6S"), (0, "6S-SK")):
    ...     try:
    ...         fh.play(state, seat, text)
    ...     except fh.MoveError as err:
    ...         print(type(err).__name__, err.reason.name)
    NotationError NOT_A_CALL
    IllegalActionError WRONG_PHASE
    IllegalActionError NOT_YOUR_TURN
    IllegalActionError CALL_NOT_ALLOWED
    """

    def __init__(self, reason: Reason, message: str, *, seat: int | None = None) -> None:
        super().__init__(message)
        #: Why the move was refused.
        self.reason = reason
        #: The seat that tried to act, when known.
        self.seat = seat


class NotationError(MoveError):
    """Text that is not valid card, call or action notation.

    ``reason`` is the :class:`Reason` (``NOT_TEXT``, ``TOO_LONG``, ``NOT_A_CARD``,
    ``NOT_A_CALL``, ...: see the table of :class:`Reason`); ``text`` the text.

    >>> import fivehundred as fh
    >>> try:
    ...     fh.parse_card("1Z")
    ... except fh.NotationError as err:
    ...     err.text, err.reason.name
    ('1Z', 'NOT_A_CARD')
    """

    def __init__(self, message: str, *, text: str, reason: Reason, seat: int | None = None) -> None:
        super().__init__(reason, message, seat=seat)
        #: The text that could not be read: at most its first :data:`MAX_QUOTE`
        #: characters, then ``…`` (a server may log it).
        self.text = prefix(text)


#: The codes only :class:`NotationError` gives: text that is no notation of what was read.
#: ``NOT_AN_ACTION`` and ``WRONG_PHASE`` are given by both classes.
NOTATION_REASONS: Final = frozenset(
    {
        Reason.NOT_TEXT,
        Reason.TOO_LONG,
        Reason.AMBIGUOUS_TEXT,
        Reason.NOT_A_CARD,
        Reason.NOT_A_SUIT,
        Reason.NOT_A_CALL,
        Reason.NOT_A_SEAT,
        Reason.SUIT_ON_NON_JOKER,
        Reason.NOT_A_HAND,
        Reason.NOT_A_RECORD,
    }
)


class IllegalActionError(MoveError):
    """An action that the rules do not allow in this state.

    ``reason`` is a :class:`Reason`; ``str(err)`` is a sentence for a person,
    naming the seat, the card or call, and the rule.
    """


class InvalidStateError(FiveHundredError):
    """A state (for example loaded from JSON) that breaks the rules' invariants.

    ``problems`` lists the problems found, each as a sentence: at most the first
    :data:`~fivehundred.errors.MAX_PROBLEMS`, then one ``"and K more problems"``.
    """

    def __init__(self, problems: Sequence[str]) -> None:
        found = tuple(problems)
        if len(found) > MAX_PROBLEMS:
            more = len(found) - MAX_PROBLEMS
            found = (*found[:MAX_PROBLEMS], f"and {more} more problem{'s' if more > 1 else ''}")
        if len(found) == 1:
            message = f"invalid state: {found[0]}"
        else:
            listed = "; ".join(f"({i}) {p}" for i, p in enumerate(found, 1))
            message = f"invalid state, {len(found)} problems: {listed}"
        super().__init__(message, problems=found)
