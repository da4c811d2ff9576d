"""Command-line arguments: the parser, its value checks and the rules presets."""

from __future__ import annotations

import argparse
import difflib
import inspect
import os
import random
import re
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Final, NoReturn, TextIO

import attrs

import fivehundred as fh
from fivehundred._engine.quoting import expect
from fivehundred._engine.ruledata import MAX_PLAYERS, MIN_PLAYERS
from fivehundred.bots.tournament import (
    BACKENDS,
    DEFAULT_BUDGET,
    PLAYER_TYPES,
    make_player,
)
from fivehundred.server.settings import GivenOption, add_arguments

#: Named rule sets for ``--rules``: each makes :class:`~fivehundred.Rules` for a
#: number of players (``--players``). Add a preset by adding a line.
RULE_PRESETS: Final[dict[str, Callable[..., fh.Rules]]] = {
    "australian": fh.Rules.australian,
    "american": fh.Rules.american,
}


class UsageError(Exception):
    """Bad input on the command line or at a prompt: the message is one line for the user."""


def option_meanings() -> dict[str, str]:
    """What each :class:`~fivehundred.Rules` option does: the ``#:`` comment above its field."""
    meanings: dict[str, str] = {}
    pending: list[str] = []
    for line in inspect.getsource(fh.Rules).splitlines():
        text = line.strip()
        if text.startswith("#:"):
            pending.append(text[2:].strip())
            continue
        field = re.match(r"^(\w+): ", text)
        if field and pending:
            meanings[field.group(1)] = " ".join(pending).replace("``", "")
        pending = []
    return meanings


def _type_of(field: attrs.Attribute[object]) -> str:
    """``int``, ``bool`` or ``int | None``: the type of a Rules option, from its annotation.

    The annotation is a string until something resolves the class's types
    (``attrs.resolve_types``), then the type itself.
    """
    kind = field.type
    return kind if isinstance(kind, str) else getattr(kind, "__name__", str(kind))


_TRUE: Final = frozenset({"true", "yes", "on", "1"})
_FALSE: Final = frozenset({"false", "no", "off", "0"})


def parse_option(text: str) -> tuple[str, int | bool | str | None]:
    """One ``--option NAME=VALUE``: the Rules field and its value; :class:`UsageError` if bad.

    >>> parse_option("target=1000"), parse_option("sans-kitty=yes"), parse_option("score_cap=none")
    (('target', 1000), ('sans_kitty', True), ('score_cap', None))
    >>> parse_option("deck_id=V-45")
    ('deck_id', 'V-45')
    """
    name, equals, text_value = text.partition("=")
    name = name.strip().lower().replace("-", "_")
    value = text_value.strip().lower()
    fields = {field.name: field for field in attrs.fields(fh.Rules)}
    if not equals or not name:
        raise UsageError(f"--option {text!r}: write NAME=VALUE, e.g. --option target=1000")
    if name not in fields:
        close = difflib.get_close_matches(name, fields, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise UsageError(
            f"--option {text!r}: there is no rule option {name!r}{hint}; "
            "'fivehundred rules --options' lists them"
        )
    kind = _type_of(fields[name])
    if kind == "bool":
        if value in _TRUE:
            return name, True
        if value in _FALSE:
            return name, False
        raise UsageError(f"--option {text!r}: {name} is true or false, not {value!r}")
    if value == "none" and "None" in kind:
        return name, None
    if kind.startswith("str"):
        return name, text_value.strip()  # a rule ID keeps its case; Rules checks it
    try:
        return name, int(value)
    except ValueError:
        also = " or none" if "None" in kind else ""
        raise UsageError(
            f"--option {text!r}: {name} is a whole number{also}, not {value!r}"
        ) from None


def rules_for(preset: str, players: int = 4, options: Sequence[str] = ()) -> fh.Rules:
    """The rules of a preset for a table of ``players``, with ``NAME=VALUE`` options.

    :class:`UsageError` if the preset, an option or the combination is not possible.

    >>> rules_for("australian").players
    4
    >>> rules_for("american", 4, ["target=1000"]).target
    1000
    """
    expect(preset, str, "a rules preset name (a str)")
    expect(players, int, "a number of players (an int)")
    expect(options, (list, tuple), "the options, a list or tuple of NAME=VALUE texts")
    factory = RULE_PRESETS.get(preset.lower())
    if factory is None:
        names = ", ".join(RULE_PRESETS)
        raise UsageError(f"unknown rules preset {preset!r}: choose one of {names}")
    changes = dict(parse_option(text) for text in options)
    changes.setdefault("players", players)
    try:
        return factory(**changes)
    except ValueError as err:
        if options:
            given = " ".join(options)
            raise UsageError(
                f"no {preset} rules with {given} for {players} players: {err}"
            ) from None
        raise UsageError(f"no {preset} rules for {players} players: {err}") from None


def show_options(out: TextIO) -> None:
    """``fivehundred rules --options``: every rule option, its default and what it does."""
    meanings = option_meanings()
    print("Rule options, for --option NAME=VALUE (defaults of the australian preset):", file=out)
    for field in attrs.fields(fh.Rules):
        default = field.default
        shown = "none" if default is None else str(default).lower()
        print(f"  {field.name}={shown}  ({_type_of(field)})", file=out)
        meaning = meanings.get(field.name, "")
        print(
            textwrap.fill(meaning, 88, initial_indent=" " * 6, subsequent_indent=" " * 6), file=out
        )


#: How to play at the table: the ``play`` help and the table's ``help`` command.
HOW_TO_PLAY: Final = """\
At each prompt, type the number of a choice, or write the move:

  a call        7NT, 6S, 10H (or 10♥), pass, misere, OM (open misère), BM
  a card        10H, JD, AS, Jo (letters or symbols, any case: 10h, t♥)
  a Joker lead  Jo H (names hearts, a suit not yet led)
  the discard   three cards, or their numbers: 4D 5D 6D, or 1 2 3
  nomination    a suit (H, hearts, ♥) or decline, for No Trumps and misère

Commands at any prompt:

  help   this text           why    the rule behind the last refusal
  last   the previous trick  undo   take back your last move
  quit   leave, showing the scores

Your hand is sorted by suit, trumps last and marked; choices are numbered
in the same order. Up and Down recall earlier lines where the terminal
allows line editing.
"""


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
    """A computer player: a built-in type, or ``module:attr`` (your own) that imports,
    from the current directory too (as ``python -m`` would)."""
    if text in PLAYER_TYPES:
        return text
    if ":" not in text:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a computer player: choose {', '.join(PLAYER_TYPES)},"
            " or name your own as module:attr"
        )
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.insert(0, here)  # the console script's path lacks it
    try:
        make_player(text, random.Random(0))
    except fh.FiveHundredError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    except Exception as error:  # the player's own code failed: say so, not "invalid"
        raise argparse.ArgumentTypeError(
            f"{text}: making the player raised {type(error).__name__}: {error}"
        ) from None
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
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one rule, e.g. target=1000 (repeatable; 'fivehundred rules --options')",
    )
    parser.add_argument("--ascii", action="store_true", help="plain letters instead of symbols")


def _add_bots(parser: argparse.ArgumentParser, many: bool) -> None:
    parser.add_argument(
        "--bots",
        type=_kind,
        nargs="+" if many else None,
        default=["heuristic"] if many else "heuristic",
        metavar="KIND",
        help=f"computer players: {', '.join(PLAYER_TYPES)} or module:attr (your own)"
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
    parser.add_argument("--version", action="version", version=f"fivehundred {fh.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    show = commands.add_parser("demo", help="deal, bid, play and score one seeded hand")
    show.add_argument("--seed", type=_number, default=1, help="random seed (default 1)")
    show.add_argument("--ascii", action="store_true", help="plain letters instead of suit symbols")

    game = commands.add_parser(
        "play",
        help="play against computer players in the terminal",
        description="Play Five Hundred against computer players. " + HOW_TO_PLAY,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
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

    keep = commands.add_parser(
        "score",
        help="score hands played with real cards",
        description="Score hands played with real cards: give one hand or several "
        '(7H 8 8S 9, or "7H by 0 took 8"), or none for a loop that reads a hand a line '
        "('undo' takes back a hand, 'quit' ends).",
    )
    keep.add_argument(
        "hand",
        nargs="*",
        metavar="HAND",
        help="CONTRACT TRICKS [SIDE] (7H 8, M 0 1), CONTRACT by SEAT took N, "
        "CONTRACT by SEAT tricks N N N N, or pass",
    )
    keep.add_argument("--side", type=_number, default=0, help="the contracting side (default 0)")
    keep.add_argument("--scores", type=_scores, default=None, help="scores before, e.g. 120,-40")
    _add_rules(keep)

    table = commands.add_parser("rules", help="the bid ladder and the scoring table")
    _add_rules(table)
    table.add_argument(
        "--options", action="store_true", help="list every rule option for --option NAME=VALUE"
    )

    server = commands.add_parser(
        "serve", help='the game server and browser table (pip install "fivehundred[server]")'
    )
    server.add_argument(
        "--db",
        action=GivenOption,  # each of these may come from --config too
        default="fivehundred.db",
        metavar="PATH_OR_URL",
        help="a SQLite file, or a postgresql://user@host/dbname URL for a PostgreSQL "
        "database that several server processes share (default %(default)s)",
    )
    server.add_argument(
        "--host", action=GivenOption, default="127.0.0.1", help="address (default %(default)s)"
    )
    server.add_argument(
        "--port", action=GivenOption, type=_number, default=8500, help="port (default %(default)s)"
    )
    server.add_argument(
        "--max-connections",
        action=GivenOption,
        type=_count,
        default=256,
        metavar="N",
        help="open connections at once; more get 503 (default %(default)s)",
    )
    server.add_argument(
        "--workers",
        action=GivenOption,
        type=_count,
        default=1,
        metavar="N",
        help="uvicorn worker processes; more than one needs a postgresql:// --db "
        "(default %(default)s)",
    )
    server.add_argument(
        "--seed",
        default=None,
        metavar="TEXT",
        help="for tests only: derive every table's deals and computer moves from TEXT, "
        "so anyone who knows it can predict the cards (default: a secret seed per table)",
    )
    add_arguments(server)
    return parser
