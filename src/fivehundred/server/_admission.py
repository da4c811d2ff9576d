"""What a request to make a table or take a seat must hold: the refusal, the seat kinds,
the token's stored form, and the checks of a new table's rules and seats."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Final

import fivehundred as fh
from fivehundred._engine.quoting import expect
from fivehundred.bots.tournament import PLAYER_TYPES
from fivehundred.records import rules_from_options

#: The seat kind of a person; every other kind is a computer player (:data:`PLAYER_TYPES`).
HUMAN: Final = "human"
#: The key of the spectator's token among a table's tokens (a seat number otherwise).
SPECTATOR: Final = -1


def former_key(seat: int) -> int:
    """Where a seat's token is kept once the seat went to a computer player: ``-2 - seat``
    (below the spectator's -1), so its person may watch and ask for the seat back."""
    return -2 - seat


#: What a table id looks like (``secrets.token_urlsafe(9)``, with room to spare).
TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: Bytes of randomness in a seat token (written as 43 URL-safe characters).
TOKEN_BYTES: Final = 32


class Refused(Exception):
    """A request the tables refuse: an HTTP status, a stable code and a sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def hash_token(token: str) -> str:
    """The stored form of a seat token: its SHA-256, in hex (tokens are random, not passwords)."""
    expect(token, str, "a seat token (a str)")
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def check_rules(options: object) -> fh.Rules:
    """The rules of a table's options, checked by type and range before anything is made.

    Raises :class:`Refused` 422 ``BAD_RULES`` with every problem in one sentence.
    """
    if not isinstance(options, Mapping):
        raise Refused(422, "BAD_RULES", "rules must be an object of rule options")
    try:
        return rules_from_options(options)
    except fh.InvalidStateError as err:  # each problem is a sentence, without the prefix
        raise Refused(422, "BAD_RULES", "; ".join(err.problems)[:500] or str(err)) from None


def check_seats(seats: object, players: int) -> tuple[str, ...]:
    kinds = (HUMAN, *PLAYER_TYPES)
    if not isinstance(seats, list) or len(seats) != players:
        raise Refused(
            422, "BAD_SEATS", f"seats must be a list of {players} seat kinds: {', '.join(kinds)}"
        )
    if not all(isinstance(kind, str) and kind in kinds for kind in seats):
        raise Refused(422, "BAD_SEATS", f"every seat must be one of {', '.join(kinds)}")
    if HUMAN not in seats:
        raise Refused(422, "BAD_SEATS", "at least one seat must be a person ('human')")
    return tuple(seats)
