"""The names of 0.1 that 1.0 moved or merged still work for one minor release, and warn.

Each old name, read from the module that had it, raises a ``DeprecationWarning``
naming its replacement and returns it; none is in ``__all__`` or ``dir()``; and
``CHANGELOG.md`` lists every one (see ``docs/reference/stability.md``).
"""

from __future__ import annotations

import importlib
import random
import re
import warnings
from pathlib import Path
from typing import Any, Final

import pytest

import fivehundred as fh
from fivehundred._deprecated import DEPRECATED, target
from fivehundred.encoding import (
    action_ids,
    action_layout,
    apply_index,
    decode_action,
    encode_action,
    legal_action_indices,
    legal_action_mask,
    num_actions,
)
from subprocesses import run_python

OLD_NAMES: Final = sorted((module, name) for module, names in DEPRECATED.items() for name in names)
#: ``fh.playout`` is the submodule once it is imported (as it is here), so its old
#: name is checked in a fresh interpreter below, and as a call.
READ_HERE: Final = [old for old in OLD_NAMES if old != ("fivehundred", "playout")]
CHANGELOG: Final = Path(__file__).resolve().parent.parent / "CHANGELOG.md"


def read_old(module: str, name: str) -> tuple[object, list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = getattr(importlib.import_module(module), name)
    return value, caught


def test_the_old_names_are_found() -> None:
    assert len(OLD_NAMES) > 60
    assert ("fivehundred", "compact_mask") in OLD_NAMES
    assert ("fivehundred.serialize", "record_from_json") in OLD_NAMES


@pytest.mark.parametrize(("module", "name"), READ_HERE, ids=[f"{m}.{n}" for m, n in READ_HERE])
def test_an_old_name_warns_and_returns_its_replacement(module: str, name: str) -> None:
    value, caught = read_old(module, name)
    assert [w.category for w in caught] == [DeprecationWarning]
    message = str(caught[0].message)
    assert (
        message.startswith(f"{module}.{name} is deprecated")
        and DEPRECATED[module][name].use in message
    )
    assert caught[0].filename == __file__  # the warning points at the reader of the name
    assert value is target(module, name)
    moved = DEPRECATED[module][name]
    if not moved.module.startswith("fivehundred._"):  # the same object, at its new home
        assert value is getattr(importlib.import_module(moved.module), moved.name)
        assert moved.name in importlib.import_module(moved.module).__all__


@pytest.mark.parametrize(("module", "name"), OLD_NAMES, ids=[f"{m}.{n}" for m, n in OLD_NAMES])
def test_an_old_name_is_not_offered(module: str, name: str) -> None:
    owner = importlib.import_module(module)
    assert name not in owner.__all__ and name not in dir(owner)


def test_from_import_of_an_old_name_warns() -> None:
    with pytest.warns(DeprecationWarning, match=r"use fivehundred\.search\.sample_deal"):
        from fivehundred import sample_deal  # type: ignore[attr-defined]  # the old name
    from fivehundred.search import sample_deal as new

    assert sample_deal is new


def test_the_old_playout_call_still_plays_out_once_the_module_is_loaded() -> None:
    """``fh.playout`` is the module once it is imported: calling it warns and plays out."""
    import fivehundred.playout

    state = fh.deal(fh.new_game(dealer=0), seed=3)
    with pytest.warns(DeprecationWarning, match=r"use fivehundred\.playout\.playout"):
        old_end = fivehundred.playout(state, rng=random.Random(1))  # type: ignore[operator]
    assert old_end == fivehundred.playout.playout(state, rng=random.Random(1))


def test_the_old_playout_name_warns_before_the_module_is_loaded() -> None:
    code = (
        "import sys, warnings\n"
        "import fivehundred as fh\n"
        "assert 'fivehundred.playout' not in sys.modules\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    function = fh.playout\n"
        "from fivehundred.playout import playout\n"
        "assert function is playout, function\n"
        "print(caught[0].category.__name__, caught[0].message)\n"
    )
    done = run_python(["-c", code])
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("DeprecationWarning fivehundred.playout is deprecated")


def test_an_unknown_name_is_still_an_attribute_error() -> None:
    for module in DEPRECATED:
        with pytest.raises(AttributeError, match="no attribute 'not_a_name'"):
            getattr(importlib.import_module(module), "not_a_name")  # noqa: B009


def old(module: str, name: str) -> Any:
    return read_old(module, name)[0]


def test_the_old_compact_functions_do_what_the_compact_layout_does_R4_1() -> None:
    rules = fh.Rules()
    rng = random.Random(5)
    state, pending = fh.deal(fh.new_game(rules, dealer=3), seed=5), ()
    for _ in range(60):  # bounded: a hand's auction, kitty and a few tricks
        if state.phase is fh.Phase.DEAL or state.is_over:
            break
        mask = old("fivehundred.compact", "compact_mask")(state, pending)
        assert mask == legal_action_mask(state, layout="compact", pending=pending)
        ids = old("fivehundred", "compact_legal")(state, pending)
        assert ids == legal_action_indices(state, layout="compact", pending=pending)
        choice = rng.choice(ids)
        assert old("fivehundred", "compact_decode")(choice, rules) == decode_action(
            choice, rules, layout="compact"
        )
        after = old("fivehundred", "compact_apply")(state, choice, pending)
        assert after == apply_index(state, choice, layout="compact", pending=pending)
        state, pending = after
    discard = fh.Discard(fh.parse_cards("5S 6S 7S"))
    assert old("fivehundred", "compact_ids")(discard, rules) == action_ids(
        discard, rules, layout="compact"
    )
    assert old("fivehundred", "compact_encode")(fh.PASS, rules) == encode_action(
        fh.PASS, rules, layout="compact"
    )
    assert old("fivehundred", "compact_num_actions")(rules) == num_actions(rules, layout="compact")
    assert old("fivehundred", "compact_layout")(rules) == action_layout(rules, layout="compact")
    assert old("fivehundred", "COMPACT_NUM_ACTIONS") == num_actions(rules, layout="compact") == 124


def test_the_old_loaders_read_what_from_json_reads_with_cls() -> None:
    state = fh.apply(fh.deal(fh.new_game(dealer=3), seed=7), fh.parse_call("6S"))
    values: dict[str, Any] = {
        "rules": fh.Rules(players=5),
        "view": fh.observe(state, 1),
        "action": fh.Play(fh.JOKER, fh.Suit.HEARTS),
        "record": fh.record(state),
    }
    for prefix, value in values.items():
        for module in ("fivehundred", "fivehundred.serialize"):
            text = old(module, f"{prefix}_to_json")(value)
            assert text == fh.to_json(value)
            assert old(module, f"{prefix}_from_json")(text) == value
            data = old(module, f"{prefix}_to_dict")(value)
            assert data == fh.to_dict(value)
            assert old(module, f"{prefix}_from_dict")(data) == value
    with pytest.raises(fh.InvalidStateError, match="read it with cls=GameState"):
        old("fivehundred", "rules_from_json")(fh.to_json(state))


def test_the_changelog_lists_every_old_name_with_its_replacement() -> None:
    text = CHANGELOG.read_text(encoding="utf-8")
    unreleased = text.split("## [Unreleased]", 1)[1].split("\n## [", 1)[0]
    deprecated = unreleased.split("### Deprecated", 1)[1].split("\n### ", 1)[0]
    missing = [
        f"{module}.{name}"
        for module, name in OLD_NAMES
        if not re.search(rf"`{re.escape(module)}\.{re.escape(name)}`", deprecated)
    ]
    assert missing == []
