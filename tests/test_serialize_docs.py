"""The examples of docs/json-format.md and docs/records.md run (STYLE principle 8).

In each page, the ```python blocks are doctests (``>>>`` form) that run in
order in one namespace, and every ```json block is a whole document that
loads with the loader for its ``"type"``.
"""

from __future__ import annotations

import doctest
import json
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, Final

import pytest

import fivehundred as fh

DOCS: Final = Path(__file__).resolve().parent.parent / "docs"
PAGES: Final = ("json-format.md", "records.md")
BLOCK: Final = re.compile(r"^```(\w+)[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
LOADERS: Final[dict[str, Callable[[Any], object]]] = {
    "game_state": fh.from_dict,
    "game_record": partial(fh.from_dict, cls=fh.GameRecord),
    "rules": partial(fh.from_dict, cls=fh.Rules),
    "player_view": partial(fh.from_dict, cls=fh.PlayerView),
    "action": partial(fh.from_dict, cls=fh.Action),
}


def blocks(page: str, language: str) -> list[str]:
    text = (DOCS / page).read_text(encoding="utf-8")
    return [body for lang, body in BLOCK.findall(text) if lang == language]


@pytest.mark.parametrize("page", PAGES)
def test_python_examples_run(page: str) -> None:
    found = blocks(page, "python")
    assert found, f"{page} has no python example"
    for block in found:
        assert block.lstrip().startswith(">>>"), f"not in >>> form:\n{block}"
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(found), {}, page, str(DOCS / page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} examples failed in {page}"


@pytest.mark.parametrize("page", PAGES)
def test_json_examples_load(page: str) -> None:
    for block in blocks(page, "json"):
        doc = json.loads(block)
        loaded = LOADERS[doc["type"]](doc)
        if isinstance(loaded, fh.GameState):
            assert fh.to_json(loaded, indent=2) == block.strip()


def test_the_pages_are_in_the_table_of_contents() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    assert "\njson-format\n" in index and "\nrecords\n" in index
