"""The OpenSpiel game ``python_five_hundred`` (needs the ``openspiel`` extra)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

pyspiel: Any = pytest.importorskip("pyspiel")
np: Any = pytest.importorskip("numpy")

import fivehundred as fh  # noqa: E402
import fivehundred.ai.openspiel as fos  # noqa: E402
from fivehundred.ai import tensors  # noqa: E402
from fivehundred.ai.encoding import action_ids, num_actions  # noqa: E402
from fivehundred.bots import HeuristicPlayer  # noqa: E402


def test_game_constants() -> None:
    game = pyspiel.load_game("python_five_hundred")
    assert game.num_distinct_actions() == num_actions(fh.Rules(), layout="compact") == 124
    assert game.max_chance_outcomes() == 43
    assert game.num_players() == 4
    assert game.max_utility() == 520.0 and game.min_utility() == -520.0
    two = pyspiel.load_game("python_five_hundred", {"max_hands": 2})
    assert two.max_game_length() == 2 * game.max_game_length()
    assert game.observation_tensor_size() == tensors.observation_tensor_size(fh.Rules())
    assert fos.rules_of({"preset": "american"}) == fh.Rules.american()
    with pytest.raises(ValueError, match="preset"):
        fos.rules_of({"preset": "euchre"})


@pytest.mark.parametrize(
    "params",
    [{}, {"players": 5}, {"players": 3, "returns": "win"}, {"max_hands": 3, "rebid": True}],
    ids=["default", "5p", "3p-win", "rebid"],
)
def test_random_sim_test(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_five_hundred", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_serialization_round_trip() -> None:
    game = pyspiel.load_game("python_five_hundred", {"max_hands": 2})
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    length = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        length += 1
        if length % 17 == 0:
            text = pyspiel.serialize_game_and_state(game, state)
            _, state2 = pyspiel.deserialize_game_and_state(text)
            assert str(state2) == str(state)
            assert state2.history() == state.history()
    assert length <= game.max_game_length()
    assert pickle.loads(pickle.dumps(game)).num_players() == 4


def test_r4_1_resample_keeps_the_information_state() -> None:
    game = pyspiel.load_game("python_five_hundred")
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        player = state.current_player()
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert np.array_equal(
            other.information_state_tensor(player), state.information_state_tensor(player)
        )
        assert other.legal_actions() == state.legal_actions()
        checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked > 40


def _mid_discard(game: Any, seed: int) -> Any:
    """A state whose contractor has chosen one card of its discard (R4.1)."""
    rng = random.Random(seed)
    while True:
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        while state.state.phase is fh.Phase.BIDDING:
            state.apply_action(rng.choice(state.legal_actions()))
        if state.state.phase is fh.Phase.DISCARD:
            state.apply_action(state.legal_actions()[0])
            return state


def test_r4_1_resample_mid_discard_draws_the_contractors_chosen_cards_again() -> None:
    """The cards a contractor has chosen so far are its own secret (R4.1): a world drawn
    for another seat holds them among the drawn hand and kitty, so it plays to the end."""
    game = pyspiel.load_game("python_five_hundred")
    rng = random.Random(4)
    for seed in range(6):
        state = _mid_discard(game, seed)
        contractor = state.current_player()
        for draw in range(8):
            sampler = pyspiel.UniformProbabilitySampler(draw, 1.0)
            seat = (contractor + 1 + draw % 3) % 4
            world = state.resample_from_infostate(seat, sampler)
            world_of = world.clone()
            pool = {*world.state.hand(contractor), *world.state.kitty}
            assert set(world.pending) <= pool and len(world.pending) == len(state.pending)
            assert world.information_state_string(seat) == state.information_state_string(seat)
            while not world_of.is_terminal():  # every draw is a world the rules can finish
                if world_of.is_chance_node():
                    world_of.apply_action(rng.choice([a for a, _ in world_of.chance_outcomes()]))
                else:
                    world_of.apply_action(rng.choice(world_of.legal_actions()))
        own = state.resample_from_infostate(contractor, pyspiel.UniformProbabilitySampler(0, 1))
        assert own.pending == state.pending  # the contractor knows its own choice


def test_deck_id_is_a_text_parameter() -> None:
    """Every Rules option by its name: deck_id is a rule ID, "" for the table's own deck."""
    assert pyspiel.load_game("python_five_hundred", {"deck_id": "V-45"}).rules.deck_id == "V-45"
    assert pyspiel.load_game("python_five_hundred").rules.deck_id is None
    assert fos.rules_of({"deck_id": ""}) == fh.Rules()


def test_r2_resample_in_the_middle_of_a_deal_hides_the_cards_dealt() -> None:
    """Mid-deal (R2) no player has seen a card of the deal: a resampled state keeps the
    number of cards dealt and each player's information state, never the true cards."""
    game = pyspiel.load_game("python_five_hundred")
    state = game.new_initial_state()
    rng = np.random.RandomState(11)
    for _ in range(20):  # twenty cards into the deal
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))
    assert state.is_chance_node()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    drawn = [state.resample_from_infostate(0, sampler) for _ in range(5)]
    for other in drawn:
        assert len(other.dealt) == len(state.dealt) == 20
        assert len(set(other.dealt)) == 20
        for player in range(game.num_players()):
            assert other.information_state_string(player) == state.information_state_string(player)
    # the true cards dealt are not what every draw returns (five draws of 20 from 43)
    assert any(other.dealt != state.dealt for other in drawn)
    assert len({other.dealt for other in drawn}) > 1


class _RandomBot:
    """A uniformly random player (OpenSpiel's C++ random bot is for one seat only)."""

    def __init__(self, rng: Any) -> None:
        self.rng = rng

    def step(self, state: Any) -> int:
        return int(self.rng.choice(state.legal_actions()))


def _play(game: Any, bots: list[Any], seed: int) -> list[float]:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    returns: list[float] = state.returns()
    return returns


def test_ismcts_and_mcts_bots_play_a_game() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_five_hundred")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    random_bot = _RandomBot(np.random.RandomState(7))
    searcher = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=10, random_state=np.random.RandomState(2)
    )
    returns = _play(game, [searcher, random_bot, searcher, random_bot], seed=1)
    assert len(returns) == 4 and returns[0] == returns[2] and returns[1] == returns[3]
    planner = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=5,
        evaluator=evaluator,
        random_state=np.random.RandomState(3),
    )
    returns = _play(game, [planner, random_bot, planner, random_bot], seed=2)
    assert returns[0] == returns[2]


def test_parameters_are_checked_and_bound_the_game() -> None:
    for params, message in (
        ({"max_hands": 0}, "max_hands"),
        ({"returns": "money"}, "returns"),
    ):
        with pytest.raises(Exception, match=message):
            pyspiel.load_game("python_five_hundred", params)
    capped = pyspiel.load_game("python_five_hundred", {"score_cap": 250, "max_hands": 5})
    assert capped.max_utility() == 5 * 520.0  # V-CAP limits defence points, not contracts
    american = pyspiel.load_game("python_five_hundred", {"preset": "american"})
    default = pyspiel.load_game("python_five_hundred")
    assert american.max_game_length() < default.max_game_length()  # one round of calls
    with pytest.raises(ValueError, match="not supported"):
        default.make_py_observer(None, {"detail": 1})


def test_observers_other_than_a_players_own_view_are_refused() -> None:
    # A public-only or all-players observer must not be answered with the player's hand.
    game = pyspiel.load_game("python_five_hundred")
    for public, private in (
        (True, pyspiel.PrivateInfoType.NONE),
        (True, pyspiel.PrivateInfoType.ALL_PLAYERS),
        (False, pyspiel.PrivateInfoType.SINGLE_PLAYER),
    ):
        kind = pyspiel.IIGObservationType(
            public_info=public, perfect_recall=False, private_info=private
        )
        with pytest.raises(fh.FiveHundredError, match="own view only"):
            game.make_py_observer(kind, None)
    own = pyspiel.IIGObservationType(perfect_recall=True)
    assert game.make_py_observer(own, None).perfect_recall
    assert not game.make_py_observer(None, None).perfect_recall


def test_a_score_cap_does_not_lower_the_utility_bounds() -> None:
    # V-CAP caps defence points only: contracts made under a cap of 20 still take a side
    # 550 points up in four hands (seeded heuristic play), beyond a cap-based 520.
    game = pyspiel.load_game("python_five_hundred", {"score_cap": 20, "max_hands": 4})
    rng, player = random.Random(8), HeuristicPlayer(random.Random(8))
    state, plan = game.new_initial_state(), list[int]()
    for _ in range(4 * game.max_game_length()):  # bounded: an episode is shorter
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([outcome for outcome, _ in state.chance_outcomes()]))
            continue
        if not plan:
            chosen = player.choose(state.view(state.current_player()))
            plan = list(action_ids(chosen, state.rules, layout="compact"))
        state.apply_action(plan.pop(0))
    assert state.is_terminal() and max(state.returns()) == 550.0
    assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())


def test_chance_nodes_show_the_deal_under_way() -> None:
    game = pyspiel.load_game("python_five_hundred")
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 43
    state.apply_action(5)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 6).startswith("Deal:")
    assert "dealing 1" in state.information_state_string(0)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    assert str(state.resample_from_infostate(0, sampler)) == str(state)


def _decision_states(params: dict[str, Any], seed: int, every: int = 1) -> list[Any]:
    """The player states of one seeded random episode, every ``every``-th."""
    game = pyspiel.load_game("python_five_hundred", params)
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    out: list[Any] = []
    for _ in range(game.max_game_length() + 1):  # bounded: an episode is never longer
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        if len(out) % every == 0:
            out.append(state.clone())
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.is_terminal()
    return out[::every]


def test_clone_shares_the_immutable_state_and_stays_independent() -> None:
    states = _decision_states({}, seed=4)
    state = states[len(states) // 2]
    twin = state.clone()
    assert twin.state is state.state  # by reference: a library state never changes
    assert twin.history() == state.history()
    assert twin.information_state_string(0) == state.information_state_string(0)
    before = (str(state), list(state.legal_actions()), state.history())
    twin.apply_action(twin.legal_actions()[0])
    assert (str(state), list(state.legal_actions()), state.history()) == before
    assert twin.history() == [*state.history(), state.legal_actions()[0]]
    assert twin.state is not state.state


@pytest.mark.parametrize(
    "params", [{}, {"players": 5}, {"players": 3}], ids=["default", "5p", "3p"]
)
def test_r5_3_legal_actions_are_the_compact_ids(params: dict[str, Any]) -> None:
    from fivehundred.ai.encoding import apply_index, legal_action_indices

    for state in _decision_states(params, seed=8):
        ids = legal_action_indices(state.state, layout="compact", pending=state.pending)
        assert state.legal_actions() == list(ids)
        assert state.legal_actions() == list(ids)  # the kept answer, asked again
        for action in ids[:3]:
            mine = state.clone()
            mine.apply_action(action)
            expected = apply_index(state.state, action, layout="compact", pending=state.pending)
            assert (mine.state, mine.pending) == expected


def test_r5_3_kept_strings_and_tensors_match_a_fresh_view() -> None:
    game = pyspiel.load_game("python_five_hundred")
    for state in _decision_states({}, seed=6, every=7):
        for player in range(game.num_players()):
            view = fh.observe(state.state, player)
            for _ in range(2):  # worked out, then kept
                text = state.information_state_string(player)
                assert text.startswith(tensors.information_state_string(view))
                tensor = state.information_state_tensor(player)
                if not state.pending:  # a discard in progress adds its cards to the tensor
                    assert tensor == tensors.information_state_tensor(view)
                assert state.observation_string(player).startswith(tensors.observation_string(view))


def test_r5_3_resampling_one_state_again_draws_new_deals() -> None:
    from fivehundred.ai.encoding import legal_action_indices

    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = _decision_states({}, seed=9)[30]
    player = state.current_player()
    key = state.information_state_string(player)
    hands = set()
    for _ in range(20):
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == key
        assert other.history() == state.history()
        # what the draw took over from the state is what its own view gives
        view = fh.observe(other.state, player)
        assert key.startswith(tensors.information_state_string(view))
        assert other.legal_actions() == list(
            legal_action_indices(other.state, layout="compact", pending=other.pending)
        )
        hands.add(other.state.hands)
    assert len(hands) > 10


def test_get_all_states_near_the_root() -> None:
    from open_spiel.python.algorithms import get_all_states

    game = pyspiel.load_game("python_five_hundred")
    found = get_all_states.get_all_states(game, depth_limit=2, include_chance_states=True)
    assert len(found) == 1 + 43 + 43 * 42
    assert all(state.is_chance_node() for state in found.values())


def test_r5_3_python_legal_actions_answer_as_pyspiel_does() -> None:
    game = pyspiel.load_game("python_five_hundred", {"players": 5})
    state = game.new_initial_state()
    rng = np.random.RandomState(12)
    for _ in range(game.max_game_length() + 1):  # bounded: an episode is never longer
        for player in (None, *range(game.num_players())):
            mine = state.legal_actions() if player is None else state.legal_actions(player)
            theirs = (
                pyspiel.State.legal_actions(state)
                if player is None
                else pyspiel.State.legal_actions(state, player)
            )
            assert mine == theirs
        if state.is_terminal():
            break
        legal = state.legal_actions()
        legal.clear()  # the caller's own copy
        assert state.legal_actions() == pyspiel.State.legal_actions(state) != []
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.is_terminal() and state.legal_actions() == []
