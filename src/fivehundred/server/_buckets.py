"""The rate limits every server process on one PostgreSQL database shares.

A token bucket per client and kind is a row of ``rate_bucket``, locked while it is
read and written (``SELECT ... FOR UPDATE``), so that every process counts the same
tokens. :class:`~fivehundred.server.store.PostgresStore` takes these methods; SQLite
serves one process, whose buckets are kept in memory (``server._ops.Buckets``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any


class SharedBuckets:
    """The buckets' queries, on a store that gives :meth:`_write` (a transaction) and
    :meth:`_rows` (a statement with ``?`` placeholders in it)."""

    def _write(self) -> contextlib.AbstractContextManager[object]:
        raise NotImplementedError

    def _rows(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def take_token(self, kind: str, client: str, rate: float, burst: float, now: float) -> float:
        """Take a token of ``client``'s bucket of ``kind`` (``rate`` a second, bursts of
        ``burst``): 0.0, or the seconds until one is there. One row a client, locked
        while it is read and written, so that every process counts the same tokens."""
        with self._write():
            self._rows(
                "INSERT INTO rate_bucket VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (kind, client, burst, now, now),
            )
            ((tokens, last),) = self._rows(
                "SELECT tokens, at FROM rate_bucket WHERE kind = ? AND client = ? FOR UPDATE",
                (kind, client),
            )
            tokens = min(burst, float(tokens) + max(0.0, now - float(last)) * rate)
            wait = 0.0 if tokens >= 1.0 else (1.0 - tokens) / rate
            tokens -= 1.0 if tokens >= 1.0 else 0.0
            self._rows(
                "UPDATE rate_bucket SET tokens = ?, at = ?, full_at = ? "
                "WHERE kind = ? AND client = ?",
                (tokens, now, now + (burst - tokens) / rate, kind, client),
            )
        return wait

    def give_token(self, kind: str, client: str, burst: float) -> None:
        """Give back the token a refused request took."""
        with self._write():
            self._rows(
                "UPDATE rate_bucket SET tokens = LEAST(?, tokens + 1) "
                "WHERE kind = ? AND client = ?",
                (burst, kind, client),
            )

    def forget_full(self, now: float) -> int:
        """Delete the buckets full again by ``now`` (as good as none); how many."""
        with self._write():
            return len(self._rows("DELETE FROM rate_bucket WHERE full_at <= ? RETURNING 1", (now,)))
