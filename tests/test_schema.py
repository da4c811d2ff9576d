"""The JSON Schema of format version 1 describes every document the library writes.

The schema ships in the package (``fivehundred/schema/format-1.schema.json``)
and is published on the docs page of the JSON format. Documents of every type
(saved states, player views of every seat, records, rules, actions) are taken
from seeded games under random ``Rules`` and must validate; a few documents
the loaders refuse for their form must fail the schema too.
"""

from __future__ import annotations

import copy
import json
import random
from importlib.resources import files
from pathlib import Path
from typing import Any, Final

import attrs
import jsonschema
import pytest

import fivehundred as fh
from rules_strategies import rules_from_random
from strategies import whole_games

ROOT: Final = Path(__file__).resolve().parent.parent
SCHEMA: Final[dict[str, Any]] = json.loads(
    files("fivehundred").joinpath("schema", "format-1.schema.json").read_text(encoding="utf-8")
)
VALIDATOR: Final = jsonschema.Draft202012Validator(SCHEMA)
#: The definition that describes each ``type`` of document.
DEFINITION: Final = {
    "game_state": "game_state",
    "game_record": "game_record",
    "rules": "rules_document",
    "player_view": "player_view",
    "action": "action_document",
}


def problems(document: object) -> list[str]:
    """Why ``document`` fails the schema, worded by the definition of its type."""
    kind = document.get("type") if isinstance(document, dict) else None
    schema = SCHEMA
    if kind in DEFINITION:
        schema = {**SCHEMA["$defs"][DEFINITION[kind]], "$defs": SCHEMA["$defs"]}
    validator = jsonschema.Draft202012Validator(schema)
    return [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message[:200]}"
        for error in validator.iter_errors(document)
    ]


def documents(seed: int) -> list[dict[str, Any]]:
    """Documents of every type from one seeded game under random rules, at random moments."""
    rng = random.Random(seed)
    rules = rules_from_random(rng)
    found: list[dict[str, Any]] = [fh.to_dict(rules)]
    for number, state in enumerate(whole_games(seed, rules=rules, max_hands=4)):
        if number % 11 and state.phase is not fh.Phase.GAME_OVER:
            continue
        found.append(fh.to_dict(state))
        found.append(fh.to_dict(fh.record(state)))
        found.extend(fh.to_dict(fh.observe(state, seat)) for seat in range(rules.players))
        found.extend(fh.to_dict(action) for action in fh.legal_actions(state)[:40])
    return found


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_the_schema_is_published_in_the_docs() -> None:
    page = (ROOT / "docs" / "json-format.md").read_text(encoding="utf-8")
    assert "fivehundred/schema/format-1.schema.json" in page
    assert "_static/format-1.schema.json" in page


@pytest.mark.parametrize("seed", range(6))
def test_documents_of_random_games_under_random_rules_validate(seed: int) -> None:
    found = documents(seed)
    assert {doc["type"] for doc in found} == set(DEFINITION)
    for document in found:
        assert problems(document) == [], json.dumps(document)[:500]
        assert VALIDATOR.is_valid(document)


def test_the_golden_fixtures_validate() -> None:
    fixtures = sorted((ROOT / "tests" / "fixtures").glob("*.json"))
    assert len(fixtures) >= 8
    for path in fixtures:
        assert problems(json.loads(path.read_text(encoding="utf-8"))) == [], path.name
    lines = (ROOT / "tests" / "fixtures" / "v1-rules-and-actions.jsonl").read_text("utf-8")
    for line in lines.splitlines():
        assert problems(json.loads(line)) == [], line


def test_every_rules_option_is_in_the_schema_with_its_default() -> None:
    options = SCHEMA["$defs"]["rules"]["properties"]
    fields = {field.name: field.default for field in attrs.fields(fh.Rules)}
    assert set(options) == set(fields)
    assert {name: option["default"] for name, option in options.items()} == fields


def _state_document() -> dict[str, Any]:
    state = fh.deal(fh.new_game(dealer=3), seed=7)
    return fh.to_dict(fh.apply(state, fh.parse_call("6S")))


def test_the_schema_limits_a_list_of_cards_as_the_loader_does() -> None:
    assert SCHEMA["$defs"]["cards"]["maxItems"] == fh.serialize.MAX_CARDS
    assert len(set(EVERY_CARD_SPELLING)) == fh.serialize.MAX_CARDS + 1


#: The 65 cards the notation can spell (the six-player deck and the black 13s), one
#: more than :data:`~fivehundred.serialize.MAX_CARDS`.
EVERY_CARD_SPELLING: Final = [*map(str, fh.Rules(players=6).deck), "13S", "13C"]


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (("format_version",), 2),
        (("type",), "game_sate"),
        (("snapshot", "kitty"), ["KS", "4D", "10h"]),  # not the canonical spelling
        (("snapshot", "to_act"), 7),
        (("snapshot", "auction"), [[0, "6X"]]),
        (("snapshot", "phase"), "dealing"),
        (("rules",), {"colour": "red"}),
        (("rules",), {"players": 7}),
        (("record", "hands", 0, "actions"), ["6S", "play 4H"]),
        (("snapshot", "hands", 0), EVERY_CARD_SPELLING),  # more cards than any deck
    ],
)
def test_documents_of_the_wrong_form_fail_the_schema(
    where: tuple[str | int, ...], value: Any
) -> None:
    document = _state_document()
    assert problems(document) == []
    broken = copy.deepcopy(document)
    target: Any = broken
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    assert not VALIDATOR.is_valid(broken)
    with pytest.raises(fh.InvalidStateError):  # the loader refuses it too
        fh.from_dict(broken)


def test_an_unknown_key_and_a_partner_call_with_both_fields_fail() -> None:
    document = _state_document()
    document["snapshot"]["colour"] = "red"
    assert any("colour" in problem for problem in problems(document))
    both = {
        "format_version": 1,
        "type": "action",
        "action": {"kind": "partner", "card": "AH", "seat": 2},
    }
    assert not VALIDATOR.is_valid(both)
    with pytest.raises(fh.InvalidStateError):
        fh.from_dict(both, cls=fh.Action)
