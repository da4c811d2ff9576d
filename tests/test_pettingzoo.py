"""The PettingZoo environment (needs the ``pettingzoo`` extra), judged by PettingZoo's own tests.

``fivehundred_v1`` is made as the classic card environments are (leduc_holdem_v4,
texas_holdem_v4): ``raw_env`` and a wrapped ``env``. PettingZoo's ``max_cycles_test``
does not apply: it needs a parallel environment and a ``max_cycles`` option, and a
turn-based card game has neither (see the module's notes); the refusal is tested here.
"""

from __future__ import annotations

import logging
import pickle
from collections.abc import Callable
from typing import Any

import pytest

pettingzoo_test: Any = pytest.importorskip("pettingzoo.test")
np: Any = pytest.importorskip("numpy")
pettingzoo: Any = pytest.importorskip("pettingzoo")
wrappers: Any = pytest.importorskip("pettingzoo.utils.wrappers")

import fivehundred as fh  # noqa: E402
import fivehundred.ai.pettingzoo as package  # noqa: E402
from fivehundred.ai import tensors  # noqa: E402
from fivehundred.ai.pettingzoo import env, fivehundred_v1, raw_env  # noqa: E402

#: Random bids lose up to 520 a hand: these scores keep a game going for many hands.
LONG_GAME = {"target": 10_000, "losing_score": -10_000}
#: The most agent steps any loop here takes: far more than a few hands need.
MAX_STEPS = 20_000


@pytest.mark.parametrize(
    "make",
    [
        env,
        lambda: env(players=5, max_hands=3, reward="points"),
        lambda: env(players=3, reward="game"),
        lambda: env(illegal_reward=None, players=6),
        lambda: raw_env(render_mode="ansi", max_hands=2),
    ],
    ids=["default", "5p-3-hands", "3p-game", "6p-raising", "raw"],
)
def test_api_test(make: Callable[[], Any]) -> None:
    pettingzoo_test.api_test(make(), num_cycles=300)


@pytest.mark.parametrize("make", [env, raw_env], ids=["env", "raw_env"])
def test_seed_test(make: Callable[..., Any]) -> None:
    pettingzoo_test.seed_test(lambda: make(max_hands=2), num_cycles=300)


def test_render_test_human_prints_and_ansi_returns_text(capsys: pytest.CaptureFixture[str]) -> None:
    pettingzoo_test.render_test(lambda render_mode=None: env(render_mode=render_mode))
    printed = capsys.readouterr().out
    assert "scores 0 0" in printed and "player_3" in printed  # "human" printed the table
    table = env(render_mode="human")
    table.reset(seed=2)
    agent = table.agent_selection
    table.step(int(np.flatnonzero(table.observe(agent)["action_mask"])[0]))
    assert table.render() is None
    assert capsys.readouterr().out.count("hand 1,") == 2  # once by step, once by render


def test_without_a_render_mode_render_warns_and_returns_none() -> None:
    table = env()
    table.reset(seed=1)
    with pytest.warns(UserWarning, match="render mode"):
        assert table.render() is None


def test_the_module_is_versioned_and_the_package_still_offers_it() -> None:
    assert fivehundred_v1.raw_env.metadata["name"] == "fivehundred_v1"
    assert fivehundred_v1.__name__.rsplit(".", 1)[-1] == "fivehundred_v1"
    assert package.env is fivehundred_v1.env and package.raw_env is fivehundred_v1.raw_env
    assert raw_env is fivehundred_v1.FiveHundredEnv
    assert raw_env.metadata["render_modes"] == ["human", "ansi"]
    assert raw_env.metadata["is_parallelizable"] is False


def test_env_is_wrapped_as_the_classic_environments_are() -> None:
    table = env()
    assert isinstance(table, wrappers.OrderEnforcingWrapper)
    assert isinstance(table.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(table.env.env, wrappers.TerminateIllegalWrapper)
    assert isinstance(table.env.env.env, raw_env) and table.unwrapped is table.env.env.env
    raising = env(illegal_reward=None)
    assert isinstance(raising.env.env, raw_env)  # no TerminateIllegalWrapper
    assert isinstance(raw_env(), pettingzoo.AECEnv)


def test_max_cycles_is_refused_as_the_classic_environments_do() -> None:
    with pytest.raises(fh.FiveHundredError, match=r"no max_cycles.*max_hands"):
        env(max_cycles=4)
    assert not hasattr(fivehundred_v1, "parallel_env")  # what max_cycles_test would need


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


@pytest.mark.parametrize(
    "options", [{"losing_score": -2000}, {"target": 100}], ids=["low-losing-score", "low-target"]
)
def test_every_observation_lies_in_the_space_under_any_target_V_TARGET(
    options: dict[str, int],
) -> None:
    """A score over a small target, or far below 0, is still in the observation space (the
    scores have no bound there); _random_steps checks every observation it is given."""
    table = env(reward="game", **options)
    table.reset(seed=2)
    _random_steps(table, 2)
    scores = table.game_state.scores
    assert max(abs(score) for score in scores) / table.rules.target > 3  # out of the old box


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


def test_by_default_points_play_one_hand_and_the_game_up_to_300() -> None:
    assert raw_env().max_hands == 1
    assert raw_env(reward="game").max_hands == 300
    assert raw_env(reward="game", max_hands=7).max_hands == 7


def test_a_game_of_agents_that_never_bid_is_truncated() -> None:
    # All pass: every hand is thrown in (R3.9) and no score moves, so without a default
    # bound a reward="game" episode would never end.
    table = env(reward="game")
    table.reset(seed=0)
    for _ in table.agent_iter(max_iter=10 * 300 * 4):  # bounded: far beyond 300 hands
        obs, _, termination, truncation, _ = table.last()
        table.step(
            None if termination or truncation else int(np.flatnonzero(obs["action_mask"])[0])
        )
    assert all(table.unwrapped.truncations.values()) and not table.agents
    assert table.unwrapped.hands == 300 and table.game_state.scores == (0, 0)


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


@pytest.mark.parametrize("make", [raw_env, lambda **o: env(illegal_reward=None, **o)])
def test_r8_a_refused_action_keeps_the_pending_hand_reward(make: Callable[..., Any]) -> None:
    """The regression: a caught illegal action used to wipe a -520 hand reward to 0."""
    table = make(max_hands=2, **LONG_GAME)
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


def test_an_illegal_action_ends_the_episode_with_the_illegal_reward(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = env(illegal_reward=-1000.0, max_hands=2, **LONG_GAME)
    _at_second_hand(table, 3)
    offender = table.agent_selection
    others = {a: float(table.unwrapped._cumulative_rewards[a]) for a in table.agents}
    del others[offender]
    assert set(others.values()) != {0.0}  # hand 1's rewards, not yet collected
    with caplog.at_level(logging.WARNING):
        table.step(_illegal_id(table))
    assert "Illegal move" in caplog.text  # PettingZoo's warning
    seen: dict[str, float] = {}
    for agent in table.agent_iter(MAX_STEPS):
        _, reward, termination, truncation, _ = table.last()
        assert termination and truncation
        seen[agent] = reward
        table.step(None)
    # the offender had seen its hand reward in last(); the others collect theirs now
    assert seen == {offender: -1000.0, **others}


@pytest.mark.parametrize("make", [raw_env, env], ids=["raw_env", "env"])
def test_step_none_for_an_agent_in_the_game_says_what_to_pass(make: Callable[..., Any]) -> None:
    table = make()
    table.reset(seed=1)
    agent = table.agent_selection
    with pytest.raises(fh.FiveHundredTypeError, match=f"{agent} is still in the game.*not None"):
        table.step(None)
    with pytest.raises(fh.FiveHundredTypeError, match="action id"):
        table.step("6S")
    assert table.agent_selection == agent and table.game_state.auction == ()


def test_an_id_out_of_the_action_space_is_refused_before_the_game() -> None:
    table = env()
    table.reset(seed=1)
    for wrong in (-1, 124, 10**30):
        with pytest.raises(fh.IllegalActionError, match="ids are 0 to 123") as caught:
            table.step(wrong)
        assert caught.value.reason is fh.Reason.NOT_AN_ACTION
    assert table.unwrapped.terminations == dict.fromkeys(table.agents, False)
    table.step(np.int64(np.flatnonzero(table.observe(table.agent_selection)["action_mask"])[0]))
    assert table.game_state.auction != ()


def test_a_finished_agent_steps_only_with_none() -> None:
    table = raw_env()
    table.reset(seed=1)
    _random_steps(table, 1, stop=lambda: table.terminations[table.agent_selection])
    with pytest.raises(ValueError, match="only valid action is None"):
        table.step(0)
    wrapped = env()
    wrapped.reset(seed=1)
    _random_steps(wrapped, 1, stop=lambda: wrapped.terminations[wrapped.agent_selection])
    with pytest.raises(ValueError, match="only valid action is None"):
        wrapped.step(0)


def test_raw_env_before_reset_says_to_call_reset() -> None:
    table = raw_env()
    for call in (
        lambda: table.step(0),
        table.last,
        lambda: table.observe("player_0"),
        table.render,
        lambda: table.game_state,
    ):
        with pytest.raises(fh.FiveHundredError, match=r"call reset\(\) before"):
            call()


def test_env_before_reset_says_to_call_reset() -> None:
    table = env()
    for call in (
        lambda: table.step(0),
        table.last,
        lambda: table.observe("player_0"),
        table.render,
        table.state,
    ):
        with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before"):
            call()


def test_state_is_pettingzoos_and_the_game_is_game_state() -> None:
    for table in (raw_env(), env()):
        table.reset(seed=3)
        with pytest.raises(NotImplementedError, match="fivehundred_v1"):
            table.state()
        assert isinstance(table.game_state, fh.GameState)
        assert table.game_state.phase is fh.Phase.BIDDING


def test_masks_are_zero_for_every_agent_not_on_turn_as_in_the_classic_envs() -> None:
    table = env(players=5, max_hands=3, **LONG_GAME)
    table.reset(seed=8)
    rng = np.random.default_rng(8)
    steps = 0
    for turn in table.agent_iter(MAX_STEPS):
        obs, _, termination, truncation, _ = table.last()
        if termination or truncation:
            assert obs["action_mask"].sum() == 0
            table.step(None)
            continue
        for agent in table.agents:
            mask = table.observe(agent)["action_mask"]
            assert (mask.sum() > 0) == (agent == turn)
        table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps > 100 and table.hands == 3


def test_r4_1_a_discard_in_progress_is_observed_and_rendered() -> None:
    table = env(render_mode="ansi", max_hands=3, **LONG_GAME)
    table.reset(seed=6)
    rng = np.random.default_rng(1)
    seen_pending = False
    rendered = []
    for _ in table.agent_iter(MAX_STEPS):
        obs, _, termination, truncation, _ = table.last()
        if termination or truncation:
            table.step(None)
            continue
        if table.pending:
            seen_pending = True
            layout = tensors.observation_layout(table.rules)
            offset, _ = layout.sections["discards"]
            assert obs["observation"][offset : offset + 43].sum() == len(table.pending)
            rendered.append(table.render())
        if table.game_state.trick or table.game_state.contract is not None:
            rendered.append(table.render())
        table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert seen_pending
    assert any("discarding" in text for text in rendered if text)
    assert any("trick" in text and "contract" in text for text in rendered if text)
    assert table.hands == 3


def test_refusals_of_options() -> None:
    with pytest.raises(fh.FiveHundredError, match="render_mode"):
        env(render_mode="rgb_array")
    with pytest.raises(fh.FiveHundredError, match="max_hands"):
        env(max_hands=0)
    with pytest.raises(fh.FiveHundredError, match="reward must be 'points' or 'game'"):
        env(reward="tricks")
    with pytest.raises(fh.FiveHundredTypeError, match="a number"):
        env(illegal_reward="-1")  # type: ignore[arg-type]  # the wrong type, on purpose
    with pytest.raises(fh.FiveHundredError, match="finite"):
        env(illegal_reward=float("-inf"))
    with pytest.raises(fh.FiveHundredTypeError, match="seed"):
        env().reset(seed="1")
    with pytest.raises(fh.InvalidStateError):
        env(player=5)
    with pytest.raises(fh.FiveHundredError, match=r"'seat_0' is not an agent.*player_0"):
        env().observation_space("seat_0")


def test_the_raw_environment_pickles_with_its_options() -> None:
    table = raw_env(players=5, reward="game", render_mode="ansi", **LONG_GAME)
    copy = pickle.loads(pickle.dumps(table))
    assert copy.rules == table.rules and copy.reward == "game" and copy.render_mode == "ansi"
    copy.reset(seed=1)
    table.reset(seed=1)
    assert copy.game_state == table.game_state
