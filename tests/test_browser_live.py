"""The live page in Chromium: a push arrives without a reload, a click made while the
server is down is kept and sent once it is back, the page reconnects after a
restart, and refusals read as sentences for a person."""

from __future__ import annotations

import functools
import itertools
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from browser_support import chromium, click, open_table, page, settled, shoot, wait_for
from server_helpers import Client, free_port, start_server


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[WebDriver]:
    with chromium(tmp_path) as driver:
        yield driver


def stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    process.communicate(timeout=10)


def my_turn(driver: WebDriver) -> bool:
    return settled(driver) and bool(page(driver, "f.shown.view.view.to_act === f.shown.seat"))


def gets(driver: WebDriver, table: str) -> int:
    """How many times the page has asked for the table over HTTP (polls and fallbacks)."""
    return int(
        driver.execute_script(
            "return performance.getEntriesByType('resource')"
            ".filter((e) => e.name.endsWith('/tables/' + arguments[0])).length",
            table,
        )
    )


def shows_version(driver: WebDriver, version: int) -> bool:
    return settled(driver) and page(driver, "f.shown.version") >= version


def test_a_change_by_another_person_is_pushed_without_a_reload(
    browser: WebDriver, tmp_path: Path
) -> None:
    port = free_port()
    server = start_server(tmp_path / "tables.db", port, "--seed", "push")
    client = Client(port)
    try:
        first = open_table(browser, f"http://127.0.0.1:{port}/", 4, seats={2: "human"})
        table = first["table"]
        link = browser.find_element(By.CSS_SELECTOR, '#link-list input[data-seat="2"]')
        token = parse_qs(urlsplit(link.get_attribute("value") or "").fragment)["token"][0]
        wait_for(browser, lambda d: page(d, "f.state") == "live")
        assert browser.find_element(By.ID, "connection").text == "Live"
        browser.execute_script("window.notReloaded = true")
        asked = gets(browser, table)
        pushed = None
        for _ in range(40):  # the person and the friend take turns until the friend moves
            status, view, _ = client.request("GET", f"/tables/{table}", token=token)
            assert status == 200
            if view["view"]["view"]["to_act"] == 2:
                # the person may not act out of turn: refused on screen, in words
                browser.execute_script("window.fivehundred.act('pass')")
                refusal = wait_for(browser, lambda d: d.find_element(By.ID, "refusal").text)
                assert refusal == "It is not your turn yet."
                body = {"action": view["legal_actions"][0], "version": view["version"]}
                status, answer, _ = client.request(
                    "POST", f"/tables/{table}/actions", body, token=token
                )
                assert status == 200, answer
                pushed = answer["version"]
                break
            wait_for(browser, my_turn)
            click(browser, '#misere button[data-action="pass"]')
            wait_for(browser, functools.partial(shows_version, version=view["version"] + 1))
        assert pushed is not None, "the friend never had a turn"
        wait_for(browser, functools.partial(shows_version, version=pushed), timeout=10)
        assert browser.execute_script("return window.notReloaded") is True
        assert gets(browser, table) == asked  # it came over the socket, not a poll
        assert page(browser, "f.state") == "live"
    finally:
        client.close()
        stop(server)


def test_the_page_reconnects_after_a_restart_and_keeps_the_click(
    browser: WebDriver, tmp_path: Path
) -> None:
    port, db = free_port(), tmp_path / "tables.db"
    server = start_server(db, port, "--seed", "restart")
    try:
        open_table(browser, f"http://127.0.0.1:{port}/", 4)
        wait_for(browser, lambda d: page(d, "f.state") == "live")
        wait_for(browser, my_turn)
        before: Any = page(browser, "f.shown")
        assert before["view"]["view"]["phase"] == "bidding"
        # R3.1: a card in the auction is refused by the rules, in words, with no code
        browser.execute_script("window.fivehundred.act('discard AS 10D 5H')")
        refusal = wait_for(browser, lambda d: d.find_element(By.ID, "refusal").text)
        assert refusal.startswith("You must call (bid or pass) now, not discard A♠")
        assert "WRONG_PHASE" not in refusal and "seat" not in refusal and "R3" not in refusal
        stop(server)
        wait_for(browser, lambda d: page(d, "f.state") == "offline")
        assert "Offline" in browser.find_element(By.ID, "connection").text
        shoot(browser, "4p-offline")
        bid = next(a for a in before["legal_actions"] if a != "pass")
        click(browser, f'#box .bid[data-action="{bid}"]')
        notice = wait_for(browser, lambda d: d.find_element(By.ID, "refusal").text)
        assert "Not sent yet" in notice  # the click is kept, and the person is told
        server = start_server(db, port)
        wait_for(browser, lambda d: page(d, "f.state") == "live", timeout=30)
        version = before["version"] + 1
        wait_for(browser, functools.partial(shows_version, version=version), timeout=30)
        after = page(browser, "f.shown")
        mine = [call for seat, call in after["view"]["view"]["auction"] if seat == 0]
        assert mine[:1] == [bid] or after["view"]["view"]["contractor"] == 0
        assert not browser.find_element(By.ID, "refusal").is_displayed()
        assert browser.find_element(By.ID, "connection").text == "Live"
    finally:
        stop(server)


def test_the_computers_cards_appear_one_at_a_time_and_the_trick_stays(
    browser: WebDriver, tmp_path: Path
) -> None:
    """R5.1: each card is laid before its player in turn; the finished trick stays, its
    winner marked, until the next lead."""
    port = free_port()
    server = start_server(tmp_path / "tables.db", port, "--seed", "pace")
    try:
        open_table(browser, f"http://127.0.0.1:{port}/", 4)
        for _ in range(40):  # pass the auction and play until the person plays a trick's card
            wait_for(browser, my_turn)
            if page(browser, "f.shown.view.view.phase") == "play":
                break
            version = page(browser, "f.shown.version")
            click(browser, '#misere button[data-action="pass"], #moves button[data-action]')
            wait_for(browser, functools.partial(shows_version, version=version + 1))
        assert page(browser, "f.shown.view.view.phase") == "play"
        browser.execute_script("localStorage.setItem('fivehundred.pace', 'normal')")
        card = browser.find_element(By.CSS_SELECTOR, "#hand .card.legal").get_attribute("data-card")
        version = page(browser, "f.shown.version")
        click(browser, f'#hand .card.legal[data-card="{card}"]')
        seen: list[int] = []
        for _ in range(400):  # every 50 ms while the cards are laid out, 20 s at most
            count = len(browser.find_elements(By.CSS_SELECTOR, "#trick .card"))
            if not seen or seen[-1] != count:
                seen.append(count)
            if page(browser, "f.shown.version") > version and not page(browser, "f.busy"):
                break
            time.sleep(0.05)
        # the person's card, then each computer's on its own: one more card at a time,
        # or a new trick's lead after a finished trick
        steps = list(itertools.pairwise(seen))
        assert len(steps) >= 2 and all(b in (a + 1, 1) for a, b in steps), seen
        shoot(browser, "4p-trick-laid")
        if page(browser, "f.shown.page.trick.length") == 0:  # the person leads next
            assert len(browser.find_elements(By.CSS_SELECTOR, "#trick .card")) == 4
            assert browser.find_elements(By.CSS_SELECTOR, "#trick .card.winner")
            assert " won it with the " in browser.find_element(By.ID, "trick-caption").text
    finally:
        stop(server)
