"""The browser table for keyboard and screen-reader players, in Chromium: an axe-core scan
(its WCAG 2.0 A and AA rules and the 2.1 AA ones; axe-core 3.1, as axe-selenium-python
ships it) with no serious or critical violation in each phase and at a phone's width,
focus kept where the player is after a move, and spoken labels for the cards, the turn,
the trump and the trick.

The scan's results are written to ``axe-results.json`` beside the screenshots.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from axe_selenium_python import Axe  # type: ignore[import-untyped]  # no stubs
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from browser_support import SHOTS, chromium, open_table, page, served, settled, shoot, wait_for

#: The WCAG levels scanned.
TAGS = ["wcag2a", "wcag2aa", "wcag21aa"]
#: What a scan may not find.
BLOCKING = {"serious", "critical"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("server"), "--seed", "a11y") as url:
        yield url


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    with chromium(tmp_path_factory.mktemp("chromium")) as driver:
        yield driver


RESULTS: dict[str, Any] = {}


def scan(driver: WebDriver, name: str) -> list[dict[str, Any]]:
    """axe-core's violations on the page now; every one is kept in axe-results.json."""
    Axe(driver).inject()  # the axe-core that axe-selenium-python ships
    results = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}})"
        ".then(done).catch((e) => done({error: String(e)}));",
        TAGS,
    )
    assert "error" not in results, results
    RESULTS["axe-core"] = driver.execute_script("return axe.version")
    violations: list[dict[str, Any]] = results["violations"]
    RESULTS[name] = {
        "passes": len(results["passes"]),
        "violations": [
            {"id": v["id"], "impact": v["impact"], "nodes": len(v["nodes"])} for v in violations
        ],
        "incomplete": [v["id"] for v in results["incomplete"]],
    }
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "axe-results.json").write_text(json.dumps(RESULTS, indent=2) + "\n")
    return [v for v in violations if v["impact"] in BLOCKING]


def moved(driver: WebDriver, version: int) -> bool:
    return bool(page(driver, "f.shown.version") != version)


def play_until(driver: WebDriver, phase: str, clicks: int = 60) -> Any:
    """Pass, then play the first legal card, until the person acts in ``phase``."""
    for _ in range(clicks):
        wait_for(
            driver, lambda d: settled(d) and page(d, "f.shown.view.view.to_act === f.shown.seat")
        )
        answer = page(driver, "f.shown")
        if answer["view"]["view"]["phase"] == phase:
            return answer
        version = answer["version"]
        buttons = driver.find_elements(
            By.CSS_SELECTOR, "#hand .card.legal, #box .bid:not([disabled]), #moves button"
        )
        pass_ = driver.find_elements(By.CSS_SELECTOR, '#misere button[data-action="pass"]')
        (pass_ or buttons)[0].click()
        wait_for(driver, functools.partial(moved, version=version))
    raise AssertionError(f"no {phase} phase within {clicks} clicks")


@pytest.mark.parametrize("width", [1280, 390])
def test_no_serious_or_critical_violation_in_the_lobby_or_the_auction(
    browser: WebDriver, server: str, width: int
) -> None:
    browser.set_window_size(width, 900 if width > 400 else 844)
    try:
        browser.get(server)
        wait_for(browser, lambda d: d.find_element(By.ID, "create-button"))
        assert scan(browser, f"lobby-{width}") == []
        open_table(browser, server, 5)
        wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#box .bid"))
        assert scan(browser, f"auction-{width}") == []
    finally:
        browser.set_window_size(1280, 900)


def test_no_serious_or_critical_violation_in_the_play(browser: WebDriver, server: str) -> None:
    open_table(browser, server, 4)
    play_until(browser, "play")
    assert scan(browser, "play-1280") == []
    browser.set_window_size(390, 844)
    try:
        assert scan(browser, "play-390") == []
    finally:
        browser.set_window_size(1280, 900)


def test_cards_turn_trump_and_trick_have_spoken_labels(browser: WebDriver, server: str) -> None:
    open_table(browser, server, 4)
    answer = play_until(browser, "play")
    turn = browser.find_element(By.ID, "turn")
    assert turn.get_attribute("aria-live") == "polite" and turn.text == "Your turn: play a card."
    labels = [
        c.get_attribute("aria-label") or ""
        for c in browser.find_elements(By.CSS_SELECTOR, "#hand .card")
    ]
    assert labels == [
        answer["page"]["cards"][c]["label"] for g in answer["display"]["hand"] for c in g
    ]
    assert all(" of " in label or label.startswith("Joker") for label in labels)
    badge = browser.find_element(By.ID, "badge").get_attribute("aria-label") or ""
    assert badge.startswith("Trumps: ")
    trick = browser.find_element(By.ID, "trick")
    assert trick.get_attribute("aria-label") == "The trick"
    for card in trick.find_elements(By.CSS_SELECTOR, ".card"):
        assert ": " in (card.get_attribute("aria-label") or "")  # "Computer 2: king of hearts"
    seat = browser.find_element(By.CSS_SELECTOR, "#seats .seat.you").get_attribute("aria-label")
    assert seat is not None and seat.startswith("You,") and seat.endswith("to act")


def test_keyboard_play_keeps_the_focus_where_the_player_is(browser: WebDriver, server: str) -> None:
    open_table(browser, server, 4)
    for _ in range(6):  # a few calls and cards, each made with the keyboard
        wait_for(
            browser, lambda d: settled(d) and page(d, "f.shown.view.view.to_act === f.shown.seat")
        )
        version = page(browser, "f.shown.version")
        target = browser.find_elements(
            By.CSS_SELECTOR, '#misere button[data-action="pass"]:not([disabled]), #hand .card.legal'
        )[0]
        region = "bidding" if target.get_attribute("data-action") == "pass" else "hand"
        browser.execute_script("arguments[0].focus()", target)
        target.send_keys(Keys.ENTER)
        wait_for(browser, functools.partial(moved, version=version))
        wait_for(browser, settled)
        focused = browser.execute_script(
            "const e = document.activeElement;"
            "return [e.tagName, e.id, e.closest('#table') !== null,"
            " e.closest('#side, #hand, #moves') !== null];"
        )
        assert focused[0] != "BODY", f"the focus dropped to the page after a move in {region}"
        assert focused[2], focused  # still at the table
        assert focused[3] or focused[1] == "turn", focused  # by the controls, or the turn


def at_a_decision(driver: WebDriver) -> bool:
    """The person's turn, the game's end, or a held end of a hand (which keeps the page
    busy until the person goes on)."""
    if page(driver, "f !== undefined && f.held !== null"):
        return True
    return settled(driver) and bool(
        page(
            driver, "f.shown.view.view.result !== null || f.shown.view.view.to_act === f.shown.seat"
        )
    )


def play_to_an_end(driver: WebDriver) -> str:
    """Pass, then play the first legal card, until the page holds the end of a hand or the
    game is over: answers which ("hand-end" or "game-over")."""
    for _ in range(200):
        wait_for(driver, at_a_decision)
        if page(driver, "f.shown.view.view.result !== null"):
            return "game-over"
        if page(driver, "f.held !== null"):
            return "hand-end"
        version = page(driver, "f.shown.version")
        if page(driver, "f.shown.view.view.phase") == "discard":
            for card in page(driver, "f.shown.display.hand.flat().slice(0, 3)"):
                driver.find_element(By.CSS_SELECTOR, f'#hand .card[data-card="{card}"]').click()
            driver.find_element(By.ID, "discard").click()
        else:
            buttons = driver.find_elements(
                By.CSS_SELECTOR, "#hand .card.legal, #moves button[data-action]"
            )
            pass_ = driver.find_elements(By.CSS_SELECTOR, '#misere button[data-action="pass"]')
            (pass_ or buttons)[0].click()
        wait_for(driver, functools.partial(moved_or_held, version=version))
    raise AssertionError("no hand ended within 200 moves")


def moved_or_held(driver: WebDriver, version: int) -> bool:
    return bool(page(driver, f"f.shown.version !== {version} || f.held !== null"))


@pytest.mark.parametrize(("target", "end"), [(500, "hand-end"), (10, "game-over")])
def test_no_serious_or_critical_violation_at_a_hands_end_or_the_games_end(
    browser: WebDriver, server: str, target: int, end: str
) -> None:
    """The held end of a hand (its contract, auction and marks as it ended) and the game
    over, each with a review that says what a best card saved, scan clean."""
    open_table(browser, server, 4, target=target)
    browser.execute_script("localStorage.setItem('fivehundred.hold', '600')")
    try:
        assert play_to_an_end(browser) == end
        # the server's review first, then one with a saved trick laid over it (again, if
        # the server's comes once more: over the socket and from the page's own request)
        wait_for(browser, lambda d: d.find_element(By.ID, "review").is_displayed(), timeout=30)
        you = page(browser, "f.shown.seat")
        review = {
            "type": "review", "hand": page(browser, "f.shown.page.reviewed"),
            "complete": True, "contract": "7S", "contractor": you, "side": [you],
            "made": True, "tricks_taken": 7, "could_make": 7,
            "tricks": [{"number": 1, "winner": you, "cards": [
                {"seat": you, "card": "AS", "analysed": True, "forced": False,
                 "best": ["AS"], "lost": 0, "worst": ["KC"], "saved": 1}]}],
        }  # fmt: skip

        def shown(driver: WebDriver) -> bool:
            text = driver.find_element(By.ID, "review").text
            if "You made 7♠" in text and "saved 1 trick against K♣" in text:
                return True
            driver.execute_script("window.fivehundred.showReview(arguments[0])", review)
            return False

        wait_for(browser, shown)
        time.sleep(4)  # longer than the page's wait between two requests of a review
        wait_for(browser, shown)
        assert browser.find_element(By.ID, "hand-end").is_displayed()
        shoot(browser, f"4p-{end}-review", at="#review")
        assert scan(browser, f"{end}-1280") == []
        browser.set_window_size(390, 844)
        assert scan(browser, f"{end}-390") == []
    finally:
        browser.set_window_size(1280, 900)
        browser.execute_script("localStorage.removeItem('fivehundred.hold')")
