"""The browser table end to end: a real headless Chromium plays whole games by clicking.

Each game is opened in the lobby and played to its end through the page (a
250-point game, so that it ends in a few hands), at 3, 4, 5 and 6 players. On
the way every phase is photographed at 1280x900 and 390x844 (see
:mod:`browser_support` for where), and the page is checked against the server's
answer: the hand in the library's order (P6), the bidding box's live calls are
the legal ones (R3.1), only legal cards are clickable (R5.2), the trumps marked
are the server's (R1.3), and the score sheet gets a row a hand (R8).
``FIVEHUNDRED_SCREENSHOT=PATH`` also saves the docs' picture there.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from browser_support import (
    SHOTS,
    SIZES,
    answered,
    attributes,
    broken_words,
    chromium,
    click,
    expected_play_moves,
    hand_cards,
    open_table,
    page,
    served,
    settled,
    shoot,
    shown_moves,
    viewport,
    wait_for,
)

#: Clicks a person makes at most in one 250-point game (a hand is at most 13 of them).
MAX_CLICKS = 400


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("server"), "--seed", "browser") as url:
        yield url


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    with chromium(tmp_path_factory.mktemp("chromium")) as driver:
        yield driver


class Game:
    """A person who clicks through a game: bids once, then passes; plays the first legal card."""

    def __init__(self, driver: WebDriver, players: int) -> None:
        self.driver = driver
        self.players = players
        self.bid = False
        self.clicks = 0
        self.phases: set[str] = set()
        self.hands_seen: set[int] = set()

    def shot(self, phase: str) -> None:
        if phase not in self.phases:
            self.phases.add(phase)
            shoot(self.driver, f"{self.players}p-{phase}")

    def check_hand(self, answer: Any) -> None:
        # P6: the hand in the server's order, which is the library's; the browser has none
        assert hand_cards(self.driver) == [c for group in answer["display"]["hand"] for c in group]
        marked = set(attributes(self.driver, "#hand .card.trump", "data-card"))
        held = {c for group in answer["display"]["hand"] for c in group}
        assert marked == held & set(answer["display"]["trumps"])  # R1.3: the server's trumps

    def turn(self, answer: Any) -> None:
        """Act once; ``answer`` is the view the page shows, the person to act."""
        d, v, legal = self.driver, answer["view"]["view"], answer["legal_actions"]
        self.check_hand(answer)
        if v["phase"] == "bidding":
            box = attributes(d, "#box .bid:not([disabled])", "data-action")
            box += attributes(d, "#misere button:not([disabled])", "data-action")
            assert sorted(box) == sorted(legal)  # R3.1: the live calls are the legal ones
            points = attributes(d, "#box .bid .points", "class")
            assert len(attributes(d, "#box .bid", "data-action")) == len(points) == 25
            self.shot("hand-end" if answer["page"]["previous"] else "bidding")
            if not self.bid and len(box) > 1:
                click(d, f'#box .bid[data-action="{next(a for a in box if a != "pass")}"]')
                self.bid = True
            else:
                click(d, '#misere button[data-action="pass"]')
        elif v["phase"] == "discard":
            self.shot("discard")
            for card in [c for c in hand_cards(d)][:3]:
                click(d, f'#hand .card[data-card="{card}"]')  # each click draws the hand anew
            wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#discard:not([disabled])"))
            self.shot("discard-chosen")
            click(d, "#discard")
        elif v["phase"] == "play":
            cards, buttons = shown_moves(d)
            assert (cards, buttons) == expected_play_moves(legal)  # R5.2: only legal cards
            if answer["page"]["tricks"] and not answer["page"]["trick"]:
                self.shot("trick-won")  # the finished trick stays until the next lead
            elif len(answer["page"]["trick"]) > 1:
                self.shot("play")
            if cards:
                click(d, f'#hand .card.legal[data-card="{cards[0]}"]')
            else:
                click(d, f'#moves button[data-action="{buttons[0]}"]')
        else:  # the Joker's suit or a partner call: a button in words for each choice
            self.shot(v["phase"])
            choices = attributes(d, "#moves button[data-action]", "data-action")
            assert sorted(choices) == sorted(legal)
            words = d.execute_script(
                "return [...document.querySelectorAll('#moves button[data-action]')]"
                ".map((b) => b.textContent)"
            )
            assert all(w and w not in legal for w in words)  # in words, not notation
            click(d, f'#moves button[data-action="{choices[0]}"]')
        self.clicks += 1

    def play(self) -> Any:
        """Play to the end of the game; answers the last view."""
        d = self.driver
        while True:
            wait_for(
                d,
                lambda d: (
                    settled(d)
                    and page(
                        d,
                        "f.shown.view.view.to_act === f.shown.seat"
                        " || f.shown.view.view.result !== null",
                    )
                ),
            )
            answer = page(d, "f.shown")
            self.hands_seen.add(answer["page"]["hand"])
            if answer["view"]["view"]["result"] is not None:
                return answer
            version = answer["version"]
            self.turn(answer)
            wait_for(d, functools.partial(answered, version=version))
            assert not d.find_element(By.ID, "refusal").text, "the server refused a click"
            assert self.clicks < MAX_CLICKS


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_whole_game_is_played_through_the_page(
    browser: WebDriver, server: str, players: int
) -> None:
    """R9.1: a 250-point game, from the lobby to the end, at every table size."""
    if players == 4:
        browser.get(server)
        wait_for(browser, lambda d: d.find_element(By.ID, "create-button").is_displayed())
        assert not browser.find_element(By.ID, "table").is_displayed()  # the lobby alone
        shoot(browser, "lobby")
    first = open_table(browser, server, players, target=250)
    assert len(first["page"]["seats"]) == players
    assert browser.find_elements(By.CSS_SELECTOR, "#seats .seat.you")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#seats .seat")) == players
    game = Game(browser, players)
    final = game.play()
    result = final["view"]["view"]["result"]
    assert result is not None
    sheet = final["page"]["sheet"]
    assert sheet and [row["hand"] for row in sheet] == sorted(row["hand"] for row in sheet)
    # R8: the sheet's last scores are the game's scores, and the page shows every hand
    assert sheet[-1]["scores"] == final["view"]["view"]["scores"]
    rows = browser.find_elements(By.CSS_SELECTOR, "#sheet tbody tr")
    assert len(rows) == len(sheet)
    # every word of the score sheet and the auction on one line ("Hand", not "Han d")
    assert broken_words(browser, "#sheet, #auction") == []
    # scores below zero with the minus sign of the changes under them, not a hyphen
    printed = browser.find_element(By.ID, "sheet").text
    printed += browser.find_element(By.ID, "target-text").text
    assert not re.search(r"-\d", printed)
    if any(score < 0 for row in sheet for score in row["scores"]):
        assert "\u2212" in printed
    turn = browser.find_element(By.ID, "turn").text
    assert turn.startswith("The game is over") and "seat" not in turn
    assert "250" in browser.find_element(By.ID, "target-text").text
    game.shot("game-over")
    click(browser, "#last-trick-button")
    wait_for(browser, lambda d: d.find_element(By.ID, "last-trick").is_displayed())
    assert " won it with the " in browser.find_element(By.ID, "last-trick-words").text
    game.shot("last-trick")
    click(browser, "#last-trick-close")
    # game over offers a new game with the same seats and rules, and the lobby
    assert browser.find_element(By.ID, "hand-end").is_displayed()
    assert browser.find_element(By.ID, "hand-end-words").text.startswith("The game is over")
    assert not browser.find_element(By.ID, "next-hand").is_displayed()
    click(browser, "#to-lobby")
    wait_for(browser, lambda d: d.find_element(By.ID, "lobby").is_displayed())
    assert not browser.find_element(By.ID, "table").is_displayed()
    browser.back()  # the table's link again: the game over, as it was
    wait_for(browser, lambda d: settled(d) and page(d, "f.shown.table") == final["table"])
    click(browser, "#new-game")
    moved = f"f.shown !== null && !f.busy && f.shown.table !== {json.dumps(final['table'])}"
    wait_for(browser, lambda d: page(d, moved))
    again = page(browser, "f.shown")
    assert again["seats"] == final["seats"] and again["page"]["hand"] == 1
    assert again["view"]["view"]["rules"] == final["view"]["view"]["rules"]
    assert not browser.find_element(By.ID, "hand-end").is_displayed()
    assert {"bidding", "play"} <= game.phases
    assert (SHOTS / f"{players}p-play-390.png").stat().st_size > 10_000
    saved = os.environ.get("FIVEHUNDRED_SCREENSHOT")
    if saved and players == 4:
        shutil.copyfile(SHOTS / "4p-play-1280.png", saved)


def test_a_joker_lead_that_names_a_suit_is_one_button_a_suit(
    browser: WebDriver, server: str
) -> None:
    """R7.4: leading the Joker in No Trumps names an unled suit, so the page offers a
    button in words for each suit it may name instead of the card, and the other cards
    stay clickable. The page draws a view given to it."""
    open_table(browser, server, 4)
    legal = ["AS", "5D", "Jo:S", "Jo:C", "Jo:D", "Jo:H"]
    browser.execute_script(
        """
        const answer = structuredClone(window.fivehundred.shown);
        const v = answer.view.view;
        Object.assign(v, {phase: "play", contract: "7NT", contractor: answer.seat,
                          to_act: answer.seat, trick: [], kitty: null,
                          hand: ["AS", "5D", "Jo", "KH"]});
        answer.display = {hand: [["Jo"], ["AS"], ["5D"], ["KH"]], kitty: null,
                          exposed_hand: null, trumps: ["Jo"]};
        answer.legal_actions = arguments[0];
        answer.page.box = null;
        answer.page.actions = {"Jo:S": "Lead the Joker as spades",
          "Jo:C": "Lead the Joker as clubs", "Jo:D": "Lead the Joker as diamonds",
          "Jo:H": "Lead the Joker as hearts"};
        window.fivehundred.render(answer);
        """,
        legal,
    )
    assert shown_moves(browser) == (["5D", "AS"], ["Jo:C", "Jo:D", "Jo:H", "Jo:S"])
    assert shown_moves(browser) == expected_play_moves(legal)
    words = browser.find_element(By.CSS_SELECTOR, '#moves button[data-action="Jo:H"]').text
    assert words == "Lead the Joker as hearts"
    # with one suit left to name, the Joker is a card again
    browser.execute_script(
        "const a = structuredClone(window.fivehundred.shown);"
        "a.legal_actions = ['5D', 'Jo:H']; window.fivehundred.render(a);"
    )
    assert shown_moves(browser) == (["5D", "Jo"], [])


def test_the_table_fits_a_phone_screen(browser: WebDriver, server: str) -> None:
    browser.set_window_size(390, 844)
    try:
        open_table(browser, server, 6)
        width = browser.execute_script("return document.documentElement.scrollWidth")
        inner = browser.execute_script("return window.innerWidth")
        assert width <= inner  # no sideways scrolling
        cards = browser.find_elements(By.CSS_SELECTOR, "#hand .card")
        assert len(cards) == 10
        assert all(c.rect["x"] >= 0 and c.rect["x"] + c.rect["width"] <= inner for c in cards)
        seats = browser.find_elements(By.CSS_SELECTOR, "#seats .seat")
        assert all(s.rect["x"] >= 0 and s.rect["x"] + s.rect["width"] <= inner for s in seats)
        assert broken_words(browser, "#sheet, #auction") == []
        # the seats' marks are explained in words under the table
        dealer = page(browser, "f.shown.page.seats.filter((s) => s.dealer).length")
        assert dealer == 1 and "dealer" in browser.find_element(By.ID, "legend").text
    finally:
        viewport(browser, *SIZES[0])


def test_a_second_person_and_a_spectator_join_by_their_links(
    browser: WebDriver, server: str
) -> None:
    mine = open_table(browser, server, 4, seats={2: "human"})
    links = wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#link-list input"))
    urls = {e.get_attribute("data-seat"): e.get_attribute("value") or "" for e in links}
    assert set(urls) == {"2", "watch"}
    assert "#table=" in urls["2"] and "token=" in urls["2"]
    assert mine["seat"] == 0 and mine["seats"][2] == "human"
    # a view arriving leaves the invite as it is: the keyboard stays on its "Copy" button
    browser.execute_script("document.querySelector('#link-list button').focus()")
    browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.fivehundred.connection.fetchView().then(() => done(true));"
    )
    assert page(browser, "document.activeElement.closest('#link-list') !== null")
    browser.get(urls["2"])
    browser.refresh()  # a new page load, as the friend who opens the link
    wait_for(browser, lambda d: settled(d) and page(d, "f.shown.seat === 2"))
    theirs = page(browser, "f.shown")
    assert theirs["table"] == mine["table"]
    assert theirs["page"]["seats"][0]["name"] == "Player 1"  # seat 0 is not "you" here
    assert not set(theirs["view"]["view"]["hand"]) & set(mine["view"]["view"]["hand"])
    browser.get(urls["watch"])
    browser.refresh()
    wait_for(browser, lambda d: settled(d) and page(d, "f.shown.seat === null"))
    watched = page(browser, "f.shown")
    assert watched["view"]["view"]["hand"] == [] and watched["legal_actions"] == []
    assert not browser.find_element(By.ID, "hand-box").is_displayed()
    assert not browser.find_elements(By.CSS_SELECTOR, "#box .bid:not([disabled])")
    assert "You" not in [s["name"] for s in watched["page"]["seats"]]
    shoot(browser, "4p-spectator")


def test_the_lobby_opens_a_two_player_table_without_misere_V_NO_MISERE(
    browser: WebDriver, server: str
) -> None:
    """P2 and V-NO-MISERE from the lobby's options: two seats, and no misère call offered."""
    first = open_table(browser, server, 2, target=1000, toggle=("opt-misere",))
    assert len(first["page"]["seats"]) == 2 and first["page"]["target"] == 1000
    assert first["view"]["view"]["rules"].get("misere") is False
    assert "Game to 1000." in browser.find_element(By.ID, "target-text").text
    wait_for(browser, lambda d: settled(d) and page(d, "f.shown.page.box !== null"))
    assert page(browser, "f.shown.page.box.misere") == []
    assert not browser.find_elements(By.CSS_SELECTOR, "#misere .bid")
    browser.get(server)  # back in the lobby: without misère there is no blind misère
    wait_for(browser, lambda d: d.find_element(By.ID, "create-button").is_displayed())
    click(browser, "#opt-misere")
    assert not browser.find_element(By.ID, "opt-blind").is_enabled()


def overlaps(driver: WebDriver) -> list[tuple[str, str]]:
    """The trick's cards that cover a seat's box: (card, seat's name) pairs."""
    found: list[tuple[str, str]] = driver.execute_script(
        """
        const hit = (a, b) => a.left < b.right && b.left < a.right
          && a.top < b.bottom && b.top < a.bottom;
        const out = [];
        for (const card of document.querySelectorAll("#trick .card")) {
          card.getAnimations().forEach((move) => move.finish());  // where it comes to rest
          for (const seat of document.querySelectorAll("#seats .seat")) {
            if (hit(card.getBoundingClientRect(), seat.getBoundingClientRect())) {
              out.push([card.dataset.card, seat.querySelector(".name").textContent]);
            }
          }
        }
        return out;
        """
    )
    return found


@pytest.mark.parametrize("players", [2, 5, 6])
def test_the_trick_and_a_misere_badge_fit_the_table(
    browser: WebDriver, server: str, players: int
) -> None:
    """Each card of a full trick lies clear of every seat's box, and the misère badge
    holds its word, at 1280 px and at 390 px (the page draws a view given to it)."""
    open_table(browser, server, players)
    cards = ["AS", "KS", "QS", "JS", "10S", "9S"][:players]
    try:
        for width, height in SIZES:
            viewport(browser, width, height)
            browser.execute_script(
                """
                const answer = structuredClone(window.fivehundred.shown);
                answer.page.trick = arguments[0].map((card, seat) => ({seat, card}));
                answer.page.contract = {text: "Misère", words: "misère", by: "You",
                  points: 250, badge: "Misère", badge_words: "Trumps: no trumps: misère",
                  red: false, need: "no trick"};
                answer.display.exposed_hand = [];  // an open misère hand all played
                window.fivehundred.render(answer);
                """,
                cards,
            )
            assert len(browser.find_elements(By.CSS_SELECTOR, "#trick .card")) == players
            assert overlaps(browser) == [], width
            badge = browser.find_element(By.ID, "badge")
            assert badge.text == "Misère"
            assert not browser.find_element(By.ID, "exposed-box").is_displayed()  # no empty box
            # the word inside its square: no wider than the badge it is drawn in
            assert page(browser, "document.getElementById('badge').scrollWidth") <= page(
                browser, "document.getElementById('badge').clientWidth"
            )
    finally:
        viewport(browser, *SIZES[0])
