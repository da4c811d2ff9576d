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

from fivehundred._quoting import expect
from fivehundred.errors import FiveHundredError, FiveHundredTypeError

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


def _positive(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise FiveHundredTypeError(f"{what} must be a number of seconds or a rate, not {value!r}")
    if not math.isfinite(value) or value < 0:
        raise FiveHundredError(f"{what} must be a finite number of 0 or more, not {value!r}")
    return float(value)


def _nonnegative(instance: Settings, attribute: attrs.Attribute[float], value: float) -> None:
    _positive(value, attribute.name)


def _check_key(instance: Settings, attribute: attrs.Attribute[str | None], key: str | None) -> None:
    expect(key, (str, type(None)), "the operator key (a str or None)")
    if key is not None and len(key.strip()) < MIN_KEY_LENGTH:
        raise FiveHundredError(
            f"the operator key must be a text of at least {MIN_KEY_LENGTH} characters"
        )


def _check_level(instance: Settings, attribute: attrs.Attribute[str], level: str) -> None:
    expect(level, str, "the log level (a str)")
    if level not in LOG_LEVELS:
        raise FiveHundredError(
            f"the log level must be one of {', '.join(LOG_LEVELS)}, not {level!r}"
        )


def _seconds_field(value: object) -> float:
    """A numeric setting as a float (its range is checked by :func:`_nonnegative`)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise FiveHundredTypeError(
            f"a duration or a rate of the settings must be a number, not {value!r}"
        )
    return float(value)


def _check_flag(instance: Settings, attribute: attrs.Attribute[bool], flag: bool) -> None:
    expect(flag, bool, f"{attribute.name} (True or False)")


def _check_text(instance: Settings, attribute: attrs.Attribute[str], text: str) -> None:
    expect(text, str, f"{attribute.name} (a str)")


@attrs.frozen(kw_only=True)
class Settings:
    """What an operator sets: who may create tables, how tables expire, logs and shutdown.

    Durations are in seconds (``keep_archived`` too); a rate or a duration of
    0 turns its limit off. Raises :class:`~fivehundred.FiveHundredError` (a
    :class:`ValueError`) for a negative or non-finite number, a short operator
    key or an unknown log level, and :class:`~fivehundred.FiveHundredTypeError`
    for a value of the wrong type.
    """

    #: The key of the admin routes (``Authorization: Bearer KEY``); ``None``: no admin routes.
    operator_key: str | None = attrs.field(default=None, repr=False, validator=_check_key)
    #: Whether creating a table needs the operator key.
    create_needs_key: bool = attrs.field(default=False, validator=_check_flag)
    #: Tables one client (one address) may create a minute, in a burst of as many; 0: no limit.
    create_rate: float = attrs.field(default=30.0, validator=_nonnegative, converter=_seconds_field)
    #: Requests one client may send a second, in a burst of twice as many; 0: no limit.
    request_rate: float = attrs.field(default=0.0, validator=_nonnegative, converter=_seconds_field)
    #: A table nobody has moved at for this long is closed and archived; 0: never.
    idle_expiry: float = attrs.field(
        default=24 * 3600.0, validator=_nonnegative, converter=_seconds_field
    )
    #: A finished game stays readable this long after its last move, then is archived.
    finished_expiry: float = attrs.field(
        default=3600.0, validator=_nonnegative, converter=_seconds_field
    )
    #: An archived game is deleted from the database this long after it closed; 0: kept.
    keep_archived: float = attrs.field(
        default=30 * 86400.0, validator=_nonnegative, converter=_seconds_field
    )
    #: Seconds between two sweeps for idle, finished and old archived tables.
    sweep_every: float = attrs.field(default=60.0, validator=_nonnegative, converter=_seconds_field)
    #: Seconds SIGTERM waits for requests in flight before the process exits (whole seconds).
    shutdown_grace: float = attrs.field(
        default=1.0, validator=_nonnegative, converter=_seconds_field
    )
    #: A person must be gone this long before another person at the table may give their
    #: seat to a computer player (a friend who has not arrived yet counts as gone since
    #: the table's first page opened).
    seat_grace: float = attrs.field(default=120.0, validator=_nonnegative, converter=_seconds_field)
    #: The JSON log's level; requests are logged at ``info``.
    log_level: str = attrs.field(default="info", validator=_check_level)
    #: Addresses of reverse proxies whose ``X-Forwarded-For`` names the client.
    trusted_proxies: str = attrs.field(default="127.0.0.1", validator=_check_text)

    def __attrs_post_init__(self) -> None:
        if self.create_needs_key and self.operator_key is None:
            raise FiveHundredError(
                "create_needs_key (--create-needs-key) needs an operator key "
                "(--operator-key-file): nobody could create a table"
            )


def read_key(path: str | Path) -> str:
    """The operator key held in a file (its first line, without surrounding spaces).

    Raises :class:`OSError` when the file cannot be read.
    """
    expect(path, (str, Path), "the operator key file's path (a str or Path)")
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
    ("--seat-grace", "seat_grace", "seconds a person is gone before their seat may be given away"),
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
    expect(parser, argparse.ArgumentParser, "a parser (an argparse.ArgumentParser)")
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
        # a text default is read by ``type`` when ``serve`` is parsed, so that a bad
        # variable is reported there, not when any other command builds its parser
        value: float = getattr(defaults, field)
        default = env.get(_env_name(option), f"{value:.0f}" if value.is_integer() else str(value))
        group.add_argument(
            option, type=_seconds, default=default, metavar="N", help=f"{text} (default {default})"
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
    expect(args, argparse.Namespace, "parsed options (an argparse.Namespace)")
    env = os.environ if environ is None else environ
    try:
        key = read_key(args.operator_key_file) if args.operator_key_file else None
    except OSError as err:
        reason = err.strerror or str(err)
        raise OSError(f"--operator-key-file {args.operator_key_file}: {reason}") from None
    if key is None:
        key = env.get(ENV_PREFIX + "OPERATOR_KEY") or None
    return Settings(
        operator_key=key,
        create_needs_key=args.create_needs_key,
        log_level=args.log_level,
        trusted_proxies=args.trusted_proxies,
        **{field: getattr(args, field) for _, field, _ in _NUMBERS},
    )
