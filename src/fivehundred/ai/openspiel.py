"""Five Hundred as an OpenSpiel game: importing this module registers ``python_five_hundred``.

Needs the ``openspiel`` extra (``pip install fivehundred[openspiel]``)::

    import pyspiel
    import fivehundred.ai.openspiel  # registers the game
    game = pyspiel.load_game("python_five_hundred", {"players": 4, "max_hands": 1})

The game:

- **chance**: the deal, card by card. Chance outcome ``p`` is the card at
  position ``p`` of the rules' deck (card order); the ``k``-th card dealt is the
  ``k``-th card of the deck order, and goes where R2.2 deals it
  (:func:`fivehundred.deal` with ``cards=``);
- **actions**: the compact layout of :mod:`fivehundred.ai.encoding`
  (``layout="compact"``): the kitty exchange is ``kitty_size`` single-card decisions;
- **observations**: :mod:`fivehundred.ai.tensors` of the seat's
  :func:`~fivehundred.observe` view (information state: ``perfect_recall``), the
  cards of a discard in progress shown in the ``discards`` section;
- ``resample_from_infostate`` draws from :func:`fivehundred.bots.sample_deal`;
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
from typing import Any, Final, final

import attrs
import numpy as np
import pyspiel

from fivehundred._engine.quoting import expect
from fivehundred._engine.state import GameState
from fivehundred._engine.values import Phase

# the compact layout's own functions, bound once: no layout is resolved per step
from fivehundred.ai._compact import compact_decode, compact_layout, compact_size
from fivehundred.ai._steps import apply_id, legal_ids
from fivehundred.ai.encoding import DiscardCard
from fivehundred.ai.tensors import (
    information_state_layout,
    information_state_string,
    information_state_tensor,
    observation_layout,
    observation_string,
    observation_tensor,
)
from fivehundred.bots import sample_deal
from fivehundred.cards import Card
from fivehundred.engine import deal, new_game
from fivehundred.errors import FiveHundredError
from fivehundred.notation import format_action
from fivehundred.rules import Rules
from fivehundred.scoring import bid_value
from fivehundred.views import PlayerView, observe

__all__ = ["GAME_TYPE", "FiveHundredGame", "FiveHundredObserver", "FiveHundredState", "rules_of"]

_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)

_OPTIONS: Final = {field.name: field.default for field in attrs.fields(Rules)}
_NONE_AS_ZERO: Final = ("team_size", "score_cap")
#: Options that are a text or ``None``: ``""`` stands for ``None`` (pyspiel's parameters
#: have no null, and a parameter's type is its default's).
_NONE_AS_EMPTY: Final = ("deck_id",)

_PARAMETERS: Final[dict[str, Any]] = {
    "preset": "australian",
    "max_hands": 1,
    "returns": "score",
    **{
        name: ("" if name in _NONE_AS_EMPTY else 0) if default is None else default
        for name, default in _OPTIONS.items()
    },
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


@final
class _Setup:
    """What every state of one game shares: its rules and parameters, and the ids of
    its plays. Immutable, so a clone shares it (``deepcopy`` returns it)."""

    __slots__ = ("deck_size", "initial", "max_hands", "plays", "returns_kind", "rules")

    def __init__(self, rules: Rules, max_hands: int, returns_kind: str) -> None:
        self.rules = rules
        self.max_hands = max_hands
        self.returns_kind = returns_kind
        self.plays = compact_layout(rules).plays.start
        self.deck_size = len(rules.deck)
        #: The first moment of every episode: a new game, waiting for its deal.
        self.initial = _Node(self, new_game(rules, dealer=0), (), (), 0)

    def __deepcopy__(self, memo: dict[int, object]) -> _Setup:
        return self  # immutable: a clone shares it

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (_Setup, (self.rules, self.max_hands, self.returns_kind))


@final
class _Node:
    """One moment of an episode: the library state, the discard in progress, the cards
    dealt so far of a deal under way, and the hands dealt in the episode.

    Immutable: an action makes a new node, and a clone shares its node (``deepcopy``
    returns it). What is worked out from it (legal ids, views, strings, tensors, the
    counted deals) is kept in ``cache``, which is dropped when it is pickled.
    """

    __slots__ = ("cache", "dealt", "hands", "pending", "player", "setup", "state")

    def __init__(
        self,
        setup: _Setup,
        state: GameState,
        pending: tuple[Card, ...],
        dealt: tuple[int, ...],
        hands: int,
    ) -> None:
        self.setup = setup
        self.state = state
        self.pending = pending
        self.dealt = dealt
        self.hands = hands
        phase = state.phase
        #: The OpenSpiel player to act: a seat, ``CHANCE`` while dealing or ``TERMINAL``.
        self.player: int
        if phase is Phase.GAME_OVER or (
            phase is Phase.DEAL and hands >= setup.max_hands and not dealt
        ):
            self.player = _TERMINAL
        elif phase is Phase.DEAL:
            self.player = _CHANCE
        else:
            seat = state.to_act
            assert seat is not None
            self.player = seat
        self.cache: dict[object, Any] = {}

    def __deepcopy__(self, memo: dict[int, object]) -> _Node:
        return self  # immutable: a clone shares it

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (_Node, (self.setup, self.state, self.pending, self.dealt, self.hands))


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
        # score_cap limits defence points only (V-CAP): a contract still scores in full
        bound = _hand_bound(rules) * self.max_hands
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
        self.setup = _Setup(rules, self.max_hands, self.returns_kind)

    def new_initial_state(self) -> FiveHundredState:
        """A new game, waiting for the first card of the deal (the dealer is seat 0)."""
        return FiveHundredState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> FiveHundredObserver:
        """The observer: observation, or the information state with ``perfect_recall``.

        Only a player's own view exists (OpenSpiel's default: public information and the
        player's private information), so any other observation type is refused rather than
        answered with the player's hand.
        """
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise FiveHundredError(
                "python_five_hundred observes one player's own view only: "
                "public_info=True with private_info=SINGLE_PLAYER; "
                f"{iig_obs_type.private_info.name} private information "
                f"with public_info={iig_obs_type.public_info} is not supported"
            )
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return FiveHundredObserver(self.rules, perfect, params)


class FiveHundredState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """One state of ``python_five_hundred``: a library state, a discard in progress, the deal.

    Everything it holds is immutable, so ``clone`` shares it rather than copying it, and
    what is worked out from it (legal actions, views, information-state strings and
    tensors, the counted deals of ``resample_from_infostate``) is worked out once.
    """

    def __init__(self, game: FiveHundredGame) -> None:
        super().__init__(game)
        setup: _Setup = game.setup
        #: The only attribute: OpenSpiel's clone deep-copies each, and a node copies as itself.
        self._node = setup.initial

    # -- what the state holds (read-only) -------------------------------------------

    @property
    def state(self) -> GameState:
        """The library state."""
        return self._node.state

    @property
    def pending(self) -> tuple[Card, ...]:
        """The cards of a discard in progress, in the order chosen."""
        return self._node.pending

    @property
    def dealt(self) -> tuple[int, ...]:
        """The deck positions dealt so far of a deal under way."""
        return self._node.dealt

    @property
    def rules(self) -> Rules:
        """The game's rules."""
        return self._node.setup.rules

    @property
    def max_hands(self) -> int:
        """The most hands an episode lasts."""
        return self._node.setup.max_hands

    # -- the OpenSpiel API ---------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` while dealing, ``TERMINAL`` at the end."""
        return self._node.player

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the player to act), as pyspiel's own.

        Answered here for the player to act, so that Python callers (OpenSpiel's Python
        bots) do not go through C++ and back; anything else is pyspiel's answer.
        """
        node = self._node
        if node.player >= 0 and (player is None or player == node.player):
            return list(self._legal_actions(node.player))  # a copy: the caller may change it
        if player is None:
            return pyspiel.State.legal_actions(self)  # type: ignore[no-any-return]  # untyped
        return pyspiel.State.legal_actions(self, player)  # type: ignore[no-any-return]  # untyped

    def _legal_actions(self, player: int) -> list[int]:
        node = self._node
        legal: list[int] | None = node.cache.get("legal")
        if legal is None:
            setup = self._node.setup
            legal = legal_ids(node.state, node.pending, setup.plays, setup.deck_size)
            node.cache["legal"] = legal
        return legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not dealt yet, equally likely."""
        taken = set(self._node.dealt)
        left = [p for p in range(self._node.setup.deck_size) if p not in taken]
        chance = 1.0 / len(left)
        return [(p, chance) for p in left]

    def _apply_action(self, action: int) -> None:
        node = self._node
        state = node.state
        if state.phase is Phase.DEAL:
            dealt = (*node.dealt, int(action))
            deck = self._node.setup.rules.deck
            if len(dealt) == len(deck):
                order = [deck[p] for p in dealt]
                self._node = _Node(node.setup, deal(state, cards=order), (), (), node.hands + 1)
            else:
                self._node = _Node(node.setup, state, (), dealt, node.hands)
            return
        setup = self._node.setup
        state, pending = apply_id(state, int(action), node.pending, setup.plays, setup.deck_size)
        self._node = _Node(setup, state, pending, (), node.hands)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal:{self.rules.deck[action]}"
        decoded = compact_decode(int(action), self.rules)
        if isinstance(decoded, DiscardCard):
            return f"discard {decoded.card}"
        return format_action(decoded)

    def is_terminal(self) -> bool:
        """Whether the episode is over: the game's end, or ``max_hands`` hands played."""
        return self._node.player == _TERMINAL

    def returns(self) -> list[float]:
        """Per player: its side's score change so far (``"score"``), or the game's win."""
        setup = self._node.setup
        rules = setup.rules
        state = self._node.state
        if setup.returns_kind == "win":
            result = state.result
            if result is None:
                return [0.0] * rules.players
            return [
                1.0 if rules.side_of(seat) in result.winners else -1.0
                for seat in range(rules.players)
            ]
        scores = state.scores
        start = setup.initial.state.scores
        return [
            float(scores[rules.side_of(seat)] - start[rules.side_of(seat)])
            for seat in range(rules.players)
        ]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> FiveHundredState:
        """A state drawn uniformly from those ``player_id`` cannot tell from this one.

        The deals consistent with the player's view are counted once per state and
        player (:func:`fivehundred.bots.sample_deals` shares the same count).
        """
        node = self._node
        new: FiveHundredState = self.clone()
        if node.state.phase is Phase.GAME_OVER:
            return new
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        if node.state.phase is Phase.DEAL:
            # mid-deal nobody has seen a card of this deal yet (the hands are given out
            # once the deck is dealt): any cards, as many, are as likely as the true ones
            dealt = tuple(rng.sample(range(node.setup.deck_size), len(node.dealt)))
            new._node = _Node(node.setup, node.state, (), dealt, node.hands)
            return new
        # self.view keeps one view object per state and player, and sample_deal counts the
        # deals of a view object once and keeps them: every later draw for it only draws
        world = sample_deal(self.view(player_id), rng)
        pending = node.pending
        if pending and player_id != node.player:
            # the cards of a discard in progress are the contractor's (R4.1): a whole
            # discard drawn from the drawn world's hand and kitty, whose lowest cards in
            # card order (the order ids are chosen in) are the ones chosen so far
            deck = node.setup.rules.deck
            place = {card: at for at, card in enumerate(deck)}
            pool = [*world.hand(node.player), *world.kitty]
            whole = sorted(rng.sample(pool, node.setup.rules.kitty_size), key=place.__getitem__)
            pending = tuple(whole[: len(pending)])
        drawn = _Node(node.setup, world, pending, (), node.hands)
        # the player's view is the same by construction: so are its strings and tensors, and
        # the legal actions when it is the player to act
        for found, value in node.cache.items():
            if type(found) is tuple and found[-1] == player_id:
                drawn.cache[found] = value
        if player_id == node.player and "legal" in node.cache:
            drawn.cache["legal"] = node.cache["legal"]
        new._node = drawn
        return new

    def view(self, player: int) -> PlayerView:
        """What ``player`` sees of the library state."""
        cache = self._node.cache
        key = ("view", player)
        found: PlayerView | None = cache.get(key)
        if found is None:
            found = cache[key] = observe(self._node.state, player)
        return found

    def __str__(self) -> str:
        node = self._node
        return repr(node.state) + (f" pending {node.pending}" if node.pending else "")


class FiveHundredObserver:
    """The PyObserver of ``python_five_hundred``: :mod:`fivehundred.ai.tensors` of a view.

    A state's tensor and string for a player are worked out once and kept with the state.
    """

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
        cache = state._node.cache  # the observer and the state are one adapter
        key = ("tensor", self.perfect_recall, player)
        kept = cache.get(key)
        if kept is not None:
            self.tensor[:] = kept
            return
        view = state.view(player)
        if self.perfect_recall:
            information_state_tensor(view, out=self.tensor)
        else:
            observation_tensor(view, out=self.tensor)
        if state.pending and view.contractor == player:
            for card in state.pending:
                self.tensor[self.discard_offset + self.positions[card]] = 1.0
        cache[key] = self.tensor.copy()

    def string_from(self, state: FiveHundredState, player: int) -> str:
        """The observation or information-state string of ``player``'s view of ``state``."""
        cache = state._node.cache  # the observer and the state are one adapter
        key = ("string", self.perfect_recall, player)
        text: str | None = cache.get(key)
        if text is not None:
            return text
        view = state.view(player)
        text = information_state_string(view) if self.perfect_recall else observation_string(view)
        if state.pending and view.contractor == player:
            text += "; discarding " + " ".join(map(str, state.pending))
        if state.state.phase is Phase.DEAL and self.perfect_recall:
            text += f"; dealing {len(state.dealt)}"
        cache[key] = text
        return text


pyspiel.register_game(GAME_TYPE, FiveHundredGame)
