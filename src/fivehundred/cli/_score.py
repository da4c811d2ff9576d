"""``fivehundred score``: the scorekeeper for a game played with real cards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

import fivehundred as fh

# -- score -----------------------------------------------------------------------------
from fivehundred.cli._args import UsageError
from fivehundred.cli._render import Style
from fivehundred.cli._table import Prompt
from fivehundred.notation import HandScore, parse_hand_score, split_hands
from fivehundred.scoring import game_result


def _read(text: str, rules: fh.Rules, side: int) -> HandScore | None:
    try:
        return parse_hand_score(text, rules, side=side)
    except fh.NotationError as err:
        raise UsageError(str(err)) from None


def _score_report(
    style: Style, rules: fh.Rules, hand: HandScore | None, totals: list[int]
) -> tuple[list[str], bool]:
    """Score one hand onto ``totals``; the report lines and whether the game is over."""
    if hand is None:
        return ["Thrown in: everyone passed, no score (R3.9)"], False
    contract, contractor = hand.contract, hand.contractor
    changes = fh.score_hand(
        contract, contractor, hand.tricks, rules=rules, scores=totals, partner=hand.partner
    )
    side = rules.side_of(contractor)
    contracting = [side]
    if hand.partner is not None and rules.side_of(hand.partner) != side:
        contracting.append(rules.side_of(hand.partner))
    taken = sum(hand.tricks[s] for s in contracting)
    made = changes[side] > 0
    for s, change in enumerate(changes):
        totals[s] += change
    rule = ("R6.2" if contract.is_misere else "R6.1") if made else "R8.3"
    lines = [
        f"{style.call(contract)} by {style.side(rules, side)} with {taken} "
        f"trick{'s' if taken != 1 else ''}: {'made' if made else 'failed'} ({rule})"
    ]
    width = max(len(style.side(rules, s)) for s in range(len(totals)))
    for s, change in enumerate(changes):
        lines.append(f"  {style.side(rules, s):<{width}}  {change:+5d}  total {totals[s]}")
    result = game_result(contracting, made, totals, rules)
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
        hands = [_read(text, rules, side) for text in split_hands(" ".join(words))]
        for number, hand in enumerate(hands, 1):
            lines, over = _score_report(style, rules, hand, totals)
            if len(hands) > 1:
                print(f"hand {number}: " + lines[0], file=out)
                lines = lines[1:]
            for line in lines:
                print(line, file=out)
            if over and number < len(hands):
                raise UsageError(f"the game is over after hand {number}: the rest is not scored")
        return 0
    sides = ", ".join(f"side {s}: {style.side(rules, s)}" for s in range(len(rules.sides)))
    print(
        f"Scorekeeper ({sides}). Each line: CONTRACT TRICKS [SIDE], e.g. '7H 8' or 'M 0 1', "
        "or CONTRACT by SEAT took N; 'undo' takes back a hand, 'quit' ends.",
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
            hand = _read(text, rules, side)
        except UsageError as err:
            print(f"  {err}", file=out)
            continue
        past.append(list(totals))
        lines, over = _score_report(style, rules, hand, totals)
        for line in lines:
            print(line, file=out)
        if over:
            return 0
