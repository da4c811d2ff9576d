"""A refusal inside the engine: the reason an action is not legal, and its detail.

Internal; compiled by mypyc.
"""

from __future__ import annotations

from typing import final

from fivehundred.errors import Reason


@final
class Verdict:
    """What :func:`judge` found: ``reason`` is ``None`` when the action is legal."""

    def __init__(self, reason: Reason | None, seat: int, detail: int = -1) -> None:
        self.reason = reason
        #: The seat the action was judged for.
        self.seat = seat
        #: A value that explains the refusal (a position, a suit or a mask), or -1.
        self.detail = detail
