"""R2 Deal: the dealer and its rotation, the 3-1-4-1-3-1 convention, randomness at the edge."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import fivehundred as fh
from helpers import deal_next, in_play, play_out, run, sweep

DECK = fh.Rules().deck

#: R2.2 convention for dealer 3: deck positions of each seat's cards and of the kitty.
SEAT_POSITIONS_DEALER_3 = {
    0: [0, 1, 2, 13, 14, 15, 16, 30, 31, 32],
    1: [3, 4, 5, 17, 18, 19, 20, 33, 34, 35],
    2: [6, 7, 8, 21, 22, 23, 24, 36, 37, 38],
    3: [9, 10, 11, 25, 26, 27, 28, 39, 40, 41],
}
KITTY_POSITIONS = [12, 29, 42]


def shuffled_deck(seed: int) -> list[fh.Card]:
    order = list(DECK)
    random.Random(seed).shuffle(order)
    return order


# -- R2.1 the dealer -------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_first_dealer_is_given_by_the_caller_R2_1(dealer: int) -> None:
    state = fh.deal(fh.new_game(dealer=dealer), seed=11)
    assert state.dealer == dealer
    assert state.to_act == (dealer + 1) % 4


def test_first_dealer_comes_from_the_seeded_source_R2_1() -> None:
    dealers = {fh.deal(fh.new_game(), seed=seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    for seed in range(5):
        first = fh.deal(fh.new_game(), seed=seed)
        again = fh.deal(fh.new_game(), seed=seed)
        assert first.dealer == again.dealer
        assert first.hands == again.hands


def test_deal_passes_clockwise_after_a_thrown_in_hand_R2_1() -> None:
    state = fh.deal(fh.new_game(dealer=2), seed=3)
    state = run(state, "pass", "pass", "pass", "pass")
    assert state.phase is fh.Phase.DEAL
    assert state.dealer == 3
    state = run(fh.deal(state, seed=4), "pass", "pass", "pass", "pass")
    assert state.dealer == 0  # wraps round from seat 3 to seat 0
    assert fh.deal(state, seed=5).to_act == 1


def test_deal_passes_clockwise_after_a_played_hand_R2_1() -> None:
    deal = sweep(0)
    state = in_play("7NT", 0, *deal)
    state = play_out(state)
    assert state.phase is fh.Phase.DEAL
    assert state.last_hand is not None and state.last_hand.dealer == 3
    assert state.dealer == 0
    state = deal_next(state, *deal)
    assert state.dealer == 0
    assert state.to_act == 1


# -- R2.2 the dealing convention ------------------------------------------------


def test_dealing_convention_for_dealer_3_R2_2() -> None:
    order = shuffled_deck(2024)
    state = fh.deal(fh.new_game(dealer=3), cards=order)
    for seat, positions in SEAT_POSITIONS_DEALER_3.items():
        assert state.hand(seat) == tuple(sorted(order[i] for i in positions)), f"seat {seat}"
    assert state.kitty == tuple(sorted(order[i] for i in KITTY_POSITIONS))


@pytest.mark.parametrize("dealer", range(4))
def test_dealing_convention_starts_left_of_any_dealer_R2_2(dealer: int) -> None:
    # The player left of the dealer gets the packets that seat 0 gets when seat 3 deals.
    order = shuffled_deck(7 + dealer)
    state = fh.deal(fh.new_game(dealer=dealer), cards=order)
    for offset in range(4):
        seat = (dealer + 1 + offset) % 4
        positions = SEAT_POSITIONS_DEALER_3[offset]
        assert state.hand(seat) == tuple(sorted(order[i] for i in positions)), f"seat {seat}"
    assert state.kitty == tuple(sorted(order[i] for i in KITTY_POSITIONS))


def test_dealing_the_deck_in_card_order_R2_2() -> None:
    # d0-9 spades 5-A, d10-19 clubs 5-A, d20-30 diamonds 4-A, d31-41 hearts 4-A, d42 Joker.
    state = fh.deal(fh.new_game(dealer=3), cards=DECK)
    assert [" ".join(str(c) for c in state.hand(seat)) for seat in range(4)] == [
        "5S 6S 7S 8C 9C 10C JC AD 4H 5H",  # d0-2, d13-16, d30-32
        "8S 9S 10S QC KC AC 4D 6H 7H 8H",  # d3-5, d17-20, d33-35
        "JS QS KS 5D 6D 7D 8D 9H 10H JH",  # d6-8, d21-24, d36-38
        "AS 5C 6C 9D 10D JD QD QH KH AH",  # d9-11, d25-28, d39-41
    ]
    assert " ".join(str(c) for c in state.kitty) == "7C KD Jo"  # d12, d29, d42


def test_everyone_holds_ten_and_the_kitty_three_R2_2() -> None:
    state = fh.deal(fh.new_game(dealer=1), seed=99)
    assert [len(state.hand(seat)) for seat in range(4)] == [10, 10, 10, 10]
    assert len(state.kitty) == 3
    assert fh.observe(state, 0).hand_sizes == (10, 10, 10, 10)


def test_kitty_is_face_down_after_the_deal_R2_2() -> None:
    state = fh.deal(fh.new_game(dealer=3), seed=5)
    for seat in range(4):
        view = fh.observe(state, seat)
        assert view.kitty is None
        assert not set(view.hand) & set(state.kitty)


# -- R2.3 randomness --------------------------------------------------------------


def test_same_seed_gives_the_same_deal_R2_3() -> None:
    first = fh.deal(fh.new_game(dealer=3), seed=42)
    second = fh.deal(fh.new_game(dealer=3), seed=42)
    assert first.hands == second.hands
    assert first.kitty == second.kitty
    assert first.deck == second.deck
    assert first == second


def test_different_seeds_give_different_deals_R2_3() -> None:
    deals = {fh.deal(fh.new_game(dealer=3), seed=seed).deck for seed in range(20)}
    assert len(deals) == 20


def test_an_injected_random_is_used_and_advanced_R2_3() -> None:
    rng = random.Random(1234)
    before = rng.getstate()
    state = fh.deal(fh.new_game(dealer=3), rng=rng)
    assert rng.getstate() != before
    # The deal is the injected source's shuffle of the deck, dealt by R2.2.
    order = [c.index for c in DECK]
    random.Random(1234).shuffle(order)
    assert [c.index for c in state.deck] == order
    # A second deal from the same source continues from where the first left off.
    second = fh.deal(fh.new_game(dealer=3), rng=rng)
    assert second.deck != state.deck


def test_same_injected_seed_gives_the_same_deal_as_seed_R2_3() -> None:
    by_rng = fh.deal(fh.new_game(dealer=0), rng=random.Random(77))
    again = fh.deal(fh.new_game(dealer=0), rng=random.Random(77))
    assert by_rng.deck == again.deck
    assert by_rng.hands == again.hands


class _Forbidden(random.Random):
    """A stand-in for the global random source that fails when read."""

    def random(self) -> float:
        raise AssertionError("the global random source was read")

    def getrandbits(self, k: int) -> int:
        raise AssertionError("the global random source was read")


@pytest.fixture
def forbidden_global_random(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    forbidden = _Forbidden()
    for name in ("random", "getrandbits", "randrange", "randint", "choice", "shuffle", "sample"):
        monkeypatch.setattr(random, name, getattr(forbidden, name))
    monkeypatch.setattr(random, "_inst", forbidden)
    yield


@pytest.fixture
def restore_global_random() -> Iterator[None]:
    saved = random.getstate()
    yield
    random.setstate(saved)


@pytest.mark.usefixtures("forbidden_global_random")
def test_deal_never_reads_the_global_random_R2_3() -> None:
    fh.deal(fh.new_game(dealer=3), seed=8)
    fh.deal(fh.new_game(), seed=8)  # the dealer too comes from the seeded source
    fh.deal(fh.new_game(dealer=2), rng=random.Random(8))
    fh.deal(fh.new_game(dealer=2), cards=DECK)


@pytest.mark.usefixtures("restore_global_random")
def test_global_random_state_does_not_change_the_deal_R2_3() -> None:
    random.seed(1)
    first = fh.deal(fh.new_game(), seed=21)
    random.seed(2)
    random.random()
    second = fh.deal(fh.new_game(), seed=21)
    assert first.dealer == second.dealer
    assert first.deck == second.deck


@pytest.mark.usefixtures("restore_global_random")
def test_dealing_does_not_advance_the_global_random_R2_3() -> None:
    random.seed(5)
    before = random.getstate()
    fh.deal(fh.new_game(), seed=3)
    fh.deal(fh.new_game(dealer=1), rng=random.Random(3))
    assert random.getstate() == before


def test_state_keeps_the_dealt_cards_R2_3() -> None:
    state = fh.deal(fh.new_game(dealer=1), seed=314)
    assert sorted(state.deck) == sorted(DECK)
    redealt = fh.deal(fh.new_game(dealer=1), cards=state.deck)
    assert redealt.hands == state.hands
    assert redealt.kitty == state.kitty
    assert redealt == state


def test_deal_takes_only_one_source_of_randomness_R2_3() -> None:
    with pytest.raises(TypeError):
        fh.deal(fh.new_game(dealer=3), seed=1, rng=random.Random(1))


def test_a_deck_order_may_be_given_in_card_notation_R2_2() -> None:
    order = [str(card) for card in fh.Rules().deck]
    by_text = fh.deal(fh.new_game(dealer=3), cards=order)
    by_cards = fh.deal(fh.new_game(dealer=3), cards=fh.Rules().deck)
    assert by_text == by_cards
    assert [str(c) for c in by_text.hand(0)[:3]] == order[:3]  # seat 0 gets d0-d2
    with pytest.raises(fh.NotationError):
        fh.deal(fh.new_game(dealer=3), cards=[*order[:-1], "1Z"])
