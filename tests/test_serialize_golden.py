"""Golden files freeze JSON format version 1 (and the text record form).

Each fixture in ``tests/fixtures/`` is the exact output of ``to_json(state,
indent=2)`` (or ``record_to_text``) for a seeded state built below. If the
output changes, the format changed: bump ``FORMAT_VERSION``, document the new
version in ``docs/json-format.md``, add fixtures for it, and keep reading
version 1 files. To rewrite the fixtures after a deliberate change to the
*states* (not the format), run with ``FIVEHUNDRED_WRITE_FIXTURES=1``.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Final

import pytest

import fivehundred as fh
from fivehundred.records import record_from_text, record_to_text, rules_options
from fivehundred.serialize import FORMAT_VERSION

FIXTURES: Final = Path(__file__).parent / "fixtures"
WRITE: Final = os.environ.get("FIVEHUNDRED_WRITE_FIXTURES") == "1"


def _step(state: fh.GameState, rng: random.Random) -> fh.GameState:
    if state.phase is fh.Phase.DEAL:
        return fh.deal(state, seed=rng.getrandbits(32))
    if state.phase is fh.Phase.BIDDING and rng.random() < 0.7:
        return fh.apply(state, fh.PASS)
    return fh.apply(state, rng.choice(fh.legal_actions(state)))


def default_mid_play() -> fh.GameState:
    """The default game, hand 1, trick 4 under way."""
    rng = random.Random(500)
    state = fh.new_game(dealer=3)
    for _ in range(5000):
        if state.phase is fh.Phase.PLAY and len(state.tricks) == 3 and state.trick:
            return state
        state = _step(state, rng)
    raise AssertionError("no hand reached trick 4 within 5000 steps")


def five_players_secret_partner() -> fh.GameState:
    """Five players: a partner called by card, trick 2 under way, the partner not yet revealed."""
    for seed in range(1000):
        rng = random.Random(seed)
        state = fh.deal(fh.new_game(fh.Rules(players=5), dealer=0), seed=seed)
        state = fh.apply(state, fh.parse_call("7H"))
        while state.phase is fh.Phase.BIDDING:
            state = fh.apply(state, fh.PASS)
        state = fh.apply(state, rng.choice(fh.legal_actions(state)))  # the discard
        state = fh.apply(state, rng.choice(fh.legal_actions(state)))  # the partner call
        partner, card = state.partner, state.partner_card
        if partner is None or card is None or partner == state.contractor:
            continue
        while len(state.tricks) < 1 or not state.trick:
            state = fh.apply(state, rng.choice(fh.legal_actions(state)))
        played = {c for t in state.tricks for c in t.cards} | {c for _, c in state.trick}
        if card not in played and state.phase is fh.Phase.PLAY:
            return state
    raise AssertionError("no seed gives a hidden partner")  # pragma: no cover


def open_misere_exposed() -> fh.GameState:
    """The default game: open misère by seat 0, trick 1 lost, so the hand is exposed (R6.3)."""
    for seed in range(100):
        rng = random.Random(seed)
        state = fh.deal(fh.new_game(dealer=3), seed=seed)
        state = fh.apply(state, fh.OPEN_MISERE)
        while state.phase is fh.Phase.BIDDING:
            state = fh.apply(state, fh.PASS)
        while not state.tricks or state.trick:
            state = fh.apply(state, rng.choice(fh.legal_actions(state)))
        if state.phase is fh.Phase.PLAY and len(state.tricks) == 2:
            assert state.exposed
            return state
        if state.phase is fh.Phase.PLAY:
            state = fh.apply(state, rng.choice(fh.legal_actions(state)))
            if state.phase is fh.Phase.PLAY:
                assert state.exposed
                return state
    raise AssertionError("no seed keeps the open misère going")  # pragma: no cover


def six_players_finished_hand() -> fh.GameState:
    """Six players in two teams of three, after a scored hand (``last_hand``)."""
    rng = random.Random(66)
    state = fh.new_game(fh.Rules(players=6, team_size=3, trick_points=5), dealer=5)
    for _ in range(5000):
        if (
            state.phase in (fh.Phase.DEAL, fh.Phase.GAME_OVER)
            and state.last_hand is not None
            and state.last_hand.contract is not None
        ):
            return state
        state = _step(state, rng)
    raise AssertionError("no hand was scored within 5000 steps")


STATES: Final[dict[str, Callable[[], fh.GameState]]] = {
    "v1-default-mid-play": default_mid_play,
    "v1-five-players-secret-partner": five_players_secret_partner,
    "v1-open-misere-exposed": open_misere_exposed,
    "v1-six-players-after-a-hand": six_players_finished_hand,
}


def check_golden(path: Path, text: str) -> None:
    if WRITE:
        path.write_text(text, encoding="utf-8")
    assert FORMAT_VERSION == 1, "a new format version needs its own fixtures (see above)"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{path.name} changed: the JSON format version 1 is frozen"


@pytest.mark.parametrize("name", sorted(STATES))
def test_saved_states_match_the_version_1_fixtures(name: str) -> None:
    state = STATES[name]()
    check_golden(FIXTURES / f"{name}.json", fh.to_json(state, indent=2) + "\n")
    assert fh.from_json((FIXTURES / f"{name}.json").read_text(encoding="utf-8")) == state


@pytest.mark.parametrize("name", sorted(STATES))
def test_views_and_records_match_their_fixtures(name: str) -> None:
    state = STATES[name]()
    seat = (state.contractor or 0) + 1
    view = fh.observe(state, seat % state.rules.players)
    check_golden(FIXTURES / f"{name}.view.json", fh.to_json(view, indent=2) + "\n")
    check_golden(FIXTURES / f"{name}.record.txt", record_to_text(fh.record(state)))
    text = (FIXTURES / f"{name}.record.txt").read_text(encoding="utf-8")
    assert fh.replay(record_from_text(text)) == state


def test_the_fixtures_show_what_they_are_named_for() -> None:
    partner = five_players_secret_partner()
    assert partner.partner is not None and partner.partner_card is not None
    outsider = next(s for s in range(5) if s not in (partner.contractor, partner.partner))
    assert fh.observe(partner, outsider).partner is None
    assert open_misere_exposed().exposed
    assert fh.observe(open_misere_exposed(), 1).exposed_hand is not None


def test_rules_and_actions_match_their_fixtures() -> None:
    lines = [
        fh.to_json(fh.Rules()),
        fh.to_json(fh.Rules.american()),
        fh.to_json(fh.Rules(players=6, team_size=3, score_cap=480, black_fours=False)),
        *(
            fh.to_json(action)
            for action in (
                fh.PASS,
                fh.parse_call("10NT-SK"),
                fh.Discard(fh.parse_cards("4D 5D 6D")),
                fh.Nominate(fh.Suit.HEARTS),
                fh.DECLINE,
                fh.CallPartner(fh.parse_card("AH")),
                fh.CallPartner(seat=2),
                fh.Play(fh.parse_card("10H")),
                fh.Play(fh.JOKER, fh.Suit.CLUBS),
            )
        ),
    ]
    check_golden(FIXTURES / "v1-rules-and-actions.jsonl", "\n".join(lines) + "\n")


#: The defaults of every rule option, as format version 1 reads an absent option.
VERSION_1_DEFAULTS: Final = {
    "players": 4,
    "team_size": 2,
    "partner_by_seat": False,
    "black_fours": False,
    "misere": True,
    "misere_needs_seven": True,
    "misere_by_value": False,
    "open_misere_top": False,
    "blind_misere": True,
    "sans_kitty": False,
    "single_round": False,
    "self_raise": False,
    "rebid": False,
    "all_pass_no_trumps": False,
    "joker_lead_last": False,
    "joker_name_any": False,
    "joker_nomination": True,
    "open_before_lead": False,
    "eldest_leads": False,
    "slam_bonus": True,
    "trick_points": 10,
    "score_cap": None,
    "defence_wins": False,
    "target": 500,
    "losing_score": -500,
    "misere_playout": False,
    "same_dealer": False,
}


def test_rule_defaults_are_frozen_for_version_1() -> None:
    """A saved file lists only options that differ from these: changing one changes old files.

    A new option may be added (with a default that keeps the old game); its
    name and default go here. Changing a default needs a new format version.
    """
    rules = fh.Rules()
    current = {field: getattr(rules, field) for field in VERSION_1_DEFAULTS}
    assert current == VERSION_1_DEFAULTS
    assert set(rules_options(fh.Rules())) == set()
    team_sizes = {n: fh.Rules(players=n).team_size for n in (2, 3, 4, 5, 6)}
    assert team_sizes == {2: 1, 3: 1, 4: 2, 5: 1, 6: 2}
