"""The PettingZoo environment (needs the ``pettingzoo`` extra)."""

from __future__ import annotations

from typing import Any

import pytest

pettingzoo_test: Any = pytest.importorskip("pettingzoo.test")
np: Any = pytest.importorskip("numpy")

import fivehundred as fh  # noqa: E402
from fivehundred.pettingzoo import env  # noqa: E402

#: Random bids lose up to 520 a hand: these scores keep a game going for many hands.
LONG_GAME = {"target": 10_000, "losing_score": -10_000}
#: The most agent steps any loop here takes: far more than a few hands need.
MAX_STEPS = 20_000


@pytest.mark.parametrize(
    "options",
    [{"render_mode": "ansi"}, {"players": 5, "max_hands": 3}, {"players": 3}],
    ids=["default", "5p", "3p"],
)
def test_api_test(options: dict[str, Any]) -> None:
    pettingzoo_test.api_test(env(**options), num_cycles=300)


def test_the_module_is_versioned_and_the_package_still_offers_it() -> None:
    from fivehundred.pettingzoo import fivehundred_v1

    assert fivehundred_v1.FiveHundredEnv.metadata["name"] == "fivehundred_v1"
    assert fivehundred_v1.__name__.rsplit(".", 1)[-1] == "fivehundred_v1"
    assert env is fivehundred_v1.env


def test_seed_test() -> None:
    pettingzoo_test.seed_test(lambda: env(max_hands=2), num_cycles=300)


def _run(table: Any, seed: int) -> tuple[int, dict[str, float]]:
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    totals = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter(MAX_STEPS):
        obs, reward, termination, truncation, _ = table.last()
        totals[agent] += reward
        action = None
        if not (termination or truncation):
            assert obs["action_mask"].sum() >= 1
            assert table.observation_space(agent).contains(obs)
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            steps += 1
        table.step(action)
    return steps, totals


def test_r8_rewards_are_the_sides_score_changes() -> None:
    long_game = {"target": 10_000, "losing_score": -10_000}  # random bids lose 520 a hand
    table = env(max_hands=3, **long_game)
    _, totals = _run(table, 4)
    scores = table.game_state.scores
    for seat, agent in enumerate(table.possible_agents):
        assert totals[agent] == scores[fh.Rules().side_of(seat)]
    assert table.hands == 3 and not table.game_state.is_over


def test_max_cycles_truncates_every_agent() -> None:
    table = env(max_cycles=3)
    steps, _ = _run(table, 1)
    assert steps == 3 * 4
    assert all(table.truncations.get(a, True) for a in table.possible_agents)


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
    rng = np.random.default_rng(seed)
    for _ in table.agent_iter(MAX_STEPS):
        if table.hands == 2:
            break
        mask = table.last()[0]["action_mask"]
        table.step(int(rng.choice(np.flatnonzero(mask))))
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
