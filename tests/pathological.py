"""Hostile inputs just inside the loaders' limits (issue 11), and how to measure one.

Each shape is a name and a function that feeds one loader one input built to be
as expensive as the documented limits allow: the longest text, the longest lists
full of bad items, the most hands. ``tests/test_limits.py`` holds every shape to the
budget (refused or loaded in at most 0.5 s of CPU and 100 MB); ``tests/test_fuzz.py``
mixes random variations of them into the fuzz run.
"""

from __future__ import annotations

import gc
import json
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from functools import cache, partial
from typing import Any, Final

import fivehundred as fh
from fivehundred.errors import MAX_NOTATION
from fivehundred.records import MAX_RECORD_TEXT, record_from_text, rules_from_options
from fivehundred.serialize import MAX_JSON_SIZE, MAX_LIST, MAX_SET

#: A pathological input: its loader, and how to build the input (outside the measure).
Shape = tuple[Callable[[Any], object], Callable[[], Any]]
#: The budget of one input: CPU seconds and peak traced memory in bytes.
CPU_BUDGET: Final = 0.5
MEMORY_BUDGET: Final = 100 * 1024 * 1024


def _traced() -> bool:
    """Whether a tracer (coverage, a debugger) slows every line down."""
    monitoring = getattr(sys, "monitoring", None)
    tool = monitoring.get_tool(monitoring.COVERAGE_ID) if monitoring is not None else None
    return sys.gettrace() is not None or tool is not None


#: How much slower a line runs under a tracer. Coverage on Python 3.11 traces every line
#: (``sys.settrace``): the fuzz run's "one card in every place" document took 0.34 s
#: untraced and 1.44-1.54 s under coverage (4.5x), so a factor of 3 failed by chance
#: (before ``MAX_CARDS`` refused its hands unread).
TRACED_SLOWDOWN = 5


def cpu_budget() -> float:
    """The CPU budget, times :data:`TRACED_SLOWDOWN` under a tracer such as coverage."""
    return CPU_BUDGET * (TRACED_SLOWDOWN if _traced() else 1)


def measure(load: Callable[[], object]) -> tuple[float, int, str]:
    """CPU seconds, peak traced bytes (a second run) and what happened to one input.

    The objects alive before the load are frozen out of the garbage collector while it
    runs: a full collection the load happens to start would otherwise walk the whole
    heap of the process (a test run's, 0.5 s and more) and be charged to the loader.
    """
    gc.collect()
    gc.freeze()
    try:
        start = time.process_time()
        outcome = _run(load)
        cpu = time.process_time() - start
    finally:
        gc.unfreeze()
    tracemalloc.start()
    try:
        _run(load)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return cpu, peak, outcome


def _run(load: Callable[[], object]) -> str:
    try:
        load()
    except fh.FiveHundredError as err:
        message = str(err)
        assert len(message) < 8000, f"an error message of {len(message)} characters"
        return type(err).__name__
    return "loaded"


@cache
def state_doc() -> dict[str, Any]:
    """A game-state document in the play phase (a base for the shapes)."""
    state = fh.deal(fh.new_game(dealer=3), seed=7)
    rng = random.Random(1)
    while state.phase is not fh.Phase.PLAY:
        state = fh.apply(state, rng.choice(fh.legal_actions(state)))
    return fh.to_dict(state)


def _fill(items: int, size: int) -> int:
    """How many ``items``-character list items fit in ``size`` characters."""
    return size // (items + 2)


def _doc_with(path: tuple[str, ...], value: object) -> str:
    doc = json.loads(json.dumps(state_doc()))
    place = doc
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    text = json.dumps(doc, separators=(",", ":"))
    assert len(text) <= MAX_JSON_SIZE, len(text)
    return text


def _long_record(hands: int) -> fh.GameRecord:
    rules = fh.Rules(target=10**8, losing_score=-(10**8))
    state = fh.new_game(rules, dealer=0)
    rng = random.Random(11)
    while state.hand_number < hands or state.phase is not fh.Phase.DEAL:
        if state.phase is fh.Phase.DEAL:
            state = fh.deal(state, rng=rng)
        else:
            state = fh.apply(state, rng.choice(fh.legal_actions(state)))
    return fh.record(state)


@cache
def long_game_json() -> str:
    """A game of :data:`~fivehundred.records.MAX_HANDS` hands, as a game-state document."""
    return fh.to_json(fh.replay(_long_record(fh.records.MAX_HANDS)))


def _shapes() -> dict[str, Shape]:
    room = MAX_JSON_SIZE - 4000
    per_hand = _fill(3, room) // 40
    bad_cards = [["ZZ"] * min(per_hand, MAX_LIST) for _ in range(40)]
    notation = "7" * MAX_NOTATION
    deck = " ".join(str(card) for card in fh.Rules().deck)
    text_hands = "\n".join(
        f"hand {n} dealer={(n + 2) % 4} | deck {deck} | auction {'ZZ ' * 40}"
        for n in range(1, fh.records.MAX_HANDS + 1)
    )
    return {
        "snapshot.hands: 40 lists of bad cards": (
            fh.from_json,
            lambda: _doc_with(("snapshot", "hands"), bad_cards),
        ),
        "snapshot.hands: one card in every place (found by the fuzz run)": (
            fh.from_json,
            lambda: _doc_with(("snapshot", "hands"), [["10H"] * 4000] * 40),
        ),
        "snapshot.suits_led: a long list of bad suits": (
            fh.from_json,
            lambda: _doc_with(("snapshot", "suits_led"), ["Z"] * _fill(3, room)),
        ),
        "snapshot.suits_led: the longest set": (
            fh.from_json,
            lambda: _doc_with(("snapshot", "suits_led"), ["Z"] * MAX_SET),
        ),
        "snapshot.tricks: bad tricks": (
            fh.from_json,
            lambda: _doc_with(("snapshot", "tricks"), [{"leader": "x"}] * MAX_LIST),
        ),
        "snapshot.auction: bad pairs": (
            fh.from_json,
            lambda: _doc_with(("snapshot", "auction"), [[True, "ZZ"]] * MAX_LIST),
        ),
        "snapshot: many unknown keys": (
            fh.from_json,
            lambda: _doc_with(("snapshot",), {f"k{i}": 0 for i in range(_fill(10, room))}),
        ),
        "record.hands: bad decks": (
            fh.from_json,
            lambda: _doc_with(
                ("record", "hands"),
                [{"dealer": 0, "deck": ["ZZ"] * 45, "actions": []}] * (room // 300),
            ),
        ),
        "record: the most hands": (fh.from_json, long_game_json),
        "JSON: the longest string": (
            fh.from_json,
            lambda: _doc_with(("snapshot", "phase"), "x" * (room - 1000)),
        ),
        "JSON: a long number": (
            fh.from_json,
            lambda: _doc_with(("snapshot", "hand_number"), 0).replace(
                '"hand_number":0', '"hand_number":' + "9" * (room - 1000)
            ),
        ),
        "JSON: nested to the limit": (fh.from_json, lambda: "[" * 32 + "]" * 32),
        "JSON: a list of empty objects": (
            fh.from_json,
            lambda: "[" + ",".join(["{}"] * _fill(2, room)) + "]",
        ),
        "view.legal_actions: bad notation": (
            partial(fh.from_json, cls=fh.PlayerView),
            lambda: fh.to_json(fh.observe(fh.deal(fh.new_game(dealer=3), seed=7), 0)).replace(
                '"legal_actions": [', '"legal_actions": [' + '"ZZ", ' * MAX_LIST
            ),
        ),
        "action: a discard of bad cards": (
            partial(fh.from_json, cls=fh.Action),
            lambda: json.dumps(
                {
                    "format_version": 1,
                    "type": "action",
                    "action": {"kind": "discard", "cards": ["ZZ"] * MAX_LIST},
                }
            ),
        ),
        "rules: many unknown options": (
            partial(fh.from_json, cls=fh.Rules),
            lambda: json.dumps(
                {"format_version": 1, "type": "rules", "rules": {f"o{i}": i for i in range(64)}}
            ),
        ),
        "record text: the most hand lines of bad calls": (
            record_from_text,
            lambda: "fivehundred record 1 dealer=3\n" + text_hands,
        ),
        "record text: the longest text of comments": (
            record_from_text,
            lambda: "fivehundred record 1 dealer=3\n" + "#" * (MAX_RECORD_TEXT - 40),
        ),
        "parse_call: the longest text": (fh.parse_call, lambda: notation),
        "parse_card: the longest text": (fh.parse_card, lambda: notation),
        "parse_cards: the longest list": (fh.parse_cards, lambda: "10H " * (MAX_NOTATION // 4)),
        "parse_action: the longest discard": (
            fh.parse_action,
            lambda: "discard " + "ZZ " * ((MAX_NOTATION - 8) // 3),
        ),
        "rules_from_options: the most options": (
            rules_from_options,
            lambda: {f"o{i}" * 20: "x" * 1000 for i in range(64)},
        ),
    }


SHAPES: Final = _shapes()


def prepared(name: str) -> Callable[[], object]:
    """Shape ``name``'s loader bound to its input, built first: a measure of it times
    only the loader, not the building of the hostile input."""
    load, build = SHAPES[name]
    return partial(load, build())
