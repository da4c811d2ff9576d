"""Card and call notation: tolerant parsing, canonical text, repr round-trips, errors, ordering."""

from __future__ import annotations

from typing import Any, cast

import pytest

import fivehundred as fh

DECK = fh.Rules().deck
LADDER_TEXT = [
    "6S", "6C", "6D", "6H", "6NT", "7S", "7C", "7D", "7H", "7NT", "M",
    "8S", "8C", "8D", "8H", "8NT", "9S", "9C", "9D", "9H", "9NT",
    "10S", "10C", "10D", "OM", "BM", "10H", "10NT",
]  # fmt: skip
LADDER = [fh.parse_call(t) for t in LADDER_TEXT]


def rung(call: fh.Call) -> int:
    """The rung of a call on the R3.3 ladder (OM and BM share one)."""
    text = str(call)
    return LADDER_TEXT.index("OM" if text == "BM" else text)


# -- cards ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("10H", "10H"),
        ("10h", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("J♥", "JH"),
        ("j♥", "JH"),
        ("JH", "JH"),
        ("jh", "JH"),
        ("A♠", "AS"),
        ("q♦", "QD"),
        ("K♣", "KC"),
        ("4d", "4D"),
        ("  9s ", "9S"),
        ("joker", "Jo"),
        ("Joker", "Jo"),
        ("JOKER", "Jo"),
        ("Jo", "Jo"),
        ("jo", "Jo"),
        ("11C", "11C"),
    ],
)
def test_parse_card_tolerant_forms(text: str, canonical: str) -> None:
    card = fh.parse_card(text)
    assert str(card) == canonical
    assert fh.Card.parse(text) == card


def test_parse_card_joker_is_the_joker() -> None:
    assert fh.parse_card("joker") is fh.JOKER
    assert fh.JOKER.is_joker
    assert str(fh.JOKER) == "Jo"


def test_card_str_is_canonical_for_every_card_in_the_deck() -> None:
    for card in DECK:
        text = str(card)
        assert fh.parse_card(text) == card
        assert str(fh.parse_card(text.lower())) == text
    assert str(fh.Card(fh.Rank.TEN, fh.Suit.HEARTS)) == "10H"
    assert str(fh.Card(fh.Rank.JACK, fh.Suit.DIAMONDS)) == "JD"
    assert str(fh.Card(fh.Rank.ACE, fh.Suit.SPADES)) == "AS"


@pytest.mark.parametrize("card", [*DECK, fh.parse_card("11C"), fh.parse_card("13H")])
def test_card_repr_round_trips(card: fh.Card) -> None:
    assert eval(repr(card), {"Card": fh.Card}) == card


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10h, JD  Jo", ["10H", "JD", "Jo"]),
        ("AS KS, qs", ["AS", "KS", "QS"]),
        ("4D,5D,6D", ["4D", "5D", "6D"]),
        ("  TH\tj♥\n joker ", ["10H", "JH", "Jo"]),
        ("", []),
        ("   ", []),
    ],
)
def test_parse_cards_reads_separated_lists(text: str, expected: list[str]) -> None:
    assert [str(c) for c in fh.parse_cards(text)] == expected


@pytest.mark.parametrize(
    "text", ["1H", "ZZ", "10X", "J", "", "   ", "AH KH", "Jo:H", "H10", "1 0H"]
)
def test_bad_card_text_raises_notation_error(text: str) -> None:
    with pytest.raises(fh.NotationError) as info:
        fh.parse_card(text)
    err = info.value
    assert isinstance(err, ValueError)
    assert isinstance(err, fh.FiveHundredError)
    assert err.text == text
    assert repr(text) in str(err)
    assert "10H" in str(err)  # the valid forms are shown


def test_bad_card_in_a_list_names_that_card() -> None:
    with pytest.raises(fh.NotationError) as info:
        fh.parse_cards("AS KS 1Q")
    assert info.value.text == "1Q"
    assert "'1Q'" in str(info.value)


@pytest.mark.parametrize("value", [10, None, 1.5, b"AS", ["AS"]])
def test_non_text_card_raises_notation_error(value: Any) -> None:
    with pytest.raises(fh.NotationError) as info:
        fh.parse_card(value)
    assert isinstance(info.value, ValueError)
    assert type(value).__name__ in str(info.value)
    assert repr(value) in str(info.value)
    with pytest.raises(fh.NotationError):
        fh.parse_cards(value)


# -- calls ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("7NT", "7NT"),
        ("7nt", "7NT"),
        ("7 NT", "7NT"),
        ("6S", "6S"),
        ("6s", "6S"),
        ("6♠", "6S"),
        ("10♥", "10H"),
        ("10h", "10H"),
        ("9♦", "9D"),
        ("8♣", "8C"),
        ("M", "M"),
        ("m", "M"),
        ("misere", "M"),
        ("misère", "M"),
        ("MISERE", "M"),
        ("OM", "OM"),
        ("om", "OM"),
        ("open misere", "OM"),
        ("BM", "BM"),
        ("blind misère", "BM"),
        ("pass", "pass"),
        ("PASS", "pass"),
        ("P", "pass"),
        ("p", "pass"),
    ],
)
def test_parse_call_tolerant_forms(text: str, canonical: str) -> None:
    call = fh.parse_call(text)
    assert str(call) == canonical
    assert fh.Call.parse(text) == call


def test_parse_call_gives_the_call_constants() -> None:
    assert fh.parse_call("pass") == fh.PASS
    assert fh.parse_call("M") == fh.MISERE
    assert fh.parse_call("OM") == fh.OPEN_MISERE
    assert fh.parse_call("BM") == fh.BLIND_MISERE
    assert fh.parse_call("7NT") == fh.Call.bid(7, fh.Strain.NO_TRUMPS)


@pytest.mark.parametrize("call", [*LADDER, fh.PASS])
def test_call_str_is_canonical_and_repr_round_trips(call: fh.Call) -> None:
    assert fh.parse_call(str(call)) == call
    assert eval(repr(call), {"Call": fh.Call}) == call


def test_sans_kitty_call_round_trips() -> None:
    call = fh.Call.bid(7, fh.Strain.NO_TRUMPS, sans_kitty=True)
    assert fh.parse_call(str(call)) == call
    assert eval(repr(call), {"Call": fh.Call}) == call


@pytest.mark.parametrize(
    "text", ["5S", "11H", "7X", "", "MM", "pass-SK", "seven hearts", "NT7", "6", "10 10H"]
)
def test_bad_call_text_raises_notation_error(text: str) -> None:
    with pytest.raises(fh.NotationError) as info:
        fh.parse_call(text)
    err = info.value
    assert isinstance(err, ValueError)
    assert isinstance(err, fh.FiveHundredError)
    assert err.text == text
    assert repr(text) in str(err)


def test_bad_call_message_shows_the_valid_forms() -> None:
    with pytest.raises(fh.NotationError) as info:
        fh.parse_call("11H")
    assert "7NT" in str(info.value)


@pytest.mark.parametrize("value", [7, None, fh.PASS])
def test_non_text_call_raises_notation_error(value: Any) -> None:
    with pytest.raises(fh.NotationError) as info:
        fh.parse_call(value)
    assert isinstance(info.value, ValueError)
    assert type(value).__name__ in str(info.value)


# -- the ladder order of calls (R3.3) -----------------------------------------------------------


def test_calls_order_by_ladder_position_not_points() -> None:
    seven_nt, misere, eight_spades = (fh.parse_call(t) for t in ("7NT", "M", "8S"))
    assert fh.bid_value(seven_nt) == 220
    assert fh.bid_value(eight_spades) == 240
    assert fh.bid_value(misere) == 250
    assert seven_nt < misere < eight_spades
    assert eight_spades > misere
    assert not misere < seven_nt


def test_ten_diamonds_is_below_open_misere_below_ten_hearts() -> None:
    ten_d, ten_h, om = fh.parse_call("10D"), fh.parse_call("10H"), fh.OPEN_MISERE
    assert ten_d < om < ten_h
    assert ten_d < fh.BLIND_MISERE < ten_h
    assert fh.bid_value(ten_h) == fh.bid_value(om) == 500


def test_open_and_blind_misere_share_a_rung() -> None:
    om, bm = fh.OPEN_MISERE, fh.BLIND_MISERE
    assert not om < bm
    assert not bm < om
    assert om <= bm
    assert bm <= om
    assert om >= bm
    assert om != bm


def test_pass_is_below_every_bid() -> None:
    assert all(call > fh.PASS for call in LADDER)


def test_whole_ladder_order() -> None:
    for i, low in enumerate(LADDER):
        for high in LADDER[i + 1 :]:
            if rung(low) == rung(high):
                assert not low < high and not high < low, (low, high)
            else:
                assert low < high, (low, high)
                assert high > low, (low, high)
                assert not high < low, (low, high)


# -- the notation module: one suit table, moves as people type them, scored hands ---------


def test_one_suit_table_reads_letters_symbols_and_names_R1_2() -> None:
    from fivehundred import notation

    for suit in fh.Suit:
        for text in (suit.letter, suit.letter.lower(), suit.symbol, notation.SUIT_NAMES[suit]):
            assert notation.parse_suit(text) is suit
            assert notation.SUIT_TEXT[text.upper()] is suit
    assert fh.parse_call("7 hearts") == fh.parse_call("7H")  # the strain reads the suit table
    assert fh.cards.parse_card("J♡") == fh.Card.parse("JH")  # the old homes still read
    assert fh.calls.parse_call("6♤") == fh.Call.parse("6S")
    with pytest.raises(fh.NotationError, match="is not a suit"):
        notation.parse_suit("purple")
    with pytest.raises(fh.NotationError, match="written as text"):
        notation.parse_suit(cast(Any, 3))
    assert notation.format_suit(fh.Suit.HEARTS) == "♥"
    assert notation.format_suit(fh.Suit.HEARTS, ascii=True) == "H"
    assert notation.format_call(fh.MISERE) == "Misère"
    assert notation.format_cards([]) == "-"


def test_one_reader_per_value_and_every_spelling_in_the_suit_table_R1_2() -> None:
    """notation offers the readers of cards and calls, not copies: one function each;
    its suit table holds every spelling of a suit the call reader accepts, and every
    letter and symbol the card reader does."""
    from fivehundred import notation
    from fivehundred._engine import calltext as _calltext
    from fivehundred._engine import cardtext as _cardtext

    assert notation.parse_card is fh.cards.parse_card is fh.parse_card
    assert notation.parse_cards is fh.cards.parse_cards is fh.parse_cards
    assert notation.parse_call is fh.calls.parse_call is fh.parse_call
    assert set(notation.SUIT_TEXT) == set(_cardtext.SUIT_NUMBERS)
    for text, suit in notation.SUIT_TEXT.items():
        assert fh.parse_call(f"8{text}") == fh.Call.bid(8, fh.Strain.of(suit))
        if len(text) == 1:  # a card's suit is its last character: a letter or a symbol
            assert fh.parse_card(f"Q{text}") == fh.Card(fh.Rank.QUEEN, suit)
    assert set(_calltext.STRAIN_NUMBERS) - set(notation.SUIT_TEXT) == {
        "NT",
        "N",
        "NOTRUMPS",
        "NOTRUMP",
    }
    assert notation.CARD_FORMS is _cardtext.CARD_FORMS
    assert notation.CALL_FORMS is _calltext.CALL_FORMS


@pytest.mark.parametrize(
    ("text", "phase", "action"),
    [
        ("7nt", fh.Phase.BIDDING, fh.Call.parse("7NT")),
        ("discard 4d 5d 6d", fh.Phase.DISCARD, fh.Discard(fh.parse_cards("4D 5D 6D"))),
        ("4d, 5d, 6d", fh.Phase.DISCARD, fh.Discard(fh.parse_cards("4D 5D 6D"))),
        ("nominate hearts", fh.Phase.NOMINATE, fh.Nominate(fh.Suit.HEARTS)),
        ("♠", fh.Phase.NOMINATE, fh.Nominate(fh.Suit.SPADES)),
        ("none", fh.Phase.NOMINATE, fh.DECLINE),
        ("partner AH", fh.Phase.PARTNER, fh.CallPartner(fh.parse_card("AH"))),
        ("AH", fh.Phase.PARTNER, fh.CallPartner(fh.parse_card("AH"))),
        ("seat 2", fh.Phase.PARTNER, fh.CallPartner(seat=2)),
        ("Jo S", fh.Phase.PLAY, fh.Play(fh.JOKER, fh.Suit.SPADES)),
        ("jo:d", fh.Phase.PLAY, fh.Play(fh.JOKER, fh.Suit.DIAMONDS)),
        ("10h", fh.Phase.PLAY, fh.Play(fh.parse_card("10H"))),
    ],
)
def test_parse_move_reads_what_people_type(text: str, phase: fh.Phase, action: fh.Action) -> None:
    from fivehundred.notation import parse_move

    assert parse_move(text, phase=phase) == action


@pytest.mark.parametrize(
    ("text", "phase", "message"),
    [
        ("purple", fh.Phase.NOMINATE, "'purple' is not a suit"),
        ("nominate", fh.Phase.NOMINATE, "names no suit"),
        ("AS KS", fh.Phase.PARTNER, "one card"),
        ("AS KS QS", fh.Phase.PLAY, "play one card"),
        ("KS H", fh.Phase.PLAY, "only a Joker lead names a suit"),
        ("Jo X", fh.Phase.PLAY, "is not a suit"),
        ("anything", fh.Phase.DEAL, "nothing is typed in the deal phase"),
    ],
)
def test_parse_move_refuses_with_the_forms(text: str, phase: fh.Phase, message: str) -> None:
    from fivehundred.notation import parse_move

    with pytest.raises(fh.NotationError, match=message):
        parse_move(text, phase=phase)


def test_parse_move_needs_text_and_a_phase() -> None:
    from fivehundred.notation import parse_move

    with pytest.raises(fh.NotationError, match="is not a Phase"):
        parse_move("7H", phase=cast(Any, "bidding"))
    with pytest.raises(fh.NotationError, match="written as text"):
        parse_move(cast(Any, 7), phase=fh.Phase.BIDDING)


@pytest.mark.parametrize(
    ("text", "players", "expected"),
    [
        ("7H 8", 4, ("7H", 0, (8, 2), None)),
        ("M 0 1", 4, ("M", 1, (10, 0), None)),
        ("7h by 3 took 6", 4, ("7H", 3, (4, 6), None)),
        ("6NT by 1 tricks 2 3 1 4", 4, ("6NT", 1, (3, 7), None)),
        ("6NT 2,3,5", 3, ("6NT", 0, (2, 3, 5), None)),
        ("7C by 0 tricks 7 2 1", 3, ("7C", 0, (7, 2, 1), None)),
        ("8S by 0 with 3 tricks 5 1 0 3 1", 5, ("8S", 0, (5, 1, 0, 3, 1), 3)),
    ],
)
def test_parse_hand_score_R8(
    text: str, players: int, expected: tuple[str, int, tuple[int, ...], int | None]
) -> None:
    from fivehundred.notation import HandScore, parse_hand_score

    contract, contractor, tricks, partner = expected
    hand = parse_hand_score(text, fh.Rules(players=players))
    assert hand == HandScore(fh.Call.parse(contract), contractor, tricks, partner)


@pytest.mark.parametrize(
    ("text", "players", "message"),
    [
        ("7H", 4, "write a contract and the tricks"),
        ("7H by", 4, "write a contract and the tricks"),
        ("7H by 0", 4, "write a contract and the tricks"),
        ("7H 8 1 1", 4, "write a contract and the tricks"),
        ("pass 0", 4, "a pass is not a contract"),
        ("7H by 4 took 8", 4, "seat 4 is not at a 4-seat table"),
        ("7H by x took 8", 4, "'x' is not a seat"),
        ("7H eleven", 4, "'eleven' is not a number of tricks"),
        ("7H 11", 4, "11 tricks is not possible"),
        ("7H 8 2", 4, "'2' is not a side"),
        ("7H by 0 tricks 3 3 3", 4, "each of the 4 seats"),
        ("7H by 0 tricks 5 5 5 5", 4, "not possible"),
        ("6S 8", 3, "give the tricks of all 3 sides"),
        ("6S 2,8", 3, "give the tricks of all 3 sides"),
    ],
)
def test_parse_hand_score_refuses_R8(text: str, players: int, message: str) -> None:
    from fivehundred.notation import parse_hand_score

    with pytest.raises(fh.NotationError, match=message):
        parse_hand_score(text, fh.Rules(players=players))
    with pytest.raises(fh.NotationError, match="written as text"):
        parse_hand_score(cast(Any, 7), fh.Rules())


def test_parse_hand_score_reads_the_default_rules_and_checks_its_side_R8() -> None:
    """``rules=None`` is the default rules, as everywhere else; a side that is not a whole
    number of the rules' sides is the library's error, never an IndexError or a seat -1."""
    from fivehundred.notation import HandScore, parse_hand_score

    assert parse_hand_score("7H by 0 took 8", None) == HandScore(fh.parse_call("7H"), 0, (8, 2))
    assert parse_hand_score("7H 8", side=1) == HandScore(fh.parse_call("7H"), 1, (2, 8))
    for side in (5, -1, 2):
        with pytest.raises(
            fh.FiveHundredError, match=f"side {side} is not a side: sides are 0 to 1"
        ):
            parse_hand_score("7H 8", fh.Rules(), side=side)
    for bad in ("x", True, 1.0, None):
        with pytest.raises(fh.FiveHundredTypeError, match="a side"):
            parse_hand_score("7H 8", fh.Rules(), side=cast(Any, bad))
    with pytest.raises(fh.FiveHundredTypeError, match="the game's rules"):
        parse_hand_score("7H 8", cast(Any, "rules"))


def test_split_hands_starts_a_hand_at_each_contract() -> None:
    from fivehundred.notation import split_hands

    assert split_hands("7H 8 8S 9") == ["7H 8", "8S 9"]
    assert split_hands("7H by 0 took 8 pass 6NT 2,3,5") == ["7H by 0 took 8", "pass", "6NT 2,3,5"]
    assert split_hands("8 7H 8") == ["8", "7H 8"]  # a stray number stays a (bad) hand
    assert split_hands("") == []


#: One action of every type, every field form: a suit or None, a card or a seat, a Joker lead.
EVERY_ACTION: list[fh.Action] = [
    fh.PASS,
    fh.parse_call("7NT"),
    fh.Call.bid(8, fh.Strain.HEARTS, sans_kitty=True),
    fh.MISERE,
    fh.OPEN_MISERE,
    fh.BLIND_MISERE,
    fh.Discard(fh.parse_cards("4D 5D 6D")),
    fh.Nominate(fh.Suit.HEARTS),
    fh.Nominate(fh.Suit.SPADES),
    fh.DECLINE,
    fh.CallPartner(fh.parse_card("AH")),
    fh.CallPartner(seat=2),
    fh.Play(fh.parse_card("10H")),
    fh.Play(fh.JOKER, fh.Suit.CLUBS),
]


@pytest.mark.parametrize("action", EVERY_ACTION, ids=repr)
def test_every_action_repr_pastes_back(action: fh.Action) -> None:
    """``repr`` is Python that makes the action again, in the names ``fivehundred`` exports."""
    namespace = {name: getattr(fh, name) for name in fh.__all__}
    assert eval(repr(action), namespace) == action  # the library's own repr, pasted back
    assert "<" not in repr(action)


def test_every_action_type_has_a_repr_case() -> None:
    assert {type(action) for action in EVERY_ACTION} == {
        fh.Call,
        fh.Discard,
        fh.Nominate,
        fh.CallPartner,
        fh.Play,
    }
