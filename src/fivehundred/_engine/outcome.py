"""The score of a hand and the end of the game (R6, R8, R9), on small integers.

The one place the scoring rules are written: :func:`fivehundred.score_hand`,
:func:`fivehundred.game_result` and the engine's end of a hand call these.
Internal; compiled by mypyc.
"""

from __future__ import annotations

from collections.abc import Sequence

from fivehundred._engine.ruledata import TRICKS_PER_HAND


def score_changes(
    value: int,
    bid: int,
    misere: bool,
    contracting: int,
    tricks: Sequence[int],
    before: Sequence[int],
    trick_points: int,
    cap: int | None,
    slam: int,
) -> tuple[int, ...]:
    """The score change of every side (R8.2-R8.4, V-TRICK-POINTS, V-CAP, V-NO-SLAM).

    ``contracting`` is the mask of contracting sides (0 after an all-pass hand,
    V-ALL-PASS: then every side scores its tricks); ``value`` the contract's value
    and ``bid`` its tricks (R6.1; unused for misère, R6.2); ``slam`` the slam value
    (0 without the slam bonus, V-NO-SLAM). The one place the scoring
    rules are written: :func:`fivehundred.score_hand` checks its arguments and
    calls this.
    """
    out: list[int] = []
    if contracting == 0:
        for side in range(len(tricks)):
            out.append(_defence(before[side], trick_points * tricks[side], cap) - before[side])
        return tuple(out)
    taken = 0
    for side in range(len(tricks)):
        if (contracting >> side) & 1:
            taken += tricks[side]
    if not made(bid, misere, taken):
        result = -value  # R8.3
    elif not misere and taken == TRICKS_PER_HAND and value < slam:
        result = slam  # R8.2
    else:
        result = value
    for side in range(len(tricks)):
        if (contracting >> side) & 1:
            out.append(result)
        elif misere:
            out.append(0)  # R8.4: misère defenders score nothing
        else:
            out.append(_defence(before[side], trick_points * tricks[side], cap) - before[side])
    return tuple(out)


def made(bid: int, misere: bool, taken: int) -> bool:
    """Whether a contract is made with ``taken`` tricks to its side (R6.1, R6.2)."""
    return taken == 0 if misere else taken >= bid


def game_end(
    contracting: int, made: int, scores: Sequence[int], target: int, losing: int, defence: bool
) -> tuple[int, tuple[int, ...]] | None:
    """Whether a scored hand ends the game (R9, P-END, V-DEFENCE-WINS, V-TARGET).

    ``contracting`` is the mask of contracting sides, ``made`` 1, 0 or -1 (no
    contract: V-ALL-PASS). The answer is ``(outcome, winners)`` with the outcome
    0 (contract made, R9.1), 1 (out backwards, R9.2) or 2 (target reached,
    V-DEFENCE-WINS) and the winning sides in ascending order; ``None`` when the
    game goes on (R9.3).
    """
    sides = len(scores)
    if made == 1:
        winners = [s for s in range(sides) if (contracting >> s) & 1 and scores[s] >= target]
        if winners:
            return 0, tuple(winners)
    elif made == 0:
        losers = 0
        for s in range(sides):
            if (contracting >> s) & 1 and scores[s] <= losing:
                losers |= 1 << s
        if losers:
            return 1, _best(scores, ((1 << sides) - 1) & ~losers)
    if defence:
        crossed = 0
        for s in range(sides):
            if scores[s] >= target:
                crossed |= 1 << s
        if crossed:
            return 2, _best(scores, crossed)
    return None


def _best(scores: Sequence[int], among: int) -> tuple[int, ...]:
    """The sides of the mask ``among`` with the highest score (a tie is a shared win, P-END)."""
    top = max(scores[s] for s in range(len(scores)) if (among >> s) & 1)
    return tuple(s for s in range(len(scores)) if (among >> s) & 1 and scores[s] == top)


def _defence(old: int, points: int, cap: int | None) -> int:
    """Defence points added to a score, under the V-CAP rule when there is a cap."""
    if cap is None:
        return old + points
    return min(old + points, cap) if old < cap else old
