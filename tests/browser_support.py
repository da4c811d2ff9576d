"""Helpers of the browser tests: headless Chromium, bounded waits, a player that clicks
through the page, and the screenshots a person can look at after a run.

Chromium and its driver are Debian's ``chromium`` and ``chromium-driver``; without
them (or without Selenium) the tests are skipped, unless
``FIVEHUNDRED_BROWSER_REQUIRED=1`` (``nox -s browser`` sets it), which turns the
skip into a failure so that CI cannot pass without the browser.

Screenshots go to ``$FIVEHUNDRED_SCREENSHOTS`` or else ``build/screenshots/``, named
``{players}p-{phase}-{width}.png``, at 1280x800 and at 390x844 (the page's own size).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

REQUIRED = os.environ.get("FIVEHUNDRED_BROWSER_REQUIRED", "") == "1"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
ROOT = Path(__file__).resolve().parent.parent
#: Where the screenshots of every phase go.
SHOTS = Path(os.environ.get("FIVEHUNDRED_SCREENSHOTS") or ROOT / "build" / "screenshots")
#: The two window sizes every screenshot is taken at: a laptop and a phone.
SIZES = ((1280, 800), (390, 844))


def skip_without_browser() -> None:
    """Skip the module (fail under ``FIVEHUNDRED_BROWSER_REQUIRED=1``) without Chromium."""
    reason = None
    if CHROMIUM is None or DRIVER is None:
        reason = "chromium and chromium-driver are not installed"
    else:
        try:
            import selenium  # noqa: F401
            import starlette  # noqa: F401
        except ImportError as err:  # pragma: no cover - the test group has them
            reason = f"{err.name} is not installed"
    if reason is None:
        return
    if REQUIRED:
        pytest.fail(f"the browser tests are required: {reason}")
    pytest.skip(reason, allow_module_level=True)


skip_without_browser()

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import (  # noqa: E402
    JavascriptException,
    StaleElementReferenceException,
)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

from server_helpers import free_port, start_server  # noqa: E402

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
    "--hide-scrollbars",
)


@contextmanager
def chromium(folder: Path, size: tuple[int, int] = SIZES[0]) -> Iterator[WebDriver]:
    """A headless Chromium with a fresh profile in ``folder``, quit afterwards."""
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for switch in SWITCHES:
        options.add_argument(switch)
    profile = tempfile.mkdtemp(prefix="chromium-", dir=folder)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={size[0]},{size[1]}")
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(DRIVER)))
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


@contextmanager
def two_windows(factory: pytest.TempPathFactory) -> Iterator[tuple[WebDriver, WebDriver]]:
    """Two headless Chromiums, each with a fresh profile: two people at one table."""
    with chromium(factory.mktemp("a")) as first, chromium(factory.mktemp("b")) as second:
        yield first, second


@contextmanager
def served(folder: Path, *args: str) -> Iterator[str]:
    """A ``fivehundred serve`` on a fresh SQLite file in ``folder`` (with ``args``), and its
    address; stopped afterwards."""
    port = free_port()
    process = start_server(folder / "tables.db", port, *args)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        process.terminate()
        process.communicate(timeout=10)


def viewport(driver: WebDriver, width: int, height: int) -> None:
    """Size the window so that the page itself (``innerWidth`` x ``innerHeight``) is
    ``width`` x ``height``: headless Chromium keeps room for a window's frame."""
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [innerWidth, innerHeight]")
    driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])


def wait_for(driver: WebDriver, test: Callable[[WebDriver], Any], timeout: float = 20) -> Any:
    """``test(driver)`` once it is truthy; fails after ``timeout`` seconds with the page's text."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            found = test(driver)
        except (StaleElementReferenceException, JavascriptException):
            found = None  # the page is between two states (a node replaced, a view not yet in)
        if found:
            return found
        time.sleep(0.05)
    text = driver.find_element(By.TAG_NAME, "main").text[:1500]
    raise AssertionError(f"timed out after {timeout} s; the page says: {text}")


def page(driver: WebDriver, expression: str) -> Any:
    """A JavaScript expression over the page's state (``f`` is ``window.fivehundred``)."""
    return driver.execute_script(f"const f = window.fivehundred; return {expression};")


def settled(driver: WebDriver) -> bool:
    """Whether the page shows the newest view, with no card still being laid out."""
    return bool(page(driver, "f && f.shown !== null && !f.busy"))


def answered(driver: WebDriver, version: int) -> Any:
    """Whether the page shows a newer version than ``version``, or a refusal."""
    return page(driver, "f.shown.version") != version or driver.find_element(By.ID, "refusal").text


def click(driver: WebDriver, selector: str, tries: int = 40) -> None:
    """Click what ``selector`` finds, finding it again if the page redrew it meanwhile."""
    for _ in range(tries):
        try:
            driver.find_element(By.CSS_SELECTOR, selector).click()
            return
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise AssertionError(f"{selector} kept being redrawn")


def shoot(driver: WebDriver, name: str, at: str | None = None) -> list[Path]:
    """Screenshots of the page now at both sizes: ``SHOTS/{name}-{width}.png``, scrolled
    to the top or to the element of the CSS selector ``at``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    before = driver.get_window_size()
    saved = []
    for width, height in SIZES:
        viewport(driver, width, height)
        time.sleep(0.15)  # one layout after the resize
        if at is None:
            driver.execute_script("window.scrollTo(0, 0)")
        else:
            driver.execute_script(
                "document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", at
            )
        path = SHOTS / f"{name}-{width}.png"
        assert driver.save_screenshot(str(path)), path
        saved.append(path)
    driver.set_window_size(before["width"], before["height"])
    return saved


def open_table(
    driver: WebDriver,
    server: str,
    players: int = 4,
    *,
    seats: dict[int, str] | None = None,
    target: int = 500,
    pace: str = "instant",
    toggle: tuple[str, ...] = (),
) -> Any:
    """Open a table through the lobby, clicking the rule options ``toggle`` (their ids)
    first; answers the first view the page shows."""
    driver.get(server)
    driver.execute_script("localStorage.setItem('fivehundred.pace', arguments[0])", pace)
    driver.refresh()
    wait_for(driver, lambda d: page(d, "f !== undefined"))
    driver.execute_script(  # a target the lobby does not offer (a short game) is added
        "const p = document.getElementById('players'); p.value = arguments[0];"
        "p.dispatchEvent(new Event('change'));"
        "const t = document.getElementById('target');"
        "if (![...t.options].some((o) => o.value === arguments[1]))"
        "  t.add(new Option('', arguments[1]));"
        "t.value = arguments[1];",
        str(players),
        str(target),
    )
    for option in toggle:
        click(driver, f"#{option}")
    for seat, kind in (seats or {}).items():
        click(driver, f"#seat-kinds select[data-seat='{seat}'] option[value='{kind}']")
    click(driver, "#create-button")
    wait_for(driver, settled)
    return page(driver, "f.shown")


def attributes(driver: WebDriver, selector: str, name: str) -> list[str]:
    """The attribute ``name`` of every element ``selector`` finds, read at one moment (the
    page may draw itself again between two reads by Selenium)."""
    found: list[str] = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])]"
        ".map((e) => e.getAttribute(arguments[1]) || '')",
        selector,
        name,
    )
    return found


def broken_words(driver: WebDriver, selector: str) -> list[str]:
    """The words in the cells of the tables ``selector`` finds that are split over two
    lines (a column too narrow for them: "Han d"); none on a readable page."""
    found: list[str] = driver.execute_script(
        """
        const broken = [];
        for (const cell of document.querySelectorAll(arguments[0] + " :is(th, td)")) {
          const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          for (let node = walk.nextNode(); node; node = walk.nextNode()) {
            for (const m of node.data.matchAll(/\\S+/g)) {
              const range = document.createRange();
              range.setStart(node, m.index);
              range.setEnd(node, m.index + m[0].length);
              const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
              if (lines.size > 1) broken.push(m[0]);
            }
          }
        }
        return broken;
        """,
        selector,
    )
    return found


def hand_cards(driver: WebDriver) -> list[str]:
    """The cards of the hand, in the order the page shows them."""
    return attributes(driver, "#hand .card", "data-card")


def expected_play_moves(legal: list[str]) -> tuple[list[str], list[str]]:
    """The clickable cards and the move buttons the page should show for these plays.

    Every legal card is clickable, except a Joker whose lead may name more than one
    suit (R7.4): each of those leads is a button of its own.
    """
    jokers = sorted(a for a in legal if a.startswith("Jo:"))
    named = jokers if len(jokers) > 1 else []
    cards = sorted({a.split(":")[0] for a in legal if a not in named})
    return cards, named


def shown_moves(driver: WebDriver) -> tuple[list[str], list[str]]:
    """The clickable cards of the hand and the move buttons' actions (not the claim), sorted."""
    cards = attributes(driver, "#hand .card.legal", "data-card")
    buttons = attributes(driver, "#moves button[data-action]:not([disabled])", "data-action")
    return sorted(cards), sorted(buttons)
