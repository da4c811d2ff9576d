"""What the page shows is the state that is, in Chromium: the card a person plays leaves
their hand at once, the computers' cards laid on the felt at the person's pace never
hold back the hand or whose turn it is, a card already on the felt is never laid
again (no flicker), and no click is lost without a word."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from browser_support import chromium, click, open_table, page, served, settled, shoot, wait_for


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("server"), "--seed", "truth") as url:
        yield url


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    with chromium(tmp_path_factory.mktemp("chromium")) as driver:
        yield driver


def my_turn(driver: WebDriver) -> bool:
    return settled(driver) and bool(page(driver, "f.shown.view.view.to_act === f.shown.seat"))


def newer(driver: WebDriver, version: int) -> bool:
    return bool(page(driver, f"f.shown.version > {version}"))


def to_the_play(driver: WebDriver) -> None:
    """Pass (or take the only move) until the person is to play a card."""
    for _ in range(60):
        wait_for(driver, my_turn)
        if page(driver, "f.shown.view.view.phase") == "play":
            return
        version = page(driver, "f.shown.version")
        if page(driver, "f.shown.view.view.phase") == "discard":
            for card in page(driver, "f.shown.display.hand.flat().slice(0, 3)"):
                click(driver, f'#hand .card[data-card="{card}"]')
            click(driver, "#discard")
        else:
            click(driver, '#misere button[data-action="pass"], #moves button[data-action]')
        wait_for(driver, functools.partial(newer, version=version))
    raise AssertionError("the person never came to play a card")


#: Clicks a legal card and reads the page in the same task, before any answer can come.
CLICK_AND_LOOK = """
const card = document.querySelector('#hand .card.legal');
const name = card.dataset.card;
const t0 = performance.now();
card.click();
return {
  card: name,
  inHand: Boolean(document.querySelector(`#hand [data-card="${name}"]`)),
  onFelt: [...document.querySelectorAll('#trick .card')].map((c) => c.dataset.card),
  turn: document.getElementById('turn').textContent,
  ms: performance.now() - t0,
};
"""

#: Counts every card node put on the felt from now on (a flicker puts one back again).
WATCH_FELT = """
window.landed = [];
new MutationObserver((changes) => {
  for (const change of changes) for (const node of change.addedNodes) {
    if (node.dataset && node.dataset.key) window.landed.push(node.dataset.key);
  }
}).observe(document.getElementById('trick'), { childList: true });
"""


def test_a_played_card_leaves_the_hand_at_once_and_the_turn_is_never_held_back(
    browser: WebDriver, server: str
) -> None:
    open_table(browser, server, 4, pace="slow")
    to_the_play(browser)
    version = page(browser, "f.shown.version")
    browser.execute_script(WATCH_FELT)
    seen: Any = browser.execute_script(CLICK_AND_LOOK)
    # the card left the hand and lies before the person in the same task as the click
    assert not seen["inHand"], seen
    assert seen["onFelt"][-1] == seen["card"], seen
    assert seen["turn"].startswith("You played "), seen
    wait_for(browser, functools.partial(newer, version=version))
    # the server's view is drawn at once, while the computers' cards are still being laid
    # out at the slow pace: the hand, the turn and the controls are the newest view's
    now: Any = page(
        browser,
        "{animating: f.animating, turn: document.getElementById('turn').textContent,"
        " pageTurn: f.shown.page.turn, hand: [...document.querySelectorAll('#hand .card')]"
        ".map((c) => c.dataset.card), display: f.shown.display.hand.flat()}",
    )
    assert now["turn"] == now["pageTurn"]
    assert now["hand"] == now["display"] and seen["card"] not in now["hand"]
    if now["animating"]:
        shoot(browser, "4p-laying-out")
    wait_for(browser, lambda d: not page(d, "f.animating"), timeout=30)
    # each card of the trick was put on the felt once: nothing faded in again
    landed: list[str] = browser.execute_script("return window.landed")
    assert len(landed) == len(set(landed)), landed


def test_a_click_while_a_move_is_on_its_way_or_on_an_unplayable_card_is_answered(
    browser: WebDriver, server: str
) -> None:
    open_table(browser, server, 4, pace="instant")
    wait_for(browser, my_turn)
    # a card clicked in the auction: a sentence says why nothing was played
    click(browser, "#hand .card")
    note = browser.find_element(By.ID, "note").text
    assert note == "Your turn is not a card: choose above or beside the table.", note
    to_the_play(browser)
    version = page(browser, "f.shown.version")
    # two clicks at once: the first is sent, the second is answered in words
    note = browser.execute_script(
        "const cards = [...document.querySelectorAll('#hand .card.legal')];"
        "cards[0].click(); cards[1 % cards.length].click();"
        "return document.getElementById('note').textContent;"
    )
    assert note == "Your move is on its way: the table shows it in a moment."
    wait_for(browser, functools.partial(newer, version=version))
    assert not browser.find_element(By.ID, "refusal").text
    for _ in range(12):  # play on until a card cannot follow the suit led (R5.2)
        to_the_play(browser)
        unplayable = browser.find_elements(By.CSS_SELECTOR, "#hand .card.unplayable")
        if unplayable:
            break
        version = page(browser, "f.shown.version")
        click(browser, "#hand .card.legal")
        wait_for(browser, functools.partial(newer, version=version))
    assert unplayable, "every card could always be played"
    unplayable[0].click()
    note = browser.find_element(By.ID, "note").text
    assert note == "That card cannot be played now: the raised cards can."
    assert page(browser, "f.shown.view.view.to_act === f.shown.seat")  # nothing was sent


def test_the_pace_is_each_persons_own(
    browser: WebDriver, server: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The pace chosen in one browser is kept there, and is not another person's."""
    open_table(browser, server, 4, pace="normal")
    Select(browser.find_element(By.ID, "pace")).select_by_value("fast")
    assert browser.execute_script("return localStorage.getItem('fivehundred.pace')") == "fast"
    browser.refresh()
    wait_for(browser, settled)
    assert Select(browser.find_element(By.ID, "pace")).first_selected_option.text == "fast"
    with chromium(tmp_path_factory.mktemp("other")) as other:
        other.get(server)
        wait_for(other, lambda d: page(d, "f !== undefined"))
        assert Select(other.find_element(By.ID, "pace")).first_selected_option.text == "normal"


def test_the_tricks_each_side_took_and_who_leads_are_shown_during_the_play(
    browser: WebDriver, server: str
) -> None:
    """R5, R8: a running count by side, the contract's against what it needs, and the
    leader, the same as the tricks on the page, through a whole hand."""
    open_table(browser, server, 6, pace="instant")
    hand = None
    looked = 0
    for _ in range(40):
        to_the_play(browser)
        answer: Any = page(browser, "f.shown")
        if hand is None:
            hand = answer["page"]["hand"]
        if answer["page"]["hand"] != hand:
            break
        tally = answer["page"]["tally"]
        won = [0] * len(tally["sides"])
        for trick in answer["page"]["tricks"]:
            won[answer["page"]["seats"][trick["winner"]]["side"]] += 1
        assert [side["tricks"] for side in tally["sides"]] == won
        chips = browser.find_elements(By.CSS_SELECTOR, "#tally .side")
        assert len(chips) == len(tally["sides"]) == 3
        shown = [chip.find_element(By.CSS_SELECTOR, ".tricks").text for chip in chips]
        ours = next(n for n, side in enumerate(tally["sides"]) if side["contract"])
        for n, text in enumerate(shown):
            need = f"/{tally['need']}" if n == ours and not tally["misere"] else ""
            assert text == f"{won[n]}{need}"
        assert "contract" in (chips[ours].get_attribute("class") or "")
        lead = browser.find_element(By.CSS_SELECTOR, "#tally .lead").text
        leader = answer["page"]["trick"][0]["seat"] if answer["page"]["trick"] else answer["seat"]
        assert lead == (
            "You lead"
            if leader == answer["seat"]
            else f"{answer['page']['seats'][leader]['name']} leads"
        )
        if looked == 3:
            shoot(browser, "6p-tally")
        looked += 1
        version = answer["version"]
        click(browser, "#hand .card.legal")
        wait_for(browser, functools.partial(newer, version=version))
    assert looked >= 5
