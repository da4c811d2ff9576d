"""Seats among friends, in two Chromium windows: a person's seat goes to a computer
player only once they have been gone the server's grace and after a confirmation; the
person replaced watches with a sentence saying so and takes the seat back; and a
hand-over racing a return between the two windows ends with both pages agreeing."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from browser_support import click, open_table, page, settled, shoot, two_windows, wait_for
from server_helpers import free_port, start_server

#: The seconds a person must be gone before another may give their seat away, here.
GRACE = 2


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("server")
    port = free_port()
    process: subprocess.Popen[str] = start_server(
        folder / "tables.db", port, "--seed", "seats", "--seat-grace", str(GRACE)
    )
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        process.terminate()
        process.communicate(timeout=10)


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[WebDriver, WebDriver]]:
    with two_windows(tmp_path_factory) as pair:
        yield pair


def away_words(driver: WebDriver) -> str:
    return str(driver.find_element(By.CSS_SELECTOR, '#away-list [data-seat="2"] p').text)


def friend_link(driver: WebDriver) -> str:
    link = driver.find_element(By.CSS_SELECTOR, '#link-list input[data-seat="2"]')
    return str(link.get_attribute("value"))


def test_a_seat_goes_to_a_computer_after_the_grace_and_a_confirmation_and_comes_back(
    two: tuple[WebDriver, WebDriver], server: str
) -> None:
    me, friend = two
    open_table(me, server, 4, seats={2: "human"})
    wait_for(me, lambda d: d.find_element(By.ID, "away").is_displayed())
    # the friend has not come yet: no button at first, a sentence with the wait
    words = wait_for(me, lambda d: "has been gone" in away_words(d) and away_words(d))
    assert "their seat can go to a computer player in" in words
    assert not me.find_elements(By.CSS_SELECTOR, '#away-list button[data-kind="give"]')
    shoot(me, "4p-away-waiting", at="#away")
    # once the grace is over: a button, then a confirmation before anything is done
    give = wait_for(
        me, lambda d: d.find_elements(By.CSS_SELECTOR, '#away-list button[data-kind="give"]')
    )[0]
    assert give.text == "Give Player 3's seat to a computer…"
    give.click()
    assert page(me, "f.shown.seats[2]") == "human"  # asked, not done
    assert "Give Player 3's seat to a computer player?" in away_words(me)
    shoot(me, "4p-away-confirm", at="#away")
    click(me, '#away-list button[data-kind="cancel"]')
    assert page(me, "f.shown.seats[2]") == "human"
    click(me, '#away-list button[data-kind="give"]')
    click(me, '#away-list button[data-kind="yes"]')
    wait_for(me, lambda d: settled(d) and page(d, "f.shown.seats[2] !== 'human'"))
    assert page(me, "f.shown.page.seats[2].computer") is True
    assert not me.find_element(By.ID, "away").is_displayed()
    assert not me.find_element(By.ID, "refusal").text
    # the friend arrives by their link: they watch, told why, with a way back
    friend.get(friend_link(me))
    wait_for(friend, lambda d: settled(d) and d.find_element(By.ID, "given").is_displayed())
    assert page(friend, "f.shown.seat") is None
    assert not friend.find_element(By.ID, "hand-box").is_displayed()  # no hidden card
    assert "gave your seat to a computer player" in friend.find_element(By.ID, "given").text
    shoot(friend, "4p-seat-given", at="#given")
    click(friend, "#take-back")
    wait_for(friend, lambda d: settled(d) and page(d, "f.shown.seat") == 2)
    assert not friend.find_element(By.ID, "given").is_displayed()
    assert friend.find_element(By.ID, "hand-box").is_displayed()
    # the first person's page sees the friend back, and here: no button to give the seat
    wait_for(me, lambda d: settled(d) and page(d, "f.shown.seats[2]") == "human")
    wait_for(me, lambda d: away_words(d) == "Player 3 is here.", timeout=30)
    assert not me.find_elements(By.CSS_SELECTOR, '#away-list button[data-kind="give"]')
    words = page(me, "f.refusalWords('NOT_GONE_LONG', 'seat 2 has been gone 1 s')")
    assert words.startswith("That person has not been gone long enough") and "NOT" not in words


def test_a_hand_over_racing_the_friends_return_leaves_both_pages_agreeing(
    two: tuple[WebDriver, WebDriver], server: str
) -> None:
    """The friend leaves; the first person gives the seat away just as the friend's page
    comes back, round after round: whichever reaches the server first wins, each page
    says what happened in words, and the friend always ends in their seat."""
    me, friend = two
    open_table(me, server, 4, seats={2: "human"})
    link = friend_link(me)
    outcomes = []
    for round in range(4):
        friend.get("about:blank")  # the friend goes
        wait_for(
            me,
            lambda d: d.find_elements(By.CSS_SELECTOR, '#away-list button[data-kind="give"]'),
            timeout=30,
        )[0].click()
        if round % 2:  # the friend's page opens first, then the hand-over is confirmed
            friend.get(link)
            click(me, '#away-list button[data-kind="yes"]')
        else:  # the hand-over is confirmed, and the friend's page opens at once
            click(me, '#away-list button[data-kind="yes"]')
            friend.get(link)
        wait_for(friend, settled)
        wait_for(
            me,
            lambda d: (
                settled(d)
                and (
                    d.find_element(By.ID, "refusal").text or page(d, "f.shown.seats[2]") != "human"
                )
            ),
        )
        refusal = me.find_element(By.ID, "refusal").text
        if refusal:  # the friend was there first: the seat stays theirs
            assert (
                refusal == "That person is still at the table: only they can give their seat away."
            )
            outcomes.append("kept")
        else:  # the hand-over was first: the friend watches, and takes the seat back
            wait_for(friend, lambda d: d.find_element(By.ID, "given").is_displayed())
            click(friend, "#take-back")
            outcomes.append("returned")
        wait_for(friend, lambda d: settled(d) and page(d, "f.shown.seat") == 2, timeout=30)
        wait_for(me, lambda d: settled(d) and page(d, "f.shown.seats[2]") == "human")
        assert not friend.find_element(By.ID, "given").is_displayed()
        assert not friend.find_element(By.ID, "refusal").text
        assert page(me, "f.shown.seats") == page(friend, "f.shown.seats")
    assert len(outcomes) == 4
