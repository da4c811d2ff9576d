"""What the game server sends its browser table to show: every card in the library's order
(the suits after the trumps alternating in colour where the hand allows) and the trumps
marked (R1.2-R1.4, R5.2, R6.3, R7.1, P6).

The answer's ``display`` comes from :func:`fivehundred.tricks.display_groups` and
:func:`~fivehundred.tricks.is_trump`, so the page's script holds no card order of its
own: these tests check the answer against the rules, and the script for a rank list.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

import fivehundred as fh
from fivehundred.server._present import alternate
from fivehundred.server.tables import HUMAN, SPECTATOR, Table, Tables
from fivehundred.tricks import display_groups
from helpers import BOWERS, JOKER_VOID, after_auction, cards, in_play, run

#: Seat 1 can call open misère (low cards); seat 3 holds the Joker.
LOW = (
    "AS KS QS JS AC KC QC JC AD KD",
    "5S 6S 7S 5C 6C 4D 5D 4H 5H 6H",
    "8S 9S 10S 7C 8C 9C 6D 7D 8D 9D",
    "Jo QD JD 10D AH KH QH JH 10H 9H",
)


def display(state: fh.GameState, seat: int) -> Any:
    """The ``display`` part of ``seat``'s answer at a table in ``state``."""
    table = Table(id="t", seats=(HUMAN,) * state.rules.players, seed="s", hashes={}, state=state)
    return table.view(seat)["display"]


def shown(groups: list[list[str]]) -> list[str]:
    return [" ".join(group) for group in groups]


def dealt_to_seat_0(rules: fh.Rules, hand: str, dealer: int) -> fh.GameState:
    """A first hand in which seat 0 is dealt ``hand`` (the other cards in deck order)."""
    probe = fh.deal(fh.new_game(rules, dealer=dealer), cards=rules.deck)
    places = {rules.deck.index(card) for card in probe.hand(0)}
    wanted = iter(cards(hand))
    others = iter(card for card in rules.deck if card not in cards(hand))
    deck = [next(wanted) if at in places else next(others) for at in range(len(rules.deck))]
    return fh.deal(fh.new_game(rules, dealer=dealer), cards=deck)


# -- the order of a hand (P6, R1.2-R1.4) ---------------------------------------------------


def test_a_six_player_hand_is_sent_in_rank_order_with_13_12_11_P6() -> None:
    # the browser once showed this hand as A♠ 12♠ | 8♣ 11♣ | 10♦ 7♦ 4♦ 13♦ | 4♥ 2♥
    state = dealt_to_seat_0(fh.Rules(players=6), "12S AS 8C 11C 4D 7D 10D 13D 2H 4H", dealer=5)
    assert state.phase is fh.Phase.BIDDING
    sent = display(state, 0)
    assert shown(sent["hand"]) == ["AS 12S", "13D 10D 7D 4D", "11C 8C", "4H 2H"]
    assert sent["trumps"] == []  # nothing is marked before there is a contract


def test_a_six_player_table_sends_every_seat_the_librarys_order_P6() -> None:
    tables = Tables(":memory:")
    table, tokens = tables.create({"players": 6}, [HUMAN] * 6)
    assert table.state.phase is fh.Phase.BIDDING
    assert sorted(tokens) == [SPECTATOR, 0, 1, 2, 3, 4, 5]  # every seat's, and the watcher's
    for seat in range(6):
        answer = table.view(seat)
        hand = fh.parse_cards(" ".join(answer["view"]["view"]["hand"]))
        groups = alternate(display_groups(hand, None), trumps=False)
        expected = [[str(card) for card in group] for group in groups]
        assert answer["display"]["hand"] == expected
        assert sorted(card for group in expected for card in group) == sorted(map(str, hand))
    tables.close()


# -- the trumps (R1.3, R1.4, R7.1) ------------------------------------------------------


def test_a_trump_contract_sends_its_trumps_joker_and_bowers_first_R1_3() -> None:
    state = in_play("7H", 0, BOWERS.hands, BOWERS.kitty)
    sent = display(state, 1)
    assert " ".join(sent["trumps"]) == "Jo JH JD AH KH QH 10H 9H 8H 7H 6H 5H 4H"
    assert shown(sent["hand"]) == ["JD", "9S 8S 7S 6S 5S", "8C 7C 6C 5C"]  # left bower first
    assert shown(display(state, 0)["hand"]) == ["JH AH KH 10H 9H", "AS KS", "AD KD", "AC"]


def test_in_misere_the_free_joker_is_the_one_trump_R1_4() -> None:
    state = in_play("M", 1, JOKER_VOID.hands, JOKER_VOID.kitty)
    sent = display(state, 1)
    assert sent["trumps"] == ["Jo"]
    assert shown(sent["hand"])[0] == "Jo"


def test_a_nominated_joker_is_no_trump_and_heads_its_suit_R7_1() -> None:
    state = in_play("7NT", 1, JOKER_VOID.hands, JOKER_VOID.kitty, nominate="nominate H")
    assert state.joker_suit is fh.Suit.HEARTS
    sent = display(state, 1)
    assert sent["trumps"] == []
    assert shown(sent["hand"]) == ["AD KD QD JD", "Jo AH KH QH JH 10H"]


# -- the kitty and the open misère hand (R4.1, R6.3) -------------------------------------


def test_the_kitty_is_sorted_and_in_the_hand_while_the_contractor_discards_R4_1() -> None:
    state = after_auction("7H", 0, BOWERS.hands, BOWERS.kitty)
    sent = display(state, 0)
    assert sent["kitty"] == ["QS", "JS", "10S"]
    assert shown(sent["hand"]) == ["JH AH KH 10H 9H", "AS KS QS JS 10S", "AD KD", "AC"]
    assert display(state, 1)["kitty"] is None


def test_an_exposed_open_misere_hand_is_sent_in_order_R6_3() -> None:
    state = run(after_auction("OM", 1, LOW, "10C 8H 7H"), "discard 10C 8H 7H", "decline")
    state = run(state, "4D", "6D")
    assert display(state, 0)["exposed_hand"] is None
    state = run(state, "KD")  # trick 1 is complete (seat 3 sits out): seat 1's hand is shown
    assert shown(display(state, 0)["exposed_hand"]) == ["7S 6S 5S", "5D", "6C 5C", "6H 5H 4H"]


# -- the page's script -------------------------------------------------------------------


def test_the_pages_script_holds_no_card_order_of_its_own() -> None:
    script = (resources.files("fivehundred.server") / "static" / "table.js").read_text()
    assert "answer.display" in script
    ranks = re.compile(r'\[[^\]]*"(?:10|J|Q|K|A|Jo)"')  # e.g. ["4", ..., "10", "J", "Q"]
    assert not ranks.search(script)
    for name in ("RANKS", "sortHand", "isTrump", "SAME_COLOUR", "trumpSuit"):
        assert name not in script


def test_the_suits_alternate_in_colour_where_the_hand_allows() -> None:
    """Black and red suits take turns after the trumps; two of one colour sit together
    only when no suit of the other colour is left."""
    hand = fh.parse_cards("AS KC QD JH 9S 9C")
    assert [str(g[0].suit) for g in alternate(display_groups(hand, None), trumps=False)] == [
        str(fh.Suit.SPADES),
        str(fh.Suit.DIAMONDS),
        str(fh.Suit.CLUBS),
        str(fh.Suit.HEARTS),
    ]
    trumps = display_groups(hand, fh.parse_call("7D"))  # hearts' jack is a trump: red first
    shown_ = alternate(trumps, trumps=True)
    assert [str(c) for c in shown_[0]] == ["JH", "QD"]
    assert [g[0].suit.is_red for g in shown_[1:] if g[0].suit is not None] == [False, False]
