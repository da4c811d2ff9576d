"""The rule tables (``fivehundred._engine.ruledata``) are the one place the rule data lives.

``Rules``, the ladder, the deck, the deal packets, the sides and the score table
are read from them: changing a row changes the game, and a row that cannot be
played (a deal that does not add up to its deck, a misère call placed above a
bid that does not exist) is refused when ``Rules`` is made, never dealt short.
"""

from __future__ import annotations

import functools
import itertools
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

import fivehundred as fh
from fivehundred._engine import ruledata as _tables
from fivehundred._engine.ruledata import (
    BID_TRICKS,
    DECKS,
    KITTY_3,
    KITTY_5,
    MAX_BID,
    MAX_PLAYERS,
    MIN_BID,
    MIN_PLAYERS,
    MISERE_PLACES,
    MORE_DECKS,
    TABLES,
    DeckRow,
    MiserePlace,
    TableRow,
)
from fivehundred._engine.table import clear_tables
from fivehundred.ai.playout import playout
from fivehundred.calls import build_ladder
from fivehundred.cards import Rank
from fivehundred.records import record_from_text, record_to_text, rules_from_options, rules_options
from fivehundred.rules import DEFAULT_LADDER, standard_deck
from fivehundred.scoring import MISERE_VALUES, SCORE_TABLE, TRICKS_PER_HAND

LADDER_FLAGS = ("misere", "misere_by_value", "open_misere_top", "blind_misere")
#: Every setting of the four options that shape the ladder.
LADDER_SETTINGS = [
    dict(zip(LADDER_FLAGS, values, strict=True))
    for values in itertools.product((False, True), repeat=len(LADDER_FLAGS))
]


def clear_caches() -> None:
    """Forget every cached deck, ladder and per-rules table of the package.

    A patched table is seen by new ``Rules`` at once, but the caches keyed by
    (equal) ``Rules`` values would keep what was built from it after the patch.
    """
    for name, module in list(sys.modules.items()):
        if name == "fivehundred" or name.startswith("fivehundred."):
            for value in list(vars(module).values()):
                if isinstance(value, functools._lru_cache_wrapper):
                    value.cache_clear()
    clear_tables()  # the engine core's per-Rules tables


@pytest.fixture
def patched_tables(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """Patch the rule tables for one test, with every cache cleared before and after."""
    clear_caches()
    yield monkeypatch
    monkeypatch.undo()
    clear_caches()


# -- one default ladder (R3.3) ------------------------------------------------------------


def test_one_default_ladder_object_R3_3() -> None:
    assert fh.Rules().ladder is DEFAULT_LADDER
    assert build_ladder() is DEFAULT_LADDER
    clear_caches()  # the ladders are kept apart from the caches: still one object
    assert fh.Rules().ladder is DEFAULT_LADDER
    # Every option that leaves the ladder alone gives the very same object.
    for rules in (
        fh.Rules(players=6),
        fh.Rules(black_fours=True),
        fh.Rules(sans_kitty=True),
        fh.Rules(misere_needs_seven=False),
        fh.Rules.for_players(2),
    ):
        assert rules.ladder is DEFAULT_LADDER


def test_equal_ladders_are_one_object_V_NO_MISERE() -> None:
    # With misère off, the options that would move it change nothing (V-NO-MISERE).
    off = fh.Rules(misere=False).ladder
    assert fh.Rules(misere=False, misere_by_value=True, open_misere_top=True).ladder is off
    assert build_ladder(misere=False, blind_misere=False) is off
    assert fh.Rules.american().ladder is fh.Rules(misere_by_value=True).ladder


@pytest.mark.parametrize("options", LADDER_SETTINGS, ids=lambda o: ",".join(map(str, o.values())))
def test_every_misere_call_sits_where_its_row_says_R3_3(options: dict[str, bool]) -> None:
    ladder = fh.Rules.australian(**options).ladder
    for place in MISERE_PLACES:
        call = fh.parse_call(place.call)
        if not all(options[flag] for flag in place.needs):
            assert call not in ladder, (place.call, place.removed_by)
            continue
        above = fh.parse_call(place.moved_above if options[place.moved_by] else place.above)
        assert ladder.position(call) == ladder.position(above) + 1, place
    # Misère rungs aside, the ladder is every trick bid in order.
    bids = [call for call in ladder.calls if not call.is_misere]
    assert bids == [fh.Call.bid(t, s) for t in BID_TRICKS for s in fh.Strain]


def test_the_misere_rows_name_the_ladder_rules() -> None:
    assert [place.call for place in MISERE_PLACES] == ["M", "OM", "BM"]
    moves = {place.moved_rule for place in MISERE_PLACES}
    assert moves == {"V-MISERE-BY-VALUE", "V-OPEN-MISERE-TOP"}
    assert all("V-NO-MISERE" in place.removed_by for place in MISERE_PLACES)
    assert "V-BLIND-MISERE" in MISERE_PLACES[2].removed_by
    assert {fh.parse_call(place.call).kind for place in MISERE_PLACES} == set(MISERE_VALUES)


def test_a_moved_misere_row_moves_the_rung_R3_3(patched_tables: pytest.MonkeyPatch) -> None:
    """The ladder is read from the table: move misère above 9H and it is there."""
    moved = attrs.evolve(MISERE_PLACES[0], above="9H")
    patched_tables.setattr(_tables, "MISERE_PLACES", (moved, *MISERE_PLACES[1:]))
    ladder = fh.Rules().ladder
    assert ladder.position(fh.MISERE) == ladder.position(fh.parse_call("9H")) + 1
    assert ladder is not DEFAULT_LADDER


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"above": "11NT"}, ["MISERE_PLACES", "11NT", f"{MIN_BID} to {MAX_BID}"]),
        ({"above": "OM"}, ["MISERE_PLACES", "'OM'", "not a trick bid"]),
        ({"call": "7NT"}, ["MISERE_PLACES", "'7NT'", "not a misère call"]),
        ({"moved_by": "misere_by_suit"}, ["MISERE_PLACES", "misere_by_suit", "not an on/off"]),
        ({"needs": ("target",)}, ["MISERE_PLACES", "target", "not an on/off"]),
    ],
)
def test_a_misere_row_the_ladder_cannot_hold_is_refused(
    patched_tables: pytest.MonkeyPatch, change: dict[str, Any], words: list[str]
) -> None:
    broken = attrs.evolve(MISERE_PLACES[0], **change)
    patched_tables.setattr(_tables, "MISERE_PLACES", (broken, *MISERE_PLACES[1:]))
    with pytest.raises(fh.FiveHundredError) as info:
        fh.Rules()
    for word in words:
        assert word in str(info.value), str(info.value)
    with pytest.raises(fh.FiveHundredError):
        build_ladder()


# -- the bid range (R3.2) and the score table (R8.1) --------------------------------------


def test_bid_range_constants_R3_2() -> None:
    assert (MIN_BID, MAX_BID) == (6, 10)
    assert tuple(range(MIN_BID, MAX_BID + 1)) == BID_TRICKS
    assert tuple(SCORE_TABLE) == BID_TRICKS
    assert TRICKS_PER_HAND == _tables.TRICKS_PER_HAND == 10
    for tricks in BID_TRICKS:
        for strain in fh.Strain:
            call = fh.Call.bid(tricks, strain)
            assert fh.parse_call(str(call)) == call
            assert fh.bid_value(call) == SCORE_TABLE[tricks][strain]


@pytest.mark.parametrize("tricks", [MIN_BID - 1, MAX_BID + 1, 0, 11, -6])
def test_bids_outside_the_range_are_refused_R3_2(tricks: int) -> None:
    with pytest.raises(fh.FiveHundredError, match=f"{MIN_BID} to {MAX_BID} tricks") as info:
        fh.Call.bid(tricks, fh.Strain.HEARTS)
    assert isinstance(info.value, ValueError)
    assert repr(tricks) in str(info.value)
    with pytest.raises(fh.NotationError):
        fh.parse_call(f"{tricks}H")


def test_the_score_table_R8_1() -> None:
    assert SCORE_TABLE[MIN_BID][fh.Strain.SPADES] == 40
    assert SCORE_TABLE[MAX_BID][fh.Strain.NO_TRUMPS] == 520
    for tricks in BID_TRICKS[1:]:
        for strain in fh.Strain:
            assert SCORE_TABLE[tricks][strain] - SCORE_TABLE[tricks - 1][strain] == 100


# -- the decks and the deal (R1.1, R2.2, V-45, P2-P6) -------------------------------------


def _rules_for(key: tuple[int, bool]) -> fh.Rules:
    players, black_fours = key
    return fh.Rules(players=players, black_fours=black_fours)


@pytest.mark.parametrize("key", sorted(DECKS), ids=lambda k: f"{k[0]}p{'-45' if k[1] else ''}")
def test_every_deck_row_adds_up_R2_2(key: tuple[int, bool]) -> None:
    row = DECKS[key]
    rules = _rules_for(key)
    assert len(rules.deck) == row.size == len(set(rules.deck))
    assert rules.deal_packets == row.packets
    assert rules.hand_size == sum(hand for hand, _ in row.packets) == TRICKS_PER_HAND
    assert rules.kitty_size == sum(kitty for _, kitty in row.packets)
    hands = rules.players + (1 if rules.has_dead_hand else 0)
    assert hands * rules.hand_size + rules.kitty_size == len(rules.deck)
    # The lowest card of each suit is the row's lowest rank.
    for suit in fh.Suit:
        ranks = [card.rank for card in rules.deck if card.suit is suit]
        assert min(r for r in ranks if r is not None) == row.lowest[suit]
        assert ranks[-4:] == [Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE]
    assert rules.deck[-1] is fh.JOKER


def test_the_deal_packets_R2_2_V_45() -> None:
    assert fh.Rules().deal_packets == KITTY_3 == ((3, 1), (4, 1), (3, 1))
    assert fh.Rules(black_fours=True).deal_packets == KITTY_5 == ((3, 2), (4, 1), (3, 2))
    assert (fh.Rules().kitty_size, fh.Rules(black_fours=True).kitty_size) == (3, 5)
    assert {fh.Rules(players=n).deal_packets for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)} == {
        KITTY_3
    }
    assert isinstance(fh.Rules().deal_packets, tuple)


@pytest.mark.parametrize("key", sorted(DECKS), ids=lambda k: f"{k[0]}p{'-45' if k[1] else ''}")
def test_a_seeded_deal_places_every_card_by_the_packets_R2_2(key: tuple[int, bool]) -> None:
    rules = _rules_for(key)
    state = fh.deal(fh.new_game(rules, dealer=0), seed=9)
    dealt = [card for hand in state.hands for card in hand]
    dealt += [*state.kitty, *state.dead_hand]
    assert sorted(dealt) == sorted(rules.deck)
    assert {len(hand) for hand in state.hands} == {rules.hand_size}
    assert len(state.kitty) == rules.kitty_size
    assert len(state.dead_hand) == (rules.hand_size if rules.has_dead_hand else 0)


#: A hypothetical 47-card four-player deck: every 4 and an 11 of spades and of clubs.
DECK_47 = DeckRow(
    "V-47",
    (Rank.FOUR,) * 4,
    extra=((Rank.ELEVEN,), (Rank.ELEVEN,), (), ()),
    packets=KITTY_5,
)
#: Its deal with a kitty of 7: 2, 3 and 2 cards after the three rounds.
KITTY_7 = ((3, 2), (4, 3), (3, 2))


def test_a_deck_the_deal_does_not_fill_is_refused_R2_2(
    patched_tables: pytest.MonkeyPatch,
) -> None:
    """47 cards and a deal that places 45 (4 hands of 10 and a kitty of 5): refused."""
    assert DECK_47.size == 47
    patched_tables.setitem(DECKS, (4, True), DECK_47)
    with pytest.raises(fh.FiveHundredError) as info:
        fh.Rules(black_fours=True)
    message = str(info.value)
    for words in ("V-47", "47 cards", "places 45", "4 hands of 10", "kitty of 5", "R2.2"):
        assert words in message, message
    assert isinstance(info.value, ValueError)
    # The kitty of 3 does not fill it either; the other tables are untouched.
    patched_tables.setitem(DECKS, (4, True), attrs.evolve(DECK_47, packets=KITTY_3))
    with pytest.raises(fh.FiveHundredError, match="places 43"):
        fh.Rules(black_fours=True)
    assert len(fh.Rules().deck) == 43


def test_a_deck_with_a_kitty_of_seven_adds_up_R2_2(patched_tables: pytest.MonkeyPatch) -> None:
    patched_tables.setitem(MORE_DECKS, "V-47", attrs.evolve(DECK_47, packets=KITTY_7))
    rules = fh.Rules(deck_id="V-47")
    assert (len(rules.deck), rules.kitty_size, rules.hand_size) == (47, 7, 10)
    assert rules.deal_packets == KITTY_7
    assert set(rules.deck) - set(standard_deck()) == set(fh.parse_cards("4S 4C 11S 11C"))


def test_a_deck_with_a_kitty_of_seven_is_dealt_in_full_R2_2(
    patched_tables: pytest.MonkeyPatch,
) -> None:
    patched_tables.setitem(MORE_DECKS, "V-47", attrs.evolve(DECK_47, packets=KITTY_7))
    rules = fh.Rules(deck_id="V-47")
    state = fh.deal(fh.new_game(rules, dealer=0), cards=rules.deck)
    dealt = [card for hand in state.hands for card in hand] + list(state.kitty)
    assert {len(hand) for hand in state.hands} == {10}
    assert len(state.kitty) == 7
    assert sorted(dealt) == sorted(rules.deck)
    # a new deck is a row of data: the engine plays it to the end of a hand unchanged
    played = playout(fh.deal(fh.new_game(rules, dealer=0), seed=4), rng=random.Random(4))
    assert played.phase in {fh.Phase.DEAL, fh.Phase.GAME_OVER}
    assert played.last_hand is not None and sum(played.last_hand.tricks) in {0, 10}


# -- a deck named by its rule ID (Rules.deck_id) -------------------------------------------


@pytest.mark.parametrize(
    ("key", "row"), [pytest.param(key, row, id=row.rule) for key, row in sorted(DECKS.items())]
)
def test_every_deck_of_the_table_can_be_named_by_its_rule_id_R1_1(
    key: tuple[int, bool], row: DeckRow
) -> None:
    players, black_fours = key
    by_default = fh.Rules(players=players, black_fours=black_fours)
    named = fh.Rules(players=players, deck_id=row.rule)
    assert named.deck == by_default.deck
    assert named.deal_packets == by_default.deal_packets
    assert named != by_default  # the deck named is part of the rules' value
    assert rules_options(named)["deck_id"] == row.rule
    assert rules_from_options(rules_options(named)) == named


def test_a_named_deck_is_kept_through_json_and_the_record_text_V_45() -> None:
    rules = fh.Rules(deck_id="V-45")
    assert (len(rules.deck), rules.kitty_size) == (45, 5)
    assert fh.from_json(fh.to_json(rules), cls=fh.Rules) == rules
    game = fh.record(fh.deal(fh.new_game(rules, dealer=1), seed=2))
    text = record_to_text(game)
    assert "deck_id=V-45" in text.splitlines()[0]
    assert record_from_text(text).rules == rules


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"deck_id": "V-99"}, ["deck_id='V-99' is no deck", "R1.1", "V-45", "P6"]),
        ({"deck_id": "V-45", "black_fours": True}, ["black_fours (V-45) chooses the deck"]),
        ({"deck_id": "P6"}, ["P6 deck has 63 cards", "places 43", "R2.2"]),
        ({"deck_id": 45}, ["the rule ID of a deck (a str) or None"]),
    ],
)
def test_a_deck_that_is_not_there_or_does_not_fit_is_refused_R2_2(
    options: dict[str, object], words: list[str]
) -> None:
    with pytest.raises(fh.FiveHundredError) as info:
        fh.Rules(**options)  # type: ignore[arg-type]  # bad values on purpose
    for word in words:
        assert word in str(info.value), str(info.value)


@pytest.mark.parametrize(
    ("packets", "words"),
    [
        (((3, 1), (4, 1), (4, 1)), ["hands of 11", "10 tricks"]),
        ((), ["packets"]),
        (((3, -1), (4, 1), (3, 1)), ["non-negative"]),
    ],
)
def test_a_deal_that_cannot_be_played_is_refused_R2_2(
    patched_tables: pytest.MonkeyPatch, packets: tuple[tuple[int, int], ...], words: list[str]
) -> None:
    patched_tables.setitem(DECKS, (4, False), attrs.evolve(DECKS[4, False], packets=packets))
    with pytest.raises(fh.FiveHundredError) as info:
        fh.Rules()
    for word in words:
        assert word in str(info.value), str(info.value)


def test_a_missing_deck_row_is_refused_V_45(patched_tables: pytest.MonkeyPatch) -> None:
    with pytest.raises(fh.FiveHundredError, match="black_fours \\(V-45\\) is a four-player deck"):
        fh.Rules(players=5, black_fours=True)
    patched_tables.delitem(DECKS, (3, False))
    with pytest.raises(fh.FiveHundredError, match="no deck is written for players=3"):
        fh.Rules(players=3)
    with pytest.raises(fh.FiveHundredError, match="no deck is written for players=3"):
        standard_deck(players=3)


# -- the tables: sides, dead hand, called partner (P2-P6) ----------------------------------


@pytest.mark.parametrize("players", sorted(TABLES))
def test_every_table_row_is_a_set_of_sides_P2_P6(players: int) -> None:
    row = TABLES[players]
    assert isinstance(row, TableRow)
    assert fh.Rules(players=players).team_size == next(iter(row.sides))
    for team_size, sides in row.sides.items():
        rules = fh.Rules(players=players, team_size=team_size)
        assert rules.sides == sides
        assert sorted(s for side in sides for s in side) == list(range(players))
        for index, seats in enumerate(sides):
            assert len(seats) == team_size
            for seat in seats:
                assert rules.side_of(seat) == index
                assert rules.partners(seat) == tuple(s for s in seats if s != seat)
    assert fh.Rules(players=players).has_dead_hand is row.dead_hand
    assert fh.Rules(players=players).calls_partner is row.calls_partner


def test_table_sizes_P2_P6() -> None:
    assert (MIN_PLAYERS, MAX_PLAYERS) == (2, 6)
    assert sorted(TABLES) == list(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    assert {players for players, _ in DECKS} == set(TABLES)
    assert [n for n, row in TABLES.items() if row.dead_hand] == [2]
    assert [n for n, row in TABLES.items() if row.calls_partner] == [5]


def test_a_seat_layout_that_is_not_a_partition_is_refused_P6(
    patched_tables: pytest.MonkeyPatch,
) -> None:
    broken = TableRow("P6", {2: ((0, 3), (1, 4), (2, 4))})
    patched_tables.setitem(TABLES, 6, broken)
    with pytest.raises(fh.FiveHundredError, match="seat layout for players=6, team_size=2"):
        fh.Rules(players=6)


@pytest.mark.parametrize("players", [0, 1, 7, 9, -4])
def test_players_outside_the_tables_are_refused_P2_P6(players: int) -> None:
    with pytest.raises(fh.FiveHundredError) as info:
        fh.Rules(players=players)
    assert isinstance(info.value, ValueError)
    assert str(info.value) == f"players={players}: Five Hundred is played by 2 to 6 players"
    with pytest.raises(fh.FiveHundredError, match="2 to 6 players"):
        standard_deck(players=players)


def test_rules_errors_are_five_hundred_errors() -> None:
    for options in (
        {"score_cap": 500},
        {"players": 4, "team_size": 3},
        {"misere": 1},
        {"target": "500"},
        {"players": 5, "black_fours": True},
    ):
        with pytest.raises(fh.FiveHundredError):
            fh.Rules(**options)
    with pytest.raises(fh.FiveHundredError, match="sans kitty"):
        fh.Call(fh.CallKind.PASS, sans_kitty=True)
    with pytest.raises(fh.FiveHundredError, match="strain"):
        fh.Call(fh.CallKind.MISERE, None, fh.Strain.HEARTS)


def test_the_row_types_are_frozen() -> None:
    for row in (MISERE_PLACES[0], DECKS[4, False], TABLES[4]):
        assert attrs.has(type(row))
        first = attrs.fields(type(row))[0].name
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(row, first, "X")
    assert isinstance(MISERE_PLACES[0], MiserePlace)


# -- the docs tables are written from these rows -------------------------------------------


def _generated(name: str) -> str:
    return (Path(__file__).parent.parent / "docs" / "_generated" / name).read_text("utf-8")


def test_the_docs_deck_table_is_the_deck_rows_R1_1_R2_2() -> None:
    text = _generated("decks.md")
    for (players, black_fours), row in DECKS.items():
        line = next(line for line in text.splitlines() if line.startswith(f"| {row.rule} |"))
        packets = ", ".join(f"{hand}+{kitty}" for hand, kitty in row.packets)
        assert f"| {row.size} |" in line and packets in line, line
        assert ("black_fours=True" in line) is black_fours
        assert (f"players={players}" in line) is (players != 4)


def test_the_docs_misere_table_is_the_misere_rows_R3_3() -> None:
    lines = _generated("misere-places.md").splitlines()
    for place in MISERE_PLACES:
        line = next(line for line in lines if f"(`{place.call}`)" in line)
        for part in (place.removed_by, place.moved_rule, place.moved_by):
            assert part in line, line
        assert fh.parse_call(place.above).pretty in line
        assert fh.parse_call(place.moved_above).pretty in line


def test_the_docs_sides_table_is_the_table_rows_P2_P6() -> None:
    text = _generated("sides.md")
    for players, row in TABLES.items():
        for sides in row.sides.values():
            seats = " · ".join(" & ".join(map(str, side)) for side in sides)
            assert f"| {row.rule} | {players} |" in text
            assert f"| {seats} |" in text
