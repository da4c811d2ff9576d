"""The scoring table and the score of a hand (R8), and the end of the game (R9).

>>> import fivehundred as fh
>>> fh.bid_value(fh.parse_call("7NT")), fh.bid_value(fh.MISERE), fh.bid_value(fh.OPEN_MISERE)
(220, 250, 500)
>>> fh.score_hand(fh.parse_call("8S"), 0, (10, 0))  # slam on 8S: 250 (R8.2)
(250, 0)
>>> fh.score_hand(fh.parse_call("7H"), 1, (4, 6))  # 7H failed by side 1 (R8.3, R8.4)
(40, -200)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, NoReturn

import attrs

from fivehundred._engine import ruledata as _tables
from fivehundred._engine.quoting import expect, no_member
from fivehundred._engine.ruledata import BID_TRICKS, MIN_BID
from fivehundred.calls import Call, CallKind, Strain
from fivehundred.errors import FiveHundredError, FiveHundredTypeError

if TYPE_CHECKING:
    from fivehundred.rules import Rules

__all__ = [
    "MISERE_VALUES",
    "SCORE_TABLE",
    "GameResult",
    "HandResult",
    "Outcome",
    "bid_value",
    "contract_made",
    "game_result",
    "score_hand",
]

#: Points of a trick bid by tricks (``MIN_BID`` to ``MAX_BID``: 6–10) and strain (R8.1,
#: Avondale schedule): 40 for six spades, 20 more a strain up, 100 more a trick up.
SCORE_TABLE: Final[dict[int, dict[Strain, int]]] = {
    tricks: {strain: 40 + 100 * (tricks - MIN_BID) + 20 * strain for strain in Strain}
    for tricks in BID_TRICKS
}
#: Points of the misère contracts (R8.1).
MISERE_VALUES: Final[dict[CallKind, int]] = {
    CallKind.MISERE: 250,
    CallKind.OPEN_MISERE: 500,
    CallKind.BLIND_MISERE: 500,
}
#: A contract worth less than this scores this when it takes every trick (R8.2).
SLAM_VALUE: Final = 250
#: Tricks in a hand (R5.5), from the rule tables.
TRICKS_PER_HAND: Final = _tables.TRICKS_PER_HAND


def bid_value(call: Call, rules: Rules | None = None) -> int:
    """The points a contract is worth (R8.1).

    >>> import fivehundred as fh
    >>> bid_value(fh.parse_call("6S")), bid_value(fh.parse_call("10NT"))
    (40, 520)

    Raises :class:`~fivehundred.FiveHundredError` for a pass (it is no contract) and
    :class:`~fivehundred.FiveHundredTypeError` for a non-call or non-rules.
    """
    if not isinstance(call, Call):
        raise FiveHundredTypeError(f"a Call is needed, not {call!r}")
    if call.kind is CallKind.BID:
        assert call.tricks is not None and call.strain is not None
        return SCORE_TABLE[call.tricks][call.strain]
    if call.kind is CallKind.PASS:
        raise FiveHundredError("a pass is not a contract and has no value")
    return MISERE_VALUES[call.kind]


def contract_made(contract: Call, tricks: int) -> bool:
    """Whether a contract is made with ``tricks`` tricks to the contracting side (R6.1, R6.2)."""
    expect(contract, Call, "a contract (a Call)")
    expect(tricks, int, "a number of tricks (an int)")
    from fivehundred._engine.outcome import made

    return made(contract.tricks or 0, contract.is_misere, tricks)


def _side(seat: int | None, rules: Rules) -> int | None:
    """The side of a seat (a side number is its own first seat)."""
    if seat is None:
        return None
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < rules.players:
        raise FiveHundredError(f"{seat!r} is not a seat or side of a {rules.players}-player game")
    return rules.side_of(seat)


def _check_types(contract: object, tricks: object, rules: object, scores: object) -> None:
    """Wrong Python types raise FiveHundredTypeError (bad values raise FiveHundredError)."""
    from fivehundred.rules import Rules

    if contract is not None and not isinstance(contract, Call):
        raise FiveHundredTypeError(f"a contract is a Call or None, not {contract!r}")
    if not isinstance(rules, Rules):
        raise FiveHundredTypeError(f"rules must be a fivehundred.Rules, not {rules!r}")
    for name, value in (("tricks", tricks), ("scores", scores)):  # (tricks: or sides)
        if name == "scores" and value is None:
            continue
        if not isinstance(value, Sequence) or isinstance(value, str):
            raise FiveHundredTypeError(f"{name} is a sequence of whole numbers, not {value!r}")
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in value):
            raise FiveHundredTypeError(f"{name} is a sequence of whole numbers, not {value!r}")


def score_hand(
    contract: Call | None,
    contractor: int | None,
    tricks: Sequence[int],
    *,
    rules: Rules | None = None,
    scores: Sequence[int] | None = None,
    partner: int | None = None,
) -> tuple[int, ...]:
    """The score change of every side for a finished hand (R8.2–R8.4, V-… options, P5).

    ``contractor`` is the contractor's seat or side (they agree: seat ``s``
    plays for side ``s mod sides``, so 0 and 2 are side 0 with four players)
    and ``tricks`` the tricks each side took (or each seat: they are added up
    per side). ``partner`` is the five-player contractor's partner (P5): it
    shares the contract, its tricks count for it, and it gains or loses the
    value too. ``scores`` (the
    scores before the hand) matter only with a score cap (V-CAP). A
    ``contract`` of ``None`` is a hand played after everyone passed (V-ALL-PASS):
    every side scores for its tricks; under rules without V-ALL-PASS such a hand
    is thrown in (R3.9) and is refused here.

    The tricks must be those of a hand that can happen: ten in all (R5.5), or,
    in misère without V-MISERE-PLAYOUT, fewer when the hand ended at the first
    trick the contractor won (the contractor's side then took exactly one).

    >>> import fivehundred as fh
    >>> score_hand(fh.parse_call("8C"), 0, (10, 0))  # 260 is worth more than a slam
    (260, 0)
    >>> score_hand(fh.MISERE, 1, (10, 0))  # misère made; defenders score nothing
    (0, 250)
    >>> score_hand(fh.MISERE, 1, (3, 1))  # misère lost at trick 4: the hand ends there (R5.5)
    (0, -250)
    >>> score_hand(None, None, (5, 5))
    Traceback (most recent call last):
    ...
    fivehundred.errors.FiveHundredError: a hand without a contract is thrown in under these \
rules and scores nothing (R3.9); only V-ALL-PASS plays it (Rules(all_pass_no_trumps=True))
    >>> score_hand(fh.parse_call("7H"), 2, (3, 2, 4, 1))  # seat 2 (side 0); tricks by seat
    (200, 30)
    >>> score_hand(fh.parse_call("6S"), 0, (4, 6), rules=fh.Rules(score_cap=490), scores=(0, 470))
    (-40, 20)

    Raises :class:`~fivehundred.FiveHundredTypeError` for arguments of the wrong type and
    :class:`~fivehundred.FiveHundredError` for a contractor that is not a seat or side, or trick
    counts that do not fit the rules.
    """
    if rules is None:
        from fivehundred.rules import Rules

        rules = Rules()
    _check_types(contract, tricks, rules, scores)
    sides = len(rules.sides)
    if len(tricks) == rules.players != sides:  # tricks by seat: add them up by side
        _check_sitting_out(contract, contractor, tricks, rules)
        tricks = tuple(sum(tricks[s] for s in seats) for seats in rules.sides)
    if len(tricks) != sides:
        raise FiveHundredError(f"tricks {tuple(tricks)}: one count a side ({sides}) is needed")
    contractor = _side(contractor, rules)
    partner = _side(partner, rules)
    before = tuple(scores) if scores is not None else (0,) * sides
    if len(before) != sides:
        raise FiveHundredError(f"scores {before} and tricks {tuple(tricks)} differ in length")
    if any(t < 0 for t in tricks) or sum(tricks) > TRICKS_PER_HAND:
        raise FiveHundredError(
            f"tricks {tuple(tricks)} are not possible in a ten-trick hand (R5.5)"
        )
    if contract is None and not rules.all_pass_no_trumps:
        raise FiveHundredError(
            "a hand without a contract is thrown in under these rules and scores nothing "
            "(R3.9); only V-ALL-PASS plays it (Rules(all_pass_no_trumps=True))"
        )
    if contract is not None and contract.is_bid and contractor is None:
        raise FiveHundredError(
            f"the contract {contract} needs its contractor: the seat or side that won the auction"
        )
    _check_total(contract, contractor, partner, tuple(tricks), rules)
    from fivehundred._engine import outcome

    slam = SLAM_VALUE if rules.slam_bonus else 0
    if contract is None:
        return outcome.score_changes(
            0, 0, False, 0, tricks, before, rules.trick_points, rules.score_cap, slam
        )
    if not contract.is_bid:
        raise FiveHundredError("a pass is not a contract: a thrown-in hand scores nothing (R3.9)")
    contracting = 0
    for side in (contractor, partner):
        if side is not None:
            contracting |= 1 << side
    return outcome.score_changes(
        bid_value(contract, rules),
        contract.tricks or 0,
        contract.is_misere,
        contracting,
        tricks,
        before,
        rules.trick_points,
        rules.score_cap,
        slam,
    )


def _check_sitting_out(
    contract: Call | None, contractor: int | None, tricks: Sequence[int], rules: Rules
) -> None:
    """Refuse tricks by seat where the misère contractor's partner, who sits the hand out
    (R4.2), took one: at most one seat of the contracting side plays."""
    if contract is None or not contract.is_misere or contractor is None:
        return
    if not isinstance(contractor, int) or not 0 <= contractor < rules.players:
        return  # not a seat: _side says so
    seats = rules.sides[rules.side_of(contractor)]
    if sum(1 for seat in seats if tricks[seat]) > 1:
        raise FiveHundredError(
            f"tricks {tuple(tricks)}: in misère the contractor's partner sits out (R4.2), so "
            "only one seat of the contracting side takes tricks"
        )


def _check_total(
    contract: Call | None,
    contractor: int | None,
    partner: int | None,
    tricks: tuple[int, ...],
    rules: Rules,
) -> None:
    """Refuse trick counts that do not add up to a hand that can happen (R5.5)."""
    total = sum(tricks)
    # a misère hand ends at the first trick the contractor's side wins (R5.5)
    ends_early = (
        contract is not None
        and contract.is_misere
        and not rules.misere_playout
        and contractor is not None
    )
    ours = 0
    if ends_early:
        assert contractor is not None  # for the type checker: ends_early says so
        ours = tricks[contractor] + (tricks[partner] if partner not in (None, contractor) else 0)
        if ours > 1:
            raise FiveHundredError(
                f"tricks {tricks}: a misère hand ends at the first trick the contractor "
                f"wins (R5.5), so the contractor's side takes no trick or one, not {ours}"
            )
    if total == TRICKS_PER_HAND or contract is None or not contract.is_bid:
        if total != TRICKS_PER_HAND:
            raise FiveHundredError(
                f"tricks {tricks} add up to {total}: a hand has ten tricks (R5.5)"
            )
        return
    if ends_early:
        if ours == 1:
            return  # the hand ended at the first trick the contractor won (R5.5)
        raise FiveHundredError(
            f"tricks {tricks} add up to {total}: a misère hand ends early only at the first "
            "trick the contractor wins, so the contractor's side has one trick then; "
            "otherwise a hand has ten tricks (R5.5)"
        )
    raise FiveHundredError(f"tricks {tricks} add up to {total}: a hand has ten tricks (R5.5)")


class Outcome(enum.Enum):
    """How a game ended (R9).

    Looking a member up by a value that is none of its members raises
    :class:`~fivehundred.FiveHundredError` (a ``ValueError``, as Python's own lookup), or
    :class:`~fivehundred.FiveHundredTypeError` for a value of the wrong type.
    """

    @classmethod
    def _missing_(cls, value: object) -> NoReturn:
        no_member(cls, value)

    #: A side made its contract and reached the target (R9.1).
    CONTRACT_MADE = "contract_made"
    #: A side failed its contract and fell to the losing score (R9.2).
    OUT_BACKWARDS = "out_backwards"
    #: A side reached the target by defence points (V-DEFENCE-WINS).
    TARGET_REACHED = "target_reached"


@attrs.frozen
class GameResult:
    """The end of a game: the winning sides and why.

    Constructing one checks nothing and raises nothing: it is a plain record of values the
    library made.
    """

    #: The sides that won.
    winners: tuple[int, ...]
    #: The contracting side of the last hand (``None`` after an all-pass hand, V-ALL-PASS).
    deciding_side: int | None
    outcome: Outcome


@attrs.frozen
class HandResult:
    """The outcome of one hand: the contract, tricks, score changes and new scores.

    For a thrown-in hand (R3.9) ``contract`` and ``contractor`` are ``None``
    and nothing changes.

    Constructing one checks nothing and raises nothing: it is a plain record of values the
    library made.
    """

    #: 1 for the first hand of the game.
    number: int
    dealer: int
    contract: Call | None
    #: The contractor's seat.
    contractor: int | None
    #: Tricks taken by each side.
    tricks: tuple[int, ...]
    #: Whether the contract was made (``None`` for a thrown-in hand).
    made: bool | None
    #: Score change of each side.
    changes: tuple[int, ...]
    #: Scores of each side after the hand.
    scores: tuple[int, ...]
    #: The five-player contractor's partner seat (P5), if any.
    partner: int | None = None
    #: True for a hand played at No Trumps after everyone passed (V-ALL-PASS).
    all_pass: bool = False


def game_result(
    contracting: Sequence[int], made: bool | None, scores: Sequence[int], rules: Rules
) -> GameResult | None:
    """Whether a scored hand ends the game (R9.1–R9.3, P-END, V-DEFENCE-WINS, V-TARGET).

    ``contracting`` lists the contracting side(s) (the contractor's, and the
    five-player partner's); ``made`` is ``None`` after an all-pass hand.

    >>> import fivehundred as fh
    >>> game_result((0,), True, (510, 20), fh.Rules())
    GameResult(winners=(0,), deciding_side=0, outcome=<Outcome.CONTRACT_MADE: 'contract_made'>)
    >>> game_result((1,), True, (520, 300), fh.Rules()) is None  # 500 on defence (R9.3)
    True

    Raises :class:`~fivehundred.FiveHundredTypeError` for arguments of the wrong type and
    :class:`~fivehundred.FiveHundredError` when the scores do not have one entry per side.
    """
    if scores is None:
        raise FiveHundredTypeError("scores is a sequence of whole numbers, not None")
    _check_types(None, contracting, rules, scores)
    if made is not None and not isinstance(made, bool):
        raise FiveHundredTypeError(f"made is True, False or None, not {made!r}")
    sides = len(rules.sides)
    if len(scores) != sides or not all(0 <= side < sides for side in contracting):
        raise FiveHundredError(
            f"scores {tuple(scores)} and sides {tuple(contracting)}: {sides} sides are needed"
        )
    from fivehundred._engine import outcome

    mask = 0
    for side in contracting:
        mask |= 1 << side
    end = outcome.game_end(
        mask,
        -1 if made is None else int(made),
        scores,
        rules.target,
        rules.losing_score,
        rules.defence_wins,
    )
    if end is None:
        return None
    return GameResult(end[1], contracting[0] if contracting else None, OUTCOMES[end[0]])


#: The outcomes by the engine core's code (``fivehundred._engine.table.game_end``).
OUTCOMES: Final = (Outcome.CONTRACT_MADE, Outcome.OUT_BACKWARDS, Outcome.TARGET_REACHED)
