"""The table chat in Chromium, between two people and a spectator: a script of hostile
messages is shown as text, never run as markup; a burst of messages is refused in
words once the allowance is spent; the spectator reads it all and cannot write."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from browser_support import chromium, open_table, served, settled, shoot, wait_for

#: Messages meant to break out of text: markup, script, a turned-around name, a long one.
HOSTILE = (
    '<img src=x onerror="window.pwned=1">',
    "<script>window.pwned=1</script>",
    "</li><li>forged line</li>",
    "javascript:window.pwned=1",
    "&lt;b&gt;not bold&lt;/b&gt;",
    "\u202eevil\u202c reversed",
    "{{constructor.constructor('window.pwned=1')()}}",
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("server"), "--seed", "chat") as url:
        yield url


def lines(driver: WebDriver) -> list[str]:
    found: list[str] = driver.execute_script(
        "return [...document.querySelectorAll('#chat-log li')].map((li) => li.textContent)"
    )
    return found


def has_lines(driver: WebDriver, count: int) -> bool:
    return len(lines(driver)) == count


def send(driver: WebDriver, text: str) -> None:
    box = driver.find_element(By.ID, "chat-text")
    driver.execute_script("arguments[0].value = arguments[1]", box, text)
    driver.find_element(By.ID, "chat-send").click()


def test_hostile_messages_are_text_and_a_burst_is_refused_in_words(
    server: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    with (
        chromium(tmp_path_factory.mktemp("me")) as me,
        chromium(tmp_path_factory.mktemp("friend")) as friend,
        chromium(tmp_path_factory.mktemp("watcher")) as watcher,
    ):
        open_table(me, server, 4, seats={2: "human"})
        friend.get(
            str(
                me.find_element(By.CSS_SELECTOR, '#link-list input[data-seat="2"]').get_attribute(
                    "value"
                )
            )
        )
        watcher.get(
            str(
                me.find_element(
                    By.CSS_SELECTOR, '#link-list input[data-seat="watch"]'
                ).get_attribute("value")
            )
        )
        for driver in (friend, watcher):
            wait_for(driver, settled)
        assert not watcher.find_element(By.ID, "chat-form").is_displayed()  # reads only
        expected = []
        for n, text in enumerate(HOSTILE):
            writer, name = (me, "Player 1") if n % 2 == 0 else (friend, "Player 3")
            send(writer, text)
            shown = " ".join(text.replace("\u202e", " ").replace("\u202c", " ").split())
            expected.append((name, shown))
            wait_for(writer, functools.partial(has_lines, count=n + 1))
        for driver, me_name in ((me, "Player 1"), (friend, "Player 3"), (watcher, None)):
            wait_for(driver, lambda d: len(lines(d)) == len(HOSTILE))
            want = [f"{'You' if who == me_name else who}: {text}" for who, text in expected]
            assert lines(driver) == want
            # nothing a message held became markup, and no script ran
            assert (
                driver.execute_script(
                    "return document.querySelectorAll('#chat-log img, #chat-log script,"
                    " #chat-log b').length"
                )
                == 0
            )
            assert driver.execute_script(
                "return document.querySelectorAll('#chat-log li').length"
            ) == len(HOSTILE)
            assert driver.execute_script("return window.pwned") is None
        shoot(watcher, "4p-chat", at="#chat")
        # a message over the bound is refused in words; so is a burst beyond the allowance
        send(me, "x" * 201)
        note = wait_for(me, lambda d: d.find_element(By.ID, "chat-note").text)
        assert note == "Not sent: a message is at most 200 characters."
        refused = ""
        for n in range(8):
            send(me, f"fast {n}")
            refused = me.find_element(By.ID, "chat-note").text
            if refused:
                break
        refused = wait_for(me, lambda d: d.find_element(By.ID, "chat-note").text)
        assert refused == "Not sent: you are sending messages too fast. Wait a moment."
