"""A Hypothesis state machine that plays games and throws random actions at them.

Rules deal, apply legal actions (uniformly, or with the cautious policy of
``strategies`` so games get far), and attempt arbitrary actions — random card
plays, calls, discards, nominations and non-actions. An attempt must either be
legal and succeed, or raise ``IllegalActionError`` with a ``Reason`` and leave
the state unchanged. Invariants: card conservation, the seat to act, scores
consistent with the hands scored so far, and the reference checks of
``test_properties`` for every transition.
"""

from __future__ import annotations

import random
from typing import cast

from hypothesis import event, settings, target
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import fivehundred as fh
from strategies import Step, any_actions, choose_action, dealers, examples, seeds
from test_properties import (
    HAND_ENDS,
    check_cards_accounted_for,
    check_state,
    check_step,
    check_turn,
    public_properties,
)


class GameMachine(RuleBasedStateMachine):
    """One game of Five Hundred, driven by Hypothesis."""

    def __init__(self) -> None:
        super().__init__()
        self.state = fh.new_game(dealer=0)
        #: Scores rebuilt from the hands scored so far (R8.5).
        self.scores: tuple[int, ...] = (0, 0)
        self.hands_dealt = 0
        self.hands_scored = 0

    # -- moving on ----------------------------------------------------------------

    def _step(self, step: Step) -> None:
        check_step(step)
        if step.action is None:
            self.hands_dealt += 1
        elif step.after.phase in HAND_ENDS:
            hand = step.after.last_hand
            assert hand is not None
            self.scores = tuple(s + d for s, d in zip(self.scores, hand.changes, strict=True))
            self.hands_scored += 1
        self.state = step.after

    def _apply(self, action: fh.Action) -> None:
        before = self.state
        self._step(Step(before, action, fh.apply(before, action)))

    @initialize(dealer=dealers())
    def start(self, dealer: int) -> None:
        self.state = fh.new_game(dealer=dealer)

    @precondition(lambda self: self.state.phase is fh.Phase.DEAL)
    @rule(seed=seeds())
    def deal(self, seed: int) -> None:
        before = self.state
        self._step(Step(before, None, fh.deal(before, seed=seed), seed))

    @precondition(lambda self: self.state.phase is not fh.Phase.DEAL)
    @rule(seed=seeds())
    def deal_out_of_turn(self, seed: int) -> None:
        before = self.state
        try:
            fh.deal(before, seed=seed)
        except fh.IllegalActionError as err:
            assert err.reason in (fh.Reason.WRONG_PHASE, fh.Reason.GAME_OVER)
        else:
            raise AssertionError(f"deal() accepted in {before.phase}")
        assert self.state == before

    @precondition(lambda self: bool(fh.legal_actions(self.state)))
    @rule(data=st.data())
    def apply_legal_action(self, data: st.DataObject) -> None:
        actions = fh.legal_actions(self.state)
        self._apply(data.draw(st.sampled_from(actions), label="legal action"))

    @precondition(lambda self: bool(fh.legal_actions(self.state)))
    @rule(seed=seeds(), count=st.integers(min_value=1, max_value=30))
    def play_on(self, seed: int, count: int) -> None:
        """Up to ``count`` actions of the cautious policy (stops at the end of a hand)."""
        rng = random.Random(seed)
        for _ in range(count):
            if not fh.legal_actions(self.state):
                break
            self._apply(choose_action(self.state, rng, "cautious"))
            check_cards_accounted_for(self.state)
            check_turn(self.state)

    @rule(action=any_actions())
    def attempt(self, action: object) -> None:
        """Any object: legal ⇒ applied; illegal ⇒ IllegalActionError, state unchanged."""
        before = self.state
        expected = public_properties(before)
        legal = fh.is_legal(before, action)
        assert legal == (action in set(fh.legal_actions(before)))
        if legal:
            self._apply(cast(fh.Action, action))  # is_legal says it is an Action
            return
        try:
            fh.apply(before, cast(fh.Action, action))  # perhaps not an Action at all
        except fh.IllegalActionError as err:
            assert isinstance(err.reason, fh.Reason)
            assert str(err)
        else:
            raise AssertionError(f"apply accepted {action!r}, which is_legal refused")
        assert self.state == before and hash(self.state) == hash(before)
        assert public_properties(before) == expected

    @precondition(lambda self: self.state.phase is fh.Phase.PLAY)
    @rule(data=st.data())
    def attempt_card_from_hand(self, data: st.DataObject) -> None:
        """A card the seat to act holds: legal exactly when it follows the play rules."""
        seat = self.state.to_act
        assert seat is not None
        card = data.draw(st.sampled_from(self.state.hand(seat)), label="card")
        action = fh.Play(card)
        before = self.state
        if fh.is_legal(before, action):
            self._apply(action)
            return
        try:
            fh.check_action(before, action)
        except fh.IllegalActionError as err:
            assert err.reason in (
                fh.Reason.MUST_FOLLOW_SUIT,
                fh.Reason.MUST_PLAY_JOKER,
                fh.Reason.JOKER_SUIT_REQUIRED,
                fh.Reason.JOKER_LEAD_TOO_EARLY,
            ), err.reason
        else:
            raise AssertionError(f"check_action accepted {action}, which is_legal refused")
        assert self.state == before

    def teardown(self) -> None:
        event(f"hands scored: {min(self.hands_scored, 3)}{'+' if self.hands_scored > 3 else ''}")
        event(f"ended in phase {self.state.phase.value}")
        target(float(self.hands_scored), label="hands scored")

    # -- invariants -----------------------------------------------------------------

    @invariant()
    def cards_are_conserved(self) -> None:
        check_cards_accounted_for(self.state)

    @invariant()
    def the_seat_to_act_is_consistent(self) -> None:
        check_turn(self.state)

    @invariant()
    def scores_add_up(self) -> None:
        assert self.state.scores == self.scores
        hand = self.state.last_hand
        if hand is None:
            assert self.hands_scored == 0 and self.scores == (0, 0)
        else:
            assert hand.scores == self.state.scores
        assert self.state.hand_number == self.hands_dealt

    @invariant()
    def the_whole_state_is_consistent(self) -> None:
        check_state(self.state)


GameMachine.TestCase.settings = settings(
    max_examples=examples(100), stateful_step_count=60, deadline=None
)
TestGame = GameMachine.TestCase
