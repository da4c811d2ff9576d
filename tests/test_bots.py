"""Computer players: legal actions only, no peeking at hidden cards, sound heuristics.

The legality sweep plays seeded games under random ``Rules`` (every player count
and option) and asks every player type for a decision at thousands of states.
The hidden-card tests build pairs of states that one seat cannot tell apart —
by swapping unseen cards between other hands, or by sampling a whole new
consistent deal — and check each player decides the same given the same seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

import fivehundred as fh
from fivehundred.bots import (
    HeuristicPlayer,
    Player,
    RandomPlayer,
    SearchPlayer,
    choose_bid,
    discard_value,
    misere_danger,
    ranked_discards,
    read_view,
    trick_estimate,
)
from fivehundred.cards import mask_of
from helpers import after_auction, dealt, in_play, run

# -- scenarios ---------------------------------------------------------------------------

#: Seat 0 holds every top trump in hearts; seat 3 the low hearts; seats 1 and 2 no hearts.
TRUMPS = (
    "Jo JH JD AH KH 10H AS AC 5D 6S",
    "5S 7S 8S 9S 10S 5C 6C 7C 8C 9C",
    "JS QS KS 10C JC QC KC 4D 6D 7D",
    "8D 9D 10D QD KD AD 4H 5H 6H 7H",
)
TRUMPS_KITTY = "8H 9H QH"
#: Seat 1 holds a hand of low cards, made for misère.
LOW = (
    "AS KS QS JS AC KC QC JC AD KD",
    "5S 6S 7S 5C 6C 4D 5D 4H 5H 6H",
    "8S 9S 10S 7C 8C 9C 6D 7D 8D 9D",
    "Jo QD JD 10D AH KH QH JH 10H 9H",
)
LOW_KITTY = "10C 8H 7H"
#: Seat 0 holds the Joker and the ace and king of every suit: No Trumps for it (R7.1, R7.2).
JOKER_ACES = (
    "Jo AS KS AC KC AD KD AH KH QH",
    "5S 6S 7S 5C 6C 7C 4D 5D 6D 4H",
    "8S 9S 10S 8C 9C 10C 7D 8D 9D 5H",
    "JS QS JC QC 10D JD QD 6H 7H 8H",
)
JOKER_ACES_KITTY = "9H 10H JH"


def joker_no_trumps() -> fh.GameState:
    """Seat 0 has won the auction at 6NT with :data:`JOKER_ACES`: phase DISCARD."""
    return after_auction("6NT", 0, JOKER_ACES, JOKER_ACES_KITTY)


_OPTIONS = (
    "misere",
    "misere_needs_seven",
    "misere_by_value",
    "open_misere_top",
    "blind_misere",
    "sans_kitty",
    "all_pass_no_trumps",
    "joker_lead_last",
    "joker_name_any",
    "joker_nomination",
    "open_before_lead",
    "eldest_leads",
    "slam_bonus",
    "defence_wins",
    "misere_playout",
    "same_dealer",
)


def random_rules(rng: random.Random) -> fh.Rules:
    """Any valid ``Rules``: every player count and team size, every variant flag."""
    players = rng.choice((2, 3, 4, 4, 4, 5, 6))
    options: dict[str, Any] = {flag: rng.random() < 0.3 for flag in _OPTIONS}
    options["misere"] = options["joker_nomination"] = options["slam_bonus"] = rng.random() < 0.8
    options["misere_needs_seven"] = rng.random() < 0.7
    options["blind_misere"] = rng.random() < 0.8
    if players == 6:
        options["team_size"] = rng.choice((2, 3))
    if players == 5:
        options["partner_by_seat"] = rng.random() < 0.5
    if players == 4:
        options["black_fours"] = rng.random() < 0.2
    if rng.random() < 0.2:
        options["single_round"] = True
    else:
        options["self_raise"] = rng.random() < 0.2
        options["rebid"] = rng.random() < 0.2
    options["trick_points"] = rng.choice((10, 10, 0, 20))
    options["target"] = rng.choice((500, 250))
    options["score_cap"] = rng.choice((None, options["target"] - 10))
    return fh.Rules(players=players, **options)


def states(seed: int, rules: fh.Rules, *, hands: int = 2) -> Iterator[fh.GameState]:
    """The states of a seeded game (a few hands), played by mixed computer players."""
    rng = random.Random(seed)
    mixed: list[Player] = [
        HeuristicPlayer(random.Random(seed + seat))
        if (seed + seat) % 3
        else RandomPlayer(random.Random(seed + seat))
        for seat in range(rules.players)
    ]
    state = fh.new_game(rules, dealer=rng.randrange(rules.players))
    while not state.is_over and state.hand_number <= hands:
        if state.phase is fh.Phase.DEAL:
            if state.hand_number == hands:
                return
            state = fh.deal(state, rng=rng)
            continue
        yield state
        seat = state.to_act
        assert seat is not None
        state = fh.apply(state, mixed[seat].choose(fh.observe(state, seat)))


def acting_view(state: fh.GameState) -> fh.PlayerView:
    assert state.to_act is not None
    return fh.observe(state, state.to_act)


# -- legality --------------------------------------------------------------------------


def test_players_only_return_legal_actions_under_random_rules() -> None:
    checked = {"random": 0, "heuristic": 0, "search": 0}
    for game in range(120):
        rules = random_rules(random.Random(game))
        for step, state in enumerate(states(game, rules)):
            view = acting_view(state)
            choices: dict[str, Player] = {
                "random": RandomPlayer(random.Random(step)),
                "heuristic": HeuristicPlayer(random.Random(step)),
            }
            if step % 7 == 0:
                choices["search"] = SearchPlayer(random.Random(step), samples=1)
            for name, player in choices.items():
                action = player.choose(view)
                assert fh.is_legal(state, action), (name, rules, state, action)
                checked[name] += 1
    assert checked["heuristic"] > 5000, checked
    assert checked["search"] > 600, checked


def test_players_refuse_to_act_out_of_turn() -> None:
    state = fh.deal(fh.new_game(dealer=3), seed=1)
    waiting = fh.observe(state, 1)
    for player in (RandomPlayer(), HeuristicPlayer(), SearchPlayer(samples=1)):
        with pytest.raises(ValueError, match="not its turn"):
            player.choose(waiting)


def test_players_are_given_a_view_and_say_when_the_game_is_over() -> None:
    """A GameState or None is a typed error naming what a player is given, not an
    AttributeError from deep inside; a finished game is not "not its turn"."""
    from fivehundred.bots.pimc import PIMCPlayer

    state = fh.deal(fh.new_game(dealer=3), seed=1)
    players = (RandomPlayer(), HeuristicPlayer(), SearchPlayer(samples=1), PIMCPlayer())
    for player in players:
        for wrong in (state, None):
            with pytest.raises(fh.FiveHundredTypeError, match="expected a PlayerView"):
                player.choose(wrong)  # type: ignore[arg-type]  # the wrong type on purpose
    rng = random.Random(2)
    for _ in range(20_000):  # a whole game of random legal moves (a few hands, seeded)
        if state.result is not None:
            break
        if state.phase is fh.Phase.DEAL:
            state = fh.deal(state, seed=rng.randrange(1 << 30))
        else:
            state = fh.apply(state, rng.choice(fh.legal_actions(state)))
    assert state.result is not None
    for player in players:
        with pytest.raises(fh.FiveHundredError, match="the game is over"):
            player.choose(fh.observe(state, 0))


# -- no peeking ------------------------------------------------------------------------


def swapped(state: fh.GameState, seat: int, rng: random.Random) -> fh.GameState | None:
    """The same hand with two cards swapped between places ``seat`` cannot see, or None.

    The two cards trade places in the deck order; the hand's actions are replayed.
    Returns None when no swap keeps every action legal and the view unchanged.
    """
    deck = list(state.deck)
    view = fh.observe(state, seat)
    visible = set(view.hand) | set(view.kitty or ()) | set(view.discards or ())
    visible |= set(view.exposed_hand or ())
    visible |= {c for t in view.tricks for c in t.cards} | {c for _, c in view.trick}
    hidden = [i for i, c in enumerate(deck) if c not in visible]
    for _ in range(20):
        if len(hidden) < 2:
            return None
        a, b = rng.sample(hidden, 2)
        order = list(deck)
        order[a], order[b] = order[b], order[a]
        try:
            other = fh.deal(fh.new_game(state.rules, dealer=state.dealer), cards=order)
            for action in state.actions:
                other = fh.apply(other, action)
        except fh.IllegalActionError:
            continue
        if places(other) != places(state) and fh.observe(other, seat) == view:
            return other
    return None


def places(state: fh.GameState) -> tuple[object, ...]:
    """Where every card is: the hands, the kitty, the discards and the dead hand."""
    return (state.hands, state.kitty, state.discards, state.dead_hand)


def decisions(view: fh.PlayerView, seed: int) -> list[fh.Action]:
    return [
        RandomPlayer(random.Random(seed)).choose(view),
        HeuristicPlayer(random.Random(seed)).choose(view),
        SearchPlayer(random.Random(seed), samples=2).choose(view),
    ]


def first_hand_states(count: int) -> Iterator[fh.GameState]:
    for game in range(count):
        rules = fh.Rules() if game % 2 else random_rules(random.Random(game))
        for state in states(1000 + game, rules, hands=1):
            if state.hand_number == 1:
                yield state


def test_decisions_ignore_cards_the_seat_cannot_see() -> None:
    """Swap two unseen cards between other places: same view, same decision (R4.1, R6.3)."""
    rng = random.Random(7)
    pairs = 0
    for step, state in enumerate(first_hand_states(30)):
        if step % 3:
            continue
        seat = state.to_act
        assert seat is not None
        other = swapped(state, seat, rng)
        if other is None:
            continue
        pairs += 1
        view = fh.observe(state, seat)
        assert decisions(view, step) == decisions(fh.observe(other, seat), step)
    assert pairs > 100


def test_a_sampled_deal_looks_the_same_to_the_seat() -> None:
    """sample_state deals the hidden cards anew; the seat's view of the hand is unchanged."""
    from fivehundred.bots import sample_state

    rng = random.Random(3)
    compared = 0
    for step, state in enumerate(first_hand_states(24)):
        for seat in range(state.rules.players):
            if (step + seat) % 4:
                continue
            view = fh.observe(state, seat)
            fake = sample_state(view, rng)
            assert fh.observe(fake, seat) == view, (state.rules, state)
            compared += 1
            if state.to_act == seat:
                assert decisions(view, step) == decisions(fh.observe(fake, seat), step)
    assert compared > 300


# -- what a seat knows -----------------------------------------------------------------


def test_read_view_counts_the_left_bower_as_trump_R5_2() -> None:
    state = in_play("7H", 0, TRUMPS, TRUMPS_KITTY)
    # seat 3 follows hearts with the left bower? No: seat 3 has none; seat 1 and 2 have no hearts.
    state = run(state, "JH", "5S", "4D", "4H")  # spades and a diamond on a trump lead: void
    know = read_view(fh.observe(state, 3))
    hearts = {fh.Suit.HEARTS}
    assert know.voids[1] == hearts and know.voids[2] == hearts and know.voids[0] == set()
    # seat 1 cannot hold the left bower or the Joker: both are hearts in this contract
    assert fh.parse_card("JD") not in know.against(1)
    assert fh.parse_card("JD") in know.against(0)


def test_read_view_a_void_misere_player_lacks_the_joker_R7_3() -> None:
    hands = (
        "5S 6S 7S 8S 9S 10S JS QS KS AS",
        "4D 5D 6D 4H 5H 6H 7H 5C 6C 7C",
        "8C 9C 10C JC QC KC AC 7D 8D 9D",
        "10D JD QD KD AD 8H 9H 10H JH Jo",
    )
    state = after_auction("M", 1, hands, "QH KH AH", dealer=0)  # seat 3 sits out (R4.2)
    # seat 0 shows out of diamonds
    state = run(state, "discard QH KH AH", "decline", "4D", "7D", "5S")
    know = read_view(fh.observe(state, 2))
    # seat 0 showed out while the Joker was suitless (R7.3); seat 1, the contractor, made
    # no nomination, which says nothing about the Joker (R7.1): it may still hold it
    assert know.no_joker == {0}
    assert know.voids[0] == {fh.Suit.DIAMONDS}
    assert fh.JOKER not in know.against(0)
    assert fh.JOKER in know.against(1)
    assert fh.JOKER in know.against(3)  # the partner sitting out may hold it


def test_read_view_the_nominating_contractor_holds_the_joker_R7_1() -> None:
    state = run(joker_no_trumps(), "discard 9H 10H JH", "nominate H")
    know = read_view(fh.observe(state, 1))
    assert know.joker_holder == 0
    assert fh.JOKER not in know.against(2)


def test_read_view_no_nomination_does_not_show_the_joker_R7_1() -> None:
    """Seat 0 keeps the Joker and makes no nomination: silent, so nobody else can place it."""
    state = run(joker_no_trumps(), "discard 9H 10H JH", "decline")
    view = fh.observe(state, 1)
    assert view.joker_suit is None
    assert not hasattr(view, "joker_declined")
    know = read_view(view)
    assert know.joker_holder is None
    assert know.no_joker == set()
    for seat in (0, 2, 3):
        assert fh.JOKER in know.against(seat)


# -- judging a hand --------------------------------------------------------------------


def mask(text: str) -> tuple[fh.Card, ...]:
    """A hand as the public helpers take it: cards."""
    return fh.parse_cards(text)


def test_trick_estimate_values_top_trumps_and_aces() -> None:
    rules = fh.Rules()
    strong = trick_estimate(mask(TRUMPS[0]), fh.Strain.HEARTS, rules)
    weak = trick_estimate(mask(TRUMPS[1]), fh.Strain.HEARTS, rules)
    assert strong > 6
    assert weak < 1
    assert trick_estimate(mask(TRUMPS[0]), fh.Strain.HEARTS, rules) > trick_estimate(
        mask(TRUMPS[0]), fh.Strain.SPADES, rules
    )
    no_trumps = trick_estimate(mask(LOW[0]), fh.Strain.NO_TRUMPS, rules)
    assert no_trumps > 4


def test_misere_danger_is_zero_for_the_lowest_cards() -> None:
    rules = fh.Rules()
    assert sum(misere_danger(mask(LOW[1]), rules)) == 0
    assert misere_danger(mask(LOW[3]), rules)[0] == 10  # the Joker


def test_hand_helpers_take_cards_not_masks() -> None:
    """A bit mask (or anything but cards) is refused with the library's TypeError."""
    rules = fh.Rules()
    for junk in (0b1011, [1, 2], ["AS"]):
        with pytest.raises(fh.FiveHundredTypeError):
            trick_estimate(junk, fh.Strain.HEARTS, rules)  # type: ignore[arg-type]  # junk
    with pytest.raises(fh.FiveHundredTypeError):
        misere_danger(7, rules)  # type: ignore[arg-type]  # junk on purpose
    keep = mask(LOW[1])
    assert discard_value(keep, fh.parse_call("M"), rules) == 0.0  # nothing to fear
    assert discard_value(mask(TRUMPS[0]), fh.parse_call("8H"), rules) > 6


def test_read_view_is_the_seats_sight_in_cards() -> None:
    from fivehundred._engine.sight import read_sight

    state = run(in_play("7H", 0, TRUMPS, TRUMPS_KITTY), "JH", "5S", "4D", "4H")
    view = fh.observe(state, 3)
    know, sight = read_view(view), read_sight(view)
    assert know.hand == view.hand and mask_of(know.played) == sight.played
    assert mask_of(know.unseen) == sight.unseen and know.exposed is None
    for seat in range(4):
        assert mask_of(know.against(seat)) == sight.against(seat)
        assert mask_of(know.played_by[seat]) == sight.played_by[seat]


# -- the heuristic player's decisions -----------------------------------------------------


def heuristic(state: fh.GameState) -> fh.Action:
    return HeuristicPlayer(random.Random(0)).choose(acting_view(state))


def test_contractor_draws_trumps_with_the_top_trump() -> None:
    state = in_play("7H", 0, TRUMPS, TRUMPS_KITTY)
    assert heuristic(state) == fh.Play(fh.JOKER)


def test_partner_winning_so_play_low_and_ruff_cheaply_when_last() -> None:
    state = in_play("7H", 0, TRUMPS, TRUMPS_KITTY)
    state = run(state, "AS", "10S")
    assert heuristic(state) == fh.Play(fh.parse_card("JS"))  # partner's ace stands
    state = run(state, "JS")
    assert heuristic(state) == fh.Play(fh.parse_card("4H"))  # the cheapest trump that wins


def test_defender_void_throws_a_low_card_on_a_lost_trick() -> None:
    state = in_play("7H", 0, TRUMPS, TRUMPS_KITTY)
    state = run(state, "Jo")
    play = heuristic(state)
    assert isinstance(play, fh.Play) and play.card.rank == fh.Rank.FIVE


def test_bids_its_long_strong_suit() -> None:
    state = dealt(TRUMPS, TRUMPS_KITTY, dealer=3)
    call = heuristic(state)
    assert isinstance(call, fh.Call) and call.strain is fh.Strain.HEARTS


def test_weak_hand_passes() -> None:
    view = acting_view(run(dealt(TRUMPS, TRUMPS_KITTY, dealer=3), "6H"))
    weak = attrs.evolve(view, hand=fh.parse_cards("6S 7S 9S 6C 8C 10C 5D 7D 5H 9H"))
    assert HeuristicPlayer().choose(weak) == fh.PASS


def test_low_black_hand_with_red_voids_bids_open_misere_R3_5() -> None:
    view = acting_view(dealt(TRUMPS, TRUMPS_KITTY, dealer=0))  # seat 1 calls first
    assert view.seat == 1
    assert HeuristicPlayer().choose(view) == fh.OPEN_MISERE


def test_misere_hand_bids_misere_over_a_seven_R3_4() -> None:
    state = run(dealt(LOW, LOW_KITTY, dealer=3), "7S")
    call = heuristic(state)
    assert call in (fh.MISERE, fh.OPEN_MISERE)


def test_perfect_low_hand_bids_open_misere_R3_5() -> None:
    hands = (
        "AS KS QS JS AC KC QC JC AD KD",
        "5S 6S 5C 6C 4D 5D 6D 4H 5H 6H",
        "8S 9S 10S 7C 8C 9C 7S 7D 8D 9D",
        "Jo QD JD 10D AH KH QH JH 10H 9H",
    )
    state = run(dealt(hands, "10C 8H 7H", dealer=3), "pass")
    assert heuristic(state) == fh.OPEN_MISERE


def test_overcalls_opponents_and_only_a_partner_with_a_much_better_hand() -> None:
    state = run(dealt(TRUMPS, TRUMPS_KITTY, dealer=1), "pass", "6H")  # seat 3 bids 6H
    # seat 0 holds the top hearts: 10♥, worth 500, wins the game from 0 (R8.1, R9.1)
    assert heuristic(state) == fh.parse_call("10H")
    partner = acting_view(run(dealt(TRUMPS, TRUMPS_KITTY, dealer=1), "6NT", "pass"))
    assert partner.seat == 0  # seat 2, the partner, bid 6NT
    modest = attrs.evolve(partner, hand=fh.parse_cards("JS QS KS 10C JC QC KC 4D 6D 7D"))
    calls = [a for a in partner.legal_actions if isinstance(a, fh.Call)]
    assert choose_bid(modest, calls) == fh.PASS
    # the top hearts: 10♥ is worth 500, so it wins the game from 0 (R8.1, R9.1)
    assert choose_bid(partner, calls) == fh.parse_call("10H")


def test_misere_contractor_discards_the_joker_R4_1() -> None:
    hands = (
        "AS KS QS JS AC KC QC JC AD KD",
        "5S 6S 7S 5C 6C 4D 5D 4H 5H Jo",
        "8S 9S 10S 7C 8C 9C 6D 7D 8D 9D",
        "6H QD JD 10D AH KH QH JH 10H 9H",
    )
    state = after_auction("M", 1, hands, "10C 8H 7H")
    discard = heuristic(state)
    assert isinstance(discard, fh.Discard) and fh.JOKER in discard.cards


def test_trump_contractor_keeps_trumps_and_aces_in_the_kitty_exchange() -> None:
    state = after_auction("7H", 0, TRUMPS, TRUMPS_KITTY)
    discard = heuristic(state)
    assert isinstance(discard, fh.Discard)
    thrown = {str(c) for c in discard.cards}
    assert {"5D", "6S"} <= thrown  # the side suits' low cards go: voids to ruff in
    assert not thrown & {"Jo", "JH", "JD", "AH", "KH"}


def test_ranked_discards_are_legal_distinct_and_best_first_R4_1() -> None:
    state = after_auction("7H", 0, TRUMPS, TRUMPS_KITTY)
    assert state.to_act is not None
    view = fh.observe(state, state.to_act)
    ranked = ranked_discards(view, 5)
    assert len(ranked) == 5 and len(set(ranked)) == 5
    assert ranked[0] == heuristic(state)  # the heuristic player's own choice leads
    pool = set(view.hand) | set(view.kitty or ())
    values = [discard_value(pool - set(d.cards), fh.parse_call("7H"), view.rules) for d in ranked]
    assert values == sorted(values, reverse=True)
    assert all(fh.is_legal(state, discard) for discard in ranked)
    assert len(ranked_discards(view, 1000)) == 286  # every way to throw 3 of 13 cards
    with pytest.raises(fh.FiveHundredError, match="at least one"):
        ranked_discards(view, 0)
    with pytest.raises(fh.FiveHundredTypeError, match="whole number"):
        ranked_discards(view, "3")  # type: ignore[arg-type]  # a wrong type on purpose


def test_no_trumps_contractor_keeps_the_joker_suitless_R7_2() -> None:
    state = run(joker_no_trumps(), "discard 9H 10H JH")
    assert state.phase is fh.Phase.NOMINATE
    assert heuristic(state) == fh.DECLINE


def test_misere_contractor_who_kept_the_joker_nominates_its_longest_suit() -> None:
    hands = (
        "AS KS QS JS AC KC QC JC AD KD",
        "5S 6S 7S 5C 6C 4D 5D 4H 5H Jo",
        "8S 9S 10S 7C 8C 9C 6D 7D 8D 9D",
        "6H QD JD 10D AH KH QH JH 10H 9H",
    )
    state = run(after_auction("M", 1, hands, "10C 8H 7H"), "discard 10C 8H 7H")
    assert state.phase is fh.Phase.NOMINATE
    assert heuristic(state) == fh.Nominate(fh.Suit.SPADES)


def misere_play(*script: str) -> fh.GameState:
    """Seat 1 in misère (partner seat 3 sits out), the kitty put back; then ``script``."""
    state = after_auction("M", 1, LOW, LOW_KITTY)
    return run(state, f"discard {LOW_KITTY}", "decline", *script)


def test_misere_contractor_ducks_under_the_card_to_beat() -> None:
    # seat 1 leads 4D, seat 2 6D, seat 0 wins with KD; seat 0 leads JS and wins it; then KC
    state = misere_play("4D", "6D", "KD", "JS", "5S", "8S", "KC")
    assert heuristic(state) == fh.Play(fh.parse_card("6C"))  # the highest club under the K


def test_misere_contractor_void_sheds_a_high_card() -> None:
    # seat 0 wins the first trick and draws seat 1's two clubs, then leads a third
    state = misere_play("4D", "6D", "KD", "KC", "6C", "9C", "QC", "5C", "8C", "JC")
    assert heuristic(state) == fh.Play(fh.parse_card("7S"))


def test_misere_defender_void_sheds_a_high_card_under_the_contractor() -> None:
    state = misere_play("6H")  # seat 2 has no hearts; the contractor's 6H is winning
    assert heuristic(state) == fh.Play(fh.parse_card("10S"))


def test_misere_defender_plays_low_before_the_contractor() -> None:
    state = misere_play("4D", "6D", "KD", "AS")  # seat 0 leads; seat 1 is next (5S 6S 7S)
    state = run(state, "7S")  # the contractor ducks; seat 2 plays under the ace
    assert heuristic(state) in (fh.Play(fh.parse_card("10S")), fh.Play(fh.parse_card("8S")))


def test_a_joker_lead_names_the_suit_it_holds_most_of_R7_4() -> None:
    state = run(joker_no_trumps(), "discard 9H 10H JH", "decline")
    view = acting_view(state)
    leads = [a for a in view.legal_actions if isinstance(a, fh.Play) and a.card.is_joker]
    assert len(leads) == 4
    from fivehundred.bots import choose_play

    assert choose_play(view, leads) == fh.Play(fh.JOKER, fh.Suit.HEARTS)  # AH KH QH
