"""The PettingZoo environment (needs the ``pettingzoo`` extra)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pettingzoo_test: Any = pytest.importorskip("pettingzoo.test")
np: Any = pytest.importorskip("numpy")

import fivehundred as fh  # noqa: E402
from fivehundred.pettingzoo import env, fivehundred_v1  # noqa: E402

#: Random bids lose up to 520 a hand: these scores keep a game going for many hands.
LONG_GAME = {"target": 10_000, "losing_score": -10_000}
#: The most agent steps any loop here takes: far more than a few hands need.
MAX_STEPS = 20_000


@pytest.mark.parametrize(
    "options",
    [
        {"render_mode": "ansi"},
        {"players": 5, "max_hands": 3, "reward": "points"},
        {"players": 3},
        {"players": 6, "reward": "game"},
    ],
    ids=["default", "5p-3-hands", "3p", "6p-game"],
)
def test_api_test(options: dict[str, Any]) -> None:
    pettingzoo_test.api_test(env(**options), num_cycles=300)


def test_the_module_is_versioned_and_the_package_still_offers_it() -> None:
    assert fivehundred_v1.FiveHundredEnv.metadata["name"] == "fivehundred_v1"
    assert fivehundred_v1.__name__.rsplit(".", 1)[-1] == "fivehundred_v1"
    assert env is fivehundred_v1.env


def test_seed_test() -> None:
    pettingzoo_test.seed_test(lambda: env(max_hands=2), num_cycles=300)


def _random_steps(
    table: Any, seed: int, stop: Callable[[], bool] | None = None
) -> tuple[dict[str, float], dict[str, tuple[bool, bool]]]:
    """Random legal actions until the episode ends (or ``stop()``): each agent's rewards,
    and each agent's last (termination, truncation)."""
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    ends: dict[str, tuple[bool, bool]] = {}
    for agent in table.agent_iter(MAX_STEPS):
        if stop is not None and stop():
            break
        obs, reward, termination, truncation, _ = table.last()
        totals[agent] += reward
        ends[agent] = (termination, truncation)
        action = None
        if not (termination or truncation):
            assert table.observation_space(agent).contains(obs)
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        table.step(action)
    return totals, ends


def test_r8_points_rewards_are_the_sides_score_changes() -> None:
    table = env(max_hands=3, render_mode="ansi", **LONG_GAME)
    table.reset(seed=4)
    totals, _ = _random_steps(table, 4)
    game = table.game_state
    for seat, agent in enumerate(table.possible_agents):
        assert totals[agent] == game.scores[game.rules.side_of(seat)]
    assert table.hands == 3 and not game.is_over and table.agents == []
    text = table.render()  # the scores, the empty hands, and no seat to act
    assert text is not None
    assert text.splitlines()[0] == f"hand 3, deal; scores {game.scores[0]} {game.scores[1]}"
    assert text.splitlines()[1:5] == [f"  player_{seat}: -" for seat in range(4)]
    assert text.splitlines()[5:] == [f"contract {game.contract} by player_{game.contractor}"]


@pytest.mark.parametrize("players", [3, 4, 6])
def test_r9_game_rewards_are_plus_one_to_the_winners_and_minus_one_to_the_rest(
    players: int,
) -> None:
    table = env(players=players, reward="game")
    table.reset(seed=players)
    totals, _ = _random_steps(table, players)
    game = table.game_state
    assert game.is_over and game.result is not None and table.agents == []
    winners = game.result.winners
    for seat, agent in enumerate(table.possible_agents):
        assert totals[agent] == (1.0 if game.rules.side_of(seat) in winners else -1.0)
    assert table.hands == game.hand_number


def test_max_hands_truncates_a_game_reward_and_terminates_a_points_reward() -> None:
    cut = env(reward="game", max_hands=2, **LONG_GAME)
    cut.reset(seed=5)
    totals, ends = _random_steps(cut, 5)
    assert set(totals.values()) == {0.0}  # the game was not played out: no one won it
    assert ends == dict.fromkeys(cut.possible_agents, (False, True))
    assert cut.hands == 2 and not cut.game_state.is_over
    hand = env(max_hands=2, **LONG_GAME)
    hand.reset(seed=5)
    totals, ends = _random_steps(hand, 5)
    assert ends == dict.fromkeys(hand.possible_agents, (True, False))
    assert set(totals.values()) != {0.0}  # the two hands were scored


def test_by_default_points_play_one_hand_and_the_game_plays_to_its_end() -> None:
    assert env().max_hands == 1
    assert env(reward="game").max_hands is None
    assert env(reward="game", max_hands=7).max_hands == 7


def test_max_cycles_is_refused_as_the_classic_environments_do() -> None:
    with pytest.raises(fh.FiveHundredError, match=r"no max_cycles.*max_hands"):
        env(max_cycles=4)
    assert not hasattr(fivehundred_v1, "parallel_env")  # what max_cycles_test would need


def test_render_and_refusals() -> None:
    table = env(render_mode="ansi")
    table.reset(seed=2)
    text = table.render()
    assert text is not None and "player_0" in text and "scores 0 0" in text
    silent = env()  # no render mode
    silent.reset(seed=2)
    assert silent.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        env(render_mode="human")
    with pytest.raises(ValueError, match="max_hands"):
        env(max_hands=0)
    with pytest.raises(fh.FiveHundredError, match="reward must be 'points' or 'game'"):
        env(reward="tricks")
    with pytest.raises(fh.InvalidStateError):
        env(player=5)


def test_r4_1_a_discard_in_progress_is_observed_and_rendered() -> None:
    table = env(render_mode="ansi", max_hands=3, target=10_000, losing_score=-10_000)
    table.reset(seed=6)
    rng = np.random.default_rng(1)
    seen_pending = False
    rendered = []
    for agent in table.agent_iter(MAX_STEPS):
        obs, _, termination, truncation, _ = table.last()
        if termination or truncation:
            table.step(None)
            continue
        if table.pending:
            seen_pending = True
            layout = fh.tensors.observation_layout(table.rules)
            offset, _ = layout.sections["discards"]
            assert obs["observation"][offset : offset + 43].sum() == len(table.pending)
            rendered.append(table.render())
        if table.game_state.trick or table.game_state.contract is not None:
            rendered.append(table.render())
        mask = obs["action_mask"]
        other = table.possible_agents[(table.possible_agents.index(agent) + 1) % 4]
        assert table.observe(other)["action_mask"].sum() == 0
        table.step(int(rng.choice(np.flatnonzero(mask))))
    assert seen_pending
    assert any("discarding" in text for text in rendered if text)
    assert any("trick" in text and "contract" in text for text in rendered if text)
    assert table.hands == 3


def _at_second_hand(table: Any, seed: int) -> float:
    """Play hand 1 at random; the reward that the first agent of hand 2 has pending."""
    table.reset(seed=seed)
    _random_steps(table, seed, stop=lambda: table.hands == 2)
    assert table.hands == 2 and table.game_state.hand_number == 2
    pending = table.last()[1]
    assert pending != 0.0  # the precondition: hand 1 was scored
    return float(pending)


def _illegal_id(table: Any) -> int:
    mask = table.observe(table.agent_selection)["action_mask"]
    return int(np.flatnonzero(mask == 0)[0])


def test_r8_a_refused_action_keeps_the_pending_hand_reward() -> None:
    """The regression: a caught illegal action used to wipe a -520 hand reward to 0."""
    table = env(max_hands=2, **LONG_GAME)
    pending = _at_second_hand(table, 3)
    agent, game = table.agent_selection, table.game_state
    before = (dict(table.rewards), dict(table.unwrapped._cumulative_rewards), table.pending)
    with pytest.raises(fh.IllegalActionError):
        table.step(_illegal_id(table))
    assert table.last()[1] == pending
    assert table.agent_selection == agent and table.game_state is game
    assert (dict(table.rewards), dict(table.unwrapped._cumulative_rewards), table.pending) == before
    hand = game.last_hand
    assert hand is not None
    assert pending == hand.changes[game.rules.side_of(table.possible_agents.index(agent))]
    obs = table.last()[0]
    table.step(int(np.flatnonzero(obs["action_mask"])[0]))  # the game goes on
    after = table.agent_selection
    assert table.game_state is not game and after != agent
    assert table.last()[1] == hand.changes[game.rules.side_of(table.possible_agents.index(after))]


def test_step_none_for_an_agent_in_the_game_says_what_to_pass() -> None:
    table = env()
    table.reset(seed=1)
    agent = table.agent_selection
    with pytest.raises(fh.FiveHundredTypeError, match=f"{agent} is still in the game.*not None"):
        table.step(None)
    with pytest.raises(fh.FiveHundredTypeError, match="action id"):
        table.step("6S")  # type: ignore[arg-type]  # the wrong type, on purpose
    assert table.agent_selection == agent and table.game_state.auction == ()


def test_before_reset_the_environment_says_to_call_reset() -> None:
    table = env()
    for call in (
        lambda: table.step(0),
        table.last,
        lambda: table.observe("player_0"),
        table.render,
        lambda: table.game_state,
    ):
        with pytest.raises(fh.FiveHundredError, match=r"call reset\(\) before"):
            call()


def test_state_is_pettingzoos_and_the_game_is_game_state() -> None:
    table = env()
    table.reset(seed=3)
    with pytest.raises(NotImplementedError, match="fivehundred_v1"):
        table.state()
    assert isinstance(table.game_state, fh.GameState)
    assert table.game_state.phase is fh.Phase.BIDDING


def test_unknown_agents_and_seeds_are_refused() -> None:
    with pytest.raises(fh.FiveHundredTypeError, match="seed"):
        env().reset(seed="1")  # type: ignore[arg-type]  # the wrong type, on purpose
    with pytest.raises(fh.FiveHundredError, match=r"'seat_0' is not an agent.*player_0"):
        env().observation_space("seat_0")
