"""Fuzzing every entry point that reads outside input (issue 4, "hardening").

Each input either loads into something valid or raises the documented error:
:class:`fh.NotationError` for notation, :class:`fh.InvalidStateError` for
documents and records, :class:`fh.IllegalActionError` for actions and action
indices — all ``FiveHundredError`` and ``ValueError``. Anything else (a
``KeyError``, ``RecursionError``, ``TypeError``…) fails the test.

The default run is a fast slice. ``nox -s fuzz`` sets ``FIVEHUNDRED_FUZZ_EXAMPLES``
(examples per test; 13,000 there, over 100,000 in all).

A mutated game-state document that still loads must be *exactly* what the
writer would write for the loaded state (the loader accepts one spelling per
state), and the state must pass the invariants of a reachable state.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache, partial
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fivehundred as fh
from fivehundred.ai.encoding import decode_action, encode_action
from fivehundred.cards import CARDS
from fivehundred.records import record_from_text, record_to_text, rules_from_options, rules_options
from fivehundred.serialize import Saveable
from rules_strategy import play, rules_from

FUZZ: Final = int(os.environ.get("FIVEHUNDRED_FUZZ_EXAMPLES", "0"))


_SLOW: Final = [HealthCheck.too_slow, HealthCheck.data_too_large]


def fuzz_settings(fast: int) -> Callable[[Any], Any]:
    """``fast`` examples in the default run, ``FIVEHUNDRED_FUZZ_EXAMPLES`` in the fuzz session."""
    if FUZZ:  # the long run keeps no example database
        return settings(
            max_examples=FUZZ, deadline=None, suppress_health_check=_SLOW, database=None
        )
    return settings(max_examples=fast, deadline=None, suppress_health_check=_SLOW)


# -- a pool of reachable states under random rules ------------------------------------------

POOL_SIZE: Final = 120 if FUZZ else 30


@cache
def pool() -> tuple[fh.GameState, ...]:
    rng = random.Random(2024)
    states = []
    for number in range(POOL_SIZE):
        rules = rules_from(rng) if number % 3 else fh.Rules(players=rng.choice((2, 3, 4, 5, 6)))
        game = list(play(rules, rng.getrandbits(32), dealer=rng.randrange(rules.players)))
        states.append(game[rng.randrange(len(game))])
    return tuple(states)


def pool_states() -> st.SearchStrategy[fh.GameState]:
    return st.integers(min_value=0, max_value=POOL_SIZE - 1).map(lambda i: pool()[i])


def check_invariants(state: fh.GameState) -> None:
    """What every reachable state satisfies (used on whatever a loader accepts)."""
    rules = state.rules
    assert fh.replay(fh.record(state)) == state
    assert fh.from_json(fh.to_json(state)) == state
    cards = [*(c for h in state.hands for c in h), *state.kitty, *state.discards, *state.dead_hand]
    cards += [c for t in state.tricks for c in t.cards] + [c for _, c in state.trick]
    if state.hand_number:
        assert Counter(cards) == Counter(rules.deck)
    else:
        assert cards == []
    acting = state.to_act is not None
    assert acting == bool(fh.legal_actions(state))
    assert acting == (state.phase not in (fh.Phase.DEAL, fh.Phase.GAME_OVER))


# -- mutations of a JSON document -------------------------------------------------------------

CARD_TEXTS: Final = tuple(str(card) for card in CARDS)
JUNK: Final[tuple[Any, ...]] = (
    None,
    True,
    False,
    0,
    -1,
    1,
    7,
    1.5,
    -0.0,
    "",
    "x",
    "10h",
    "Jo",
    "7NT",
    [],
    {},
    [1],
    {"a": 1},
    2**53,
    -(2**53),
    10**30,
    1e308,
)


def paths(node: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (the root included)."""
    found = [here]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, (*here, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += paths(value, (*here, index))
    return found


def get(node: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        node = node[step]
    return node


def put(root: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    get(root, path[:-1])[path[-1]] = value
    return root


def mutate(doc: Any, rng: random.Random, kind: str) -> Any:
    """One mutation of a JSON document (in place where it can; returns the new root)."""
    every = paths(doc)
    leaves = [p for p in every if not isinstance(get(doc, p), (dict, list))]
    cards = [p for p in leaves if get(doc, p) in CARD_TEXTS]
    ints = [p for p in leaves if type(get(doc, p)) is int]
    lists = [p for p in every if isinstance(get(doc, p), list)]
    dicts = [p for p in every if isinstance(get(doc, p), dict)]
    if kind == "flip card" and cards:
        return put(doc, rng.choice(cards), rng.choice(CARD_TEXTS))
    if kind == "duplicate card" and len(cards) > 1:
        a, b = rng.sample(cards, 2)
        return put(doc, a, get(doc, b))
    if kind == "swap cards" and len(cards) > 1:
        a, b = rng.sample(cards, 2)
        first, second = get(doc, a), get(doc, b)
        put(doc, a, second)
        return put(doc, b, first)
    if kind == "drop item" and lists:
        target = get(doc, rng.choice(lists))
        if target:
            del target[rng.randrange(len(target))]
        return doc
    if kind == "repeat item" and lists:
        target = get(doc, rng.choice(lists))
        if target:
            target.insert(rng.randrange(len(target) + 1), copy.deepcopy(rng.choice(target)))
        return doc
    if kind == "tweak number" and ints:
        path = rng.choice(ints)
        value = get(doc, path)
        return put(doc, path, rng.choice((value + 1, value - 1, 0, -1, 4, 99, -value)))
    if kind == "unknown key" and dicts:
        get(doc, rng.choice(dicts))[rng.choice(("extra", "to_act", "", "x" * 50))] = 1
        return doc
    if kind == "drop key" and dicts:
        target = get(doc, rng.choice(dicts))
        if target:
            del target[rng.choice(list(target))]
        return doc
    if kind == "wrong type":
        return put(doc, rng.choice(every), copy.deepcopy(rng.choice(JUNK)))
    if kind == "huge number":
        value = rng.choice((10**16, 2**63, -(10**40), 10**400, 1e300, -1e300))
        return put(doc, rng.choice(every), value)
    if kind == "deep nesting":
        nested: Any = rng.choice(JUNK)
        for _ in range(rng.choice((5, 31, 40, 200))):
            nested = [nested] if rng.random() < 0.5 else {"k": nested}
        return put(doc, rng.choice(every), nested)
    if kind == "change string":
        strings = [p for p in leaves if isinstance(get(doc, p), str)]
        if strings:
            choices = (
                "pass",
                "bidding",
                "play",
                "deal",
                "game_over",
                "H",
                "S",
                "NT",
                "M",
                "OM",
                "decline",
                "nominate H",
                "partner seat 1",
                "Jo:H",
                "discard 5S 6S 7S",
            )
            return put(doc, rng.choice(strings), rng.choice(choices))
    return doc


MUTATIONS: Final = (
    "flip card",
    "duplicate card",
    "swap cards",
    "drop item",
    "repeat item",
    "tweak number",
    "unknown key",
    "drop key",
    "wrong type",
    "huge number",
    "deep nesting",
    "change string",
)


def mutate_text(text: str, rng: random.Random) -> str:
    at = rng.randrange(len(text) + 1)
    choice = rng.randrange(4)
    if choice == 0:
        return text[:at] + text[at + rng.randrange(1, 20) :]
    if choice == 1:
        return text[:at] + rng.choice(('"', "[", "]", "{", "}", ",", ":", "1", "\\", "\x00", "é"))
    if choice == 2:
        return text[:at] + text[at:][: rng.randrange(1, 40)] + text[at:]
    return text[:at]


def load_state(text: str | bytes) -> fh.GameState | None:
    try:
        return fh.from_json(text)
    except fh.InvalidStateError as err:
        assert err.problems and all(isinstance(p, str) and p for p in err.problems)
        assert isinstance(err, fh.FiveHundredError) and isinstance(err, ValueError)
        return None


def normal(doc: Any) -> Any:
    """A document with its rules read back: an option written at its default is the same rules."""
    if isinstance(doc, list):
        return [normal(item) for item in doc]
    if not isinstance(doc, dict):
        return doc
    doc = {key: normal(value) for key, value in doc.items()}
    if isinstance(doc.get("rules"), dict):
        with contextlib.suppress(fh.InvalidStateError):
            doc["rules"] = rules_options(rules_from_options(doc["rules"]))
    return doc


@fuzz_settings(fast=150)
@given(
    state=pool_states(),
    kinds=st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=3),
    seed=st.integers(min_value=0, max_value=2**32),
    text_level=st.booleans(),
)
def test_mutated_state_documents_load_exactly_or_raise_invalid_state(
    state: fh.GameState, kinds: list[str], seed: int, text_level: bool
) -> None:
    rng = random.Random(seed)
    doc: Any = fh.to_dict(state)
    for kind in kinds:
        doc = mutate(doc, rng, kind)
    text = json.dumps(doc)
    if text_level:
        text = mutate_text(text, rng)
    loaded = load_state(text)
    if loaded is None:
        return
    check_invariants(loaded)
    if not text_level:
        assert normal(fh.to_dict(loaded)) == normal(doc)


@fuzz_settings(fast=60)
@given(
    state=pool_states(),
    kinds=st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=3),
    seed=st.integers(min_value=0, max_value=2**32),
    what=st.integers(0, 3),
)
def test_mutated_documents_of_every_type_load_or_raise_invalid_state(
    state: fh.GameState, kinds: list[str], seed: int, what: int
) -> None:
    rng = random.Random(seed)
    seat = rng.randrange(state.rules.players)
    actions = fh.legal_actions(state)
    subject: Saveable = (
        fh.record(state),
        state.rules,
        fh.observe(state, seat),
        rng.choice(actions) if actions else fh.PASS,
    )[what]
    loader: Callable[[str], object] = (
        partial(fh.from_json, cls=fh.GameRecord),
        partial(fh.from_json, cls=fh.Rules),
        partial(fh.from_json, cls=fh.PlayerView),
        partial(fh.from_json, cls=fh.Action),
    )[what]
    doc: Any = fh.to_dict(subject)
    for kind in kinds:
        doc = mutate(doc, rng, kind)
    try:
        loaded = loader(json.dumps(doc))
    except fh.InvalidStateError as err:
        assert err.problems
        return
    assert normal(fh.to_dict(loaded)) == normal(doc)  # type: ignore[arg-type]
    if isinstance(loaded, fh.GameRecord):
        check_invariants(fh.replay(loaded))


JSON_VALUES: Final = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
DOC_KEYS: Final = (
    "format_version",
    "type",
    "rules",
    "record",
    "snapshot",
    "view",
    "action",
    "dealer",
    "hands",
    "kind",
    "card",
    "suit",
    "seat",
    "call",
    "cards",
)
LOADERS: Final[tuple[Callable[[Any], object], ...]] = (
    fh.from_dict,
    partial(fh.from_dict, cls=fh.Rules),
    partial(fh.from_dict, cls=fh.PlayerView),
    partial(fh.from_dict, cls=fh.Action),
    partial(fh.from_dict, cls=fh.GameRecord),
)


@fuzz_settings(fast=200)
@given(
    value=JSON_VALUES
    | st.fixed_dictionaries(
        {
            "format_version": st.just(1),
            "type": st.sampled_from(
                ("game_state", "rules", "player_view", "action", "game_record")
            ),
        },
        optional={key: JSON_VALUES for key in DOC_KEYS[2:]},
    ),
    loader=st.sampled_from(LOADERS),
)
def test_any_json_value_loads_or_raises_invalid_state(
    value: object, loader: Callable[[Any], object]
) -> None:
    try:
        loader(value)
    except fh.InvalidStateError as err:
        assert err.problems


TEXT_LOADERS: Final[tuple[Callable[[Any], object], ...]] = (
    fh.from_json,
    partial(fh.from_json, cls=fh.Rules),
    partial(fh.from_json, cls=fh.PlayerView),
    partial(fh.from_json, cls=fh.Action),
    partial(fh.from_json, cls=fh.GameRecord),
)


@fuzz_settings(fast=200)
@given(
    text=st.text() | st.binary() | st.from_regex(r"[\[\]{}\"0-9a-z:,.\-eE ]*"),
    loader=st.sampled_from(TEXT_LOADERS),
)
def test_any_text_loads_or_raises_invalid_state(
    text: str | bytes, loader: Callable[[Any], object]
) -> None:
    with pytest.raises(fh.InvalidStateError):
        loader(text)


NOTATION: Final = st.text(max_size=30) | st.from_regex(
    r"\A(?:10|[2-9JQKAT]|1[123]|jo|joker|pass|p|m|om|bm|misere|nt|[scdh♠♣♦♥]|-sk| |,|:|/)*\Z"
)
PARSERS: Final[tuple[Callable[[str], object], ...]] = (
    fh.parse_card,
    fh.parse_cards,
    fh.parse_call,
    fh.parse_action,
    *(lambda text, phase=phase: fh.parse_action(text, phase=phase) for phase in fh.Phase),
)


@fuzz_settings(fast=300)
@given(
    text=NOTATION | st.none() | st.integers() | st.binary(max_size=5),
    parser=st.sampled_from(PARSERS),
)
def test_notation_parsers_raise_only_notation_errors(
    text: str, parser: Callable[[str], object]
) -> None:
    try:
        parser(text)
    except fh.NotationError as err:
        assert isinstance(err.text, str)


def record_text_mutation(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    at = rng.randrange(len(words))
    choice = rng.randrange(6)
    replacement = rng.choice(
        (
            *CARD_TEXTS,
            "|",
            "/",
            "pass",
            "7H",
            "M",
            "deck",
            "tricks",
            "auction",
            "discard",
            "decline",
            "nominate",
            "partner",
            "seat",
            "hand",
            "dealer=1",
            "players=5",
            "\n",
            "#",
            "Jo:H",
            "99",
        )
    )
    if choice == 0:
        words[at] = replacement
    elif choice == 1:
        del words[at]
    elif choice == 2:
        words.insert(at, replacement)
    elif choice == 3:
        other = rng.randrange(len(words))
        words[at], words[other] = words[other], words[at]
    elif choice == 4:
        return text[: rng.randrange(len(text) + 1)]
    else:
        words[at] = words[at].lower()
    return " ".join(words)


@fuzz_settings(fast=150)
@given(
    state=pool_states(),
    seed=st.integers(min_value=0, max_value=2**32),
    count=st.integers(min_value=1, max_value=4),
)
def test_mutated_record_texts_read_and_replay_or_raise_documented_errors(
    state: fh.GameState, seed: int, count: int
) -> None:
    rng = random.Random(seed)
    text = record_to_text(fh.record(state))
    for _ in range(count):
        text = record_text_mutation(text, rng)
    try:
        game = record_from_text(text)
    except (fh.NotationError, fh.InvalidStateError):
        return
    try:
        replayed = fh.replay(game)
    except fh.InvalidStateError as err:
        assert err.problems
        return
    check_invariants(replayed)
    assert record_from_text(record_to_text(game)) == game


@fuzz_settings(fast=300)
@given(
    index=st.integers() | st.none() | st.floats() | st.text(max_size=3) | st.booleans(),
    state=pool_states(),
)
def test_decode_action_raises_only_illegal_action_errors(index: Any, state: fh.GameState) -> None:
    try:
        action = decode_action(index, state.rules)
    except fh.IllegalActionError as err:
        assert err.reason is fh.Reason.NOT_AN_ACTION
        return
    assert encode_action(action, state.rules) == index


def actions_and_junk() -> st.SearchStrategy[object]:
    cards = st.sampled_from(CARDS)
    suits = st.none() | st.sampled_from(list(fh.Suit))
    calls = st.sampled_from((fh.PASS, *fh.Rules().ladder.calls)).flatmap(
        lambda call: (
            st.just(call)
            | st.builds(lambda: fh.Call(call.kind, call.tricks, call.strain, sans_kitty=True))
            if call.is_bid
            else st.just(call)
        )
    )
    return st.one_of(
        st.builds(fh.Play, cards, suits),
        calls,
        st.builds(fh.Discard, st.lists(cards, max_size=6)),
        st.builds(fh.Nominate, suits),
        st.builds(fh.CallPartner, cards),
        st.builds(lambda seat: fh.CallPartner(seat=seat), st.integers(-3, 9)),
        st.none(),
        st.integers(),
        st.text(max_size=4),
        st.sampled_from(CARDS),
        st.just(fh.Suit.HEARTS),
        st.lists(cards, max_size=3),
        st.just(object()),
    )


@fuzz_settings(fast=300)
@given(
    state=pool_states(),
    action=actions_and_junk(),
    seat=st.none() | st.integers(-2, 7) | st.just("0"),
)
def test_apply_is_legal_and_check_action_agree_and_raise_only_illegal_action_errors(
    state: fh.GameState, action: Any, seat: Any
) -> None:
    legal = fh.is_legal(state, action, seat=seat)
    assert isinstance(legal, bool)
    try:
        fh.check_action(state, action, seat=seat)
        checked = True
    except fh.IllegalActionError:
        checked = False
    try:
        after = fh.apply(state, action, seat=seat)
        applied = True
    except fh.IllegalActionError:
        applied = False
    assert legal == checked == applied
    if applied:
        assert action in fh.legal_actions(state)
        check_invariants(after)


# -- pathological shapes (issue 11): the budget on every input near the limits -----------

#: The slowest input of the budget test in this run (CPU seconds, shape), for the report.
SLOWEST: list[tuple[float, str]] = [(0.0, "")]


@pytest.fixture(autouse=True, scope="module")
def _report_the_slowest_input() -> Iterator[None]:
    """Print the slowest pathological input at the end (past pytest's capture)."""
    yield
    if SLOWEST[0][1]:
        cpu, shape = SLOWEST[0]
        print(f"\nslowest pathological input: {cpu:.3f} s CPU ({shape})", file=sys.__stderr__)


_ITEMS: Final = st.sampled_from(
    ["ZZ", "Z", "10H", True, None, 2**60, [], {}, [True, "ZZ"], {"leader": "x"}, "x" * 900]
)


@fuzz_settings(fast=12)
@given(
    field=st.sampled_from(
        (
            "hands",
            "kitty",
            "discards",
            "auction",
            "trick",
            "tricks",
            "suits_led",
            "sitting_out",
            "tricks_won",
            "scores",
        )
    ),
    item=_ITEMS,
    count=st.integers(min_value=0, max_value=fh.serialize.MAX_LIST),
    nested=st.integers(min_value=0, max_value=40),
)
def test_pathological_documents_stay_within_the_budget(
    field: str, item: object, count: int, nested: int
) -> None:
    """Long lists of one bad item (nested lists of them too), near the size limit."""
    from pathological import MEMORY_BUDGET, cpu_budget, measure, state_doc

    value: object = [item] * count
    if nested:
        value = [[item] * (count // nested)] * nested
    doc = copy.deepcopy(state_doc())
    doc["snapshot"][field] = value
    text = json.dumps(doc)
    cpu, peak, outcome = measure(lambda: fh.from_json(text))
    SLOWEST[0] = max(SLOWEST[0], (cpu, f"snapshot.{field}: {count} x {item!r:.20}"))
    assert outcome in ("loaded", "InvalidStateError")
    assert cpu <= cpu_budget(), f"{field}: {cpu:.2f} s"
    assert peak <= MEMORY_BUDGET


@fuzz_settings(fast=12)
@given(
    text=st.text(min_size=1, max_size=20),
    repeat=st.integers(min_value=1, max_value=fh.errors.MAX_NOTATION * 2),
    parser=st.sampled_from((*PARSERS, record_from_text)),
)
def test_long_notation_stays_within_the_budget_and_quotes_little(
    text: str, repeat: int, parser: Callable[[str], object]
) -> None:
    from pathological import cpu_budget, measure

    long = text * repeat
    cpu, _, outcome = measure(lambda: parser(long))
    SLOWEST[0] = max(SLOWEST[0], (cpu, f"{getattr(parser, '__name__', 'parse')}: {len(long)}"))
    assert outcome in ("loaded", "NotationError", "InvalidStateError")
    assert cpu <= cpu_budget()
    try:
        parser(long)
    except fh.FiveHundredError as err:
        assert len(str(err)) < 1000
