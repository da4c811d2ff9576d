"""``Rules``: validation at construction, the presets, sides and the bid ladder under each
ladder option (V-NO-MISERE, V-MISERE-BY-VALUE, V-OPEN-MISERE-TOP, V-BLIND-MISERE)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import fivehundred as fh
from fivehundred.rules import DEFAULT_LADDER

#: Every on/off option of ``Rules`` and its default.
FLAGS = {
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
    "defence_wins": False,
    "misere_playout": False,
    "same_dealer": False,
}


def rungs(rules: fh.Rules) -> list[str]:
    """The ladder low to high; calls sharing a rung are joined with ``=``."""
    return ["=".join(str(call) for call in rung) for rung in rules.ladder.rungs]


# -- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"score_cap": 500}, ["score_cap=500", "target=500", "V-CAP"]),
        ({"score_cap": 510}, ["score_cap=510", "target=500"]),
        ({"score_cap": 300, "target": 300}, ["score_cap=300", "target=300"]),
        ({"players": 5, "black_fours": True}, ["black_fours", "players=5", "V-45"]),
        ({"players": 2, "black_fours": True}, ["black_fours", "players=2"]),
        ({"players": 6, "black_fours": True}, ["black_fours", "players=6"]),
        ({"players": 4, "team_size": 3}, ["team_size=3", "players=4"]),
        ({"players": 4, "team_size": 1}, ["team_size=1", "players=4"]),
        ({"players": 5, "team_size": 2}, ["team_size=2", "players=5"]),
        ({"players": 3, "team_size": 3}, ["team_size=3", "players=3"]),
        ({"players": 4, "partner_by_seat": True}, ["partner_by_seat", "players=4"]),
        ({"players": 6, "partner_by_seat": True}, ["partner_by_seat", "players=6"]),
        ({"single_round": True, "self_raise": True}, ["single_round", "self_raise"]),
        ({"single_round": True, "rebid": True}, ["single_round", "rebid"]),
        ({"target": 0}, ["target=0"]),
        ({"losing_score": 0}, ["losing_score=0"]),
        ({"losing_score": 100}, ["losing_score=100"]),
    ],
)
def test_impossible_combinations_raise(options: dict[str, Any], words: list[str]) -> None:
    with pytest.raises(ValueError) as info:
        fh.Rules(**options)
    message = str(info.value)
    for word in words:
        assert word in message, message


def test_every_problem_is_named_at_once() -> None:
    with pytest.raises(ValueError) as info:
        fh.Rules(players=5, black_fours=True, score_cap=600, team_size=2)
    message = str(info.value)
    for word in ("black_fours", "score_cap=600", "team_size=2"):
        assert word in message, message


@pytest.mark.parametrize("flag", sorted(FLAGS))
@pytest.mark.parametrize("value", [1, 0, "yes", None])
def test_flags_must_be_bools(flag: str, value: Any) -> None:
    with pytest.raises(ValueError) as info:
        fh.Rules(**{flag: value})
    assert flag in str(info.value)


@pytest.mark.parametrize("field", ["trick_points", "target", "losing_score"])
@pytest.mark.parametrize("value", [1.5, "10", True, None])
def test_numbers_must_be_whole(field: str, value: Any) -> None:
    with pytest.raises(ValueError) as info:
        fh.Rules(**{field: value})
    assert field in str(info.value)


@pytest.mark.parametrize("value", [490.0, "490", True])
def test_cap_must_be_whole_or_none(value: Any) -> None:
    with pytest.raises(ValueError) as info:
        fh.Rules(score_cap=value)
    assert "score_cap" in str(info.value)


@pytest.mark.parametrize("players", [0, 1, 7, 8, -4, True, 4.0, "4", None])
def test_players_two_to_six(players: Any) -> None:
    with pytest.raises(ValueError) as info:
        fh.Rules(players=players)
    assert "players" in str(info.value) and "2 to 6" in str(info.value)


def test_valid_combinations_construct() -> None:
    fh.Rules(score_cap=490)
    fh.Rules(score_cap=480)
    fh.Rules(score_cap=290, target=300, losing_score=-300)
    fh.Rules(black_fours=True)
    fh.Rules(players=5, partner_by_seat=True)
    fh.Rules(players=6, team_size=2)
    fh.Rules(players=6, team_size=3)
    fh.Rules(self_raise=True, rebid=True)
    fh.Rules(trick_points=0)
    fh.Rules(trick_points=-10)


def test_defaults() -> None:
    rules = fh.Rules()
    for flag, default in FLAGS.items():
        assert getattr(rules, flag) is default, flag
    assert (rules.players, rules.team_size, rules.trick_points) == (4, 2, 10)
    assert (rules.target, rules.losing_score, rules.score_cap) == (500, -500, None)
    assert (rules.kitty_size, rules.hand_size) == (3, 10)
    assert fh.Rules(black_fours=True).kitty_size == 5
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rules.players = 5  # type: ignore[misc]
    assert fh.Rules() == rules and hash(fh.Rules()) == hash(rules)


# -- presets ----------------------------------------------------------------------------------


def test_australian_preset_is_the_default() -> None:
    assert fh.Rules.australian() == fh.Rules()
    assert fh.Rules.australian(score_cap=490) == fh.Rules(score_cap=490)


def test_american_preset() -> None:
    american = fh.Rules.american()
    assert american.single_round and american.misere_by_value and american.defence_wins
    assert american == fh.Rules(single_round=True, misere_by_value=True, defence_wins=True)
    changed = {
        name
        for name in attrs.fields_dict(fh.Rules)
        if getattr(american, name) != getattr(fh.Rules(), name)
    }
    assert changed == {"single_round", "misere_by_value", "defence_wins"}
    assert fh.Rules.american(defence_wins=False).defence_wins is False
    assert fh.Rules.american(players=6).players == 6
    with pytest.raises(ValueError, match="single_round"):
        fh.Rules.american(self_raise=True)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_preset_for_players(players: int) -> None:
    rules = fh.Rules.for_players(players)
    assert rules == fh.Rules(players=players)
    assert rules.players == players
    assert fh.Rules.for_players(players, target=300).target == 300


def test_presets_per_player_count() -> None:
    assert fh.Rules.two_players() == fh.Rules(players=2)
    assert fh.Rules.three_players() == fh.Rules(players=3)
    assert fh.Rules.five_players() == fh.Rules(players=5)
    assert fh.Rules.six_players() == fh.Rules(players=6)
    assert fh.Rules.six_players(team_size=3).sides == ((0, 2, 4), (1, 3, 5))
    assert fh.Rules.five_players(partner_by_seat=True).partner_by_seat
    assert fh.Rules.two_players().has_dead_hand
    assert not any(fh.Rules(players=n).has_dead_hand for n in (3, 4, 5, 6))
    assert fh.Rules.five_players().calls_partner
    assert not any(fh.Rules(players=n).calls_partner for n in (2, 3, 4, 6))


# -- sides ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "sides"),
    [
        (fh.Rules(players=2), ((0,), (1,))),
        (fh.Rules(players=3), ((0,), (1,), (2,))),
        (fh.Rules(), ((0, 2), (1, 3))),
        (fh.Rules(players=5), ((0,), (1,), (2,), (3,), (4,))),
        (fh.Rules(players=6), ((0, 3), (1, 4), (2, 5))),
        (fh.Rules(players=6, team_size=3), ((0, 2, 4), (1, 3, 5))),
    ],
)
def test_sides(rules: fh.Rules, sides: tuple[tuple[int, ...], ...]) -> None:
    assert rules.sides == sides
    for index, seats in enumerate(sides):
        for seat in seats:
            assert rules.side_of(seat) == index
            assert rules.partners(seat) == tuple(s for s in seats if s != seat)
    assert sorted(seat for seats in sides for seat in seats) == list(range(rules.players))


def test_team_size_defaults() -> None:
    assert [fh.Rules(players=n).team_size for n in (2, 3, 4, 5, 6)] == [1, 1, 2, 1, 2]
    assert fh.Rules(players=6, team_size=3).team_size == 3


# -- the ladder ----------------------------------------------------------------------------------

SIXES = ["6S", "6C", "6D", "6H", "6NT"]
SEVENS = ["7S", "7C", "7D", "7H", "7NT"]
EIGHTS = ["8S", "8C", "8D", "8H", "8NT"]
NINES = ["9S", "9C", "9D", "9H", "9NT"]
#: The eights with misère ranked by its value, between 8S and 8C (V-MISERE-BY-VALUE).
EIGHTS_BY_VALUE = ["8S", "M", "8C", "8D", "8H", "8NT"]
#: The tens below open misère on the default ladder, and the two above it.
LOW_TENS = ["10S", "10C", "10D"]
HIGH_TENS = ["10H", "10NT"]


def test_ladder_default_R3_3() -> None:
    expected = [*SIXES, *SEVENS, "M", *EIGHTS, *NINES, *LOW_TENS, "OM=BM", *HIGH_TENS]
    assert rungs(fh.Rules()) == expected
    assert fh.Rules().ladder == DEFAULT_LADDER


def test_ladder_no_misere_V_NO_MISERE() -> None:
    expected = [*SIXES, *SEVENS, *EIGHTS, *NINES, *LOW_TENS, *HIGH_TENS]
    assert rungs(fh.Rules(misere=False)) == expected
    # The other misère options change nothing once misère is off.
    assert rungs(fh.Rules(misere=False, misere_by_value=True, open_misere_top=True)) == expected


def test_ladder_misere_by_value_V_MISERE_BY_VALUE() -> None:
    expected = [*SIXES, *SEVENS, *EIGHTS_BY_VALUE, *NINES, *LOW_TENS, "OM=BM", *HIGH_TENS]
    assert rungs(fh.Rules(misere_by_value=True)) == expected


def test_ladder_open_misere_top_V_OPEN_MISERE_TOP() -> None:
    expected = [*SIXES, *SEVENS, "M", *EIGHTS, *NINES, *LOW_TENS, *HIGH_TENS, "OM=BM"]
    assert rungs(fh.Rules(open_misere_top=True)) == expected


def test_ladder_blind_misere_off_V_BLIND_MISERE() -> None:
    expected = [*SIXES, *SEVENS, "M", *EIGHTS, *NINES, *LOW_TENS, "OM", *HIGH_TENS]
    assert rungs(fh.Rules(blind_misere=False)) == expected


def test_ladder_combined_options() -> None:
    rules = fh.Rules(misere_by_value=True, open_misere_top=True, blind_misere=False)
    expected = [*SIXES, *SEVENS, *EIGHTS_BY_VALUE, *NINES, *LOW_TENS, *HIGH_TENS, "OM"]
    assert rungs(rules) == expected
    assert rungs(fh.Rules.american()) == rungs(fh.Rules(misere_by_value=True))


def test_ladder_sans_kitty_ranks_as_plain_V_SANS_KITTY() -> None:
    rules = fh.Rules(sans_kitty=True)
    assert rungs(rules) == rungs(fh.Rules())
    for call in rules.ladder.calls:
        without = attrs.evolve(call, sans_kitty=True)
        assert rules.ladder.position(without) == rules.ladder.position(call)


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_ladder_is_the_same_for_every_table(players: int) -> None:
    assert rungs(fh.Rules(players=players)) == rungs(fh.Rules())
