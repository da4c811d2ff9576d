"""Teach an agent to bid with REINFORCE, then measure it against fixed players.

The agent learns the decision that decides a hand's score, the bid, and
borrows the rest (kitty, card play) from :class:`fivehundred.bots.HeuristicPlayer`:
a learner whose own card play is random fails nearly every contract, and
learns only that passing is safest. Its policy is a softmax over pass and the
plain bids; each (trump suit or No Trumps, level) has two weights, a bias and
one for the hand's trick estimate in that strain
(:func:`fivehundred.bots.trick_estimate`), and pass has two, for who holds the
auction. Seats 0 and 2 share the policy and learn against heuristic players and
players who never bid, in turn.

Then each player type takes seats 0 and 2 against each opponent type, on the
same seeded deals, and the script prints what side 0 did, with 95% intervals.
Everything comes from ``--seed``: the same command prints the same figures on
the pure and on the compiled build::

    python examples/train_agent.py                          # the tutorial's figures
    python examples/train_agent.py --train 100 --eval 20    # the docs tests rerun this

docs/tutorials/train-an-agent.md shows both outputs: after a change, run both
and paste them there.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable, Sequence
from typing import Final

import attrs

import fivehundred as fh
from fivehundred.bots import HeuristicPlayer, Player, RandomPlayer, trick_estimate
from fivehundred.bots.tournament import wilson_interval
from fivehundred.calls import CallKind, Strain
from fivehundred.engine import Phase

#: The levels of the plain bids the agent may make (six to ten tricks).
LEVELS: Final = (6, 7, 8, 9, 10)
#: Features of a hand for one strain; see :func:`strain_features`.
FEATURES: Final = 2
#: Where the weights of pass start: who holds the bid (see :func:`pass_features`).
PASS_ROW: Final = 2 * len(LEVELS) * FEATURES
#: Weights: a row of features for each (trump suit or No Trumps, level), then pass's.
WEIGHTS: Final = PASS_ROW + 2
#: Step size of the policy gradient, and the scale of a hand's score change.
LEARNING_RATE: Final = 0.02
POINTS_SCALE: Final = 100.0
#: A hand's actions are bounded: 4 seats bid at most a few rounds, then 40 cards.
MAX_ACTIONS: Final = 200


def strain_features(hand: Sequence[fh.Card], strain: Strain, rules: fh.Rules) -> tuple[float, ...]:
    """1 (a bias), and the tricks ``hand`` should take by itself in ``strain``."""
    return (1.0, trick_estimate(hand, strain, rules))


def pass_features(view: fh.PlayerView) -> tuple[float, ...]:
    """Who holds the auction: (the partner, an opponent); both 0 before any bid."""
    holder = next((seat for seat, call in reversed(view.auction) if call.is_bid), None)
    if holder is None:
        return (0.0, 0.0)
    partner = view.rules.side_of(holder) == view.rules.side_of(view.seat)
    return (float(partner), float(not partner))


def call_features(view: fh.PlayerView, call: fh.Call) -> tuple[int, tuple[float, ...]]:
    """Where a call's weights start, and the features they multiply.

    Each (trump suit or No Trumps, level) of a plain bid has its own weights
    for the strain's :func:`strain_features`; pass has weights for
    :func:`pass_features`.
    """
    if call.strain is None or call.tricks is None:
        return PASS_ROW, pass_features(view)
    kind = 1 if call.strain is Strain.NO_TRUMPS else 0
    start = (kind * len(LEVELS) + LEVELS.index(call.tricks)) * FEATURES
    return start, strain_features(view.hand, call.strain, view.rules)


def choices(view: fh.PlayerView) -> list[fh.Call]:
    """The calls the agent chooses among: pass and the legal plain bids.

    Misère and open misère are left out: their hands are rare, and the
    heuristic player's card play is built for trumps.
    """
    return [
        action
        for action in view.legal_actions
        if isinstance(action, fh.Call)
        and (action.kind is CallKind.PASS or (action.kind is CallKind.BID and action.tricks))
    ]


def logits(
    weights: Sequence[float], features: Sequence[tuple[int, tuple[float, ...]]]
) -> list[float]:
    """The policy's score of each call: its weights times its features."""
    return [
        sum(w * f for w, f in zip(weights[start : start + len(values)], values, strict=True))
        for start, values in features
    ]


def softmax(scores: Sequence[float]) -> list[float]:
    """Probabilities from scores, computed stably."""
    top = max(scores)
    exps = [math.exp(score - top) for score in scores]
    total = sum(exps)
    return [value / total for value in exps]


@attrs.frozen
class Decision:
    """One call the agent made: the features of its choices, the pick and its probabilities."""

    features: tuple[tuple[int, tuple[float, ...]], ...]
    chosen: int
    probabilities: tuple[float, ...]


@attrs.define
class BiddingAgent:
    """A :class:`~fivehundred.bots.Player` that bids from learned weights.

    While ``explore`` it samples its call from the policy and records the
    decision (for :func:`reinforce`); otherwise it takes the most probable
    call. Every other action is the heuristic player's.
    """

    weights: list[float]
    rng: random.Random
    explore: bool = False
    decisions: list[Decision] = attrs.field(factory=list)
    cards: HeuristicPlayer = attrs.field(
        default=attrs.Factory(lambda self: HeuristicPlayer(self.rng), takes_self=True)
    )

    def choose(self, view: fh.PlayerView) -> fh.Action:
        """A call from the policy in the auction, the heuristic player's action after it.

        Raises :class:`~fivehundred.FiveHundredError` when it is not the view's seat's
        turn (the heuristic player's refusal).
        """
        if view.phase is not Phase.BIDDING or not view.my_turn:
            return self.cards.choose(view)
        calls = choices(view)
        features = tuple(call_features(view, call) for call in calls)
        p = softmax(logits(self.weights, features))
        if self.explore:
            chosen = self.rng.choices(range(len(calls)), weights=p)[0]
            self.decisions.append(Decision(features, chosen, tuple(p)))
        else:
            chosen = max(range(len(calls)), key=p.__getitem__)
        return calls[chosen]


def reinforce(weights: list[float], decisions: Sequence[Decision], advantage: float) -> None:
    """REINFORCE: move every decision's log-probability by ``advantage`` times its gradient.

    The gradient of log p(chosen) is the chosen call's features less the
    features of every call weighted by its probability.
    """
    for decision in decisions:
        for index, (item, p) in enumerate(
            zip(decision.features, decision.probabilities, strict=True)
        ):
            start, features = item
            step = LEARNING_RATE * advantage * ((index == decision.chosen) - p)
            for k, value in enumerate(features):
                weights[start + k] += step * value


@attrs.frozen
class Hand:
    """A hand played out: its result, and the seats that made a bid in its auction."""

    result: fh.HandResult
    bidders: frozenset[int]


def play_hand(players: Sequence[Player], seed: int, dealer: int) -> Hand:
    """Deal one hand from ``seed`` and play it to its score; raises if it runs away."""
    state = fh.deal(fh.new_game(dealer=dealer), seed=seed)
    bidders: set[int] = set()
    for _ in range(MAX_ACTIONS):
        if state.phase in (Phase.DEAL, Phase.GAME_OVER):
            assert state.last_hand is not None
            return Hand(state.last_hand, frozenset(bidders))
        seat = state.to_act
        assert seat is not None
        action = players[seat].choose(fh.observe(state, seat))
        if isinstance(action, fh.Call) and action.is_bid:
            bidders.add(seat)
        state = fh.apply(state, action)
    raise fh.FiveHundredError(f"hand {seed} did not end within {MAX_ACTIONS} actions")


class AlwaysPass:
    """Passes in every auction; plays its cards (as a defender) as the heuristic player."""

    def __init__(self, rng: random.Random) -> None:
        self.cards = HeuristicPlayer(rng)

    def choose(self, view: fh.PlayerView) -> fh.Action:
        """Pass, or the heuristic player's action after the auction (or its refusal)."""
        if view.phase is Phase.BIDDING and view.my_turn:
            return fh.PASS
        return self.cards.choose(view)


#: The fixed players, by name: a factory from a random source.
FIXED: Final[dict[str, Callable[[random.Random], Player]]] = {
    "pass": AlwaysPass,
    "random": RandomPlayer,
    "heuristic": HeuristicPlayer,
}


#: The opponents of training, in turn, four hands (one round of dealers) each: heuristic
#: players teach the agent to compete for the auction, players who never bid teach it
#: not to open with a hand that cannot make the contract.
TRAINING_OPPONENTS: Final = ("heuristic", "pass")


def train(hands: int, seed: int) -> list[float]:
    """Weights after ``hands`` hands of REINFORCE against :data:`TRAINING_OPPONENTS`."""
    rng = random.Random(f"train/{seed}")
    weights = [0.0] * WEIGHTS
    baseline = 0.0
    for hand in range(hands):
        against = TRAINING_OPPONENTS[hand // 4 % len(TRAINING_OPPONENTS)]
        agent = BiddingAgent(weights, random.Random(rng.getrandbits(64)), explore=True)
        left, right = (FIXED[against](random.Random(rng.getrandbits(64))) for _ in range(2))
        result = play_hand([agent, left, agent, right], rng.getrandbits(64), hand % 4).result
        reward = result.changes[0] / POINTS_SCALE
        reinforce(weights, agent.decisions, reward - baseline)
        baseline += 0.01 * (reward - baseline)
    return weights


@attrs.frozen
class Tally:
    """What side 0 did over the hands of an evaluation."""

    hands: int
    contracts: int
    made: int
    silent: int  # hands in which side 0 made no bid
    points: tuple[int, ...]


def evaluate(ours: Callable[[random.Random], Player], against: str, hands: int, seed: int) -> Tally:
    """Side 0 (``ours`` at seats 0 and 2) against ``against`` players on seeded deals."""
    rng = random.Random(f"evaluate/{seed}")
    contracts = made = silent = 0
    points = []
    for hand in range(hands):
        deal_seed = rng.getrandbits(64)
        players = [
            (ours if seat % 2 == 0 else FIXED[against])(random.Random(rng.getrandbits(64)))
            for seat in range(4)
        ]
        played = play_hand(players, deal_seed, hand % 4)
        result = played.result
        silent += not played.bidders & {0, 2}
        points.append(result.changes[0])
        if result.contractor is not None and result.contractor % 2 == 0:
            contracts += 1
            made += bool(result.made)
    return Tally(hands, contracts, made, silent, tuple(points))


def mean_interval(values: Sequence[float], z: float = 1.959964) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval (normal approximation).

    Raises :class:`ValueError` for no values.
    """
    n = len(values)
    if not n:
        raise ValueError("a mean needs at least one value; none were given")
    mean = sum(values) / n
    if n < 2:
        return mean, -math.inf, math.inf
    variance = sum((value - mean) ** 2 for value in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def percent(successes: int, trials: int) -> str:
    """``41.2% (38.1-44.3)``: a share with its 95% Wilson interval."""
    if not trials:
        return "-"
    low, high = wilson_interval(successes, trials)
    return f"{100 * successes / trials:5.1f}% ({100 * low:.1f}-{100 * high:.1f})"


def points(values: Sequence[float]) -> str:
    """``+41.2 (+33.1 to +49.3)``: a mean with its 95% interval."""
    mean, low, high = mean_interval(values)
    return f"{mean:+6.1f} ({low:+.1f} to {high:+.1f})"


#: The players of side 0 in the report, in its order.
ROWS: Final = ("always pass", "random", "heuristic", "trained")


def report(weights: list[float], hands: int, seed: int) -> list[str]:
    """The figures of every player type against every opponent type, as lines of text."""
    ours: dict[str, Callable[[random.Random], Player]] = {
        "always pass": AlwaysPass,
        "random": RandomPlayer,
        "heuristic": HeuristicPlayer,
        "trained": lambda rng: BiddingAgent(weights, rng),
    }
    lines = []
    for against in ("random", "heuristic", "pass"):
        tallies = {name: evaluate(ours[name], against, hands, seed) for name in ROWS}
        lines += [
            "",
            f"against {'always pass' if against == 'pass' else against} players,"
            f" {hands} hands (the same deals in every row)",
            f"{'seats 0, 2':<12} {'passed':<20} {'contracts':<20} {'made':<20} points a hand",
        ]
        for name, tally in tallies.items():
            lines.append(
                f"{name:<12} {percent(tally.silent, hands):<20} "
                f"{percent(tally.contracts, hands):<20} "
                f"{percent(tally.made, tally.contracts):<20} {points(tally.points)}"
            )
        trained = tallies["trained"].points
        for name in ("always pass", "heuristic"):
            gain = [a - b for a, b in zip(trained, tallies[name].points, strict=True)]
            lines.append(f"trained less {name}, hand by hand: {points(gain).strip()}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Train, then print the report; ``--help`` lists the budgets."""
    parser = argparse.ArgumentParser(
        prog="python examples/train_agent.py",
        description="Train a bidding agent with REINFORCE and measure it.",
    )
    parser.add_argument("--train", type=int, default=8_000, help="training hands (8000)")
    parser.add_argument("--eval", type=int, default=1_000, help="hands per row (1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of everything (1)")
    args = parser.parse_args(argv)
    if args.train < 0 or args.eval < 2:
        parser.error("--train must be at least 0 and --eval at least 2")
    weights = train(args.train, args.seed)
    print(f"trained {args.train} hands against heuristic and always pass players, seed {args.seed}")
    print("weights: " + " ".join(f"{w:+.2f}" for w in weights))
    print("\n".join(report(weights, args.eval, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
