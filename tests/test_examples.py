"""The example programs of examples/ run as scripts and do what their docstrings say.

Every ``examples/*.py`` runs as ``python examples/NAME.py`` (in a subprocess,
with a time limit); the scorekeeper and the random game are also driven through
their ``main`` functions. The table server has its own tests
(``tests/test_table_server.py``).
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path
from typing import Final

import pytest

import fivehundred as fh
from subprocesses import run_python

ROOT: Final = Path(__file__).resolve().parent.parent
EXAMPLES: Final = ROOT / "examples"
sys.path.insert(0, str(EXAMPLES))
import random_game  # noqa: E402
import scorekeeper  # noqa: E402

#: How each example is run as a script, and a line its output must hold.
RUNS: Final = {
    "scorekeeper.py": (
        ["7H by 0 took 8", "M by 3 took 0"],
        "side 1 (seats 1 & 3): +250, total 270",
    ),
    "random_game.py": (["--seed", "7"], "game over after 5 hands"),
    "bot_match.py": ([], "win rate"),
    "table_server.py": (["--demo", "--seed", "1"], "game over: side"),
    "train_agent.py": (["--train", "10", "--eval", "4"], "against heuristic players"),
}


def test_every_example_has_a_run() -> None:
    assert {path.name for path in EXAMPLES.glob("*.py")} == set(RUNS)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_example_runs_as_a_script(name: str) -> None:
    args, expected = RUNS[name]
    done = run_python([str(EXAMPLES / name), *args])
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout, done.stdout


# -- scorekeeper -------------------------------------------------------------------------


def keep(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = scorekeeper.main(list(argv), stdin=io.StringIO(stdin), out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def test_scorekeeper_prints_changes_and_totals() -> None:
    status, out, err = keep("7H by 0 took 8", "pass", "6S by 1 took 5")
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        "hand 1: 7♥ (200) by seat 0 made",
        "  side 0 (seats 0 & 2): +200, total 200",
        "  side 1 (seats 1 & 3): +20, total 20",
        "hand 2: thrown in, no score (R3.9)",
        "hand 3: 6♠ (40) by seat 1 failed",
        "  side 0 (seats 0 & 2): +50, total 250",
        "  side 1 (seats 1 & 3): -40, total -20",
    ]


def test_scorekeeper_reads_standard_input_with_comments() -> None:
    status, out, _ = keep(stdin="# the first hand\n7H by 2 took 7\n\n  8NT by 3 took 10 # a slam\n")
    assert status == 0
    assert "hand 2: 8NT (320) by seat 3 made" in out
    assert out.rstrip().endswith("side 1 (seats 1 & 3): +320, total 350")


def test_scorekeeper_ends_the_game_and_scores_no_more() -> None:
    status, out, err = keep("10NT by 1 took 10", "6S by 0 took 6")
    assert "game over: side 1 (seats 1 & 3) won (made a contract and reached 500)" in out
    assert status == 1 and "the game is over" in err


def test_scorekeeper_going_out_backwards() -> None:
    _, out, _ = keep("10NT by 0 took 2")
    assert "game over: side 1 (seats 1 & 3) won (the contractors fell to -500)" in out


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("7H by 0", "write a contract and the tricks its side took"),
        ("5H by 0 took 8", "is not a call"),
        ("pass by 0 took 3", "not a pass"),
        ("7H by 4 took 8", "seat 4 is not at a 4-seat table"),
        ("7H by 0 took 11", "ten tricks"),
        ("7H by 0 tricks 3 3 3", "each of the 4 seats"),
        ("7H by 0 tricks 5 5 5 5", "not possible"),
    ],
)
def test_scorekeeper_reports_a_bad_line_and_goes_on(line: str, why: str) -> None:
    status, out, err = keep(line, "7H by 0 took 8")
    assert status == 1
    assert err.startswith("line 1: ") and why in err
    assert out.startswith("hand 1: 7♥ (200) by seat 0 made")


def test_scorekeeper_three_and_five_players() -> None:
    _, out, _ = keep("--players", "3", "7C by 0 tricks 7 2 1")
    assert "seat 0: +160, total 160" in out and "seat 2: +10, total 10" in out
    _, out, _ = keep("--players", "5", "8S by 0 with 3 tricks 5 1 0 3 1")
    assert "seat 3: +240, total 240" in out and "seat 1: +10, total 10" in out


def test_scorekeeper_rule_options() -> None:
    _, out, _ = keep("--trick-points", "20", "7NT by 1 took 0", "7H by 0 took 4")
    assert "side 0 (seats 0 & 2): +200, total 200" in out  # ten tricks at 20 points
    assert "side 0 (seats 0 & 2): -200, total 0" in out
    _, out, _ = keep("--cap", "490", "9NT by 0 took 9", "6S by 1 took 2")
    assert "side 0 (seats 0 & 2): +70, total 490" in out  # 420 + 80 is capped at 490 (V-CAP)
    _, out, _ = keep("--american", "6S by 1 took 2", "10NT by 0 took 10")
    assert "game over: side 0 (seats 0 & 2) won" in out
    status, _, err = keep("--players", "7", "pass")
    assert status == 2 and "2 to 6 players" in err


def test_scorekeeper_agrees_with_score_hand() -> None:
    rng = random.Random(3)
    rules = fh.Rules()
    keeper = scorekeeper.Scorekeeper(rules)
    totals = [0, 0]
    for _ in range(30):
        contract = rng.choice(rules.ladder.calls)
        seat, took = rng.randrange(4), rng.randrange(11)
        hand = scorekeeper.read_hand(f"{contract} by {seat} took {took}", rules)
        assert hand is not None
        side = rules.side_of(seat)
        by_side = (took, 10 - took) if side == 0 else (10 - took, took)
        changes = fh.score_hand(contract, side, by_side)
        totals = [t + c for t, c in zip(totals, changes, strict=True)]
        keeper.score(hand, io.StringIO())
        assert list(keeper.totals) == totals
        if keeper.over:
            break


# -- random game -------------------------------------------------------------------------


def test_random_game_is_the_same_for_the_same_seed() -> None:
    first, second = io.StringIO(), io.StringIO()
    random_game.main(["--seed", "3", "--tricks"], out=first)
    random_game.main(["--seed", "3", "--tricks"], out=second)
    assert first.getvalue() == second.getvalue()
    assert "trick 10:" in first.getvalue()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_game_plays_every_table_size_legally(players: int) -> None:
    state = random_game.play(players, players, 40, False, io.StringIO())
    assert state.is_over or state.hand_number == 40
    assert fh.replay(fh.record(state)) == state


def test_random_game_wild_players_bid_anything() -> None:
    out = io.StringIO()
    state = random_game.play(7, 4, 40, False, out, wild=True)
    assert state.is_over
    assert "10NT" in out.getvalue()
