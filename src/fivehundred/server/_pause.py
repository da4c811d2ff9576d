"""The end of a hand waits for the people at the table: nobody is dealt past it alone.

When a hand ends while people have the table open (a live socket on this
server), the next hand is dealt and stored, but its computer seats do not move
until each person present has said "next hand" (``POST /tables/{id}/next``) or
the operator's ``hand_pause`` seconds have passed. Meanwhile every page keeps
showing the hand that ended, its last trick and its review, and shows who is
still reading it. A person's own move in the new hand counts as their "next
hand". A table played over HTTP alone (a bot's) has nobody present, so it never
waits.

:class:`Pause` is the wait of one table; :class:`Pauses` is the part of
:class:`~fivehundred.server.tables.Tables` (a base class) that starts, answers and
ends the waits. The wait is this process's: with several processes on one
PostgreSQL, a person present on another process is not waited for, and a table
read again from the store waits again for at most ``hand_pause`` seconds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection
from typing import Any, Final

import attrs

from fivehundred.server._admission import HUMAN

__all__ = ["HAND_PAUSE", "Pause", "Pauses", "describe", "stalled"]

#: Seconds the end of a hand waits at most for the people present, by default.
HAND_PAUSE: Final = 60.0


@attrs.frozen
class Pause:
    """A table waiting after a hand: until when (``time.monotonic()``, and the same
    moment as Unix time for the pages), and who has said "next hand"."""

    until: float
    clock: float
    seconds: float
    ready: frozenset[int] = frozenset()

    @classmethod
    def starting(cls, seconds: float) -> Pause:
        """A wait of ``seconds`` from now."""
        return cls(time.monotonic() + seconds, time.time() + seconds, seconds)

    def with_ready(self, seat: int) -> Pause:
        """The same wait, ``seat`` ready."""
        return attrs.evolve(self, ready=self.ready | {seat})

    def over(self, present: Collection[int], now: float) -> bool:
        """Whether the wait is over: its time is up, or everyone present is ready."""
        return now >= self.until or all(seat in self.ready for seat in present)


def describe(
    pause: Pause | None, present: Collection[int], people: Collection[int]
) -> dict[str, Any] | None:
    """The pause as a seat's answer carries it (``"pause"``): when it ends (Unix time),
    its length in seconds, the seats that have said "next hand", and the people's seats
    present that have not yet (``waiting``)."""
    if pause is None:
        return None
    return {
        "until": round(pause.clock, 3),
        "seconds": pause.seconds,
        "ready": sorted(pause.ready),
        "waiting": sorted(seat for seat in people if seat in present and seat not in pause.ready),
    }


class Pauses:
    """The waits of the tables at the end of each hand (a part of ``Tables``)."""

    _lock: threading.Lock
    #: The tables held in memory, by id (each a :class:`~fivehundred.server.tables.Table`).
    _tables: dict[str, Any]
    #: Seconds the end of a hand waits at most for the people present (0: never waits).
    hand_pause: float = HAND_PAUSE
    #: The people's seats with the table open on this server, by table id (the web
    #: layer's; none by default, so a table used from Python alone never waits).
    present: Callable[[str], frozenset[int]] = staticmethod(lambda table_id: frozenset())

    def _resumed(self, table: Any) -> int:  # pragma: no cover - Tables' own
        raise NotImplementedError

    def present_at(self, table_id: str) -> frozenset[int]:
        """:attr:`present` as it is when asked (a table's own lookup, made once)."""
        return self.present(table_id)

    def waits(self, table: Any) -> float:
        """Seconds a hand's end at ``table`` is to wait now (0: nobody is present)."""
        if not self.hand_pause or not self.present(table.id):
            return 0.0
        return float(self.hand_pause)

    def next_hand(self, table: Any, seat: int) -> int:
        """``seat``'s person says "next hand"; answer the table's version.

        The table moves on (its computer seats play) once everyone present has said
        so. Saying it when the table is not waiting changes nothing.
        """
        with table.lock:
            pause: Pause | None = table.pause
            if pause is None and stalled(table):  # its wait was another process's
                return self._resumed(table)
            if pause is None or seat in pause.ready:
                return int(table.version)
            table.pause = pause.with_ready(seat)
            if not table.pause.over(self.present(table.id), time.monotonic()):
                table.publish()  # who is still reading is part of the answer
                return int(table.version)
            return self._resumed(table)

    def wait_again(self, table: Any) -> None:
        """A table read from the store with a computer seat to act was stored while it
        waited (here before a restart, or in another process): it waits again, for at
        most :attr:`hand_pause` seconds, so that someone moves it on."""
        if table.pause is None and stalled(table):
            table.pause = Pause.starting(self.hand_pause)

    def due(self, now: float | None = None) -> list[Any]:
        """The tables whose wait is over (time up, or everyone present ready)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            waiting = [t for t in self._tables.values() if t.pause is not None]
        return [t for t in waiting if t.pause is not None and t.pause.over(self.present(t.id), now)]


def stalled(table: Any) -> bool:
    """Whether a computer seat of ``table`` is to act (it moves on its own otherwise)."""
    state = table.state
    seat = state.to_act
    return state.result is None and seat is not None and table.seats[seat] != HUMAN
