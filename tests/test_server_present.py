"""What the browser table is told to show (``fivehundred.server._present``): the marks of
each card, the bidding box's points, the auction by seat, the score sheet and the
sentences a person reads, all made from the rules, none kept by the page."""

from __future__ import annotations

import random
import re
from importlib import resources
from pathlib import Path
from typing import Any

import fivehundred as fh
from fivehundred.ai.playout import playout
from fivehundred.bots import HeuristicPlayer
from fivehundred.scoring import SCORE_TABLE, bid_value
from fivehundred.server import _present
from fivehundred.server.tables import HUMAN, Table, Tables
from helpers import BOWERS, in_play, run


def page_of(state: fh.GameState, seat: int, seats: tuple[str, ...] | None = None) -> Any:
    """The page part of ``seat``'s answer at a table in ``state``."""
    kinds = seats or (HUMAN,) + ("heuristic",) * (state.rules.players - 1)
    table = Table(id="t", seats=kinds, seed="s", hashes={}, state=state)
    return table.view(seat)["page"]


def test_the_bowers_and_trumps_are_named_and_marked_R1_3() -> None:
    state = in_play("7H", 0, BOWERS.hands, BOWERS.kitty)
    cards = page_of(state, 2)["cards"]
    assert cards["Jo"]["trump"] and cards["Jo"]["label"] == "Joker, trump"
    assert page_of(state, 0)["cards"]["JH"]["bower"] == "right"
    assert page_of(state, 1)["cards"]["JD"]["bower"] == "left"
    assert page_of(state, 1)["cards"]["JD"]["label"] == "jack of diamonds, left bower"
    # a jack of the other colour is no bower and no trump
    jc = page_of(state, 2)["cards"]["JC"]
    assert (jc["bower"], jc["trump"], jc["label"]) == (None, False, "jack of clubs")
    assert page_of(state, 0)["cards"]["AS"]["label"] == "ace of spades"


def test_the_bidding_box_has_each_bids_points_from_the_scoring_table_R8_1() -> None:
    state = fh.deal(fh.new_game(fh.Rules(), dealer=3), cards=fh.Rules().deck)
    box = page_of(state, state.to_act or 0)["box"]
    assert len(box["bids"]) == 25 and [m["text"] for m in box["misere"]] == [
        "Misère",
        "Open misère",
        "Blind misère",
    ]
    for bid in box["bids"]:
        call = fh.parse_call(bid["call"])
        assert call.tricks is not None and call.strain is not None
        assert bid["points"] == SCORE_TABLE[call.tricks][call.strain] == bid_value(call)
    assert {b["call"] for b in box["bids"] if b["legal"]} == {
        fh.format_action(a) for a in fh.legal_actions(state) if isinstance(a, fh.Call)
    } - {"pass", "M", "OM", "BM"}
    assert box["misere"][1]["points"] == 500 and box["misere"][1]["explain"]
    assert box["pass"]


def test_a_table_without_misere_offers_none_V_NO_MISERE() -> None:
    rules = fh.Rules(misere=False)
    state = fh.deal(fh.new_game(rules, dealer=3), cards=rules.deck)
    assert page_of(state, 0)["box"]["misere"] == []


def test_the_auction_is_a_table_by_seat_from_the_dealers_left_R3_1() -> None:
    state = fh.deal(fh.new_game(fh.Rules(), dealer=3), cards=fh.Rules().deck)
    state = run(state, "6S", "pass", "7H", "pass", "8S")
    auction = page_of(state, 0)["auction"]
    assert auction["seats"] == [0, 1, 2, 3]
    assert auction["names"] == ["You", "Computer 2", "Computer 3", "Computer 4"]
    assert auction["rows"] == [["6♠", "Pass", "7♥", "Pass"], ["8♠", "", "", ""]]


def test_the_turn_contract_and_seats_are_in_a_persons_words_R4_3() -> None:
    state = in_play("7H", 0, BOWERS.hands, BOWERS.kitty)
    mine, theirs = page_of(state, 0), page_of(state, 1)
    assert mine["turn"] == "Your turn: play a card."
    assert theirs["turn"] == "Player 1 to play a card."
    assert mine["contract"]["badge"] == "♥" and mine["contract"]["by"] == "You"
    assert mine["contract"]["points"] == 200 and mine["contract"]["need"] == "7 tricks"
    seats = mine["seats"]
    assert [s["name"] for s in seats] == ["You", "Computer 2", "Computer 3", "Computer 4"]
    assert seats[0]["contractor"] and seats[2]["partner"] and not seats[1]["partner"]
    assert seats[3]["dealer"] and [s["cards"] for s in seats] == [10, 10, 10, 10]
    assert mine["sides"][0]["name"] == "You and Computer 3"
    assert "seat" not in str(mine["turn"]) and "version" not in str(mine)


def test_the_contractor_sees_the_kitty_cards_it_kept_R4_1() -> None:
    state = in_play("7H", 0, BOWERS.hands, BOWERS.kitty, discard="AC AD KD")
    cards = page_of(state, 0)["cards"]
    assert {c for c, info in cards.items() if info["kitty"]} == {"10S", "JS", "QS"}
    assert cards["QS"]["label"] == "queen of spades, from the kitty"
    assert not any(info["kitty"] for info in page_of(state, 1)["cards"].values())


def test_a_finished_hand_leaves_its_tricks_and_a_row_of_the_score_sheet_R8_3(
    tmp_path: Path,
) -> None:
    tables = Tables(tmp_path / "tables.db", seed="present")
    table, _ = tables.create({}, [HUMAN, "heuristic", "heuristic", "heuristic"])
    for _ in range(200):  # the person plays the first legal action until a hand is over
        if table.past or table.state.result is not None:
            break
        tables.act(table, 0, fh.format_action(fh.legal_actions(table.state)[0]), table.version)
    page = table.view(0)["page"]
    assert page["sheet"], "a hand was scored"
    row, previous = page["sheet"][0], page["previous"]
    hand = table.past[0].result
    assert hand is not None
    assert row["hand"] == 1 and row["scores"] == list(hand.scores)
    assert previous["hand"] == 1 and previous["words"] == row["words"]
    if hand.contract is not None:  # a played hand: its tricks, each won by someone
        assert previous["tricks"] and all(
            " won it with the " in t["words"] for t in previous["tricks"]
        )
    tables.close()
    # a restarted server rebuilds the same record from the stored actions
    reloaded = Tables(tmp_path / "tables.db")
    assert reloaded.get(table.id).view(0)["page"]["sheet"] == page["sheet"]
    reloaded.close()


def test_a_spectator_is_nobody_at_the_table() -> None:
    tables = Tables(":memory:", seed="present")
    table, _ = tables.create({}, [HUMAN, "heuristic", "heuristic", "heuristic"])
    watched = _present.page(fh.observe(table.state, 0), table.seats, table.past, spectator=True)
    assert watched["you"] is None and "You" not in [s["name"] for s in watched["seats"]]
    assert not watched["turn"].startswith("Your")
    tables.close()


def test_the_choices_that_are_not_cards_or_bids_are_in_words_R7_4() -> None:
    assert _present.card_name(fh.parse_card("10H")) == "10 of hearts"
    assert _present.card_name(fh.parse_card("Jo")) == "Joker"
    state = in_play("7NT", 0, BOWERS.hands, BOWERS.kitty)
    assert page_of(state, 0)["actions"]["AS"] == "Play the ace of spades"


def test_no_script_of_the_page_holds_a_card_order_or_points_P6() -> None:
    """R1.2, R8.1: the order of the cards and the points of the calls come from the server;
    no module of the page keeps a rank list or a scoring table of its own."""
    static = resources.files("fivehundred.server") / "static"
    scripts = {
        p.name: p.read_text(encoding="utf-8") for p in static.iterdir() if p.name.endswith(".js")
    }
    assert {"table.js", "draw.js", "cards.js", "live.js", "lobby.js"} <= set(scripts)
    # a list with two ranks in it, e.g. ["4", ..., "10", "J", "Q"]
    ranks = re.compile(r'\[[^\]]*"(?:10|J|Q|K|A|Jo)"[^\]]*"(?:10|J|Q|K|A|Jo)"')
    for name, script in scripts.items():
        assert not ranks.search(script), name
        assert not re.search(r"\b(?:220|320|420)\b", script), name  # no 7NT, 8NT, 9NT points
        for word in ("RANKS", "sortHand", "isTrump", "SAME_COLOUR", "trumpSuit"):
            assert word not in script, (name, word)


def test_the_review_is_of_the_last_hand_finished_even_at_the_games_end_R9() -> None:
    """Mid-game the last hand finished is the one before the deal; at the game's end (R9)
    it is the final hand, which no deal followed: never an older hand."""
    state = fh.new_game(fh.Rules(target=100), dealer=0)
    assert page_of(fh.deal(state, seed=1), 0)["reviewed"] is None
    rng = random.Random(5)
    for hand in range(1, 60):  # bounded: a game to 100 ends within a few hands
        state = fh.deal(state, seed=hand) if state.phase is fh.Phase.DEAL else state
        state = playout(state, rng=rng)
        if state.result is not None:
            break
        assert state.last_hand is not None
        assert page_of(fh.deal(state, seed=100 + hand), 0)["reviewed"] == state.last_hand.number
    assert state.result is not None and state.last_hand is not None
    assert page_of(state, 0)["reviewed"] == state.last_hand.number == state.hand_number


def test_the_tally_counts_each_sides_tricks_against_the_contract_R5_R8() -> None:
    """During the play, the page counts the tricks each side took, the contract's against
    what it needs, and names who leads; at 3 to 6 players, to the hand's last trick."""
    for players in (3, 4, 5, 6):
        rng = random.Random(f"tally-{players}")
        rules = fh.Rules(players=players)
        deck = list(rules.deck)
        rng.shuffle(deck)
        state = fh.deal(fh.new_game(rules, dealer=0), cards=tuple(deck))
        checked = 0
        for _ in range(400):
            if state.last_hand is not None or state.result is not None:
                break
            seat = state.to_act
            assert seat is not None
            if state.phase is fh.Phase.PLAY:
                view = fh.observe(state, seat)
                tally = page_of(state, seat)["tally"]
                assert [s["tricks"] for s in tally["sides"]] == list(view.tricks_won)
                assert sum(s["tricks"] for s in tally["sides"]) == len(view.tricks)
                ours = [s["tricks"] for s in tally["sides"] if s["contract"]]
                assert tally["taken"] == sum(ours) and ours
                assert tally["left"] == 10 - len(view.tricks)
                leader = view.trick[0][0] if view.trick else seat
                names = [s["name"] for s in page_of(state, seat)["seats"]]
                assert tally["leader"] == names[leader]
                assert view.contract is not None
                if not tally["misere"]:
                    assert tally["need"] == view.contract.tricks
                    assert f"{tally['taken']} of the {tally['need']} tricks" in tally["words"]
                checked += 1
            else:
                assert page_of(state, seat)["tally"] is None
            state = fh.apply(state, rng.choice(fh.legal_actions(state)))
        assert checked, f"no trick was played at {players} players"


def test_the_hand_just_ended_keeps_its_contract_auction_and_marks_R8_3(tmp_path: Path) -> None:
    """While the page holds the end of a hand, it draws that hand as it ended, from the
    page's ``previous``: its contract and badge, its auction from its own dealer's left,
    and its dealer, contractor and partner marks, not the next deal's."""
    tables = Tables(tmp_path / "tables.db", seed="held")
    table, _ = tables.create({}, [HUMAN, "heuristic", "heuristic", "heuristic"])
    last = None  # the person's page at their last move of the first hand
    for _ in range(200):
        if table.past:
            break
        last = table.view(0)["page"]
        tables.act(table, 0, fh.format_action(fh.legal_actions(table.state)[0]), table.version)
    assert last is not None and table.past and table.past[0].result is not None
    now = table.view(0)["page"]
    previous = now["previous"]
    assert now["hand"] == 2 and previous["hand"] == 1
    assert previous["contract"] == last["contract"] and last["contract"] is not None
    assert previous["auction"]["names"] == last["auction"]["names"]
    assert previous["auction"]["rows"] == last["auction"]["rows"]
    for flag in ("dealer", "contractor", "partner"):
        assert [s[flag] for s in previous["seats"]] == [s[flag] for s in last["seats"]], flag
    # the next deal has its own dealer, the next seat: the page must not show it yet
    assert [s["dealer"] for s in now["seats"]] != [s["dealer"] for s in previous["seats"]]
    assert [s["cards"] for s in previous["seats"]] == [0, 0, 0, 0]
    tables.close()


def test_at_the_games_end_no_dealer_and_the_last_hands_auction_R9() -> None:
    """R9: once the game is over, no hand is dealt: no seat is marked dealer, and the
    auction is the final hand's, in the columns it had while that hand was played."""
    rng = random.Random("over")
    state = fh.deal(fh.new_game(fh.Rules(target=100), dealer=0), seed=1)
    during = None
    for hand in range(1, 400):  # bounded: a game to 100 ends within a few hands
        if state.result is not None:
            break
        if state.phase is fh.Phase.DEAL:
            state = fh.deal(state, seed=hand)
            continue
        if state.phase is fh.Phase.PLAY:
            during = page_of(state, 0)
        state = fh.apply(state, rng.choice(fh.legal_actions(state)))
    assert state.result is not None and during is not None
    over = page_of(state, 0)
    assert not any(seat["dealer"] for seat in over["seats"])
    assert over["auction"] == during["auction"] and over["auction"]["rows"]
    assert over["contract"] == during["contract"]


def test_a_negative_change_is_printed_with_a_true_minus_sign_R8_3() -> None:
    """The sentences a person reads print a loss with a true minus sign (U+2212), never
    a hyphen ("-280"); the JSON numbers stay numbers."""
    rng = random.Random("minus")
    state = fh.deal(fh.new_game(fh.Rules(), dealer=0), seed=1)
    for hand in range(2, 40):  # a random contract is lost within a few hands
        state = playout(state, rng=rng)
        last = state.last_hand
        if last is not None and any(change < 0 for change in last.changes):
            break
        state = fh.deal(state, seed=hand)
    assert last is not None
    after = state if state.result is not None else fh.deal(state, seed=99)
    seats = (HUMAN, *("heuristic",) * 3)
    page = _present.page(fh.observe(after, 0), seats, (_present.finished(state),))
    row = page["sheet"][-1]
    lost = min(last.changes)
    assert row["changes"] == list(last.changes) and isinstance(row["changes"][0], int)
    for words in (row["words"], page["previous"]["words"]):
        assert f"\u2212{-lost}" in words
        assert not re.search(r"-\d", words), words


def test_the_pages_kept_parts_are_the_ones_made_afresh_through_a_whole_game_R8_3() -> None:
    """The score sheet, the hand before, the tricks, the auction grid and the cards'
    groups are made once and shared by every answer that shows them: through a whole
    game, each seat's page and cards (names changed midway too) are the ones made with
    nothing kept, and answering never changes a kept one."""
    bot = HeuristicPlayer(random.Random("kept"))
    seats = (HUMAN, "heuristic", HUMAN, "heuristic")
    state = fh.deal(fh.new_game(dealer=1), seed=1)
    past: list[_present.FinishedHand] = []
    compared = 0
    for step in range(3000):  # bounded: a game between heuristic players ends within 20 hands
        if state.result is not None:
            break
        if state.phase is fh.Phase.DEAL:
            if state.last_hand is not None:  # as a table keeps its finished hands
                past.append(_present.finished(state))
            state = fh.deal(state, seed=step)
            continue
        names = ("Ann", None, "Bo", None) if len(past) >= 2 else None
        for seat in range(4):
            view = fh.observe(state, seat)
            kept = _present.page(view, seats, past, names=names)
            again = _present.page(view, seats, past, names=names)
            cards = _present.display(view)
            assert cards == _present.display(view)
            _present._groups.cache_clear()
            assert cards == _present.display(view)
            _present._sheet.cache_clear()
            _present._previous.cache_clear()
            _present._trick.cache_clear()
            _present._auction_table.cache_clear()
            _present._call_text.cache_clear()
            assert kept == again == _present.page(view, seats, past, names=names)
            compared += 1
        to_act = state.to_act
        assert to_act is not None
        state = fh.apply(state, bot.choose(fh.observe(state, to_act)))
    assert state.result is not None and len(past) >= 3 and compared > 100
    for seat in range(4):  # the game over: its last hand is on the sheet once
        view = fh.observe(state, seat)
        sheet = _present.page(view, seats, past)["sheet"]
        assert sheet == _present.page(view, seats, past)["sheet"]
        assert [row["hand"] for row in sheet] == list(range(1, state.hand_number + 1))
