"""R6 Contract outcome (made or failed) and the exposure of the open-misère hand."""

from __future__ import annotations

import pytest

import fivehundred as fh
from helpers import (
    BOWERS,
    JOKER_VOID,
    MISERE_JOKER,
    dealt,
    hand_of,
    in_play,
    play_out,
    run,
    sweep,
    words,
)

# -- R6.1 trick contracts ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("tricks", "changes"),
    [
        ((7, 3), (200, 30)),  # exactly the tricks bid
        ((9, 1), (200, 10)),  # more than bid
        ((6, 4), (-200, 40)),  # one short
        ((0, 10), (-200, 100)),
    ],
)
def test_trick_contract_is_made_with_at_least_the_tricks_bid_R6_1(
    tricks: tuple[int, int], changes: tuple[int, int]
) -> None:
    assert fh.score_hand(fh.parse_call("7H"), 0, tricks) == changes


def test_partners_tricks_count_for_the_contract_R6_1() -> None:
    # 7H by seat 0; seat 2 (its partner) wins trick 4 with the Joker.
    state = in_play("7H", 0, *BOWERS)
    state = run(
        state,
        *words(
            "JH JD 7H 4H",  # seat 0 wins: the right bower over the left
            "AH 5S 8H 5H",
            "KH 6S QH 6H",
            "10H 7S Jo 4D",  # seat 2 must play its last trump, the Joker, and wins
            "9C KC AC 5C",  # seat 2 leads; seat 0 wins with AC
            "AS 8S 10C QC",
            "KS 9S JC 5D",
            "AD 6C 9D 6D",
            "KD 7C 10D 7D",
            "9H 8C QD 8D",
        ),
    )
    assert state.phase is fh.Phase.DEAL
    result = state.last_hand
    assert result is not None
    assert result.contract == fh.parse_call("7H")
    assert result.contractor == 0
    assert result.tricks == (10, 0)
    assert result.made is True
    assert state.scores == (250, 0)  # all ten tricks on a 200 contract: a slam (R8.2)


def test_trick_contract_made_in_play_R6_1() -> None:
    state = play_out(in_play("7NT", 0, *sweep(0)))
    assert state.last_hand is not None
    assert state.last_hand.made is True
    assert state.last_hand.tricks == (10, 0)


def test_trick_contract_failed_in_play_R6_1() -> None:
    state = play_out(in_play("6NT", 0, *sweep(1)))
    assert state.last_hand is not None
    assert state.last_hand.made is False
    assert state.last_hand.tricks == (0, 10)
    assert state.last_hand.changes == (-120, 100)


# -- R6.2 misère contracts ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "tricks", "changes"),
    [
        ("M", (0, 10), (250, 0)),
        ("M", (1, 5), (-250, 0)),
        ("OM", (0, 10), (500, 0)),
        ("OM", (1, 0), (-500, 0)),
        ("BM", (0, 10), (500, 0)),
        ("BM", (1, 3), (-500, 0)),
    ],
)
def test_misere_is_made_when_the_contractor_takes_no_trick_R6_2(
    contract: str, tricks: tuple[int, int], changes: tuple[int, int]
) -> None:
    assert fh.score_hand(fh.parse_call(contract), 0, tricks) == changes
    flipped = (tricks[1], tricks[0])
    assert fh.score_hand(fh.parse_call(contract), 1, flipped) == (changes[1], changes[0])


def test_misere_made_in_play_R6_2() -> None:
    state = play_out(in_play("M", 0, *sweep(1)))
    assert state.last_hand is not None
    assert state.last_hand.made is True
    assert state.last_hand.tricks == (0, 10)
    assert state.scores == (250, 0)


def test_misere_failed_in_play_R6_2() -> None:
    state = run(in_play("M", 0, *MISERE_JOKER), "4D", "AD", "4H", "AH", "5H", "Jo")
    assert state.last_hand is not None
    assert state.last_hand.made is False
    assert state.scores == (-250, 0)


# -- R6.3 the open-misère hand is exposed after trick 1 ------------------------------------


def _exposed(state: fh.GameState) -> list[tuple[fh.Card, ...] | None]:
    return [fh.observe(state, seat).exposed_hand for seat in range(4)]


def test_open_misere_hand_hidden_until_trick_one_is_complete_R6_3() -> None:
    state = run(dealt(*JOKER_VOID), "OM", "pass")
    assert _exposed(state) == [None] * 4
    state = run(state, "pass", "pass")
    assert state.phase is fh.Phase.DISCARD
    assert _exposed(state) == [None] * 4
    state = run(state, "discard 7H 6H 5H")
    assert state.phase is fh.Phase.NOMINATE  # R4.3: the nomination step, silent (R7.1)
    assert _exposed(state) == [None] * 4
    state = run(state, "decline")
    assert state.phase is fh.Phase.PLAY
    for text in ("5S", "Jo"):
        assert _exposed(state) == [None] * 4
        assert not state.exposed
        state = run(state, text)
    assert _exposed(state) == [None] * 4
    for seat in (1, 2, 3):
        assert not set(fh.observe(state, seat).hand) & set(state.hand(0))


def test_open_misere_hand_visible_to_every_seat_after_trick_one_R6_3() -> None:
    state = run(in_play("OM", 0, *JOKER_VOID), "5S", "Jo", "JS")
    assert len(state.tricks) == 1
    assert state.exposed
    remaining = hand_of("6S 7S 5C 6C 7C 4D 5D 6D 4H")
    assert _exposed(state) == [remaining] * 4  # the sitting-out partner too
    state = run(state, "AH", "10D", "4H")  # the exposed hand follows the play
    assert _exposed(state) == [hand_of("6S 7S 5C 6C 7C 4D 5D 6D")] * 4


@pytest.mark.parametrize("contract", ["M", "BM", "7NT"])
def test_other_contracts_never_expose_the_hand_R6_3(contract: str) -> None:
    state = in_play(contract, 0, *JOKER_VOID)
    state = run(state, "5S", "Jo")
    if contract == "7NT":
        state = run(state, "8S")
    state = run(state, "JS")
    assert len(state.tricks) == 1
    assert _exposed(state) == [None] * 4
