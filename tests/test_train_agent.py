"""The pieces of examples/train_agent.py, the tutorial's learning agent.

The whole script runs in ``tests/test_examples.py`` and, at the page's small
budget, in ``tests/test_docs.py`` (whose output must match the page exactly);
these tests check each piece on its own, and that the page's claims quote the
figures the script printed.
"""

from __future__ import annotations

import math
import random
import re
import sys
from pathlib import Path
from typing import Final

import pytest

import fivehundred as fh
from fivehundred.bots import HeuristicPlayer, Player, RandomPlayer, trick_estimate
from fivehundred.calls import CallKind, Strain
from fivehundred.engine import Phase

ROOT: Final = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))
import train_agent as ta  # noqa: E402

PAGE: Final = ROOT / "docs" / "tutorials" / "train-an-agent.md"


def first_view(seed: int = 1) -> fh.PlayerView:
    state = fh.deal(fh.new_game(dealer=3), seed=seed)
    assert state.to_act is not None
    return fh.observe(state, state.to_act)


def test_strain_features_read_the_hand_estimate() -> None:
    hand = fh.parse_cards("Jo JH JD AH KH 10H AS AC 5D 6S")
    hearts = ta.strain_features(hand, Strain.HEARTS, fh.Rules())
    spades = ta.strain_features(hand, Strain.SPADES, fh.Rules())
    assert hearts[0] == spades[0] == 1.0  # the bias
    assert hearts[1] == trick_estimate(hand, Strain.HEARTS, fh.Rules())
    assert hearts[1] > spades[1]  # six hearts with both bowers and the Joker


def test_the_choices_are_pass_and_the_legal_plain_bids_R3_2() -> None:
    view = first_view()
    calls = ta.choices(view)
    assert calls[0] == fh.PASS
    assert all(call in view.legal_actions for call in calls)
    assert all(call.kind in (CallKind.PASS, CallKind.BID) for call in calls)
    bids = [call for call in view.legal_actions if isinstance(call, fh.Call) and call.is_bid]
    assert len(calls) == 1 + sum(1 for call in bids if call.kind is CallKind.BID)
    assert len(calls) == 26  # pass and 6S..10NT: no misère of either kind


def test_every_call_has_its_own_weights() -> None:
    view = first_view()
    starts: set[int] = set()
    for call in ta.choices(view):
        start, features = ta.call_features(view, call)
        assert start >= 0 and start + len(features) <= ta.WEIGHTS
        starts.add(start)
    assert len(starts) == 2 * len(ta.LEVELS) + 1  # (suit or NT, level), and pass
    assert ta.call_features(view, fh.PASS) == (ta.PASS_ROW, (0.0, 0.0))


def test_pass_features_say_who_holds_the_bid_R3_8() -> None:
    state = fh.deal(fh.new_game(dealer=3), seed=1)  # seat 0 calls first (R3.1)
    state = fh.apply(state, fh.parse_call("6S"))  # seat 0 bids
    assert ta.pass_features(fh.observe(state, 1)) == (0.0, 1.0)  # an opponent holds it
    state = fh.apply(state, fh.PASS)  # seat 1
    assert ta.pass_features(fh.observe(state, 2)) == (1.0, 0.0)  # the partner holds it


def test_softmax_is_a_distribution_even_for_large_scores() -> None:
    p = ta.softmax([1000.0, 999.0, -1000.0])
    assert math.isclose(sum(p), 1.0)
    assert p[0] > p[1] > p[2] >= 0.0
    assert ta.softmax([0.0, 0.0]) == [0.5, 0.5]


def decision() -> ta.Decision:
    view = first_view()
    features = tuple(ta.call_features(view, call) for call in ta.choices(view))
    p = ta.softmax(ta.logits([0.0] * ta.WEIGHTS, features))
    return ta.Decision(features, chosen=3, probabilities=tuple(p))


@pytest.mark.parametrize("advantage", [1.0, -1.0])
def test_reinforce_moves_the_chosen_call_with_the_advantage(advantage: float) -> None:
    taken = decision()
    weights = [0.0] * ta.WEIGHTS
    ta.reinforce(weights, [taken], advantage)
    after = ta.softmax(ta.logits(weights, taken.features))
    before = taken.probabilities[taken.chosen]
    assert (after[taken.chosen] - before) * advantage > 0
    ta.reinforce(weights, [taken], 0.0)  # no advantage, no change
    assert ta.softmax(ta.logits(weights, taken.features)) == after


def test_the_greedy_agent_takes_its_most_probable_call() -> None:
    view = first_view()
    weights = [0.0] * ta.WEIGHTS
    assert ta.BiddingAgent(weights, random.Random(1)).choose(view) == fh.PASS  # ties: first
    start, _ = ta.call_features(view, fh.parse_call("7NT"))
    weights[start] = 5.0  # the bias of seven No Trumps
    agent = ta.BiddingAgent(weights, random.Random(1))
    assert agent.choose(view) == fh.parse_call("7NT")
    assert agent.decisions == []  # only exploring agents record


def test_the_exploring_agent_samples_and_records() -> None:
    view = first_view()
    agent = ta.BiddingAgent([0.0] * ta.WEIGHTS, random.Random(3), explore=True)
    picks = {agent.choose(view) for _ in range(60)}
    assert len(picks) > 10  # uniform over 26 calls at zero weights
    assert len(agent.decisions) == 60
    assert all(math.isclose(sum(d.probabilities), 1.0) for d in agent.decisions)


def test_after_the_auction_the_agent_plays_as_the_heuristic_player() -> None:
    state = fh.deal(fh.new_game(dealer=3), seed=2)
    agent = ta.BiddingAgent([0.0] * ta.WEIGHTS, random.Random(1))
    heuristic = HeuristicPlayer(random.Random(1))
    for _ in range(ta.MAX_ACTIONS):
        if state.phase is Phase.DEAL:
            break
        assert state.to_act is not None
        view = fh.observe(state, state.to_act)
        action = heuristic.choose(view)
        if state.phase is not Phase.BIDDING:
            assert agent.choose(view) == action
        state = fh.apply(state, action)
    assert state.phase is Phase.DEAL


def test_play_hand_scores_one_hand_and_names_the_bidders_R8_2() -> None:
    def players() -> list[Player]:
        return [ta.AlwaysPass(random.Random(1)), RandomPlayer(random.Random(1))] * 2

    hand = ta.play_hand(players(), seed=5, dealer=0)
    assert not hand.bidders & {0, 2}  # they always pass
    result = hand.result
    if result.contractor is None:
        assert result.changes == (0, 0)  # thrown in (R3.9)
    else:
        assert result.contractor % 2 == 1 and hand.bidders & {1, 3}
        assert sum(result.tricks) == 10
    assert ta.play_hand(players(), seed=5, dealer=0) == hand  # seeded


def test_always_pass_only_passes_R3_9() -> None:
    player = ta.AlwaysPass(random.Random(1))
    assert player.choose(first_view()) == fh.PASS
    hand = ta.play_hand([ta.AlwaysPass(random.Random(1)) for _ in range(4)], seed=1, dealer=0)
    assert hand.result.contract is None and hand.result.changes == (0, 0)  # thrown in


def test_training_is_seeded_and_learns() -> None:
    assert set(ta.TRAINING_OPPONENTS) <= set(ta.FIXED)
    first = ta.train(12, seed=4)
    assert first == ta.train(12, seed=4)
    assert first != [0.0] * ta.WEIGHTS
    assert ta.train(12, seed=5) != first
    assert ta.train(0, seed=4) == [0.0] * ta.WEIGHTS


def test_evaluation_deals_the_same_hands_to_every_player() -> None:
    passing = ta.evaluate(ta.AlwaysPass, "random", 6, seed=2)
    again = ta.evaluate(ta.AlwaysPass, "random", 6, seed=2)
    assert passing == again
    assert passing.silent == 6 and passing.contracts == passing.made == 0
    heuristic = ta.evaluate(HeuristicPlayer, "random", 6, seed=2)
    assert heuristic.hands == passing.hands == len(heuristic.points) == 6


def test_intervals() -> None:
    mean, low, high = ta.mean_interval([10.0, 20.0, 30.0])
    assert mean == 20.0 and low < 20.0 < high
    assert math.isclose(high - mean, 1.959964 * 10.0 / math.sqrt(3))
    assert ta.percent(0, 0) == "-"
    assert ta.percent(5, 10).startswith(" 50.0% (")
    assert ta.points([1.0, 3.0]).startswith("  +2.0 (")


def test_a_mean_of_nothing_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one value"):
        ta.mean_interval([])


def test_the_players_refuse_a_view_that_is_not_their_turn() -> None:
    state = fh.deal(fh.new_game(dealer=3), seed=1)  # seat 0 calls first (R3.1)
    view = fh.observe(state, 1)
    agent = ta.BiddingAgent([0.0] * ta.WEIGHTS, random.Random(1))
    for player in (agent, ta.AlwaysPass(random.Random(1))):
        with pytest.raises(fh.FiveHundredError, match="not its turn"):
            player.choose(view)


def test_bad_budgets_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        ta.main(["--eval", "1"])
    assert stop.value.code == 2
    assert "--eval at least 2" in capsys.readouterr().err


# -- the page quotes the script ---------------------------------------------------------


def page_output() -> str:
    """The runs' output as the page shows it: each ```text block that starts with the
    script's command (the full run, and the longer runs after the verdict)."""
    text = PAGE.read_text(encoding="utf-8")
    found = re.findall(r"^```text\n(\$ python examples/train_agent\.py.*?)^```", text, re.S | re.M)
    assert found, "the page shows the output of python examples/train_agent.py"
    return "".join(found)


def test_the_page_quotes_figures_the_script_printed() -> None:
    """Every figure with a decimal in the page's verdict appears in the output it shows."""
    text = PAGE.read_text(encoding="utf-8")
    verdict = text.split("<!-- verdict -->")[1].split("\n## ")[0]  # up to the next section
    figures = re.findall(r"[+-]?\d+\.\d", verdict)
    assert figures, "the verdict quotes the figures"
    output = page_output()
    missing = [figure for figure in figures if figure not in output]
    assert not missing, missing
