"""The server's Prometheus metrics (``GET /metrics``), with ``prometheus-client``.

Each application has a registry of its own, so that two apps in one process
(tests, or two mounts) count apart. docs/howto/operate-the-server.md says what
each metric means.
"""

from __future__ import annotations

from typing import Final

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

__all__ = ["BUCKETS", "CONTENT_TYPE", "Metrics"]

#: The latency histogram's buckets, in seconds.
BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: The media type of the text exposition format.
CONTENT_TYPE: Final = CONTENT_TYPE_LATEST


class Metrics:
    """Every metric of one application, in its own registry. Raises nothing."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter(
            "fivehundred_requests",
            "HTTP requests answered, by route template, method and status",
            ["route", "method", "status"],
            registry=r,
        )
        self.latency = Histogram(
            "fivehundred_request_duration_seconds",
            "Time from a request's start to the end of its answer, by route template",
            ["route"],
            buckets=BUCKETS,
            registry=r,
        )
        self.in_flight = Gauge(
            "fivehundred_requests_in_flight", "HTTP requests being handled now", registry=r
        )
        self.open_tables = Gauge(
            "fivehundred_open_tables", "Tables not closed, in the database", registry=r
        )
        self.loaded_tables = Gauge("fivehundred_loaded_tables", "Tables held in memory", registry=r)
        self.moves = Counter(
            "fivehundred_moves",
            "Accepted actions, by who made them (person or computer)",
            ["by"],
            registry=r,
        )
        self.refusals = Counter(
            "fivehundred_refusals",
            "Requests refused with a 4xx or 503 answer, by error code",
            ["code"],
            registry=r,
        )
        self.errors = Counter(
            "fivehundred_errors", "Requests that failed with 500 (a bug)", registry=r
        )
        self.created = Counter("fivehundred_tables_created", "Tables created", registry=r)
        self.closed = Counter(
            "fivehundred_tables_closed",
            "Tables closed and archived, by reason (idle, finished, operator)",
            ["reason"],
            registry=r,
        )
        self.purged = Counter(
            "fivehundred_tables_purged", "Archived games deleted from the database", registry=r
        )

    def observe(self, event: str, detail: str, count: int) -> None:
        """What :attr:`.Tables.observer` reports: tables created, moves, tables closed."""
        if event == "created":
            self.created.inc(count)
        elif event == "moves":
            self.moves.labels(by=detail).inc(count)
        elif event == "closed":
            self.closed.labels(reason=detail).inc(count)

    def render(self) -> bytes:
        """The metrics in Prometheus' text format."""
        return generate_latest(self.registry)
