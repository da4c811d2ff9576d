"""Bounded loading (issue 11): every loader refuses or loads any input within its
documented limits in at most 0.5 s of CPU and 100 MB, and quotes little of it."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial

import pytest

import fivehundred as fh
from fivehundred.cards import parse_card
from fivehundred.errors import MAX_NOTATION, MAX_PROBLEMS, MAX_QUOTE
from fivehundred.records import MAX_HANDS, MAX_RECORD_TEXT, record_from_text, rules_from_options
from fivehundred.serialize import MAX_CARDS, MAX_JSON_SIZE, MAX_SET
from pathological import MEMORY_BUDGET, SHAPES, cpu_budget, measure, prepared, state_doc


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_every_pathological_input_is_refused_or_loaded_within_the_budget(name: str) -> None:
    cpu, peak, outcome = measure(prepared(name))
    assert outcome in ("loaded", "InvalidStateError", "NotationError")
    assert cpu <= cpu_budget(), f"{name}: {cpu:.2f} s of CPU ({outcome})"
    assert peak <= MEMORY_BUDGET, f"{name}: {peak / 1e6:.0f} MB ({outcome})"


def test_the_longest_game_loads_within_the_budget() -> None:
    cpu, _, outcome = measure(prepared("record: the most hands"))
    assert outcome == "loaded"
    assert cpu <= cpu_budget()


def _attack(field: str, value: object) -> str:
    doc = json.loads(json.dumps(state_doc()))
    doc["snapshot"][field] = value
    return json.dumps(doc)


def test_the_issue_attacks_are_refused_by_size_at_once() -> None:
    hands = _attack("hands", [["ZZ"] * 5000 for _ in range(40)])
    suits = _attack("suits_led", ["Z"] * 800_000)
    for text in (hands, suits):
        cpu, peak, _ = measure(partial(fh.from_json, text))
        assert cpu < 0.2 and peak < MEMORY_BUDGET
        with pytest.raises(fh.InvalidStateError, match="too long") as caught:
            fh.from_json(text)
        assert len(str(caught.value)) < 200
    with pytest.raises(fh.NotationError, match="too long") as err:
        fh.parse_call("7" * (10 * MAX_NOTATION))
    assert len(str(err.value)) < 200 and len(err.value.text) == MAX_QUOTE + 1


def test_a_long_list_of_bad_items_reports_the_first_problems_and_a_count() -> None:
    text = _attack("hands", [["ZZ"] * MAX_CARDS for _ in range(4)])
    with pytest.raises(fh.InvalidStateError) as caught:
        fh.from_json(text)
    problems = caught.value.problems
    assert len(problems) == MAX_PROBLEMS + 1
    assert problems[-1].startswith("and ") and problems[-1].endswith("more problems")
    assert "snapshot.hands[0][0]" in problems[0]


def test_a_list_of_cards_longer_than_any_deck_is_refused_before_it_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = _attack("hands", [["10H"] * (MAX_CARDS + 1)] * 40)
    read: list[str] = []

    def counted(card: str) -> fh.Card:
        read.append(card)
        return parse_card(card)

    monkeypatch.setattr("fivehundred._engine.convert.parse_card", counted)
    fh.from_json(json.dumps(state_doc()))
    whole = len(read)  # every card of the untouched document, its hands included
    read.clear()
    with pytest.raises(fh.InvalidStateError) as caught:
        fh.from_json(text)
    assert len(read) < whole  # none of the 2,600 cards of the long hands was parsed
    assert caught.value.problems[0] == (
        f"snapshot.hands[0]: the list of cards is too long: {MAX_CARDS + 1} cards,"
        f" at most {MAX_CARDS} (no deck has more)"
    )


def test_p6_the_largest_deck_fits_a_list_of_cards() -> None:
    rules = fh.Rules(players=6)
    assert len(rules.deck) < MAX_CARDS
    state = fh.deal(fh.new_game(rules, dealer=0), seed=3)
    game = fh.record(state)
    assert fh.from_json(fh.to_json(game), cls=fh.GameRecord) == game
    assert fh.from_json(fh.to_json(state)) == state


def test_sets_are_limited_in_length() -> None:
    with pytest.raises(fh.InvalidStateError, match=f"at most {MAX_SET}"):
        fh.from_json(_attack("suits_led", ["S"] * (MAX_SET + 1)))


def test_json_text_over_the_size_limit_is_refused() -> None:
    with pytest.raises(fh.InvalidStateError, match="too long"):
        fh.from_json(" " * (MAX_JSON_SIZE + 1))


def test_records_over_the_hand_limit_are_refused() -> None:
    doc = json.loads(json.dumps(state_doc()))
    doc["record"]["hands"] = doc["record"]["hands"] * (MAX_HANDS + 1)
    with pytest.raises(fh.InvalidStateError, match=f"at most {MAX_HANDS}"):
        fh.from_dict(doc)
    lines = "\n".join(f"hand {n} dealer=0 | deck 10H" for n in range(1, MAX_HANDS + 2))
    with pytest.raises(fh.NotationError, match=f"at most {MAX_HANDS}"):
        record_from_text("fivehundred record 1 dealer=0\n" + lines)
    with pytest.raises(fh.NotationError, match="too long"):
        record_from_text("#" * (MAX_RECORD_TEXT + 1))


@pytest.mark.parametrize(
    "parse",
    [fh.parse_card, fh.parse_cards, fh.parse_call, fh.parse_action],
    ids=lambda f: f.__name__,
)
def test_notation_errors_quote_a_short_prefix_of_the_input(parse: Callable[[str], object]) -> None:
    text = "Z" * 500
    with pytest.raises(fh.NotationError) as caught:
        parse(text)
    assert "Z" * (MAX_QUOTE + 1) not in str(caught.value)
    assert "Z" * MAX_QUOTE + "…" in str(caught.value)
    assert caught.value.text == "Z" * MAX_QUOTE + "…"
    with pytest.raises(fh.NotationError, match="too long"):
        parse("Z" * (MAX_NOTATION + 1))


def test_rule_options_are_limited_in_number_and_type() -> None:
    with pytest.raises(fh.InvalidStateError, match="too many"):
        rules_from_options({f"o{i}": 0 for i in range(100)})
    with pytest.raises(TypeError, match="mapping"):
        rules_from_options(None)  # type: ignore[arg-type]  # the wrong type on purpose
    with pytest.raises(fh.InvalidStateError) as caught:
        rules_from_options({"x" * 500: 0})
    assert "x" * (MAX_QUOTE + 1) not in str(caught.value)


def test_a_record_line_is_quoted_short() -> None:
    with pytest.raises(fh.NotationError) as caught:
        record_from_text("fivehundred record 1 dealer=0\nhand 1 dealer=0 | bogus " + "Q" * 900)
    assert "Q" * (MAX_QUOTE + 1) not in str(caught.value)
