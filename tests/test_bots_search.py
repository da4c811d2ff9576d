"""The search player: sampled deals that fit what the seat has seen, and sound choices."""

from __future__ import annotations

import math
import random
import time

import pytest

import fivehundred as fh
from fivehundred._engine.sight import read_sight
from fivehundred.bots import SearchPlayer, bid_limits, sample_hands, sample_state
from fivehundred.bots._sampling import sample_masks
from fivehundred.bots._search import _distinct_plays
from fivehundred.bots._utility import HandUtility
from fivehundred.cards import mask_of
from helpers import after_auction, dealt, in_play, run
from test_bots import LOW, LOW_KITTY, TRUMPS, TRUMPS_KITTY, acting_view, joker_no_trumps


def search(state: fh.GameState, seed: int = 1, samples: int = 8) -> fh.Action:
    return SearchPlayer(random.Random(seed), samples=samples).choose(acting_view(state))


def test_the_same_seed_gives_the_same_choice() -> None:
    state = in_play("7H", 0, TRUMPS, TRUMPS_KITTY)
    state = run(state, "AS")
    view = fh.observe(state, 1)
    first = [SearchPlayer(random.Random(s), samples=6).choose(view) for s in range(5)]
    again = [SearchPlayer(random.Random(s), samples=6).choose(view) for s in range(5)]
    assert first == again


def test_budget_must_be_positive_and_time_limit_stops_early() -> None:
    with pytest.raises(ValueError, match="at least one"):
        SearchPlayer(samples=0)
    state = fh.deal(fh.new_game(dealer=0), seed=5)
    player = SearchPlayer(random.Random(1), samples=100_000, time_limit=0.05)
    start = time.perf_counter()
    call = player.choose(acting_view(state))
    assert time.perf_counter() - start < 5
    assert fh.is_legal(state, call)


def test_sampled_hands_respect_voids_counts_and_the_seats_own_cards() -> None:
    state = in_play("7H", 0, TRUMPS, TRUMPS_KITTY)
    state = run(state, "JH", "5S", "4D", "4H")  # seats 1 and 2 show out of trumps
    view = fh.observe(state, 3)
    know = read_sight(view)
    hearts = fh.Play(fh.JOKER).card  # the Joker, a heart in this contract
    for seed in range(40):
        world = sample_masks(view, random.Random(seed))
        assert world.hands[3] == mask_of(view.hand)
        assert [h.bit_count() for h in world.hands] == list(view.hand_sizes)
        assert world.pile.bit_count() == 3  # seat 0's discards, unseen by seat 3
        for seat in (1, 2):
            assert not world.hands[seat] & know.ctx.suit_masks[fh.Suit.HEARTS]
            assert not world.hands[seat] >> hearts.index & 1
        everything = world.pile | know.played
        for hand in world.hands:
            assert not everything & hand
            everything |= hand
        assert everything == mask_of(fh.Rules().deck)


def test_sampled_deals_fit_the_auction() -> None:
    """A seat that bid seven hearts is dealt hearts in (nearly) every sampled deal."""
    state = run(dealt(TRUMPS, TRUMPS_KITTY, dealer=3), "7H")
    view = fh.observe(state, 1)
    strong = 0
    for seed in range(30):
        world = sample_masks(view, random.Random(seed))
        hearts = world.hands[0] & fh.tricks.context(fh.Suit.HEARTS).trump_mask
        strong += hearts.bit_count() >= 4
    assert strong >= 20


def test_sample_hands_gives_cards_the_same_deal_as_the_masks() -> None:
    """The public World is the internal mask deal, in cards, from the same random draws."""
    state = run(dealt(TRUMPS, TRUMPS_KITTY, dealer=3), "7H")
    view = fh.observe(state, 1)
    for seed in range(5):
        world = sample_hands(view, random.Random(seed))
        masks = sample_masks(view, random.Random(seed))
        assert [mask_of(hand) for hand in world.hands] == list(masks.hands)
        assert mask_of(world.pile) == masks.pile
        assert world.hands[1] == view.hand
        assert all(isinstance(card, fh.Card) for hand in world.hands for card in hand)


def test_there_is_nothing_to_sample_between_hands() -> None:
    state = fh.new_game(dealer=0)
    with pytest.raises(ValueError, match="no hand in progress"):
        sample_hands(fh.observe(state, 0), random.Random(1))


def test_sample_state_of_the_contractor_keeps_its_discards_R4_1() -> None:
    state = run(after_auction("7H", 0, TRUMPS, TRUMPS_KITTY), "discard 5D 6S 8H", "Jo")
    view = fh.observe(state, 0)
    fake = sample_state(view, random.Random(2))
    assert fake.discards == state.discards
    assert fh.observe(fake, 0) == view


def test_touching_cards_are_one_candidate() -> None:
    state = in_play("7H", 0, TRUMPS, TRUMPS_KITTY)
    state = run(state, "AS", "10S", "JS", "4H", "5H", "KH")  # seat 3 ruffed, leads a trump
    view = acting_view(state)
    assert view.seat == 1  # no trumps: any card may go
    kept = _distinct_plays(view, [a for a in view.legal_actions if isinstance(a, fh.Play)])
    clubs = [p.card for p in kept if p.card.suit is fh.Suit.CLUBS]
    spades = [str(p.card) for p in kept if p.card.suit is fh.Suit.SPADES]
    assert len(clubs) == 1  # 5C-9C: nothing between them anywhere else
    assert spades == ["5S", "7S"]  # 6S (unseen) splits 5S from 7S 8S 9S


def test_search_ruffs_a_trick_it_can_take_last() -> None:
    state = run(in_play("7H", 0, TRUMPS, TRUMPS_KITTY), "AS", "10S", "JS")
    plays = [search(state, seed) for seed in range(5)]
    ruffs = [p for p in plays if isinstance(p, fh.Play) and p.card.suit is fh.Suit.HEARTS]
    assert len(ruffs) >= 3  # the play-outs split on the odd deal; most seeds ruff


def test_search_bids_a_strong_hand_and_keeps_its_trumps() -> None:
    call = search(dealt(TRUMPS, TRUMPS_KITTY, dealer=3))
    assert isinstance(call, fh.Call) and call.is_bid
    discard = search(after_auction("7H", 0, TRUMPS, TRUMPS_KITTY))
    assert isinstance(discard, fh.Discard)
    assert not {str(c) for c in discard.cards} & {"Jo", "JH", "JD", "AH"}


def test_search_nominates_or_declines_and_plays_misere() -> None:
    state = run(joker_no_trumps(), "discard 9H 10H JH")
    assert isinstance(search(state), fh.Nominate)
    state = run(after_auction("M", 1, LOW, LOW_KITTY), f"discard {LOW_KITTY}")
    assert search(state) == fh.DECLINE  # no Joker: no nomination is the only choice (R7.1)
    state = run(state, "decline")
    lead = search(state)
    assert isinstance(lead, fh.Play) and fh.is_legal(state, lead)


def test_search_handles_five_players_and_an_all_pass_hand() -> None:
    rules = fh.Rules(players=5)
    player = SearchPlayer(random.Random(3), samples=3)
    state = fh.deal(fh.new_game(rules, dealer=0), seed=1)
    state = fh.apply(state, fh.parse_call("6S"))
    while state.phase is fh.Phase.BIDDING:
        state = fh.apply(state, fh.PASS)
    state = fh.apply(state, player.choose(acting_view(state)))  # the discard
    assert state.phase is fh.Phase.PARTNER
    call = player.choose(acting_view(state))
    assert isinstance(call, fh.CallPartner) and fh.is_legal(state, call)
    state = fh.apply(state, call)
    while state.phase is fh.Phase.PLAY:
        state = fh.apply(state, player.choose(acting_view(state)))
    assert state.last_hand is not None and state.last_hand.contract == fh.parse_call("6S")
    bids = [
        player.choose(acting_view(fh.deal(fh.new_game(rules, dealer=0), seed=s))) for s in range(3)
    ]
    assert all(
        fh.is_legal(fh.deal(fh.new_game(rules, dealer=0), seed=s), b) for s, b in enumerate(bids)
    )
    all_pass = fh.Rules(all_pass_no_trumps=True)
    state = fh.deal(fh.new_game(all_pass, dealer=0), seed=2)
    state = run(state, "pass", "pass", "pass", "pass")
    assert state.phase is fh.Phase.PLAY and state.contract is None
    while state.phase is fh.Phase.PLAY:
        state = fh.apply(state, player.choose(acting_view(state)))
    assert state.last_hand is not None


def test_the_deal_always_fits_the_holders_constraints() -> None:
    """Greedy placement can corner itself; the augmenting path moves cards along."""
    from fivehundred.bots._sampling import SamplingProblem as _Problem
    from fivehundred.bots._sampling import _assign

    know = read_sight(fh.observe(fh.deal(fh.new_game(dealer=0), seed=1), 0))
    a, b = 1 << 3, 1 << 5
    problem = _Problem(
        know=know,
        fixed=(0, 0, 0, 0),
        holders=(1, 2),
        allowed=(a | b, a),
        capacity=(1, 1),
        cards=(3, 5),
        bids=(),
    )
    for seed in range(20):
        assert _assign(problem, random.Random(seed)) == [b, a]


def test_sample_state_replays_the_partner_call_P5() -> None:
    rules = fh.Rules(players=5)
    state = fh.deal(fh.new_game(rules, dealer=0), seed=1)
    state = fh.apply(state, fh.parse_call("6S"))
    while state.phase is fh.Phase.BIDDING:
        state = fh.apply(state, fh.PASS)
    state = fh.apply(state, fh.legal_actions(state)[0])
    state = fh.apply(state, fh.legal_actions(state)[-1])  # a card call
    state = fh.apply(state, fh.legal_actions(state)[0])  # the first lead
    for seat in range(5):
        view = fh.observe(state, seat)
        assert fh.observe(sample_state(view, random.Random(seat)), seat) == view
    by_seat = fh.Rules(players=5, partner_by_seat=True)
    state = fh.deal(fh.new_game(by_seat, dealer=0), seed=1)
    state = fh.apply(state, fh.parse_call("6S"))
    while state.phase is fh.Phase.BIDDING:
        state = fh.apply(state, fh.PASS)
    state = fh.apply(state, fh.legal_actions(state)[0])
    state = fh.apply(state, fh.CallPartner(seat=3))
    view = fh.observe(state, 2)
    assert fh.observe(sample_state(view, random.Random(1)), 2) == view


def test_play_out_helpers_for_rare_contracts() -> None:
    from fivehundred.bots._search import _partner_for, _simulate_contract

    rules = fh.Rules(players=5)
    hands = [mask_of(fh.parse_cards("AS")), 0, 0, 0, 0]
    assert _partner_for(rules, fh.parse_call("6S"), 0, hands) is None  # the card is out
    sans = fh.Rules(sans_kitty=True)
    view = fh.observe(fh.deal(fh.new_game(sans, dealer=3), seed=2), 0)
    joker = 1 << fh.JOKER.index
    worlds = (sample_masks(view, random.Random(seed)) for seed in range(20))
    world = next(w for w in worlds if joker & ~w.pile)
    holder = next(seat for seat, hand in enumerate(world.hands) if hand & joker)
    misere = fh.Call(fh.CallKind.MISERE, sans_kitty=True)  # no exchange: the Joker stays
    won, partner = _simulate_contract(view, misere, holder, world)
    assert partner is None and sum(won) >= 1


def test_search_values_the_calls_it_compares_R3() -> None:
    """``SearchPlayer.call_values``: passing and every level of each strain the hand
    might make, each valued over the same deals; ``choose`` bids the first of the best
    among passing and the cheapest level of each strain when the score does not decide
    (both sides at 0 here)."""
    state = fh.deal(fh.new_game(dealer=3), seed=4)
    assert state.to_act is not None
    view = fh.observe(state, state.to_act)
    values = SearchPlayer(random.Random(2), 4).call_values(view)
    calls = [call for call, _ in values]
    assert calls[0] == fh.PASS and all(fh.is_legal(state, c) for c in calls)
    levels = [(c.kind, c.strain, c.tricks) for c in calls[1:]]
    assert len(set(levels)) == len(levels) == len(calls) - 1
    assert all(c.is_bid and not c.sans_kitty for c in calls[1:])
    assert fh.parse_call("6S") in calls
    limits = bid_limits(view)
    seen = set()
    for call in calls[1:]:
        if call.strain is not None and call.strain in seen:  # hopeless raises are left out
            assert (call.tricks or 0) <= limits[call.strain] + 2.5
        seen.add(call.strain)
    assert not any(c.kind is fh.CallKind.BLIND_MISERE for c in calls)
    cheapest: dict[tuple[fh.CallKind, fh.Strain | None], tuple[fh.Call, float]] = {}
    for call, value in values:  # the score decides nothing at 0: the cheapest of each strain
        cheapest.setdefault((call.kind, call.strain), (call, value))
    best = max(v for _, v in cheapest.values())
    first_best = next(c for c, v in cheapest.values() if v >= best - 1e-9)
    assert SearchPlayer(random.Random(2), 4).choose(view) == first_best
    with pytest.raises(fh.FiveHundredError, match="no action"):
        SearchPlayer().call_values(fh.observe(state, (state.to_act + 1) % 4))
    discard = fh.apply(state, fh.parse_call("6S"))
    while discard.phase is fh.Phase.BIDDING:
        discard = fh.apply(discard, fh.PASS)
    assert discard.phase is fh.Phase.DISCARD and discard.to_act is not None
    with pytest.raises(fh.FiveHundredError, match="not in the auction"):
        SearchPlayer().call_values(fh.observe(discard, discard.to_act))


def test_hand_utility_values_a_hand_that_ends_the_game_R9() -> None:
    """With a ``game_value``, a hand that ends the game is worth plus that to the winners
    and minus that to the others (R9.1, R9.2); one that does not is valued by its score,
    and reaching the target on defence ends nothing unless V-DEFENCE-WINS is on (R9.3)."""
    six, seven = fh.parse_call("6S"), fh.parse_call("7S")

    def value(
        scores: tuple[int, int],
        seat: int,
        call: fh.Call,
        won: tuple[int, int],
        game: float | None = 1000.0,
        *,
        rules: fh.Rules | None = None,
    ) -> float:
        state = fh.deal(fh.new_game(rules, dealer=3, scores=scores), seed=4)
        return HandUtility(fh.observe(state, seat), call, 0, game)(won)

    # 6S made from 450: 490 is not the target; 40 for the bid, 40 for the defence (R8)
    assert value((450, 300), 0, six, (6, 4)) == value((450, 300), 0, six, (6, 4), None) == 0.0
    # 7S made from 450 reaches 590: the contracting side wins (R9.1)
    assert value((450, 300), 0, seven, (7, 3), None) == 140 - 30
    assert value((450, 300), 0, seven, (7, 3)) == 1000.0
    assert value((450, 300), 1, seven, (7, 3)) == -1000.0
    # 7S failed from -450 falls to -590: out backwards, the other side wins (R9.2)
    assert value((-450, 0), 0, seven, (6, 4)) == -1000.0
    assert value((-450, 0), 1, seven, (6, 4), 250.0) == 250.0
    assert value((-300, 0), 0, seven, (6, 4)) == value((-300, 0), 0, seven, (6, 4), None)
    # the defence reaching 530 ends nothing (R9.3), unless defence points win the game
    assert value((0, 480), 1, six, (5, 5)) == 50 + 40
    assert value((0, 480), 1, six, (5, 5), rules=fh.Rules(defence_wins=True)) == 1000.0


def test_hand_utility_counts_the_five_player_partner_in_the_game_P5_P_END() -> None:
    """Five players: the contract is made on the contractor's and the partner's tricks
    together (P5), and both of them reach the target and win (P-END)."""
    rules = fh.Rules(players=5)
    seven = fh.parse_call("7S")
    state = fh.deal(fh.new_game(rules, dealer=4, scores=(450, 0, 450, 0, 0)), seed=4)
    won = (4, 1, 3, 1, 1)  # 4 + 3: made only with the partner's tricks

    def value(seat: int, partner: int | None) -> float:
        return HandUtility(fh.observe(state, seat), seven, 0, 1000.0)(won, partner)

    assert value(0, 2) == value(2, 2) == 1000.0
    assert value(1, 2) == value(3, 2) == -1000.0
    # alone (the called card was in the kitty) the contractor's 4 tricks fail: 450 - 140
    alone = HandUtility(fh.observe(state, 0), seven, 0, 1000.0)
    plain = HandUtility(fh.observe(state, 0), seven, 0)
    assert alone(won) == plain(won) == -140 - (10 + 30 + 10 + 10) / 4


def test_search_game_value_counts_the_end_of_the_game_R9() -> None:
    """Near the target the search player's auction counts the game, not the points; a
    ``game_value`` that is not a number of points from 0 is refused."""
    state = fh.deal(fh.new_game(dealer=3, scores=(490, 0)), seed=4)
    assert state.to_act == 0
    view = fh.observe(state, 0)
    plain = SearchPlayer(random.Random(2), 4).call_values(view)
    game = SearchPlayer(random.Random(2), 4, game_value=1e6).call_values(view)
    assert [c for c, _ in plain] == [c for c, _ in game]
    assert max(abs(v) for _, v in plain) < 1000
    assert max(abs(v) for _, v in game) >= 1e6 / 4  # one deal of four ends the game
    for bad in (-1.0, math.nan, math.inf):
        with pytest.raises(fh.FiveHundredError, match=r"game_value=.*finite number of points"):
            SearchPlayer(game_value=bad)
    for wrong in ("1000", True):
        with pytest.raises(fh.FiveHundredTypeError, match="game_value must be a number or None"):
            SearchPlayer(game_value=wrong)  # type: ignore[arg-type]  # a wrong type on purpose
    assert SearchPlayer(game_value=0).game_value == 0
