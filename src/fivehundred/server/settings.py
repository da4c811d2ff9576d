"""The operator's settings of ``fivehundred serve``: one value, its CLI options and variables.

This module needs neither Starlette nor uvicorn, so the command line can list
the options without the ``server`` extra. Every field of :class:`Settings` is a
``fivehundred serve`` option and an environment variable (the option wins), as
docs/howto/operate-the-server.md lists:

>>> settings = Settings(create_rate=0, idle_expiry=600)
>>> settings.create_rate, settings.idle_expiry, settings.operator_key
(0.0, 600.0, None)
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

import attrs

__all__ = [
    "ENV_PREFIX",
    "MIN_KEY_LENGTH",
    "Settings",
    "add_arguments",
    "from_arguments",
    "read_key",
]

#: Every setting is also the environment variable ``FIVEHUNDRED_`` + its option in capitals.
ENV_PREFIX: Final = "FIVEHUNDRED_"
#: The shortest operator key accepted, in characters.
MIN_KEY_LENGTH: Final = 16
#: The log levels of ``--log-level``.
LOG_LEVELS: Final = ("debug", "info", "warning", "error")


def _positive(value: float, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{what} must be a finite number, not {value!r}")
    if value < 0:
        raise ValueError(f"{what} must be 0 or more, not {value!r}")
    return float(value)


def _nonnegative(instance: Settings, attribute: attrs.Attribute[float], value: float) -> None:
    _positive(value, attribute.name)


def _check_key(instance: Settings, attribute: attrs.Attribute[str | None], key: str | None) -> None:
    if key is not None and (not isinstance(key, str) or len(key.strip()) < MIN_KEY_LENGTH):
        raise ValueError(f"the operator key must be a text of at least {MIN_KEY_LENGTH} characters")


def _check_level(instance: Settings, attribute: attrs.Attribute[str], level: str) -> None:
    if level not in LOG_LEVELS:
        raise ValueError(f"the log level must be one of {', '.join(LOG_LEVELS)}, not {level!r}")


@attrs.frozen(kw_only=True)
class Settings:
    """What an operator sets: who may create tables, how tables expire, logs and shutdown.

    Durations are in seconds (``keep_archived`` too); a rate or a duration of
    0 turns its limit off. Raises :class:`ValueError` for a negative or
    non-finite number, a short operator key or an unknown log level.
    """

    #: The key of the admin routes (``Authorization: Bearer KEY``); ``None``: no admin routes.
    operator_key: str | None = attrs.field(default=None, repr=False, validator=_check_key)
    #: Whether creating a table needs the operator key.
    create_needs_key: bool = False
    #: Tables one client (one address) may create a minute, in a burst of as many; 0: no limit.
    create_rate: float = attrs.field(default=30.0, converter=float, validator=_nonnegative)
    #: Requests one client may send a second, in a burst of twice as many; 0: no limit.
    request_rate: float = attrs.field(default=0.0, converter=float, validator=_nonnegative)
    #: A table nobody has moved at for this long is closed and archived; 0: never.
    idle_expiry: float = attrs.field(default=24 * 3600.0, converter=float, validator=_nonnegative)
    #: A finished game stays readable this long after its last move, then is archived.
    finished_expiry: float = attrs.field(default=3600.0, converter=float, validator=_nonnegative)
    #: An archived game is deleted from the database this long after it closed; 0: kept.
    keep_archived: float = attrs.field(
        default=30 * 86400.0, converter=float, validator=_nonnegative
    )
    #: Seconds between two sweeps for idle, finished and old archived tables.
    sweep_every: float = attrs.field(default=60.0, converter=float, validator=_nonnegative)
    #: Seconds SIGTERM waits for requests in flight before the process exits (whole seconds).
    shutdown_grace: float = attrs.field(default=1.0, converter=float, validator=_nonnegative)
    #: The JSON log's level; requests are logged at ``info``.
    log_level: str = attrs.field(default="info", validator=_check_level)
    #: Addresses of reverse proxies whose ``X-Forwarded-For`` names the client.
    trusted_proxies: str = "127.0.0.1"

    def __attrs_post_init__(self) -> None:
        if self.create_needs_key and self.operator_key is None:
            raise ValueError("create_needs_key needs an operator key: nobody could create a table")


def read_key(path: str | Path) -> str:
    """The operator key held in a file (its first line, without surrounding spaces).

    Raises :class:`OSError` when the file cannot be read.
    """
    text = Path(path).read_text(encoding="utf-8")
    return text.strip().splitlines()[0].strip() if text.strip() else ""


#: ``(option, field, help)`` of every numeric setting.
_NUMBERS: Final = (
    ("--create-rate", "create_rate", "tables one client may create a minute (0: no limit)"),
    ("--request-rate", "request_rate", "requests one client may send a second (0: no limit)"),
    ("--idle-expiry", "idle_expiry", "seconds without a move before a table is archived"),
    ("--finished-expiry", "finished_expiry", "seconds a finished game stays before it is archived"),
    ("--keep-archived", "keep_archived", "seconds an archived game is kept (0: for ever)"),
    ("--sweep-every", "sweep_every", "seconds between two sweeps for expired tables"),
    ("--shutdown-grace", "shutdown_grace", "seconds SIGTERM waits for requests in flight"),
)


def _env_name(option: str) -> str:
    return ENV_PREFIX + option.lstrip("-").replace("-", "_").upper()


def _seconds(text: str) -> float:
    try:
        return _positive(float(text), "the value")
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of 0 or more") from None


def add_arguments(
    parser: argparse.ArgumentParser, environ: Mapping[str, str] | None = None
) -> None:
    """Add the options of every setting to ``fivehundred serve``'s parser.

    A setting's environment variable (``FIVEHUNDRED_IDLE_EXPIRY``...) is its
    default. Raises nothing.
    """
    env = os.environ if environ is None else environ
    defaults = Settings()
    group = parser.add_argument_group("operator's settings (docs/howto/operate-the-server.md)")
    group.add_argument(
        "--operator-key-file",
        default=env.get(_env_name("--operator-key-file")),
        metavar="PATH",
        help="a file holding the operator key of the admin routes "
        f"(or the key itself in ${ENV_PREFIX}OPERATOR_KEY)",
    )
    group.add_argument(
        "--create-needs-key",
        action="store_true",
        default=env.get(_env_name("--create-needs-key"), "") not in {"", "0"},
        help="only the operator key may create tables",
    )
    for option, field, text in _NUMBERS:
        default = env.get(_env_name(option), str(getattr(defaults, field)))
        group.add_argument(
            option,
            type=_seconds,
            default=_seconds(default),
            metavar="N",
            help=f"{text} (default {_seconds(default):g})",
        )
    group.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        default=env.get(_env_name("--log-level"), defaults.log_level),
        help="the JSON log's level (default %(default)s)",
    )
    group.add_argument(
        "--trusted-proxies",
        default=env.get(_env_name("--trusted-proxies"), defaults.trusted_proxies),
        metavar="ADDRESSES",
        help="proxies whose X-Forwarded-For names the client (default %(default)s)",
    )


def from_arguments(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> Settings:
    """The :class:`Settings` of parsed ``fivehundred serve`` options.

    Raises :class:`ValueError` for a key that is too short, and :class:`OSError`
    for a key file that cannot be read.
    """
    env = os.environ if environ is None else environ
    key = read_key(args.operator_key_file) if args.operator_key_file else None
    if key is None:
        key = env.get(ENV_PREFIX + "OPERATOR_KEY") or None
    return Settings(
        operator_key=key,
        create_needs_key=args.create_needs_key,
        log_level=args.log_level,
        trusted_proxies=args.trusted_proxies,
        **{field: getattr(args, field) for _, field, _ in _NUMBERS},
    )
