"""What the ``--db`` setting names: a PostgreSQL URL or libpq connection string, or a
SQLite file; and how it is shown without its password."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final
from urllib.parse import unquote, urlsplit

from fivehundred._engine.quoting import expect
from fivehundred.errors import FiveHundredError

#: The keywords of a libpq connection string (``host=... dbname=...``), PostgreSQL 15's.
LIBPQ_KEYS: Final = frozenset(
    {
        "host",
        "hostaddr",
        "port",
        "dbname",
        "user",
        "password",
        "passfile",
        "channel_binding",
        "connect_timeout",
        "client_encoding",
        "options",
        "application_name",
        "fallback_application_name",
        "keepalives",
        "keepalives_idle",
        "keepalives_interval",
        "keepalives_count",
        "tcp_user_timeout",
        "replication",
        "gssencmode",
        "sslmode",
        "requiressl",
        "sslcompression",
        "sslcert",
        "sslkey",
        "sslpassword",
        "sslrootcert",
        "sslcrl",
        "sslcrldir",
        "sslsni",
        "requirepeer",
        "ssl_min_protocol_version",
        "ssl_max_protocol_version",
        "krbsrvname",
        "gsslib",
        "service",
        "target_session_attrs",
    }
)

#: A libpq ``key=value`` pair; the value bare, or quoted with backslash escapes.
PAIR: Final = re.compile(r"\s*([A-Za-z_]+)\s*=\s*('(?:[^'\\]|\\.)*'|[^\s']+)")


def conninfo_keys(text: str) -> list[str] | None:
    """The keys of a whole libpq ``key=value`` connection string; ``None`` if it is not one."""
    keys, at = [], 0
    while at < len(text.rstrip()):
        pair = PAIR.match(text, at)
        if pair is None:
            return None
        keys.append(pair.group(1))
        at = pair.end()
    return keys or None


def is_postgres_url(db: str | Path) -> bool:
    """Whether ``--db`` names a PostgreSQL database: a ``postgresql://`` (or ``postgres://``)
    URL, or a libpq ``key=value`` connection string (``host=db dbname=five user=ann``).

    Raises :class:`~fivehundred.FiveHundredError` for a text that looks like a
    connection string but is not one (an ``=`` in it): it is never taken as a
    SQLite file's name.
    """
    expect(db, (str, Path), "a database (a SQLite file's path or a postgresql:// URL)")
    if not isinstance(db, str):
        return False
    if db.startswith(("postgresql://", "postgres://")):
        return True
    if "=" not in db:
        return False
    keys = conninfo_keys(db)
    unknown = sorted(set(keys or ()) - LIBPQ_KEYS)
    if keys is None or unknown:
        # no value is quoted back: a mistyped key may hold a password
        found = f"keys {', '.join(unknown)} that libpq does not know" if unknown else "no key=value"
        raise FiveHundredError(
            f"--db holds an = but is no SQLite file's name nor a libpq connection string "
            f"({found}): write host=HOST dbname=NAME user=USER ..., or postgresql://USER@HOST/NAME"
        )
    return True


def masked(pair: str) -> str:
    """A query's ``key=value`` with the value hidden when the key, as libpq decodes it,
    is ``password``."""
    key, equals, _ = pair.partition("=")
    return f"{key}=***" if equals and unquote(key).strip().lower() == "password" else pair


#: A ``password`` pair of a libpq connection string, whatever its value.
PASSWORD: Final = re.compile(r"(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'?|[^\s']*)", re.IGNORECASE)


def describe(db: str | Path) -> str:
    """``db`` as it may be printed or logged: a URL without its password (in the user
    part or as a ``password=`` parameter), a libpq connection string with
    ``password=***``; a URL too malformed to take apart is shown as its scheme
    alone."""
    text = str(db)
    if (
        isinstance(db, str)
        and "=" in text
        and not text.startswith(("postgresql://", "postgres://"))
    ):
        keys = conninfo_keys(text)
        if keys is None or not LIBPQ_KEYS.issuperset(keys):
            return "***"  # no connection string libpq reads: any part may be a password
        return PASSWORD.sub(lambda found: found.group(1) + "***", text)
    if not (isinstance(db, str) and db.startswith(("postgresql://", "postgres://"))):
        return str(db)
    try:
        parts = urlsplit(str(db))
    except ValueError:
        return str(db).partition("://")[0] + "://***"
    userinfo, at, hostport = parts.netloc.rpartition("@")
    if ":" in userinfo:
        userinfo = userinfo.partition(":")[0] + ":***"
    query = "&".join(masked(pair) for pair in parts.query.split("&")) if parts.query else ""
    shown = f"{parts.scheme}://{userinfo}{at}{hostport}{parts.path}"  # keeps an empty host
    return shown + (f"?{query}" if query else "") + (f"#{parts.fragment}" if parts.fragment else "")
