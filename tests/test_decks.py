"""Golden decks: the exact cards of every deck (R1.1, V-45, P2, P3, P5, P6), written out."""

from __future__ import annotations

import pytest

import fivehundred as fh

DECK_33 = (
    "7S 8S 9S 10S JS QS KS AS "
    "7C 8C 9C 10C JC QC KC AC "
    "7D 8D 9D 10D JD QD KD AD "
    "7H 8H 9H 10H JH QH KH AH "
    "Jo"
)
DECK_43 = (
    "5S 6S 7S 8S 9S 10S JS QS KS AS "
    "5C 6C 7C 8C 9C 10C JC QC KC AC "
    "4D 5D 6D 7D 8D 9D 10D JD QD KD AD "
    "4H 5H 6H 7H 8H 9H 10H JH QH KH AH "
    "Jo"
)
DECK_45 = (
    "4S 5S 6S 7S 8S 9S 10S JS QS KS AS "
    "4C 5C 6C 7C 8C 9C 10C JC QC KC AC "
    "4D 5D 6D 7D 8D 9D 10D JD QD KD AD "
    "4H 5H 6H 7H 8H 9H 10H JH QH KH AH "
    "Jo"
)
DECK_53 = (
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS "
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC "
    "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD "
    "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH "
    "Jo"
)
DECK_63 = (
    "2S 3S 4S 5S 6S 7S 8S 9S 10S 11S 12S JS QS KS AS "
    "2C 3C 4C 5C 6C 7C 8C 9C 10C 11C 12C JC QC KC AC "
    "2D 3D 4D 5D 6D 7D 8D 9D 10D 11D 12D 13D JD QD KD AD "
    "2H 3H 4H 5H 6H 7H 8H 9H 10H 11H 12H 13H JH QH KH AH "
    "Jo"
)


def deck_text(rules: fh.Rules) -> str:
    return " ".join(str(card) for card in rules.deck)


@pytest.mark.parametrize("players", [2, 3])
def test_golden_deck_33_cards_P2_P3(players: int) -> None:
    rules = fh.Rules(players=players)
    assert deck_text(rules) == DECK_33
    assert len(rules.deck) == 33
    assert deck_text(fh.Rules.for_players(players)) == DECK_33


def test_golden_deck_43_cards_R1_1() -> None:
    assert deck_text(fh.Rules()) == DECK_43
    assert len(fh.Rules().deck) == 43
    assert deck_text(fh.Rules.australian()) == DECK_43


def test_golden_deck_45_cards_V_45() -> None:
    rules = fh.Rules(black_fours=True)
    assert deck_text(rules) == DECK_45
    assert len(rules.deck) == 45
    assert set(rules.deck) - set(fh.Rules().deck) == set(fh.parse_cards("4S 4C"))


def test_golden_deck_53_cards_P5() -> None:
    rules = fh.Rules(players=5)
    assert deck_text(rules) == DECK_53
    assert len(rules.deck) == 53
    assert deck_text(fh.Rules.five_players(partner_by_seat=True)) == DECK_53


@pytest.mark.parametrize("team_size", [2, 3])
def test_golden_deck_63_cards_P6(team_size: int) -> None:
    rules = fh.Rules(players=6, team_size=team_size)
    assert deck_text(rules) == DECK_63
    assert len(rules.deck) == 63
    # Beyond the full 52 and the Joker: 11 and 12 in every suit, 13 in hearts and diamonds.
    extra = set(rules.deck) - set(fh.Rules(players=5).deck)
    assert extra == set(fh.parse_cards("11S 12S 11C 12C 11D 12D 13D 11H 12H 13H"))


@pytest.mark.parametrize(
    ("rules", "golden"),
    [
        (fh.Rules(players=2), DECK_33),
        (fh.Rules(players=3), DECK_33),
        (fh.Rules(), DECK_43),
        (fh.Rules(black_fours=True), DECK_45),
        (fh.Rules(players=5), DECK_53),
        (fh.Rules(players=6), DECK_63),
    ],
)
def test_golden_decks_deal_every_card_once(rules: fh.Rules, golden: str) -> None:
    """A seeded deal hands out exactly the golden deck: hands, kitty and the P2 dead hand."""
    state = fh.deal(fh.new_game(rules, dealer=0), seed=500)
    dealt = [c for hand in state.hands for c in hand] + [*state.kitty, *state.dead_hand]
    assert sorted(dealt) == sorted(fh.parse_cards(golden))
    assert len(dealt) == len(set(dealt))
    assert all(len(hand) == 10 for hand in state.hands)
    assert len(state.kitty) == rules.kitty_size
    assert len(state.dead_hand) == (10 if rules.players == 2 else 0)
