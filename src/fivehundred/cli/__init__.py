"""The ``fivehundred`` command line (also ``python -m fivehundred``).

Commands:

- ``play``: you against computer players in the terminal;
- ``watch --seed N``: computer players play a whole game, narrated;
- ``simulate --games N``: many games between computer players, with a summary;
- ``score HAND ...``: a scorekeeper for a game played with real cards;
- ``rules``: the bid ladder and the scoring table;
- ``demo``: one seeded hand, narrated;
- ``serve``: the game server and its browser table (needs ``pip install "fivehundred[server]"``).

``--rules PRESET`` and ``--players K`` choose the rules (:data:`RULE_PRESETS`), and
``--option NAME=VALUE`` changes any :class:`~fivehundred.Rules` option.
Bad input, at a prompt or in a flag, gets a one-line explanation; end of input
or Ctrl-C at a prompt leaves cleanly.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import sys
from collections.abc import Sequence
from typing import Final

from fivehundred._engine.quoting import expect
from fivehundred.bots.tournament import make_executor
from fivehundred.cli._args import RULE_PRESETS, UsageError, build_parser, rules_for, show_options
from fivehundred.cli._render import show_rules
from fivehundred.cli._score import score
from fivehundred.cli._simulate import simulate
from fivehundred.cli._table import play
from fivehundred.cli._watch import demo, watch
from fivehundred.errors import FiveHundredError
from fivehundred.server.settings import Settings, apply_config, from_arguments

__all__ = ["RULE_PRESETS", "UsageError", "main", "rules_for"]


#: What ``fivehundred serve`` says when the server extra is not installed.
SERVER_MISSING: Final = (
    'the game server needs its extra: pip install "fivehundred[server]" '
    "(Starlette, uvicorn and prometheus-client)"
)


def serve(
    db: str,
    host: str,
    port: int,
    max_connections: int = 256,
    seed: str | None = None,
    *,
    settings: Settings | None = None,
    workers: int = 1,
) -> int:
    """``fivehundred serve``: imports the server only now, so the CLI works without the extra."""
    try:
        from fivehundred.server.serve import serve as run_server
        from fivehundred.server.store import Unavailable, describe
        from fivehundred.server.workers import check_workers, serve_workers
    except ImportError as err:
        if err.name not in {"starlette", "uvicorn", "h11", "anyio", "prometheus_client"}:
            raise
        raise UsageError(SERVER_MISSING) from None
    try:
        check_workers(db, workers)
    except ValueError as err:
        raise UsageError(f"fivehundred serve: {err}") from None
    try:
        if workers > 1:  # pragma: no cover - runs until interrupted (test_server_workers.py)
            serve_workers(
                db,
                host,
                port,
                workers,
                max_connections=max_connections,
                seed=seed,
                settings=settings,
            )
        else:  # pragma: no cover - runs until interrupted (tests/test_server.py)
            run_server(
                db, host, port, max_connections=max_connections, seed=seed, settings=settings
            )
    except (Unavailable, FiveHundredError, sqlite3.Error, OSError) as err:  # no database
        raise UsageError(
            f"fivehundred serve: cannot open the database {describe(db)}: {err}"
        ) from None
    return 0  # pragma: no cover


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.command == "demo":
        demo(args.seed, ascii_only=args.ascii)
        return 0
    if args.command == "serve":
        try:
            apply_config(args)  # below the options and the variables
            settings = from_arguments(args)
        except (ValueError, OSError) as err:
            raise UsageError(f"fivehundred serve: {err}") from None
        return serve(
            args.db,
            args.host,
            args.port,
            args.max_connections,
            args.seed,
            settings=settings,
            workers=args.workers,
        )
    if args.command == "rules" and args.options:
        show_options(sys.stdout)
        return 0
    rules = rules_for(args.rules, args.players, args.option)
    sides = len(rules.sides)
    if args.command == "rules":
        show_rules(rules, preset=args.rules.lower(), ascii_only=args.ascii, out=sys.stdout)
        return 0
    if args.command == "score":
        scores = args.scores if args.scores is not None else [0] * sides
        if len(scores) != sides:
            raise UsageError(f"--scores needs {sides} scores, one per side, not {len(scores)}")
        if not 0 <= args.side < sides:
            raise UsageError(f"--side {args.side} is not a side: sides are 0 to {sides - 1}")
        return score(
            args.hand,
            rules=rules,
            side=args.side,
            scores=scores,
            ascii_only=args.ascii,
            inp=sys.stdin,
            out=sys.stdout,
        )
    if args.command == "watch":
        watch(args.seed, rules=rules, bots=args.bots, budget=args.budget, ascii_only=args.ascii)
        return 0
    if args.command == "simulate":
        if len(args.bots) not in (1, sides):
            raise UsageError(f"--bots takes one player type, or one per side ({sides})")
        executor = None
        if args.backend != "process" or args.address is not None:
            executor = make_executor(args.backend, args.jobs, args.address)
        try:
            simulate(
                games=args.games,
                rules=rules,
                bots=args.bots,
                seed=args.seed,
                budget=args.budget,
                jobs=args.jobs,
                out=sys.stdout,
                err=sys.stderr,
                executor=executor,
            )
        finally:
            if executor is not None:
                executor.shutdown()
        return 0
    if not 0 <= args.seat < rules.players:
        raise UsageError(f"--seat {args.seat} is not a seat: seats are 0 to {rules.players - 1}")
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    return play(
        seed=seed,
        seat=args.seat,
        rules=rules,
        bots=[args.bots],
        budget=args.budget,
        ascii_only=args.ascii,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    if argv is not None:
        expect(argv, (list, tuple), "the arguments, a list of str")
        for arg in argv:
            expect(arg, str, "an argument (a str)")
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["demo", *(argv if argv is not None else sys.argv[1:])])
    try:
        return _run(args, parser)
    except UsageError as err:
        print(f"fivehundred: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # pragma: no cover - the reader went away (``| head``)
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the exit-time flush
        return 1
