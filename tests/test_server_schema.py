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
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")

from starlette.testclient import TestClient

from fivehundred.server import create_app
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


def test_serve_refuses_a_newer_schema_in_one_sentence(tmp_path: Path) -> None:
    from subprocesses import run_python

    db = tmp_path / "newer.db"
    open_store(db).close()
    with sqlite3.connect(db) as con:
        con.execute("UPDATE schema_version SET version = 99")
    con.close()
    result = run_python(["-m", "fivehundred", "serve", "--db", str(db), "--port", "1"], timeout=60)
    assert result.returncode == 2
    assert "the database's schema is version 99, newer than this fivehundred's" in result.stderr
    assert "Traceback" not in result.stderr


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
