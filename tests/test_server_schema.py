"""The server's database holds its schema version, and a database of every earlier release
is migrated on start-up (issue 34).

Each fixture in ``tests/fixtures/schemas`` is a SQLite dump made by a release of
the server as it shipped (its code taken from git history, two tables created
and played through its own HTTP routes), with each table's seat-0 token and
version then. The releases' schemas, oldest first: the first (``game``,
``token``, ``deal``, ``action``); seat names added (``name``); archived games
added (``closed``, on a branch without ``name``); and the last release without
a version (all six, and ``game.created`` on PostgreSQL).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")

from starlette.testclient import TestClient

from fivehundred.server import create_app
from fivehundred.server._schema import NotOurs
from fivehundred.server.settings import Settings
from fivehundred.server.store import SCHEMA_VERSION, SchemaTooNew, open_store

SCHEMAS = Path(__file__).parent / "fixtures" / "schemas"
RELEASES = sorted(path.stem for path in SCHEMAS.glob("*.json"))


def release(name: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((SCHEMAS / f"{name}.json").read_text(encoding="utf-8"))
    return found


def sqlite_of(tmp_path: Path, name: str) -> Path:
    db = tmp_path / f"{name}.db"
    with sqlite3.connect(db) as con:
        con.executescript(release(name)["sql"])
    con.close()
    return db


def test_every_release_is_here() -> None:
    assert RELEASES == ["1-first-release", "2-seat-names", "3-archived-games", "4-last-release"]


def plays_on(db: str | Path, tables: dict[str, Any]) -> None:
    """Every table of the release is served at its version, and takes its next move."""
    app = create_app(db, settings=Settings(create_rate=0))
    with TestClient(app) as client:
        for table_id, was in tables.items():
            auth = {"authorization": f"Bearer {was['token']}"}
            view = client.get(f"/tables/{table_id}", headers=auth).json()
            assert (view["version"], view["legal_actions"]) == (was["version"], was["legal"])
            move = {"action": view["legal_actions"][0], "version": view["version"]}
            answer = client.post(f"/tables/{table_id}/actions", json=move, headers=auth)
            assert answer.status_code == 200, answer.json()
            assert answer.json()["version"] > was["version"]
        created = client.post("/tables", json={"seats": ["human", "random", "random", "random"]})
        assert created.status_code == 201
    app.state.tables.close()  # and its connections, before the cluster stops


@pytest.mark.parametrize("name", RELEASES)
def test_a_sqlite_database_of_each_release_is_migrated(tmp_path: Path, name: str) -> None:
    db = sqlite_of(tmp_path, name)
    plays_on(db, release(name)["tables"])
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
        names = {row[0] for row in con.execute("SELECT name FROM sqlite_master")}
    con.close()
    assert {"game", "token", "name", "deal", "action", "closed"} <= names
    open_store(db).close()  # a second start finds the current version: nothing to do


def test_a_new_database_starts_at_the_current_version(tmp_path: Path) -> None:
    open_store(tmp_path / "new.db").close()
    with sqlite3.connect(tmp_path / "new.db") as con:
        assert con.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    con.close()


def test_a_newer_schema_is_refused_with_the_command_to_run(tmp_path: Path) -> None:
    db = tmp_path / "newer.db"
    open_store(db).close()
    with sqlite3.connect(db) as con:
        con.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    con.close()
    with pytest.raises(SchemaTooNew, match=r'pip install --upgrade "fivehundred\[server\]"'):
        open_store(db)


def _newer(db: Path) -> None:
    open_store(db).close()
    with sqlite3.connect(db) as con:
        con.execute("UPDATE schema_version SET version = 99")
    con.close()


def _another_programs(db: Path) -> None:
    with sqlite3.connect(db) as con:
        con.executescript("CREATE TABLE game (x); CREATE TABLE foo (y);")
    con.close()


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (_newer, "the database's schema is version 99, newer than this fivehundred's"),
        (_another_programs, "a relation 'game' that is not fivehundred's"),
    ],
    ids=["newer", "another-programs"],
)
def test_serve_refuses_a_database_it_must_not_touch_in_one_sentence(
    tmp_path: Path, make: Callable[[Path], None], said: str
) -> None:
    from subprocesses import run_python

    db = tmp_path / "refused.db"
    make(db)
    result = run_python(["-m", "fivehundred", "serve", "--db", str(db), "--port", "1"], timeout=60)
    assert result.returncode == 2
    assert said in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("version", "shown"), [(-1, "-1"), ("abc", "'abc'"), (None, "no row"), (1.5, "1.5")]
)
def test_a_version_that_is_no_version_is_refused_unchanged(
    tmp_path: Path, version: object, shown: str
) -> None:
    """Not a KeyError or a TypeError from the migrations: a sentence, and the file as it was."""
    db = tmp_path / "odd.db"
    open_store(db).close()
    with sqlite3.connect(db) as con:
        if version is None:  # the relation is there, with no version in it
            con.execute("DELETE FROM schema_version")
        else:
            con.execute("UPDATE schema_version SET version = ?", (version,))
    con.close()
    before = db.read_bytes()
    with pytest.raises(NotOurs, match=f"schema_version holds {re.escape(shown)}, not one version"):
        open_store(db)
    assert db.read_bytes() == before


def test_another_programs_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    """A file with a relation of the server's name but not its columns is not a release's:
    nothing is added to it (every shipped schema is migrated, above)."""
    db = tmp_path / "other.db"
    _another_programs(db)
    with pytest.raises(NotOurs, match=r"a relation 'game' that is not fivehundred's \(it lacks"):
        open_store(db)
    with sqlite3.connect(db) as con:
        relations = {row[0] for row in con.execute("SELECT name FROM sqlite_master")}
    con.close()
    assert relations == {"game", "foo"}


def test_the_migration_is_logged_as_json_with_its_versions(tmp_path: Path) -> None:
    """The server's log is JSON from its first line: the migration on opening the database
    comes before uvicorn's own set-up, and says from which version to which."""
    from subprocesses import run_python

    db = sqlite_of(tmp_path, "4-last-release")
    code = "import sys; from fivehundred.server.serve import config; config(sys.argv[1], port=0)"
    result = run_python(["-c", code, str(db)], timeout=60)
    assert result.returncode == 0, result.stderr
    first = json.loads(result.stderr.splitlines()[0])
    assert (first["event"], first["from"], first["to"]) == (
        "migrated the database's schema",
        0,
        SCHEMA_VERSION,
    )


def test_serve_prints_the_port_it_was_given_for_port_0(tmp_path: Path) -> None:
    """``--port 0`` asks the system for a free port: the address printed is the one bound."""
    import re
    import subprocess
    import sys

    from server_helpers import Client, first_line
    from subprocesses import python_env

    command = [sys.executable, "-m", "fivehundred", "serve", "--db", str(tmp_path / "t.db")]
    process = subprocess.Popen(
        [*command, "--port", "0", "--log-level", "warning"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=python_env(),
    )
    try:
        assert process.stdout is not None
        line = first_line(process.stdout)
        found = re.search(r"serving on http://127\.0\.0\.1:(\d+)/", line)
        assert found is not None and found.group(1) != "0", line
        client = Client(int(found.group(1)))
        assert client.request("GET", "/healthz")[0] == 200
        client.close()
    finally:
        process.kill()
        process.wait(timeout=60)


def postgres_order(dump: str) -> list[str]:
    """A SQLite dump's statements in an order PostgreSQL takes: ``game`` first (the
    others' foreign keys point at it), tables before rows; the dump is plain SQL."""

    def rank(statement: str) -> int:
        create = statement.startswith("CREATE TABLE")
        own = statement.startswith(("CREATE TABLE game", 'INSERT INTO "game"'))
        return (0 if create else 2) + (0 if own else 1)

    statements = [part.strip() for part in dump.split(";\n") if part.strip()]
    kept = [part for part in statements if not part.startswith(("BEGIN", "COMMIT"))]
    return sorted(kept, key=rank)


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    pytest.importorskip("psycopg", reason="the server extra is not installed")
    from postgres import postgres_server

    with postgres_server() as server:
        yield server


@pytest.mark.parametrize("name", RELEASES)
def test_a_postgresql_database_of_each_release_is_migrated(postgres: str, name: str) -> None:
    import psycopg

    from postgres import fresh_database

    with fresh_database(postgres, f"t_schema_{name[0]}") as url:
        with psycopg.connect(url, autocommit=True) as con:
            for statement in postgres_order(release(name)["sql"]):
                con.execute(statement.encode())
            if name == "4-last-release":  # that release's PostgreSQL store added this
                con.execute("ALTER TABLE game ADD COLUMN created BIGSERIAL")
        plays_on(url, release(name)["tables"])
        with psycopg.connect(url, autocommit=True) as con:
            assert con.execute("SELECT version FROM schema_version").fetchall() == [
                (SCHEMA_VERSION,)
            ]
            created = con.execute("SELECT COUNT(created) FROM game").fetchall()
        assert created == [(len(release(name)["tables"]) + 1,)]
