"""Checks of whole games shared by ``test_properties`` and ``test_properties_variants``.

They compare the engine's public functions with one another (``legal_actions``,
``is_legal``, ``check_action``, ``apply``, ``deal``), never with a reference
model, so they hold under any ``Rules``; each test module passes in what is its
own (the actions to probe, what a state looks like from outside).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import cast

import pytest

import fivehundred as fh
from strategies import Step

#: Every property of a state that an action or a deal must leave untouched.
Snapshot = Callable[[fh.GameState], tuple[object, ...]]
#: Actions to try on a state: legal, illegal, of every kind, and not actions at all.
Probes = Callable[[fh.GameState, random.Random], list[object]]


def hands_of(steps: Sequence[Step]) -> list[list[Step]]:
    """Split a game's steps into hands, each starting with its deal."""
    hands: list[list[Step]] = []
    for step in steps:
        if step.action is None:
            hands.append([])
        hands[-1].append(step)
    return hands


def redeal_base(before: fh.GameState, after: fh.GameState) -> fh.GameState:
    """A state that ``deal(..., cards=after.deck)`` turns into ``after`` (R2.1, R2.3).

    ``before`` itself, unless its first dealer was left to the random source
    (``cards=`` cannot choose one): then a new game with the chosen dealer.
    """
    if before.dealer is not None:
        return before
    assert before.hand_number == 0 and after.dealer is not None
    return fh.new_game(before.rules, dealer=after.dealer)


def check_inputs_unchanged(steps: Iterable[Step], snapshot: Snapshot) -> None:
    """``apply`` and ``deal`` never change their input, and replay every step alike.

    A twin of the game, re-derived with ``deal(cards=...)``, must reach the same
    states, down to ``snapshot``.
    """
    twin: fh.GameState | None = None
    for step in steps:
        before = step.before
        expected = snapshot(before)
        if step.action is None:
            after = fh.deal(before, seed=step.deal_seed)
            twin = fh.deal(redeal_base(before, after), cards=after.deck)
        else:
            after = fh.apply(before, step.action)
            assert twin is not None
            twin = fh.apply(twin, step.action)
        assert snapshot(before) == expected
        assert after == step.after and hash(after) == hash(step.after)
        assert twin == after and hash(twin) == hash(after)
        assert snapshot(twin) == snapshot(after)


def check_legality_agrees(
    state: fh.GameState, rng: random.Random, probe_actions: Probes, most: int | None = None
) -> None:
    """is_legal ⇔ listed; check_action and apply agree on every refusal (reason and sentence).

    Every legal action (or ``most`` of them, drawn from ``rng``) is accepted by
    all three; one of them is refused to every other seat; every probe is
    accepted or refused alike.
    """
    legal = fh.legal_actions(state)
    legal_set = set(legal)
    assert len(legal_set) == len(legal), "duplicate legal actions"
    sample = legal if most is None or len(legal) <= most else rng.sample(legal, most)
    actor = state.to_act
    assert actor is not None or not legal, "legal actions with no seat to act"
    for action in sample:
        assert actor is not None
        assert fh.is_legal(state, action) and fh.is_legal(state, action, seat=actor)
        fh.check_action(state, action)
        assert isinstance(fh.apply(state, action), fh.GameState)
    if legal:
        action = rng.choice(legal)
        for seat in range(state.rules.players):
            if seat == state.to_act:
                continue
            assert not fh.is_legal(state, action, seat=seat)
            with pytest.raises(fh.IllegalActionError) as checked:
                fh.check_action(state, action, seat=seat)
            assert checked.value.reason in (fh.Reason.NOT_YOUR_TURN, fh.Reason.ALREADY_PASSED)
            with pytest.raises(fh.IllegalActionError) as applied:
                fh.apply(state, action, seat=seat)
            assert applied.value.reason is checked.value.reason
    for probe in probe_actions(state, rng):
        is_legal = fh.is_legal(state, probe)
        assert is_legal == (probe in legal_set), f"is_legal({probe!r}) is {is_legal}"
        if is_legal:
            fh.check_action(state, probe)
            continue
        with pytest.raises(fh.IllegalActionError) as checked:
            fh.check_action(state, probe)
        assert isinstance(checked.value.reason, fh.Reason) and str(checked.value)
        with pytest.raises(fh.IllegalActionError) as applied:
            fh.apply(state, cast(fh.Action, probe))
        assert applied.value.reason is checked.value.reason, f"{probe!r}"
        assert str(applied.value) == str(checked.value)
