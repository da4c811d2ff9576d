"""``fivehundred score``: the scorekeeper for a game played with real cards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

import fivehundred as fh
from fivehundred._tables import TRICKS_PER_HAND

# -- score -----------------------------------------------------------------------------
from fivehundred.cli._args import UsageError
from fivehundred.cli._render import Style
from fivehundred.cli._table import Prompt
from fivehundred.scoring import contract_made, game_result


def _read_tricks(text: str, sides: int, side: int) -> tuple[int, ...]:
    parts = text.split(",")
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise UsageError(
            f"{text!r} is not a number of tricks: write 0 to {TRICKS_PER_HAND}, e.g. 8"
        ) from None
    if len(values) == 1 and sides == 2:
        taken = values[0]
        if not 0 <= taken <= TRICKS_PER_HAND:
            raise UsageError(f"{taken} tricks is not possible: a hand has {TRICKS_PER_HAND} tricks")
        tricks = [TRICKS_PER_HAND - taken] * sides
        tricks[side] = taken
        return tuple(tricks)
    if len(values) != sides:
        raise UsageError(f"give the tricks of all {sides} sides, comma-separated, e.g. 6,2,2")
    if any(v < 0 for v in values) or sum(values) > TRICKS_PER_HAND:
        raise UsageError(f"tricks {text} are not possible: a hand has {TRICKS_PER_HAND} tricks")
    return tuple(values)


def _score_hand(
    words: Sequence[str], rules: fh.Rules, default_side: int
) -> tuple[fh.Call, int, tuple[int, ...]]:
    """Read ``CONTRACT TRICKS [SIDE]``."""
    if len(words) not in (2, 3):
        raise UsageError("write a contract and the tricks its side took, e.g. '7H 8' (or '7H 8 1')")
    try:
        contract = fh.parse_call(words[0])
    except fh.NotationError as err:
        raise UsageError(str(err)) from None
    if contract.is_pass:
        raise UsageError("a pass is not a contract: a thrown-in hand scores nothing (R3.9)")
    sides = len(rules.sides)
    side = default_side
    if len(words) == 3:
        if not words[2].isdigit() or int(words[2]) >= sides:
            raise UsageError(f"{words[2]!r} is not a side: sides are 0 to {sides - 1}")
        side = int(words[2])
    return contract, side, _read_tricks(words[1], sides, side)


def _score_report(
    style: Style,
    rules: fh.Rules,
    *,
    contract: fh.Call,
    side: int,
    tricks: tuple[int, ...],
    totals: list[int],
) -> tuple[list[str], bool]:
    """Score one hand onto ``totals``; the report lines and whether the game is over."""
    changes = fh.score_hand(contract, side, tricks, rules=rules, scores=totals)
    made = contract_made(contract, tricks[side])
    for s, change in enumerate(changes):
        totals[s] += change
    rule = ("R6.2" if contract.is_misere else "R6.1") if made else "R8.3"
    lines = [
        f"{style.call(contract)} by {style.side(rules, side)} with {tricks[side]} "
        f"trick{'s' if tricks[side] != 1 else ''}: {'made' if made else 'failed'} ({rule})"
    ]
    width = max(len(style.side(rules, s)) for s in range(len(totals)))
    for s, change in enumerate(changes):
        lines.append(f"  {style.side(rules, s):<{width}}  {change:+5d}  total {totals[s]}")
    result = game_result((side,), made, totals, rules)
    if result is not None:
        winners = " and ".join(style.side(rules, s) for s in result.winners)
        lines.append(f"Game over: {winners} win ({result.outcome.value.replace('_', ' ')})")
    return lines, result is not None


def score(
    words: Sequence[str],
    *,
    rules: fh.Rules,
    side: int,
    scores: Sequence[int],
    ascii_only: bool,
    inp: TextIO,
    out: TextIO,
) -> int:
    """The scorekeeper: one hand from ``words``, or a loop reading hands from ``inp``."""
    style = Style(ascii_only)
    totals = list(scores)
    if words:
        contract, chosen, tricks = _score_hand(words, rules, side)
        lines, _ = _score_report(
            style, rules, contract=contract, side=chosen, tricks=tricks, totals=totals
        )
        for line in lines:
            print(line, file=out)
        return 0
    sides = ", ".join(f"side {s}: {style.side(rules, s)}" for s in range(len(rules.sides)))
    print(
        f"Scorekeeper ({sides}). Each line: CONTRACT TRICKS [SIDE], e.g. '7H 8' or 'M 0 1'; "
        "'undo' takes back a hand, 'quit' ends.",
        file=out,
    )
    prompt = Prompt(inp, out)
    past: list[list[int]] = []
    while True:
        text = prompt.ask(f"hand {len(past) + 1}> ")
        if text is None or text.strip().lower() in ("q", "quit", "exit"):
            print(
                "Final scores: "
                + ", ".join(f"{style.side(rules, s)} {t}" for s, t in enumerate(totals)),
                file=out,
            )
            return 0
        words = text.split()
        if not words:
            continue
        if words[0].lower() == "undo":
            if not past:
                print("  nothing to undo", file=out)
                continue
            totals = past.pop()
            print(
                "  undone: "
                + ", ".join(f"{style.side(rules, s)} {t}" for s, t in enumerate(totals)),
                file=out,
            )
            continue
        try:
            contract, chosen, tricks = _score_hand(words, rules, side)
        except UsageError as err:
            print(f"  {err}", file=out)
            continue
        past.append(list(totals))
        lines, over = _score_report(
            style, rules, contract=contract, side=chosen, tricks=tricks, totals=totals
        )
        for line in lines:
            print(line, file=out)
        if over:
            return 0
