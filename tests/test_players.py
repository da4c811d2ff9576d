"""Other numbers of players (RULES.md P2, P3, P5, P6) and the end of a game with more than two
sides (P-END).

The whole-hand deals are written out; everyone plays the first legal card, and the trick
counts quoted in the tests are what that play gives on those cards.
"""

from __future__ import annotations

import pytest

import fivehundred as fh
from fivehundred.scoring import game_result
from variant_helpers import (
    Table,
    bids,
    card_leaks,
    deal_layout,
    deal_table,
    dealt,
    finish,
    first_legal,
    go,
    layout,
    names,
    to_play,
    won,
)

R = fh.Reason
P2 = fh.Rules(players=2)
P3 = fh.Rules(players=3)
P5 = fh.Rules(players=5)
P6 = fh.Rules(players=6)
P6_THREES = fh.Rules(players=6, team_size=3)


def refused(state: fh.GameState, action: fh.Action, reason: fh.Reason) -> str:
    """``action`` is refused for ``reason`` by check_action and apply; returns the sentence."""
    assert not fh.is_legal(state, action)
    with pytest.raises(fh.IllegalActionError) as checked:
        fh.check_action(state, action)
    assert checked.value.reason is reason, str(checked.value)
    with pytest.raises(fh.IllegalActionError) as applied:
        fh.apply(state, action)
    assert applied.value.reason is reason
    return str(checked.value)


def every_state(state: fh.GameState) -> list[fh.GameState]:
    """The states of the rest of the hand, the first legal action each time, until it ends."""
    states = [state]
    while state.phase not in (fh.Phase.DEAL, fh.Phase.GAME_OVER):
        state = fh.apply(state, first_legal(state))
        states.append(state)
    return states


def assert_scored(end: fh.GameState, changes: tuple[int, ...]) -> None:
    assert end.last_hand is not None
    assert end.last_hand.changes == changes
    assert end.scores == changes  # a first hand: the scores are the changes


# -- P2 two players ---------------------------------------------------------------------------

#: Dealer 1: seat 0 (non-dealer) takes eight tricks at 6NT; the dead hand holds the Joker.
P2_DEAL = Table(
    hands=("AS 8C KC 10D JD KD 8H 10H QH AH", "8S JS QS KS 7C QC 9D 9H JH KH"),
    kitty="9S 10C 7H",
    dead="7S 10S 9C JC AC 7D 8D QD AD Jo",
)


def p2_state() -> fh.GameState:
    return deal_table(P2, P2_DEAL, dealer=1)


def test_deal_order_non_dealer_dead_hand_dealer_P2() -> None:
    deck = P2.deck
    for dealer, (first, second) in ((1, (0, 1)), (0, (1, 0))):
        state = fh.deal(fh.new_game(P2, dealer=dealer), cards=deck)
        # Non-dealer, dead hand, dealer: 3 each then 1 to the kitty, 4 each + 1, 3 each + 1.
        assert state.hand(first) == deck[0:3] + deck[10:14] + deck[23:26]
        assert state.dead_hand == deck[3:6] + deck[14:18] + deck[26:29]
        assert state.hand(second) == deck[6:9] + deck[18:22] + deck[29:32]
        assert state.kitty == (deck[9], deck[22], deck[32])
        assert len(state.hands) == 2


def test_non_dealer_calls_first_P2() -> None:
    for dealer in (0, 1):
        state = fh.deal(fh.new_game(P2, dealer=dealer), seed=3)
        assert state.to_act == 1 - dealer
        state = go(state, "6S")
        assert state.to_act == dealer
        state = go(state, "pass")
        assert (state.phase, state.contractor) == (fh.Phase.DISCARD, 1 - dealer)


def test_dead_hand_P2() -> None:
    """Dealt, never seen, never played: in no view at any moment, in no trick, not discardable."""
    assert P2_DEAL.dead is not None
    dead = fh.parse_cards(P2_DEAL.dead)
    state = p2_state()
    assert state.dead_hand == tuple(sorted(dead))
    states = every_state(won(state, 0, "6NT"))
    states = [state, *states]
    assert any(s.phase is fh.Phase.DISCARD for s in states)
    for seen in states:
        for seat in (0, 1):
            view = fh.observe(seen, seat)
            assert card_leaks(view, dead) == [], (seen, seat)
            assert view.hand_sizes == tuple(len(h) for h in seen.hands)
    discard_phase = next(s for s in states if s.phase is fh.Phase.DISCARD)
    offered = {
        c for d in fh.legal_actions(discard_phase) if isinstance(d, fh.Discard) for c in d.cards
    }
    assert not offered & set(dead)
    end = states[-1]
    played = {card for trick in end.tricks for card in trick.cards}
    assert len(end.tricks) == 10 and not played & set(dead)
    assert end.dead_hand == tuple(sorted(dead))


def test_dead_hand_cannot_change_a_view_P2() -> None:
    """Swapping a dead card with an unseen kitty card changes nobody's view of the auction."""
    assert P2_DEAL.dead is not None
    other = P2_DEAL._replace(
        kitty=P2_DEAL.kitty.replace("7H", "Jo"), dead=P2_DEAL.dead.replace("Jo", "7H")
    )
    one = p2_state()
    two = deal_table(P2, other, dealer=1)
    assert one != two
    for script in ((), ("6S",)):
        for seat in (0, 1):
            assert fh.observe(go(one, *script), seat) == fh.observe(go(two, *script), seat)


def test_two_card_tricks_each_for_themselves_P2() -> None:
    assert P2.sides == ((0,), (1,))
    assert P2.partners(0) == () and P2.partners(1) == ()
    end = finish(to_play(won(p2_state(), 0, "6NT")))
    assert len(end.tricks) == 10
    assert all(len(trick.plays) == 2 for trick in end.tricks)
    assert end.tricks_won == (8, 2)
    assert_scored(end, (120, 20))  # made 6NT; the other player 10 a trick


def test_misere_alone_against_the_other_P2() -> None:
    state = to_play(won(p2_state(), 0, "M"))
    assert state.sitting_out == frozenset()
    end = finish(state)
    assert all(len(trick.plays) == 2 for trick in end.tricks)
    assert end.tricks[-1].winner == 0  # the hand stops at the first trick seat 0 wins (R5.5)
    assert_scored(end, (-250, 0))


# -- P3 three players -------------------------------------------------------------------------

#: Dealer 2: seat 0 makes 6NT with six tricks; seat 1 takes one, seat 2 three.
P3_MADE = Table(
    hands=(
        "7S QS 9C 10C JC QC AC QD AD AH",
        "8S 9S JS KS 7C 8C 9D 7H 10H Jo",
        "10S AS KC 7D 10D KD 8H 9H QH KH",
    ),
    kitty="8D JD JH",
)
#: Dealer 2: seat 0 fails 10NT with two tricks; seats 1 and 2 take four each.
P3_TIE = Table(
    hands=(
        "9S 10S JS 8C 9C QC 9D 7H JH KH",
        "8S KS 7D 10D JD QD KD AD 8H Jo",
        "QS AS 7C 10C KC 8D 9H 10H QH AH",
    ),
    kitty="7S JC AC",
)
#: Dealer 2: seat 0 holds the Joker and the top three of every suit but hearts (AH only).
P3_SLAM = Table(
    hands=("QS KS AS QC KC AC KD AD AH Jo",),
    kitty="7S 7C 7D",
)


def test_deck_and_deal_P3() -> None:
    assert len(P3.deck) == 33
    deck = P3.deck
    state = fh.deal(fh.new_game(P3, dealer=2), cards=deck)
    # From the dealer's left (seat 0): 3 each + 1 kitty, 4 each + 1, 3 each + 1.
    assert state.hand(0) == deck[0:3] + deck[10:14] + deck[23:26]
    assert state.hand(1) == deck[3:6] + deck[14:18] + deck[26:29]
    assert state.hand(2) == deck[6:9] + deck[18:22] + deck[29:32]
    assert state.kitty == (deck[9], deck[22], deck[32])
    assert [len(h) for h in state.hands] == [10, 10, 10]
    assert len(state.kitty) == 3 and state.dead_hand == ()
    assert state.to_act == 0


def test_each_player_scores_alone_P3() -> None:
    assert P3.sides == ((0,), (1,), (2,))
    assert fh.new_game(P3, dealer=0).scores == (0, 0, 0)
    end = finish(to_play(won(deal_table(P3, P3_MADE, dealer=2), 0, "6NT")))
    assert all(len(trick.plays) == 3 for trick in end.tricks)
    assert end.tricks_won_by_seat == (6, 1, 3)
    # The two defenders defend together but each scores 10 per trick they won.
    assert_scored(end, (120, 10, 30))


def test_misere_nobody_sits_out_P3() -> None:
    state = to_play(won(deal_table(P3, P3_MADE, dealer=2), 1, "M"))
    assert state.sitting_out == frozenset()
    end = finish(state)
    assert all(len(trick.plays) == 3 for trick in end.tricks)
    assert end.last_hand is not None and end.last_hand.made is not None
    value = 250 if end.last_hand.made else -250
    assert_scored(end, (0, value, 0))  # defenders of a misère score nothing (R8.4)


# -- P5 five players ----------------------------------------------------------------------------

#: Dealer 4. Seat 0 bids 6NT and calls AH (seat 2's): together they take eight tricks.
P5_MADE = Table(
    hands=(
        "9S JS QS KS 3C 6C 7C 9C 10C QC",
        "4S 5S 6S 4C 8C 2D 3D AD 6H 9H",
        "3S 7S 10S AS 5D 9D 10D QD JH AH",
        "2S 2C AC KD 4H 7H 8H QH KH Jo",
        "8S 5C JC KC 4D 8D JD 3H 5H 10H",
    ),
    kitty="6D 7D 2H",
)
#: Dealer 4. Seat 0 bids 6NT and calls AH (seat 2's): together they take three tricks.
P5_FAILED = Table(
    hands=(
        "3S 4S KS QC AD 5H 6H 9H 10H KH",
        "8S JS AS 2C 8C 10C KC AC 2D 2H",
        "4C 7C 9C 4D 6D 9D 4H 7H QH AH",
        "7S 9S QS 5C JC 5D 7D 10D JD 3H",
        "2S 5S 6S 3C 6C QD KD 8H JH Jo",
    ),
    kitty="10S 3D 8D",
)


def p5_contract(table: Table = P5_MADE, rules: fh.Rules = P5) -> fh.GameState:
    """Seat 0 has bid 6NT and discarded the kitty: phase PARTNER."""
    state = won(deal_table(rules, table, dealer=4), 0, "6NT")
    state = go(state, f"discard {table.kitty}")
    assert state.phase is fh.Phase.PARTNER
    return state


def test_partner_call_choices_P5() -> None:
    state = p5_contract()
    calls = fh.legal_actions(state)
    assert all(isinstance(c, fh.CallPartner) and c.card is not None for c in calls)
    called = {c.card for c in calls if isinstance(c, fh.CallPartner)}
    own = set(state.hand(0))
    # Every card but the Joker and the contractor's own; its discards may be called.
    assert called == set(P5.deck) - own - {fh.JOKER}
    assert len(calls) == 42
    assert set(fh.parse_cards("6D 7D 2H")) <= called
    refused(state, fh.CallPartner(fh.JOKER), R.PARTNER_NOT_ALLOWED)
    refused(state, fh.CallPartner(fh.parse_card("KS")), R.PARTNER_NOT_ALLOWED)
    refused(state, fh.CallPartner(seat=2), R.PARTNER_NOT_ALLOWED)
    refused(state, fh.parse_call("7NT"), R.WRONG_PHASE)


def test_secret_partner_revealed_when_the_card_is_played_P5() -> None:
    state = go(p5_contract(), "partner AH")
    assert state.partner == 2
    assert state.partner_card == fh.parse_card("AH")
    ah = fh.parse_card("AH")
    states = every_state(state)
    revealed = False
    seen_hidden = 0
    for now in states:
        played = any(ah in t.cards for t in now.tricks) or ah in (c for _, c in now.trick)
        revealed = revealed or played
        for seat in range(5):
            view = fh.observe(now, seat)
            assert view.partner_card == ah  # the call itself is public
            if seat == 2 or revealed:
                assert view.partner == 2, (seat, now)
            else:
                assert view.partner is None, (seat, now)
                seen_hidden += 1
    assert revealed and seen_hidden > 0
    # The contractor too learns the partner only from the play.
    assert fh.observe(state, 0).partner is None


def test_contractor_and_partner_each_score_the_value_P5() -> None:
    end = finish(to_play(go(p5_contract(), "partner AH")))
    assert all(len(t.plays) == 5 for t in end.tricks)
    assert end.tricks_won_by_seat == (5, 1, 3, 1, 0)
    assert end.last_hand is not None and end.last_hand.partner == 2 and end.last_hand.made
    assert_scored(end, (120, 10, 120, 10, 0))  # the others: 10 a trick each
    failed = finish(to_play(go(p5_contract(P5_FAILED), "partner AH")))
    assert failed.tricks_won_by_seat == (2, 3, 1, 1, 3)
    assert_scored(failed, (-120, 30, -120, 10, 30))


def test_calling_an_own_discard_plays_alone_P5() -> None:
    state = go(p5_contract(), "partner 2H")  # 2H was in the kitty and is discarded
    assert state.partner is None
    assert state.partner_card == fh.parse_card("2H")
    assert all(fh.observe(state, seat).partner is None for seat in range(5))
    end = finish(to_play(state))
    assert end.last_hand is not None and end.last_hand.partner is None
    # The same play as with AH called, but seat 0's five tricks are its own: 6NT fails, and
    # seat 2 (AH's holder) defends and scores its three tricks.
    assert end.tricks_won_by_seat == (5, 1, 3, 1, 0)
    assert end.last_hand.made is False
    assert_scored(end, (-120, 10, 30, 10, 0))


def test_misere_alone_against_four_P5() -> None:
    state = won(deal_table(P5, P5_MADE, dealer=4), 0, "M")
    state = go(state, f"discard {P5_MADE.kitty}")
    assert state.phase is fh.Phase.NOMINATE  # no partner call; the nomination step (R7.1)
    state = go(state, "decline")
    assert state.partner is None and state.sitting_out == frozenset()
    end = finish(state)
    assert all(len(t.plays) == 5 for t in end.tricks)
    assert end.last_hand is not None and end.last_hand.partner is None
    value = 250 if end.last_hand.made else -250
    assert_scored(end, (value, 0, 0, 0, 0))


def test_partner_by_seat_P5() -> None:
    by_seat = fh.Rules(players=5, partner_by_seat=True)
    state = p5_contract(rules=by_seat)
    assert names(fh.legal_actions(state)) == [
        "partner seat 1",
        "partner seat 2",
        "partner seat 3",
        "partner seat 4",
    ]
    refused(state, fh.CallPartner(fh.parse_card("AH")), R.PARTNER_NOT_ALLOWED)
    refused(state, fh.CallPartner(seat=0), R.PARTNER_NOT_ALLOWED)
    state = go(state, "partner seat 2")
    assert state.partner == 2 and state.partner_card is None
    # Named openly, so every seat knows it (the library's reading of the P5 option).
    assert [fh.observe(state, seat).partner for seat in range(5)] == [2] * 5
    end = finish(to_play(state))
    assert end.tricks_won_by_seat == (5, 1, 3, 1, 0)
    assert_scored(end, (120, 10, 120, 10, 0))


# -- P6 six players -------------------------------------------------------------------------------


def test_rank_order_in_trick_resolution_P6() -> None:
    nt = fh.Strain.NO_TRUMPS
    win = fh.trick_winner
    assert win(fh.parse_cards("11H 12H 10H 13H"), nt) == 3
    assert win(fh.parse_cards("13H JH 12H"), nt) == 1
    assert win(fh.parse_cards("12D 13D 11D AD KD"), nt) == 3
    assert win(fh.parse_cards("12S 11S 10S 9S"), nt) == 0
    hearts = fh.parse_call("7H")
    assert win(fh.parse_cards("13H 12H AH JD"), hearts) == 3  # left bower over A and 13
    assert win(fh.parse_cards("13D JD 12D"), hearts) == 1  # JD is a heart here; 13D is not
    assert win(fh.parse_cards("13D 12D KD"), hearts) == 2
    assert fh.effective_suit(fh.parse_card("13D"), hearts) is fh.Suit.DIAMONDS
    assert win(fh.parse_cards("AS 2H"), hearts) == 1
    ranks = [fh.Rank.ACE, fh.Rank.KING, fh.Rank.QUEEN, fh.Rank.JACK]
    ranks += [fh.Rank.THIRTEEN, fh.Rank.TWELVE, fh.Rank.ELEVEN, fh.Rank.TEN]
    assert ranks == sorted(ranks, reverse=True)


#: Each seat's heart (and seat 4's JD) for a first trick of 11H 12H 10H 13H ...
P6_TRICK = (
    "11H 2S 3S 4S 5S 6S 7S 8S 9S 10S",
    "12H 2C 3C 4C 5C 6C 7C 8C 9C 10C",
    "10H 2D 3D 4D 5D 6D 7D 8D 9D 10D",
    "13H 11S 12S JS QS KS AS 11C 12C JC",
    "2H QC KC AC 11D 12D 13D JD QD KD",
    "3H AD 4H 5H 6H 7H 8H 9H JH QH",
)


def test_rank_order_in_play_P6() -> None:
    # No Trumps: 13 beats 12, 11 and 10.
    state = to_play(won(dealt(P6, P6_TRICK, "KH AH Jo", dealer=5), 0, "6NT"))
    state = go(state, "11H 12H 10H 13H 2H 3H")
    assert state.tricks[0].winner == 3
    # Hearts trumps: the left bower JD beats 13H.
    state = to_play(won(dealt(P6, P6_TRICK, "KH AH Jo", dealer=5), 0, "7H"))
    state = go(state, "11H 12H 10H 13H JD 3H")
    assert state.tricks[0].winner == 4
    assert [len(t.plays) for t in state.tricks] == [6]


def test_three_teams_of_two_P6() -> None:
    assert P6.sides == ((0, 3), (1, 4), (2, 5))
    assert [P6.side_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert P6.partners(1) == (4,)
    assert fh.new_game(P6, dealer=0).scores == (0, 0, 0)


def test_two_teams_of_three_P6() -> None:
    assert P6_THREES.sides == ((0, 2, 4), (1, 3, 5))
    assert [P6_THREES.side_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    assert P6_THREES.partners(2) == (0, 4)
    assert fh.new_game(P6_THREES, dealer=0).scores == (0, 0)


#: Dealer 5: seat 0 fails 7NT; team 0 takes three tricks, team 1 six, team 2 one.
P6_DEAL = (
    (
        "3S 5S 10S AS 5C 12D 13D QD 9H 11H",
        "KS 2C 4C 7C 9C 5D 9D JH KH Jo",
        "7S 9S 12S JS 6C QC 2D 8D 3H 6H",
        "6S 8C 12C KC 3D 4D 7D KD 5H 8H",
        "4S 11S 3C 10C JC AC 10D JD 2H 7H",
        "2S 8S QS 11C 6D 11D 4H 12H 13H QH",
    ),
    "AD 10H AH",
)


def test_every_defending_team_scores_P6() -> None:
    end = finish(to_play(won(dealt(P6, *P6_DEAL, dealer=5), 0, "7NT")))
    assert all(len(t.plays) == 6 for t in end.tricks)
    assert end.tricks_won_by_seat == (2, 3, 0, 1, 3, 1)
    assert end.tricks_won == (3, 6, 1)
    assert_scored(end, (-220, 60, 10))


@pytest.mark.parametrize(
    ("rules", "out", "size"),
    [(P6, {3}, 5), (P6_THREES, {2, 4}, 4)],
)
def test_misere_partners_sit_out_P6(rules: fh.Rules, out: set[int], size: int) -> None:
    state = to_play(won(dealt(rules, *P6_DEAL, dealer=5), 0, "M"))
    assert state.sitting_out == out
    for seat in out:
        assert fh.observe(state, seat).legal_actions == ()
    end = finish(state)
    assert all(len(t.plays) == size for t in end.tricks)
    assert not {seat for t in end.tricks for seat, _ in t.plays} & out
    assert end.last_hand is not None
    value = 250 if end.last_hand.made else -250
    sides = len(rules.sides)
    assert_scored(end, tuple(value if s == 0 else 0 for s in range(sides)))


# -- P-END more than two sides -----------------------------------------------------------------


def test_making_the_contract_to_the_target_wins_P_END() -> None:
    made = fh.Outcome.CONTRACT_MADE
    # The contracting side wins even when a defender has more (defence points do not win).
    assert game_result((1,), True, (300, 510, 520), P3) == fh.GameResult((1,), 1, made)
    assert game_result((1,), True, (300, 490, 520), P3) is None
    assert game_result((0,), True, (500, 0, 600), P6) == fh.GameResult((0,), 0, made)
    # Five players: the contractor and the partner both reach the target and both win.
    scores = (510, 100, 510, 50, 600)
    assert game_result((0, 2), True, scores, P5) == fh.GameResult((0, 2), 0, made)
    # In play: seat 0 makes 10NT (520) and wins; the game is over for all three.
    end = finish(to_play(won(deal_table(P3, P3_SLAM, dealer=2), 0, "10NT")))
    assert end.tricks_won_by_seat == (10, 0, 0)
    assert end.scores == (520, 0, 0)
    assert end.result == fh.GameResult((0,), 0, made)


def test_out_backwards_highest_other_side_wins_P_END() -> None:
    out = fh.Outcome.OUT_BACKWARDS
    assert game_result((0,), False, (-510, 200, 300), P3) == fh.GameResult((2,), 0, out)
    assert game_result((1,), False, (400, -500, 300), P3) == fh.GameResult((0,), 1, out)
    assert game_result((2,), False, (100, 450, -600), P6) == fh.GameResult((1,), 2, out)
    assert game_result((0,), False, (-490, 200, 300), P3) is None


def test_tie_for_highest_is_a_shared_win_P_END() -> None:
    out = fh.Outcome.OUT_BACKWARDS
    assert game_result((0,), False, (-510, 300, 300), P3) == fh.GameResult((1, 2), 0, out)
    assert game_result((1,), False, (80, -600, 80), P6) == fh.GameResult((0, 2), 1, out)


def test_out_backwards_in_play_shared_win_P_END() -> None:
    """Seat 0 fails 10NT (-520) and goes out; seats 1 and 2 both have 40: both win."""
    state = won(deal_table(P3, P3_TIE, dealer=2), 0, "10NT")
    end = finish(to_play(state))
    assert end.tricks_won_by_seat == (2, 4, 4)
    assert_scored(end, (-520, 40, 40))
    assert end.phase is fh.Phase.GAME_OVER
    assert end.result == fh.GameResult((1, 2), 0, fh.Outcome.OUT_BACKWARDS)
    assert all(fh.observe(end, seat).result == end.result for seat in range(3))


def test_out_backwards_in_play_highest_wins_P_END() -> None:
    """Seat 0 fails 10NT with six tricks (-520): seat 2 (30) beats seat 1 (10)."""
    end = finish(to_play(won(deal_table(P3, P3_MADE, dealer=2), 0, "10NT")))
    assert end.tricks_won_by_seat == (6, 1, 3)
    assert_scored(end, (-520, 10, 30))
    assert end.result == fh.GameResult((2,), 0, fh.Outcome.OUT_BACKWARDS)


def test_out_backwards_alone_in_five_P_END() -> None:
    """Five players: seat 0 calls its own discard (alone), fails 10NT and goes out; seats 1
    and 4 share the win with 30 each."""
    state = won(deal_table(P5, P5_FAILED, dealer=4), 0, "10NT")
    state = go(state, f"discard {P5_FAILED.kitty}", "partner 3D")
    assert state.partner is None
    end = finish(to_play(state))
    assert end.tricks_won_by_seat == (2, 3, 1, 1, 3)
    assert_scored(end, (-520, 30, 10, 10, 30))
    assert end.phase is fh.Phase.GAME_OVER
    assert end.result == fh.GameResult((1, 4), 0, fh.Outcome.OUT_BACKWARDS)


def test_helpers_layout_for_every_table() -> None:
    """The scenario helper deals what it is asked for at every table size."""
    for rules in (P2, P3, fh.Rules(), fh.Rules(black_fours=True), P5, P6, P6_THREES):
        for dealer in range(rules.players):
            where = layout(rules, {dealer: " ".join(str(c) for c in rules.deck[-10:])})
            state = deal_layout(fh.new_game(rules, dealer=dealer), where)
            assert state.hand(dealer) == rules.deck[-10:]
            assert state.to_act == (dealer + 1) % rules.players
            assert bids(state)[0] == "pass"
