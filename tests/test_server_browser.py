"""The browser table end to end: a real headless Chromium plays a whole hand by clicking.

It needs Debian's ``chromium`` and ``chromium-driver`` and Selenium; without them
the test is skipped (``nox -s browser`` sets ``FIVEHUNDRED_BROWSER_REQUIRED=1``,
which turns the skip into a failure, so CI cannot pass without the browser).
``FIVEHUNDRED_SCREENSHOT=PATH`` saves the screenshot the docs show there too.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server_helpers import free_port, start_server

REQUIRED = os.environ.get("FIVEHUNDRED_BROWSER_REQUIRED", "") == "1"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


def _skip(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"the browser test is required: {reason}")
    pytest.skip(reason, allow_module_level=True)


if CHROMIUM is None or DRIVER is None:
    _skip(
        "chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)"
    )
try:
    import starlette  # noqa: F401
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.remote.webdriver import WebDriver
except ImportError as err:  # pragma: no cover - the test group and the server extra have them
    _skip(f"{err.name} is not installed")


#: Chromium's switches: headless, no sandbox (root in CI), and no traffic of its own.
SWITCHES = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for switch in SWITCHES:
        options.add_argument(switch)
    profile = tempfile.mkdtemp(prefix="chromium-", dir=tmp_path)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument("--window-size=900,1100")
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(DRIVER)))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    process = start_server(tmp_path / "tables.db", port, "--seed", "browser")
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        process.terminate()
        process.communicate(timeout=10)


def wait_for(driver: WebDriver, test: Any, timeout: float = 20) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = test(driver)
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(
        f"timed out; the page says: {driver.find_element(By.TAG_NAME, 'main').text}"
    )


def legal_moves(driver: WebDriver) -> tuple[list[Any], list[Any]]:
    """The clickable cards of the hand and the move buttons."""
    cards = driver.find_elements(By.CSS_SELECTOR, "#hand .card.legal")
    buttons = driver.find_elements(By.CSS_SELECTOR, "#moves button:not([disabled])")
    return cards, buttons


def click(driver: WebDriver, selector: str, tries: int = 20) -> None:
    """Click what ``selector`` finds, finding it again if the page redrew it meanwhile."""
    for _ in range(tries):
        try:
            driver.find_element(By.CSS_SELECTOR, selector).click()
            return
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise AssertionError(f"{selector} kept being redrawn")


def shown_buttons(buttons: list[Any]) -> list[str]:
    """The actions of the move buttons, sorted."""
    return sorted(b.get_attribute("data-action") or "" for b in buttons)


def expected_play_moves(legal: list[str]) -> tuple[list[str], list[str]]:
    """The clickable cards and the move buttons the page should show for these plays.

    Every legal card is clickable, except a Joker whose lead may name more than one
    suit (R7.4): each of those leads is a button of its own.
    """
    jokers = sorted(a for a in legal if a.startswith("Jo:"))
    named = jokers if len(jokers) > 1 else []
    cards = sorted({a.split(":")[0] for a in legal if a not in named})
    return cards, named


def view(driver: WebDriver) -> Any:
    """The view the page shows, once it has one (links can appear first)."""
    return wait_for(driver, lambda d: d.execute_script("return shown"))


def test_a_person_plays_a_whole_hand_in_chromium(
    browser: WebDriver, server: str, tmp_path: Path
) -> None:
    browser.get(server)
    browser.find_element(By.ID, "create-button").click()
    wait_for(browser, lambda d: d.execute_script("return shown !== null"))
    assert "#table=" in browser.current_url and "token=" in browser.current_url
    first = view(browser)
    assert first["seats"] == ["human", "heuristic", "heuristic", "heuristic"]
    hand = [
        e.get_attribute("data-card") or ""
        for e in browser.find_elements(By.CSS_SELECTOR, "#hand .card")
    ]
    assert sorted(hand) == sorted(first["view"]["view"]["hand"])
    assert hand == [card for group in first["display"]["hand"] for card in group]  # its order

    # a refusal is shown with the server's code and sentence
    browser.execute_script("shown.version = -1; act('pass')")
    refusal = wait_for(browser, lambda d: d.find_element(By.ID, "refusal").text)
    assert "STALE_VERSION" in refusal

    bid = False
    screenshot = tmp_path / "server-table.png"
    clicks = 0
    played = 0  # cards the person played: a hand where they sit out (a partner's
    # misère) or that ends early (a lost misère) may give them none, so play on

    def done(d: WebDriver) -> bool:
        return bool(
            d.execute_script(
                "return shown.view.view.result !== null"
                " || (shown.view.view.hand_number > 1 && arguments[0] >= 5)",
                played,
            )
        )

    while True:
        wait_for(browser, lambda d: any(legal_moves(d)) or done(d))
        if done(browser):
            break
        state = view(browser)
        v = state["view"]["view"]
        cards, buttons = legal_moves(browser)
        legal = state["legal_actions"]
        if v["phase"] == "play":
            # only the legal cards are clickable, and all of them are; a Joker lead
            # that names a suit (R7.4) is one button a suit instead of the card
            clickable = sorted(c.get_attribute("data-card") or "" for c in cards)
            assert (clickable, shown_buttons(buttons)) == expected_play_moves(legal)
            trumps = browser.find_elements(By.CSS_SELECTOR, "#hand .card.trump")
            marked = {c.get_attribute("data-card") for c in trumps}
            held = {card for group in state["display"]["hand"] for card in group}
            assert marked == held & set(state["display"]["trumps"])  # the server's trumps
            if v["trick"] and (trumps or len(v["tricks"]) >= 5) and not screenshot.exists():
                browser.save_screenshot(str(screenshot))  # mid-hand, trumps marked if any
            (cards or buttons)[0].click()
            played += 1
        elif v["phase"] == "discard":
            chosen = [c.get_attribute("data-card") or "" for c in cards[:3]]
            for name in chosen:  # each click draws the hand anew: find the card each time
                click(browser, f'#hand .card[data-card="{name}"]')
            click(browser, "#discard")
        else:
            labels = [b.get_attribute("data-action") for b in buttons]
            assert sorted(map(str, labels)) == sorted(legal)  # the moves shown are the legal ones
            choice = next((b for b in buttons if b.get_attribute("data-action") != "pass"), None)
            (choice if choice is not None and not bid else buttons[labels.index(legal[0])]).click()
            bid = bid or v["phase"] == "bidding"
        clicks += 1
        wait_for(
            browser,
            lambda d, seen=state["version"]: (
                d.execute_script("return shown.version") != seen
                or d.find_element(By.ID, "refusal").text
            ),
        )
        assert not browser.find_element(By.ID, "refusal").text, "the server refused a click"
        assert clicks < 200

    if not screenshot.exists():  # the person led every trick of the second half
        browser.save_screenshot(str(screenshot))
    final = view(browser)["view"]["view"]
    assert final["last_hand"] is not None  # the hand was played out and scored
    assert "Last hand" in browser.find_element(By.ID, "last").text
    assert clicks >= 5 and played >= 5
    assert screenshot.exists() and screenshot.stat().st_size > 10_000
    saved = os.environ.get("FIVEHUNDRED_SCREENSHOT")
    if saved:
        shutil.copyfile(screenshot, saved)


def test_a_joker_lead_that_names_a_suit_is_one_button_a_suit(
    browser: WebDriver, server: str
) -> None:
    """R7.4: leading the Joker in No Trumps names an unled suit, so the page offers a
    button for each suit it may name instead of the card, and the other cards stay
    clickable. The page draws a view given to it, at the version it already shows."""
    browser.get(server)
    browser.find_element(By.ID, "create-button").click()
    # once it is the person's turn nothing changes on the server, so no poll redraws
    wait_for(
        browser,
        lambda d: d.execute_script(
            "return shown !== null && shown.view.view.to_act === shown.seat"
        ),
    )
    legal = ["AS", "5D", "Jo:S", "Jo:C", "Jo:D", "Jo:H"]
    browser.execute_script(
        """
        const answer = structuredClone(shown);
        const v = answer.view.view;
        Object.assign(v, {phase: "play", contract: "7NT", contractor: answer.seat,
                          to_act: answer.seat, trick: [], kitty: null,
                          hand: ["AS", "5D", "Jo", "KH"]});
        answer.display = {hand: [["Jo"], ["AS"], ["5D"], ["KH"]], kitty: null,
                          exposed_hand: null, trumps: ["Jo"]};
        answer.legal_actions = arguments[0];
        render(answer);
        """,
        legal,
    )
    cards, buttons = legal_moves(browser)
    clickable = sorted(c.get_attribute("data-card") or "" for c in cards)
    assert (clickable, shown_buttons(buttons)) == (["5D", "AS"], ["Jo:C", "Jo:D", "Jo:H", "Jo:S"])
    assert (clickable, shown_buttons(buttons)) == expected_play_moves(legal)
    # with one suit left to name, the Joker is a card again
    browser.execute_script(
        "const a = structuredClone(shown); a.legal_actions = ['5D', 'Jo:H']; render(a);"
    )
    cards, buttons = legal_moves(browser)
    clickable = sorted(c.get_attribute("data-card") or "" for c in cards)
    assert (clickable, shown_buttons(buttons)) == (["5D", "Jo"], [])


def test_the_table_fits_a_phone_screen(browser: WebDriver, server: str) -> None:
    browser.set_window_size(390, 844)
    browser.get(server)
    browser.find_element(By.ID, "create-button").click()
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card"))
    width = browser.execute_script("return document.documentElement.scrollWidth")
    inner = browser.execute_script("return window.innerWidth")
    assert width <= inner  # no sideways scrolling
    cards = browser.find_elements(By.CSS_SELECTOR, "#hand .card")
    assert len(cards) == 10
    assert all(c.rect["x"] >= 0 and c.rect["x"] + c.rect["width"] <= inner for c in cards)


def test_a_second_person_joins_by_the_link(browser: WebDriver, server: str) -> None:
    browser.get(server)
    browser.find_element(
        By.CSS_SELECTOR, "#seat-kinds select[data-seat='2'] option[value='human']"
    ).click()
    browser.find_element(By.ID, "create-button").click()
    link = wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#links input"))[0]
    url = link.get_attribute("value") or ""
    assert "#table=" in url and "token=" in url
    mine = view(browser)
    assert mine["seat"] == 0 and mine["seats"][2] == "human"
    browser.get(url)
    browser.refresh()  # a new page load, as the friend who opens the link
    wait_for(browser, lambda d: d.execute_script("return shown !== null && shown.seat === 2"))
    theirs = view(browser)
    assert theirs["table"] == mine["table"]
    assert not set(theirs["view"]["view"]["hand"]) & set(mine["view"]["view"]["hand"])
