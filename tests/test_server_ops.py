"""The game server's operator's surface in process: input checks, the operator key, rate
limits, admin routes, health, metrics, JSON logs, expiry and archiving (issue 29)."""

from __future__ import annotations

import argparse
import json
import logging
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("httpx2", reason="httpx2 (Starlette's test client) is not installed")
pytest.importorskip("prometheus_client", reason="the server extra is not installed")

from starlette.applications import Starlette
from starlette.testclient import TestClient

from fivehundred.cli import main
from fivehundred.server import Tables, create_app
from fivehundred.server._guard import MAX_NUMBER, check_json, create_request
from fivehundred.server._logs import LOGGER, JsonFormatter
from fivehundred.server._ops import Buckets
from fivehundred.server.settings import Settings, add_arguments, from_arguments, read_key
from fivehundred.server.tables import HUMAN, Refused, Table

JSON = dict[str, Any]
KEY = "k" * 24
SEATS = [HUMAN, "random", "random", "random"]


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def make(tmp_path: Path, **settings: Any) -> TestClient:
    settings.setdefault("create_rate", 0)
    app = create_app(tmp_path / "tables.db", seed="ops", settings=Settings(**settings))
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make(tmp_path, operator_key=KEY) as test_client:
        yield test_client


def create(client: TestClient, **headers: str) -> JSON:
    answer = client.post("/tables", json={"seats": SEATS}, headers=headers)
    assert answer.status_code == 201, answer.json()
    created: JSON = answer.json()
    return created


def metric(client: TestClient, line: str) -> float:
    """The value of one series of ``GET /metrics`` (0 when absent)."""
    text = client.get("/metrics").text
    for row in text.splitlines():
        if row.startswith(line + " "):
            return float(row.rsplit(" ", 1)[1])
    return 0.0


# -- every input checked by type and range, before anything is allocated --------


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ('{"rules": {"players": 1e20}}', 400, "BAD_NUMBER"),
        ('{"rules": {"players": 100000000}}', 422, "BAD_RULES"),
        ('{"rules": {"players": 7}}', 422, "BAD_RULES"),
        ('{"rules": {"players": true}}', 422, "BAD_RULES"),
        ('{"rules": {"players": NaN}}', 400, "BAD_NUMBER"),
        ('{"rules": {"target": Infinity}}', 400, "BAD_NUMBER"),
        ('{"rules": {"target": -1e400}}', 400, "BAD_NUMBER"),
        ('{"rules": {"target": 123456789012345678901234567890}}', 400, "BAD_NUMBER"),
        ('{"\\ud800": 1}', 400, "BAD_TEXT"),
        ('{"rules": {"\\udfff": 1}}', 400, "BAD_TEXT"),
        ('{"rules": {"target": "\\ud800"}}', 400, "BAD_TEXT"),
        ('{"seats": ["human", "\\udc80"]}', 400, "BAD_TEXT"),
        ('{"seats": ["human"], "rules": []}', 422, "BAD_RULES"),
        ('{"seats": "human"}', 422, "BAD_SEATS"),
        (
            '{"seats": ["human", "random", "random", "random", "random", "random", "x"]}',
            422,
            "BAD_SEATS",
        ),
        ('{"seats": null, "rules": {"players": 3}, "tables": 1}', 400, "BAD_REQUEST"),
    ],
)
def test_a_table_request_is_checked_by_type_and_range_first(
    client: TestClient, body: str, status: int, code: str
) -> None:
    answer = client.post(
        "/tables", content=body.encode(), headers={"content-type": "application/json"}
    )
    assert (answer.status_code, answer.json()["error"]) == (status, code), answer.json()
    message = answer.json()["message"]
    assert len(message) > 20 and message.encode("utf-8")  # a sentence, valid Unicode
    assert metric(client, "fivehundred_tables_created_total") == 0


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ('{"action": "\\ud800", "version": 0}', "BAD_TEXT"),
        ('{"\\ud800": "pass", "version": 0}', "BAD_TEXT"),
        ('{"action": "pass", "version": 1e300}', "BAD_NUMBER"),
        ('{"action": "pass", "version": 100000000000000000000000}', "BAD_NUMBER"),
        ('{"action": "pass", "version": -Infinity}', "BAD_NUMBER"),
    ],
)
def test_an_action_is_checked_by_type_and_range_first(
    client: TestClient, body: str, code: str
) -> None:
    table = create(client)
    answer = client.post(
        f"/tables/{table['table']}/actions",
        content=body.encode(),
        headers={**bearer(table["tokens"]["0"]), "content-type": "application/json"},
    )
    assert (answer.status_code, answer.json()["error"]) == (400, code)


@pytest.mark.parametrize("path", ["/tables/%ED%A0%80", "/tables/%FF%FE", "/tables/" + "a" * 65])
def test_a_table_id_no_table_can_have_is_404(client: TestClient, path: str) -> None:
    answer = client.get(path, headers=bearer("x"))
    assert (answer.status_code, answer.json()["error"]) == (404, "NO_SUCH_TABLE")


def test_the_checks_take_the_table_size_before_any_seat() -> None:
    assert create_request({"rules": {"players": 6}})[1] == [HUMAN] + ["heuristic"] * 5
    with pytest.raises(Refused, match="from 2 to 6"):
        create_request({"rules": {"players": 10**8}})
    check_json({"a": [MAX_NUMBER, -MAX_NUMBER, 1.5, None, True, "é"]})
    with pytest.raises(Refused, match="2\\*\\*53"):
        check_json([[MAX_NUMBER + 1]])


def test_a_complete_head_over_the_limit_is_431_in_the_app(client: TestClient) -> None:
    answer = client.get("/healthz", headers={"x-filler": "a" * 9000})
    assert (answer.status_code, answer.json()["error"]) == (431, "HEADERS_TOO_LARGE")
    assert client.get("/healthz", headers={"x-filler": "a" * 7000}).status_code == 200


# -- who may create tables: the operator key and the rate limits -------------------


def test_creating_tables_is_rate_limited_per_client(tmp_path: Path) -> None:
    with make(tmp_path, create_rate=2, operator_key=KEY) as client:
        create(client)
        create(client)
        refused = client.post("/tables", json={"seats": SEATS})
        assert (refused.status_code, refused.json()["error"]) == (429, "RATE_LIMITED")
        assert int(refused.headers["retry-after"]) >= 1
        create(client, **bearer(KEY))  # the operator is not limited
        assert metric(client, 'fivehundred_refusals_total{code="RATE_LIMITED"}') == 1


def test_creating_tables_can_need_the_operator_key(tmp_path: Path) -> None:
    with make(tmp_path, create_needs_key=True, operator_key=KEY) as client:
        refused = client.post("/tables", json={"seats": SEATS}, headers=bearer("x" * 24))
        assert (refused.status_code, refused.json()["error"]) == (401, "KEY_REQUIRED")
        create(client, **bearer(KEY))


def test_requests_are_rate_limited_per_client(tmp_path: Path) -> None:
    with make(tmp_path, request_rate=1) as client:
        answers = [client.get("/healthz").status_code for _ in range(4)]
    assert answers[:2] == [200, 200]  # a burst of twice the rate
    assert 429 in answers[2:]


def test_requests_with_the_operator_key_are_never_rate_limited(tmp_path: Path) -> None:
    """docs/howto/operate-the-server.md: a request with the key is never rate limited, the
    request rate included; the same address without the key still is."""
    with make(tmp_path, request_rate=1, operator_key=KEY) as client:
        keyed = [client.get("/admin/tables", headers=bearer(KEY)).status_code for _ in range(8)]
        keyed.append(client.post("/tables", json={"seats": SEATS}, headers=bearer(KEY)).status_code)
        plain = [client.get("/healthz").status_code for _ in range(4)]
    assert keyed == [200] * 8 + [201]
    assert 429 in plain


def test_a_token_bucket_refills_at_its_rate_and_forgets_old_clients() -> None:
    buckets = Buckets(rate=2.0, burst=1.0, max_clients=2)
    assert buckets.take("a", now=0.0) == 0.0
    assert buckets.take("a", now=0.0) == pytest.approx(0.5)
    assert buckets.take("a", now=0.5) == 0.0
    buckets.take("b", now=0.5)
    buckets.take("c", now=0.5)  # "a" is forgotten: a full bucket again
    assert buckets.take("a", now=0.5) == 0.0


# -- admin routes, health, metrics -------------------------------------------------


def test_the_admin_routes_need_the_key_and_list_and_close_tables(client: TestClient) -> None:
    table = create(client)
    assert client.get("/admin/tables").status_code == 401
    assert client.get("/admin/tables", headers=bearer("y" * 24)).status_code == 401
    listing = client.get("/admin/tables", headers=bearer(KEY)).json()["tables"]
    assert [(t["table"], t["seats"], t["finished"]) for t in listing] == [
        (table["table"], SEATS, False)
    ]
    closed = client.post(f"/admin/tables/{table['table']}/close", headers=bearer(KEY))
    assert closed.json() == {"table": table["table"], "closed": True}
    again = client.get(f"/tables/{table['table']}", headers=bearer(table["tokens"]["0"]))
    assert (again.status_code, again.json()["error"]) == (410, "TABLE_CLOSED")
    twice = client.post(f"/admin/tables/{table['table']}/close", headers=bearer(KEY))
    assert twice.status_code == 404
    assert client.get("/admin/tables", headers=bearer(KEY)).json()["tables"] == []
    assert metric(client, 'fivehundred_tables_closed_total{reason="operator"}') == 1


def test_without_an_operator_key_the_admin_routes_are_off(tmp_path: Path) -> None:
    with make(tmp_path) as client:
        answer = client.get("/admin/tables", headers=bearer(KEY))
    assert (answer.status_code, answer.json()["error"]) == (403, "ADMIN_OFF")


def test_health_and_readiness(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ready"}
    client.app.state.ops.draining = True  # type: ignore[attr-defined]  # what SIGTERM sets
    assert client.get("/readyz").status_code == 503


def test_readiness_fails_when_the_database_does(client: TestClient, log_lines: list[str]) -> None:
    client.app.state.tables.close()  # type: ignore[attr-defined]  # a database gone away
    answer = client.get("/readyz")
    assert (answer.status_code, answer.json()["status"]) == (503, "database unavailable")
    # an outage is one warning line, not a crash's traceback
    (line,) = (json.loads(line) for line in log_lines if "not ready" in line)
    assert line["level"] == "warning" and "Traceback" not in json.dumps(line)


def test_psycopgs_own_warnings_are_json_lines_too() -> None:
    from fivehundred.server._logs import QuietPipelines, log_config

    config = log_config("info")
    loggers = config["loggers"]
    assert loggers["psycopg"]["handlers"] == loggers[LOGGER]["handlers"] == ["stderr"]
    # but not the aborted pipeline that follows every race lost to another process
    (name,) = loggers["psycopg"]["filters"]
    quiet = config["filters"][name]["()"]
    assert quiet.endswith("QuietPipelines")

    def record(message: str, *args: object) -> logging.LogRecord:
        return logging.LogRecord("psycopg", logging.WARNING, "p.py", 1, message, args, None)

    drops = QuietPipelines()
    aborted = record("error ignored terminating %r: %s", "<psycopg.Pipeline>", "pipeline aborted")
    assert not drops.filter(aborted)
    assert drops.filter(record("error connecting in %r: %s", "fivehundred", "refused"))


def test_the_metrics_count_requests_moves_refusals_and_tables(client: TestClient) -> None:
    table = create(client)
    token, tid = table["tokens"]["0"], table["table"]
    view = client.get(f"/tables/{tid}", headers=bearer(token)).json()
    move = client.post(
        f"/tables/{tid}/actions",
        json={"action": view["legal_actions"][0], "version": view["version"]},
        headers=bearer(token),
    )
    assert move.status_code == 200
    stale = client.post(
        f"/tables/{tid}/actions", json={"action": "pass", "version": 0}, headers=bearer(token)
    )
    assert stale.json()["error"] == "STALE_VERSION"
    assert metric(client, 'fivehundred_moves_total{by="person"}') == 1
    computer = metric(client, 'fivehundred_moves_total{by="computer"}')
    assert computer == move.json()["version"] - 1  # every other accepted action
    assert metric(client, 'fivehundred_refusals_total{code="STALE_VERSION"}') == 1
    assert metric(client, "fivehundred_open_tables") == 1
    assert metric(client, "fivehundred_tables_created_total") == 1
    series = (
        'fivehundred_requests_total{method="POST",route="/tables/{table_id}/actions",status="200"}'
    )
    assert metric(client, series) == 1
    assert metric(client, 'fivehundred_request_duration_seconds_count{route="/tables"}') == 1
    assert metric(client, "fivehundred_errors_total") == 0


class Lines(logging.Handler):
    """The server's log, as the JSON lines ``fivehundred serve`` writes."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JsonFormatter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def log_lines() -> Iterator[list[str]]:
    logger = logging.getLogger(LOGGER)
    handler, level = Lines(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield handler.lines
    logger.removeHandler(handler)
    logger.setLevel(level)


def test_a_crash_is_500_counted_and_logged(
    client: TestClient, log_lines: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> int:
        raise RuntimeError("a bug")

    table = create(client)
    monkeypatch.setattr(Table, "act", broken)  # the rules step of every move
    answer = client.post(
        f"/tables/{table['table']}/actions",
        json={"action": "pass", "version": table["version"]},
        headers=bearer(table["tokens"]["0"]),
    )
    assert (answer.status_code, answer.json()["error"]) == (500, "INTERNAL_ERROR")
    assert metric(client, "fivehundred_errors_total") == 1
    crash = [json.loads(line) for line in log_lines if '"crash"' in line]
    assert len(crash) == 1 and "RuntimeError: a bug" in crash[0]["error"]


def test_the_log_is_json_lines_without_any_token(client: TestClient, log_lines: list[str]) -> None:
    table = create(client, **bearer(KEY))
    token, tid = table["tokens"]["0"], table["table"]
    client.get(f"/tables/{tid}", headers=bearer(token))
    client.get(f"/tables/{tid}?token={token}", headers=bearer(token))
    client.get("/admin/tables", headers=bearer(KEY))
    requests = [json.loads(line) for line in log_lines if '"request"' in line]
    assert [r["status"] for r in requests] == [201, 200, 200, 200]
    assert {r["route"] for r in requests} >= {"/tables", "/tables/{table_id}", "/admin/tables"}
    assert all(token not in line and KEY not in line for line in log_lines)


# -- expiry and archiving ----------------------------------------------------------


def legal(table: Any) -> str:
    """The first legal action of seat 0 (a person's seat), in notation."""
    import fivehundred as fh

    return fh.format_action(fh.observe(table.state, 0).legal_actions[0])


def finish(tables: Tables, table: Any) -> None:
    """Play the person's seat (its first legal action) until the game is over."""
    import fivehundred as fh

    for _ in range(5000):
        if table.state.result is not None:
            return
        action = fh.observe(table.state, 0).legal_actions[0]
        tables.act(table, 0, fh.format_action(action), table.version)
    raise AssertionError("the game did not end in 5,000 moves")


def test_idle_and_finished_tables_are_archived_then_purged(tmp_path: Path) -> None:
    tables = Tables(tmp_path / "t.db", seed="expiry")
    idle, _ = tables.create({}, SEATS)
    over, _ = tables.create({"target": 50}, SEATS)
    finish(tables, over)
    now = time.monotonic()
    assert tables.sweep(idle=3600, finished=600, now=now) == {"idle": 0, "finished": 0}
    assert tables.sweep(idle=3600, finished=600, now=now + 601) == {"idle": 0, "finished": 1}
    assert tables.sweep(idle=0, finished=0, now=now + 10**6) == {"idle": 0, "finished": 0}
    assert tables.sweep(idle=3600, finished=600, now=now + 3601) == {"idle": 1, "finished": 0}
    assert tables.open_count() == 0 and tables.loaded() == 0
    for table in (idle, over):
        with pytest.raises(Refused) as closed:
            tables.get(table.id)
        assert closed.value.code == "TABLE_CLOSED"
    assert tables.purge(older=60) == 0  # archived a moment ago: kept
    assert tables.purge(older=60, now=time.time() + 61) == 2
    with pytest.raises(Refused) as gone:
        tables.get(idle.id)
    assert gone.value.code == "NO_SUCH_TABLE"


def test_a_table_not_loaded_since_the_start_counts_idle_from_the_start(tmp_path: Path) -> None:
    first = Tables(tmp_path / "t.db", seed="restart")
    table, _ = first.create({}, SEATS)
    first.close()
    again = Tables(tmp_path / "t.db", seed="restart")
    assert again.listing()[0]["loaded"] is False
    assert again.sweep(idle=10, finished=10, now=again.started + 9)["idle"] == 0
    assert again.sweep(idle=10, finished=10, now=again.started + 10)["idle"] == 1
    assert not again.retire(table.id, "operator")  # closed already


def test_a_move_on_a_table_closed_meanwhile_is_refused() -> None:
    tables = Tables(":memory:", seed="race")
    table, _ = tables.create({}, SEATS)  # a request holds the table, then it is closed
    before = table.version
    assert tables.retire(table.id, "operator")
    with pytest.raises(Refused) as closed:
        tables.act(table, 0, legal(table), before)
    assert closed.value.code == "TABLE_CLOSED"
    assert table.version == before  # nothing applied, nothing stored


def test_a_table_moved_after_the_sweep_read_its_clock_stays_open() -> None:
    tables = Tables(":memory:", seed="race")
    table, _ = tables.create({}, SEATS)
    seen = table.touched
    tables.act(table, 0, legal(table), table.version)  # a move between the read and the close
    assert not tables.retire(table.id, "idle", idle_since=seen)
    assert tables.open_count() == 1 and tables.get(table.id) is table


def test_the_cap_counts_open_tables_only(tmp_path: Path) -> None:
    tables = Tables(":memory:", seed="cap", max_tables=1)
    table, _ = tables.create({}, SEATS)
    with pytest.raises(Refused) as full:
        tables.create({}, SEATS)
    assert full.value.code == "TOO_MANY_TABLES"
    tables.retire(table.id, "operator")
    tables.create({}, SEATS)


def test_the_sweep_runs_while_the_app_serves(tmp_path: Path) -> None:
    with make(tmp_path, idle_expiry=0.05, sweep_every=0.05, operator_key=KEY) as client:
        table = create(client)
        deadline = time.monotonic() + 10
        while client.get("/admin/tables", headers=bearer(KEY)).json()["tables"]:
            assert time.monotonic() < deadline, "the table was not archived within 10 s"
            time.sleep(0.05)
        answer = client.get(f"/tables/{table['table']}", headers=bearer(table["tokens"]["0"]))
        assert answer.status_code == 410
        assert metric(client, 'fivehundred_tables_closed_total{reason="idle"}') == 1


# -- the settings: options, variables, checks --------------------------------------


def parse(argv: list[str], environ: dict[str, str] | None = None) -> Settings:
    parser = argparse.ArgumentParser()
    add_arguments(parser, environ or {})
    return from_arguments(parser.parse_args(argv), environ or {})


def test_every_setting_is_an_option_and_a_variable(tmp_path: Path) -> None:
    key_file = tmp_path / "key"
    key_file.write_text(f"  {KEY}  \nignored\n", encoding="utf-8")
    settings = parse(
        [
            "--operator-key-file",
            str(key_file),
            "--create-needs-key",
            "--idle-expiry",
            "60",
            "--create-rate",
            "0",
            "--log-level",
            "warning",
        ]
    )
    assert settings == Settings(
        operator_key=KEY,
        create_needs_key=True,
        idle_expiry=60,
        create_rate=0,
        log_level="warning",
    )
    env = {
        "FIVEHUNDRED_OPERATOR_KEY": KEY,
        "FIVEHUNDRED_REQUEST_RATE": "5",
        "FIVEHUNDRED_KEEP_ARCHIVED": "0",
        "FIVEHUNDRED_CREATE_NEEDS_KEY": "1",
    }
    from_env = parse([], env)
    assert (from_env.operator_key, from_env.request_rate, from_env.keep_archived) == (KEY, 5, 0)
    assert from_env.create_needs_key
    assert parse(["--request-rate", "7"], env).request_rate == 7  # the option wins
    assert KEY not in repr(from_env)
    assert read_key(tmp_path / "key") == KEY


def test_the_key_is_the_files_first_line_and_the_file_is_text(tmp_path: Path) -> None:
    """operate-the-server.md: the key is its file's first line; a blank first line is no
    key (not the line after it), and bytes that are not UTF-8 are named, not decoded."""
    (tmp_path / "blank-first").write_text(f"\n{KEY}\n", encoding="utf-8")
    assert read_key(tmp_path / "blank-first") == ""
    (tmp_path / "spaced").write_text(f"  {KEY}  \nnot the key\n", encoding="utf-8")
    assert read_key(tmp_path / "spaced") == KEY
    (tmp_path / "binary").write_bytes(b"\xff\xfe")
    with pytest.raises(OSError, match="binary is not UTF-8 text"):
        read_key(tmp_path / "binary")


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"operator_key": "short"}, "at least 16"),
        ({"create_needs_key": True}, "needs an operator key"),
        ({"idle_expiry": -1}, "0 or more"),
        ({"create_rate": float("nan")}, "finite"),
        ({"log_level": "loud"}, "log level"),
    ],
)
def test_bad_settings_are_refused_with_a_sentence(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Settings(**settings)


def test_serve_refuses_a_bad_setting_before_starting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    short = tmp_path / "key"
    short.write_text("short\n", encoding="utf-8")
    code = main(["serve", "--db", str(tmp_path / "t.db"), "--operator-key-file", str(short)])
    assert code != 0
    assert "at least 16 characters" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["serve", "--idle-expiry", "-5"])
    assert "is not a number of 0 or more" in capsys.readouterr().err


def test_the_server_stops_on_its_signal_without_raising_it_again(tmp_path: Path) -> None:
    """SIGTERM sets the server to stop and the app to draining; uvicorn would raise the
    signal again once stopped (exit -15), this server does not (exit 0)."""
    from fivehundred.server.serve import Server, config

    served = config(tmp_path / "t.db", port=0)
    server = Server(served)
    with server.capture_signals():
        signal.raise_signal(signal.SIGTERM)  # handled: this process goes on
    assert server.should_exit
    assert isinstance(served.app, Starlette) and served.app.state.ops.draining
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # the old handler is back


def test_a_bad_variable_stops_serve_and_no_other_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FIVEHUNDRED_IDLE_EXPIRY", "soon")
    assert main(["rules"]) == 0
    with pytest.raises(SystemExit):
        main(["serve", "--port", "1"])
    assert "--idle-expiry: 'soon' is not a number of 0 or more" in capsys.readouterr().err


def test_an_unreadable_key_file_is_named_by_its_option(tmp_path: Path) -> None:
    missing = tmp_path / "no-key"
    with pytest.raises(OSError, match=f"--operator-key-file {missing}: No such file"):
        parse(["--operator-key-file", str(missing)])
