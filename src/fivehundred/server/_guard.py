"""Checks of a request before the server allocates anything for it.

Every value of a JSON body is checked by type and range first (:func:`check_json`):
a lone surrogate in a key or a value, a number too large to be a count or a
version, and a non-finite number are refused with 400 before any handler reads
the body. :func:`create_request` then reads ``POST /tables`` by type and range
(the table size before any seat is listed), and :func:`head_size` measures a
request head, which the server refuses over its limit (431).

>>> create_request({"rules": {"players": 3}})
({'players': 3}, ['human', 'heuristic', 'heuristic'])
>>> create_request({"rules": {"players": 10**8}})
Traceback (most recent call last):
...
fivehundred.server.tables.Refused: players must be a whole number from 2 to 6, not 100000000
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any, Final

from fivehundred._engine.convert import json_depth
from fivehundred._engine.quoting import quote
from fivehundred._engine.ruledata import MAX_PLAYERS, MIN_PLAYERS
from fivehundred.server.tables import HUMAN, Refused

__all__ = [
    "MAX_DEPTH",
    "MAX_NUMBER",
    "check_json",
    "create_request",
    "head_size",
    "read_json",
]

#: The largest number (in size) a request may hold: 2**53, the largest whole number JSON keeps.
MAX_NUMBER: Final = 2**53
#: The seat kind of the computer seats ``POST /tables`` fills in when it gets no ``seats``.
DEFAULT_COMPUTER: Final = "heuristic"


def _text(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise Refused(
            400, "BAD_TEXT", f"{where} holds a lone surrogate: send valid Unicode text"
        ) from None


def check_json(value: object, where: str = "the body") -> None:
    """Refuse (400) a parsed JSON value holding text that is not Unicode or an unusable number.

    ``BAD_TEXT``: a key or a string with a lone surrogate (``"\\ud800"``), which
    no answer could quote back; ``BAD_NUMBER``: a number over :data:`MAX_NUMBER`
    in size, infinite or not a number. Raises :class:`~.tables.Refused`.
    """
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            _text(item, where)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, (int, float)):
            # an int is compared as it is: math.isfinite raises OverflowError on one of
            # over 308 digits, which no float can hold
            if (isinstance(item, float) and not math.isfinite(item)) or abs(item) > MAX_NUMBER:
                raise Refused(
                    400,
                    "BAD_NUMBER",
                    f"{where} holds a number over 2**53 in size, or not finite: send a smaller one",
                )
        elif isinstance(item, dict):
            for key in item:
                _text(key, f"a key of {where}")
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


#: The deepest nesting of objects and lists in a request body or a socket message.
MAX_DEPTH: Final = 4


def read_json(text: str, where: str) -> dict[str, Any]:
    """A request body's or a socket message's JSON object, checked by :func:`check_json`.

    Nesting over :data:`MAX_DEPTH` is refused before it is parsed (Python's parser would
    recurse into it). Raises :class:`~.tables.Refused`: 400 ``BAD_JSON``, ``BAD_REQUEST``
    for a value that is not an object, ``BAD_TEXT`` or ``BAD_NUMBER``.
    """
    if json_depth(text) > MAX_DEPTH:
        raise Refused(400, "BAD_JSON", f"{where} is nested over {MAX_DEPTH} deep")
    try:
        found = json.loads(text)
    except ValueError as err:
        raise Refused(400, "BAD_JSON", f"{where} is not JSON: {err}"[:200]) from None
    if not isinstance(found, dict):
        raise Refused(400, "BAD_REQUEST", f"{where} must be a JSON object")
    check_json(found, where)
    return found


def create_request(body: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    """The rule options and the seats of a ``POST /tables`` body, checked by type and range.

    The table size is read first, so that no list of seats is made for a size
    the rules do not have. Without ``seats``, seat 0 is a person and every
    other seat a heuristic player. Raises :class:`~.tables.Refused`: 400
    ``BAD_REQUEST`` for an unknown key, 422 ``BAD_RULES`` or ``BAD_SEATS``.
    """
    unknown = sorted(set(body) - {"rules", "seats", "names"})  # names: Tables.create checks
    if unknown:
        raise Refused(400, "BAD_REQUEST", f"unknown keys: {', '.join(map(quote, unknown))}"[:200])
    options = body.get("rules", {})
    if not isinstance(options, dict):
        raise Refused(422, "BAD_RULES", "rules must be an object of rules options")
    players = options.get("players", 4)
    if (
        isinstance(players, bool)
        or not isinstance(players, int)
        or not MIN_PLAYERS <= players <= MAX_PLAYERS
    ):
        raise Refused(
            422,
            "BAD_RULES",
            f"players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, "
            f"not {quote(players)}"[:200],
        )
    seats = body.get("seats")
    if seats is None:
        return options, [HUMAN] + [DEFAULT_COMPUTER] * (players - 1)
    if not isinstance(seats, list) or len(seats) > MAX_PLAYERS:
        raise Refused(
            422, "BAD_SEATS", f"seats must be a list of {players} seat kinds, one for each player"
        )
    return options, seats


def head_size(method: str | bytes, target: bytes, headers: Iterable[tuple[bytes, bytes]]) -> int:
    """The bytes of a request head as sent: request line and headers, line ends included.

    >>> head_size("GET", b"/", [(b"host", b"x")])  # GET / HTTP/1.1, host: x, a blank line
    27
    """
    line = len(method) + 1 + len(target) + len(" HTTP/1.1\r\n")
    return line + sum(len(name) + 2 + len(value) + 2 for name, value in headers) + 2
