"""Five Hundred as a PettingZoo ``AECEnv``, version 1 (needs the ``pettingzoo`` extra).

>>> from fivehundred.pettingzoo.fivehundred_v1 import env
>>> table = env(players=4, render_mode="ansi")
>>> table.reset(seed=1)
>>> agent = table.agent_selection
>>> obs = table.observe(agent)
>>> sorted(obs), obs["action_mask"].shape
(['action_mask', 'observation'], (124,))

``env(**rules_options)`` takes the :class:`~fivehundred.Rules` options by name
(as :func:`fivehundred.records.rules_from_options` reads them), and ``render_mode``
(``"ansi"`` or ``None``), ``max_hands`` (the hands of one episode, default 1;
the episode also ends with the game) and ``max_cycles`` (truncate every agent
after that many turns each; default none).

- agents ``player_0`` … ``player_{n-1}`` are the seats;
- actions are the compact ids (:mod:`fivehundred.encoding`, ``layout="compact"``):
  ``Discrete(n)``;
- observations are ``{"observation": Box, "action_mask": Box}``: the
  observation tensor of the agent's own view (:mod:`fivehundred.tensors`, a
  discard in progress shown in the ``discards`` section), and the legal ids;
- the reward of each agent at the end of a hand is its side's score change (R8).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

# the compact layout's own functions, bound once: no layout is resolved per step
from fivehundred._compact import compact_apply, compact_mask, compact_size
from fivehundred._quoting import expect
from fivehundred.cards import Card
from fivehundred.engine import deal, new_game
from fivehundred.errors import FiveHundredError
from fivehundred.records import rules_from_options
from fivehundred.rules import Rules
from fivehundred.state import GameState, Phase
from fivehundred.tensors import observation_layout, observation_string, observation_tensor
from fivehundred.views import observe

__all__ = ["FiveHundredEnv", "env"]


def env(**options: Any) -> FiveHundredEnv:
    """A new environment: ``render_mode``, ``max_hands``, ``max_cycles``, and Rules options."""
    return FiveHundredEnv(**options)


class FiveHundredEnv(AECEnv):  # type: ignore[misc]  # pettingzoo is untyped
    """One table of Five Hundred, turn by turn (agent-environment cycle)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "fivehundred_v1",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        max_hands: int = 1,
        max_cycles: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise FiveHundredError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        expect(max_hands, int, "a number of hands (an int)")
        expect(max_cycles, (int, type(None)), "a number of cycles (an int), or None")
        if max_hands < 1:
            raise FiveHundredError("max_hands must be at least 1")
        self.render_mode = render_mode
        self.rules: Rules = rules_from_options(options)
        self.max_hands = max_hands
        self.max_cycles = max_cycles
        players = self.rules.players
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents: list[str] = []
        size = compact_size(self.rules)
        layout = observation_layout(self.rules)
        self._discards = layout.sections["discards"][0]
        self._positions = {card: p for p, card in enumerate(self.rules.deck)}
        space = spaces.Dict(
            {
                "observation": spaces.Box(-3.0, 3.0, (layout.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._rng = random.Random()
        self.state: GameState = new_game(self.rules, dealer=0)
        self.pending: tuple[Card, ...] = ()
        self.hands = 0
        self.turns = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(compact_size(rules))``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: a random dealer, the first hand dealt (from ``seed`` when given)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.state = deal(
            new_game(self.rules, dealer=self._rng.randrange(self.rules.players)), rng=self._rng
        )
        self.pending = ()
        self.hands = 1
        self.turns = 0
        self._select()

    def _select(self) -> None:
        seat = self.state.to_act
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation tensor and its action mask (all zeros when not to act)."""
        seat = self.possible_agents.index(agent)
        view = observe(self.state, seat)
        tensor = np.asarray(observation_tensor(view), dtype=np.float32)
        if self.pending and view.contractor == seat:
            for card in self.pending:
                tensor[self._discards + self._positions[card]] = 1.0
        if self.state.to_act == seat:
            mask = np.asarray(compact_mask(self.state, self.pending), dtype=np.int8)
        else:
            mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Take the selected agent's action (a compact id); ``None`` for a finished agent."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        before = self.state
        self.state, self.pending = compact_apply(self.state, int(action), self.pending)
        self.turns += 1
        phase = self.state.phase
        if phase in (Phase.DEAL, Phase.GAME_OVER) and before.phase is not phase:
            self._end_hand()
        elif self.max_cycles is not None and self.turns >= self.max_cycles * len(self.agents):
            self.truncations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()

    def _end_hand(self) -> None:
        result = self.state.last_hand
        if result is not None:
            for seat, agent in enumerate(self.agents):
                self.rewards[agent] = float(result.changes[self.rules.side_of(seat)])
        if self.state.is_over or self.hands >= self.max_hands:
            self.terminations = dict.fromkeys(self.agents, True)
            return
        self.state = deal(self.state, rng=self._rng)
        self.pending = ()
        self.hands += 1

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``): every hand, the trick, the scores."""
        if self.render_mode is None:
            return None
        state = self.state
        lines = [
            f"hand {state.hand_number}, {state.phase.value}; scores "
            + " ".join(map(str, state.scores))
        ]
        for seat in range(self.rules.players):
            marker = "*" if state.to_act == seat else " "
            cards = " ".join(map(str, state.hand(seat))) or "-"
            lines.append(f"{marker} player_{seat}: {cards}")
        if state.contract is not None:
            lines.append(f"contract {state.contract} by player_{state.contractor}")
        if state.trick:
            lines.append("trick " + " ".join(f"{s}:{c}" for s, c in state.trick))
        if self.pending:
            lines.append("discarding " + " ".join(map(str, self.pending)))
        if state.to_act is not None:
            lines.append(observation_string(observe(state, state.to_act)))
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""
