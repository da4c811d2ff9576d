"""The table's layout in Chromium, at 1280x800 and at 390x844, at 3 to 6 players:
everything a decision needs is on the screen without scrolling, nothing scrolls
sideways, each card of a trick lies before the seat that played it, no mark covers a
card's rank, and the favicon is served."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from browser_support import (
    SHOTS,
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

#: The window sizes the issue names: a laptop and a phone.
SIZES = ((1280, 800), (390, 844))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("server"), "--seed", "layout") as url:
        yield url


#: The controls of a decision that are not on the screen with the page at its top.
OFF_SCREEN = """
window.scrollTo(0, 0);
const out = [];
for (const el of document.querySelectorAll(arguments[0])) {
  if (el.offsetParent === null) continue;
  const r = el.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
    const name = el.id || el.dataset.card || el.dataset.action || el.tagName;
    out.push(`${name} at ${Math.round(r.bottom)}`);
  }
}
return out;
"""

#: Whether two rectangles overlap by more than ``e`` pixels.
HIT = """
const hit = (a, b, e) => a.left < b.right - e && b.left < a.right - e
  && a.top < b.bottom - e && b.top < a.bottom - e;
"""

#: Each card of the trick and the seats nearer to it than its own player's seat.
MISPLACED = (
    HIT
    + """
const centre = (el) => { const r = el.getBoundingClientRect();
  return [(r.left + r.right) / 2, (r.top + r.bottom) / 2]; };
const seats = new Map([...document.querySelectorAll('#seats .seat')]
  .map((s) => [s.dataset.seat, centre(s)]));
const out = [];
const cards = [...document.querySelectorAll('#trick .card')];
for (const card of cards) card.getAnimations().forEach((a) => a.finish());
for (const card of cards) {
  const [x, y] = centre(card);
  const mine = card.dataset.key.split(':')[0];
  const d = (s) => Math.hypot(seats.get(s)[0] - x, seats.get(s)[1] - y);
  for (const s of seats.keys()) {
    if (s !== mine && d(s) < d(mine)) out.push(`${card.dataset.key} nearer ${s}`);
  }
  for (const other of cards) {
    if (other === card) continue;
    if (hit(card.getBoundingClientRect(), other.getBoundingClientRect(), 1)) {
      out.push(`${card.dataset.key} covers ${other.dataset.key}`);
    }
  }
}
return out;
"""
)

#: The marks ("T", "RB", "K") that cover a rank or a pip of their card.
COVERED = (
    HIT
    + """
const out = [];
for (const tag of document.querySelectorAll('.card .tag')) {
  const t = tag.getBoundingClientRect();
  const card = tag.closest('.card');
  for (const mark of card.querySelectorAll('.face text, .face .ink > g')) {
    const r = mark.getBoundingClientRect();
    if (hit(t, r, 0.5)) {
      out.push(`${tag.dataset.short} on ${card.dataset.card}`);
    }
  }
}
return out;
"""
)


def look(driver: WebDriver, phase: str, players: int, width: int) -> list[str]:
    """What is wrong with the page now, for a person to decide ``phase``."""
    wrong: list[str] = []
    if phase == "bidding":
        selector = "#box .bid, #misere button, #hand .card"
    elif phase == "discard":
        selector = "#hand .card, #discard"
    elif phase == "play":
        selector = "#hand .card, #moves button, #tally"
    else:
        selector = "#moves button, #hand .card"
    wrong += [f"{phase}: off screen {x}" for x in driver.execute_script(OFF_SCREEN, selector)]
    wide = driver.execute_script("return document.documentElement.scrollWidth - innerWidth")
    if wide > 0:
        wrong.append(f"{phase}: scrolls sideways by {wide} px")
    wrong += [f"{phase}: {x}" for x in driver.execute_script(COVERED)]
    if phase == "play":
        wrong += [f"{phase}: {x}" for x in driver.execute_script(MISPLACED)]
    return [f"{players}p at {width}: {x}" for x in wrong]


def tap(driver: WebDriver, selector: str) -> None:
    """A tap on a card of the hand: on a phone the next card covers its middle, so the
    click goes to the card itself, as a finger on its visible edge does."""
    driver.execute_script("document.querySelector(arguments[0]).click()", selector)


def newer(driver: WebDriver, version: int) -> bool:
    return bool(page(driver, f"f.shown.version > {version}"))


def first_hand(driver: WebDriver, server: str, players: int, width: int) -> list[str]:
    """Play a table's first hand as a person (one bid, then passes); answers what is wrong."""
    open_table(driver, server, players, pace="instant")
    wrong: list[str] = []
    looked: set[str] = set()
    bid = False
    for _ in range(60):
        wait_for(
            driver,
            lambda d: (
                settled(d)
                and page(d, "f.shown.view.view.to_act === f.shown.seat || f.shown.page.hand > 1")
            ),
        )
        answer: Any = page(driver, "f.shown")
        if answer["page"]["hand"] > 1:
            break
        phase = answer["view"]["view"]["phase"]
        wrong += look(driver, phase, players, width)
        key = f"{phase}-follow" if phase == "play" and answer["page"]["trick"] else phase
        if key not in looked:  # a screenshot of each phase, to look at
            looked.add(key)
            SHOTS.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(SHOTS / f"layout-{players}p-{key}-{width}.png"))
        version = answer["version"]
        if phase == "bidding":
            live = [b["call"] for b in answer["page"]["box"]["bids"] if b["legal"]]
            if not bid and live:
                click(driver, f'#box .bid[data-action="{live[0]}"]')
                bid = True
            else:
                click(driver, '#misere button[data-action="pass"]')
        elif phase == "discard":
            for card in page(driver, "f.shown.display.hand.flat().slice(0, 3)"):
                tap(driver, f'#hand .card[data-card="{card}"]')
            wrong += look(driver, "discard", players, width)
            click(driver, "#discard")
        elif phase == "play":
            tap(driver, "#hand .card.legal")
        else:
            click(driver, "#moves button[data-action]")
        wait_for(driver, functools.partial(newer, version=version))
    return wrong


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_decision_needs_no_scrolling_and_nothing_scrolls_sideways(
    tmp_path_factory: pytest.TempPathFactory, server: str, width: int, height: int
) -> None:
    with chromium(tmp_path_factory.mktemp("chromium"), (width, height)) as driver:
        driver.get(server)
        viewport(driver, width, height)
        assert driver.execute_script("return [innerWidth, innerHeight]") == [width, height]
        wrong: list[str] = []
        for players in (3, 4, 5, 6):
            wrong += first_hand(driver, server, players, width)
        # the favicon is served (no 404 in the console) and named by the page
        icon = driver.execute_script(
            "return fetch(document.querySelector('link[rel=icon]').href).then((r) => r.status)"
        )
        assert icon == 200
        shoot(driver, "layout-last")
    assert wrong == [], "\n".join(sorted(set(wrong)))
