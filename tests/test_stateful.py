"""A Hypothesis state machine that plays games and throws random actions at them.

Rules deal, apply legal actions (uniformly, or with the cautious policy of
``strategies`` so games get far), and attempt arbitrary actions — random card
plays, calls, discards, nominations and non-actions. An attempt must either be
legal and succeed, or raise ``IllegalActionError`` with a ``Reason`` and leave
the state unchanged. Invariants: card conservation, the seat to act, scores
consistent with the hands scored so far, and the reference checks of
``test_properties`` for every transition. What it shares with the machine of
``test_stateful_variants`` lives in ``machine_base``.
"""

from __future__ import annotations

from hypothesis import settings, target
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, precondition, rule

import fivehundred as fh
import test_properties as props
from machine_base import BaseGameMachine, apply_refusal
from strategies import Step, any_actions, dealers, examples, seeds


class GameMachine(BaseGameMachine):
    """One game of Five Hundred, driven by Hypothesis."""

    def check_step(self, step: Step) -> None:
        props.check_step(step)

    def check_state(self, state: fh.GameState) -> None:
        props.check_state(state)

    def check_cards(self, state: fh.GameState) -> None:
        props.check_cards_accounted_for(state)

    def check_turn(self, state: fh.GameState) -> None:
        props.check_turn(state)

    @initialize(dealer=dealers())
    def start(self, dealer: int) -> None:
        self.state = fh.new_game(dealer=dealer)

    @precondition(lambda self: self.state.phase is fh.Phase.DEAL)
    @rule(seed=seeds())
    def deal(self, seed: int) -> None:
        self._deal(seed)

    @precondition(lambda self: self.state.phase is not fh.Phase.DEAL)
    @rule(seed=seeds())
    def deal_out_of_turn(self, seed: int) -> None:
        self._deal_refused(seed)

    @precondition(lambda self: bool(fh.legal_actions(self.state)))
    @rule(data=st.data())
    def apply_legal_action(self, data: st.DataObject) -> None:
        actions = fh.legal_actions(self.state)
        self._apply(data.draw(st.sampled_from(actions), label="legal action"))

    @precondition(lambda self: bool(fh.legal_actions(self.state)))
    @rule(seed=seeds(), count=st.integers(min_value=1, max_value=30))
    def play_on(self, seed: int, count: int) -> None:
        """Up to ``count`` actions of the cautious policy (stops at the end of a hand)."""
        self._play_on(seed, count)

    @rule(action=any_actions())
    def attempt(self, action: object) -> None:
        """Any object: legal ⇒ applied; illegal ⇒ IllegalActionError, state unchanged."""
        before = self.state
        expected = props.public_properties(before)
        if self._applied_if_legal(action):
            return
        apply_refusal(before, action)
        assert self.state == before and hash(self.state) == hash(before)
        assert props.public_properties(before) == expected

    def teardown(self) -> None:
        super().teardown()
        target(float(self.hands_scored), label="hands scored")

    # -- invariants (with scores_add_up and the_whole_state_is_consistent) ----------

    @invariant()
    def cards_are_conserved(self) -> None:
        props.check_cards_accounted_for(self.state)

    @invariant()
    def the_seat_to_act_is_consistent(self) -> None:
        props.check_turn(self.state)


GameMachine.TestCase.settings = settings(
    max_examples=examples(100), stateful_step_count=60, deadline=None
)
TestGame = GameMachine.TestCase
