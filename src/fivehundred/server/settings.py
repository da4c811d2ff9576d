"""The operator's settings of ``fivehundred serve``: one value, its CLI options and variables.

This module needs neither Starlette nor uvicorn, so the command line can list
the options without the ``server`` extra. Every field of :class:`Settings` is a
``fivehundred serve`` option, an environment variable and a key of the TOML
config file (``--config``), as docs/howto/operate-the-server.md lists. One
order settles them: the option, then the variable, then the config file, then
the default (:func:`apply_config`).

>>> settings = Settings(create_rate=0, idle_expiry=600)
>>> settings.create_rate, settings.idle_expiry, settings.operator_key
(0.0, 600.0, None)
"""

from __future__ import annotations

import argparse
import math
import os
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from fivehundred._engine.quoting import expect
from fivehundred.errors import FiveHundredError, FiveHundredTypeError
from fivehundred.server._pause import HAND_PAUSE

__all__ = [
    "ENV_PREFIX",
    "MIN_KEY_LENGTH",
    "GivenOption",
    "Settings",
    "add_arguments",
    "apply_config",
    "from_arguments",
    "read_key",
]

#: Every setting is also the environment variable ``FIVEHUNDRED_`` + its option in capitals.
ENV_PREFIX: Final = "FIVEHUNDRED_"
#: The shortest operator key accepted, in characters.
MIN_KEY_LENGTH: Final = 16
#: The default of ``max_tables``: tables open at once.
MAX_TABLES: Final = 10_000
#: The largest duration or rate a config file may hold.
MAX_SECONDS: Final = 1e15
#: The largest whole-number setting.
MAX_COUNT: Final = 10**9
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


def _check_count(instance: Settings, attribute: attrs.Attribute[int], count: int) -> None:
    if isinstance(count, bool) or not isinstance(count, int):
        raise FiveHundredTypeError(f"{attribute.name} must be a whole number, not {count!r}")
    if not 1 <= count <= MAX_COUNT:
        raise FiveHundredError(
            f"{attribute.name} must be a whole number from 1 to {MAX_COUNT}, not {count}"
        )


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
    #: The end of a hand waits this long at most for each person present to say "next
    #: hand" before the computer seats play on; 0: it never waits.
    hand_pause: float = attrs.field(
        default=HAND_PAUSE, validator=_nonnegative, converter=_seconds_field
    )
    #: The JSON log's level; requests are logged at ``info``.
    log_level: str = attrs.field(default="info", validator=_check_level)
    #: Addresses of reverse proxies whose ``X-Forwarded-For`` names the client
    #: (comma-separated); none by default, so a client cannot name itself anew.
    trusted_proxies: str = attrs.field(default="", validator=_check_text)
    #: Tables open at once at most; one more is refused ``503 TOO_MANY_TABLES``.
    max_tables: int = attrs.field(default=MAX_TABLES, validator=_check_count)

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
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise OSError(f"{path} is not UTF-8 text") from None
    lines = text.splitlines()
    return lines[0].strip() if lines else ""  # the first line, blank or not


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
    ("--hand-pause", "hand_pause", "seconds a hand's end waits for the people present (0: none)"),
)


class GivenOption(argparse.Action):
    """argparse's ``store`` that also records, in ``given_options``, that the option was
    on the command line (so a config file does not override it). Raises nothing."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, self.const if self.nargs == 0 else values)
        given = set(getattr(namespace, "given_options", ()))
        namespace.given_options = given | {self.dest}


def _flag(**options: Any) -> dict[str, Any]:
    """The keywords of an on/off option that records it was given."""
    return {"action": GivenOption, "nargs": 0, "const": True, **options}


def _env_name(option: str) -> str:
    return ENV_PREFIX + option.lstrip("-").replace("-", "_").upper()


def _seconds(text: str) -> float:
    try:
        return _positive(float(text), "the value")
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of 0 or more") from None


def _whole(text: str) -> int:
    if not text.strip().isdigit() or not 1 <= int(text) <= MAX_COUNT:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1 to {MAX_COUNT}")
    return int(text)


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
        "--config",
        action=GivenOption,
        default=env.get(_env_name("--config")),
        metavar="PATH",
        help=f"a TOML file of settings, below the options and variables (or ${ENV_PREFIX}CONFIG)",
    )
    group.add_argument(
        "--operator-key-file",
        action=GivenOption,
        default=env.get(_env_name("--operator-key-file")),
        metavar="PATH",
        help="a file holding the operator key of the admin routes "
        f"(or the key itself in ${ENV_PREFIX}OPERATOR_KEY)",
    )
    group.add_argument(
        "--create-needs-key",
        **_flag(
            default=env.get(_env_name("--create-needs-key"), "") not in {"", "0"},
            help="only the operator key may create tables",
        ),
    )
    for option, field, text in _NUMBERS:
        # a text default is read by ``type`` when ``serve`` is parsed, so that a bad
        # variable is reported there, not when any other command builds its parser
        value: float = getattr(defaults, field)
        default = env.get(_env_name(option), f"{value:.0f}" if value.is_integer() else str(value))
        group.add_argument(
            option,
            action=GivenOption,
            type=_seconds,
            default=default,
            metavar="N",
            help=f"{text} (default {default})",
        )
    group.add_argument(
        "--max-tables",
        action=GivenOption,
        type=_whole,
        default=env.get(_env_name("--max-tables"), str(defaults.max_tables)),
        metavar="N",
        help="tables open at once at most (default %(default)s)",
    )
    group.add_argument(
        "--log-level",
        action=GivenOption,
        choices=LOG_LEVELS,
        default=env.get(_env_name("--log-level"), defaults.log_level),
        help="the JSON log's level (default %(default)s)",
    )
    group.add_argument(
        "--trusted-proxies",
        action=GivenOption,
        default=env.get(_env_name("--trusted-proxies"), defaults.trusted_proxies),
        metavar="ADDRESSES",
        help="proxies whose X-Forwarded-For names the client, comma-separated (default: none)",
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
        max_tables=args.max_tables,
        **{field: getattr(args, field) for _, field, _ in _NUMBERS},
    )


#: What each key of the config file is: ``(option, kind)``; the kinds are checked by
#: :func:`_config_value`. Every setting, and where and how ``fivehundred serve`` listens.
CONFIG_KEYS: Final = {
    "db": ("--db", "text"),
    "host": ("--host", "text"),
    "port": ("--port", "port"),
    "workers": ("--workers", "count"),
    "max_connections": ("--max-connections", "count"),
    "operator_key_file": ("--operator-key-file", "text"),
    "create_needs_key": ("--create-needs-key", "flag"),
    **{field: (option, "number") for option, field, _ in _NUMBERS},
    "max_tables": ("--max-tables", "count"),
    "log_level": ("--log-level", "level"),
    "trusted_proxies": ("--trusted-proxies", "addresses"),
}


def _config_value(key: str, kind: str, value: object) -> object:
    """A config file's value checked by its kind; :class:`ValueError` with a sentence."""
    wrong = f"{key} must be {{}}, not {value!r}"
    if kind == "text" and isinstance(value, str) and value:
        return value
    if kind == "flag" and isinstance(value, bool):
        return value
    ranges = {"number": (0, MAX_SECONDS), "count": (1, MAX_COUNT), "port": (0, 65535)}
    low, high = ranges.get(kind, (0, -1))
    # a bool is an int to Python, and no number here; a NaN or an infinity is out of range
    if not isinstance(value, bool) and isinstance(value, (int, float)) and low <= value <= high:
        if kind == "number":
            return float(value)
        if isinstance(value, int):
            return value
    if kind == "level" and value in LOG_LEVELS:
        return value
    if kind == "addresses":
        if isinstance(value, str):
            return value
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return ",".join(value)
    needs = {
        "text": "a text",
        "flag": "true or false",
        "number": "a number of 0 or more",
        "count": f"a whole number from 1 to {MAX_COUNT}",
        "port": "a port number from 0 to 65535",
        "level": f"one of {', '.join(LOG_LEVELS)}",
        "addresses": "a text or a list of addresses",
    }
    raise FiveHundredError(wrong.format(needs[kind]))


def read_config(path: str | Path) -> dict[str, object]:
    """The settings of a TOML config file, each checked by its kind (see :data:`CONFIG_KEYS`).

    Raises :class:`OSError` when it cannot be read and
    :class:`~fivehundred.FiveHundredError` (a :class:`ValueError`) for text that is
    not TOML, an unknown key or a value of the wrong kind, each a sentence naming
    the file.
    """
    expect(path, (str, Path), "the config file's path (a str or Path)")
    try:
        with Path(path).open("rb") as file:
            given = tomllib.load(file)
    except OSError as err:
        raise OSError(f"--config {path}: {err.strerror or err}") from None
    except tomllib.TOMLDecodeError as err:
        raise FiveHundredError(f"--config {path} is not TOML: {err}") from None
    except UnicodeDecodeError:
        raise FiveHundredError(f"--config {path} is not TOML: it is not UTF-8 text") from None
    if "operator_key" in given:
        raise FiveHundredError(
            f"--config {path}: keep the operator key out of the config file; "
            "name a file that holds it with operator_key_file"
        )
    unknown = sorted(set(given) - set(CONFIG_KEYS))
    if unknown:
        raise FiveHundredError(
            f"--config {path}: unknown settings {', '.join(map(repr, unknown))} "
            f"(the keys are {', '.join(CONFIG_KEYS)})"
        )
    checked = {}
    for key, value in given.items():
        try:
            checked[key] = _config_value(key, CONFIG_KEYS[key][1], value)
        except FiveHundredError as err:
            raise FiveHundredError(f"--config {path}: {err}") from None
    return checked


def apply_config(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> None:
    """Fill in parsed ``fivehundred serve`` options from the config file, if one is named.

    The one order of precedence: an option on the command line, then its
    environment variable, then the config file, then the default. Raises as
    :func:`read_config` does.
    """
    expect(args, argparse.Namespace, "parsed options (an argparse.Namespace)")
    env = os.environ if environ is None else environ
    path = getattr(args, "config", None)
    if not path:
        return
    given: set[str] = getattr(args, "given_options", set())
    for key, value in read_config(path).items():
        option = CONFIG_KEYS[key][0]
        if key in given or _env_name(option) in env:
            continue
        if key == "operator_key_file" and env.get(ENV_PREFIX + "OPERATOR_KEY"):
            continue  # the key in a variable is above the config file too
        setattr(args, key, value)
