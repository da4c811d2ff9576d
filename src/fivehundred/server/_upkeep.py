"""The operator's side of the server's tables: the open ones, closing, expiry and purging.

:class:`Upkeep` is a part of :class:`~fivehundred.server.tables.Tables` (its base
class), apart from the play of the tables.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable
from typing import Any

from fivehundred.server.store import Store

__all__ = ["Upkeep"]


class Upkeep:
    """The tables as an operator sees them: counted, listed, closed, expired, purged."""

    _store: Store
    _lock: threading.Lock
    #: The tables held in memory, by id (each a :class:`~fivehundred.server.tables.Table`).
    _tables: dict[str, Any]
    #: When the tables were opened: the last activity of a table not loaded since.
    started: float
    observer: Callable[[str, str, int], None]
    on_closed: Callable[[str, str], None]

    def open_count(self) -> int:
        """The tables not closed, stored in the database (the ``max_tables`` cap counts these)."""
        return self._store.open_count()

    def loaded(self) -> int:
        """The tables held in memory."""
        with self._lock:
            return len(self._tables)

    def listing(self) -> list[dict[str, Any]]:
        """Every open table for the admin route: id, seats, version, finished, idle seconds.

        A table not loaded since the server started counts as idle since then.
        """
        rows = self._store.open_games()
        with self._lock:
            loaded = dict(self._tables)
        now = time.monotonic()
        found = []
        for table_id, seats, actions in rows:
            table = loaded.get(table_id)
            found.append(
                {
                    "table": table_id,
                    "seats": json.loads(seats),
                    "version": actions if table is None else table.version,
                    "finished": None if table is None else table.state.result is not None,
                    "idle": round(now - (self.started if table is None else table.touched), 1),
                    "loaded": table is not None,
                }
            )
        return found

    def retire(self, table_id: str, reason: str, *, idle_since: float | None = None) -> bool:
        """Close a table and archive its game: it leaves memory, and its rows stay, marked
        closed with the time and ``reason``. Answers whether it was open (and so closed).

        Every later request to it is answered 410 ``TABLE_CLOSED``; :meth:`purge` deletes
        archived games. With ``idle_since``, a table moved at after that time stays open.
        """
        with self._lock:
            table = self._tables.get(table_id)
        with contextlib.nullcontext() if table is None else table.lock:
            if table is not None and idle_since is not None and table.touched > idle_since:
                return False
            closed = self._store.archive(table_id, time.time(), reason)
            if table is not None:
                table.closed = True
            with self._lock:
                self._tables.pop(table_id, None)
        if closed:
            self.observer("closed", reason, 1)
            self.on_closed(table_id, reason)
        return closed

    def sweep(self, idle: float, finished: float, now: float | None = None) -> dict[str, int]:
        """Archive the tables idle for ``idle`` seconds and the games finished ``finished``
        seconds ago (0: never); answers how many of each.

        A table's clock is its last accepted move (``touched``); a table not
        loaded since the server started counts from the start.
        """
        now = time.monotonic() if now is None else now
        with self._lock:
            loaded = dict(self._tables)
        closed = {"idle": 0, "finished": 0}
        for table_id, _, _ in self._store.open_games():
            table = loaded.get(table_id)
            touched = self.started if table is None else table.touched
            over = table is not None and table.state.result is not None
            if over and finished and now - touched >= finished:
                closed["finished"] += self.retire(table_id, "finished", idle_since=touched)
            elif not over and idle and now - touched >= idle:
                closed["idle"] += self.retire(table_id, "idle", idle_since=touched)
        return closed

    def purge(self, older: float, now: float | None = None) -> int:
        """Delete the archived games closed over ``older`` seconds ago; answers how many."""
        return self._store.purge((time.time() if now is None else now) - older)

    def ping(self) -> None:
        """Ask the database a trivial question (readiness); raises if it cannot answer."""
        self._store.ping()
