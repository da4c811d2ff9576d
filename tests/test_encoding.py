"""The integer action encoding: a bijection per Rules, stable, and masks that match the rules."""

from __future__ import annotations

import itertools
import random
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fivehundred as fh
from fivehundred.ai.encoding import (
    NUM_ACTIONS,
    action_layout,
    decode_action,
    encode_action,
    legal_action_indices,
    legal_action_mask,
    num_actions,
)
from rules_strategy import GAME_STATES, play, random_rules, rules_from
from strategies import examples


@settings(max_examples=examples(80), deadline=None)
@given(state=GAME_STATES)
def test_every_legal_action_decodes_back_and_the_mask_matches(state: fh.GameState) -> None:
    rules = state.rules
    legal = fh.legal_actions(state)
    indices = [encode_action(action, rules) for action in legal]
    assert len(set(indices)) == len(indices)
    for action, index in zip(legal, indices, strict=True):
        assert decode_action(index, rules) == action
    assert legal_action_indices(state) == tuple(sorted(indices))
    mask = legal_action_mask(state)
    assert len(mask) == num_actions(rules)
    assert [i for i, legal_now in enumerate(mask) if legal_now] == sorted(indices)


@settings(max_examples=examples(100), deadline=None)
@given(rules=random_rules(), data=st.data())
def test_the_encoding_is_a_bijection_under_any_rules(rules: fh.Rules, data: st.DataObject) -> None:
    layout = action_layout(rules)
    size = num_actions(rules)
    assert size == layout.size
    assert layout.discards.stop == size
    assert len(layout.discards) == comb(len(rules.deck), rules.kitty_size)
    small = range(layout.discards.start)
    for index in small:  # every call, play, nomination and partner call
        assert encode_action(decode_action(index, rules), rules) == index
    for _ in range(50):  # a sample of the discards
        index = data.draw(st.integers(min_value=layout.discards.start, max_value=size - 1))
        action = decode_action(index, rules)
        assert isinstance(action, fh.Discard)
        assert len(set(action.cards)) == rules.kitty_size
        assert encode_action(action, rules) == index


def test_every_index_of_the_default_rules_round_trips() -> None:
    rules = fh.Rules()
    seen = set()
    for index in range(NUM_ACTIONS):
        action = decode_action(index, rules)
        assert encode_action(action, rules) == index
        seen.add(action)
    assert len(seen) == NUM_ACTIONS


def test_the_default_layout_is_frozen() -> None:
    """The numbers below are part of the documented encoding: changing them breaks users."""
    rules = fh.Rules()
    assert NUM_ACTIONS == 12422 == 29 + 47 + 5 + 12341
    expected: dict[fh.Action, int] = {
        fh.PASS: 0,
        fh.parse_call("6S"): 1,
        fh.parse_call("7NT"): 10,
        fh.MISERE: 11,
        fh.OPEN_MISERE: 25,
        fh.BLIND_MISERE: 26,
        fh.parse_call("10H"): 27,
        fh.parse_call("10NT"): 28,
        fh.Play(fh.parse_card("5S")): 29,
        fh.Play(fh.JOKER): 71,
        fh.Play(fh.JOKER, fh.Suit.SPADES): 72,
        fh.Nominate(fh.Suit.SPADES): 76,
        fh.DECLINE: 80,
        fh.Discard(fh.parse_cards("5S 6S 7S")): 81,
        fh.Discard(fh.parse_cards("5S 6S 8S")): 82,
        fh.Discard(fh.parse_cards("KH AH Jo")): 12421,
    }
    for action, index in expected.items():
        assert encode_action(action, rules) == index, action
        assert decode_action(index, rules) == action


def test_sizes_of_other_tables() -> None:
    assert num_actions(fh.Rules(sans_kitty=True)) == 12422 + 28
    assert num_actions(fh.Rules(players=5)) == 29 + 57 + 5 + 52 + comb(53, 3)
    assert num_actions(fh.Rules(players=5, partner_by_seat=True)) == 29 + 57 + 5 + 5 + comb(53, 3)
    assert num_actions(fh.Rules(black_fours=True)) == 29 + 49 + 5 + comb(45, 5)
    assert num_actions(fh.Rules(joker_nomination=False)) == 12422 - 5
    assert num_actions(fh.Rules(misere=False)) == 12422 - 3


def test_the_mask_is_empty_between_hands() -> None:
    state = fh.new_game(dealer=0)
    assert legal_action_indices(state) == ()
    assert not any(legal_action_mask(state))


def test_a_large_discard_space_round_trips() -> None:
    rules = fh.Rules(black_fours=True)
    layout = action_layout(rules)
    rng = random.Random(5)
    for _ in range(200):
        cards = rng.sample(rules.deck, 5)
        action = fh.Discard(cards)
        index = encode_action(action, rules)
        assert index in layout.discards
        assert decode_action(index, rules) == action


@pytest.mark.parametrize(
    "action",
    [
        fh.parse_call("7H-SK"),  # sans kitty is off by default
        fh.Play(fh.parse_card("2S")),  # not in the 43-card deck
        fh.Play(fh.parse_card("KS"), fh.Suit.HEARTS),  # only the Joker names a suit
        fh.Discard(fh.parse_cards("5S 6S")),
        fh.Discard(fh.parse_cards("5S 5S 6S")),
        fh.CallPartner(seat=1),  # four players call no partner
        "7H",
        None,
    ],
)
def test_actions_outside_the_space_are_refused(action: object) -> None:
    with pytest.raises(fh.IllegalActionError) as caught:
        encode_action(action, fh.Rules())  # type: ignore[arg-type]
    assert caught.value.reason is fh.Reason.NOT_AN_ACTION


def test_nominations_are_outside_the_space_without_them_V_NO_NOMINATION() -> None:
    with pytest.raises(fh.IllegalActionError):
        encode_action(fh.DECLINE, fh.Rules(joker_nomination=False))


@pytest.mark.parametrize("index", [-1, NUM_ACTIONS, 2**80, True, 1.0, "3", None])
def test_bad_indices_are_refused(index: object) -> None:
    with pytest.raises(fh.IllegalActionError) as caught:
        decode_action(index, fh.Rules())  # type: ignore[call-overload]
    assert caught.value.reason is fh.Reason.NOT_AN_ACTION


def test_bad_rules_are_refused() -> None:
    with pytest.raises(fh.IllegalActionError):
        num_actions("rules")  # type: ignore[arg-type]


# -- the kitty phase: indices computed from the pool, never from 286 (or 3,003) discards --


def kitty_states(rules: fh.Rules, count: int, seed: int = 0) -> list[fh.GameState]:
    """``count`` reachable DISCARD states under ``rules``, from seeded games."""
    found: list[fh.GameState] = []
    for game in range(seed, seed + 1000):
        if len(found) >= count:
            return found[:count]
        found.extend(s for s in play(rules, game) if s.phase is fh.Phase.DISCARD)
    raise AssertionError(f"fewer than {count} kitty states in 1000 games under {rules!r}")


def enumerated_indices(state: fh.GameState) -> tuple[int, ...]:
    """The slow definition: encode every legal action and sort."""
    return tuple(sorted(encode_action(action, state.rules) for action in fh.legal_actions(state)))


KITTY_TABLES = {
    "default": fh.Rules(),
    "V-45": fh.Rules(black_fours=True),
    "five players": fh.Rules(players=5),
    "six players": fh.Rules(players=6),
}


@pytest.mark.parametrize("name", KITTY_TABLES)
def test_kitty_indices_equal_the_enumeration_R4_1(name: str) -> None:
    rules = KITTY_TABLES[name]
    count = 12 if rules.black_fours else 40
    for state in kitty_states(rules, count):
        seat = state.contractor
        assert seat is not None
        pool = len(state.hand(seat)) + len(state.kitty)
        indices = legal_action_indices(state)
        assert len(indices) == comb(pool, rules.kitty_size)
        assert indices == enumerated_indices(state)
        assert list(indices) == sorted(set(indices))  # ascending, no repeats
        layout = action_layout(rules)
        assert all(index in layout.discards for index in indices)


@pytest.mark.parametrize("name", ["default", "five players"])
def test_kitty_mask_equals_the_enumeration_R4_1(name: str) -> None:
    rules = KITTY_TABLES[name]
    for state in kitty_states(rules, 5, seed=100):
        expected = set(enumerated_indices(state))
        mask = legal_action_mask(state)
        assert len(mask) == num_actions(rules)
        assert {i for i, legal_now in enumerate(mask) if legal_now} == expected


def test_kitty_indices_under_random_rules_R4_1() -> None:
    rng = random.Random(9)
    checked = 0
    for _ in range(25):
        rules = rules_from(rng)
        for state in kitty_states(rules, 2, seed=rng.randrange(2**32)):
            assert legal_action_indices(state) == enumerated_indices(state), rules
            checked += 1
    assert checked == 50


def test_kitty_indices_decode_to_the_pool_R4_1() -> None:
    (state,) = kitty_states(fh.Rules(), 1, seed=3)
    seat = state.contractor
    assert seat is not None
    pool = {*state.hand(seat), *state.kitty}
    discards = [decode_action(i, state.rules) for i in legal_action_indices(state)]
    assert all(isinstance(d, fh.Discard) and set(d.cards) <= pool for d in discards)
    assert len(set(discards)) == 286 == len(discards)
    for discard in discards:  # each is legal and the exchange goes on
        assert fh.is_legal(state, discard)


def test_indices_of_sans_kitty_calls_are_found_by_value_V_SANS_KITTY() -> None:
    """Calls the layout never built (the sans-kitty forms) are looked up by value."""
    rules = fh.Rules(sans_kitty=True)
    state = fh.deal(fh.new_game(rules, dealer=0), seed=4)
    for _ in range(2):  # the second time they are known by identity
        indices = legal_action_indices(state)
        assert indices == enumerated_indices(state)
        assert len(indices) == len(fh.legal_actions(state))


@pytest.mark.parametrize("rules", [fh.Rules(), fh.Rules(black_fours=True)], ids=["default", "V-45"])
def test_masks_outside_the_kitty_equal_the_enumeration(rules: fh.Rules) -> None:
    """Bidding, nomination and play masks (the all-False discard block is shared)."""
    phases = set()
    count = 40 if rules.black_fours else 120  # a V-45 mask has 1,221,842 entries
    for state in itertools.islice(play(rules, seed=11), count):
        if state.phase is fh.Phase.DISCARD:
            continue
        expected = enumerated_indices(state)
        assert legal_action_indices(state) == expected
        mask = legal_action_mask(state)
        assert len(mask) == num_actions(rules)
        assert tuple(i for i, legal_now in enumerate(mask) if legal_now) == expected
        phases.add(state.phase)
    assert {fh.Phase.BIDDING, fh.Phase.PLAY} <= phases
