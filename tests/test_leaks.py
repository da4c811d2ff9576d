"""``observe`` leaks nothing: cards a seat cannot see never change its view (STYLE principle 3).

For a random reachable state under random rules and a random seat, the cards
hidden from that seat *now* are: the other seats' hands (not the open-misère
hand once exposed, R6.3), the kitty (unless the seat is the contractor looking
at it while discarding, R4.1; a sans-kitty kitty is hidden from everyone),
the discards (unless the seat is the contractor), and the two-player dead
hand (P2). Swapping cards between those places — which also moves the
five-player partner's called card, and so changes who the secret partner is
(P5) — gives another deal of the same hand. It is replayed with the same
actions (a discard of swapped cards swaps too); swaps that make an action
illegal are dropped, since then the seat could tell the deals apart from what
was played (a player who showed out of a suit holds none of it). The seat's
view, and its JSON, must be identical in both games.

One disclosure is part of the rules, not a leak: after the kitty exchange in
a No Trumps or misère contract, the nomination phase (R7.1) tells everyone
whether the contractor holds the Joker, so the Joker is not moved then.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import fivehundred as fh
from rules_strategy import GAME_STATES
from strategies import examples


def hidden_places(state: fh.GameState, seat: int) -> dict[str, tuple[fh.Card, ...]]:
    """The places whose cards ``seat`` cannot see now, with their cards."""
    contractor = state.contractor
    places = {
        f"hand {other}": state.hand(other)
        for other in range(state.rules.players)
        if other != seat and not (state.exposed and other == contractor)
    }
    if not (seat == contractor and state.phase is fh.Phase.DISCARD):
        places["kitty"] = state.kitty
    if seat != contractor:
        places["discards"] = state.discards
    places["dead hand"] = state.dead_hand
    contract = state.contract
    joker_is_public = (
        contract is not None
        and contract.is_no_trumps_family
        and state.rules.joker_nomination
        and state.phase not in (fh.Phase.BIDDING, fh.Phase.DISCARD, fh.Phase.PARTNER)
    )
    if joker_is_public:
        places = {k: tuple(c for c in v if not c.is_joker) for k, v in places.items()}
    return {k: v for k, v in places.items() if v}


def swapped(action: fh.Action, swap: dict[fh.Card, fh.Card]) -> fh.Action:
    if isinstance(action, fh.Discard):
        return fh.Discard(swap.get(card, card) for card in action.cards)
    return action


def replay_last_hand(
    start: fh.GameState, hand: fh.HandRecord, swap: dict[fh.Card, fh.Card]
) -> fh.GameState | None:
    """The last hand, dealt with ``swap`` applied; ``None`` when an action turns illegal."""
    state = fh.deal(start, cards=[swap.get(card, card) for card in hand.deck])
    for action in hand.actions:
        changed = swapped(action, swap)
        if not fh.is_legal(state, changed):
            return None
        state = fh.apply(state, changed)
    return state


def other_deal(
    state: fh.GameState, seat: int, rng: random.Random
) -> tuple[fh.GameState, int] | None:
    """A state reached by the same public play with hidden cards swapped, and the swap count."""
    game = fh.record(state)
    if not game.hands:
        return None
    places = hidden_places(state, seat)
    if len(places) < 2:
        return None
    start = fh.replay(fh.GameRecord(game.rules, game.dealer, game.hands[:-1]))
    if start.dealer is None:
        start = fh.new_game(game.rules, dealer=game.hands[-1].dealer)
    hand = game.hands[-1]
    swap: dict[fh.Card, fh.Card] = {}
    result, swaps = None, 0
    names = sorted(places)
    for _ in range(6):
        first, second = rng.sample(names, 2)
        a, b = rng.choice(places[first]), rng.choice(places[second])
        trial = dict(swap)
        trial[a], trial[b] = swap.get(b, b), swap.get(a, a)
        other = replay_last_hand(start, hand, trial)
        if other is not None:
            swap, result, swaps = trial, other, swaps + 1
    return (result, swaps) if result is not None else None


@settings(max_examples=examples(120), deadline=None)
@given(state=GAME_STATES, data=st.data())
def test_cards_a_seat_cannot_see_never_change_its_view(
    state: fh.GameState, data: st.DataObject
) -> None:
    seat = data.draw(st.integers(min_value=0, max_value=state.rules.players - 1), label="seat")
    rng = random.Random(data.draw(st.integers(min_value=0, max_value=2**32), label="swap seed"))
    found = other_deal(state, seat, rng)
    if found is None:
        return
    other, _ = found
    assert other.hand(seat) == state.hand(seat)
    assert fh.observe(other, seat) == fh.observe(state, seat)
    assert fh.view_to_json(fh.observe(other, seat)) == fh.view_to_json(fh.observe(state, seat))


def test_the_swaps_really_change_hidden_cards() -> None:
    """The check above has teeth: the swapped games differ, and other seats see it."""
    rules = fh.Rules(players=5)
    state = fh.deal(fh.new_game(rules, dealer=0), seed=3)
    found = other_deal(state, 0, random.Random(1))
    assert found is not None
    other, swaps = found
    assert swaps > 0
    assert other != state
    assert fh.observe(other, 0) == fh.observe(state, 0)
    assert any(fh.observe(other, s) != fh.observe(state, s) for s in range(1, 5))


def test_the_secret_partner_changes_unseen_P5() -> None:
    """Moving the called card to another hidden hand changes the partner, not the view."""
    rules = fh.Rules(players=5)
    rng = random.Random(4)
    for seed in range(200):
        state = fh.deal(fh.new_game(rules, dealer=0), seed=seed)
        state = fh.apply(state, fh.parse_call("6S"))
        while state.phase is fh.Phase.BIDDING:
            state = fh.apply(state, fh.PASS)
        seat = state.contractor
        assert seat is not None
        state = fh.apply(state, fh.legal_actions(state)[0])  # a discard
        state = fh.apply(state, fh.legal_actions(state)[-1])  # call a partner
        if state.partner is None:
            continue
        outsider = next(s for s in range(5) if s not in (seat, state.partner))
        for _ in range(20):
            found = other_deal(state, outsider, rng)
            if found is not None and found[0].partner != state.partner:
                assert fh.observe(found[0], outsider) == fh.observe(state, outsider)
                return
    raise AssertionError("no deal moved the partner")
