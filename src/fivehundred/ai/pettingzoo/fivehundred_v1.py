"""Five Hundred as a PettingZoo ``AECEnv``, version 1 (needs the ``pettingzoo`` extra).

Made as PettingZoo's classic card games are (``leduc_holdem_v4``,
``texas_holdem_v4``): :func:`raw_env` is the environment itself, and
:func:`env` wraps it the usual way.

>>> from fivehundred.ai.pettingzoo import fivehundred_v1
>>> table = fivehundred_v1.env(players=4)
>>> table.reset(seed=1)
>>> obs, reward, termination, truncation, info = table.last()
>>> sorted(obs), obs["action_mask"].shape, table.metadata["name"]
(['action_mask', 'observation'], (124,), 'fivehundred_v1')

``raw_env(**options)`` takes the :class:`~fivehundred.Rules` options by name
(as :func:`fivehundred.records.rules_from_options` reads them), and:

- ``render_mode``: ``"human"`` (each step prints the table), ``"ansi"``
  (``render()`` returns it as text) or ``None``;
- ``reward``: ``"points"`` (the default), each agent's side's score change at
  the end of each hand (R8); or ``"game"``, +1 to every agent of a side that
  wins the game and -1 to every other agent, at its end (R9);
- ``max_hands``: the most hands of one episode. ``None`` (the default) is one
  hand with ``reward="points"`` and 300 hands (``GAME_HANDS``, as many as a match
  of :mod:`fivehundred.bots.tournament` allows a game) with ``reward="game"``: agents
  that never bid throw every hand in and would never end the game. An
  episode also ends with the game. Reaching ``max_hands`` terminates the agents
  under ``"points"`` (the episode is those hands) and truncates them under
  ``"game"`` (the game was cut short, and no one gets its reward).

There is no ``max_cycles``: as in the classic environments, every episode ends
by itself (a hand has at most a few dozen turns a seat), and cutting a hand
short would leave its reward unscored.

Agents ``player_0`` … ``player_{n-1}`` are the seats; actions are the compact
ids (:mod:`fivehundred.ai.encoding`, ``layout="compact"``); observations are
``{"observation": Box, "action_mask": Box}``: the observation tensor of the
agent's own view (:mod:`fivehundred.ai.tensors`, a discard in progress shown in
the ``discards`` section), and the legal ids, all zeros for an agent whose turn
it is not, as in the classic environments.
"""

from __future__ import annotations

import math
import random
from typing import Any, ClassVar, Final

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import (
    AssertOutOfBoundsWrapper,
    OrderEnforcingWrapper,
    TerminateIllegalWrapper,
)

from fivehundred._engine.quoting import expect
from fivehundred._engine.state import GameState
from fivehundred._engine.values import Phase

# the compact layout's own functions, bound once: no layout is resolved per step
from fivehundred.ai._compact import compact_apply, compact_mask, compact_size
from fivehundred.ai.tensors import observation_layout, observation_string, observation_tensor
from fivehundred.cards import Card
from fivehundred.engine import deal, new_game
from fivehundred.errors import FiveHundredError, FiveHundredTypeError, IllegalActionError, Reason
from fivehundred.records import rules_from_options
from fivehundred.rules import Rules
from fivehundred.views import observe

__all__ = ["FiveHundredEnv", "env", "raw_env"]

#: The values of ``reward=``: points per hand, or +-1 for the game.
REWARDS: Final = ("points", "game")
#: The values of ``render_mode=`` besides ``None``.
RENDER_MODES: Final = ("human", "ansi")
#: The default ``max_hands`` under ``reward="game"``: a whole game, but not an endless one
#: (four agents that always pass throw in hand after hand, and no score ever moves).
GAME_HANDS: Final = 300


def env(*, illegal_reward: float | None = -1.0, **options: Any) -> AECEnv:
    """A new table, wrapped as PettingZoo's classic environments are.

    ``options`` are those of :func:`raw_env`. The wrappers, innermost first:

    - ``TerminateIllegalWrapper(illegal_reward=illegal_reward)``: an action that
      the mask does not allow ends the episode for every agent, with
      ``illegal_reward`` for the offender and 0 for the others (PettingZoo warns
      about the move). ``illegal_reward=None`` leaves this wrapper out: an illegal
      action then raises :class:`~fivehundred.IllegalActionError` and changes
      nothing, so the agent may try again;
    - ``AssertOutOfBoundsWrapper``: an action that is not an id of the action
      space is refused before it reaches the game, with a sentence: ``None`` for
      an agent still in the game and a non-integer raise
      :class:`~fivehundred.FiveHundredTypeError`, an integer out of range
      :class:`~fivehundred.IllegalActionError` (``Reason.NOT_AN_ACTION``);
    - ``OrderEnforcingWrapper``: ``step``, ``observe``, ``last``, ``render``,
      ``state`` and ``agent_iter`` before ``reset()`` raise PettingZoo's
      ``AssertionError`` ("reset() needs to be called before step.").

    Points per hand run to hundreds (a lost 10 No Trumps is -520), so with
    ``reward="points"`` a larger ``illegal_reward`` (such as -1000) makes an
    illegal action cost more than any hand.

    >>> table = env(illegal_reward=-1000.0, reward="game")
    >>> table.reset(seed=2)
    >>> table.step(999)
    Traceback (most recent call last):
    ...
    fivehundred.errors.IllegalActionError: 999 is not an action id: ids are 0 to 123 (Discrete(124))

    Raises :class:`~fivehundred.FiveHundredTypeError` for an ``illegal_reward``
    that is not a number, :class:`~fivehundred.FiveHundredError` for one that is
    not finite, and what :func:`raw_env` raises.
    """
    expect(illegal_reward, (int, float, type(None)), "a reward (a number), or None")
    if illegal_reward is not None and not math.isfinite(illegal_reward):
        raise FiveHundredError(f"illegal_reward must be a finite number, not {illegal_reward}")
    table: AECEnv = FiveHundredEnv(**options)
    if illegal_reward is not None:
        table = TerminateIllegalWrapper(table, illegal_reward=float(illegal_reward))
    return _OrderEnforcing(_ActionBounds(table))


class FiveHundredEnv(AECEnv, EzPickle):  # type: ignore[misc]  # pettingzoo is untyped
    """One table of Five Hundred, turn by turn (agent-environment cycle); also :func:`raw_env`.

    Unwrapped: an illegal action raises :class:`~fivehundred.IllegalActionError`
    and changes nothing (not the game, not a pending reward); ``step``,
    ``observe``, ``last``, ``render`` and :attr:`game_state` before ``reset()``
    raise :class:`~fivehundred.FiveHundredError` saying to call it.
    ``state()``, PettingZoo's global state, is not offered (it raises
    ``NotImplementedError``, as in the classic environments): the game itself
    is :attr:`game_state`.

    >>> table = FiveHundredEnv(players=3, reward="game")
    >>> table.observe("player_0")
    Traceback (most recent call last):
    ...
    fivehundred.errors.FiveHundredError: call reset() before observe(): the table has no game yet
    >>> table.reset(seed=1)
    >>> table.max_hands, table.game_state.rules.players
    (300, 3)

    Raises :class:`~fivehundred.FiveHundredError` for an unknown ``render_mode``
    or ``reward``, a ``max_hands`` below 1, a ``max_cycles`` (see the module's
    notes), and :class:`~fivehundred.InvalidStateError` for rules options that
    :func:`~fivehundred.records.rules_from_options` refuses;
    :class:`~fivehundred.FiveHundredTypeError` for a wrong type.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "fivehundred_v1",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        max_hands: int | None = None,
        reward: str = "points",
        **options: Any,
    ) -> None:
        expect(render_mode, (str, type(None)), "a render mode (a str), or None")
        expect(max_hands, (int, type(None)), "a number of hands (an int), or None")
        expect(reward, str, "a reward kind (a str)")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise FiveHundredError(
                f"render_mode must be 'human', 'ansi' or None, not {render_mode!r}"
            )
        if reward not in REWARDS:
            raise FiveHundredError(f"reward must be 'points' or 'game', not {reward!r}")
        if max_hands is not None and max_hands < 1:
            raise FiveHundredError(f"max_hands must be at least 1 (or None), not {max_hands}")
        if "max_cycles" in options:
            raise FiveHundredError(
                "fivehundred_v1 takes no max_cycles: every hand ends by itself, and a hand "
                "cut short has no score; bound an episode with max_hands"
            )
        rules = rules_from_options(options)
        EzPickle.__init__(
            self, render_mode=render_mode, max_hands=max_hands, reward=reward, **options
        )
        super().__init__()
        self.render_mode = render_mode
        #: The rules of the table.
        self.rules: Rules = rules
        #: ``"points"`` or ``"game"``.
        self.reward = reward
        #: The most hands of an episode.
        self.max_hands: int = max_hands or (1 if reward == "points" else GAME_HANDS)
        players = rules.players
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents: list[str] = []
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = compact_size(rules)
        layout = observation_layout(rules)
        self._discards = layout.sections["discards"][0]
        self._positions = {card: p for p, card in enumerate(rules.deck)}
        # each side's score over the target has no bound (defence points add up past the
        # target, a failed contract goes below the losing score, and a game may start
        # anywhere); every other section lies within -3 and 3
        low = np.full(layout.size, -3.0, np.float32)
        high = np.full(layout.size, 3.0, np.float32)
        offset, shape = layout.sections["scores"]
        low[offset : offset + int(np.prod(shape))] = -np.inf
        high[offset : offset + int(np.prod(shape))] = np.inf
        space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, (layout.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._rng = random.Random()
        self._game: GameState | None = None
        #: The cards of a discard in progress (the compact layout discards one card an action).
        self.pending: tuple[Card, ...] = ()
        #: The hands dealt in this episode.
        self.hands = 0

    @property
    def game_state(self) -> GameState:
        """The game as the engine holds it, every hidden card included: for tools, not agents.

        Raises :class:`~fivehundred.FiveHundredError` before ``reset()``.
        """
        return self._require("game_state")

    def _require(self, what: str) -> GameState:
        if self._game is None:
            raise FiveHundredError(f"call reset() before {what}: the table has no game yet")
        return self._game

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every agent)."""
        self._seat(agent)
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(compact_size(rules))``."""
        self._seat(agent)
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        seat = self._seats.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise FiveHundredError(
                f"{agent!r} is not an agent of this table: they are {', '.join(self._seats)}"
            )
        return seat

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: a random dealer, the first hand dealt (from ``seed`` when given)."""
        expect(seed, (int, type(None)), "a seed (an int), or None")
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        dealer = self._rng.randrange(self.rules.players)
        self._game = deal(new_game(self.rules, dealer=dealer), rng=self._rng)
        self.pending = ()
        self.hands = 1
        self._select(self._game)

    def _select(self, game: GameState) -> None:
        seat = game.to_act
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, reward since it last acted, ends and info."""
        self._require("last()")
        result: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
        return result

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation tensor and its action mask (all zeros when not to act)."""
        game = self._require("observe()")
        seat = self._seat(agent)
        view = observe(game, seat)
        tensor = np.asarray(observation_tensor(view), dtype=np.float32)
        if self.pending and view.contractor == seat:
            for card in self.pending:
                tensor[self._discards + self._positions[card]] = 1.0
        if game.to_act == seat:
            mask = np.asarray(compact_mask(game, self.pending), dtype=np.int8)
        else:
            mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Take the selected agent's action (a compact id); ``None`` for a finished agent.

        A refused action raises before anything changes: the game, the pending
        rewards and the selected agent stay as they were.
        """
        before = self._require("step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise FiveHundredTypeError(
                f"{agent} is still in the game: step() takes an action id (an int), not None; "
                "None is the action of a terminated or truncated agent only"
            )
        expect(action, (int, np.integer), "an action id (an int)")
        game, self.pending = compact_apply(before, int(action), self.pending)
        self._game = game
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        phase = game.phase
        if phase in (Phase.DEAL, Phase.GAME_OVER) and before.phase is not phase:
            self._end_hand(game)
        self._select(self._require("step()"))
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_hand(self, game: GameState) -> None:
        side_of = self.rules.side_of
        if self.reward == "points":
            hand = game.last_hand
            assert hand is not None  # a hand has just ended
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] = float(hand.changes[side_of(seat)])
        elif game.result is not None:
            winners = game.result.winners
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] = 1.0 if side_of(seat) in winners else -1.0
        if game.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
            return
        if self.hands >= self.max_hands:
            ended = dict.fromkeys(self.agents, True)
            if self.reward == "points":
                self.terminations = ended
            else:
                self.truncations = ended
            return
        self._game = deal(game, rng=self._rng)
        self.pending = ()
        self.hands += 1

    def render(self) -> str | None:
        """The table as text: every hand, the trick, the scores, the view of the seat to act.

        ``render_mode="ansi"`` returns it, ``"human"`` prints it and returns ``None``;
        with no render mode, PettingZoo's warning, and ``None``.
        """
        game = self._require("render()")
        if self.render_mode is None:
            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode."
            )
            return None
        text = _table_text(game, self.pending)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


#: PettingZoo's name for the unwrapped environment.
raw_env = FiveHundredEnv


def _table_text(game: GameState, pending: tuple[Card, ...]) -> str:
    lines = [
        f"hand {game.hand_number}, {game.phase.value}; scores " + " ".join(map(str, game.scores))
    ]
    for seat in range(game.rules.players):
        marker = "*" if game.to_act == seat else " "
        cards = " ".join(map(str, game.hand(seat))) or "-"
        lines.append(f"{marker} player_{seat}: {cards}")
    if game.contract is not None:
        lines.append(f"contract {game.contract} by player_{game.contractor}")
    if game.trick:
        lines.append("trick " + " ".join(f"{s}:{c}" for s, c in game.trick))
    if pending:
        lines.append("discarding " + " ".join(map(str, pending)))
    if game.to_act is not None:
        lines.append(observation_string(observe(game, game.to_act)))
    return "\n".join(lines)


class _ActionBounds(AssertOutOfBoundsWrapper):  # type: ignore[misc]  # pettingzoo is untyped
    """``AssertOutOfBoundsWrapper``'s check, refused with a sentence instead of a bare assert."""

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if action is None and (self.terminations[agent] or self.truncations[agent]):
            self.env.step(action)
            return
        size = self.action_space(agent).n
        if action is None or isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise FiveHundredTypeError(
                f"{agent} is still in the game: step() takes an action id, an int from 0 to "
                f"{size - 1}, not {action!r}; None is the action of a terminated or truncated "
                "agent only"
            )
        if not 0 <= action < size:
            raise IllegalActionError(
                Reason.NOT_AN_ACTION,
                f"{action} is not an action id: ids are 0 to {size - 1} (Discrete({size}))",
            )
        self.env.step(action)


class _OrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]  # pettingzoo is untyped
    """``OrderEnforcingWrapper``, whose ``last()`` also says to call ``reset()`` first."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AssertionError("reset() needs to be called before last.")
        result: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
        return result
