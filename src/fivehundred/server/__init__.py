"""The game server behind ``fivehundred serve`` (``pip install "fivehundred[server]"``).

- :func:`create_app`: the Starlette application (tables in SQLite, the JSON API,
  the browser table at ``/``), to serve with any ASGI server or to mount in one's own;
- :class:`Tables` (in :mod:`fivehundred.server.tables`): the tables and their
  storage, without HTTP; it needs neither Starlette nor uvicorn;
- ``fivehundred serve --db PATH``: the application under uvicorn, with its limits.

See docs/howto/game-server.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fivehundred.server.tables import Refused, Table, Tables

if TYPE_CHECKING:
    from fivehundred.server.app import create_app

__all__ = ["Refused", "Table", "Tables", "create_app"]


def __getattr__(name: str) -> Any:
    """``create_app`` is imported on first use, so the tables work without Starlette."""
    if name == "create_app":
        from fivehundred.server.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
