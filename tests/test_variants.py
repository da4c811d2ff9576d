"""Every variant option of RULES.md (V-…): each test runs the same actions (or asks the same
question) with and without the option and checks that both behave as RULES.md says.

The four-player deals come from ``helpers`` (``sweep``, ``JOKER_LEAD``, ``NOMINATE_HEARTS``,
``BOWERS``) or are built here; ``variant_helpers`` deals them under any ``Rules``.
"""

from __future__ import annotations

from math import comb
from typing import Any

import pytest

import fivehundred as fh
from fivehundred.scoring import game_result
from helpers import BOWERS, JOKER_LEAD, NOMINATE_HEARTS, Deal, sweep
from variant_helpers import (
    bids,
    call,
    card_leaks,
    deal_next,
    dealt,
    finish,
    go,
    names,
    play,
    plays,
    scripted,
    to_play,
    won,
)

R = fh.Reason
DEFAULT = fh.Rules()


def refused(state: fh.GameState, action: fh.Action | str, reason: fh.Reason) -> str:
    """Check that ``action`` is refused for ``reason`` by every route; return the sentence."""
    act = action if not isinstance(action, str) else read(state, action)
    before = state
    assert not fh.is_legal(state, act)
    assert act not in fh.legal_actions(state)
    with pytest.raises(fh.IllegalActionError) as checked:
        fh.check_action(state, act)
    assert checked.value.reason is reason, str(checked.value)
    with pytest.raises(fh.IllegalActionError) as applied:
        fh.apply(state, act)
    assert applied.value.reason is reason
    assert state == before
    return str(checked.value)


def read(state: fh.GameState, text: str) -> fh.Action:
    """A call during the auction, else a card play, from notation."""
    return call(text) if state.phase is fh.Phase.BIDDING else play(text)


def opening(rules: fh.Rules, *script: str, dealer: int = 3) -> fh.GameState:
    """A dealt hand (cards in deck order) after the calls of ``script``."""
    return go(dealt(rules, dealer=dealer), *script)


def contract_won(state: fh.GameState) -> tuple[fh.Phase, fh.Call | None, int | None]:
    """The phase, the contract and the contractor: how the auction of ``state`` ended."""
    return (state.phase, state.contract, state.contractor)


def last_trick_deal(strong_side: int) -> Deal:
    """``sweep(strong_side)`` with the Joker moved to the weak red hand: in No Trumps the strong
    side takes the first nine tricks and the Joker, kept to the end, takes the last.

    The strong red hand holds AH instead of the Joker; the kitty (4D QH KH) is discarded again
    by whoever contracts.
    """
    base = sweep(strong_side)
    hands = list(base.hands)
    strong_red = 2 if strong_side == 0 else 3
    weak_red = 3 if strong_side == 0 else 2
    hands[strong_red] = hands[strong_red].replace("Jo", "AH")
    hands[weak_red] = hands[weak_red].replace("4D", "Jo")
    return Deal((hands[0], hands[1], hands[2], hands[3]), "4D QH KH")


def play_hand(state: fh.GameState, deal: Deal, contract: str, contractor: int) -> fh.GameState:
    """Deal ``deal`` as the next hand, ``contractor`` wins the auction with ``contract``, the
    contractor discards the kitty again and everyone plays the first legal card."""
    state = won(deal_next(state, deal.hands, deal.kitty), contractor, contract)
    return finish(to_play(state))


def play_hands(
    rules: fh.Rules, plan: list[tuple[Deal, str, int]], *, dealer: int = 3
) -> list[fh.GameState]:
    """Play the hands of ``plan`` from a new game; the state after each hand."""
    state = fh.new_game(rules, dealer=dealer)
    after = []
    for deal, contract, contractor in plan:
        state = play_hand(state, deal, contract, contractor)
        after.append(state)
        if state.is_over:
            break
    return after


# -- bidding options ---------------------------------------------------------------------


def test_no_misere_V_NO_MISERE() -> None:
    off = fh.Rules(misere=False)
    # Open and blind misère are opening bids by default (R3.5, R3.6); misère follows a seven.
    assert {"OM", "BM"} <= set(bids(opening(DEFAULT)))
    assert "M" in bids(opening(DEFAULT, "7S"))
    assert not {"M", "OM", "BM"} & set(bids(opening(off)))
    assert not {"M", "OM", "BM"} & set(bids(opening(off, "7S")))
    assert not {"M", "OM", "BM"} & set(bids(opening(off, "10D")))
    # The same auction: misère over 7S wins the contract by default and is refused without it.
    state = opening(DEFAULT, "7S M pass pass pass")
    assert (state.contract, state.contractor) == (fh.MISERE, 1)
    for text in ("M", "OM", "BM"):
        refused(opening(off, "7S"), text, R.CALL_NOT_ALLOWED)
    assert not any(call.is_misere for call in off.ladder.calls)


def test_misere_anytime_V_MISERE_ANYTIME() -> None:
    anytime = fh.Rules(misere_needs_seven=False)
    assert "M" not in bids(opening(DEFAULT))
    assert "M" not in bids(opening(DEFAULT, "6H"))
    assert "M" in bids(opening(anytime))
    assert "M" in bids(opening(anytime, "6H"))
    # Still a bid like any other: it must be higher than the standing bid.
    assert "M" not in bids(opening(anytime, "8S"))
    state = opening(anytime, "M pass pass pass")
    assert contract_won(state) == (fh.Phase.DISCARD, fh.MISERE, 0)
    text = refused(opening(DEFAULT), "M", R.MISERE_NEEDS_SEVEN)
    assert "R3.4" in text
    refused(opening(anytime, "8S"), "M", R.BID_TOO_LOW)


def test_misere_by_value_V_MISERE_BY_VALUE() -> None:
    by_value = fh.Rules(misere_by_value=True)
    # Default: 7NT < M < 8S. By value: 8S < M < 8C.
    assert "M" not in bids(opening(DEFAULT, "8S"))
    assert "M" in bids(opening(by_value, "8S"))
    assert bids(opening(DEFAULT, "7S", "M"))[1] == "8S"
    assert bids(opening(by_value, "7S", "M"))[1] == "8C"
    assert "M" in bids(opening(by_value, "7NT"))  # 7NT is still below it
    state = opening(by_value, "8S M pass pass pass")
    assert (state.contract, state.contractor) == (fh.MISERE, 1)
    refused(opening(DEFAULT, "8S"), "M", R.BID_TOO_LOW)
    refused(opening(by_value, "7S", "M"), "8S", R.BID_TOO_LOW)
    state = opening(DEFAULT, "7S M 8S pass pass pass")
    assert (state.contract, state.contractor) == (fh.parse_call("8S"), 2)


def test_open_misere_top_V_OPEN_MISERE_TOP() -> None:
    top = fh.Rules(open_misere_top=True)
    assert not {"OM", "BM"} & set(bids(opening(DEFAULT, "10H")))
    assert {"OM", "BM"} <= set(bids(opening(top, "10H")))
    assert {"OM", "BM"} <= set(bids(opening(top, "10NT")))
    # Over an open misère: 10H and 10NT by default, nothing with the option.
    assert bids(opening(DEFAULT, "OM")) == ["pass", "10H", "10NT"]
    assert bids(opening(top, "OM")) == ["pass"]
    state = opening(top, "10NT OM pass pass pass")
    assert (state.contract, state.contractor) == (fh.OPEN_MISERE, 1)
    refused(opening(DEFAULT, "10NT"), "OM", R.BID_TOO_LOW)
    refused(opening(top, "OM"), "10NT", R.BID_TOO_LOW)


def test_blind_misere_off_V_BLIND_MISERE() -> None:
    off = fh.Rules(blind_misere=False)
    assert "BM" in bids(opening(DEFAULT))
    assert "BM" not in bids(opening(off))
    assert "OM" in bids(opening(off))  # open misère stays
    state = opening(DEFAULT, "BM pass pass pass")
    assert (state.contract, state.contractor) == (fh.BLIND_MISERE, 0)
    refused(opening(off), "BM", R.CALL_NOT_ALLOWED)
    assert fh.BLIND_MISERE not in off.ladder


def test_sans_kitty_bids_offered_V_SANS_KITTY() -> None:
    sans = fh.Rules(sans_kitty=True)
    plain = bids(opening(DEFAULT))
    assert not any(b.endswith("-SK") for b in plain)
    offered = bids(opening(sans))
    # Every bid is followed by its sans-kitty form, same place on the ladder.
    expected = ["pass"] + [form for b in plain[1:] for form in (b, f"{b}-SK")]
    assert offered == expected
    assert "V-SANS-KITTY" in refused(opening(DEFAULT), "7H-SK", R.CALL_NOT_ALLOWED)


def test_sans_kitty_same_rank_and_value_V_SANS_KITTY() -> None:
    sans = fh.Rules(sans_kitty=True)
    plain, without = fh.parse_call("7H"), fh.parse_call("7H-SK")
    assert without.sans_kitty
    assert fh.bid_value(without, sans) == fh.bid_value(plain, sans) == 200
    assert sans.ladder.position(without) == sans.ladder.position(plain)
    # A sans-kitty bid does not overcall the same plain bid, nor the plain one the sans-kitty one.
    after_plain = bids(opening(sans, "7H"))
    assert "7H-SK" not in after_plain
    assert after_plain[:3] == ["pass", "7NT", "7NT-SK"]
    assert "7H" not in bids(opening(sans, "7H-SK"))
    refused(opening(sans, "7H"), "7H-SK", R.BID_TOO_LOW)
    refused(opening(sans, "7H-SK"), "7H", R.BID_TOO_LOW)
    state = opening(sans, "7H-SK 7NT pass pass pass")
    assert (state.contract, state.contractor) == (fh.parse_call("7NT"), 1)


def test_sans_kitty_contract_skips_the_kitty_V_SANS_KITTY() -> None:
    sans = fh.Rules(sans_kitty=True)
    kitty = fh.parse_cards(BOWERS.kitty)
    # With the kitty: the contractor sees it and discards (R4.1).
    with_kitty = go(dealt(sans, BOWERS.hands, BOWERS.kitty, dealer=3), "7H pass pass pass")
    assert with_kitty.phase is fh.Phase.DISCARD
    assert fh.observe(with_kitty, 0).kitty == tuple(sorted(kitty))
    # Sans kitty: straight to play; the kitty stays out of play and nobody ever sees it.
    state = go(dealt(sans, BOWERS.hands, BOWERS.kitty, dealer=3), "7H-SK pass pass pass")
    assert state.phase is fh.Phase.PLAY
    assert state.contract == fh.parse_call("7H-SK")
    assert state.to_act == 0
    assert state.hand(0) == tuple(sorted(fh.parse_cards(BOWERS.hands[0])))
    assert fh.Discard(kitty) not in fh.legal_actions(state)
    refused(state, fh.Discard(kitty), R.WRONG_PHASE)
    end = finish(state)
    for seen in (state, end):
        for seat in range(4):
            view = fh.observe(seen, seat)
            assert view.kitty is None
            assert view.discards is None
            assert card_leaks(view, kitty) == []
    played = [card for trick in end.tricks for card in trick.cards]
    assert len(end.tricks) == 10
    assert not set(kitty) & set(played)
    # Same hands as a plain 7H whose contractor gives the kitty straight back: same value.
    back = finish(to_play(with_kitty))
    assert back.tricks == end.tricks
    assert end.last_hand is not None and back.last_hand is not None
    assert end.last_hand.changes == back.last_hand.changes
    assert end.last_hand.contract == fh.parse_call("7H-SK")


def test_single_round_auction_V_AMERICAN() -> None:
    american = fh.Rules(single_round=True)
    # The same four calls: the dealer (seat 3) called last, so the auction is over.
    state = opening(american, "6S pass 7H pass")
    assert contract_won(state) == (fh.Phase.DISCARD, fh.parse_call("7H"), 2)
    state = opening(DEFAULT, "6S pass 7H pass")
    assert (state.phase, state.to_act) == (fh.Phase.BIDDING, 0)
    # Everyone bids once: the dealer's bid ends it, highest bid wins.
    state = opening(american, "6S 7S 8S 9S")
    assert (state.contract, state.contractor) == (fh.parse_call("9S"), 3)
    assert opening(DEFAULT, "6S 7S 8S 9S").to_act == 0
    # All pass: a throw-in.
    state = opening(american, "pass pass pass pass")
    assert state.phase is fh.Phase.DEAL
    assert state.last_hand is not None and state.last_hand.contract is None


def test_self_raise_V_SELF_RAISE() -> None:
    raise_ = fh.Rules(self_raise=True)
    state = opening(DEFAULT, "7H pass pass pass")
    assert (state.phase, state.contract) == (fh.Phase.DISCARD, fh.parse_call("7H"))
    state = opening(raise_, "7H pass pass pass")
    assert (state.phase, state.to_act) == (fh.Phase.BIDDING, 0)
    assert bids(state)[:3] == ["pass", "7NT", "M"]
    raised = go(state, "8H")
    assert contract_won(raised) == (fh.Phase.DISCARD, fh.parse_call("8H"), 0)
    declined = go(state, "pass")
    assert contract_won(declined) == (fh.Phase.DISCARD, fh.parse_call("7H"), 0)
    # The raise goes to whoever holds the last bid when all the others have passed.
    state = opening(raise_, "7H 7NT pass pass pass")
    assert (state.phase, state.to_act) == (fh.Phase.BIDDING, 1)
    state = go(state, "8NT")
    assert contract_won(state) == (fh.Phase.DISCARD, fh.parse_call("8NT"), 1)


def test_self_raise_declined_with_rebid_ends_the_auction_V_SELF_RAISE() -> None:
    """With V-REBID too: the others have all passed over 7H and the bidder declines its raise,
    so there is a bid and every other player has passed since it (R3.8): 7H is the contract."""
    both = fh.Rules(self_raise=True, rebid=True)
    state = opening(both, "7H pass pass pass")
    assert (state.phase, state.to_act) == (fh.Phase.BIDDING, 0)
    state = go(state, "pass")
    assert contract_won(state) == (fh.Phase.DISCARD, fh.parse_call("7H"), 0)


def test_rebid_V_REBID() -> None:
    rebid = fh.Rules(rebid=True)
    state = opening(DEFAULT, "6S pass pass 7S pass")
    assert contract_won(state) == (fh.Phase.DISCARD, fh.parse_call("7S"), 3)
    state = opening(rebid, "6S pass pass 7S pass")
    assert (state.phase, state.to_act) == (fh.Phase.BIDDING, 1)
    assert "8S" in bids(state)
    state = go(state, "8S pass pass pass")
    assert contract_won(state) == (fh.Phase.DISCARD, fh.parse_call("8S"), 1)
    # Without the option a passed seat is skipped and may not call again (R3.7).
    state = opening(DEFAULT, "6S pass pass 7S")
    assert state.to_act == 0
    with pytest.raises(fh.IllegalActionError) as info:
        fh.apply(state, fh.parse_call("8S"), seat=1)
    assert info.value.reason is R.ALREADY_PASSED
    # With it, four passes in a row without a bid are still a throw-in.
    state = opening(rebid, "pass pass pass pass")
    assert state.phase is fh.Phase.DEAL


def test_all_pass_played_at_no_trumps_V_ALL_PASS() -> None:
    all_pass = fh.Rules(all_pass_no_trumps=True)
    deal = sweep(1)
    # Default: a throw-in (R3.9): nothing scored, the deal passes on.
    thrown = go(dealt(DEFAULT, deal.hands, deal.kitty, dealer=3), "pass pass pass pass")
    assert thrown.phase is fh.Phase.DEAL
    assert thrown.dealer == 0
    assert thrown.scores == (0, 0)
    # The option: No Trumps, no kitty, no contract, the eldest hand (left of the dealer) leads.
    state = go(dealt(all_pass, deal.hands, deal.kitty, dealer=3), "pass pass pass pass")
    assert (state.phase, state.to_act) == (fh.Phase.PLAY, 0)
    assert state.contract is None and state.contractor is None
    assert state.kitty == tuple(sorted(fh.parse_cards(deal.kitty)))
    assert all(fh.observe(state, seat).kitty is None for seat in range(4))
    end = finish(state)
    assert len(end.tricks) == 10
    assert end.last_hand is not None
    assert end.last_hand.all_pass
    assert end.last_hand.contract is None and end.last_hand.made is None
    assert end.last_hand.tricks == (0, 10)
    assert end.scores == (0, 100)  # 10 a trick to each side (the strong side took all ten)
    assert end.dealer == 0
    played = {card for trick in end.tricks for card in trick.cards}
    assert not played & set(fh.parse_cards(deal.kitty))
    # No Trumps: the Joker (seat 3's) wins the trick it is played to; no bowers (JD is a diamond).
    joker_trick = next(t for t in end.tricks if fh.JOKER in t.cards)
    assert joker_trick.winner == 3
    assert fh.effective_suit(fh.parse_card("JD"), fh.Strain.NO_TRUMPS) is fh.Suit.DIAMONDS


def test_all_pass_scores_both_sides_V_ALL_PASS() -> None:
    """Both sides score 10 a trick: the sweep side with the Joker moved loses the last trick."""
    all_pass = fh.Rules(all_pass_no_trumps=True)
    deal = last_trick_deal(0)
    state = go(dealt(all_pass, deal.hands, deal.kitty, dealer=1), "pass pass pass pass")
    assert state.to_act == 2  # left of dealer 1
    end = finish(state)
    assert end.last_hand is not None
    assert end.last_hand.tricks == (9, 1)
    assert end.last_hand.changes == (90, 10)
    assert end.tricks[-1].winner == 3 and end.tricks[-1].cards.count(fh.JOKER) == 1


# -- the Joker ------------------------------------------------------------------------------


def joker_lead_hand(rules: fh.Rules) -> fh.GameState:
    """Seat 0 holds the Joker and every top card, at 6NT, nomination declined."""
    state = won(dealt(rules, JOKER_LEAD.hands, JOKER_LEAD.kitty, dealer=3), 0, "6NT")
    state = to_play(state)
    assert state.joker_suit is None and state.to_act == 0
    return state


def test_joker_lead_last_V_JOKER_LEAD_LAST() -> None:
    last = fh.Rules(joker_lead_last=True)
    default, option = joker_lead_hand(DEFAULT), joker_lead_hand(last)
    # Trick 1: by default a suitless Joker may be led naming any unled suit (R7.4).
    assert [p for p in plays(default) if p.startswith("Jo")] == ["Jo:S", "Jo:C", "Jo:D", "Jo:H"]
    assert not any(p.startswith("Jo") for p in plays(option))
    state = go(default, "Jo:H")
    assert state.led_suit is fh.Suit.HEARTS
    text = refused(option, fh.Play(fh.JOKER, fh.Suit.HEARTS), R.JOKER_LEAD_TOO_EARLY)
    assert "V-JOKER-LEAD-LAST" in text
    # ... only to the last trick, with no suit named; it wins.
    for start in (default, option):
        policy = scripted({0: "AS AC AD AH KH QH JH 10H 9H Jo"})
        state = start
        while len(state.tricks) < 9:
            if start is option and state.to_act == 0 and not state.trick:
                assert not any(p.startswith("Jo") for p in plays(state))
            state = fh.apply(state, policy(state))
        assert state.to_act == 0 and plays(state) == ["Jo"]
        end = finish(state, policy)
        assert end.tricks[-1].leader == 0 and end.tricks[-1].winner == 0
        assert end.tricks[-1].led_suit is None
        assert end.scores == (250, 0)


def test_joker_name_any_V_JOKER_NAME_ANY() -> None:
    any_suit = fh.Rules(joker_name_any=True)
    after_spades = {
        "default": go(joker_lead_hand(DEFAULT), "AS 9S 8S JD"),
        "option": go(joker_lead_hand(any_suit), "AS 9S 8S JD"),
    }
    assert after_spades["default"].to_act == 0
    jokers = {k: [p for p in plays(s) if p.startswith("Jo")] for k, s in after_spades.items()}
    assert jokers == {
        "default": ["Jo:C", "Jo:D", "Jo:H"],
        "option": ["Jo:S", "Jo:C", "Jo:D", "Jo:H"],
    }
    text = refused(
        after_spades["default"], fh.Play(fh.JOKER, fh.Suit.SPADES), R.JOKER_SUIT_ALREADY_LED
    )
    assert "R7.4" in text
    state = go(after_spades["option"], "Jo:S")
    assert state.led_suit is fh.Suit.SPADES
    assert plays(state) == ["10S", "JS", "QS", "KS"]  # seat 1 must follow spades
    # After all four suits have been led the default allows no Joker lead (R7.5); the option does.
    four = "AS 9S 8S JD | AC 9C 8C 4D | AD 10S KD 5D | AH JS 5S 8H"
    state = go(joker_lead_hand(DEFAULT), four)
    assert state.to_act == 0 and not any(p.startswith("Jo") for p in plays(state))
    state = go(joker_lead_hand(any_suit), four)
    assert [p for p in plays(state) if p.startswith("Jo")] == ["Jo:S", "Jo:C", "Jo:D", "Jo:H"]


def test_no_nomination_V_NO_NOMINATION() -> None:
    off = fh.Rules(joker_nomination=False)

    def after_discard(rules: fh.Rules) -> fh.GameState:
        state = won(dealt(rules, NOMINATE_HEARTS.hands, NOMINATE_HEARTS.kitty, dealer=3), 0, "6NT")
        return go(state, f"discard {NOMINATE_HEARTS.kitty}")

    default = after_discard(DEFAULT)
    assert default.phase is fh.Phase.NOMINATE
    assert names(fh.legal_actions(default)) == [
        "nominate S",
        "nominate C",
        "nominate D",
        "nominate H",
        "decline",
    ]
    nominated = go(default, "nominate H")
    assert nominated.joker_suit is fh.Suit.HEARTS
    assert "Jo" in plays(nominated)  # led as a heart, no suit named (R7.1)
    state = after_discard(off)
    assert (state.phase, state.to_act, state.joker_suit) == (fh.Phase.PLAY, 0, None)
    refused(state, fh.Nominate(fh.Suit.HEARTS), R.WRONG_PHASE)
    assert [p for p in plays(state) if p.startswith("Jo")] == ["Jo:S", "Jo:C", "Jo:D", "Jo:H"]
    # The Joker stays suitless: led naming clubs, it wins; seat 1 must follow clubs.
    state = go(state, "Jo:C")
    assert plays(state) == ["QC", "KC", "AC"]
    state = go(state, "AC 8C 10C")
    assert state.tricks[0].winner == 0


# -- play options ----------------------------------------------------------------------------


def open_misere_hand(rules: fh.Rules) -> fh.GameState:
    """Seat 0 (weak, no Joker) has won the auction with open misère: phase DISCARD."""
    deal = sweep(1)
    state = go(dealt(rules, deal.hands, deal.kitty, dealer=3), "OM pass pass pass")
    assert contract_won(state) == (fh.Phase.DISCARD, fh.OPEN_MISERE, 0)
    return state


def test_open_before_lead_V_OPEN_BEFORE_LEAD() -> None:
    early = fh.Rules(open_before_lead=True)
    for rules in (DEFAULT, early):
        state = open_misere_hand(rules)
        assert not state.exposed
        assert all(fh.observe(state, seat).exposed_hand is None for seat in range(4))
    default, option = to_play(open_misere_hand(DEFAULT)), to_play(open_misere_hand(early))
    hand = default.hand(0)
    assert option.hand(0) == hand
    # Before the first lead: hidden by default (R6.3), face up with the option, for every seat.
    assert not default.exposed
    assert [fh.observe(default, seat).exposed_hand for seat in range(4)] == [None] * 4
    assert option.exposed
    assert [fh.observe(option, seat).exposed_hand for seat in range(4)] == [hand] * 4
    # After trick 1 both show it.
    default, option = go(default, "5S 10S Jo"), go(option, "5S 10S Jo")
    assert len(default.tricks) == 1 and default.phase is fh.Phase.PLAY
    assert fh.observe(default, 1).exposed_hand == fh.observe(option, 1).exposed_hand
    assert fh.observe(default, 1).exposed_hand == default.hand(0)


def test_eldest_leads_V_ELDEST_LEADS() -> None:
    eldest = fh.Rules(eldest_leads=True)
    for rules, leader in ((DEFAULT, 2), (eldest, 0)):
        state = to_play(won(dealt(rules, BOWERS.hands, BOWERS.kitty, dealer=3), 2, "7NT"))
        assert state.to_act == leader
        end = finish(state)
        assert end.tricks[0].leader == leader


def test_eldest_leads_skips_the_sitting_out_partner_V_ELDEST_LEADS() -> None:
    """Misère by seat 2: its partner, seat 0 (left of the dealer), sits out, so seat 1 leads."""
    eldest = fh.Rules(eldest_leads=True)
    deal = sweep(1)
    for rules, leader in ((DEFAULT, 2), (eldest, 1)):
        state = won(dealt(rules, deal.hands, deal.kitty, dealer=3), 2, "M")
        state = to_play(state, nominate="decline")
        assert state.sitting_out == {0}
        assert state.to_act == leader


# -- scoring options -------------------------------------------------------------------------


def test_no_slam_score_hand_V_NO_SLAM() -> None:
    no_slam = fh.Rules(slam_bonus=False)
    for text, value in (("6S", 40), ("7H", 200), ("8S", 240)):
        bid = fh.parse_call(text)
        assert fh.score_hand(bid, 0, (10, 0)) == (250, 0)
        assert fh.score_hand(bid, 0, (10, 0), rules=no_slam) == (value, 0)
    assert fh.score_hand(fh.parse_call("8C"), 1, (0, 10), rules=no_slam) == (0, 260)


def test_no_slam_in_play_V_NO_SLAM() -> None:
    deal = sweep(0)
    for rules, change in ((DEFAULT, 250), (fh.Rules(slam_bonus=False), 120)):
        end = play_hand(fh.new_game(rules, dealer=3), deal, "6NT", 0)
        assert end.last_hand is not None
        assert end.last_hand.tricks == (10, 0)
        assert end.scores == (change, 0)


@pytest.mark.parametrize("points", [0, 5, 7, 10, 15, -5])
def test_trick_points_score_hand_V_TRICK_POINTS(points: int) -> None:
    rules = fh.Rules(trick_points=points)
    assert fh.score_hand(fh.parse_call("7H"), 0, (7, 3), rules=rules) == (200, 3 * points)
    assert fh.score_hand(fh.parse_call("7H"), 0, (6, 4), rules=rules) == (-200, 4 * points)
    assert fh.score_hand(fh.MISERE, 0, (0, 10), rules=rules) == (250, 0)  # misère: none (R8.4)


@pytest.mark.parametrize(("points", "defence"), [(10, 100), (0, 0), (7, 70)])
def test_trick_points_in_play_V_TRICK_POINTS(points: int, defence: int) -> None:
    rules = fh.Rules(trick_points=points)
    end = play_hand(fh.new_game(rules, dealer=3), sweep(0), "6NT", 1)
    assert end.last_hand is not None and end.last_hand.tricks == (10, 0)
    assert end.scores == (defence, -120)


@pytest.mark.parametrize("cap", [490, 480])
def test_cap_score_hand_V_CAP(cap: int) -> None:
    rules = fh.Rules(score_cap=cap)
    seven = fh.parse_call("7H")
    # old < cap: min(old + points, cap).
    assert fh.score_hand(seven, 0, (7, 3), rules=rules, scores=(0, 400)) == (200, 30)
    assert fh.score_hand(seven, 0, (6, 4), rules=rules, scores=(0, 470)) == (-200, cap - 470)
    assert fh.score_hand(seven, 0, (7, 3), rules=rules, scores=(0, cap - 30)) == (200, 30)
    assert fh.score_hand(seven, 0, (7, 3), rules=rules, scores=(0, cap - 10)) == (200, 10)
    # old >= cap: unchanged.
    assert fh.score_hand(seven, 0, (6, 4), rules=rules, scores=(0, cap)) == (-200, 0)
    assert fh.score_hand(seven, 0, (6, 4), rules=rules, scores=(0, cap + 5)) == (-200, 0)
    # Contract points are not capped.
    assert fh.score_hand(seven, 0, (7, 3), rules=rules, scores=(cap - 10, 0)) == (200, 30)
    assert fh.score_hand(seven, 0, (7, 3), rules=rules, scores=(cap, 0)) == (200, 30)
    # Without the option nothing is capped.
    assert fh.score_hand(seven, 0, (6, 4), scores=(0, 470)) == (-200, 40)
    assert fh.score_hand(seven, 0, (6, 4), scores=(0, 495)) == (-200, 40)


def test_cap_490_V_CAP() -> None:
    cap_game(490)


def test_cap_480_V_CAP() -> None:
    cap_game(480)


#: Side 0 makes a slam (250), defends three failed 6NTs, then makes another slam.
CAP_PLAN: list[tuple[Deal, str, int]] = [
    (sweep(0), "6NT", 0),
    (sweep(0), "6NT", 1),
    (sweep(0), "6NT", 1),
    (sweep(0), "6NT", 1),
    (sweep(0), "6NT", 1),
    (sweep(0), "6NT", 0),
]


def cap_game(cap: int) -> None:
    default = [s.scores for s in play_hands(DEFAULT, CAP_PLAN)]
    assert default == [(250, 0), (350, -120), (450, -240), (550, -360), (650, -480), (900, -480)]
    capped = play_hands(fh.Rules(score_cap=cap), CAP_PLAN)
    assert [s.scores for s in capped] == [
        (250, 0),
        (350, -120),
        (450, -240),
        (cap, -360),  # old 450 < cap: min(450 + 100, cap)
        (cap, -480),  # old = cap: unchanged
        (cap + 250, -480),  # contract points are not capped
    ]
    final = capped[-1]
    assert final.result == fh.GameResult((0,), 0, fh.Outcome.CONTRACT_MADE)
    # Above the cap by contract points (490 >= cap): defence points leave the score alone.
    above = [
        (sweep(0), "6NT", 0),
        (last_trick_deal(0), "6NT", 0),
        (last_trick_deal(0), "6NT", 0),
        (sweep(0), "6NT", 1),
    ]
    default = [s.scores for s in play_hands(DEFAULT, above)]
    assert default == [(250, 0), (370, 10), (490, 20), (590, -100)]
    capped = play_hands(fh.Rules(score_cap=cap), above)
    assert [s.scores for s in capped] == [(250, 0), (370, 10), (490, 20), (490, -100)]


def test_defence_wins_score_hand_V_DEFENCE_WINS() -> None:
    wins = fh.Rules(defence_wins=True)
    # Reaching 500 on defence: plays on by default (R9.3), wins with the option.
    assert game_result((0,), False, (-100, 510), DEFAULT) is None
    assert game_result((0,), False, (-100, 510), wins) == fh.GameResult(
        (1,), 0, fh.Outcome.TARGET_REACHED
    )
    assert game_result((0,), True, (300, 510), wins) == fh.GameResult(
        (1,), 0, fh.Outcome.TARGET_REACHED
    )
    # Both sides cross in one hand: the contracting side wins, even when not higher.
    for scores in ((500, 500), (510, 520), (600, 510)):
        assert game_result((0,), True, scores, wins) == fh.GameResult(
            (0,), 0, fh.Outcome.CONTRACT_MADE
        )
        assert game_result((1,), True, scores[::-1], wins) == fh.GameResult(
            (1,), 1, fh.Outcome.CONTRACT_MADE
        )


def test_defence_wins_V_DEFENCE_WINS() -> None:
    plan = CAP_PLAN[:4]  # side 0 reaches 550 by defending in the fourth hand
    default = play_hands(DEFAULT, plan)
    assert default[-1].scores == (550, -360)
    assert default[-1].phase is fh.Phase.DEAL and default[-1].result is None
    wins = play_hands(fh.Rules(defence_wins=True), plan)
    assert len(wins) == 4
    assert wins[-1].scores == (550, -360)
    assert wins[-1].phase is fh.Phase.GAME_OVER
    assert wins[-1].result == fh.GameResult((0,), 1, fh.Outcome.TARGET_REACHED)


def test_defence_wins_both_sides_cross_V_DEFENCE_WINS() -> None:
    """The last hand takes side 0 (contracting, 8NT made) and side 1 (defending) both to 500:
    the contracting side wins alone."""
    plan = [
        (sweep(0), "8NT", 0),
        (sweep(0), "6NT", 1),
        (sweep(1), "6NT", 0),
        (sweep(1), "9NT", 1),
        (last_trick_deal(1), "6NT", 0),
        (last_trick_deal(0), "8NT", 0),
    ]
    for rules in (fh.Rules(defence_wins=True), DEFAULT):
        after = play_hands(rules, plan)
        assert [s.scores for s in after] == [
            (320, 0),
            (420, -120),
            (300, -20),
            (300, 400),
            (180, 490),
            (500, 500),
        ]
        assert after[-1].result == fh.GameResult((0,), 0, fh.Outcome.CONTRACT_MADE)


def test_target_V_TARGET() -> None:
    low = fh.Rules(target=250, losing_score=-120)
    for rules, over in ((DEFAULT, False), (low, True)):
        made = play_hand(fh.new_game(rules, dealer=3), sweep(0), "6NT", 0)
        assert made.scores == (250, 0)
        assert made.is_over is over
        failed = play_hand(fh.new_game(rules, dealer=3), sweep(0), "6NT", 1)
        assert failed.scores == (100, -120)
        assert failed.is_over is over
        if over:
            assert made.result == fh.GameResult((0,), 0, fh.Outcome.CONTRACT_MADE)
            assert failed.result == fh.GameResult((0,), 1, fh.Outcome.OUT_BACKWARDS)
    # Just short of either score plays on.
    near = fh.Rules(target=260, losing_score=-130)
    assert not play_hand(fh.new_game(near, dealer=3), sweep(0), "6NT", 0).is_over
    assert not play_hand(fh.new_game(near, dealer=3), sweep(0), "6NT", 1).is_over


@pytest.mark.parametrize(
    "option", ["target", "losing_score", "trick_points", "score_cap"], ids=lambda name: name
)
@pytest.mark.parametrize("size", [10**9 + 1, 2**70, 10**5000], ids=["1e9+1", "2**70", "1e5000"])
def test_rules_refuse_a_number_their_saved_game_could_not_load_V_TARGET(
    option: str, size: int
) -> None:
    """What Rules accepts, to_json saves and from_json loads again: a target, a score or the
    points of a trick beyond 10**9 either way is refused at construction (never printed
    whole: Python refuses to print an int of over 4,300 digits)."""
    value = -size if option in ("losing_score", "score_cap") else size
    given: dict[str, Any] = {option: value}
    with pytest.raises(
        fh.FiveHundredError, match=f"{option} is out of range: at most 1,000,000,000"
    ):
        fh.Rules(**given)
    edge = fh.Rules(target=10**9, losing_score=-(10**9), trick_points=10**9, score_cap=-(10**9))
    assert fh.from_json(fh.to_json(edge), cls=fh.Rules) == edge


def test_misere_playout_V_MISERE_PLAYOUT() -> None:
    """Seat 0 holds the strong black cards and bids misère: it wins trick 1."""
    playout = fh.Rules(misere_playout=True)
    deal = sweep(0)
    ends = {}
    for rules in (DEFAULT, playout):
        state = to_play(won(dealt(rules, deal.hands, deal.kitty, dealer=3), 0, "M"))
        assert state.sitting_out == {2}
        ends[rules.misere_playout] = finish(state)
    short, full = ends[False], ends[True]
    assert len(short.tricks) == 1 and short.tricks[0].winner == 0
    assert len(full.tricks) == 10
    assert all(len(t.plays) == 3 for t in full.tricks)
    for end in (short, full):
        assert end.phase is fh.Phase.DEAL
        assert end.last_hand is not None and end.last_hand.made is False
        assert end.scores == (-250, 0)


def test_same_dealer_V_SAME_DEALER() -> None:
    same = fh.Rules(same_dealer=True)
    for rules, next_dealer in ((DEFAULT, 0), (same, 3)):
        state = opening(rules, "pass pass pass pass")
        assert state.phase is fh.Phase.DEAL
        assert state.dealer == next_dealer
        assert state.hand_number == 1
        state = fh.deal(state, seed=1)
        assert state.to_act == (next_dealer + 1) % 4
    # A hand that is played still passes the deal on.
    end = play_hand(fh.new_game(same, dealer=3), sweep(0), "6NT", 0)
    assert end.dealer == 0


# -- V-45 --------------------------------------------------------------------------------------


def test_45_card_deal_V_45() -> None:
    rules = fh.Rules(black_fours=True)
    deck = rules.deck
    state = fh.deal(fh.new_game(rules, dealer=3), cards=deck)
    # Packets 3, 4, 3 to each hand from the dealer's left; kitty packets 2, 1, 2.
    assert state.hand(0) == deck[0:3] + deck[14:18] + deck[31:34]
    assert state.hand(1) == deck[3:6] + deck[18:22] + deck[34:37]
    assert state.hand(2) == deck[6:9] + deck[22:26] + deck[37:40]
    assert state.hand(3) == deck[9:12] + deck[26:30] + deck[40:43]
    assert state.kitty == deck[12:14] + deck[30:31] + deck[43:45]
    default = fh.deal(fh.new_game(DEFAULT, dealer=3), cards=DEFAULT.deck)
    assert len(default.kitty) == 3
    assert DEFAULT.kitty_size == 3 and rules.kitty_size == 5


def test_45_card_discard_V_45() -> None:
    rules = fh.Rules(black_fours=True)
    kitty = "4S 4C QH KH AH"
    hands = list(sweep(0).hands)
    state = won(dealt(rules, hands, kitty, dealer=3), 0, "6NT")
    assert fh.observe(state, 0).kitty == tuple(sorted(fh.parse_cards(kitty)))
    discards = fh.legal_actions(state)
    assert len(discards) == comb(15, 5) == 3003
    text = refused(state, fh.Discard(fh.parse_cards("4S 4C QH")), R.WRONG_DISCARD_COUNT)
    assert "5" in text
    state = go(state, "discard 4S 4C QH KH 10S")
    assert state.phase is fh.Phase.NOMINATE  # every NT contract (R4.3, R7.1)
    state = go(state, "decline")
    assert state.phase is fh.Phase.PLAY
    assert len(state.hand(0)) == 10 and fh.parse_card("AH") in state.hand(0)
    end = finish(state)
    played = [card for trick in end.tricks for card in trick.cards]
    assert len(played) == 40
    assert sorted(played + list(end.discards)) == sorted(rules.deck)
    # The default game discards 3 of 13.
    default = won(dealt(DEFAULT, hands, "QH KH AH", dealer=3), 0, "6NT")
    assert len(fh.legal_actions(default)) == comb(13, 3) == 286
    refused(default, fh.Discard(fh.parse_cards("QH KH AH 5S 6S")), R.WRONG_DISCARD_COUNT)
