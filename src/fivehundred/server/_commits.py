"""SQLite's group commit: the writes that arrive together are stored by one transaction.

A move is a few rows; storing it is one ``fsync``. :class:`GroupCommits` runs every
write waiting in one transaction (each in a savepoint of its own, so a write that
fails is undone alone) and one commit, so many moves cost one disk flush. Writes
come two ways:

- :meth:`GroupCommits.together`, from a thread that waits for its write: one thread
  at a time (the first to find nobody committing) commits for every thread waiting;
- :meth:`GroupCommits.soon`, from the event loop, which must not wait: the write goes
  to one writer thread, and its callback is called there once the commit that holds
  it is over. One thread needs the interpreter a few times a group, where a thread a
  move would queue for it behind the loop at each step.

No write is reported done before the commit that holds it.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable

from fivehundred.server._logs import LOGGER
from fivehundred.server._schema import ACTION_ROW, DEAL_ROW, Batch

log = logging.getLogger(LOGGER)

__all__ = ["GroupCommits", "Job"]

#: The seconds :meth:`GroupCommits.close` waits for the writer thread's last group.
CLOSE_WAIT = 10.0


class Job:
    """One write's statements waiting in a group commit, and how it ended.

    ``batch`` is the rows ``rows`` inserts, where it only inserts actions and deals;
    ``done`` is called with the write's error (``None``: stored) by the writer thread.
    """

    __slots__ = ("batch", "done", "error", "finished", "leads", "rows", "wake")

    def __init__(
        self,
        rows: Callable[[], None],
        batch: Batch | None = None,
        done: Callable[[BaseException | None], None] | None = None,
    ) -> None:
        self.rows = rows
        self.batch = batch
        self.done = done
        #: Set when the write is committed (or failed), or when its thread is to commit.
        self.wake = threading.Event()
        self.finished = False
        self.leads = False
        self.error: BaseException | None = None


class GroupCommits:
    """The group commits of one SQLite connection, whose lock every statement holds."""

    def __init__(self, db: sqlite3.Connection, lock: threading.Lock) -> None:
        self._db = db
        self._lock = lock
        #: The threads' writes waiting for the next group commit, and whether one is on.
        self.waiting: list[Job] = []
        self.committing = False
        self._queue = threading.Lock()
        #: The event loop's writes, waiting for the writer thread (started when needed).
        self._later: list[Job] = []
        self._ready = threading.Condition()
        self._writer: threading.Thread | None = None
        self._closed = False

    def together(self, job: Job) -> None:
        """Store ``job``'s write before answering (its error is left in ``job.error``)."""
        with self._queue:
            self.waiting.append(job)
            if not self.committing:
                self.committing = job.leads = True
        if not job.leads:
            job.wake.wait()  # till a commit holds this write, or this thread is to commit
        if not job.finished:  # this thread commits every write waiting, its own among them
            with self._queue:
                group, self.waiting = self.waiting, []
            self.commit(group)
            with self._queue:  # the writes that came meanwhile: their first thread commits
                if self.waiting:
                    first = self.waiting[0]
                    first.leads = True
                    first.wake.set()
                else:
                    self.committing = False

    def soon(self, job: Job) -> None:
        """Hand ``job`` to the writer thread, which calls ``job.done`` once it is over."""
        with self._ready:
            if self._closed:
                raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
            self._later.append(job)
            if self._writer is None:
                self._writer = threading.Thread(
                    target=self._write, name="fivehundred-sqlite-writer", daemon=True
                )
                self._writer.start()
            self._ready.notify()

    def _write(self) -> None:
        while True:
            with self._ready:
                while not self._later and not self._closed:
                    self._ready.wait()
                if not self._later:
                    return
                group, self._later = self._later, []
            self.commit(group)
            for job in group:
                assert job.done is not None  # only soon() hands jobs to this thread
                try:
                    job.done(job.error)
                except Exception:  # a callback's bug: logged; the writer goes on for the rest
                    log.exception("a stored write's callback failed")

    def close(self) -> None:
        """Let the writer thread store what it holds, then end it."""
        with self._ready:
            self._closed = True
            self._ready.notify()
            writer = self._writer
        if writer is not None:
            writer.join(CLOSE_WAIT)

    def commit(self, group: list[Job]) -> None:
        """Run each write of ``group`` in a savepoint of one transaction, then commit (the
        plain appends first, together: few statements, so few waits for the interpreter
        between them under load; :meth:`_batched`)."""
        try:
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    for job in self._batched(group):
                        self._db.execute("SAVEPOINT write")
                        try:
                            job.rows()
                        except Exception as err:  # this write alone is undone
                            self._db.execute("ROLLBACK TO write")
                            job.error = err
                        self._db.execute("RELEASE write")
                    self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                    raise
        except BaseException as err:  # nothing of the group is stored
            for job in group:
                job.error = job.error or err
        finally:
            for job in group:
                job.finished = True
                job.wake.set()

    def _batched(self, group: list[Job]) -> list[Job]:
        """Insert the rows of the group's plain appends together (in the transaction begun);
        answer the jobs still to run, each on its own: all of them if that failed."""
        batches = [job.batch for job in group if job.batch is not None]
        if len(batches) < 2:
            return group
        self._db.execute("SAVEPOINT batch")
        try:
            for sql, n in ((ACTION_ROW, 0), (DEAL_ROW, 1)):
                self._db.executemany(sql, [row for batch in batches for row in batch[n]])
        except sqlite3.Error:  # one of them failed: each is run on its own, in a savepoint
            self._db.execute("ROLLBACK TO batch")
            return group
        finally:
            self._db.execute("RELEASE batch")
        return [job for job in group if job.batch is None]
