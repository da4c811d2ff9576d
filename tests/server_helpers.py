"""Helpers of the game server's tests: a real ``fivehundred serve`` and a small HTTP client.

The client is the standard library's (``http.client``), so these helpers work
with any server, in this process or in a child.
"""

from __future__ import annotations

import http.client
import json
import select
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

from subprocesses import python_env

JSON = dict[str, Any]


def first_line(stream: IO[Any] | None, timeout: float = 60.0) -> Any:
    """The next line a child process prints on ``stream``, waited for at most ``timeout``
    seconds: a child that never prints fails the test instead of hanging the run."""
    assert stream is not None
    ready, _, _ = select.select([stream], [], [], timeout)
    assert ready, f"the child printed nothing within {timeout:g} s"
    return stream.readline()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Client:
    """JSON over one keep-alive HTTP/1.1 connection to 127.0.0.1."""

    def __init__(self, port: int, timeout: float = 30) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def close(self) -> None:
        self.connection.close()

    def request(
        self, method: str, path: str, body: object = None, token: str | None = None
    ) -> tuple[int, JSON, http.client.HTTPResponse]:
        headers = {"content-type": "application/json"}
        if token is not None:
            headers["authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        self.connection.request(method, path, body=data, headers=headers)
        response = self.connection.getresponse()
        payload = json.loads(response.read() or b"null")
        return response.status, payload, response


def start_server(
    db: str | Path, port: int, *extra: str, stderr: IO[str] | int = subprocess.PIPE
) -> subprocess.Popen[str]:
    """``fivehundred serve --db DB --port PORT`` in a child process, once it answers.

    Its log is at ``warning`` unless ``extra`` sets ``--log-level``: a pipe
    nobody reads would fill with a line a request and stall the server. Pass an
    open file as ``stderr`` to keep a log of every request.
    """
    level = [] if "--log-level" in extra else ["--log-level", "warning"]
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "fivehundred",
            "serve",
            "--db",
            str(db),
            "--port",
            str(port),
            *level,
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        env=python_env(),
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited: {process.communicate()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("the server did not start within 30 s")
