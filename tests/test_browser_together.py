"""The end of a hand waits for everyone at the table, in two Chromium windows: the
server holds the next hand's computer seats until each person present has said "Next
hand" (or the wait's time is up), and each page says whom it is waiting for."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from browser_support import click, page, served, settled, shoot, two_windows, wait_for

#: Moves over HTTP at most to reach the first hand's end (a hand is far fewer).
MOST_MOVES = 200


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("server"), "--seed", "together") as url:
        yield url


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[WebDriver, WebDriver]]:
    with two_windows(tmp_path_factory) as pair:
        yield pair


def call(server: str, method: str, path: str, token: str | None, body: Any = None) -> Any:
    """One request to the server, its JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.rstrip("/") + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    if token is not None:
        request.add_header("authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def open_seat(driver: WebDriver, server: str, link: str) -> None:
    """Open a seat's link with the page's own hold of a hand's end at 60 s."""
    driver.get(server)
    driver.execute_script(
        "localStorage.setItem('fivehundred.pace', 'instant');"
        "localStorage.setItem('fivehundred.hold', '60');"
    )
    driver.get(server.rstrip("/") + link)
    wait_for(driver, settled)


def test_the_next_hand_waits_for_both_people(two: tuple[WebDriver, WebDriver], server: str) -> None:
    me, friend = two
    made = call(
        server, "POST", "/tables", None, {"seats": ["human", "heuristic", "human", "heuristic"]}
    )
    table, tokens = made["table"], made["tokens"]
    open_seat(me, server, made["links"]["0"])
    open_seat(friend, server, made["links"]["2"])
    # both people play the first hand (over HTTP, their first legal action) to its end
    for _ in range(MOST_MOVES):
        views = {
            seat: call(server, "GET", f"/tables/{table}", tokens[str(seat)]) for seat in (0, 2)
        }
        if views[0]["page"]["hand"] > 1:
            break
        seat = next((s for s, v in views.items() if v["legal_actions"]), None)
        assert seat is not None, "nobody is to act in the first hand"
        view = views[seat]
        call(
            server,
            "POST",
            f"/tables/{table}/actions",
            tokens[str(seat)],
            {"action": view["legal_actions"][0], "version": view["version"]},
        )
    else:
        raise AssertionError("the first hand never ended")
    waiting = call(server, "GET", f"/tables/{table}", tokens["0"])
    assert waiting["pause"] is not None and waiting["pause"]["waiting"] == [0, 2]
    assert waiting["view"]["view"]["auction"] == []  # dealt; the computers wait
    for driver in (me, friend):
        wait_for(driver, lambda d: page(d, "f.held !== null"))
        assert driver.find_element(By.ID, "hand-end").is_displayed()
    # the first person is ready: their page says whom it waits for; nothing moves on
    click(me, "#next-hand")
    wait_for(
        me,
        lambda d: (
            "Waiting for Player 3 to be ready" in d.find_element(By.ID, "hand-end-count").text
        ),
    )
    assert me.find_element(By.ID, "next-hand").get_attribute("disabled") is not None
    shoot(me, "4p-waiting-for-a-friend")
    paused = call(server, "GET", f"/tables/{table}", tokens["0"])
    assert paused["pause"]["waiting"] == [2] and paused["pause"]["ready"] == [0]
    assert paused["version"] == waiting["version"]
    assert page(me, "f.held !== null") and page(friend, "f.held !== null")
    # the friend is ready too: both pages move on together, and the computers play
    click(friend, "#next-hand")
    for driver in (me, friend):
        wait_for(driver, lambda d: settled(d) and page(d, "f.held === null"), timeout=10)
        assert not driver.find_element(By.ID, "hand-end").is_displayed()
    after = call(server, "GET", f"/tables/{table}", tokens["0"])
    assert after["pause"] is None
    to_act = after["view"]["view"]["to_act"]
    assert to_act in (0, 2) or after["version"] > waiting["version"]
    if waiting["view"]["view"]["to_act"] not in (0, 2):  # a computer called first
        assert after["version"] > waiting["version"]
