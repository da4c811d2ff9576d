"""The review after a hand and the claim button, in Chromium (R5.5, R6.1).

A person plays with three computer players; the test reads the same table from
the server's database (so it knows every hand, as the server's solver does)
and asks :func:`fivehundred.solver.claim` whether a claim of the rest would
hold. It clicks "Claim" once where it would not (the page says so, in words)
and once where it would (the hand ends at once). After each hand the review
arrives without a reload: the tricks the contract could have made and, for
each trick, the card played next to the cards that kept the most tricks.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

import fivehundred as fh
from browser_support import chromium, click, open_table, page, settled, shoot, wait_for
from fivehundred.server.tables import Tables
from fivehundred.solver import claim
from server_helpers import free_port, start_server

#: The person's moves at most before both claims have been tried.
MAX_MOVES = 150


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[WebDriver]:
    with chromium(tmp_path) as driver:
        yield driver


def my_turn(driver: WebDriver) -> bool:
    return settled(driver) and bool(page(driver, "f.shown.view.view.to_act === f.shown.seat"))


def moved(driver: WebDriver, version: int) -> bool:
    return settled(driver) and (
        page(driver, "f.shown.version") != version
        or bool(driver.find_element(By.ID, "refusal").text)
    )


def next_move(driver: WebDriver) -> str:
    """A selector of the person's next move: pass, the first legal card, the first
    button, or (a discard) three cards then the discard button."""
    for selector, attribute in (
        ('#misere button[data-action="pass"]:not([disabled])', ""),
        ("#hand .card.legal", "data-card"),
        ("#moves button[data-action]", "data-action"),
    ):
        found = driver.find_elements(By.CSS_SELECTOR, selector)
        if found and not attribute:
            return selector
        if found:
            return f'{selector}[{attribute}="{found[0].get_attribute(attribute)}"]'
    for card in [
        e.get_attribute("data-card") for e in driver.find_elements(By.CSS_SELECTOR, "#hand .card")
    ][:3]:
        click(driver, f'#hand .card[data-card="{card}"]')
    return "#discard"


def claim_holds(db: Path, table_id: str, seat: int) -> bool | None:
    """Whether ``seat``'s side takes every trick left against any play; ``None`` when
    too many are left to ask the solver quickly."""
    tables = Tables(db)
    try:
        state = tables.get(table_id).state
    finally:
        tables.close()
    left = max(len(state.hand(s)) for s in range(state.rules.players) if s not in state.sitting_out)
    if state.phase is not fh.Phase.PLAY or left > 3:
        return None
    if state.contract is not None and state.contract.is_misere:
        return None  # a misère claim is another question: keep to trick contracts
    return claim(state, seat, left)


def test_a_claim_is_refused_then_accepted_and_each_hand_is_reviewed(
    browser: WebDriver, tmp_path: Path
) -> None:
    port, db = free_port(), tmp_path / "tables.db"
    server = start_server(db, port, "--seed", "claims")
    try:
        first = open_table(browser, f"http://127.0.0.1:{port}/", 4)
        table_id = first["table"]
        tried: dict[bool, Any] = {}
        for _ in range(MAX_MOVES):
            if len(tried) == 2:
                break
            wait_for(browser, my_turn, timeout=30)
            answer = page(browser, "f.shown")
            version = answer["version"]
            if answer["view"]["view"]["phase"] == "play":
                holds = claim_holds(db, table_id, answer["seat"])
                if holds is not None and holds not in tried:
                    click(browser, "#claim")
                    wait_for(browser, functools.partial(moved, version=version), timeout=30)
                    refusal = browser.find_element(By.ID, "refusal").text
                    tried[holds] = (refusal, page(browser, "f.shown"))
                    if not holds:
                        shoot(browser, "4p-claim-refused")
                        continue  # play on from the same position
                    continue
            click(browser, next_move(browser))
            wait_for(browser, functools.partial(moved, version=version), timeout=30)
            assert not browser.find_element(By.ID, "refusal").text
        assert set(tried) == {True, False}, f"claims tried: {sorted(tried)}"
        refused, after = tried[False]
        # R6.1: a claim the defence can beat is refused, in words, and play goes on
        assert refused.startswith("The claim does not hold: the others can hold your side to")
        assert "CLAIM" not in refused
        accepted, done = tried[True]
        assert accepted == ""  # R5.5: the rest of the tricks are the claimer's side's
        assert done["version"] > after["version"]
        # the review of a finished hand arrives over the socket, with no reload
        review = wait_for(
            browser, lambda d: d.find_element(By.ID, "review").is_displayed(), timeout=30
        )
        assert review
        text = browser.find_element(By.ID, "review-body").text
        # the solver had its time budget (5 s): a review cut short says so
        assert (
            re.search(r"; \d+ tricks? (were|was) there with every card seen\.", text)
            or "stopped at its time limit" in text
            or "no contract" in text
        ), text
        rows = browser.execute_script(
            "return [...document.querySelectorAll('#review-body tbody tr')]"
            ".map((r) => r.cells[0].textContent)"
        )
        assert rows and all(number.isdigit() for number in rows)
        assert page(browser, "f.state") == "live"
        shoot(browser, "4p-review", at="#review")
    finally:
        server.terminate()
        server.communicate(timeout=10)


def test_the_review_picks_out_your_mistakes_beside_the_best_card_for_you(
    browser: WebDriver, tmp_path: Path
) -> None:
    """The review as the person reads it: their card at each trick beside the best card
    for them and the tricks it cost, their mistakes summed up, the others' costly cards
    said for whom, and what the contract could have made."""
    port = free_port()
    server = start_server(tmp_path / "tables.db", port, "--seed", "teach")
    try:
        open_table(browser, f"http://127.0.0.1:{port}/", 4)
        you = page(browser, "f.shown.seat")
        other = (you + 1) % 4
        review = {
            "type": "review",
            "hand": 1,
            "complete": True,
            "contract": "8H",
            "contractor": you,
            "side": sorted([you, (you + 2) % 4]),
            "made": False,
            "tricks_taken": 7,
            "could_make": 8,
            "tricks": [
                {
                    "number": 1,
                    "winner": you,
                    "cards": [
                        {
                            "seat": you,
                            "card": "AS",
                            "analysed": True,
                            "forced": False,
                            "best": ["AS"],
                            "lost": 0,
                            "worst": ["KC", "Jo:S", "Jo:H"],
                            "saved": 1,
                        },
                        {
                            "seat": other,
                            "card": "2S",
                            "analysed": True,
                            "forced": True,
                            "best": ["2S"],
                            "lost": 0,
                        },
                    ],
                },
                {
                    "number": 2,
                    "winner": other,
                    "cards": [
                        {
                            "seat": you,
                            "card": "7D",
                            "analysed": True,
                            "forced": False,
                            "best": ["KC", "AC"],
                            "lost": 1,
                            "worst": ["7D"],
                            "saved": 0,
                        },
                        {
                            "seat": other,
                            "card": "9C",
                            "analysed": True,
                            "forced": False,
                            "best": ["QC"],
                            "lost": 2,
                        },
                    ],
                },
                {  # a best card where every other card was as good: nothing saved
                    "number": 3,
                    "winner": you,
                    "cards": [
                        {
                            "seat": you,
                            "card": "QH",
                            "analysed": True,
                            "forced": False,
                            "best": ["QH", "JH"],
                            "lost": 0,
                            "worst": ["QH", "JH"],
                            "saved": 0,
                        },
                    ],
                },
            ],
        }
        browser.execute_script(
            "const f = window.fivehundred; f.showReview(arguments[0]);"
            "const answer = structuredClone(f.shown); answer.page.reviewed = 1; f.render(answer);",
            review,
        )
        wait_for(browser, lambda d: d.find_element(By.ID, "review").is_displayed())
        head = browser.find_element(By.CSS_SELECTOR, "#review .review-head").text
        assert head == "You lost 8♥ with 7 tricks; 8 tricks were there with every card seen."
        mine = browser.find_element(By.CSS_SELECTOR, "#review .review-you").text
        assert mine == (
            "Your cards cost your side 1 trick: trick 2, 7♦ (K♣ or A♣ was best)."
            " Your best cards saved your side 1 trick: trick 1, A♠ (against K♣ or Joker)."
        )
        rows = browser.execute_script(
            "return [...document.querySelectorAll('#review-body tbody tr')].map((r) =>"
            " [r.className, ...[...r.cells].map((c) => c.textContent)])"
        )
        name = page(browser, f"f.shown.page.seats[{other}].name")
        assert rows == [
            ["saved", "1", "A♠", "✓ a best card", "saved 1 trick against K♣ or Joker", ""],
            [
                "mistake",
                "2",
                "7♦",
                "K♣ or A♣",
                "\u22121 trick",
                f"{name}: 9♣ (Q♣ kept 2 tricks more for the defence)",
            ],
            ["", "3", "Q♥", "✓ a best card", "", ""],
        ]
        shoot(browser, "4p-review-teaching", at="#review")
        # a review cut short at its time limit says what it left out, for this person
        first = review["tricks"][0]
        hints = []
        for hand, could, own in (
            (2, None, {"seat": you, "card": "AS", "analysed": False}),
            (3, 8, first["cards"][0]),
        ):
            cut = {
                **review,
                "hand": hand,
                "complete": False,
                "could_make": could,
                "tricks": [{**first, "cards": [own, first["cards"][1]]}, *review["tricks"][1:]],
            }
            browser.execute_script(
                "const f = window.fivehundred; f.showReview(arguments[0]);"
                "const answer = structuredClone(f.shown); answer.page.reviewed = arguments[1];"
                " f.render(answer);",
                cut,
                hand,
            )
            hints.append(browser.find_element(By.CSS_SELECTOR, "#review-body .hint").text)
        assert hints == [
            "The review stopped at its time limit: your card of trick 1 is not analysed;"
            " what the contract could make was not reached.",
            "The review stopped at its time limit: some other players' first cards are not"
            " analysed.",
        ]
        # nothing is claimed of a card that was not analysed
        only = {**first, "cards": [{"seat": you, "card": "AS", "analysed": False}]}
        rest = [
            {**t, "cards": [c for c in t["cards"] if c["seat"] == you]} for t in review["tricks"]
        ]
        best = [{**t, "cards": [{**c, "lost": 0} for c in t["cards"]]} for t in rest[2:]]
        cut = {
            **review,
            "hand": 4,
            "complete": False,
            "tricks": [only, {**only, "number": 2}, *best],
        }
        browser.execute_script(
            "const f = window.fivehundred; f.showReview(arguments[0]);"
            "const answer = structuredClone(f.shown); answer.page.reviewed = 4; f.render(answer);",
            cut,
        )
        assert browser.find_element(By.CSS_SELECTOR, "#review .review-you").text == (
            "Every card of yours that was analysed was a best card."
        )
        assert browser.find_element(By.CSS_SELECTOR, "#review-body .hint").text == (
            "The review stopped at its time limit: your cards of tricks 1 and 2 are not analysed."
        )
        # a spectator is told of the players' cards, none of them "other"
        spectated = {**cut, "hand": 5, "could_make": 8}
        hint = browser.execute_async_script(
            "const [review, done] = arguments;"
            "import('/static/review.js').then((m) => {"
            "  const body = document.createElement('div');"
            "  const page = structuredClone(window.fivehundred.shown.page); page.you = null;"
            "  m.drawReviewBody(body, review, page);"
            "  done(body.querySelector('.hint').textContent); });",
            spectated,
        )
        assert (
            hint
            == "The review stopped at its time limit: some players' first cards are not analysed."
        )
        # many equal best cards are named three at a time, in the table and in the summary
        many = ["7C", "JC", "AC", "5H", "6H", "9H", "QH"]
        wide = {
            **review,
            "hand": 6,
            "tricks": [
                {
                    "number": 1,
                    "winner": other,
                    "cards": [
                        {**review["tricks"][1]["cards"][0], "best": many},
                        {**review["tricks"][1]["cards"][1], "best": ["Jo:S", "Jo:C", *many]},
                    ],
                }
            ],
        }
        texts = browser.execute_async_script(
            "const [review, done] = arguments;"
            "import('/static/review.js').then((m) => {"
            "  const body = document.createElement('div');"
            "  m.drawReviewBody(body, review, window.fivehundred.shown.page);"
            "  done([body.querySelector('.review-you').textContent,"
            "    ...[...body.querySelectorAll('tbody td')].map((c) => c.textContent)]); });",
            wide,
        )
        assert texts == [
            "Your cards cost your side 1 trick: trick 1, 7♦ (7♣, J♣, A♣ or 4 more was best).",
            "1",
            "7♦",
            "7♣, J♣, A♣ or 4 more",
            "\u22121 trick",
            f"{name}: 9♣ (Joker, 7♣, J♣ or 5 more kept 2 tricks more for the defence)",
        ]
    finally:
        server.terminate()
        server.communicate(timeout=10)
