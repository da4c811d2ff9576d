"""The game server is hard to knock over (issue 34): each way found to knock it over or get
in, first reproduced here over real HTTP, then fixed.

The server runs in a thread of this process with the configuration ``fivehundred
serve`` uses (:func:`fivehundred.server.serve.config`); the client is the
standard library's, one keep-alive connection per :class:`Client`.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the server extra is not installed")
pytest.importorskip("starlette", reason="the server extra is not installed")

import uvicorn

from fivehundred.server.serve import config
from fivehundred.server.settings import Settings
from server_helpers import Client, first_line, free_port

SEATS = ["human", "random", "random", "random"]


class Running:
    """A server in a thread of this process, on a free port, until :meth:`stop`."""

    def __init__(self, db: Path | str, **options: Any) -> None:
        settings = options.pop("settings", Settings(create_rate=0))
        self.port = free_port()
        self.server = uvicorn.Server(
            config(db, port=self.port, seed="hard", settings=settings, **options)
        )
        #: The Starlette application (its ``state`` holds the tables).
        self.app: Any = self.server.config.app
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self.server.started

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    running = Running(tmp_path_factory.mktemp("hard") / "tables.db")
    yield running.port
    running.stop()


def send(client: Client, method: str, path: str, data: bytes, **headers: str) -> tuple[int, Any]:
    """A request with a raw body on the client's connection: the status and the JSON answer."""
    headers.setdefault("content-type", "application/json")
    client.connection.request(method, path, body=data, headers=headers)
    response = client.connection.getresponse()
    return response.status, json.loads(response.read() or b"null")


# -- 1. a JSON integer of any size is refused, and the connection goes on ------------

HUGE = "9" * 400


@pytest.mark.parametrize(
    "body",
    [
        f'{{"rules": {{"target": {HUGE}}}}}',
        f'{{"rules": {{"players": -{HUGE}}}}}',
        f'{{"seats": ["human", {HUGE}]}}',
        f'{{"names": {{"0": {HUGE}}}}}',
        f'{{"rules": {{"target": {"9" * 4000}}}}}',
    ],
)
def test_an_integer_of_any_size_in_a_new_table_is_400(port: int, body: str) -> None:
    client = Client(port)
    status, answer = send(client, "POST", "/tables", body.encode())
    assert (status, answer["error"]) in {(400, "BAD_NUMBER"), (413, "TOO_LARGE")}
    # the same keep-alive connection still serves the next request
    status, answer, _ = client.request("GET", "/healthz")
    assert (status, answer) == (200, {"status": "ok"})
    client.close()


def test_an_integer_of_any_size_in_an_action_is_400(port: int) -> None:
    client = Client(port)
    status, created, _ = client.request("POST", "/tables", {"seats": SEATS})
    assert status == 201
    path, token = f"/tables/{created['table']}/actions", created["tokens"]["0"]
    for body in (
        f'{{"action": "pass", "version": {HUGE}}}',
        f'{{"action": "pass", "version": -{HUGE}}}',
        f'{{"action": "pass", "version": 1, "x": [{HUGE}]}}',
    ):
        status, answer = send(client, "POST", path, body.encode(), authorization=f"Bearer {token}")
        assert (status, answer["error"]) == (400, "BAD_NUMBER")
    status, answer = send(
        client,
        "POST",
        f"/tables/{created['table']}/claim",
        f'{{"version": {HUGE}}}'.encode(),
        authorization=f"Bearer {token}",
    )
    assert (status, answer["error"]) == (400, "BAD_NUMBER")
    status, view, _ = client.request("GET", f"/tables/{created['table']}", token=token)
    assert status == 200 and view["version"] == created["version"]
    client.close()


def test_after_a_crash_the_client_is_told_to_close_and_its_next_request_is_served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    running = Running(tmp_path / "crash.db")
    try:
        tables = running.app.state.tables

        def crash(*args: object) -> None:
            raise RuntimeError("a bug")

        monkeypatch.setattr(tables, "create", crash)
        client = Client(running.port)
        status, answer, response = client.request("POST", "/tables", {"seats": SEATS})
        assert (status, answer["error"]) == (500, "INTERNAL_ERROR")
        assert response.getheader("connection") == "close"
        # http.client opens a new connection, as any pool does on "connection: close"
        assert client.request("GET", "/healthz")[0] == 200
        client.close()
    finally:
        running.stop()


# -- 2. connections that send nothing hold no slot for long; /healthz always answers --


def raw(port: int, data: bytes, *, wait: float = 10) -> bytes:
    """Send bytes on a new connection; everything answered until the server closes it."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(data)
        chunks = []
        with contextlib.suppress(TimeoutError):
            while chunk := sock.recv(65536):
                chunks.append(chunk)
    return b"".join(chunks)


def status_of(answer: bytes) -> tuple[int, Any]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def closed_within(sock: socket.socket, wait: float) -> bytes:
    """What the server sent before it closed ``sock`` (``wait`` seconds at most)."""
    sock.settimeout(wait)
    chunks = []
    with contextlib.suppress(TimeoutError):
        while chunk := sock.recv(65536):
            chunks.append(chunk)
        return b"".join(chunks)
    raise AssertionError(f"the connection is still open after {wait} s")


@pytest.fixture
def small(tmp_path: Path) -> Iterator[int]:
    """A server of 4 connections whose heads must arrive within 1 s."""
    running = Running(tmp_path / "small.db", max_connections=4, head_timeout=1.0)
    yield running.port
    running.stop()


def test_connections_that_send_nothing_are_closed_and_healthz_answers_meanwhile(
    small: int,
) -> None:
    idle = [socket.create_connection(("127.0.0.1", small)) for _ in range(4)]
    try:
        time.sleep(0.2)
        # the cap is full: /healthz is still answered, anything else is 503 BUSY
        assert status_of(raw(small, b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n")) == (
            200,
            {"status": "ok"},
        )
        status, body = status_of(raw(small, b"GET /tables/x HTTP/1.1\r\nhost: x\r\n\r\n"))
        assert (status, body["error"]) == (503, "BUSY")
        for sock in idle:  # each idle connection is closed with a 408 once its time is up
            status, body = status_of(closed_within(sock, 10))
            assert (status, body["error"]) == (408, "REQUEST_TIMEOUT")
    finally:
        for sock in idle:
            sock.close()
    time.sleep(0.2)
    client = Client(small)
    assert client.request("GET", "/tables/x")[0] == 404  # the slots are free again
    client.close()


def dribble(sock: socket.socket) -> bytes:
    """Send a header a byte every 0.2 s until the server answers; its answer."""
    sock.settimeout(0.2)
    for _ in range(100):  # 20 s of dribbling, were it not cut off
        try:
            sock.sendall(b"x")
            return sock.recv(65536)
        except TimeoutError:
            continue
    raise AssertionError("a head sent a byte at a time was not cut off")


@pytest.mark.parametrize("first", [False, True])
def test_a_head_sent_a_byte_at_a_time_is_cut_off(small: int, first: bool) -> None:
    with socket.create_connection(("127.0.0.1", small)) as sock:
        if first:  # the deadline starts again after each answer on a keep-alive connection
            sock.sendall(b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n")
            answer = b""
            while not answer.endswith(b"}"):
                answer += sock.recv(65536)
            assert status_of(answer)[0] == 200
        sock.sendall(b"GET /healthz HTTP/1.1\r\n")
        status, body = status_of(dribble(sock))
    assert (status, body["error"]) == (408, "REQUEST_TIMEOUT")


# -- 3. /metrics never waits on the database -----------------------------------------


def test_metrics_answer_while_the_database_does_not(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from fivehundred.server import create_app
    from fivehundred.server.store import Unavailable

    app = create_app(tmp_path / "down.db", seed="hard", settings=Settings(create_rate=0))
    with TestClient(app) as client:
        assert client.post("/tables", json={"seats": SEATS}).status_code == 201
        gate = threading.Event()

        def hung(*args: object) -> int:
            gate.wait(30)
            raise Unavailable("the database does not answer")

        tables = app.state.tables
        store = tables._store
        original = store.open_count
        store.open_count = hung
        try:
            answer = client.get("/metrics")
            answered_before_the_database = not gate.is_set()
        finally:
            gate.set()
            store.open_count = original
        assert answer.status_code == 200 and answered_before_the_database
        # the tables created by this process count at once, between two counts
        assert "fivehundred_open_tables 1.0" in answer.text.splitlines()


# -- 5. the creation limit cannot be bypassed, nor used up by invalid requests -------


def forwarded(client: Client, address: str) -> int:
    client.connection.request(
        "POST",
        "/tables",
        body=json.dumps({"seats": SEATS}).encode(),
        headers={"content-type": "application/json", "x-forwarded-for": address},
    )
    response = client.connection.getresponse()
    response.read()
    return response.status


@pytest.mark.parametrize(("trusted", "created"), [("", 2), ("127.0.0.1", 6)])
def test_x_forwarded_for_is_read_only_from_the_named_proxies(
    tmp_path: Path, trusted: str, created: int
) -> None:
    settings = Settings(create_rate=2, trusted_proxies=trusted)
    running = Running(tmp_path / "xff.db", settings=settings)
    try:
        client = Client(running.port)
        statuses = [forwarded(client, f"203.0.113.{n}") for n in range(6)]
        client.close()
    finally:
        running.stop()
    # by default the header is ignored: one address, a burst of 2; behind a named proxy
    # each forwarded address is a client of its own
    assert statuses == [201] * created + [429] * (6 - created)


def test_invalid_creations_do_not_use_up_the_limit(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from fivehundred.server import create_app

    app = create_app(tmp_path / "t.db", seed="hard", settings=Settings(create_rate=2))
    with TestClient(app) as client:
        for body in ({"seats": ["human", "nobody"]}, {"rules": {"players": 9}}, {"x": 1}):
            assert client.post("/tables", json=body).status_code in {400, 422}
        statuses = [client.post("/tables", json={"seats": SEATS}).status_code for _ in range(3)]
    assert statuses == [201, 201, 429]


def test_the_table_cap_is_a_setting(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from fivehundred.server import create_app

    settings = Settings(create_rate=0, max_tables=2)
    with TestClient(create_app(tmp_path / "t.db", settings=settings)) as client:
        statuses = [client.post("/tables", json={"seats": SEATS}).status_code for _ in range(3)]
        refusal = client.post("/tables", json={"seats": SEATS}).json()
    assert statuses == [201, 201, 503] and refusal["error"] == "TOO_MANY_TABLES"


def test_the_table_cap_is_an_option_and_a_variable() -> None:
    import argparse

    from fivehundred.server.settings import add_arguments, from_arguments

    def parse(argv: list[str], environ: dict[str, str]) -> Settings:
        parser = argparse.ArgumentParser()
        add_arguments(parser, environ)
        return from_arguments(parser.parse_args(argv), environ)

    assert parse([], {}).max_tables == 10_000
    assert parse([], {"FIVEHUNDRED_MAX_TABLES": "50"}).max_tables == 50
    assert parse(["--max-tables", "7"], {"FIVEHUNDRED_MAX_TABLES": "50"}).max_tables == 7
    assert parse([], {}).trusted_proxies == ""  # no proxy is trusted unless named
    with pytest.raises(ValueError, match="max_tables must be a whole number from 1"):
        Settings(max_tables=0)


# -- 9. smaller ones -------------------------------------------------------------------


@pytest.mark.parametrize("fails", [False, True])
def test_serving_on_is_printed_only_once_the_app_has_started(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fails: bool
) -> None:
    import contextlib as context

    from fivehundred.server.serve import Server

    served = config(tmp_path / "t.db", port=free_port())
    if fails:

        @context.asynccontextmanager
        async def broken(app: object) -> Any:
            raise RuntimeError("the database went away")
            yield  # pragma: no cover

        served.app.router.lifespan_context = broken  # type: ignore[union-attr]
    server = Server(served)
    server.ready = "fivehundred: serving on the test's port"

    def run() -> None:
        with context.suppress(SystemExit):  # uvicorn's exit at a failed start-up
            server.run()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    server.should_exit = True
    thread.join(10)
    printed = "serving on" in capsys.readouterr().out
    assert printed is not fails


@pytest.mark.parametrize("media", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_body_that_is_not_sent_as_json_is_415(port: int, media: str | None) -> None:
    client = Client(port)
    headers = {} if media is None else {"content-type": media}
    client.connection.request("POST", "/tables", body=b'{"seats": null}', headers=headers)
    response = client.connection.getresponse()
    answer = json.loads(response.read())
    assert (response.status, answer["error"]) == (415, "UNSUPPORTED_MEDIA_TYPE")
    # the same connection goes on; JSON with a charset is JSON
    status, _ = send(
        client,
        "POST",
        "/tables",
        b'{"seats": null}',
        **{"content-type": "application/json; charset=utf-8"},
    )
    assert status == 201
    client.close()


def test_the_closed_log_line_has_the_table_id(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from starlette.testclient import TestClient

    from fivehundred.server import create_app

    key = "k" * 24
    settings = Settings(create_rate=0, operator_key=key)
    with TestClient(create_app(tmp_path / "t.db", settings=settings)) as client:
        table = client.post("/tables", json={"seats": SEATS}).json()["table"]
        with caplog.at_level("INFO", logger="fivehundred.server"):
            closed = client.post(
                f"/admin/tables/{table}/close", headers={"authorization": f"Bearer {key}"}
            )
    assert closed.status_code == 200
    (record,) = [r for r in caplog.records if r.getMessage() == "table closed"]
    assert record.fields == {"table": table, "reason": "operator"}  # type: ignore[attr-defined]


def test_the_admin_listing_comes_in_pages(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from fivehundred.server import create_app

    key = "k" * 24
    auth = {"authorization": f"Bearer {key}"}
    settings = Settings(create_rate=0, operator_key=key)
    with TestClient(create_app(tmp_path / "t.db", settings=settings)) as client:
        made = [client.post("/tables", json={"seats": SEATS}).json()["table"] for _ in range(5)]
        seen, after, pages = [], None, 0
        while True:
            query = "?limit=2" + (f"&after={after}" if after else "")
            page = client.get(f"/admin/tables{query}", headers=auth).json()
            seen += [row["table"] for row in page["tables"]]
            pages += 1
            if page["next"] is None:
                break
            after = page["next"]
        assert (seen, pages) == (made, 3)  # oldest first, 2 + 2 + 1
        assert len(client.get("/admin/tables", headers=auth).json()["tables"]) == 5
        for query, code in (
            ("?limit=0", "BAD_QUERY"),
            ("?limit=x", "BAD_QUERY"),
            ("?after=gone", "NO_SUCH_TABLE"),
        ):
            assert client.get(f"/admin/tables{query}", headers=auth).json()["error"] == code


# -- 7. both libpq forms of a connection string; never a file name, never a password ---


@pytest.mark.parametrize(
    ("db", "shown"),
    [
        (
            "host=db port=5432 dbname=five password=hunter2",
            "host=db port=5432 dbname=five password=***",
        ),
        ("host=db password='hun ter\\' 2' user=ann", "host=db password=*** user=ann"),
        ("  dbname = five  password =hunter2", "  dbname = five  password =***"),
        ("postgresql://ann:hunter2@db/five", "postgresql://ann:***@db/five"),
    ],
)
def test_a_libpq_connection_string_is_postgresql_and_its_password_is_hidden(
    db: str, shown: str
) -> None:
    from fivehundred.server.store import describe, is_postgres_url

    assert is_postgres_url(db)
    assert describe(db) == shown


@pytest.mark.parametrize(
    "db", ["a=b.db", "host=db pasword=hunter2", "host=db password=hunter2 junk", "tables=1"]
)
def test_a_text_with_an_equals_sign_is_never_a_sqlite_file(tmp_path: Path, db: str) -> None:
    from subprocesses import run_python

    result = run_python(
        ["-m", "fivehundred", "serve", "--db", db, "--port", str(free_port())],
        timeout=60,
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert "is no SQLite file's name nor a libpq connection string" in result.stderr
    assert "hunter2" not in result.stderr + result.stdout
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []  # no file of that name was made


def test_serve_takes_a_libpq_key_value_string(tmp_path: Path) -> None:
    import subprocess
    import sys

    from psycopg.conninfo import conninfo_to_dict

    from postgres import fresh_database, postgres_server
    from subprocesses import python_env

    with postgres_server() as server, fresh_database(server, "t_libpq") as url:
        pairs = {**conninfo_to_dict(url), "password": "hunter2"}
        db = " ".join(f"{key}={value}" for key, value in pairs.items())
        port = free_port()
        command = [sys.executable, "-m", "fivehundred", "serve", "--db", db, "--port", str(port)]
        process = subprocess.Popen(
            [*command, "--log-level", "warning"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=python_env(),
            cwd=tmp_path,
        )
        try:
            assert process.stdout is not None
            line = first_line(process.stdout)
            client = Client(port)
            status, created, _ = client.request("POST", "/tables", {"seats": SEATS})
            client.close()
        finally:
            process.terminate()
            out, err = process.communicate(timeout=60)
    assert "serving on" in line and "password=***" in line
    assert status == 201, created
    assert "hunter2" not in line + out + err
    assert list(tmp_path.iterdir()) == []  # PostgreSQL, not a SQLite file of that name


# -- 4. the standard process metrics ---------------------------------------------------


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="process metrics come from /proc")
def test_the_metrics_hold_the_standard_process_metrics(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from fivehundred.server import create_app

    with TestClient(create_app(tmp_path / "t.db")) as client:
        text = client.get("/metrics").text
    rows = dict(row.rsplit(" ", 1) for row in text.splitlines() if not row.startswith("#"))
    for name in ("process_cpu_seconds_total", "process_resident_memory_bytes", "process_open_fds"):
        assert float(rows[name]) > 0, name


# -- 4. rate limits shared by every process on one PostgreSQL --------------------------


def test_the_rate_limits_are_shared_by_the_processes_on_one_postgresql() -> None:
    """Two applications on one database stand for two worker processes: a client's
    tables and requests count once across them (issue 34: each worker had its own)."""
    pytest.importorskip("psycopg", reason="the server extra is not installed")
    from starlette.testclient import TestClient

    from fivehundred.server import create_app
    from postgres import fresh_database, postgres_server

    with postgres_server() as server, fresh_database(server, "t_rates") as url:
        settings = Settings(create_rate=3)
        apps = [create_app(url, seed="rates", settings=settings) for _ in range(2)]
        try:
            with TestClient(apps[0]) as first, TestClient(apps[1]) as second:
                bad = first.post("/tables", json={"seats": ["human", "nobody"]})
                assert bad.status_code == 422  # an invalid creation gives its token back
                statuses = [
                    client.post("/tables", json={"seats": SEATS}).status_code
                    for client in (first, second, first, second, first)
                ]
                waited = second.post("/tables", json={"seats": SEATS})
            # the sweep forgets a bucket once it is full again (one client here)
            store: Any = apps[0].state.tables.store
            assert store.forget_full(time.time()) == 0
            assert store.forget_full(time.time() + 3600) == 1
        finally:
            for app in apps:
                app.state.tables.close()
    assert statuses == [201, 201, 201, 429, 429]
    assert waited.json()["error"] == "RATE_LIMITED" and int(waited.headers["retry-after"]) >= 1
