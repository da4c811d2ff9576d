"""A pace that waits for people, in Chromium: the end of a hand keeps its result, its
last trick and its review up until the person says "Next hand" or a visible countdown
ends; the next auction is not shown meanwhile."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from browser_support import (
    SIZES,
    chromium,
    click,
    open_table,
    page,
    served,
    settled,
    shoot,
    viewport,
    wait_for,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("server"), "--seed", "pace") as url:
        yield url


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    with chromium(tmp_path_factory.mktemp("chromium")) as driver:
        yield driver


def ready(driver: WebDriver) -> bool:
    return settled(driver) and bool(
        page(driver, "f.shown.view.view.to_act === f.shown.seat || f.held !== null")
    )


def newer(driver: WebDriver, version: int) -> bool:
    return bool(page(driver, f"f.shown.version > {version} || f.held !== null"))


#: What the page says of the hand it shows, read at one moment: the trump badge, the
#: contract in the bar, the seats with the dealer mark, and the auction grid.
SHOWN_HAND = """
const text = (sel) => document.querySelector(sel).textContent;
return {
  badge: document.getElementById("badge").getAttribute("aria-label"),
  contract: text("#contract-text"),
  dealer: [...document.querySelectorAll("#seats .seat")]
    .filter((s) => s.querySelector(".mark-dealer")).map((s) => Number(s.dataset.seat)),
  auction: [...document.querySelectorAll("#auction tr")]
    .map((r) => [...r.cells].map((c) => c.textContent)),
};
"""


def shown_hand(driver: WebDriver) -> dict[str, Any]:
    found: dict[str, Any] = driver.execute_script(SHOWN_HAND)
    return found


def to_the_last_card(driver: WebDriver) -> None:
    """Play the first hand (pass, or the only move) until one card is left to play."""
    for _ in range(80):
        wait_for(driver, ready)
        phase = page(driver, "f.shown.view.view.phase")
        if phase == "play" and page(driver, "f.shown.display.hand.flat().length") == 1:
            return
        version = page(driver, "f.shown.version")
        if phase == "discard":
            for card in page(driver, "f.shown.display.hand.flat().slice(0, 3)"):
                click(driver, f'#hand .card[data-card="{card}"]')
            click(driver, "#discard")
        elif phase == "play":
            click(driver, "#hand .card.legal")
        else:
            click(driver, '#misere button[data-action="pass"], #moves button[data-action]')
        wait_for(driver, functools.partial(newer, version=version))
    raise AssertionError("the hand never came to its last card")


def test_the_end_of_a_hand_waits_for_next_hand_then_for_the_countdown(
    browser: WebDriver, server: str
) -> None:
    for how in ("button", "countdown"):
        open_table(browser, server, 4, pace="instant")
        to_the_last_card(browser)
        browser.execute_script(
            "localStorage.setItem('fivehundred.hold', arguments[0])",
            "60" if how == "button" else "3",
        )
        hand = page(browser, "f.shown.page.hand")
        before = shown_hand(browser)  # the hand in play, as the page showed it
        assert before["dealer"] and before["auction"][1:]
        click(browser, "#hand .card.legal")
        wait_for(browser, lambda d: page(d, "f.held !== null"))
        answer: Any = page(browser, "f.shown")
        assert answer["page"]["hand"] == hand + 1  # the server dealt on: the page waits
        # and the server waits for the person: the next hand's computers have not called
        assert answer["pause"]["waiting"] == [answer["seat"]]
        assert answer["view"]["view"]["auction"] == []
        # the bar, the badge, the dealer mark and the auction still show the hand that
        # ended, not the next deal's (whose dealer is the next seat)
        dealt = [s["seat"] for s in answer["page"]["seats"] if s["dealer"]]
        assert dealt and dealt != before["dealer"]
        assert shown_hand(browser) == before
        end = browser.find_element(By.ID, "hand-end")
        assert end.is_displayed()
        assert browser.find_element(By.ID, "hand-end-title").text == f"HAND {hand} IS OVER"
        words = browser.find_element(By.ID, "hand-end-words").text
        assert words == answer["page"]["previous"]["words"]
        count = browser.find_element(By.ID, "hand-end-count").text
        assert re.fullmatch(r"The next hand starts in \d+ s, or when you are ready\.", count)
        # the last trick lies on the felt with its winner; the next auction is not shown
        last = answer["page"]["previous"]["tricks"][-1]
        wait_for(browser, lambda d: not page(d, "f.animating"))
        on_felt = browser.execute_script(
            "return [...document.querySelectorAll('#trick .card')].map((c) => c.dataset.card)"
        )
        assert sorted(on_felt) == sorted(p["card"] for p in last["plays"])
        assert browser.find_elements(By.CSS_SELECTOR, "#trick .card.winner")
        assert not browser.find_element(By.ID, "bidding").is_displayed()
        assert not browser.find_element(By.ID, "hand-box").is_displayed()
        assert browser.find_element(By.ID, "turn").text == f"Hand {hand} is over."
        assert browser.title == f"Five Hundred · Hand {hand} is over."  # the tab says so too
        if how == "button":
            shoot(browser, "4p-hand-end")
            click(browser, "#next-hand")
        wait_for(browser, lambda d: page(d, "f.held === null"), timeout=20)
        assert not end.is_displayed()
        assert page(browser, "f.shown.pause") is None  # the server moved on too
        assert browser.find_element(By.ID, "turn").text == page(browser, "f.shown.page.turn")
        title, turn = page(browser, "[document.title, f.shown.page.turn]")
        assert title == f"Five Hundred · {turn}"
        now = page(browser, "f.shown.page")
        after = shown_hand(browser)  # then the next deal: its dealer, its auction so far
        assert after["dealer"] == [s["seat"] for s in now["seats"] if s["dealer"]]
        assert after["auction"][1:] == (now["auction"]["rows"] or [["No call yet."]])
        if answer["view"]["view"]["to_act"] == answer["seat"]:
            assert browser.find_element(By.ID, "bidding").is_displayed()
        browser.execute_script("localStorage.removeItem('fivehundred.hold')")


#: What of the held hand's end is not wholly on the screen, with the page at its top: its
#: result, "Next hand", each card of the last trick, the review's title and, on a wide
#: screen (``arguments[0]``), the review's first line.
OFF_SCREEN = """
window.scrollTo(0, 0);
for (const card of document.querySelectorAll('#trick .card')) {
  card.getAnimations().forEach((a) => a.finish());
}
const parts = ['#hand-end-words', '#next-hand', '#trick .card', '#review-title'];
if (arguments[0]) parts.push('#review-body > :first-child');
const out = [];
for (const part of parts) {
  for (const el of document.querySelectorAll(part)) {
    const r = el.getBoundingClientRect();
    if (el.offsetParent === null || r.top < 0 || r.bottom > innerHeight + 0.5) {
      out.push(`${part} at ${Math.round(r.top)}-${Math.round(r.bottom)}`);
    }
  }
}
return out;
"""


def inner_width(driver: WebDriver, width: int) -> bool:
    return bool(driver.execute_script("return innerWidth") == width)


@pytest.mark.parametrize("players", [4, 6])
def test_the_held_result_its_last_trick_and_the_review_share_the_screen(
    browser: WebDriver, server: str, players: int
) -> None:
    """The end of a hand keeps its result, the last trick on the felt and the start of its
    review on one screen, at 1280x800 and at 390x844 (there the review's title): nothing
    to scroll to."""
    open_table(browser, server, players, pace="instant")
    to_the_last_card(browser)
    browser.execute_script("localStorage.setItem('fivehundred.hold', '60')")
    click(browser, "#hand .card.legal")
    wait_for(browser, lambda d: page(d, "f.held !== null"))
    wait_for(browser, lambda d: d.find_element(By.ID, "review").is_displayed(), timeout=30)
    wait_for(browser, lambda d: not page(d, "f.animating"))
    wrong = []
    for width, height in SIZES:
        viewport(browser, width, height)
        wait_for(browser, functools.partial(inner_width, width=width))
        wrong += [
            f"{width}x{height}: {x}" for x in browser.execute_script(OFF_SCREEN, width > 1000)
        ]
    shoot(browser, f"{players}p-held-end")
    viewport(browser, *SIZES[0])
    click(browser, "#next-hand")
    browser.execute_script("localStorage.removeItem('fivehundred.hold')")
    assert wrong == []


def over(driver: WebDriver) -> bool:
    return settled(driver) and bool(
        page(driver, "f.shown.view.view.to_act === f.shown.seat || f.shown.view.view.result")
    )


def test_at_the_games_end_no_dealer_and_the_last_hands_auction(
    browser: WebDriver, server: str
) -> None:
    """R9: the game over shows no dealer of a hand that never comes, and the final hand's
    auction as it was played; it offers a new game and the lobby."""
    open_table(browser, server, 4, pace="instant", target=10)
    browser.execute_script("localStorage.setItem('fivehundred.hold', '0')")
    during = None  # the page during the final hand's play, as it drew it
    for _ in range(200):
        wait_for(browser, over)
        if page(browser, "f.shown.view.view.result"):
            break
        if page(browser, "f.shown.view.view.phase") == "play":
            during = shown_hand(browser)
        version = page(browser, "f.shown.version")
        if page(browser, "f.shown.view.view.phase") == "discard":
            for card in page(browser, "f.shown.display.hand.flat().slice(0, 3)"):
                click(browser, f'#hand .card[data-card="{card}"]')
            click(browser, "#discard")
        elif page(browser, "f.shown.view.view.phase") == "play":
            click(browser, "#hand .card.legal")
        else:
            click(browser, '#misere button[data-action="pass"], #moves button[data-action]')
        wait_for(browser, functools.partial(newer, version=version))
    else:
        raise AssertionError("the game to 10 never ended")
    assert during is not None
    answer = page(browser, "f.shown")
    assert answer["view"]["view"]["dealer"] is not None  # the library has a next dealer...
    end = shown_hand(browser)
    assert end["dealer"] == []  # ...that the page does not show
    assert "dealer" not in browser.find_element(By.ID, "legend").text
    assert end["auction"] == during["auction"] and end["auction"][1:]
    assert (end["badge"], end["contract"]) == (during["badge"], during["contract"])
    assert browser.find_element(By.ID, "hand-end-title").text == "THE GAME IS OVER"
    assert browser.find_element(By.ID, "new-game").is_displayed()
    assert browser.find_element(By.ID, "to-lobby").is_displayed()
    words = browser.find_element(By.ID, "hand-end-words").text
    assert words and not re.search(r"-\d", words), words
    shoot(browser, "4p-game-over")
    browser.execute_script("localStorage.removeItem('fivehundred.hold')")
