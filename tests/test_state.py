"""The GameState value: immutable, hashable, picklable, and never built by hand."""

from __future__ import annotations

import copy
import pickle

import pytest

import fivehundred as fh


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
