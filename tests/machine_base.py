"""What the Hypothesis state machines of ``test_stateful`` and ``test_stateful_variants`` share.

:class:`BaseGameMachine` keeps the game being played, the scores rebuilt from the
hands scored so far (R8.5) and the counts of hands dealt and scored. It moves on
through :meth:`~BaseGameMachine._step`, which first runs the machine's checks of
the transition (:meth:`~BaseGameMachine.check_step`), and holds the rule and the
invariants that are the same under any rules: a card the seat to act holds is
legal exactly when it follows the play rules, the scores add up, and the whole
state is consistent (:meth:`~BaseGameMachine.check_state`). Each machine says
which checks it runs by overriding the ``check_…`` methods.
"""

from __future__ import annotations

import random
from typing import Final, cast

from hypothesis import event
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import fivehundred as fh
from strategies import Step, choose_action

_HAND_ENDS: Final = frozenset({fh.Phase.DEAL, fh.Phase.GAME_OVER})


def check_refusal(state: fh.GameState, action: object) -> fh.Reason:
    """The reason ``check_action`` gives for refusing ``action`` (it must refuse it)."""
    try:
        fh.check_action(state, action)
    except fh.IllegalActionError as err:
        assert isinstance(err.reason, fh.Reason) and str(err)
        return err.reason
    raise AssertionError(f"check_action accepted {action!r}, which is_legal refused")


def apply_refusal(state: fh.GameState, action: object) -> fh.Reason:
    """The reason ``apply`` gives for refusing ``action`` (it must refuse it)."""
    try:
        fh.apply(state, cast(fh.Action, action))  # perhaps not an Action at all
    except fh.IllegalActionError as err:
        assert isinstance(err.reason, fh.Reason) and str(err)
        return err.reason
    raise AssertionError(f"apply accepted {action!r}, which is_legal refused")


class BaseGameMachine(RuleBasedStateMachine):
    """One game of Five Hundred, driven by Hypothesis; subclasses add the checks."""

    def __init__(self) -> None:
        super().__init__()
        self.state = fh.new_game(dealer=0)
        #: Scores rebuilt from the hands scored so far (R8.5).
        self.scores: tuple[int, ...] = (0, 0)
        self.hands_dealt = 0
        self.hands_scored = 0

    # -- the checks each machine runs ---------------------------------------------

    def check_step(self, step: Step) -> None:
        """The checks of one transition."""
        raise NotImplementedError

    def check_state(self, state: fh.GameState) -> None:
        """The checks of one state."""
        raise NotImplementedError

    def check_cards(self, state: fh.GameState) -> None:
        """Every card in exactly one place."""
        raise NotImplementedError

    def check_turn(self, state: fh.GameState) -> None:
        """A legal action exists exactly while a seat is to act."""
        raise NotImplementedError

    # -- moving on ----------------------------------------------------------------

    def _step(self, step: Step) -> None:
        self.check_step(step)
        if step.action is None:
            self.hands_dealt += 1
        elif step.after.phase in _HAND_ENDS:
            hand = step.after.last_hand
            assert hand is not None
            self.scores = tuple(s + d for s, d in zip(self.scores, hand.changes, strict=True))
            self.hands_scored += 1
        self.state = step.after

    def _apply(self, action: fh.Action) -> None:
        before = self.state
        self._step(Step(before, action, fh.apply(before, action)))

    def _deal(self, seed: int) -> None:
        before = self.state
        self._step(Step(before, None, fh.deal(before, seed=seed), seed))

    def _deal_refused(self, seed: int) -> None:
        """``deal`` out of turn is refused, and nothing changes."""
        before = self.state
        try:
            fh.deal(before, seed=seed)
        except fh.IllegalActionError as err:
            assert err.reason in (fh.Reason.WRONG_PHASE, fh.Reason.GAME_OVER)
        else:
            raise AssertionError(f"deal() accepted in {before.phase}")
        assert self.state == before

    def _play_on(self, seed: int, count: int) -> None:
        """Up to ``count`` actions of the cautious policy (stops at the end of a hand)."""
        rng = random.Random(seed)
        for _ in range(count):
            if not fh.legal_actions(self.state):
                break
            self._apply(choose_action(self.state, rng, "cautious"))
            self.check_cards(self.state)
            self.check_turn(self.state)

    def _applied_if_legal(self, action: object) -> bool:
        """Apply ``action`` if ``is_legal`` (which must agree with ``legal_actions``) says so."""
        legal = fh.is_legal(self.state, action)
        assert legal == (action in set(fh.legal_actions(self.state)))
        if legal:
            self._apply(cast(fh.Action, action))  # is_legal says it is an Action
        return legal

    # -- rules --------------------------------------------------------------------

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
        reason = check_refusal(before, action)
        assert reason in (
            fh.Reason.MUST_FOLLOW_SUIT,
            fh.Reason.MUST_PLAY_JOKER,
            fh.Reason.JOKER_SUIT_REQUIRED,
            fh.Reason.JOKER_LEAD_TOO_EARLY,
        ), reason
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
            assert self.hands_scored == 0
            assert self.scores == (0,) * len(self.state.rules.sides)
        else:
            assert hand.scores == self.state.scores
        assert self.state.hand_number == self.hands_dealt

    @invariant()
    def the_whole_state_is_consistent(self) -> None:
        """Everything :meth:`check_state` checks."""
        self.check_state(self.state)
