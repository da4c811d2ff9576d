"""The GameState value: immutable, hashable, picklable, and never built by hand."""

from __future__ import annotations

import ast
import copy
import pickle
from pathlib import Path

import pytest

import fivehundred as fh
from fivehundred._engine import hand
from fivehundred._engine.hand import KEY_FIELDS
from fivehundred._engine.state import hand_block


def _state() -> fh.GameState:
    state = fh.deal(fh.new_game(dealer=3), seed=11)
    return fh.apply(state, fh.parse_call("6S"))


def test_a_state_pickles_to_an_equal_state() -> None:
    state = _state()
    loaded = pickle.loads(pickle.dumps(state))
    assert loaded == state
    assert hash(loaded) == hash(state)
    assert fh.legal_actions(loaded) == fh.legal_actions(state)


def test_copies_of_an_immutable_state_are_the_state_itself() -> None:
    state = _state()
    assert copy.copy(state) is state
    assert copy.deepcopy(state) is state


def test_a_state_cannot_be_changed_or_built_directly() -> None:
    state = _state()
    # Every public field is a read-only property: assignment and deletion are refused.
    with pytest.raises(AttributeError):
        state.phase = fh.Phase.PLAY  # type: ignore[misc]  # the point: assignment is refused
    with pytest.raises(AttributeError):
        del state.phase  # the point: deletion is refused
    with pytest.raises(AttributeError):
        state.anything = 1  # type: ignore[attr-defined]  # the point: no new attributes
    assert state.phase is fh.Phase.BIDDING
    with pytest.raises(TypeError, match="new_game"):
        fh.GameState()


def test_repr_names_the_phase_the_contract_and_the_seat_to_act() -> None:
    state = _state()
    assert repr(state) == "<GameState hand 1: phase=bidding, dealer=3, scores=(0, 0), to_act=1>"
    assert "contract" not in repr(state)
    assert state != "not a state"


def _hand_source() -> ast.ClassDef:
    path = Path(hand.__file__).parent / "hand.py"  # the compiled build ships it
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Hand")


def _assigned(method: ast.FunctionDef, target: str) -> set[str]:
    return {
        node.attr
        for node in ast.walk(method)
        if isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Store)
        and isinstance(node.value, ast.Name)
        and node.value.id == target
    }


def test_the_hand_block_fields_are_listed_once_and_copy_keeps_every_one() -> None:
    """KEY_FIELDS is the one list of the hand block's value; copy() keeps every field."""
    methods = {n.name: n for n in _hand_source().body if isinstance(n, ast.FunctionDef)}
    fields = _assigned(methods["__init__"], "self")
    assert set(KEY_FIELDS) <= fields
    assert _assigned(methods["copy"], "new") == fields - {"t"}  # the table is passed in
    assert len(set(KEY_FIELDS)) == len(KEY_FIELDS)


def test_the_hand_block_key_and_pickle_follow_the_field_list() -> None:
    state = fh.deal(fh.new_game(dealer=0), seed=3)
    for action in ("7H", "pass", "pass", "pass"):
        state = fh.apply(state, fh.parse_call(action))
    block = hand_block(state)
    assert block.key() == (block.t.rules, *(getattr(block, name) for name in KEY_FIELDS))
    again = pickle.loads(pickle.dumps(block))
    assert again == block and again.key() == block.key()
    assert again.ctx is block.ctx and again.nxt == block.nxt  # derived from the contract
    assert block.copy() == block


def test_the_engine_s_phase_numbers_name_the_phases_in_order() -> None:
    numbers = (hand.DEAL, hand.BIDDING, hand.DISCARD, hand.NOMINATE, hand.PARTNER, hand.PLAY)
    assert [hand.PHASES[n] for n in (*numbers, hand.OVER)] == list(fh.Phase)
    assert {phase: n for n, phase in enumerate(fh.Phase)} == hand.PHASE_CODES
