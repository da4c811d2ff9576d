"""Hypothesis fuzzes the game server: no answer is a 500, and the server stays responsive.

Bodies, headers, paths and the live table's WebSocket messages go to the
application in process (Starlette's TestClient); whole request heads, sent at
once or in pieces, go to a real ``fivehundred serve`` on the loopback address.
The numbers reach every size (integers of hundreds of digits, which no float
holds), into every numeric field (each rule option, the versions, a seat, a
hand, a page's limit), and the bodies nest to any depth. Each test prints how many
requests it sent, the statuses answered and the slowest request's time
(``pytest -s``). The default run is bounded (``FIVEHUNDRED_SERVER_FUZZ_EXAMPLES``
examples a test, 300 by default); ``nox -s fuzz`` runs many more.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import socket
import subprocess
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

import attrs
import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("httpx2", reason="httpx2 (Starlette's test client) is not installed")
pytest.importorskip("prometheus_client", reason="the server extra is not installed")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import fivehundred as fh
from fivehundred.server import create_app
from fivehundred.server.serve import MAX_HEADER_BYTES
from fivehundred.server.settings import Settings
from server_helpers import Client, free_port, start_server

#: Examples a fuzz test runs (``nox -s fuzz`` sets more).
EXAMPLES: Final = int(os.environ.get("FIVEHUNDRED_SERVER_FUZZ_EXAMPLES", "300"))
#: Seconds a request may take before the server counts as not answering.
TIMEOUT: Final = 10.0
KEY: Final = "fuzz-operator-key-0123456789"
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same inputs on every run: a failure can be replayed
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


class Stats:
    """Requests sent, statuses answered and the slowest request, for the report."""

    def __init__(self, name: str) -> None:
        self.name, self.statuses = name, Counter[int]()
        self.slowest, self.slowest_what = 0.0, ""

    def timed(self, what: str, send: Callable[[], int]) -> int:
        started = time.perf_counter()
        status = send()
        elapsed = time.perf_counter() - started
        self.statuses[status] += 1
        if elapsed > self.slowest:
            self.slowest, self.slowest_what = elapsed, what[:80]
        return status

    def report(self) -> None:
        count = sum(self.statuses.values())
        print(
            f"\nfuzz {self.name}: {count} requests, "
            f"statuses {dict(sorted(self.statuses.items()))}, "
            f"slowest {self.slowest * 1000:.1f} ms ({self.slowest_what!r})"
        )
        assert count >= EXAMPLES  # every example sent at least one request


# -- strategies --------------------------------------------------------------------

#: Text with lone surrogates mixed in, as a JSON body can carry them (``"\ud800"``).
TEXT = st.one_of(
    st.text(max_size=12),
    st.text(st.characters(categories=["Cs"]), min_size=1, max_size=2),
    st.sampled_from(["human", "heuristic", "search", "pass", "7H", "6NT", "JK", ""]),
)
#: Whole numbers of 300 to 1,200 digits: over any float's range (``math.isfinite`` raises).
HUGE = st.integers(300, 1200).flatmap(
    lambda digits: st.sampled_from([10**digits - 1, -(10**digits), 10**digits + 7])
)
NUMBERS = st.one_of(
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, 2, 3, 6, 7, 10**8, 2**53, 2**53 + 1, -1, 10**308, 10**309]),
    st.floats(allow_nan=True, allow_infinity=True),
    HUGE,
)
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, TEXT)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(TEXT, inner, max_size=5),
    max_leaves=12,
)
OPTIONS = sorted(field.name for field in attrs.fields(fh.Rules))


@st.composite
def table_bodies(draw: st.DrawFn) -> dict[str, Any]:
    """Bodies of ``POST /tables``: mostly the right keys, any values."""
    body: dict[str, Any] = {}
    if draw(st.booleans()):
        names = st.sampled_from(OPTIONS) | TEXT
        # every rule option with a number of any size, or any value
        numeric = st.dictionaries(st.sampled_from(["players", *OPTIONS]), NUMBERS, max_size=4)
        body["rules"] = draw(numeric | st.dictionaries(names, VALUES, max_size=4) | VALUES)
    if draw(st.integers(0, 3)) == 0:
        body["names"] = draw(st.dictionaries(TEXT | st.sampled_from(["0", "1"]), NUMBERS | VALUES))
    if draw(st.booleans()):
        kinds = st.sampled_from(["human", "random", "heuristic", "x"]) | VALUES
        body["seats"] = draw(st.lists(kinds, max_size=8) | VALUES)
    if draw(st.integers(0, 4)) == 0:
        body[draw(TEXT)] = draw(VALUES)
    return body


@st.composite
def action_bodies(draw: st.DrawFn) -> dict[str, Any]:
    """Bodies of ``POST /tables/{id}/actions``."""
    body = {"action": draw(TEXT | VALUES), "version": draw(NUMBERS | VALUES)}
    if draw(st.integers(0, 4)) == 0:
        body[draw(TEXT)] = draw(VALUES)
    return body


def encode(value: object, how: int) -> bytes:
    """A JSON document as bytes: escaped, raw UTF-8 with surrogates kept, or cut short."""
    if how == 0:
        return json.dumps(value).encode()
    text = json.dumps(value, ensure_ascii=False)
    if how == 1:
        return text.encode("utf-8", "surrogatepass")  # not UTF-8 where a surrogate is
    return text.encode("utf-8", "surrogatepass")[: len(text) // 2]


def nested(depth: int, how: int) -> bytes:
    """A body nested ``depth`` deep: lists, objects, or both, around a number."""
    opening, closing = [("[", "]"), ('{"a":', "}"), ('{"rules":[', "]}")][how]
    return (opening * depth + "1" + closing * depth).encode()


RAW_BODIES = st.one_of(
    st.binary(max_size=300),
    st.sampled_from([b"", b"{", b"[]", b"null", b"{}", b'{"a":' * 50, b"1" * 5000]),
    st.builds(nested, st.integers(1, 1500), st.integers(0, 2)),
    # a number JSON holds as text only: digits beyond any float, or an exponent
    st.builds(
        lambda digits, key: f'{{"{key}": {"9" * digits}}}'.encode(),
        st.integers(300, 4100),
        st.sampled_from(["version", "rules", "seats", "x"]),
    ),
    st.sampled_from([b'{"version": 1e400}', b'{"rules": {"target": -1e999}}']),
)
SEGMENTS = st.one_of(
    st.sampled_from(["tables", "admin", "actions", "close", "static", "metrics", "healthz"]),
    st.sampled_from(["readyz", "..", ".", "", "%ED%A0%80", "%00", "%FF", "a" * 300, "index.html"]),
    st.text(max_size=10).map(lambda t: urllib.parse.quote(t, safe="")),
    st.binary(max_size=6).map(lambda b: urllib.parse.quote_from_bytes(b, safe="")),
)
PATHS = st.lists(SEGMENTS, min_size=0, max_size=5).map(lambda parts: "/" + "/".join(parts))
METHODS = st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"])
#: Header names and values the test client can send (it sets the body's own headers).
NAMES = st.one_of(
    st.sampled_from(["authorization", "content-type", "accept", "x-forwarded-for", "cookie"]),
    st.text("abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=30),
)
HEADER_VALUES = st.one_of(
    st.sampled_from(["Bearer", "Bearer x", "application/json", "text/plain", "\x00", ""]),
    st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=300).map(str.strip),
    st.integers(0, 12_000).map(lambda n: "v" * n),
)


# -- in process ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str, str]]:
    """The application, with one table: the client, the table's id and its person's token."""
    db = tmp_path_factory.mktemp("fuzz") / "tables.db"
    settings_ = Settings(create_rate=0, operator_key=KEY)
    with TestClient(
        create_app(db, seed="fuzz", settings=settings_), raise_server_exceptions=False
    ) as client:
        answer = client.post("/tables", json={"seats": ["human", "random", "random", "random"]})
        created = answer.json()
        yield client, created["table"], created["tokens"]["0"]


def responsive(client: TestClient) -> None:
    assert client.get("/healthz").status_code == 200
    assert client.get("/metrics").text.count("fivehundred_errors_total 0.0") == 1


def test_fuzzed_bodies_never_answer_500(app: tuple[TestClient, str, str]) -> None:
    client, table, token = app
    stats = Stats("bodies")
    auth = {"authorization": f"Bearer {token}"}

    @FUZZ
    @given(
        create=table_bodies() | VALUES,
        act=action_bodies() | VALUES,
        how=st.integers(0, 2),
        raw=RAW_BODIES,
        version=NUMBERS | VALUES,
        seat=NUMBERS,
        media=st.sampled_from(["application/json", "text/plain", "", "application/json; x=1"]),
    )
    def run(  # noqa: PLR0917 - hypothesis hands each strategy's value by position
        create: object, act: object, how: int, raw: bytes, version: object, seat: object, media: str
    ) -> None:
        sent = {"content-type": "application/json"}
        for path, body, headers in (
            ("/tables", encode(create, how), sent),
            (f"/tables/{table}/actions", encode(act, how), {**auth, **sent}),
            (f"/tables/{table}/claim", encode({"version": version}, how), {**auth, **sent}),
            (f"/tables/{table}/seats/{seat}", encode({"player": "random"}, how), {**auth, **sent}),
            ("/tables", raw, {"content-type": media} if media else {}),
            (f"/tables/{table}/actions", raw, {**auth, **sent}),
            (f"/tables/{table}/next", raw, {**auth, **sent}),
        ):

            def send(
                path: str = path, body: bytes = body, headers: dict[str, str] = headers
            ) -> int:
                return client.post(path, content=body, headers=headers).status_code

            assert stats.timed(repr(body), send) != 500, (path, body)

    run()
    responsive(client)
    stats.report()


def test_fuzzed_numbers_in_paths_and_queries_never_answer_500(
    app: tuple[TestClient, str, str],
) -> None:
    client, table, token = app
    stats = Stats("numbers in paths")
    auth = {"authorization": f"Bearer {token}", "content-type": "application/json"}
    admin = {"authorization": f"Bearer {KEY}"}

    @FUZZ
    @given(
        number=NUMBERS.map(str) | st.text(max_size=12).map(lambda t: urllib.parse.quote(t, safe=""))
    )
    def run(number: str) -> None:
        for method, path, headers in (
            ("GET", f"/tables/{table}/review/{number}", auth),
            ("POST", f"/tables/{table}/seats/{number}", auth),
            ("GET", f"/admin/tables?limit={number}", admin),
            ("GET", f"/admin/tables?after={number}", admin),
        ):
            body = b'{"player": "random"}' if method == "POST" else None

            def send(
                method: str = method,
                path: str = path,
                headers: dict[str, str] = headers,
                body: bytes | None = body,
            ) -> int:
                return client.request(method, path, headers=headers, content=body).status_code

            status = stats.timed(path, send)
            assert status != 500, (method, path)

    run()
    responsive(client)
    stats.report()


#: A live table's client messages: mostly of the right types, any values and numbers.
MESSAGE_TYPES = st.sampled_from(["action", "claim", "next", "hello", "view", ""]) | TEXT


@st.composite
def live_messages(draw: st.DrawFn) -> str:
    """A message a live table's client could send, as its text."""
    choice = draw(st.integers(0, 5))
    if choice == 0:  # not JSON, too long, nested deep, or a number JSON holds as text only
        raw = st.one_of(
            st.text(max_size=50),
            st.builds(lambda n: "x" * n, st.integers(4000, 5000)),
            st.builds(lambda d, h: nested(d, h).decode(), st.integers(1, 1500), st.integers(0, 2)),
            st.builds(
                lambda n: f'{{"type": "action", "version": {"9" * n}}}', st.integers(300, 4000)
            ),
        )
        return draw(raw)
    message: dict[str, Any] = {"type": draw(MESSAGE_TYPES)}
    for key, values in (("ref", NUMBERS | VALUES), ("action", TEXT | VALUES), ("version", NUMBERS)):
        if draw(st.integers(0, 3)):
            message[key] = draw(values)
    if draw(st.integers(0, 5)) == 0:
        message[draw(TEXT)] = draw(VALUES)
    return json.dumps(message, ensure_ascii=draw(st.booleans()))


def test_fuzzed_live_messages_are_answered_and_never_crash(
    app: tuple[TestClient, str, str],
) -> None:
    """Each message on a live table's socket is answered ``ack`` or ``refused`` (views may
    come between), and a first message that is no hello is refused and closed."""
    client, table, token = app
    stats = Stats("live messages")
    path = f"/tables/{table}/live"

    def answer(ws: Any) -> int:
        while True:
            reply = json.loads(ws.receive_text())
            if reply["type"] in {"ack", "refused"}:
                return 200 if reply["type"] == "ack" else 400
            assert reply["type"] == "view", reply

    @FUZZ
    @given(text=live_messages(), first=st.integers(0, 9))
    def run(text: str, first: int) -> None:
        with client.websocket_connect(path) as ws:
            if first == 0:  # in the hello's place: refused, then the socket is closed
                ws.send_text(text)
                reply = json.loads(ws.receive_text())
                assert reply["type"] in {"refused", "view"}, reply
                stats.statuses[400 if reply["type"] == "refused" else 200] += 1
                return
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            assert json.loads(ws.receive_text())["type"] == "view"
            ws.send_text(text)
            stats.timed(text, lambda: answer(ws))
            ws.send_text('{"type": "nothing"}')  # and the socket still answers
            assert answer(ws) == 400

    run()
    responsive(client)
    stats.report()


def test_fuzzed_headers_and_paths_never_answer_500(app: tuple[TestClient, str, str]) -> None:
    client, table, token = app
    stats = Stats("headers and paths")

    @FUZZ
    @given(
        method=METHODS,
        path=PATHS | st.sampled_from([f"/tables/{table}", f"/tables/{table}/actions"]),
        headers=st.lists(st.tuples(NAMES, HEADER_VALUES), max_size=8),
        with_token=st.booleans(),
    )
    def run(method: str, path: str, headers: list[tuple[str, str]], with_token: bool) -> None:
        sent = [(name.encode(), value.encode("latin-1")) for name, value in headers]
        if with_token:
            sent.append((b"authorization", f"Bearer {token}".encode()))
        status = stats.timed(
            f"{method} {path}",
            # an absolute URL: the client refuses a relative one that starts with //
            lambda: (
                client.request(
                    method, f"http://testserver{path}", headers=sent, content=b"{}"
                ).status_code
            ),
        )
        assert status != 500, (method, path, sent)

    run()
    responsive(client)
    stats.report()


# -- against a real fivehundred serve: whole request heads ------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    """A real ``fivehundred serve`` on a free loopback port: its port and its log file."""
    port = free_port()
    folder = tmp_path_factory.mktemp("heads")
    with (folder / "log").open("w", encoding="utf-8") as log:
        process = start_server(
            folder / "tables.db", port, "--create-rate", "0", "--log-level", "info", stderr=log
        )
        try:
            yield port, folder / "log"
        finally:
            process.terminate()
            try:
                process.communicate(timeout=10)
            except subprocess.TimeoutExpired:  # pragma: no cover - a stuck server
                process.kill()
                process.communicate(timeout=10)


def exchange(port: int, pieces: list[bytes]) -> int:
    """Send a head in pieces on a new connection; the answer's status (0: closed unanswered).

    A head the server cannot know is complete (no blank line at its end) is
    followed by the end of the client's output, so the server does not wait
    for more; a server that waits anyway is given one second before that.
    """
    data = b"".join(pieces)
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as sock:
        try:
            for piece in pieces:
                sock.sendall(piece)
            if not data.endswith((b"\r\n\r\n", b"\n\n")):
                sock.shutdown(socket.SHUT_WR)
        except OSError:  # refused and closed before the last piece: read the answer
            pass
        sock.settimeout(1.0)
        answer = b""
        while b"\r\n" not in answer:
            try:
                chunk = sock.recv(4096)
            except TimeoutError:  # waiting for more of a request: there is no more
                if sock.gettimeout() == TIMEOUT:
                    raise  # the server answers nothing, even at the end of the input
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_WR)
                sock.settimeout(TIMEOUT)
                continue
            except OSError:  # closed after its answer, with bytes unread
                break
            if not chunk:
                break
            answer += chunk
    line = answer.split(b"\r\n", 1)[0].split()
    return int(line[1]) if len(line) >= 2 and line[1].isdigit() else 0


TOKEN_CHARS: Final = "abcdefghijklmnopqrstuvwxyz0123456789-"


@st.composite
def heads(draw: st.DrawFn) -> tuple[bytes, bool]:
    """A request head (with no body), and whether it is well formed."""
    well_formed = draw(st.integers(0, 3)) > 0
    if well_formed:
        method = draw(st.sampled_from([b"GET", b"POST", b"DELETE", b"OPTIONS"]))
        target = draw(PATHS).encode("ascii", "replace")
        names = st.text(TOKEN_CHARS, min_size=1, max_size=40).filter(
            lambda n: n not in {"content-length", "transfer-encoding", "host", "connection"}
        )
        values = st.one_of(
            st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=60).map(
                str.encode
            ),
            st.integers(0, 40_000).map(lambda n: b"v" * n),
        ).map(bytes.strip)
        headers = draw(st.lists(st.tuples(names.map(str.encode), values), max_size=12))
        lines = [b"host: 127.0.0.1"] + [name + b": " + value for name, value in headers]
        head = method + b" " + target + b" HTTP/1.1\r\n" + b"\r\n".join(lines) + b"\r\n\r\n"
    else:
        start = draw(st.sampled_from([b"", b"GET / HTTP/1.1\r\n", b"POST /tables HTTP/1.1\r\n"]))
        junk = draw(st.binary(max_size=2000) | st.integers(0, 40_000).map(lambda n: b"\x00" * n))
        head = start + junk + draw(st.sampled_from([b"\r\n\r\n", b"\n\n", b""]))
    return head, well_formed


def test_fuzzed_request_heads_never_answer_500(server: tuple[int, Path]) -> None:
    port, _ = server
    stats = Stats("request heads (real server)")

    @FUZZ
    @given(head=heads(), cuts=st.lists(st.integers(1, 70_000), max_size=3))
    def run(head: tuple[bytes, bool], cuts: list[int]) -> None:
        data, well_formed = head
        ends = sorted({cut % max(len(data), 1) for cut in cuts} | {0, len(data)})
        pieces = [data[a:b] for a, b in itertools.pairwise(ends)] or [data]
        status = stats.timed(repr(data[:60]), lambda: exchange(port, pieces))
        assert status != 500, data[:200]
        if well_formed and len(data) > MAX_HEADER_BYTES:
            assert status == 431, (status, len(data))
        elif well_formed and data.endswith(b"\r\n\r\n"):
            assert 200 <= status < 500 and status != 431, (status, len(data))

    run()
    client = Client(port, timeout=TIMEOUT)  # a new client is answered at once: responsive
    status, body, _ = client.request("GET", "/healthz")
    client.close()
    assert (status, body) == (200, {"status": "ok"})
    stats.report()


def test_the_real_server_logs_every_request_and_no_crash(server: tuple[int, Path]) -> None:
    """Every line of the server's log is JSON; none is an error, and nothing failed."""
    port, log = server
    assert exchange(port, [b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n"]) == 200
    deadline = time.monotonic() + TIMEOUT
    while '"/healthz"' not in log.read_text(encoding="utf-8"):  # written as it is answered
        assert time.monotonic() < deadline, "the request was not logged"
        time.sleep(0.05)
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert any(line["event"] == "request" for line in lines)
    assert not [line for line in lines if line["level"] in {"error", "critical"}]
    assert not [line for line in lines if line.get("status") == 500]
