"""The game server behind ``fivehundred serve`` (``pip install "fivehundred[server]"``).

- :func:`create_app`: the Starlette application (tables in SQLite, the JSON API,
  the browser table at ``/``), to serve with any ASGI server or to mount in one's own;
- :class:`Tables`: the tables and their storage, without HTTP;
- ``fivehundred serve --db PATH``: the application under uvicorn, with its limits.

See docs/howto/game-server.md.
"""

from __future__ import annotations

from fivehundred.server.app import create_app
from fivehundred.server.tables import Refused, Table, Tables

__all__ = ["Refused", "Table", "Tables", "create_app"]
