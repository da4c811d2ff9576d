"""``fivehundred simulate``: many games between computer players, and a summary."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor
from typing import TextIO

import fivehundred as fh
from fivehundred.bots.tournament import (
    play_games,
    summarize,
)

# -- simulate --------------------------------------------------------------------------
from fivehundred.cli._render import Style


def simulate(
    *,
    games: int,
    rules: fh.Rules,
    bots: Sequence[str],
    seed: int,
    budget: int,
    jobs: int,
    out: TextIO,
    err: TextIO,
    executor: Executor | None = None,
) -> None:
    """Many games between computer players: a summary on ``out``, and a progress bar on
    ``err`` when it is a terminal.

    The games run here, on ``jobs`` processes, or on ``executor`` (any
    :class:`concurrent.futures.Executor`); each has its own seed, so the summary
    is the same either way."""
    sides = len(rules.sides)
    kinds = [bots[s % len(bots)] for s in range(sides)]
    records = []
    width = 30
    isatty = getattr(err, "isatty", None)
    bar = bool(isatty is not None and isatty())  # a bar drawn with \r only on a terminal
    for record in play_games(
        kinds, games, seed=seed, budget=budget, rules=rules, jobs=jobs, executor=executor
    ):
        records.append(record)
        if bar:
            done = len(records)
            filled = width * done // games
            err.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{games} games")
            err.flush()
    if bar:
        err.write("\n")
    result = summarize(kinds, records)
    style = Style(ascii_only=True)
    print(
        f"{games} games of {rules.players}-player Five Hundred (seed {seed}), "
        f"{result.hands} hands"
        + (f", {result.unfinished} unfinished" if result.unfinished else ""),
        file=out,
    )
    width = max([10, *(len(kind) for kind in kinds)])
    header = (
        f"{'side':<16} {'player':<{width}} {'win rate':>8} {'95% interval':>16} "
        f"{'contracts':>9} {'made':>6} {'avg score':>9}"
    )
    print(header, file=out)
    for side, kind in enumerate(kinds):
        low, high = result.interval(side)
        contracts = result.contracts[side]
        made = f"{100 * result.made[side] / contracts:5.1f}%" if contracts else "     -"
        average = sum(r.scores[side] for r in records) / len(records)
        print(
            f"{style.side(rules, side):<16} {kind:<{width}} {100 * result.win_rate(side):7.1f}% "
            f"[{100 * low:5.1f}%, {100 * high:5.1f}%] {contracts:>9} {made:>6} {average:>9.1f}",
            file=out,
        )
    total = sum(result.contracts)
    made_all = sum(result.made)
    share = f"{100 * made_all / total:.1f}%" if total else "-"
    print(f"contracts made overall: {made_all} of {total} ({share})", file=out)
