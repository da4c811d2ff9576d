"""Table chat: short text messages among the people at a table, read by its spectators.

A message is plain text: at most :data:`MAX_CHAT` characters once control
characters (and the bidirectional overrides that could disguise a message) are
taken out and runs of space are made one; the page shows it as text, never as
markup. Each seat may send :data:`BURST` messages at once, then one every
:data:`EVERY` seconds (``429 RATE_LIMITED`` beyond). A table keeps its last
:data:`KEPT` messages in memory (a restarted server starts a table's chat
afresh) and the live socket pushes each new one as ``{"type": "chat", ...}``.
"""

from __future__ import annotations

import re
import threading
import time
from collections import deque
from typing import Any, Final

from fivehundred.server.tables import Refused

__all__ = ["BURST", "EVERY", "KEPT", "MAX_CHAT", "Chat", "clean"]

#: The longest message, in characters.
MAX_CHAT: Final = 200
#: Messages one seat may send at once, and the seconds after which it may send one more.
BURST: Final = 5
EVERY: Final = 2.0
#: Messages a table keeps for a page that opens later.
KEPT: Final = 50
#: Tables whose chat is kept (the oldest table's chat is dropped beyond).
MAX_TABLES: Final = 10_000

# control characters, and the bidirectional marks that could turn a message around
_HIDDEN: Final = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def clean(text: object) -> str:
    """A message as it is kept and shown: text, with no control characters, one space
    between words, at most :data:`MAX_CHAT` characters.

    Raises :class:`Refused` (400 ``BAD_CHAT``) for anything but a text, for a message
    with nothing to show, or for one over :data:`MAX_CHAT` characters.
    """
    if not isinstance(text, str):
        raise Refused(400, "BAD_CHAT", 'send {"text": TEXT}, a message in words')
    shown = " ".join(_HIDDEN.sub(" ", text).split())
    if not shown:
        raise Refused(400, "BAD_CHAT", "the message is empty")
    if len(shown) > MAX_CHAT:
        raise Refused(400, "BAD_CHAT", f"a message is at most {MAX_CHAT} characters")
    return shown


class Chat:
    """The chat of every table of a server: the last messages and each seat's allowance."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._messages: dict[str, deque[dict[str, Any]]] = {}
        self._numbers: dict[str, int] = {}
        self._allowance: dict[tuple[str, int], tuple[float, float]] = {}

    def messages(self, table_id: str) -> list[dict[str, Any]]:
        """The table's last messages, oldest first."""
        with self._lock:
            return list(self._messages.get(table_id, ()))

    def say(
        self, table_id: str, seat: int, name: str, text: object, now: float | None = None
    ) -> dict[str, Any]:
        """Keep a seat's message; answer it as the socket pushes it.

        Raises :class:`Refused`: 400 ``BAD_CHAT`` (see :func:`clean`), 429
        ``RATE_LIMITED`` when the seat has sent its allowance.
        """
        shown = clean(text)
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, at = self._allowance.get((table_id, seat), (float(BURST), now))
            tokens = min(float(BURST), tokens + (now - at) / EVERY)
            if tokens < 1:
                wait = (1 - tokens) * EVERY
                raise Refused(
                    429, "RATE_LIMITED", f"too many messages: send the next in {wait:.0f} s"
                )
            self._allowance[(table_id, seat)] = (tokens - 1, now)
            if table_id not in self._messages and len(self._messages) >= MAX_TABLES:
                oldest = next(iter(self._messages))
                del self._messages[oldest]
                self._numbers.pop(oldest, None)
            number = self._numbers.get(table_id, 0) + 1
            self._numbers[table_id] = number
            message = {"type": "chat", "n": number, "seat": seat, "name": name, "text": shown}
            self._messages.setdefault(table_id, deque(maxlen=KEPT)).append(message)
            return message
