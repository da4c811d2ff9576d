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
independent scorer and end-of-game reference (R8, R9, V-…, P-…). What it shares
with the machine of ``test_stateful`` lives in ``machine_base``.
"""

from __future__ import annotations

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, rule

import fivehundred as fh
import test_properties_variants as props
from machine_base import BaseGameMachine, apply_refusal, check_refusal
from rules_strategies import rules
from strategies import Step, any_actions, examples, seeds


class VariantGameMachine(BaseGameMachine):
    """One game of Five Hundred under drawn rules, driven by Hypothesis."""

    def check_step(self, step: Step) -> None:
        props.check_variant_step(step)

    def check_state(self, state: fh.GameState) -> None:
        """Cards, the seat to act, tricks and views (``check_variant_state``)."""
        props.check_variant_state(state)

    def check_cards(self, state: fh.GameState) -> None:
        props.check_cards(state)

    def check_turn(self, state: fh.GameState) -> None:
        props.check_turn(state)

    def start_game(self, chosen: fh.Rules, seed: int, data: st.DataObject) -> None:
        """A new game under the drawn rules, and its first deal (see :func:`machine_for`)."""
        seats = st.integers(min_value=0, max_value=chosen.players - 1)
        dealer = data.draw(st.none() | seats, label="first dealer")
        self.state = fh.new_game(chosen, dealer=dealer)
        self.scores = (0,) * len(chosen.sides)
        props.check_variant_state(self.state)
        self._deal(seed)
        event(f"{chosen.players} players")

    # Few preconditions: a rule that does not apply checks the refusal instead, so that
    # Hypothesis seldom has to search for an enabled rule (at the end of the game, say).

    @rule(seed=seeds())
    def deal(self, seed: int) -> None:
        """Deal when a deal is due; otherwise ``deal`` is refused and nothing changes."""
        if self.state.phase is fh.Phase.DEAL:
            self._deal(seed)
        else:
            self._deal_refused(seed)

    @rule(data=st.data())
    def apply_legal_action(self, data: st.DataObject) -> None:
        actions = fh.legal_actions(self.state)
        if not actions:
            assert self.state.phase in props.HAND_ENDS
            return
        self._apply(data.draw(st.sampled_from(actions), label="legal action"))

    @rule(seed=seeds(), count=st.integers(min_value=1, max_value=60))
    def play_on(self, seed: int, count: int) -> None:
        """Up to ``count`` actions of the cautious policy (stops at the end of a hand)."""
        self._play_on(seed, count)

    @rule(data=st.data())
    def attempt(self, data: st.DataObject) -> None:
        """Any object: legal ⇒ applied; illegal ⇒ IllegalActionError, state unchanged."""
        before = self.state
        action = data.draw(any_actions(before.rules), label="attempt")
        expected = props.snapshot(before)
        if self._applied_if_legal(action):
            return
        reason = check_refusal(before, action)
        assert apply_refusal(before, action) is reason
        assert self.state == before and props.snapshot(before) == expected


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
