"""Seeded matches: reproducible games, fair seating, win rates with Wilson intervals."""

from __future__ import annotations

import concurrent.futures
import random
import re
import threading
from pathlib import Path

import attrs
import pytest

import fivehundred as fh
import own_players
from fivehundred.bots import HeuristicPlayer, Player, RandomPlayer, SearchPlayer
from fivehundred.bots.pimc import PIMCPlayer
from fivehundred.bots.tournament import (
    GameOutcome,
    PlayerSpec,
    format_match,
    main,
    make_player,
    play_game,
    play_games,
    player_name,
    run_match,
    summarize,
    wilson_interval,
)
from fivehundred.cli import main as cli_main


def test_wilson_interval_matches_known_values() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(50, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962
    low, high = wilson_interval(400, 400)
    assert high == 1.0 and 0.99 < low < 1.0
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775


def test_make_player_knows_its_types() -> None:
    assert isinstance(make_player("heuristic", random.Random(1)), HeuristicPlayer)
    with pytest.raises(ValueError, match="unknown player type 'genius'"):
        make_player("genius", random.Random(1))


def test_make_player_gives_the_searching_players_a_time_limit() -> None:
    for kind in ("search", "pimc"):
        player = make_player(kind, random.Random(1), 10_000, time_limit=0.25)
        assert isinstance(player, (SearchPlayer, PIMCPlayer)) and player.time_limit == 0.25
        unlimited = make_player(kind, random.Random(1))
        assert isinstance(unlimited, (SearchPlayer, PIMCPlayer)) and unlimited.time_limit is None
    heuristic = make_player("heuristic", random.Random(1), time_limit=0.25)
    assert type(heuristic) is HeuristicPlayer and not hasattr(heuristic, "time_limit")
    for wrong in (0, -1.0, float("inf"), float("nan"), "1", True):
        with pytest.raises(fh.FiveHundredError, match="positive number of seconds"):
            make_player("search", random.Random(1), time_limit=wrong)  # type: ignore[arg-type]  # wrong on purpose


def test_a_match_at_equal_time_stops_each_decision_on_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # a budget of a million deals a decision would not finish: the time limit binds
    argv = ["search", "heuristic", "--games", "1", "--budget", "1000000", "--time-limit", "0.002"]
    assert main(argv) == 0
    assert "1 games" in capsys.readouterr().out
    result = run_match("pimc", "search", games=1, seed=2, budget=1_000_000, time_limit=0.002)
    assert result.games == 1 and sum(result.wins) == 1
    for bad in ("0", "-1", "inf"):
        with pytest.raises(SystemExit):
            main(["search", "heuristic", "--time-limit", bad])


def test_play_game_reaches_the_end_and_counts_contracts() -> None:
    rng = random.Random(4)
    players = [HeuristicPlayer(random.Random(s)) for s in range(4)]
    seen = []
    state, outcome = play_game(players, rng, on_action=lambda before, after: seen.append(after))
    assert state.result is not None and outcome.winners == state.result.winners
    assert outcome.hands == state.hand_number
    assert sum(outcome.contracts) >= 1 and len(seen) > 40
    assert outcome.points[0] - outcome.points[1] == state.scores[0] - state.scores[1]
    with pytest.raises(ValueError, match="4 players are needed"):
        play_game(players[:3], rng)


class _SaysPass:
    """A player that answers with text instead of an action."""

    def choose(self, view: fh.PlayerView) -> fh.Action:
        return "pass"  # type: ignore[return-value]  # the mistake under test


def test_an_illegal_choice_names_the_player_and_its_seat() -> None:
    players: list[Player] = [RandomPlayer(random.Random(s)) for s in range(4)]
    players[2] = _SaysPass()
    with pytest.raises(fh.IllegalActionError, match="is not an action") as caught:
        play_game(players, random.Random(5))
    assert caught.value.__notes__ == ["chosen by _SaysPass at seat 2, hand 1"]


def test_a_game_can_be_stopped_unfinished() -> None:
    players = [RandomPlayer(random.Random(s)) for s in range(4)]
    _, outcome = play_game(players, random.Random(1), max_hands=1)
    assert outcome.winners == () and outcome.hands == 1


def test_matches_are_reproducible_and_rotate_the_seats() -> None:
    first = list(play_games(("heuristic", "random"), 4, seed=9))
    again = list(play_games(("heuristic", "random"), 4, seed=9))
    assert first == again
    assert all(outcome.winners == (0,) for outcome in first)  # by type: heuristic wins
    result = summarize(("heuristic", "random"), first)
    assert result.wins == (4, 0) and result.win_rate(0) == 1.0
    assert result.interval(1)[0] == 0.0
    with pytest.raises(ValueError, match="one per side"):
        list(play_games(("heuristic",), 1))


def test_matches_on_several_processes_give_the_same_games() -> None:
    alone = list(play_games(("heuristic", "random"), 3, seed=2))
    pooled = list(play_games(("heuristic", "random"), 3, seed=2, jobs=2))
    assert alone == pooled


def test_shared_wins_count_half_and_the_table_shows_them() -> None:
    shared = GameOutcome((0, 1), (500, 500), 3, (1, 1), (1, 1), (500, 500))
    lost = GameOutcome((), (0, 0), 300, (0, 0), (0, 0), (0, 0))
    result = summarize(("a", "b"), [shared, lost], seconds=1.5)
    assert result.wins == (0.5, 0.5) and result.unfinished == 1
    table = format_match(result)
    assert "1 unfinished" in table and "25.0%" in table and "100.0%" in table


def test_run_match_reports_progress_and_a_table() -> None:
    calls = []
    result = run_match(
        "heuristic",
        "search",
        games=2,
        seed=3,
        budget=2,
        progress=lambda done, total: calls.append((done, total)),
    )
    assert calls == [(1, 2), (2, 2)]
    assert result.games == 2 and sum(result.wins) == 2
    assert "heuristic" in format_match(result) and "95% interval" in format_match(result)


def test_three_sides_rotate_too() -> None:
    rules = fh.Rules(players=3)
    outcomes = list(play_games(("heuristic", "random", "random"), 2, seed=1, rules=rules))
    assert len(outcomes) == 2 and all(len(o.scores) == 3 for o in outcomes)


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["heuristic", "random", "--games", "2", "--seed", "5"]) == 0
    captured = capsys.readouterr()
    assert "heuristic" in captured.out and "2/2" in captured.err
    with pytest.raises(SystemExit):
        main(["heuristic", "random", "--games", "0"])


def test_matches_on_any_executor_give_the_same_games() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from fivehundred.bots.tournament import make_executor

    alone = list(play_games(("heuristic", "random"), 5, seed=4))
    with ThreadPoolExecutor(max_workers=2) as pool:
        threaded = list(play_games(("heuristic", "random"), 5, seed=4, executor=pool, chunk=2))
    assert alone == threaded
    with make_executor("thread", 2) as pool:
        result = run_match("heuristic", "random", games=5, seed=4, executor=pool)
    assert result.wins == summarize(("heuristic", "random"), alone).wins
    with pytest.raises(ValueError, match="unknown backend"):
        make_executor("cluster", 2)
    assert isinstance(make_executor("process", 1), concurrent.futures.ProcessPoolExecutor)


def test_the_command_line_takes_a_backend(capsys: pytest.CaptureFixture[str]) -> None:
    from fivehundred.bots.tournament import main

    assert main(["heuristic", "random", "--games", "2", "--backend", "thread", "--jobs", "2"]) == 0
    assert "heuristic" in capsys.readouterr().out


# -- your own players ----------------------------------------------------------------

KINDS_AS_RANDOM = (
    own_players.seeded_random,
    "own_players:seeded_random",
    RandomPlayer,
    "fivehundred.bots:RandomPlayer",
)


def test_your_own_factory_plays_the_same_games_as_the_built_in_type() -> None:
    built_in = list(play_games(("random", "heuristic"), 3, seed=5))
    for kind in KINDS_AS_RANDOM:
        assert list(play_games((kind, "heuristic"), 3, seed=5)) == built_in, kind


def test_a_player_object_is_copied_for_every_seat_and_game() -> None:
    mine = own_players.FirstChoicePlayer()
    records = list(play_games((mine, "random"), 3, seed=6))
    assert mine.decisions == 0  # each seat played a copy
    assert records == list(play_games(("own_players:FIRST", "random"), 3, seed=6))
    made = make_player(mine, random.Random(1))
    assert isinstance(made, own_players.FirstChoicePlayer) and made is not mine


def test_your_own_players_give_the_same_games_on_other_processes() -> None:
    kinds: tuple[PlayerSpec, ...] = (own_players.FirstChoicePlayer(), own_players.seeded_random)
    alone = list(play_games(kinds, 3, seed=7))
    assert list(play_games(kinds, 3, seed=7, jobs=2)) == alone
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
        assert list(play_games(kinds, 3, seed=7, executor=pool)) == alone
    named = ("own_players:FIRST", "own_players:seeded_random")
    assert list(play_games(named, 3, seed=7, jobs=2)) == alone
    named = ("own_players:FirstChoicePlayer", "own_players:seeded_random")
    assert list(play_games(named, 3, seed=7, jobs=2)) == alone
    result = run_match(*kinds, games=3, seed=7, jobs=2)
    assert result.kinds == ("FirstChoicePlayer", "seeded_random") and result.games == 3


def test_a_player_that_cannot_cross_processes_is_refused_clearly() -> None:
    @attrs.define
    class LocalPlayer:
        def choose(self, view: fh.PlayerView) -> fh.Action:
            return view.legal_actions[-1]

    def factory(rng: random.Random) -> RandomPlayer:
        return RandomPlayer(rng)

    kinds: list[PlayerSpec] = [LocalPlayer(), factory, lambda rng: LocalPlayer()]
    for kind in kinds:
        with pytest.raises(fh.FiveHundredError, match="cannot be sent to another process"):
            list(play_games((kind, "random"), 2, seed=1, jobs=2))
        with (
            concurrent.futures.ProcessPoolExecutor(max_workers=1) as pool,
            pytest.raises(fh.FiveHundredError, match="module:attr"),
        ):
            list(play_games((kind, "random"), 2, seed=1, executor=pool))
        # here, or on threads, nothing crosses a process
        alone = list(play_games((kind, "random"), 2, seed=1))
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as threads:
            assert list(play_games((kind, "random"), 2, seed=1, executor=threads)) == alone


@attrs.define
class LockedPlayer:
    """A player holding a lock, which cannot be copied."""

    lock: threading.Lock = attrs.field(factory=threading.Lock)

    def choose(self, view: fh.PlayerView) -> fh.Action:
        return view.legal_actions[0]


def test_a_player_that_cannot_be_copied_asks_for_a_factory() -> None:
    with pytest.raises(fh.FiveHundredError, match=r"cannot be copied .* pass a factory"):
        run_match(LockedPlayer(), "random", games=1)
    result = run_match(lambda rng: LockedPlayer(), "random", games=1)
    assert result.kinds == ("<lambda>", "random") and result.games == 1


def test_a_bad_module_attr_says_what_is_wrong(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = {
        "own_players:Nobody": "module 'own_players' has no attribute 'Nobody'",
        "no_such_bots_module:Bot": "no module 'no_such_bots_module' to import",
        ":Bot": "write module:attr",
        "own_players:": "write module:attr",
    }
    for text, message in cases.items():
        with pytest.raises(fh.FiveHundredError, match=re.escape(message)):
            make_player(text, random.Random(1))
    with pytest.raises(fh.FiveHundredTypeError, match="NOT_A_PLAYER is not a player"):
        make_player("own_players:NOT_A_PLAYER", random.Random(1))
    with pytest.raises(fh.FiveHundredTypeError, match="returned str, not a player"):
        make_player("own_players:not_a_factory", random.Random(1))
    with pytest.raises(fh.FiveHundredTypeError, match="is not a player"):
        make_player(3.5, random.Random(1))  # type: ignore[arg-type]  # wrong on purpose
    (tmp_path / "broken_bots.py").write_text("raise RuntimeError('no model file')\n")
    (tmp_path / "needy_bots.py").write_text("import no_such_dependency_of_bots\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(fh.FiveHundredError, match="importing 'broken_bots' failed: Runtime"):
        run_match("broken_bots:Bot", "random", games=1)
    needy = "importing 'needy_bots' failed: No module named 'no_such_dependency_of_bots'"
    with pytest.raises(fh.FiveHundredError, match=re.escape(needy)):
        make_player("needy_bots:Bot", random.Random(1))
    with pytest.raises(fh.FiveHundredError, match="unknown player type 'genius'"):
        run_match("genius", "random", games=1)


def test_player_names_and_a_table_wide_enough_for_them() -> None:
    assert player_name("own_players:FIRST") == "own_players:FIRST"
    assert player_name(own_players.seeded_random) == "seeded_random"
    assert player_name(own_players.FirstChoicePlayer()) == "FirstChoicePlayer"
    assert player_name(RandomPlayer) == "RandomPlayer"
    result = run_match("own_players:FirstChoicePlayer", "heuristic", games=2, seed=2)
    header, first, second = format_match(result).splitlines()[1:]
    assert first.startswith("own_players:FirstChoicePlayer ")
    assert len(header.split("wins")[0]) == len(first.split(" ")[0]) + 1 + 6 - len("wins")
    assert second.startswith("heuristic ")


def test_the_command_lines_take_module_attr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["own_players:FirstChoicePlayer", "random", "--games", "2", "--jobs", "2"]) == 0
    assert "own_players:FirstChoicePlayer" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stopped:
        main(["own_players:Nobody", "random"])
    assert stopped.value.code == 2
    assert "has no attribute 'Nobody'" in capsys.readouterr().err
    argv = ["simulate", "--games", "2", "--bots", "own_players:seeded_random", "heuristic"]
    assert cli_main(argv) == 0
    assert "own_players:seeded_random" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli_main(["simulate", "--bots", "own_players:NOT_A_PLAYER"])
    assert "NOT_A_PLAYER is not a player" in capsys.readouterr().err
    # a factory that fails: its own error, not argparse's "invalid value"
    for run in (main, lambda argv: cli_main(["simulate", "--bots", *argv])):
        with pytest.raises(SystemExit):
            run(["json:dumps", "random"])
        assert "making the player raised TypeError: Object of type Random" in (
            capsys.readouterr().err
        )


@pytest.mark.parametrize(
    "rules", [fh.Rules(players=3), fh.Rules(players=6, team_size=2)], ids=["3p", "6p-pairs"]
)
def test_run_match_of_more_than_two_sides_points_to_play_games(rules: fh.Rules) -> None:
    """run_match takes two player types; a table of three sides is play_games' (one a side),
    said before any game is played."""
    with pytest.raises(
        fh.FiveHundredError,
        match=f"play_games takes {len(rules.sides)} player types, one per side",
    ):
        run_match("heuristic", "random", games=1, rules=rules)
    records = list(play_games(("heuristic",) * len(rules.sides), 1, seed=1, rules=rules))
    assert len(records) == 1
