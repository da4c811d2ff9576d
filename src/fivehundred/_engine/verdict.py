"""A refusal inside the engine: the reason an action is not legal, and its detail.

Internal; compiled by mypyc.
"""

from __future__ import annotations

from typing import Final, final

from fivehundred.errors import Reason

# What a verdict's ``detail`` holds, by reason (else -1):
# - MUST_FOLLOW_SUIT, MUST_PLAY_JOKER, JOKER_SUIT_ALREADY_LED: a suit number;
# - JOKER_SUIT_REQUIRED: the mask of the suits the Joker may name;
# - CALL_NOT_ALLOWED, BID_TOO_LOW, NOT_AN_ACTION (a play), JOKER_SUIT_NOT_ALLOWED: one of:

#: CALL_NOT_ALLOWED: a sans-kitty bid where the rules have none (V-SANS-KITTY).
SANS_KITTY_OFF: Final = 1
#: CALL_NOT_ALLOWED: a call that is not on these rules' ladder.
NOT_ON_LADDER: Final = 2
#: BID_TOO_LOW: the bid is on the standing bid's rung (R3.3), not below it.
SAME_RUNG: Final = 1
#: NOT_AN_ACTION for a play: the card is not a Card, or the named suit not a Suit.
NOT_A_CARD: Final = 0
NOT_A_SUIT: Final = 1
#: JOKER_SUIT_NOT_ALLOWED: the Joker led to the last trick names no suit (R7.5), or the
#: card played is not a Joker lead that names one (R7.4).
LAST_TRICK: Final = 0
NO_SUIT_TO_NAME: Final = 1


@final
class Verdict:
    """What :func:`judge` found: ``reason`` is ``None`` when the action is legal."""

    def __init__(self, reason: Reason | None, seat: int, detail: int = -1) -> None:
        self.reason = reason
        #: The seat the action was judged for.
        self.seat = seat
        #: A value that explains the refusal (see the constants above), or -1.
        self.detail = detail
