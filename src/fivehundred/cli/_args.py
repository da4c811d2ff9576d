"""Command-line arguments: the parser, its value checks and the rules presets."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Final, NoReturn

import fivehundred as fh
from fivehundred._tables import MAX_PLAYERS, MIN_PLAYERS
from fivehundred.tournament import (
    BACKENDS,
    DEFAULT_BUDGET,
    PLAYER_TYPES,
)

#: Named rule sets for ``--rules``: each makes :class:`~fivehundred.Rules` for a
#: number of players (``--players``). Add a preset by adding a line.
RULE_PRESETS: Final[dict[str, Callable[..., fh.Rules]]] = {
    "australian": fh.Rules.australian,
    "american": fh.Rules.american,
}


class UsageError(Exception):
    """Bad input on the command line or at a prompt: the message is one line for the user."""


def rules_for(preset: str, players: int = 4) -> fh.Rules:
    """The rules of a preset for a table of ``players``; :class:`UsageError` if there are none.

    >>> rules_for("australian").players
    4
    """
    factory = RULE_PRESETS.get(preset.lower())
    if factory is None:
        names = ", ".join(RULE_PRESETS)
        raise UsageError(f"unknown rules preset {preset!r}: choose one of {names}")
    try:
        return factory(players=players)
    except ValueError as err:
        raise UsageError(f"no {preset} rules for {players} players: {err}") from None


# -- the parser ------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """Argument errors as one line (and the exit status 2), not a usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _count(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def _number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _players(text: str) -> int:
    if not text.strip().isdigit() or not MIN_PLAYERS <= int(text) <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            f"{text!r} players: Five Hundred is for {MIN_PLAYERS} to {MAX_PLAYERS} players"
        )
    return int(text)


def _kind(text: str) -> str:
    if text not in PLAYER_TYPES:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a computer player: choose {', '.join(PLAYER_TYPES)}"
        )
    return text


def _scores(text: str) -> list[int]:
    try:
        return [int(p) for p in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a list of scores: write them comma-separated, e.g. 120,-40"
        ) from None


def _add_rules(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        default="australian",
        metavar="PRESET",
        help=f"rules preset: {', '.join(RULE_PRESETS)} (default australian)",
    )
    parser.add_argument(
        "--players",
        type=_players,
        default=4,
        metavar="K",
        help=f"players, {MIN_PLAYERS} to {MAX_PLAYERS} (default 4)",
    )
    parser.add_argument("--ascii", action="store_true", help="plain letters instead of symbols")


def _add_bots(parser: argparse.ArgumentParser, many: bool) -> None:
    parser.add_argument(
        "--bots",
        type=_kind,
        nargs="+" if many else None,
        default=["heuristic"] if many else "heuristic",
        metavar="KIND",
        help=f"computer players: {', '.join(PLAYER_TYPES)}"
        + (" (one per side, or one for all)" if many else "")
        + " (default heuristic)",
    )
    parser.add_argument(
        "--budget",
        type=_count,
        default=DEFAULT_BUDGET,
        help=f"search player: sampled deals per decision (default {DEFAULT_BUDGET})",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="fivehundred", description="Five Hundred (500), the card game.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    show = commands.add_parser("demo", help="deal, bid, play and score one seeded hand")
    show.add_argument("--seed", type=_number, default=1, help="random seed (default 1)")
    show.add_argument("--ascii", action="store_true", help="plain letters instead of suit symbols")

    game = commands.add_parser("play", help="play against computer players in the terminal")
    game.add_argument("--seed", type=_number, default=None, help="random seed (default: random)")
    game.add_argument("--seat", type=_number, default=0, help="your seat (default 0)")
    _add_rules(game)
    _add_bots(game, many=False)

    look = commands.add_parser("watch", help="computer players play a whole seeded game")
    look.add_argument("--seed", type=_number, default=1, help="random seed (default 1)")
    _add_rules(look)
    _add_bots(look, many=True)

    many = commands.add_parser("simulate", help="many games between computer players")
    many.add_argument("--games", type=_count, default=100, help="games to play (default 100)")
    many.add_argument("--seed", type=_number, default=1, help="random seed (default 1)")
    many.add_argument("--jobs", type=_count, default=1, help="workers (default 1)")
    many.add_argument(
        "--backend",
        choices=BACKENDS,
        default="process",
        help="where the games run: processes, threads or Ray (default process)",
    )
    many.add_argument("--address", default=None, help="a Ray cluster's address (--backend ray)")
    _add_rules(many)
    _add_bots(many, many=True)

    keep = commands.add_parser("score", help="score hands played with real cards")
    keep.add_argument(
        "hand", nargs="*", metavar="CONTRACT TRICKS [SIDE]", help="e.g. 7H 8 (or none: a loop)"
    )
    keep.add_argument("--side", type=_number, default=0, help="the contracting side (default 0)")
    keep.add_argument("--scores", type=_scores, default=None, help="scores before, e.g. 120,-40")
    _add_rules(keep)

    table = commands.add_parser("rules", help="the bid ladder and the scoring table")
    _add_rules(table)

    server = commands.add_parser(
        "serve", help='the game server and browser table (pip install "fivehundred[server]")'
    )
    server.add_argument(
        "--db",
        default="fivehundred.db",
        metavar="PATH",
        help="SQLite database (default %(default)s)",
    )
    server.add_argument("--host", default="127.0.0.1", help="address (default %(default)s)")
    server.add_argument("--port", type=_number, default=8500, help="port (default %(default)s)")
    server.add_argument(
        "--max-connections",
        type=_count,
        default=256,
        metavar="N",
        help="open connections at once; more get 503 (default %(default)s)",
    )
    return parser
