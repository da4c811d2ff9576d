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

The Joker nomination (R4.3, R7.1) is silent unless a suit is named: every No
Trumps and misère contract passes through the same nomination step, where a
contractor without the Joker can only make no nomination. Only a nominated
Joker is known to be the contractor's, so only then is it kept in place. The
twin-deal tests below prove the silence directly: two deals that differ only
by where the Joker lies (the contractor's hand or not) give every other seat
the same views, view JSON, turns, phases, action history, action encodings and
legal masks, step by step, until the Joker (or the card it changed places
with) is played.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fivehundred as fh
from fivehundred.ai.encoding import encode_action, legal_action_indices, legal_action_mask
from fivehundred.bots import Player
from rules_strategy import GAME_STATES
from strategies import examples
from variant_helpers import auction


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
    if state.joker_suit is not None:  # a nominated Joker is the contractor's, publicly (R7.1)
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
    assert fh.to_json(fh.observe(other, seat)) == fh.to_json(fh.observe(state, seat))


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


# -- the silent nomination (R4.3, R7.1) ----------------------------------------------------

#: Tables and options under which No Trumps and misère are played.
NT_TABLES: Final = {
    "default": fh.Rules(),
    "two": fh.Rules(players=2),
    "three": fh.Rules(players=3),
    "five": fh.Rules(players=5),
    "five-by-seat": fh.Rules(players=5, partner_by_seat=True),
    "six": fh.Rules(players=6),
    "sans-kitty": fh.Rules(sans_kitty=True),
    "no-nomination": fh.Rules(joker_nomination=False),
    "misere-anytime-playout-eldest": fh.Rules(
        misere_needs_seven=False, misere_playout=True, eldest_leads=True
    ),
}
NT_CONTRACTS: Final = ("6NT", "7NT", "8NT", "10NT", "M", "OM", "BM", "7NT-SK", "10NT-SK")


def nt_contracts(rules: fh.Rules) -> list[fh.Call]:
    """The No Trumps and misère contracts that ``rules`` allow."""
    calls = [fh.parse_call(text) for text in NT_CONTRACTS]
    return [c for c in calls if c in rules.ladder and (rules.sans_kitty or not c.sans_kitty)]


def place_of_joker(state: fh.GameState) -> str:
    for seat in range(state.rules.players):
        if fh.JOKER in state.hand(seat):
            return f"hand {seat}"
    return "kitty" if fh.JOKER in state.kitty else "dead hand"


def twin_deck(
    dealt: fh.GameState, contractor: int, rng: random.Random
) -> tuple[list[fh.Card], fh.Card, int | None] | None:
    """The deck of ``dealt`` with the Joker changed places with one hidden card.

    If the contractor was dealt the Joker, it changes places with a card of
    another hand, the kitty or the dead hand; otherwise with a card of the
    contractor's hand. Returns the deck, that card, and the other seat whose
    hand changed (``None`` when it was the kitty or the dead hand); ``None`` when
    no seat would be left to watch (two players, the Joker in the other hand).
    """
    where = place_of_joker(dealt)
    others: list[tuple[fh.Card, int | None]]
    if where == f"hand {contractor}":
        others = [
            (card, seat)
            for seat in range(dealt.rules.players)
            if seat != contractor
            for card in dealt.hand(seat)
        ]
        others += [(card, None) for card in (*dealt.kitty, *dealt.dead_hand)]
    else:
        owner = int(where.split()[1]) if where.startswith("hand") else None
        others = [(card, owner) for card in dealt.hand(contractor)]
    players = dealt.rules.players
    others = [(card, seat) for card, seat in others if players - (seat is not None) > 1]
    if not others:
        return None
    swap, owner = rng.choice(others)
    table = {fh.JOKER: swap, swap: fh.JOKER}
    return [table.get(card, card) for card in dealt.deck], swap, owner


def public_actions(state: fh.GameState) -> list[int]:
    """The encodings of the hand's actions that every seat sees (all but the discard)."""
    return [
        encode_action(action, state.rules)
        for action in state.actions
        if not isinstance(action, fh.Discard)
    ]


def assert_same_for(a: fh.GameState, b: fh.GameState, watchers: list[int]) -> None:
    """Everything ``watchers`` can see is the same in ``a`` and ``b``."""
    assert (a.phase, a.to_act) == (b.phase, b.to_act)
    assert len(a.actions) == len(b.actions)  # the same decisions, in the same order
    assert public_actions(a) == public_actions(b)
    for seat in watchers:
        seen, other = fh.observe(a, seat), fh.observe(b, seat)
        assert seen == other, f"seat {seat} tells the deals apart in {a.phase}"
        assert fh.to_json(seen) == fh.to_json(other)
    if a.to_act in watchers:
        assert legal_action_indices(a) == legal_action_indices(b)
        assert legal_action_mask(a) == legal_action_mask(b)


def twin_hands(
    rules: fh.Rules, contract: fh.Call, contractor: int, seed: int, rng: random.Random
) -> tuple[int, bool] | None:
    """Play one hand on a deal and on its twin (the Joker moved), comparing at every step.

    Both contractors discard their own kitty (so the hands stay as dealt) and make
    no nomination; every other action is one legal in both games, never the Joker
    or the card it changed places with. Stops when either is about to be played, once
    an open misère hand is exposed (R6.3: the contractor's cards differ), or at the
    end of the hand. Returns the number of states compared and whether the
    nomination step was compared with exactly one contractor holding the Joker
    (``None`` when this deal has no twin for this contractor).
    """
    dealer = seed % rules.players
    a = fh.deal(fh.new_game(rules, dealer=dealer), seed=seed)
    twin = twin_deck(a, contractor, rng)
    if twin is None:
        return None
    deck, swap, owner = twin
    b = fh.deal(fh.new_game(rules, dealer=dealer), cards=deck)
    watchers = [s for s in range(rules.players) if s not in (contractor, owner)]
    assert watchers and a != b
    assert_same_for(a, b, watchers)
    compared, nomination = 1, False
    for call in auction(rules, dealer, contractor, contract):
        a, b = fh.apply(a, call), fh.apply(b, call)
        assert_same_for(a, b, watchers)
        compared += 1
    assert a.contract == contract and a.contractor == contractor
    hidden = {fh.JOKER, swap}
    while a.phase in (fh.Phase.DISCARD, fh.Phase.PARTNER, fh.Phase.NOMINATE, fh.Phase.PLAY):
        if a.phase is fh.Phase.NOMINATE:
            held = [fh.JOKER in s.hand(contractor) for s in (a, b)]
            assert sorted(held) == [False, True]  # one contractor kept the Joker
            assert sorted(len(fh.legal_actions(s)) for s in (a, b)) == [1, 5]  # R7.1
            nomination = True
        if a.phase is fh.Phase.DISCARD:
            step_a: fh.Action = fh.Discard(a.kitty)
            step_b: fh.Action = fh.Discard(b.kitty)
        else:
            common = [
                x
                for x in fh.legal_actions(a)
                if fh.is_legal(b, x) and not (isinstance(x, fh.Play) and x.card in hidden)
            ]
            if not common:
                break
            step_a = step_b = rng.choice(common)
        a, b = fh.apply(a, step_a), fh.apply(b, step_b)
        if a.exposed:  # the open misère hand is face up: its Joker is seen (R6.3)
            break
        assert_same_for(a, b, watchers)
        compared += 1
    return compared, nomination


def check_twin_hands(rules: fh.Rules, contract: fh.Call, seed: int, rng: random.Random) -> int:
    seats = list(range(rules.players))
    rng.shuffle(seats)
    for contractor in seats:
        found = twin_hands(rules, contract, contractor, seed, rng)
        if found is not None:
            compared, nomination = found
            assert nomination == rules.joker_nomination  # every NT-family contract has it
            return compared
    raise AssertionError("no contractor has a twin deal")  # pragma: no cover


@pytest.mark.parametrize("table", NT_TABLES)
def test_no_other_seat_can_tell_whether_the_contractor_kept_the_joker_R4_3_R7_1(
    table: str,
) -> None:
    """Every NT-family contract of every table, on a few deals: the nomination is silent."""
    rules = NT_TABLES[table]
    rng = random.Random(rules.players)
    compared = 0
    for contract in nt_contracts(rules):
        for seed in range(3):
            compared += check_twin_hands(rules, contract, seed, rng)
    assert compared > 10 * len(nt_contracts(rules))  # the hands went well into play


@settings(max_examples=examples(60), deadline=None)
@given(
    rules=st.sampled_from(list(NT_TABLES.values())),
    data=st.data(),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_the_nomination_reveals_nothing_on_random_hands_R4_3_R7_1(
    rules: fh.Rules, data: st.DataObject, seed: int
) -> None:
    contract = data.draw(st.sampled_from(nt_contracts(rules)), label="contract")
    rng = random.Random(data.draw(st.integers(min_value=0, max_value=2**32), label="rng"))
    assert check_twin_hands(rules, contract, seed, rng) >= 2


def test_the_twins_really_differ_for_the_contractor_R7_1() -> None:
    """The comparison has teeth: the seat whose hand changed does see the difference."""
    rules = fh.Rules()
    a = fh.deal(fh.new_game(rules, dealer=3), seed=11)
    contractor = 0
    twin = twin_deck(a, contractor, random.Random(2))
    assert twin is not None
    deck, swap, owner = twin
    b = fh.deal(fh.new_game(rules, dealer=3), cards=deck)
    for call in auction(rules, 3, contractor, "8NT"):
        a, b = fh.apply(a, call), fh.apply(b, call)
    a, b = fh.apply(a, fh.Discard(a.kitty)), fh.apply(b, fh.Discard(b.kitty))
    assert a.phase is b.phase is fh.Phase.NOMINATE
    assert fh.observe(a, contractor) != fh.observe(b, contractor)
    assert fh.legal_actions(a) != fh.legal_actions(b)
    if owner is not None:
        assert fh.observe(a, owner) != fh.observe(b, owner)
    outsiders = [s for s in range(4) if s not in (contractor, owner)]
    assert all(fh.observe(a, s) == fh.observe(b, s) for s in outsiders)
    assert swap != fh.JOKER


def swapped_choices_agree(
    state: fh.GameState, rng: random.Random, player: Callable[[random.Random], Player], seed: int
) -> bool | None:
    """Whether two new players (``player`` on a source seeded ``seed``) choose alike for
    the seat to act, one in ``state`` and one with cards it cannot see swapped; None
    when nothing can be swapped."""
    seat = state.to_act
    assert seat is not None
    found = other_deal(state, seat, rng)
    if found is None:
        return None
    other, _ = found
    mine = player(random.Random(seed)).choose(fh.observe(state, seat))
    return mine == player(random.Random(seed)).choose(fh.observe(other, seat))


def test_the_pimc_player_decides_from_its_view_only_R5() -> None:
    """Swapping cards the seat cannot see leaves the PIMC player's choices alone."""
    from fivehundred.bots import HeuristicPlayer
    from fivehundred.bots.pimc import PIMCPlayer

    rng = random.Random(7)
    checked = 0
    for seed in range(30):
        state = fh.deal(fh.new_game(dealer=seed % 4), seed=seed)
        bot = HeuristicPlayer(random.Random(seed))
        while state.phase in (fh.Phase.BIDDING, fh.Phase.DISCARD, fh.Phase.NOMINATE) or (
            state.phase is fh.Phase.PLAY and len(state.hand(state.to_act or 0)) > 3
        ):
            assert state.to_act is not None
            state = fh.apply(state, bot.choose(fh.observe(state, state.to_act)))
        if state.phase is not fh.Phase.PLAY or state.to_act is None:
            continue
        agree = swapped_choices_agree(state, rng, lambda r: PIMCPlayer(r, 3), seed)
        if agree is None:
            continue
        assert agree
        checked += 1
    assert checked >= 10


def test_the_pimc_auction_and_early_play_depend_on_its_view_only_R3_R5(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The play-outs the PIMC player bids by (and plays the first tricks by under a
    ``solve_tricks``) see only the view: hidden cards swapped, the choice stays. Its
    misère check (on here) solves deals sampled from the view: a stand-in solver whose verdict
    depends on every sampled hand would tell a leak of the real hands."""
    from fivehundred.bots import HeuristicPlayer, pimc
    from fivehundred.bots.pimc import PIMCPlayer

    class Verdict:
        def __init__(self, state: fh.GameState) -> None:
            self.tricks = 0
            self.forced = hash(state.hands) % 3 == 0

    monkeypatch.setattr(pimc, "solve", lambda state, *args, **kwargs: Verdict(state))
    rng = random.Random(11)
    checked = {fh.Phase.BIDDING: 0, fh.Phase.PLAY: 0}
    for seed in range(30):
        state = fh.deal(fh.new_game(dealer=seed % 4), seed=seed)
        bot = HeuristicPlayer(random.Random(seed))
        stop = fh.Phase.BIDDING if seed % 2 else fh.Phase.PLAY
        for _ in range(seed % 3 + (0 if stop is fh.Phase.BIDDING else 6)):
            if state.to_act is None or state.phase not in (stop, *PRE_PLAY):
                break
            state = fh.apply(state, bot.choose(fh.observe(state, state.to_act)))
        if state.phase is not stop or state.to_act is None:
            continue
        agree = swapped_choices_agree(
            state, rng, lambda r: PIMCPlayer(r, playouts=4, solve_tricks=1, misere_risk=0.5), seed
        )
        if agree is None:
            continue
        assert agree
        checked[stop] += 1
    assert min(checked.values()) >= 4, checked


#: The phases before card play that the heuristic player is let play through.
PRE_PLAY = (fh.Phase.BIDDING, fh.Phase.DISCARD, fh.Phase.NOMINATE, fh.Phase.PARTNER)


def test_the_pimc_kitty_choice_depends_on_its_view_only_R4(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At the discard, the solved samples come from the view: a stand-in solver whose
    answer depends on every sampled hand would tell a leak of the real hands."""
    from fivehundred.bots import HeuristicPlayer, pimc
    from fivehundred.bots.pimc import PIMCPlayer

    class Result:
        def __init__(self, state: fh.GameState) -> None:
            self.tricks = hash(state.hands) % 11
            self.forced = None

    monkeypatch.setattr(pimc, "solve", lambda state, *args, **kwargs: Result(state))
    rng = random.Random(3)
    checked = 0
    for seed in range(40):
        state = fh.deal(fh.new_game(dealer=seed % 4), seed=seed)
        bot = HeuristicPlayer(random.Random(seed))
        while state.phase is fh.Phase.BIDDING:
            assert state.to_act is not None
            state = fh.apply(state, bot.choose(fh.observe(state, state.to_act)))
        contract = state.contract
        if state.phase is not fh.Phase.DISCARD or contract is None or contract.is_misere:
            continue
        seat = state.to_act
        assert seat is not None
        found = other_deal(state, seat, rng)
        if found is None:
            continue
        other, _ = found
        player = PIMCPlayer(random.Random(seed), samples=3, discards=4)
        mine = player.choose(fh.observe(state, seat))
        again = PIMCPlayer(random.Random(seed), samples=3, discards=4)
        assert mine == again.choose(fh.observe(other, seat))
        checked += 1
    assert checked >= 5
