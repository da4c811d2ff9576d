"""Five Hundred as an OpenSpiel game: importing this module registers ``python_five_hundred``.

Needs the ``openspiel`` extra (``pip install fivehundred[openspiel]``)::

    import pyspiel
    import fivehundred.openspiel  # registers the game
    game = pyspiel.load_game("python_five_hundred", {"players": 4, "max_hands": 1})

The game:

- **chance**: the deal, card by card. Chance outcome ``p`` is the card at
  position ``p`` of the rules' deck (card order); the ``k``-th card dealt is the
  ``k``-th card of the deck order, and goes where R2.2 deals it
  (:func:`fivehundred.deal` with ``cards=``);
- **actions**: the compact layout of :mod:`fivehundred.encoding`
  (``layout="compact"``): the kitty exchange is ``kitty_size`` single-card decisions;
- **observations**: :mod:`fivehundred.tensors` of the seat's
  :func:`~fivehundred.observe` view (information state: ``perfect_recall``), the
  cards of a discard in progress shown in the ``discards`` section;
- ``resample_from_infostate`` draws from :func:`fivehundred.search.sample_deal`;
- **returns**: parameter ``returns``: ``"score"`` (each player's side's score
  change over the episode, the default) or ``"win"`` (1 for the winners of a
  finished game, -1 for the others, 0 for an unfinished one);
- an episode is at most ``max_hands`` hands (default 1), or the game's end.

Parameters: ``preset`` (``"australian"`` or ``"american"``), ``max_hands``,
``returns``, and every :class:`~fivehundred.Rules` option by its name
(``team_size`` and ``score_cap`` take 0 for their default ``None``). An option left
at its default value leaves the preset's choice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

import attrs
import numpy as np
import pyspiel

# the compact layout's own functions, bound once: no layout is resolved per step
from fivehundred._compact import compact_apply, compact_decode, compact_mask, compact_size
from fivehundred._quoting import expect
from fivehundred.cards import Card
from fivehundred.encoding import DiscardCard
from fivehundred.engine import deal, new_game
from fivehundred.errors import FiveHundredError
from fivehundred.notation import format_action
from fivehundred.rules import Rules
from fivehundred.scoring import bid_value
from fivehundred.search import sample_deal
from fivehundred.state import GameState, Phase
from fivehundred.tensors import (
    information_state_layout,
    information_state_string,
    information_state_tensor,
    observation_layout,
    observation_string,
    observation_tensor,
)
from fivehundred.views import PlayerView, observe

__all__ = ["GAME_TYPE", "FiveHundredGame", "FiveHundredObserver", "FiveHundredState", "rules_of"]

_OPTIONS: Final = {field.name: field.default for field in attrs.fields(Rules)}
_NONE_AS_ZERO: Final = ("team_size", "score_cap")

_PARAMETERS: Final[dict[str, Any]] = {
    "preset": "australian",
    "max_hands": 1,
    "returns": "score",
    **{name: (0 if default is None else default) for name, default in _OPTIONS.items()},
}

GAME_TYPE: Final = pyspiel.GameType(
    short_name="python_five_hundred",
    long_name="Python Five Hundred",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


def rules_of(params: dict[str, Any]) -> Rules:
    """The :class:`~fivehundred.Rules` of a parameter mapping of this game.

    >>> rules_of({"players": 5, "preset": "american"}).single_round
    True

    Raises :class:`~fivehundred.FiveHundredTypeError` for anything but a mapping.
    """
    expect(params, Mapping, "a mapping of game parameters")
    options: dict[str, Any] = {
        name: (None if name in _NONE_AS_ZERO and value == 0 else value)
        for name, value in params.items()
        if name in _OPTIONS and value != _PARAMETERS[name]
    }
    preset = params.get("preset", "australian")
    if preset == "american":
        return Rules.american(**options)
    if preset != "australian":
        raise FiveHundredError(f"unknown preset {preset!r}: australian or american")
    return Rules(**options)


def _hand_bound(rules: Rules) -> int:
    """The largest score change of one side in one hand (R8)."""
    best = max(bid_value(call) for call in rules.ladder.calls)
    return max(best, 250 if rules.slam_bonus else 0, rules.trick_points * rules.hand_size)


def _max_auction(rules: Rules) -> int:
    players = rules.players
    rungs = len(rules.ladder.calls)
    if rules.single_round:
        return players
    if rules.rebid:
        return (rungs + 1) * players
    return rungs + 2 * players


class FiveHundredGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """The ``python_five_hundred`` game for one set of parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        expect(params, (Mapping, type(None)), "a mapping of game parameters, or None")
        merged = {**_PARAMETERS, **(params or {})}
        self.rules = rules_of(merged)
        self.max_hands = int(merged["max_hands"])
        if self.max_hands < 1:
            raise FiveHundredError("max_hands must be at least 1")
        self.returns_kind = str(merged["returns"])
        if self.returns_kind not in ("score", "win"):
            raise FiveHundredError("returns must be 'score' or 'win'")
        rules = self.rules
        bound = _hand_bound(rules) * self.max_hands
        if rules.score_cap is not None:
            bound = min(bound, abs(rules.score_cap) + abs(rules.losing_score))
        per_hand = (
            len(rules.deck)
            + _max_auction(rules)
            + rules.kitty_size
            + 2
            + rules.players * rules.hand_size
        )
        self.hand_length = per_hand
        win = self.returns_kind == "win"
        info = pyspiel.GameInfo(
            num_distinct_actions=compact_size(rules),
            max_chance_outcomes=len(rules.deck),
            num_players=rules.players,
            min_utility=-1.0 if win else float(-bound),
            max_utility=1.0 if win else float(bound),
            utility_sum=None,
            max_game_length=per_hand * self.max_hands,
        )
        super().__init__(GAME_TYPE, info, merged)

    def new_initial_state(self) -> FiveHundredState:
        """A new game, waiting for the first card of the deal (the dealer is seat 0)."""
        return FiveHundredState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> FiveHundredObserver:
        """The observer: observation, or the information state with ``perfect_recall``."""
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return FiveHundredObserver(self.rules, perfect, params)


class FiveHundredState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """One state of ``python_five_hundred``: a library state, a discard in progress, the deal."""

    def __init__(self, game: FiveHundredGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.max_hands = game.max_hands
        self.returns_kind = game.returns_kind
        self.state: GameState = new_game(game.rules, dealer=0)
        self.pending: tuple[Card, ...] = ()
        self.dealt: list[int] = []
        self.hands = 0
        self.start_scores = self.state.scores

    # -- the OpenSpiel API ---------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` while dealing, ``TERMINAL`` at the end."""
        if self._is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.state.phase is Phase.DEAL:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.state.to_act
        assert seat is not None
        return seat

    def _is_over(self) -> bool:
        phase = self.state.phase
        return phase is Phase.GAME_OVER or (
            phase is Phase.DEAL and self.hands >= self.max_hands and not self.dealt
        )

    def _legal_actions(self, player: int) -> list[int]:
        mask = compact_mask(self.state, self.pending)
        return [i for i, legal in enumerate(mask) if legal]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not dealt yet, equally likely."""
        taken = set(self.dealt)
        left = [p for p in range(len(self.rules.deck)) if p not in taken]
        chance = 1.0 / len(left)
        return [(p, chance) for p in left]

    def _apply_action(self, action: int) -> None:
        if self.state.phase is Phase.DEAL:
            self.dealt.append(action)
            deck = self.rules.deck
            if len(self.dealt) == len(deck):
                order = [deck[p] for p in self.dealt]
                self.state = deal(self.state, cards=order)
                self.dealt = []
                self.hands += 1
            return
        self.state, self.pending = compact_apply(self.state, int(action), self.pending)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal:{self.rules.deck[action]}"
        decoded = compact_decode(int(action), self.rules)
        if isinstance(decoded, DiscardCard):
            return f"discard {decoded.card}"
        return format_action(decoded)

    def is_terminal(self) -> bool:
        """Whether the episode is over: the game's end, or ``max_hands`` hands played."""
        return self._is_over()

    def returns(self) -> list[float]:
        """Per player: its side's score change so far (``"score"``), or the game's win."""
        rules = self.rules
        if self.returns_kind == "win":
            result = self.state.result
            if result is None:
                return [0.0] * rules.players
            return [
                1.0 if rules.side_of(seat) in result.winners else -1.0
                for seat in range(rules.players)
            ]
        scores = self.state.scores
        return [
            float(scores[rules.side_of(seat)] - self.start_scores[rules.side_of(seat)])
            for seat in range(rules.players)
        ]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> FiveHundredState:
        """A state drawn uniformly from those ``player_id`` cannot tell from this one."""
        if self.state.phase in (Phase.DEAL, Phase.GAME_OVER):
            return self.clone()  # type: ignore[no-any-return]  # pyspiel is untyped
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        new = self.clone()
        new.state = sample_deal(self.view(player_id), rng)
        return new  # type: ignore[no-any-return]  # pyspiel is untyped

    def view(self, player: int) -> PlayerView:
        """What ``player`` sees of the library state."""
        return observe(self.state, player)

    def __str__(self) -> str:
        return repr(self.state) + (f" pending {self.pending}" if self.pending else "")


class FiveHundredObserver:
    """The PyObserver of ``python_five_hundred``: :mod:`fivehundred.tensors` of a view."""

    def __init__(self, rules: Rules, perfect_recall: bool, params: dict[str, Any] | None) -> None:
        if params:
            raise FiveHundredError(f"observation parameters are not supported; passed {params}")
        self.perfect_recall = perfect_recall
        layout = information_state_layout(rules) if perfect_recall else observation_layout(rules)
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {
            name: self.tensor[offset : offset + int(np.prod(shape))].reshape(shape)
            for name, (offset, shape) in layout.sections.items()
        }
        self.discard_offset = layout.sections["discards"][0]
        self.positions = {card: p for p, card in enumerate(rules.deck)}

    def set_from(self, state: FiveHundredState, player: int) -> None:
        """Fill ``tensor`` from ``player``'s view of ``state``."""
        view = state.view(player)
        if self.perfect_recall:
            information_state_tensor(view, out=self.tensor)
        else:
            observation_tensor(view, out=self.tensor)
        if state.pending and view.contractor == player:
            for card in state.pending:
                self.tensor[self.discard_offset + self.positions[card]] = 1.0

    def string_from(self, state: FiveHundredState, player: int) -> str:
        """The observation or information-state string of ``player``'s view of ``state``."""
        view = state.view(player)
        text = information_state_string(view) if self.perfect_recall else observation_string(view)
        if state.pending and view.contractor == player:
            text += "; discarding " + " ".join(map(str, state.pending))
        if state.state.phase is Phase.DEAL and self.perfect_recall:
            text += f"; dealing {len(state.dealt)}"
        return text


pyspiel.register_game(GAME_TYPE, FiveHundredGame)
