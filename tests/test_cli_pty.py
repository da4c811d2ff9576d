"""The terminal game under a real pseudo-terminal: line editing, colour and a clean exit.

The scripted sessions of ``test_cli.py`` pipe their input, so the table reads
with ``readline()``; here the child's standard input and output are a
pseudo-terminal, so it reads with :func:`input` and readline, as a person's
terminal does.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time

from subprocesses import ROOT, python_env


class Session:
    """``fivehundred play`` in a child process whose terminal is a pseudo-terminal."""

    def __init__(self, *args: str, **env: str) -> None:
        self.master, slave = os.openpty()
        self.child = subprocess.Popen(
            [sys.executable, "-m", "fivehundred", "play", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=ROOT,
            env=python_env(TERM="xterm", COLUMNS="100", **env),
            close_fds=True,
        )
        os.close(slave)
        self.screen = b""

    def read_until(self, text: str, count: int = 1, timeout: float = 60) -> str:
        """Everything the child has written, once ``text`` appears ``count`` times in it."""
        deadline = time.monotonic() + timeout
        while self.screen.count(text.encode()) < count:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} never came:\n{self.screen.decode(errors='replace')}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the child closed the terminal
                    chunk = b""
                assert chunk, f"the child left before {text!r}"
                self.screen += chunk
        return self.screen.decode(errors="replace")

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> int:
        status = self.child.wait(timeout=60)
        os.close(self.master)
        return status


def test_play_under_a_pseudo_terminal_edits_lines_and_colours_cards() -> None:
    session = Session("--seed", "3")
    try:
        session.read_until("Your call> ")
        session.type("xyz\r")
        session.read_until("'xyz' is not a call")
        session.type("\x1b[A\r")  # Up recalls the last line: readline's history
        screen = session.read_until("'xyz' is not a call", count=2)
        assert "is not a call: write" in screen and "'\\x1b[A'" not in screen
        session.type("quit\r")
        screen = session.read_until("Goodbye.")
    finally:
        status = session.close()
    assert status == 0
    assert "\x1b[31m" in screen  # red suits: colour on a terminal
    assert "Final scores: you & seat 2 0, seats 1 & 3 0" in screen


def test_no_color_under_a_pseudo_terminal() -> None:
    session = Session("--seed", "3", NO_COLOR="1")
    try:
        session.read_until("Your call> ")
        session.type("quit\r")
        screen = session.read_until("Goodbye.")
    finally:
        status = session.close()
    assert status == 0
    assert "\x1b[31m" not in screen and "\x1b[1m" not in screen
