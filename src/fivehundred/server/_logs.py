"""The server's structured log: one JSON object a line, on standard error.

Every record of the ``fivehundred.server`` logger (and uvicorn's own) is
written as ``{"time", "level", "logger", "event", ...}`` with the fields the
caller passes in ``extra={"fields": {...}}``. No request header and no body is
ever logged, so no token is: a request's line holds its method, route, path
(a table id is not a secret: a seat's token is), status, code, time and client.

>>> import logging
>>> record = logging.LogRecord("fivehundred.server", logging.INFO, "", 0, "request", None, None)
>>> record.fields = {"status": 200}
>>> import json
>>> line = json.loads(JsonFormatter().format(record))
>>> line["level"], line["logger"], line["event"], line["status"]
('info', 'fivehundred.server', 'request', 200)
"""

from __future__ import annotations

import datetime
import json
import logging
from typing import Any, Final

__all__ = ["LOGGER", "JsonFormatter", "QuietPipelines", "log_config"]

#: The name of the server's logger.
LOGGER: Final = "fivehundred.server"


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON (its traceback, if any, as ``"error"``). Raises nothing."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = datetime.datetime.fromtimestamp(record.created, datetime.UTC)
        line: dict[str, Any] = {
            "time": stamp.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=True, default=str)


class QuietPipelines(logging.Filter):
    """Drops psycopg's warning that a pipeline was aborted: it follows every move that
    lost a race to another process (a duplicate key, answered 409 ``STALE_VERSION``),
    so it is no news. psycopg's other warnings pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not (message.startswith("error ignored terminating") and "aborted" in message)


def log_config(level: str = "info") -> dict[str, Any]:
    """The :func:`logging.config.dictConfig` of ``fivehundred serve``: JSON lines on stderr
    for the server's logger, uvicorn's and psycopg's; uvicorn's access log stays off.
    Raises nothing."""
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": f"{__name__}.JsonFormatter"}},
        "filters": {"pipelines": {"()": f"{__name__}.QuietPipelines"}},
        "handlers": {"stderr": handler},
        "loggers": {
            LOGGER: {"handlers": ["stderr"], "level": level.upper(), "propagate": False},
            "uvicorn": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
            "uvicorn.error": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
            # psycopg and its pool warn of lost connections and aborted pipelines
            "psycopg": {
                "handlers": ["stderr"],
                "level": "WARNING",
                "propagate": False,
                "filters": ["pipelines"],
            },
        },
    }
