"""The exceptions the library raises, and the reason codes of illegal actions.

Every exception is a :class:`FiveHundredError` and also a :class:`ValueError`, so
code that already catches ``ValueError`` around user input keeps working.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

__all__ = [
    "FiveHundredError",
    "IllegalActionError",
    "InvalidStateError",
    "NotationError",
    "Reason",
]


class FiveHundredError(ValueError):
    """Base class of every error raised by :mod:`fivehundred`."""


class NotationError(FiveHundredError):
    """Text that is not valid card or call notation.

    >>> import fivehundred as fh
    >>> try:
    ...     fh.parse_card("1Z")
    ... except fh.NotationError as err:
    ...     err.text
    '1Z'
    """

    def __init__(self, message: str, *, text: str) -> None:
        super().__init__(message)
        #: The text that could not be read.
        self.text = text


class Reason(enum.Enum):
    """Stable, machine-readable reason codes of :class:`IllegalActionError`.

    The value of each member is its own name, so it can be stored or sent over
    the wire as a string and read back with ``Reason(text)``.
    """

    NOT_AN_ACTION = "NOT_AN_ACTION"
    GAME_OVER = "GAME_OVER"
    WRONG_PHASE = "WRONG_PHASE"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    BAD_DECK = "BAD_DECK"
    ALREADY_PASSED = "ALREADY_PASSED"
    BID_TOO_LOW = "BID_TOO_LOW"
    MISERE_NEEDS_SEVEN = "MISERE_NEEDS_SEVEN"
    BLIND_MISERE_NOT_FIRST_CALL = "BLIND_MISERE_NOT_FIRST_CALL"
    CALL_NOT_ALLOWED = "CALL_NOT_ALLOWED"
    WRONG_DISCARD_COUNT = "WRONG_DISCARD_COUNT"
    CARD_NOT_IN_HAND = "CARD_NOT_IN_HAND"
    NOMINATION_NOT_ALLOWED = "NOMINATION_NOT_ALLOWED"
    PARTNER_NOT_ALLOWED = "PARTNER_NOT_ALLOWED"
    MUST_FOLLOW_SUIT = "MUST_FOLLOW_SUIT"
    MUST_PLAY_JOKER = "MUST_PLAY_JOKER"
    JOKER_SUIT_REQUIRED = "JOKER_SUIT_REQUIRED"
    JOKER_SUIT_NOT_ALLOWED = "JOKER_SUIT_NOT_ALLOWED"
    JOKER_SUIT_ALREADY_LED = "JOKER_SUIT_ALREADY_LED"
    JOKER_LEAD_TOO_EARLY = "JOKER_LEAD_TOO_EARLY"


class IllegalActionError(FiveHundredError):
    """An action that the rules do not allow in this state.

    ``reason`` is a :class:`Reason`; ``str(err)`` is a sentence for a person,
    naming the seat, the card or call, and the rule.
    """

    def __init__(self, reason: Reason, message: str, *, seat: int | None = None) -> None:
        super().__init__(message)
        #: Why the action was refused.
        self.reason = reason
        #: The seat that tried to act, when known.
        self.seat = seat


class InvalidStateError(FiveHundredError):
    """A state (for example loaded from JSON) that breaks the rules' invariants.

    ``problems`` lists every problem found, each as a sentence.
    """

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems: tuple[str, ...] = tuple(problems)
        if len(self.problems) == 1:
            message = f"invalid state: {self.problems[0]}"
        else:
            listed = "; ".join(f"({i}) {p}" for i, p in enumerate(self.problems, 1))
            message = f"invalid state, {len(self.problems)} problems: {listed}"
        super().__init__(message)
