"""The ``fivehundred`` command line, driven as a person would drive it."""

from __future__ import annotations

import io
import re
import sys

import pytest

import fivehundred as fh
from fivehundred import cli
from fivehundred.cli import _render as render
from fivehundred.cli import _simulate as simulating
from fivehundred.cli import _table as table
from fivehundred.cli import _watch as watching
from fivehundred.notation import parse_move
from helpers import JOKER_VOID, after_auction, dealt, run
from subprocesses import run_python
from test_bots import LOW, joker_no_trumps


class Run:
    """The outcome of one command: exit status, standard output and standard error."""

    def __init__(self, status: int, out: str, err: str) -> None:
        self.status = status
        self.out = out
        self.err = err


def run_cli(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *argv: str,
    stdin: str = "",
) -> Run:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        status = cli.main(list(argv))
    except SystemExit as exit_:  # argparse refuses a flag
        status = int(exit_.code or 0)
    captured = capsys.readouterr()
    return Run(status, captured.out, captured.err)


def no_traceback(run: Run) -> None:
    assert "Traceback" not in run.out + run.err


# -- play --------------------------------------------------------------------------------


def hand_on_first_prompt(out: str) -> list[str]:
    match = re.search(r"Your hand: (.*)", out)
    assert match is not None
    return match.group(1).split()


def test_play_a_whole_game_with_mistakes_and_undo(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    peek = run_cli(monkeypatch, capsys, "play", "--seed", "3", "--ascii", stdin="")
    assert peek.status == 0 and "Goodbye" in peek.out
    held = hand_on_first_prompt(peek.out)
    missing = next(c for c in ("AS", "KS", "QS", "AH", "KH", "AC", "AD") if c not in held)
    script = [
        "help",
        "undo",  # nothing to undo yet
        "xyz",  # not a call
        "99",  # not a choice
        "",
        "1",  # pass
        "undo",  # back to the first call
        "pass",  # typed
    ]
    # play on: first a card not held, then the first legal choice every time
    script += [missing, *["1"] * 900]
    session = run_cli(
        monkeypatch, capsys, "play", "--seed", "3", "--ascii", stdin="\n".join(script) + "\n"
    )
    no_traceback(session)
    out = session.out
    assert session.status == 0
    assert "type the number of a choice" in out  # help
    assert "nothing to undo yet" in out
    assert "'xyz' is not a call" in out
    assert "99 is not a choice" in out
    assert "undone: back to before your pass" in out
    assert f"You do not hold {missing}" in out
    assert "Contract:" in out and "trick  1:" in out
    assert "Game over:" in out
    assert "Your hand:" in out and "Trick " in out and "scores:" in out


def auction_line(out: str) -> str:
    match = re.search(r"\n  auction: (.*)\n", out)
    assert match is not None, out
    return match.group(1)


def test_undo_takes_the_call_out_of_the_auction_summary(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An undone call is gone: the auction reads as if it had never been made (R3)."""
    plain = run_cli(monkeypatch, capsys, "play", "--seed", "3", "--ascii", stdin="pass\nquit\n")
    undone = run_cli(
        monkeypatch, capsys, "play", "--seed", "3", "--ascii", stdin="7h\nundo\npass\nquit\n"
    )
    assert "undone: back to before your 7H" in undone.out
    summary = auction_line(undone.out)
    assert summary.startswith("seat 2 6C, seat 3 6H, you pass, ")
    assert "7H" not in summary.split("you pass")[0]
    assert summary == auction_line(plain.out)


def test_undo_names_an_undone_discard_in_the_table_s_notation_R4(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = "10NT\n10s qs kc\nundo\nquit\n"
    session = run_cli(monkeypatch, capsys, "play", "--seed", "5", stdin=script)
    assert "You took the kitty (A♦ 7♥ 9♥) and discarded 10♠ Q♠ K♣" in session.out
    assert "undone: back to before your discard 10♠ Q♠ K♣\n" in session.out
    # back at the exchange (R4.1): the kitty is offered again
    assert session.out.split("undone: ")[1].count("Hand and kitty:") == 1


RULE = "-" * 60  # the line that opens the table's status before each prompt


@pytest.mark.parametrize(
    ("seed", "moves"),
    [
        pytest.param(3, ["7h", "undo", "pass"], id="auction-R3_8"),
        pytest.param(5, ["10NT", "1 2 3", "undo", "4 5 6", "decline"], id="kitty-R4_1"),
        pytest.param(3, ["1", "1", "undo", "last", "1"], id="play-R5_1"),
        pytest.param(3, [*["1"] * 9, "undo", "last", "1"], id="across-the-hand-boundary-R2_1"),
    ],
)
def test_after_undo_the_game_reads_as_if_the_action_was_never_taken(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], seed: int, moves: list[str]
) -> None:
    """From the undo on, a session is word for word the one without the undone action.

    The auction summary, ``last`` and the deal of the next hand come from what the
    table keeps; an undo must rewind all of it, not only the game state.
    """
    at = moves.index("undo")
    before, after = moves[: at - 1], moves[at + 1 :]  # without the undone move and the undo
    play_on = ["1"] * 900  # the first choice every time, to the end of the game
    argv = ("play", "--seed", str(seed), "--ascii")
    plain = run_cli(monkeypatch, capsys, *argv, stdin="\n".join([*before, *after, *play_on]))
    undoing = run_cli(monkeypatch, capsys, *argv, stdin="\n".join([*moves, *play_on]))
    no_traceback(undoing)
    assert "Game over:" in plain.out
    assert undoing.out.count("undone: back to before your ") == 1
    # the session goes on from the status the undone action was chosen at
    tail = undoing.out.split("undone: ", 1)[1].split("\n", 1)[1]
    expected = RULE + RULE.join(plain.out.split(RULE)[len(before) + 1 :])
    # the Joker nomination is explained once a game, so only before the undo
    note = table.NOMINATION_NOTE + "\n"
    assert tail == expected.replace(note, "")


def test_play_shows_unicode_suits_and_takes_typed_cards(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    session = run_cli(monkeypatch, capsys, "play", "--seed", "8", "--seat", "2", stdin="pass\n")
    assert session.status == 0
    assert "you are seat 2, your partner is seat 0" in session.out
    hand = hand_on_first_prompt(session.out)
    assert all(any(s in card for s in "♠♣♦♥") or card == "Jo" for card in hand)
    assert "You pass" in session.out and "Goodbye" in session.out


def test_play_discard_nominate_and_joker_lead_prompts() -> None:
    """The exchange, the nomination and a Joker lead, answered at the prompts."""
    state = joker_no_trumps()
    view = fh.observe(state, 0)
    with pytest.raises(cli.UsageError, match="exactly 3 different cards"):
        table._read_action("1 2", state, view)
    with pytest.raises(cli.UsageError, match="numbers go 1 to 13"):
        table._read_action("1 2 30", state, view)
    discard = table._read_action("discard 9H 10H JH", state, view)
    assert discard == fh.Discard(fh.parse_cards("9H 10H JH"))
    # by number in the order shown: Jo AS KS AC KC AD KD AH KH QH JH 10H 9H
    assert table._read_action("11 12 13", state, view) == fh.Discard(fh.parse_cards("9H 10H JH"))
    state = fh.apply(state, discard)
    view = fh.observe(state, 0)
    assert table._read_action("decline", state, view) == fh.DECLINE
    assert table._read_action("hearts", state, view) == fh.Nominate(fh.Suit.HEARTS)
    assert table._read_action("2", state, view) == fh.Nominate(fh.Suit.CLUBS)
    with pytest.raises(cli.UsageError, match="not a suit"):
        table._read_action("purple", state, view)
    state = fh.apply(state, fh.DECLINE)
    view = fh.observe(state, 0)
    with pytest.raises(cli.UsageError, match="names a suit not yet led"):
        table._read_action("Jo", state, view)
    assert table._read_action("Jo H", state, view) == fh.Play(fh.JOKER, fh.Suit.HEARTS)
    assert table._read_action("jo:d", state, view) == fh.Play(fh.JOKER, fh.Suit.DIAMONDS)
    with pytest.raises(cli.UsageError, match="not a suit"):
        table._read_action("Jo X", state, view)
    with pytest.raises(cli.UsageError, match="play one card"):
        table._read_action("AS KS QS", state, view)
    assert table._read_action("as", state, view) == fh.Play(fh.parse_card("AS"))
    state = fh.apply(state, fh.Play(fh.parse_card("AS")))
    view = fh.observe(state, 1)
    with pytest.raises(cli.UsageError, match="must follow spades"):
        table._read_action("5C", state, view)


def test_nomination_prompt_without_the_joker_offers_only_no_nomination_R7_1() -> None:
    """Every NT contract asks; without the Joker the only answer is no nomination (R7.1)."""
    state = run(after_auction("7NT", 0, *JOKER_VOID), "discard 7H 6H 5H")
    assert state.phase is fh.Phase.NOMINATE
    view = fh.observe(state, 0)
    assert table._choices(view) == [fh.DECLINE]
    assert table._read_action("1", state, view) == fh.DECLINE
    assert table._read_action("decline", state, view) == fh.DECLINE
    with pytest.raises(cli.UsageError, match=r"You do not hold the Joker .*\(R7\.1\)"):
        table._read_action("hearts", state, view)
    out = io.StringIO()
    prompt = table.Prompt(io.StringIO("hearts\nnone\n"), out)
    sitting = table._Table(
        seed=1, human=0, rules=fh.Rules(), bots=["random"], budget=1, style=render.Style(True, 0)
    )
    assert table._ask_action(prompt, sitting, state, view) == fh.DECLINE
    assert "decline is your only choice" in out.getvalue()
    # the rule ID waits behind 'why'
    assert "can only make no nomination ('why' for the rule)" in out.getvalue()


def test_play_partner_call_prompt_P5() -> None:
    rules = fh.Rules(players=5)
    state = fh.deal(fh.new_game(rules, dealer=0), seed=1)
    state = fh.apply(state, fh.parse_call("6S"))
    while state.phase is fh.Phase.BIDDING:
        state = fh.apply(state, fh.PASS)
    state = fh.apply(state, fh.legal_actions(state)[0])  # the discard
    assert state.phase is fh.Phase.PARTNER
    seat = state.to_act
    assert seat is not None
    view = fh.observe(state, seat)
    own = view.hand[0]
    other = next(c for c in rules.deck if c not in view.hand and not c.is_joker)
    assert table._read_action(f"partner {other}", state, view) == fh.CallPartner(other)
    with pytest.raises(cli.UsageError, match="must call a card it does not hold"):
        table._read_action(str(own), state, view)
    with pytest.raises(cli.UsageError, match="one card"):
        table._read_action("AS KS", state, view)
    by_seat = fh.Rules(players=5, partner_by_seat=True)
    assert parse_move("seat 2", phase=fh.Phase.PARTNER) == fh.CallPartner(seat=2)
    assert by_seat.partner_by_seat


def test_play_ends_cleanly_on_ctrl_c(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(self: table.Prompt, prompt: str) -> str | None:
        raise KeyboardInterrupt

    monkeypatch.setattr(table.Prompt, "ask", interrupted)
    assert cli.main(["play", "--seed", "1"]) == 130
    captured = capsys.readouterr()
    assert "interrupted" in captured.err and "Traceback" not in captured.err


def test_play_quit_and_random_seed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    session = run_cli(monkeypatch, capsys, "play", stdin="quit\n")
    assert session.status == 0 and "Goodbye" in session.out


# -- watch and simulate --------------------------------------------------------------------


def test_watch_narrates_a_whole_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_cli(monkeypatch, capsys, "watch", "--seed", "1")
    no_traceback(run)
    out = run.out
    assert run.status == 0
    assert out.startswith("Five Hundred, 4 players, seed 1")
    for text in ("Hand 1: seat", "  seat 0: ", "kitty:", "auction:", "Contract:", "trick  1:"):
        assert text in out
    assert re.search(r"trick 10: .* -> seat \d", out)
    assert re.search(r"(made|failed)\n  seats 0 & 2 +[+-]\d+ +score -?\d+", out)
    assert "Game over: seats" in out
    again = run_cli(monkeypatch, capsys, "watch", "--seed", "1")
    assert again.out == out  # seeded: the same game every time


def test_watch_other_tables_and_players(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_cli(
        monkeypatch,
        capsys,
        "watch",
        "--seed",
        "2",
        "--players",
        "2",
        "--ascii",
        "--bots",
        "random",
    )
    assert run.status == 0 and "dead hand:" in run.out and "Game over" in run.out
    assert "♠" not in run.out
    run = run_cli(
        monkeypatch,
        capsys,
        "watch",
        "--seed",
        "4",
        "--players",
        "5",
        "--bots",
        "search",
        "--budget",
        "2",
    )
    assert run.status == 0
    assert "Game over" in run.out or "Stopped after" in run.out


def test_watch_stops_a_game_that_never_ends(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(watching, "MAX_HANDS", 1)
    run = run_cli(monkeypatch, capsys, "watch", "--seed", "3", "--bots", "heuristic")
    assert "Stopped after 1 hands without a winner" in run.out


def test_simulate_prints_progress_and_a_summary(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_cli(monkeypatch, capsys, "simulate", "--games", "4", "--bots", "heuristic", "random")
    no_traceback(run)
    assert run.status == 0
    assert run.err == ""  # not a terminal: no progress bar drawn with \r
    lines = run.out.splitlines()
    assert lines[0].startswith("4 games of 4-player Five Hundred (seed 1)")
    assert "win rate" in lines[1] and "95% interval" in lines[1] and "made" in lines[1]
    assert lines[2].startswith("seats 0 & 2") and "heuristic" in lines[2] and "100.0%" in lines[2]
    assert lines[3].startswith("seats 1 & 3") and "random" in lines[3]
    assert "contracts made overall" in lines[4]


def test_simulate_on_threads_gives_the_same_summary(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    here = run_cli(monkeypatch, capsys, "simulate", "--games", "3", "--seed", "5")
    threads = run_cli(
        monkeypatch, capsys, "simulate", "--games", "3", "--seed", "5", "--backend", "thread"
    )
    assert here.status == threads.status == 0
    assert here.out == threads.out


def test_simulate_under_other_rules(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_cli(
        monkeypatch, capsys, "simulate", "--games", "2", "--players", "3", "--rules", "american"
    )
    assert run.status == 0 and "3-player" in run.out and "seat 2" in run.out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--games", "0"], "at least 1"),
        (["simulate", "--games", "many"], "'many' is not a whole number"),
        (["simulate", "--players", "7"], "2 to 6 players"),
        (["simulate", "--rules", "martian"], "unknown rules preset 'martian'"),
        (["simulate", "--bots", "genius"], "'genius' is not a computer player"),
        (["simulate", "--bots", "random", "random", "random"], "one per side"),
        (["play", "--seat", "4"], "--seat 4 is not a seat"),
        (["watch", "--seed", "x"], "'x' is not a whole number"),
        (["rules", "--players", "5", "--rules", "australian"], None),
        (["score", "7H"], "write a contract and the tricks"),
        (["score", "7Z", "8"], "'7Z' is not a call"),
        (["score", "7H", "eleven"], "'eleven' is not a number of tricks"),
        (["score", "7H", "11"], "11 tricks is not possible"),
        (["score", "7H", "8", "2"], "'2' is not a side"),
        (["score", "pass", "0"], "a pass is not a contract"),
        (["score", "--scores", "1,2,3"], "--scores needs 2 scores"),
        (["score", "--scores", "a,b"], "not a list of scores"),
        (["score", "--side", "2"], "--side 2 is not a side"),
        (["score", "--players", "3", "6S", "8"], "give the tricks of all 3 sides"),
        (["score", "--players", "3", "6S", "8,3,3"], "are not possible"),
        (["nonsense"], "invalid choice"),
    ],
)
def test_bad_input_gets_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str | None,
) -> None:
    run = run_cli(monkeypatch, capsys, *argv)
    no_traceback(run)
    if message is None:
        assert run.status == 0
        return
    assert run.status == 2
    assert message in run.err
    assert len(run.err.strip().splitlines()) == 1


def test_rules_presets_table() -> None:
    assert cli.rules_for("American", 4).single_round
    with pytest.raises(cli.UsageError, match="no australian rules for 9 players"):
        cli.rules_for("australian", 9)


# -- score and rules -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "tricks", "changes"),
    [
        ("7H", "8", (200, 20)),
        ("7H", "6", (-200, 40)),
        ("6S", "10", (250, 0)),  # the slam (R8.2)
        ("8C", "10", (260, 0)),
        ("10NT", "10", (520, 0)),
        ("M", "0", (250, 0)),
        ("OM", "1", (-500, 0)),
    ],
)
def test_score_one_hand_against_the_table(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    contract: str,
    tricks: str,
    changes: tuple[int, int],
) -> None:
    run = run_cli(monkeypatch, capsys, "score", contract, tricks)
    assert run.status == 0
    assert changes == fh.score_hand(fh.parse_call(contract), 0, (int(tricks), 10 - int(tricks)))
    value = fh.bid_value(fh.parse_call(contract))
    assert changes[0] in (value, -value, 250)
    lines = run.out.splitlines()
    assert ("made" in lines[0]) == (changes[0] > 0)
    for line, side, change in zip(lines[1:3], ("seats 0 & 2", "seats 1 & 3"), changes, strict=True):
        assert line.split() == [*side.split(), f"{change:+d}", "total", str(change)]


def test_score_for_the_other_side_from_running_totals(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_cli(monkeypatch, capsys, "score", "8NT", "9", "1", "--scores", "100,250")
    assert "seats 1 & 3   +320  total 570" in run.out
    assert "Game over: seats 1 & 3 win" in run.out


def test_score_interactive_loop(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ["7H 8", "", "undo", "undo", "undo", "bogus", "M 0 1", "6S 4", "quit"]
    run = run_cli(monkeypatch, capsys, "score", "--ascii", stdin="\n".join(lines) + "\n")
    out = run.out
    assert run.status == 0
    assert out.startswith("Scorekeeper (side 0: seats 0 & 2, side 1: seats 1 & 3)")
    assert "7H by seats 0 & 2 with 8 tricks: made (R6.1)" in out
    assert "undone: seats 0 & 2 0, seats 1 & 3 0" in out
    assert "nothing to undo" in out
    assert "write a contract and the tricks" in out
    assert "M by seats 1 & 3 with 0 tricks: made (R6.2)" in out
    assert "6S by seats 0 & 2 with 4 tricks: failed (R8.3)" in out
    assert "Final scores: seats 0 & 2 -40, seats 1 & 3 310" in out


def test_score_loop_ends_at_the_end_of_the_game_or_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_cli(monkeypatch, capsys, "score", stdin="OM 0\n7H 8\n")
    assert "Game over: seats 0 & 2 win (contract made)" in run.out
    assert "7H" not in run.out.split("Game over")[1]
    run = run_cli(monkeypatch, capsys, "score", stdin="7H 8\n")
    assert run.status == 0 and "Final scores: seats 0 & 2 200" in run.out


def test_rules_prints_the_ladder_in_order_and_the_table(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_cli(monkeypatch, capsys, "rules", "--ascii")
    assert run.status == 0
    rungs = re.findall(r"^\s+(\d+)\. (\S+(?: = \S+)?)\s+(\d+)$", run.out, flags=re.M)
    ladder = fh.Rules().ladder
    assert [name for _, name, _ in rungs] == [
        " = ".join(str(c) for c in rung) for rung in ladder.rungs
    ]
    assert [int(value) for _, _, value in rungs] == [fh.bid_value(rung[0]) for rung in ladder.rungs]
    for tricks in range(6, 11):
        row = " ".join(str(fh.bid_value(fh.Call.bid(tricks, s))) for s in fh.Strain)
        assert re.search(rf"^\s+{tricks}\s+" + r"\s+".join(row.split()) + "$", run.out, re.M)
    assert "M 250, OM 500, BM 500" in run.out
    american = run_cli(monkeypatch, capsys, "rules", "--rules", "american")
    assert "american rules" in american.out and "Misère" in american.out
    assert american.out.index("8♠") < american.out.index("Misère") < american.out.index("8♣")


def test_rules_without_misere_bids(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(cli.RULE_PRESETS, "plain", lambda **kw: fh.Rules(misere=False, **kw))
    run = run_cli(monkeypatch, capsys, "rules", "--rules", "plain", "--ascii")
    assert run.status == 0 and " M " not in run.out and "OM" not in run.out


# -- demo and the entry points ---------------------------------------------------------------


def test_demo_still_works(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_cli(monkeypatch, capsys, "demo", "--seed", "2", "--ascii")
    assert run.status == 0 and "Contract:" in run.out and "trick 10" in run.out
    bare = run_cli(monkeypatch, capsys)
    assert bare.status == 0 and "a seeded demo hand (seed 1)" in bare.out


def test_python_dash_m_runs_the_command_line() -> None:
    done = run_python(["-m", "fivehundred", "watch", "--seed", "1", "--ascii"], timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Game over" in done.stdout


def test_play_as_the_contractor_discards_and_plays_it_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = ["10NT", "1 2", "1 2 3", "decline", *["1"] * 400]
    session = run_cli(monkeypatch, capsys, "play", "--seed", "5", stdin="\n".join(script) + "\n")
    no_traceback(session)
    out = session.out
    assert "You bid 10NT" in out
    assert "Contract: 10NT by you (you & seat 2)" in out
    assert "Hand and kitty:" in out and "Kitty: " in out
    assert "name exactly 3 different cards to discard" in out
    assert "You took the kitty (" in out and ") and discarded " in out


def test_narration_of_the_rarer_moments() -> None:
    style = render.Style(ascii_only=True, human=0)
    rules = fh.Rules(all_pass_no_trumps=True)
    state = fh.deal(fh.new_game(rules, dealer=3), seed=1)
    after = state
    for _ in range(4):
        before, after = after, fh.apply(after, fh.PASS)
    assert render.hand_events(style, before, after) == [
        "Everyone passed: the hand is played at No Trumps"
    ]
    status = table._status(style, after, fh.observe(after, 0))
    assert any(line.startswith("No Trumps after all passed") for line in status)
    seat_call = fh.CallPartner(seat=2)
    five = fh.deal(fh.new_game(fh.Rules(players=5), dealer=0), seed=1)
    assert render.describe(style, five, seat_call, watch=True) == (
        "Seat 1 called seat 2 as partner"
    )
    card_call = fh.CallPartner(fh.parse_card("AH"))
    assert "called AH: its holder is the partner" in render.describe(
        style, five, card_call, watch=True
    )
    assert table._label(style, card_call) == "AH" and table._label(style, seat_call) == "seat 2"
    assert "nominated the Joker as a H" in render.describe(
        style, five, fh.Nominate(fh.Suit.HEARTS), watch=True
    )
    # R7.1: the same words whether or not the contractor holds the Joker
    assert "made no nomination" in render.describe(style, five, fh.DECLINE, watch=True)


def test_open_misere_hand_is_shown_to_the_person_R6_3() -> None:
    state = run(after_auction("OM", 1, LOW, "10C 8H 7H"), "discard 10C 8H 7H", "decline")
    style = render.Style(ascii_only=True, human=0)
    before = run(state, "4D", "6D")
    after = run(before, "KD")
    assert any(
        "must show the open misère hand" in line
        for line in render.hand_events(style, before, after)
    )
    status = table._status(style, after, fh.observe(after, 0))
    assert "Open misère, seat 1 shows: 7S 6S 5S  6C 5C  5D  6H 5H 4H" in status
    assert any("sits out" in line for line in render.hand_events(style, *_auction_end()))


def _auction_end() -> tuple[fh.GameState, fh.GameState]:
    state = run(dealt(LOW, "10C 8H 7H", dealer=3), "pass")
    return state, run(state, "OM", "pass", "pass")


@pytest.mark.parametrize("seed", [6, 22])
def test_demo_narrates_the_joker_and_a_partner_sitting_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    run = run_cli(monkeypatch, capsys, "demo", "--seed", str(seed))
    assert run.status == 0
    joker = "made no nomination"  # the nomination step, narrated (R4.3, R7.1)
    assert (joker in run.out) if seed == 6 else ("sits out" in run.out)


def test_narration_of_a_throw_in_and_an_all_pass_hand() -> None:
    style = render.Style(ascii_only=True)
    state = fh.deal(fh.new_game(dealer=3), seed=1)
    before = run(state, "pass", "pass", "pass")
    after = run(before, "pass")
    assert render.hand_events(style, before, after) == ["Everyone passed: the hand is thrown in"]
    rules = fh.Rules(all_pass_no_trumps=True)
    state = run(fh.deal(fh.new_game(rules, dealer=3), seed=1), "pass", "pass", "pass", "pass")
    for _ in range(60):  # a hand has at most 40 plays (R5.5)
        legal = fh.legal_actions(state)
        after = fh.apply(state, legal[0])
        if after.phase is not fh.Phase.PLAY:
            break
        state = after
    else:
        raise AssertionError("the all-pass hand did not end within 60 plays")
    lines = render.hand_events(style, state, after)
    assert any(line.startswith("  seats 0 & 2 ") for line in lines)


def test_the_package_runs_as_a_module(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import runpy

    monkeypatch.setattr(sys, "argv", ["fivehundred", "score", "7H", "8"])
    with pytest.raises(SystemExit) as exit_:
        runpy.run_module("fivehundred", run_name="__main__")
    assert exit_.value.code == 0
    assert "+200" in capsys.readouterr().out


def test_play_a_joker_lead_offers_every_suit_spades_included_R7_4(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Leading the Joker in No Trumps may name spades: the hint lists it, and ``Jo S`` plays.

    ``Suit.SPADES`` is 0; the hint once filtered suits with ``if p.suit`` and so
    offered only "C, D, H" while the engine accepted ``Jo S`` (R7.4).
    """
    script = ["10NT", "11 12 13", "decline", "Jo", "Jo S", "quit"]
    session = run_cli(
        monkeypatch, capsys, "play", "--seed", "4", "--ascii", stdin="\n".join(script) + "\n"
    )
    no_traceback(session)
    assert session.status == 0
    assert "1) Jo naming S" in session.out  # the choices follow the hand: the Joker first
    assert "names a suit not yet led: 'Jo S' — you may name S, C, D, H" in session.out
    assert "You led Jo naming S" in session.out
    assert re.search(r"trick  1: you Jo, seat 1 \w+S, seat 2 \w+S, seat 3 \w+S", session.out)


# -- the terminal game for a person --------------------------------------------------------


class Terminal(io.StringIO):
    """An output stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_version(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    shown = run_cli(monkeypatch, capsys, "--version")
    assert shown.status == 0 and shown.out.strip() == f"fivehundred {fh.__version__}"


def test_play_help_says_how_to_play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = run_cli(monkeypatch, capsys, "play", "--help")
    for word in ("undo", "help", "why", "last", "quit", "Jo H", "4D 5D 6D", "--option"):
        assert word in shown.out


def test_every_rules_field_is_an_option(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import attrs

    listed = run_cli(monkeypatch, capsys, "rules", "--options")
    assert listed.status == 0
    for field in attrs.fields(fh.Rules):
        assert f"  {field.name}=" in listed.out
    assert "V-45" in listed.out  # the meaning, from the field's comment
    rules = cli.rules_for(
        "american", 4, ["target=1000", "sans-kitty=yes", "score_cap=none", "trick_points=20"]
    )
    assert (rules.target, rules.sans_kitty, rules.score_cap, rules.trick_points) == (
        1000,
        True,
        None,
        20,
    )
    assert rules.single_round  # the preset's own options stay
    table = run_cli(monkeypatch, capsys, "rules", "--option", "target=1000", "--ascii")
    assert table.status == 0 and "Win by making a contract at 1000 or more" in table.out


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("tarjet=1000", "no rule option 'tarjet' (did you mean target?)"),
        ("target=lots", "target is a whole number, not 'lots'"),
        ("misere=maybe", "misere is true or false, not 'maybe'"),
        ("score_cap=x", "score_cap is a whole number or none"),
        ("target", "write NAME=VALUE"),
        ("players=9", "no australian rules with players=9"),
    ],
)
def test_a_bad_option_is_explained(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], option: str, message: str
) -> None:
    refused = run_cli(monkeypatch, capsys, "play", "--option", option)
    assert refused.status == 2 and message in refused.err
    no_traceback(refused)


def test_play_why_last_and_final_scores(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = ["why", "1", "why", "last", "8c", "why", "1", "last", "quit"]
    session = run_cli(
        monkeypatch, capsys, "play", "--seed", "3", "--ascii", stdin="\n".join(script) + "\n"
    )
    out = session.out
    assert "Nothing was refused: every choice listed is legal" in out
    assert "Why not AC: You hold hearts (4H 8H 9H JH), so you must follow hearts" in out
    assert "No trick has been played yet." in out
    # the refusal names no rule; 'why' does (R5.3)
    assert "but played 8C ('why' for the rule)" in out
    assert (
        "Why: You hold hearts (4H 8H 9H JH), so you must follow hearts but played 8C (R5.3)" in out
    )
    # 'why' says the rule itself, not only its ID, once for each 'why' above
    assert out.count("\n  R5.3: follow the led suit if able\n") == 2
    assert "\ntrick  1: seat 3 6H, you JH, seat 1 5H, seat 2 10H -> you\n" in out  # 'last'
    assert out.endswith("Final scores: you & seat 2 0, seats 1 & 3 0\nGoodbye.\n")
    assert "seat 0" not in out.split("\n", 1)[1]  # after the greeting, the player is "you"


def test_play_marks_trumps_and_numbers_choices_in_hand_order(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = ["1", "1", "quit"]
    session = run_cli(
        monkeypatch, capsys, "play", "--seed", "3", "--ascii", stdin="\n".join(script) + "\n"
    )
    out = session.out
    assert "Your hand: trumps: 9H 8H 4H  AC JC 9C 8C  7D 6D" in out  # the library's order
    assert "1) 9H 2) 8H 3) 4H 4) AC 5) JC 6) 9C 7) 8C" in out  # the hand's order, trumps first


def test_colour_only_on_a_terminal_and_never_with_no_color(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    screen = Terminal()
    table.play(seed=3, inp=io.StringIO("1\nquit\n"), out=screen)
    assert "\x1b[1m\x1b[31m8♥\x1b[0m" in screen.getvalue()  # a red trump, in bold
    assert "\x1b[31m6♦\x1b[0m" in screen.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    plain_screen = Terminal()
    table.play(seed=3, inp=io.StringIO("1\nquit\n"), out=plain_screen)
    assert "\x1b" not in plain_screen.getvalue()
    piped = io.StringIO()
    monkeypatch.delenv("NO_COLOR")
    table.play(seed=3, inp=io.StringIO("1\nquit\n"), out=piped)
    assert "\x1b" not in piped.getvalue()
    assert plain_screen.getvalue() == piped.getvalue()


def test_simulate_draws_a_progress_bar_on_a_terminal() -> None:
    out, err = io.StringIO(), Terminal()
    simulating.simulate(
        games=4,
        rules=fh.Rules(),
        bots=["random"],
        seed=1,
        budget=1,
        jobs=1,
        out=out,
        err=err,
    )
    assert "\r[" in err.getvalue() and "4/4 games" in err.getvalue()
    assert "contracts made overall" in out.getvalue()


def test_the_nomination_step_is_explained_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = ["10NT", "1 2 3", "why", "nominate", "decline", "quit"]
    session = run_cli(
        monkeypatch, capsys, "play", "--seed", "4", "--ascii", stdin="\n".join(script) + "\n"
    )
    assert session.out.count("The Joker nomination: in No Trumps and misère") == 1
    assert "'nominate' names no suit: write S, C, D, H" in session.out
    assert "You made no nomination" in session.out


def test_watch_and_demo_share_the_narration(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = run_cli(monkeypatch, capsys, "demo", "--seed", "2", "--ascii")
    watched = run_cli(monkeypatch, capsys, "watch", "--seed", "2", "--ascii")
    hand = shown.out.split("\n", 1)[1]
    assert hand.strip() and hand in watched.out  # the demo is the watched game's first hand
    assert watched.out.rstrip().splitlines()[-1].startswith("Final scores: ")


def test_options_read_the_same_once_the_rules_types_are_resolved() -> None:
    import attrs

    from fivehundred.cli._args import parse_option

    attrs.resolve_types(fh.Rules)  # what cattrs does: annotations become types
    assert parse_option("sans_kitty=on") == ("sans_kitty", True)
    assert parse_option("score_cap=none") == ("score_cap", None)
    assert parse_option("target=750") == ("target", 750)
    assert parse_option("Misere=off") == ("misere", False)


def test_score_takes_several_hands_in_one_command_R8(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_cli(monkeypatch, capsys, "score", "7H", "8", "8S", "9", "--ascii")
    assert run.status == 0
    assert run.out.splitlines() == [
        "hand 1: 7H by seats 0 & 2 with 8 tricks: made (R6.1)",
        "  seats 0 & 2   +200  total 200",
        "  seats 1 & 3    +20  total 20",
        "hand 2: 8S by seats 0 & 2 with 9 tricks: made (R6.1)",
        "  seats 0 & 2   +240  total 440",
        "  seats 1 & 3    +10  total 30",
    ]
    long = run_cli(monkeypatch, capsys, "score", "7H by 1 took 8", "pass", "--ascii")
    assert "hand 1: 7H by seats 1 & 3 with 8 tricks: made" in long.out
    assert "hand 2: Thrown in: everyone passed, no score (R3.9)" in long.out
    over = run_cli(monkeypatch, capsys, "score", "10NT", "10", "6S", "6")
    assert over.status == 2 and "the game is over after hand 1" in over.err
    five = run_cli(
        monkeypatch, capsys, "score", "--players", "5", "8S by 0 with 3 tricks 5 1 0 3 1"
    )
    assert "by seat 0 with 8 tricks: made" in five.out


def test_a_terminal_is_read_with_input_and_line_editing(monkeypatch: pytest.MonkeyPatch) -> None:
    """At a terminal the prompt goes through input() (readline's line editing, history)."""
    import builtins

    answers = iter(["pass"])

    def typed(prompt: str) -> str:
        assert prompt == "Your call> "
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    keyboard, screen = Terminal(), Terminal()
    monkeypatch.setattr(sys, "stdin", keyboard)
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setattr(builtins, "input", typed)
    prompt = table.Prompt(sys.stdin, sys.stdout)
    assert prompt.ask("Your call> ") == "pass"
    assert prompt.ask("Your call> ") is None  # Ctrl-D
    assert "readline" in sys.modules
