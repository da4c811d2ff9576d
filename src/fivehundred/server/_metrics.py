"""The server's Prometheus metrics (``GET /metrics``), with ``prometheus-client``.

Each application has a registry of its own, so that two apps in one process
(tests, or two mounts) count apart, with the standard ``process_*`` metrics of
the process. docs/howto/operate-the-server.md says what each metric means.

With ``--workers`` the metrics are whole across the worker processes:
the supervisor sets ``PROMETHEUS_MULTIPROC_DIR`` (:data:`MULTIPROCESS`) before
it starts them, each worker writes its values there (prometheus-client's
multiprocess mode), and whichever worker is scraped answers the sums. Its
``process_*`` metrics are gauges each worker sets from its own (every
10 s, with the count of open tables, and when it is scraped): memory and descriptors summed
over the live workers, CPU seconds over all that ever ran, and the oldest
start time.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Final

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
    multiprocess,
)
from prometheus_client.registry import Collector

__all__ = ["BUCKETS", "CONTENT_TYPE", "MULTIPROCESS", "Metrics"]

#: The environment variable of prometheus-client's multiprocess mode: its folder.
MULTIPROCESS: Final = "PROMETHEUS_MULTIPROC_DIR"

#: The latency histogram's buckets, in seconds.
BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: The media type of the text exposition format.
CONTENT_TYPE: Final = CONTENT_TYPE_LATEST


class Metrics:
    """Every metric of one application, in its own registry. Raises nothing."""

    def __init__(self) -> None:
        self.folder = os.environ.get(MULTIPROCESS) or None
        #: What ``/metrics`` renders: this app's metrics, or every worker's.
        self.registry = CollectorRegistry()
        # in multiprocess mode the values are in files, summed by the collector
        r = None if self.folder else self.registry
        if self.folder is None:
            ProcessCollector(registry=self.registry)
        else:
            _forget_the_dead(self.folder)
            multiprocess.MultiProcessCollector(self.registry, path=self.folder)  # type: ignore[no-untyped-call]  # unannotated upstream
            self._process = _ProcessGauges()
        #: The series of :meth:`answered`, by route, method and status.
        self._series: dict[tuple[str, str, int], tuple[Any, Any]] = {}
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
            "fivehundred_requests_in_flight",
            "HTTP requests being handled now",
            registry=r,
            multiprocess_mode="livesum",
        )
        self.open_tables = Gauge(
            "fivehundred_open_tables",
            "Tables not closed, in the database",
            registry=r,
            multiprocess_mode="livemax",  # each worker counts them all
        )
        self.loaded_tables = Gauge(
            "fivehundred_loaded_tables",
            "Tables held in memory",
            registry=r,
            multiprocess_mode="livesum",
        )
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

    def answered(self, route: str, method: str, status: int, seconds: float) -> None:
        """Count one answered request and its latency (the labelled series made once each)."""
        key = (route, method, status)
        series = self._series.get(key)
        if series is None:
            series = self._series[key] = (
                self.requests.labels(route=route, method=method, status=str(status)),
                self.latency.labels(route=route),
            )
        series[0].inc()
        series[1].observe(seconds)

    def observe(self, event: str, detail: str, count: int) -> None:
        """What :attr:`.Tables.observer` reports: tables created, moves, tables closed."""
        if event == "created":
            self.created.inc(count)
        elif event == "moves":
            self.moves.labels(by=detail).inc(count)
        elif event == "closed":
            self.closed.labels(reason=detail).inc(count)

    def update_process(self) -> None:
        """Set this worker's ``process_*`` gauges from its own (multiprocess mode only)."""
        if self.folder is not None:
            self._process.update()

    def render(self) -> bytes:
        """The metrics in Prometheus' text format."""
        if self.folder is not None:
            _forget_the_dead(self.folder)
            self._process.update()
        return generate_latest(self.registry)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - another user's process of that pid
        return True
    return True


def _forget_the_dead(folder: str) -> None:
    """Drop the live gauges of workers that have died (the supervisor replaced them)."""
    for path in Path(folder).glob("gauge_live*_*.db"):
        pid = path.stem.rpartition("_")[2]
        if pid.isdigit() and not _alive(int(pid)):
            multiprocess.mark_process_dead(int(pid), folder)  # type: ignore[no-untyped-call]  # unannotated upstream


class _ProcessGauges:
    """The standard ``process_*`` metrics of a worker, as multiprocess gauges and a counter
    (prometheus-client's own process collector reads only the process it runs in)."""

    def __init__(self) -> None:
        self.reader: Collector = ProcessCollector(registry=None)
        self.cpu = Counter(
            "process_cpu_seconds", "Total user and system CPU time spent in seconds", registry=None
        )
        self.spent = 0.0
        self.gauges = {
            "process_resident_memory_bytes": ("Resident memory size in bytes", "livesum"),
            "process_virtual_memory_bytes": ("Virtual memory size in bytes", "livesum"),
            "process_open_fds": ("Number of open file descriptors", "livesum"),
            "process_max_fds": ("Maximum number of open file descriptors", "livemin"),
            "process_start_time_seconds": (
                "Start time of the oldest live process since unix epoch in seconds",
                "livemin",
            ),
        }
        self.set = {
            name: Gauge(name, text, registry=None, multiprocess_mode=mode)  # type: ignore[arg-type]  # the modes above are prometheus-client's
            for name, (text, mode) in self.gauges.items()
        }
        self.update()  # at once: a gauge not yet set reads 0, the smallest start time

    def update(self) -> None:
        for family in self.reader.collect():
            for sample in family.samples:
                if sample.name == "process_cpu_seconds_total":
                    self.cpu.inc(max(0.0, sample.value - self.spent))
                    self.spent = max(self.spent, sample.value)
                elif sample.name in self.set:
                    self.set[sample.name].set(sample.value)
