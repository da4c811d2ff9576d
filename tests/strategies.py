"""Hand-written Hypothesis strategies and seeded game generators for the tests.

Every game here is built only through the public API (``new_game`` → ``deal`` →
``apply`` of an action taken from ``legal_actions``), so every state is
reachable. Games are played under the default ``fh.Rules()`` unless a ``rules=``
is given (any table size, any option: see ``rules_strategies.rules``). The
choices of a game come from a :class:`random.Random` seeded by a value
Hypothesis draws: the same seed always plays the same game, and when
Hypothesis shrinks the number of steps of :func:`game_states` it gets a prefix
of the same game.

Two policies choose the actions:

- ``"uniform"``: any legal action, uniformly. Random bidding climbs the ladder
  fast (huge contracts, open misère), so these games are short — often one hand.
- ``"cautious"``: passes often and bids low (one or two rungs above the standing
  bid, rarely past the 7 level), bids misère over a standing seven, keeps the
  Joker in the kitty exchange, and plays cards with a little sense (the
  contracting side tries to win tricks, a misère contractor tries to lose
  them). Its games last several hands and reach misère, open misère, the Joker
  nomination, thrown-in hands, and both ends of the game (R9.1, R9.2).
  Under other rules it also plays every other phase: sans-kitty bids now and
  then (V-SANS-KITTY), misère as an opening bid only rarely (V-MISERE-ANYTIME),
  any partner call (P5), and the all-pass hand with no contract (V-ALL-PASS),
  where every seat tries to win tricks; the five-player partner helps the
  contractor once the partner call is made.

Under the default rules both policies make exactly the choices they always
made, so a seed plays the same default game as before.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias, cast

from hypothesis import settings
from hypothesis import strategies as st

import fivehundred as fh

__all__ = [
    "MALFORMED",
    "MAX_HANDS",
    "MAX_STEPS",
    "NOT_ACTIONS",
    "POLICIES",
    "Policy",
    "Step",
    "any_actions",
    "choose_action",
    "dealers",
    "examples",
    "game_states",
    "game_steps",
    "malformed_actions",
    "policies",
    "seeds",
    "whole_games",
]

Policy: TypeAlias = Literal["uniform", "cautious"]
#: Every policy, the cautious one first (Hypothesis shrinks towards the first).
POLICIES: Final[tuple[Policy, ...]] = ("cautious", "uniform")
#: A game stops after this many deals even if it is not over (it never gets close).
MAX_HANDS: Final = 200
#: The most steps (deals and actions) :func:`game_states` takes by default.
MAX_STEPS: Final = 400

_DECK: Final = fh.Rules().deck


def examples(n: int) -> int:
    """``n`` examples under the "ci" profile, scaled up by the "thorough" one (conftest.py).

    Tests pass ``max_examples=examples(n)``; a profile with ``max_examples`` M runs
    ``n * M / 100`` examples (at least one).
    """
    return max(1, n * int(settings().max_examples) // 100)


# -- strategies ----------------------------------------------------------------


def seeds() -> st.SearchStrategy[int]:
    """Seeds for ``random.Random`` and ``fh.deal(seed=...)``."""
    return st.integers(min_value=0, max_value=2**32 - 1)


def dealers(rules: fh.Rules | None = None) -> st.SearchStrategy[int]:
    """A first dealer: any seat of the table (the four-player game by default)."""
    players = (rules or fh.Rules()).players
    return st.integers(min_value=0, max_value=players - 1)


def policies() -> st.SearchStrategy[Policy]:
    """A policy for choosing actions (see the module docstring)."""
    return st.sampled_from(POLICIES)


@st.composite
def game_states(
    draw: st.DrawFn,
    *,
    max_steps: int = MAX_STEPS,
    policy: Policy | None = None,
    rules: fh.Rules | st.SearchStrategy[fh.Rules] | None = None,
) -> fh.GameState:
    """A random reachable state: a seeded game stopped after a random number of steps.

    A step is a deal or an action. The game stops early when it is over.
    ``rules`` is the game's ``Rules``, or a strategy to draw them from
    (default: ``fh.Rules()``).
    """
    chosen_rules = draw(rules) if isinstance(rules, st.SearchStrategy) else rules
    dealer = draw(dealers(chosen_rules))
    seed = draw(seeds())
    chosen = draw(policies()) if policy is None else policy
    steps = draw(st.integers(min_value=0, max_value=max_steps))
    state = fh.new_game(chosen_rules, dealer=dealer)
    for count, step in enumerate(
        game_steps(seed, policy=chosen, dealer=dealer, rules=chosen_rules)
    ):
        if count >= steps:
            break
        state = step.after
    return state


#: Cards only some decks hold: 2s and 3s (P5, P6), black 4s (V-45, P5, P6), 11s–13s (P6).
_RARE_CARDS: Final = tuple(fh.parse_cards("2S 3C 4S 4C 11H 12S 13D"))


def any_actions(rules: fh.Rules | None = None) -> st.SearchStrategy[object]:
    """Anything a caller might pass to ``apply``: mostly actions of every kind, legal or not.

    Card plays of every card (some naming a suit), every call on the ladder (and
    sans-kitty ones, which the default rules do not allow), discards of 0–4
    cards (duplicates included), nominations, and objects that are not actions.

    With ``rules``: cards of that deck (and a few of other decks), discards of
    up to one card more than its kitty, and five-player partner calls (P5) of
    any card or any seat, on or off the table.
    """
    deck = _DECK if rules is None else (*rules.deck, *_RARE_CARDS)
    cards = st.sampled_from(deck)
    suits = st.sampled_from(list(fh.Suit))
    calls = st.sampled_from((fh.PASS, *fh.Rules().ladder.calls))
    plays = st.builds(fh.Play, cards, st.none() | suits)
    sans_kitty = st.builds(
        lambda c: fh.Call(c.kind, c.tricks, c.strain, sans_kitty=True),
        st.sampled_from(fh.Rules().ladder.calls),
    )
    most = 4 if rules is None else rules.kitty_size + 1
    discards = st.builds(fh.Discard, st.lists(cards, min_size=0, max_size=most))
    nominations = st.builds(fh.Nominate, st.none() | suits)
    junk = st.sampled_from((*NOT_ACTIONS, *malformed_actions()))
    if rules is None:
        return st.one_of(plays, calls, sans_kitty, discards, nominations, junk)
    partners = st.builds(fh.CallPartner, cards) | st.builds(
        lambda seat: fh.CallPartner(seat=seat), st.integers(min_value=-1, max_value=6)
    )
    return st.one_of(plays, calls, sans_kitty, discards, nominations, partners, junk)


#: Objects that are not actions at all.
NOT_ACTIONS: Final[tuple[object, ...]] = (None, "7H", 42, fh.JOKER, fh.Suit.HEARTS, (fh.PASS,))

#: Action classes given values of the wrong type (what an untyped caller might send).
MALFORMED: Final[tuple[Callable[[], object], ...]] = (
    lambda: fh.Nominate(cast(fh.Suit, 7)),
    lambda: fh.Nominate(cast(fh.Suit, "H")),
    lambda: fh.Nominate(cast(fh.Suit, 3)),  # equal to Nominate(Suit.HEARTS): Suit is an IntEnum
    lambda: fh.Play(fh.JOKER, cast(fh.Suit, 3)),
    lambda: fh.Play(fh.JOKER, cast(fh.Suit, "H")),
    lambda: fh.Play(cast(fh.Card, "7H")),
)


def malformed_actions() -> tuple[object, ...]:
    """The :data:`MALFORMED` objects that the action classes let through construction.

    Refusing a bad value at construction (``TypeError``/``ValueError``) is fine;
    whatever gets through must be refused by ``is_legal``, ``check_action`` and
    ``apply`` alike.
    """
    made = []
    for factory in MALFORMED:
        try:
            made.append(factory())
        except (TypeError, ValueError):
            continue
    return tuple(made)


# -- whole games -----------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One move of a game: a deal (``action is None``) or an action."""

    before: fh.GameState
    action: fh.Action | None
    after: fh.GameState
    #: The seed of the deal when ``action`` is ``None``.
    deal_seed: int | None = None


def game_steps(
    seed: int,
    *,
    policy: Policy = "cautious",
    dealer: int | None = None,
    max_hands: int = MAX_HANDS,
    rules: fh.Rules | None = None,
) -> Iterator[Step]:
    """Play one game from ``seed`` and yield every step, up to the end of the game.

    ``dealer=None`` leaves the first dealer to the random source of the first
    deal (R2.1). The game also stops after ``max_hands`` deals. ``rules``
    defaults to ``fh.Rules()``.
    """
    rng = random.Random(seed)
    state = fh.new_game(rules, dealer=dealer)
    while not state.is_over:
        if state.phase is fh.Phase.DEAL:
            if state.hand_number >= max_hands:
                return
            deal_seed = rng.getrandbits(32)
            after = fh.deal(state, seed=deal_seed)
            yield Step(state, None, after, deal_seed)
        else:
            action = choose_action(state, rng, policy)
            after = fh.apply(state, action)
            yield Step(state, action, after)
        state = after


def whole_games(
    seed: int,
    *,
    policy: Policy = "cautious",
    dealer: int | None = None,
    max_hands: int = MAX_HANDS,
    rules: fh.Rules | None = None,
) -> Iterator[fh.GameState]:
    """Every state of one seeded game, from ``new_game`` to the end of the game."""
    first = True
    for step in game_steps(seed, policy=policy, dealer=dealer, max_hands=max_hands, rules=rules):
        if first:
            yield step.before
            first = False
        yield step.after


# -- policies --------------------------------------------------------------------


def choose_action(state: fh.GameState, rng: random.Random, policy: Policy) -> fh.Action:
    """One legal action of the seat to act, chosen by ``policy``."""
    actions = fh.legal_actions(state)
    if not actions:
        raise ValueError(f"no legal action in {state!r}")
    if policy == "uniform":
        return rng.choice(actions)
    phase = state.phase
    if phase is fh.Phase.BIDDING:
        return _cautious_call(state, rng, actions)
    if phase is fh.Phase.DISCARD:
        return _cautious_discard(state, rng, actions)
    if phase is fh.Phase.PLAY:
        return _cautious_play(state, rng, actions)
    # the nomination (any suit or decline) and the partner call (P5: any card or seat)
    return rng.choice(actions)


def _cautious_call(
    state: fh.GameState, rng: random.Random, actions: Sequence[fh.Action]
) -> fh.Action:
    calls = [a for a in actions if isinstance(a, fh.Call)]
    bids = [c for c in calls if c.is_bid and not c.sans_kitty]
    high = state.high_bid
    # R3.4: over a standing seven (always, in the default game); V-MISERE-ANYTIME: rarely lower
    misere_chance = 0.35 if _is_seven(high) else 0.05
    if fh.MISERE in bids and rng.random() < misere_chance:
        return _maybe_sans_kitty(state, rng, fh.MISERE)
    rare = [c for c in bids if c.kind in (fh.CallKind.OPEN_MISERE, fh.CallKind.BLIND_MISERE)]
    if rare and rng.random() < 0.02:
        return _maybe_sans_kitty(state, rng, rng.choice(rare))
    pass_chance = 0.5 if high is None else 0.7
    trick_bids = [c for c in bids if c.kind is fh.CallKind.BID]
    if not trick_bids or rng.random() < pass_chance:
        return fh.PASS
    low = trick_bids[:2]
    if (low[0].tricks or 0) >= 8 and rng.random() < 0.8:
        return fh.PASS
    return _maybe_sans_kitty(state, rng, rng.choice(low))


def _is_seven(call: fh.Call | None) -> bool:
    return call is not None and call.kind is fh.CallKind.BID and (call.tricks or 0) >= 7


def _maybe_sans_kitty(state: fh.GameState, rng: random.Random, call: fh.Call) -> fh.Call:
    """The bid, or now and then its sans-kitty form when the rules allow it (V-SANS-KITTY).

    Draws nothing from ``rng`` when they do not, so default games are unchanged.
    """
    if state.rules.sans_kitty and rng.random() < 0.3:
        return fh.Call(call.kind, call.tricks, call.strain, sans_kitty=True)
    return call


def _cautious_discard(
    state: fh.GameState, rng: random.Random, actions: Sequence[fh.Action]
) -> fh.Action:
    seat = state.to_act
    assert seat is not None
    pool = [c for c in (*state.hand(seat), *state.kitty) if not c.is_joker]
    if rng.random() < 0.9:
        return fh.Discard(rng.sample(pool, state.rules.kitty_size))
    return rng.choice(actions)


def _cautious_play(
    state: fh.GameState, rng: random.Random, actions: Sequence[fh.Action]
) -> fh.Action:
    plays = [a for a in actions if isinstance(a, fh.Play)]
    contract, contractor, seat = state.contract, state.contractor, state.to_act
    assert seat is not None
    if rng.random() < 0.2:
        return rng.choice(plays)
    if contract is None:  # V-ALL-PASS: no contract, every side plays for its tricks
        winning = [p for p in plays if _wins_so_far(state, None, p)]
        return rng.choice(winning or plays)
    assert contractor is not None
    if contract.is_misere:
        if seat != contractor:
            return rng.choice(plays)
        losing = [p for p in plays if not _wins_so_far(state, contract, p)]
        return rng.choice(losing or plays)
    rules = state.rules
    if rules.side_of(seat) != rules.side_of(contractor) and seat != state.partner:
        return rng.choice(plays)  # a defender (the P5 partner knows it plays with the contractor)
    winning = [p for p in plays if _wins_so_far(state, contract, p)]
    return rng.choice(winning or plays)


def _wins_so_far(state: fh.GameState, contract: fh.Call | None, play: fh.Play) -> bool:
    """Whether ``play`` would be the best card of the trick so far (for the policy only).

    ``contract`` ``None`` is the all-pass hand, played at No Trumps (V-ALL-PASS).
    """
    cards = [card for _, card in state.trick]
    led = state.led_suit if cards else play.suit
    cards.append(play.card)
    strain = fh.Strain.NO_TRUMPS if contract is None else contract
    winner = fh.trick_winner(cards, strain, joker_suit=state.joker_suit, led_suit=led)
    return winner == len(cards) - 1
