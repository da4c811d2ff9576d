"""A Hypothesis state machine that plays games under random ``Rules`` (issue 3).

The companion of ``test_stateful.py`` (which plays the default game against its
full reference model): here each run draws its ``Rules`` — any table size
(P2–P6) and any options (V-…) — and a first dealer, then deals, applies legal
actions (drawn uniformly, or runs of the cautious policy of ``strategies`` so
that games get far), and attempts arbitrary actions: plays of any card (other
decks' cards included), calls, discards of any size, nominations, partner calls
of any card or seat (P5), and objects that are not actions. An attempt must be
legal and succeed, or raise ``IllegalActionError`` with a ``Reason`` and leave
the state unchanged.

Invariants after every rule, with the checks of ``test_properties_variants``:
card conservation, the seat to act, tricks, what each seat sees, scores equal to
the sum of the scored hands' changes, and every transition — deals, the end of
the auction, the kitty, the partner call, and each scored hand against the
independent scorer and end-of-game reference (R8, R9, V-…, P-…).
"""

from __future__ import annotations

import random
from typing import cast

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import fivehundred as fh
from rules_strategies import rules
from strategies import Step, any_actions, choose_action, examples, seeds
from test_properties_variants import (
    HAND_ENDS,
    check_cards,
    check_turn,
    check_variant_state,
    check_variant_step,
    snapshot,
)


class VariantGameMachine(RuleBasedStateMachine):
    """One game of Five Hundred under drawn rules, driven by Hypothesis."""

    def __init__(self) -> None:
        super().__init__()
        self.state = fh.new_game(dealer=0)
        #: Scores rebuilt from the hands scored so far (R8.5).
        self.scores: tuple[int, ...] = (0, 0)
        self.hands_dealt = 0
        self.hands_scored = 0

    # -- moving on ----------------------------------------------------------------

    def _step(self, step: Step) -> None:
        check_variant_step(step)
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

    def start_game(self, chosen: fh.Rules, seed: int, data: st.DataObject) -> None:
        """A new game under the drawn rules, and its first deal (see :func:`machine_for`)."""
        seats = st.integers(min_value=0, max_value=chosen.players - 1)
        dealer = data.draw(st.none() | seats, label="first dealer")
        self.state = fh.new_game(chosen, dealer=dealer)
        self.scores = (0,) * len(chosen.sides)
        check_variant_state(self.state)
        self._step(Step(self.state, None, fh.deal(self.state, seed=seed), seed))
        event(f"{chosen.players} players")

    # Few preconditions: a rule that does not apply checks the refusal instead, so that
    # Hypothesis seldom has to search for an enabled rule (at the end of the game, say).

    @rule(seed=seeds())
    def deal(self, seed: int) -> None:
        """Deal when a deal is due; otherwise ``deal`` is refused and nothing changes."""
        before = self.state
        if before.phase is fh.Phase.DEAL:
            self._step(Step(before, None, fh.deal(before, seed=seed), seed))
            return
        try:
            fh.deal(before, seed=seed)
        except fh.IllegalActionError as err:
            assert err.reason in (fh.Reason.WRONG_PHASE, fh.Reason.GAME_OVER)
        else:
            raise AssertionError(f"deal() accepted in {before.phase}")
        assert self.state == before

    @rule(data=st.data())
    def apply_legal_action(self, data: st.DataObject) -> None:
        actions = fh.legal_actions(self.state)
        if not actions:
            assert self.state.phase in HAND_ENDS
            return
        self._apply(data.draw(st.sampled_from(actions), label="legal action"))

    @rule(seed=seeds(), count=st.integers(min_value=1, max_value=60))
    def play_on(self, seed: int, count: int) -> None:
        """Up to ``count`` actions of the cautious policy (stops at the end of a hand)."""
        rng = random.Random(seed)
        for _ in range(count):
            if not fh.legal_actions(self.state):
                break
            self._apply(choose_action(self.state, rng, "cautious"))
            check_cards(self.state)
            check_turn(self.state)

    @rule(data=st.data())
    def attempt(self, data: st.DataObject) -> None:
        """Any object: legal ⇒ applied; illegal ⇒ IllegalActionError, state unchanged."""
        before = self.state
        action = data.draw(any_actions(before.rules), label="attempt")
        expected = snapshot(before)
        legal = fh.is_legal(before, action)
        assert legal == (action in set(fh.legal_actions(before)))
        if legal:
            self._apply(cast(fh.Action, action))  # is_legal says it is an Action
            return
        try:
            fh.check_action(before, action)
        except fh.IllegalActionError as err:
            reason = err.reason
        else:
            raise AssertionError(f"check_action accepted {action!r}, which is_legal refused")
        try:
            fh.apply(before, cast(fh.Action, action))  # perhaps not an Action at all
        except fh.IllegalActionError as err:
            assert err.reason is reason and str(err)
        else:
            raise AssertionError(f"apply accepted {action!r}, which is_legal refused")
        assert self.state == before and snapshot(before) == expected

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

    # -- invariants -----------------------------------------------------------------

    @invariant()
    def scores_add_up(self) -> None:
        assert self.state.scores == self.scores
        hand = self.state.last_hand
        if hand is None:
            assert self.hands_scored == 0 and set(self.scores) == {0}
        else:
            assert hand.scores == self.state.scores
        assert self.state.hand_number == self.hands_dealt

    @invariant()
    def the_whole_state_is_consistent(self) -> None:
        """Cards, the seat to act, tricks and views (``check_variant_state``)."""
        check_variant_state(self.state)


def machine_for(players: int) -> type[VariantGameMachine]:
    """The machine for one table size, under random options.

    One machine per table size, so that every size gets its share of runs
    (Hypothesis would otherwise favour whatever first made progress).
    """

    class Machine(VariantGameMachine):
        @initialize(chosen=rules(players), seed=seeds(), data=st.data())
        def start(self, chosen: fh.Rules, seed: int, data: st.DataObject) -> None:
            self.start_game(chosen, seed, data)

    Machine.__name__ = Machine.__qualname__ = f"VariantGameMachine{players}"
    Machine.TestCase.settings = settings(
        max_examples=examples(10), stateful_step_count=60, deadline=None
    )
    return Machine


TestTwoPlayers = machine_for(2).TestCase
TestThreePlayers = machine_for(3).TestCase
TestFourPlayers = machine_for(4).TestCase
TestFivePlayers = machine_for(5).TestCase
TestSixPlayers = machine_for(6).TestCase
