"""The PettingZoo environment (needs the ``pettingzoo`` extra)."""

from __future__ import annotations

from typing import Any

import pytest

pettingzoo_test: Any = pytest.importorskip("pettingzoo.test")
np: Any = pytest.importorskip("numpy")

import fivehundred as fh  # noqa: E402
from fivehundred.pettingzoo import env  # noqa: E402


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
    for agent in table.agent_iter():
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
    scores = table.state.scores
    for seat, agent in enumerate(table.possible_agents):
        assert totals[agent] == scores[fh.Rules().side_of(seat)]
    assert table.hands == 3 and not table.state.is_over


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
    assert env().render() is None
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
    for agent in table.agent_iter():
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
        if table.state.trick or table.state.contract is not None:
            rendered.append(table.render())
        mask = obs["action_mask"]
        other = table.possible_agents[(table.possible_agents.index(agent) + 1) % 4]
        assert table.observe(other)["action_mask"].sum() == 0
        table.step(int(rng.choice(np.flatnonzero(mask))))
    assert seen_pending
    assert any("discarding" in text for text in rendered if text)
    assert any("trick" in text and "contract" in text for text in rendered if text)
    assert table.hands == 3
