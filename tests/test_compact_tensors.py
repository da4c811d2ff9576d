"""The compact action encoding, the observation tensors and the public determinization."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import fivehundred as fh
from fivehundred.ai.encoding import (
    DiscardCard,
    action_ids,
    action_layout,
    apply_index,
    decode_action,
    encode_action,
    legal_action_indices,
    legal_action_mask,
    num_actions,
)
from fivehundred.ai.playout import playout
from fivehundred.ai.tensors import (
    information_state_layout,
    information_state_string,
    information_state_tensor,
    information_state_tensor_size,
    observation_layout,
    observation_string,
    observation_tensor,
    observation_tensor_size,
)
from fivehundred.bots import sample_deal, sample_deals

RULES = [fh.Rules(), fh.Rules(players=5), fh.Rules(players=3), fh.Rules(players=6)]


def _games(
    rules: fh.Rules, games: int, seed: int
) -> list[tuple[fh.GameState, tuple[fh.Card, ...]]]:
    """States met in random games on compact ids, with the discard in progress."""
    rng = random.Random(seed)
    seen: list[tuple[fh.GameState, tuple[fh.Card, ...]]] = []
    for _ in range(games):
        state = fh.deal(fh.new_game(rules, dealer=0), rng=rng)
        pending: tuple[fh.Card, ...] = ()
        while state.phase is not fh.Phase.DEAL and not state.is_over:
            seen.append((state, pending))
            state, pending = apply_index(
                state,
                rng.choice(legal_action_indices(state, layout="compact", pending=pending)),
                layout="compact",
                pending=pending,
            )
    return seen


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p")
def test_compact_sizes_and_round_trip(rules: fh.Rules) -> None:
    size = num_actions(rules, layout="compact")
    assert size <= 200
    assert action_layout(rules, layout="compact").size == size
    for index in range(size):
        decoded = decode_action(index, rules, layout="compact")
        assert encode_action(decoded, rules, layout="compact") == index


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p")
def test_r4_1_compact_mask_matches_library_actions(rules: fh.Rules) -> None:
    for state, pending in _games(rules, 3, seed=rules.players):
        legal = legal_action_indices(state, layout="compact", pending=pending)
        mask = legal_action_mask(state, layout="compact", pending=pending)
        assert len(mask) == num_actions(rules, layout="compact")
        assert legal == tuple(i for i, ok in enumerate(mask) if ok)
        if state.phase is fh.Phase.DISCARD:
            # in card order: above the last card chosen, leaving as many above as are
            # still to choose (one order of ids for each discard: perfect recall)
            place = {card: at for at, card in enumerate(rules.deck)}
            pool = sorted({*state.hand(state.contractor or 0), *state.kitty}, key=place.__getitem__)
            above = [c for c in pool if not pending or place[c] > place[pending[-1]]]
            left = rules.kitty_size - len(pending) - 1
            cards = [decode_action(i, rules, layout="compact") for i in legal]
            assert cards == [DiscardCard(c) for c in above[: len(above) - left]]
        else:
            library = sorted(
                i for a in fh.legal_actions(state) for i in action_ids(a, rules, layout="compact")
            )
            assert list(legal) == library


def test_compact_default_size_and_refusals() -> None:
    assert num_actions(fh.Rules(), layout="compact") == 124
    rules = fh.Rules()
    with pytest.raises(fh.IllegalActionError):
        decode_action(124, rules, layout="compact")
    with pytest.raises(fh.IllegalActionError):
        encode_action(fh.Discard(fh.parse_cards("5S 6S 7S")), rules, layout="compact")
    with pytest.raises(fh.IllegalActionError):
        encode_action(DiscardCard(fh.parse_card("2S")), rules, layout="compact")
    assert action_ids(fh.parse_call("6S"), rules, layout="compact") == (1,)
    assert legal_action_mask(fh.new_game(dealer=0), layout="compact") == (False,) * 124


def test_r4_1_each_discard_has_one_order_of_ids() -> None:
    """Perfect recall: the ids of a discard are chosen in card order, so every discard of
    the 13 cards (R4.1) is reached by exactly one sequence of ids, and no sequence of
    legal ids ends without a whole discard."""
    state = fh.deal(fh.new_game(dealer=3), seed=7)
    while state.phase is fh.Phase.BIDDING:
        bids = [a for a in fh.legal_actions(state) if a != fh.PASS]
        state = fh.apply(state, bids[0] if state.to_act == 0 else fh.PASS)
    paths: dict[fh.Discard, list[tuple[int, ...]]] = {}

    def walk(pending: tuple[fh.Card, ...], ids: tuple[int, ...]) -> None:
        legal = legal_action_indices(state, layout="compact", pending=pending)
        assert legal, ids  # never a dead end
        for index in legal:
            after, chosen = apply_index(state, index, layout="compact", pending=pending)
            if chosen:
                walk(chosen, (*ids, index))
            else:
                assert after.discards is not None
                paths.setdefault(fh.Discard(after.discards), []).append((*ids, index))

    walk((), ())
    assert len(paths) == len(fh.legal_actions(state)) == 286
    assert all(len(found) == 1 for found in paths.values())


def test_r4_1_discard_one_card_at_a_time() -> None:
    rng = random.Random(4)
    state = fh.deal(fh.new_game(dealer=3), seed=7)
    while state.phase is fh.Phase.BIDDING:
        bids = [a for a in fh.legal_actions(state) if a != fh.PASS]
        state = fh.apply(state, bids[0] if state.to_act == 0 else fh.PASS)
    assert state.phase is fh.Phase.DISCARD
    pending: tuple[fh.Card, ...] = ()
    first = rng.choice(legal_action_indices(state, layout="compact"))
    state2, pending = apply_index(state, first, layout="compact", pending=pending)
    assert state2 is state and len(pending) == 1
    assert first not in legal_action_indices(state, layout="compact", pending=pending)
    with pytest.raises(fh.IllegalActionError):
        apply_index(state, first, layout="compact", pending=pending)
    with pytest.raises(fh.IllegalActionError):
        apply_index(
            state, 0, layout="compact", pending=pending
        )  # a call during a discard in progress
    for _ in range(2):
        state, pending = apply_index(
            state,
            legal_action_indices(state, layout="compact", pending=pending)[0],
            layout="compact",
            pending=pending,
        )
    assert pending == () and state.phase is not fh.Phase.DISCARD


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p")
def test_tensor_sizes_and_layouts(rules: fh.Rules) -> None:
    for state, _ in _games(rules, 1, seed=2)[::7]:
        for seat in range(rules.players):
            view = fh.observe(state, seat)
            obs = observation_tensor(view)
            info = information_state_tensor(view)
            assert len(obs) == observation_tensor_size(rules) == observation_layout(rules).size
            assert len(info) == information_state_tensor_size(rules)
            assert info[: len(obs)] == obs
            assert information_state_layout(rules).sections["seat"] == (0, (rules.players,))
            assert obs[seat] == 1.0
            offset, _ = observation_layout(rules).sections["hand"]
            assert sum(obs[offset : offset + len(rules.deck)]) == len(view.hand)
            buffer = [0.0] * len(obs)
            assert observation_tensor(view, out=buffer) == buffer == obs
            assert observation_string(view) in information_state_string(view)


def _swap_hidden(state: fh.GameState, seat: int, rng: random.Random) -> fh.GameState:
    """Another state with the same view for ``seat``: a public determinization."""
    return sample_deal(fh.observe(state, seat), rng)


def test_r5_3_tensors_ignore_hidden_cards() -> None:
    rng = random.Random(9)
    changed = 0
    for state, _ in _games(fh.Rules(), 2, seed=5)[::5]:
        for seat in range(4):
            other = _swap_hidden(state, seat, rng)
            changed += other.hands != state.hands
            view, other_view = fh.observe(state, seat), fh.observe(other, seat)
            assert observation_tensor(view) == observation_tensor(other_view)
            assert information_state_tensor(view) == information_state_tensor(other_view)
            assert information_state_string(view) == information_state_string(other_view)
    assert changed > 0


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p")
def test_r5_3_sample_deal_is_consistent_with_the_view(rules: fh.Rules) -> None:
    rng = random.Random(3)
    for state, _ in _games(rules, 2, seed=11)[::3]:
        for seat in range(rules.players):
            view = fh.observe(state, seat)
            assert fh.observe(sample_deal(view, rng), seat) == view
    with pytest.raises(ValueError, match="no hand in progress"):
        sample_deal(fh.observe(fh.new_game(dealer=0), 0), rng)


def _late_state(seed: int) -> fh.GameState:
    """A state late in a hand, with voids shown, few hidden cards left."""
    rng = random.Random(seed)
    for _ in range(1000):
        state = fh.deal(fh.new_game(dealer=0), rng=rng)
        while not state.is_over and state.phase is not fh.Phase.DEAL:
            if state.phase is fh.Phase.PLAY and len(state.tricks) == 9 and not state.trick:
                return state
            state = fh.apply(state, rng.choice(fh.legal_actions(state)))
    raise AssertionError(f"seed {seed}: no hand of 1000 reached its last trick")


def test_r5_3_sample_deal_is_uniform_chi_square() -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    rng = random.Random(12)
    tested = 0
    for seed in (1, 2, 3):
        state = _late_state(seed)
        seat = state.to_act
        assert seat is not None
        view = fh.observe(state, seat)
        counts: Counter[tuple[tuple[fh.Card, ...], ...]] = Counter()
        draws = 3000
        for _ in range(draws):
            sampled = sample_deal(view, rng)
            counts[(*tuple(sampled.hands), tuple(sorted(sampled.kitty)))] += 1
        # every consistent deal is found (tiny spaces), and they come equally often
        assert len(counts) >= 2
        expected = draws / len(counts)
        if expected >= 5:
            _, p = scipy_stats.chisquare(list(counts.values()))
            assert p > 0.001
            tested += 1
    assert tested == 3


def test_r5_3_sample_deals_is_uniform_chi_square() -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    rng = random.Random(13)
    tested = 0
    for seed in (4, 5, 6):
        state = _late_state(seed)
        seat = state.to_act
        assert seat is not None
        view = fh.observe(state, seat)
        counts: Counter[tuple[tuple[fh.Card, ...], ...]] = Counter()
        draws = 3000
        for sampled in sample_deals(view, draws, rng):
            assert fh.observe(sampled, seat) == view
            counts[(*tuple(sampled.hands), tuple(sorted(sampled.kitty)))] += 1
        assert len(counts) >= 2
        expected = draws / len(counts)
        if expected >= 5:
            _, p = scipy_stats.chisquare(list(counts.values()))
            assert p > 0.001
            tested += 1
    assert tested == 3


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p")
def test_r5_3_sample_deals_draws_as_sample_deal_does(rules: fh.Rules) -> None:
    for state, _ in _games(rules, 1, seed=17)[::7]:
        seat = state.to_act
        assert seat is not None
        view = fh.observe(state, seat)
        batch = sample_deals(view, 5, random.Random(21))
        one_by_one = random.Random(21)
        assert batch == tuple(sample_deal(view, one_by_one) for _ in range(5))
        assert all(fh.observe(s, seat) == view for s in batch)


def test_sample_deals_refuses_a_bad_count() -> None:
    view = fh.observe(fh.deal(fh.new_game(dealer=0), seed=2), 1)
    rng = random.Random(1)
    assert sample_deals(view, 0, rng) == ()
    with pytest.raises(fh.FiveHundredTypeError, match="count"):
        sample_deals(view, 2.0, rng)  # type: ignore[arg-type]  # the wrong type, on purpose
    with pytest.raises(fh.FiveHundredError, match="0 or more"):
        sample_deals(view, -1, rng)
    with pytest.raises(fh.FiveHundredTypeError, match="sample_deals needs a PlayerView"):
        sample_deals(fh.new_game(dealer=0), 1, rng)  # type: ignore[arg-type]  # wrong on purpose
    with pytest.raises(ValueError, match="no hand in progress"):
        sample_deals(fh.observe(fh.new_game(dealer=0), 0), 1, rng)


@pytest.mark.parametrize(
    "rules",
    [*RULES, fh.Rules.american(), fh.Rules(rebid=True)],
    ids=lambda r: f"{r.players}p-{'single' if r.single_round else 'rounds'}-{r.rebid}",
)
def test_r5_3_later_draws_re_deal_exactly_what_a_replay_gives(rules: fh.Rules) -> None:
    """After the first draw for a view, a draw re-deals the first state instead of replaying
    the hand (R2.2 deal, R3-R5 actions): the state must be the replay's, to the last field."""
    from fivehundred.bots._sampling import view_deals

    compared = 0
    for state, _ in _games(rules, 2, seed=23)[::9]:
        for seat in range(rules.players):
            view = fh.observe(state, seat)
            deals = view_deals(view)
            for k in range(2):
                masks = deals.count.draw(random.Random(k))
                hands = list(deals.fixed)
                for at, holder in enumerate(deals.holders):
                    if holder < rules.players:
                        hands[holder] = masks[at]
                replayed = deals.replay.scored(
                    deals.replay.state(tuple(hands), masks[-1], random.Random(50 + k))
                )
                redealt = deals.replay.drawn(tuple(hands), masks[-1], random.Random(50 + k))
                assert redealt == replayed
                assert fh.observe(redealt, seat) == view
                assert fh.legal_actions(redealt) == fh.legal_actions(replayed)
                ends = [playout(s, rng=random.Random(k)) for s in (redealt, replayed)]
                assert ends[0] == ends[1]
                compared += 1
    assert compared > 20


def test_r2_2_a_draws_shuffle_is_the_standard_librarys() -> None:
    """The compiled draw shuffles itself; it must give random.shuffle's order, seed for seed."""
    from fivehundred.bots._deals import shuffle

    for seed in range(30):
        for size in (0, 1, 2, 7, 33, 47):
            mine, theirs = list(range(size)), list(range(size))
            source, reference = random.Random(seed), random.Random(seed)
            shuffle(mine, source)
            reference.shuffle(theirs)
            assert mine == theirs
            assert source.getstate() == reference.getstate()  # the same draws consumed

    class Counted(random.Random):
        calls = 0

        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]  # a narrower list
            Counted.calls += 1
            super().shuffle(x)

    items = [1, 2, 3]
    shuffle(items, Counted(1))
    assert Counted.calls == 1 and sorted(items) == [1, 2, 3]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p")
def test_r5_3_adapter_steps_match_the_compact_layout(rules: fh.Rules) -> None:
    """The adapters' fast steps (card play on the engine's masks, R5.3, R7.4) answer and
    apply as the compact layout does, refusals included."""
    from fivehundred.ai._steps import apply_id, legal_ids

    start = action_layout(rules, layout="compact").plays.start
    size = len(rules.deck)
    for state, pending in _games(rules, 2, seed=31):
        ids = legal_ids(state, pending, start, size)
        assert ids == list(legal_action_indices(state, layout="compact", pending=pending))
        ids.clear()  # a new list each call
        assert legal_ids(state, pending, start, size)
        for index in legal_action_indices(state, layout="compact", pending=pending)[:2]:
            assert apply_id(state, index, pending, start, size) == apply_index(
                state, index, layout="compact", pending=pending
            )
        if state.phase is fh.Phase.PLAY:
            illegal = next(
                p
                for p in range(start, start + size)
                if p not in legal_action_indices(state, layout="compact")
            )
            with pytest.raises(fh.IllegalActionError):
                apply_id(state, illegal, (), start, size)
