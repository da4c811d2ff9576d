"""The review after each hand and claims (``server._review``): the solver's answers, the
time budget, and the routes and messages that carry them. Every wait is bounded."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("httpx2", reason="httpx2 (Starlette's test client) is not installed")

import attrs
from starlette.testclient import TestClient

import fivehundred as fh
from fivehundred.bots import HeuristicPlayer
from fivehundred.server import create_app
from fivehundred.server._review import (
    FOLLOW_IDLE,
    HandJob,
    Reviewer,
    build_review,
    claim_line,
    finished_hands,
    hand_job,
    review_pieces,
    run_budgeted,
)
from fivehundred.server.tables import Refused, Table, Tables
from fivehundred.solver import claim, solve
from socket_support import receive
from subprocesses import python_env

JSON = dict[str, Any]
#: The misère calls, in notation.
MISERES = {"M", "OM", "BM"}
#: Seconds any one socket message or review may take to arrive.
WAIT = 60.0
#: Moves a test drives at most.
MAX_MOVES = 2000
#: Seconds a person at the table thinks over a card at most.
THINK = 60.0


def played_hand(players: int, seed: int) -> fh.GameState:
    """A game whose last hand was contracted and played out by heuristic players."""
    state = fh.new_game(fh.Rules(players=players), dealer=0)
    bot = HeuristicPlayer(random.Random(seed))
    for deal in range(1, 20):
        state = fh.deal(state, seed=seed * 100 + deal)
        for _ in range(MAX_MOVES):
            if state.phase is fh.Phase.DEAL or state.result is not None:
                break
            seat = state.to_act
            assert seat is not None
            state = fh.apply(state, bot.choose(fh.observe(state, seat)))
        last = state.last_hand
        if (last is not None and last.contractor is not None) or state.result is not None:
            return state
    raise AssertionError("no hand was contracted in 19 deals")


# -- the review, in process -----------------------------------------------------------------


def test_a_review_values_every_card_against_the_solver_R5() -> None:
    state = played_hand(2, 1)
    job = hand_job(state, state.hand_number)
    pieces = list(review_pieces(job))
    review = build_review(job.hand, pieces, complete=True)
    steps = list(job.states())
    first_play = next(s for s, action in steps if isinstance(action, fh.Play))
    assert review["could_make"] == solve(first_play, actions=False).total
    last = state.last_hand
    assert last is not None and review["contract"] == str(last.contract)
    assert review["made"] == last.made
    side = set(review["side"])
    assert review["tricks_taken"] == sum(1 for t in state.tricks if t.winner in side)
    assert len(review["tricks"]) == len(state.tricks)
    for trick, played in zip(review["tricks"], state.tricks, strict=True):
        assert trick["winner"] == played.winner
        assert [[c["seat"], c["card"]] for c in trick["cards"]] == [
            [seat, str(card)] for seat, card in played.plays
        ]
        for card in trick["cards"]:
            assert card["analysed"]
            # a card among the best lost nothing; any other lost at least a trick
            assert (card["card"] in card["best"]) == (card["lost"] == 0)
            if not card["forced"]:
                ours = card["seat"] in side
                gain = card["best_tricks"] - card["tricks"]
                assert card["lost"] == abs(gain)
                assert gain >= 0 if ours else gain <= 0
            else:
                assert card["saved"] == 0 and card["worst"] == [card["card"]]


def test_a_review_says_the_tricks_a_best_card_saved_against_the_worst_R5() -> None:
    """Each card's ``worst`` are the cards its player held that would have kept the fewest
    tricks for their side, and ``saved`` the tricks the card played kept over them: read
    from the solver's value of every card the player could have played."""
    state = played_hand(2, 1)
    job = hand_job(state, state.hand_number)
    review = build_review(job.hand, list(review_pieces(job)), complete=True)
    before = {}  # each card's (trick, seat): the state it was played from
    for position, action in job.states():
        if isinstance(action, fh.Play):
            assert position.to_act is not None
            before[len(position.tricks) + 1, position.to_act] = (position, action)
    saves = 0
    for trick in review["tricks"]:
        for card in trick["cards"]:
            if card["forced"]:
                continue
            position, action = before[trick["number"], card["seat"]]
            found = solve(position)
            # a side wants more tricks, a misère contractor fewer (R6.3)
            wants_more = (card["seat"] in found.side) != (review["contract"] in MISERES)
            worst = (min if wants_more else max)(found.values.values())
            assert card["worst"] == [
                fh.format_action(p) for p, value in found.values.items() if value == worst
            ]
            assert card["saved"] == abs(found.values[action] - worst)
            assert card["card"] not in card["worst"] or card["saved"] == 0
            saves += card["lost"] == 0 and card["saved"] > 0
    assert saves, "no best card of the hand saved a trick"


def test_a_passed_out_hand_has_nothing_to_value_R3_8() -> None:
    state = fh.deal(fh.new_game(fh.Rules(players=2), dealer=0), seed=3)
    while state.phase is fh.Phase.BIDDING:
        state = fh.apply(state, fh.parse_action("pass"))
    job = hand_job(state, 1)
    review = build_review(1, list(review_pieces(job)), complete=True)
    assert review["contract"] is None and review["tricks"] == [] and review["could_make"] is None


def test_a_hand_not_dealt_has_no_job() -> None:
    with pytest.raises(ValueError, match="not been dealt"):
        hand_job(fh.new_game(), 1)


def test_finished_hands_counts_the_hands_over() -> None:
    state = fh.deal(fh.new_game(dealer=0), seed=1)
    assert finished_hands(fh.new_game()) == 0 and finished_hands(state) == 0
    over = played_hand(4, 2)
    assert finished_hands(over) == over.hand_number


def test_a_review_cut_short_keeps_what_it_found_and_says_so() -> None:
    state = played_hand(6, 4)  # six players: far over the budget on any build
    job = hand_job(state, state.hand_number)
    # enough for a child to start on a loaded machine, far from enough for the search
    pieces, done = run_budgeted("review", job, -1, 3.0)
    review = build_review(job.hand, pieces, done)
    assert not done and not review["complete"]
    assert review["could_make"] is None  # the first lead, the slowest, is not reached
    analysed = [c["analysed"] for t in review["tricks"] for c in t["cards"]]
    assert analysed and not all(analysed)


def test_a_review_in_a_child_process_matches_one_in_process() -> None:
    state = played_hand(2, 5)
    job = hand_job(state, state.hand_number, people=[1])  # the order crosses the pipe too
    pieces, done = run_budgeted("review", job, -1, WAIT)
    assert done
    assert pieces == json.loads(json.dumps(list(review_pieces(job))))


def valuing_order(job: HandJob) -> list[tuple[int, int]]:
    """The ``(trick, seat)`` of each card, in the order a review values them: the
    people's cards from the last back, the first lead, then the others' from the last."""
    cards = [
        (len(state.tricks) + 1, state.to_act)
        for state, action in job.states()
        if isinstance(action, fh.Play)
    ]
    first = [card for number, card in enumerate(cards) if card[1] in job.people or number == 0]
    rest = [card for card in cards if card not in first]
    return [(trick, seat) for trick, seat in [*first[::-1], *rest[::-1]] if seat is not None]


@pytest.mark.parametrize("people", [(), (1,), (0, 3)])
def test_a_review_values_the_peoples_cards_and_the_first_lead_first(
    people: tuple[int, ...],
) -> None:
    # at five or six players a review can run out of time: what it leaves out then is
    # another seat's early card, not the person's own, nor what the contract could make
    state = played_hand(4, 9)
    job = hand_job(state, state.hand_number, people)
    order = [(p["trick"], p["seat"]) for p in review_pieces(job) if p["piece"] == "card"]
    assert order == valuing_order(job) and len(order) == len(set(order))
    if people:
        assert order[0][1] in people and order[0][0] > order[-1][0]


def test_a_followed_hand_values_the_peoples_cards_first() -> None:
    import queue

    from fivehundred.server._review import follow_pieces

    state = played_hand(4, 9)
    job = hand_job(state, state.hand_number, people=[2])
    later: queue.Queue[JSON | None] = queue.Queue()
    later.put({"job": job, "final": True})
    pieces = list(follow_pieces(job, later))
    order = [(p["trick"], p["seat"]) for p in pieces if p["piece"] == "card"]
    assert order == valuing_order(job)
    assert [p for p in pieces if p["piece"] == "hand"] == list(review_pieces(job))[:1]


def test_a_review_job_round_trips_through_json() -> None:
    job = hand_job(played_hand(3, 6), 1, people=[2, 0])
    assert job.people == (0, 2)
    data = json.loads(json.dumps(attrs.asdict(job)))
    again = HandJob(**{**data, "actions": tuple(data["actions"])})
    assert again == job and again.state() == job.state()


def test_the_reviewer_keeps_a_review_and_calls_back_once() -> None:
    got: list[tuple[str, JSON]] = []
    arrived = threading.Event()

    def done(table_id: str, review: JSON) -> None:
        got.append((table_id, review))
        arrived.set()

    reviewer = Reviewer(done, budget=WAIT)
    job = hand_job(played_hand(2, 7), 1)
    try:
        assert reviewer.start("t", job) and reviewer.start("t", job)  # the second: under way
        assert arrived.wait(WAIT)
        assert reviewer.get("t", 1) == got[0][1] and got[0][0] == "t"
        assert not reviewer.pending("t", 1)
        assert reviewer.start("t", job)  # kept: nothing to do
    finally:
        reviewer.close()
    assert len(got) == 1 and got[0][1]["complete"]


def test_the_reviewer_refuses_beyond_its_queue() -> None:
    reviewer = Reviewer(lambda table_id, review: None, budget=0.5, workers=1, waiting=1)
    job = hand_job(played_hand(2, 8), 1)
    try:
        assert reviewer.start("a", job)
        assert not reviewer.start("b", job)
    finally:
        reviewer.close()


def play_at_a_pace(reviewer: Reviewer, table_id: str, job: HandJob, think: float) -> int:
    """Play ``job``'s hand to the reviewer as a person would: after each card, think for
    up to ``think`` seconds, while the reviewer values the cards played. Answers the
    cards the reviewer was shown."""
    assert job.hand == 1  # a job's states are of a game of that one hand: its first
    shown = played = 0
    for state, action in job.states():
        if state.phase is fh.Phase.PLAY:
            reviewer.follow(table_id, state)
            shown = played
        if isinstance(action, fh.Play):
            played += 1
            for _ in range(int(think / 0.05)):
                if reviewer.followed(table_id, job.hand) >= shown:
                    break
                time.sleep(0.05)
    return shown


def review_of(reviewer: Reviewer, got: dict[str, JSON], job: HandJob) -> JSON:
    assert reviewer.start("t", job)
    for _ in range(int(WAIT / 0.05)):
        if "t" in got:
            return got["t"]
        time.sleep(0.05)
    raise AssertionError(f"no review within {WAIT} s")


def test_cards_valued_while_the_hand_is_played_are_its_review() -> None:
    got: dict[str, JSON] = {}
    reviewer = Reviewer(lambda table_id, review: got.update({table_id: review}), budget=WAIT)
    job = job_of(played_hand(3, 3))
    try:
        shown = play_at_a_pace(reviewer, "t", job, WAIT)
        assert shown and reviewer.followed("t", job.hand) == shown  # every card played
        review = review_of(reviewer, got, job)
        assert reviewer.followed("t", job.hand) == 0  # its child ended with the review
    finally:
        reviewer.close()
    # the same review as one worked out at the end of the hand alone
    assert review == build_review(job.hand, list(review_pieces(job)), complete=True)


def test_a_followed_hand_makes_way_only_when_left_idle() -> None:
    reviewer = Reviewer(lambda table_id, review: None, budget=WAIT, following=1)
    state = in_play(4, 3, 8)
    try:
        reviewer.follow("a", state)
        reviewer.follow("b", state)  # the one child is a's: b is reviewed at its end
        reviewer._feeder.submit(lambda: None).result(WAIT)
        assert list(reviewer._followers) == [("a", state.hand_number)]
        reviewer._followers["a", state.hand_number].fed -= FOLLOW_IDLE
        reviewer.follow("b", state)
        reviewer._feeder.submit(lambda: None).result(WAIT)
        assert list(reviewer._followers) == [("b", state.hand_number)]
    finally:
        reviewer.close()
    assert not reviewer._followers


def test_a_six_player_hand_played_at_a_persons_pace_is_reviewed_whole() -> None:
    got: dict[str, JSON] = {}
    reviewer = Reviewer(lambda table_id, review: got.update({table_id: review}))
    job = job_of(played_hand(6, 4))  # far over the review's budget at the end of the hand
    try:
        play_at_a_pace(reviewer, "t", job, THINK)
        review = review_of(reviewer, got, job)
    finally:
        reviewer.close()
    assert review["complete"] and review["could_make"] is not None
    assert all(card["analysed"] for trick in review["tricks"] for card in trick["cards"])


# -- claims, in process -----------------------------------------------------------------------


def in_play(players: int, seed: int, left: int) -> fh.GameState:
    """A hand in play with ``left`` cards in the hand of the seat to act."""
    bot = HeuristicPlayer(random.Random(seed))
    for deal in range(1, 20):
        state = fh.deal(fh.new_game(fh.Rules(players=players), dealer=0), seed=seed + deal)
        for _ in range(MAX_MOVES):
            seat = state.to_act
            if seat is None or (state.phase is fh.Phase.PLAY and len(state.hand(seat)) <= left):
                break
            state = fh.apply(state, bot.choose(fh.observe(state, seat)))
        if state.phase is fh.Phase.PLAY and state.contract is not None:
            return state
    raise AssertionError("no hand reached the play")


def job_of(state: fh.GameState) -> HandJob:
    return hand_job(state, state.hand_number)


def test_a_claim_that_holds_is_played_out_on_the_solver_line_R5() -> None:
    for seed in range(40):
        state = in_play(4, seed, 3)
        seat = state.to_act
        assert seat is not None
        if state.contract is not None and state.contract.is_misere:
            continue
        remaining = len(state.hand(seat))
        if claim(state, seat, remaining):
            break
    else:
        raise AssertionError("no claim held in 40 hands")
    [verdict] = list(claim_line(job_of(state), seat))
    assert verdict["accepted"]
    side = next(s for s in state.rules.sides if seat in s)
    won_before = sum(1 for t in state.tricks if t.winner in side)
    for mover, text in verdict["line"]:
        state = fh.apply(state, fh.parse_action(text, phase=state.phase), seat=mover)
    assert state.phase is fh.Phase.DEAL  # the hand is over
    assert sum(1 for t in state.tricks if t.winner in side) == won_before + remaining


def test_a_claim_that_does_not_hold_is_refused_with_the_reason() -> None:
    state = in_play(4, 11, 3)
    seat = state.to_act
    assert seat is not None
    defender = next(s for s in range(4) if state.contractor is not None and s != state.contractor)
    for who in (seat, defender):
        if not claim(state, who, 3):
            [verdict] = list(claim_line(job_of(state), who))
            assert not verdict["accepted"] and "hold your side to" in verdict["why"]
            return
    raise AssertionError("both seats can take every trick")


def test_a_claim_outside_the_play_is_refused() -> None:
    state = fh.deal(fh.new_game(dealer=0), seed=1)
    [verdict] = list(claim_line(job_of(state), 1))
    assert not verdict["accepted"] and "play of the cards" in verdict["why"]


def test_settle_refuses_a_stale_version_and_an_illegal_line() -> None:
    tables = Tables(":memory:", seed="settle")
    table, _ = tables.create({}, ["human", "heuristic", "heuristic", "heuristic"])
    before = (table.version, table.state)
    with pytest.raises(Refused) as stale:
        tables.settle(table, table.version - 1, [])
    assert stale.value.code == "STALE_VERSION"
    with pytest.raises(Refused) as illegal:
        tables.settle(table, table.version, [[0, "7NT"], [0, "7NT"]])
    assert illegal.value.status == 422
    assert (table.version, table.state) == before


# -- over the wire ------------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "t.db", seed="review", review_budget=WAIT, claim_budget=WAIT)
    with TestClient(app) as test_client:
        yield test_client
    app.state.reviewer.close()


def next_of(ws: Any, kind: str) -> JSON:
    """The next message of a kind, skipping others (at most 50)."""
    for _ in range(50):
        message = receive(ws, WAIT)
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} among 50 messages")


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def table_of(client: TestClient, table_id: str) -> Table:
    tables: Tables = client.app.state.tables  # type: ignore[attr-defined]  # Starlette's app
    return tables.get(table_id)


def test_a_finished_hand_is_reviewed_and_pushed_and_served(client: TestClient) -> None:
    created = client.post(
        "/tables", json={"rules": {"players": 2}, "seats": ["human", "heuristic"]}
    ).json()
    table_id, token = created["table"], created["tokens"]["0"]
    table = table_of(client, table_id)
    early = client.get(f"/tables/{table_id}/review/1", headers=bearer(token))
    assert early.status_code == 409 and early.json()["error"] == "HAND_NOT_OVER"
    assert client.get(f"/tables/{table_id}/review/9", headers=bearer(token)).status_code == 404
    rng = random.Random(3)
    with client.websocket_connect(f"/tables/{table_id}/live") as ws:
        ws.send_json({"type": "hello", "token": token})
        assert receive(ws, WAIT)["type"] == "view"
        for ref in range(MAX_MOVES):  # play until a hand is over
            if finished_hands(table.state) >= 1:
                break
            legal = fh.format_action(rng.choice(fh.legal_actions(table.state)))
            ws.send_json({"type": "action", "ref": ref, "action": legal, "version": table.version})
            assert next_of(ws, "ack")["ref"] == ref
        review = next_of(ws, "review")
    assert review["hand"] == 1 and review["complete"]
    served = None
    for _ in range(100):  # bounded: the review is kept once pushed
        answer = client.get(f"/tables/{table_id}/review/1", headers=bearer(created["spectator"]))
        if answer.status_code == 200:
            served = answer.json()
            break
        assert answer.status_code == 202
        time.sleep(0.05)
    assert served == review


def test_a_review_asked_for_after_a_restart_is_worked_out_again(tmp_path: Path) -> None:
    first = create_app(tmp_path / "t.db", seed="again", review_budget=WAIT)
    with TestClient(first) as client:
        created = client.post(
            "/tables", json={"rules": {"players": 2}, "seats": ["human", "heuristic"]}
        ).json()
        table = table_of(client, created["table"])
        rng = random.Random(4)
        for _ in range(MAX_MOVES):
            if finished_hands(table.state) >= 1:
                break
            legal = fh.format_action(rng.choice(fh.legal_actions(table.state)))
            client.post(
                f"/tables/{created['table']}/actions",
                json={"action": legal, "version": table.version},
                headers=bearer(created["tokens"]["0"]),
            )
    first.state.reviewer.close()
    second = create_app(tmp_path / "t.db", seed="again", review_budget=WAIT)
    with TestClient(second) as client:
        url, headers = f"/tables/{created['table']}/review/1", bearer(created["tokens"]["0"])
        assert client.get(url, headers=headers).status_code == 202
        second.state.reviewer.close()  # waits for the review under way
        answer = client.get(url, headers=headers)
    assert answer.status_code == 200 and answer.json()["hand"] == 1


def drive_to_play(client: TestClient, created: JSON, rng: random.Random) -> Table:
    """Play the person's random calls and discards until the cards are played."""
    table = table_of(client, created["table"])
    for _ in range(MAX_MOVES):
        if table.state.phase is fh.Phase.PLAY and table.state.to_act == 0:
            return table
        legal = fh.format_action(rng.choice(fh.legal_actions(table.state)))
        answer = client.post(
            f"/tables/{created['table']}/actions",
            json={"action": legal, "version": table.version},
            headers=bearer(created["tokens"]["0"]),
        )
        assert answer.status_code == 200, answer.json()
    raise AssertionError("the play was not reached")


def test_claims_over_http_and_the_socket_accepted_only_when_proved(client: TestClient) -> None:
    created = client.post(
        "/tables", json={"rules": {"players": 2}, "seats": ["human", "heuristic"]}
    ).json()
    token = created["tokens"]["0"]
    url = f"/tables/{created['table']}/claim"
    refused = client.post(url, json={"version": 0}, headers=bearer(token))
    assert refused.status_code == 409 and refused.json()["error"] in {
        "NOT_IN_PLAY",
        "STALE_VERSION",
    }
    rng = random.Random(9)
    seen: set[str] = set()
    with client.websocket_connect(f"/tables/{created['table']}/live") as ws:
        ws.send_json({"type": "hello", "token": token})
        assert receive(ws, WAIT)["type"] == "view"
        for _ in range(200):  # hands until a claim was refused and one accepted
            if seen == {"refused", "accepted"}:
                break
            table = drive_to_play(client, created, rng)
            state = table.state
            remaining = len(state.hand(0))
            contract = state.contract
            assert contract is not None
            if contract.is_misere and state.contractor == 0:
                holds = not solve(state, actions=False).forced
            else:
                holds = claim(state, 0, remaining)
            kind = "accepted" if holds else "refused"
            if kind in seen:  # play a card and look again
                legal = fh.format_action(rng.choice(fh.legal_actions(state)))
                client.post(
                    f"/tables/{created['table']}/actions",
                    json={"action": legal, "version": table.version},
                    headers=bearer(token),
                )
                continue
            seen.add(kind)
            hand, version = state.hand_number, table.version
            if holds:  # over HTTP
                answer = client.post(url, json={"version": version}, headers=bearer(token))
                assert answer.status_code == 200, answer.json()
                assert answer.json()["version"] == table.version > version
                assert table.state.hand_number > hand or table.state.result is not None
            else:  # over the socket
                ws.send_json({"type": "claim", "ref": "c", "version": version})
                answer_message = next_of(ws, "refused")
                assert answer_message["error"] == "CLAIM_REFUSED"
                assert table.version == version and table.state == state
        assert seen == {"refused", "accepted"}


def test_a_claim_past_its_budget_is_refused_and_changes_nothing(client: TestClient) -> None:
    created = client.post(
        "/tables", json={"rules": {"players": 2}, "seats": ["human", "heuristic"]}
    ).json()
    table = drive_to_play(client, created, random.Random(1))
    client.app.state.claim_budget = 0.0  # type: ignore[attr-defined]  # Starlette's app
    version = table.version
    answer = client.post(
        f"/tables/{created['table']}/claim",
        json={"version": version},
        headers=bearer(created["tokens"]["0"]),
    )
    assert answer.status_code == 503 and answer.json()["error"] == "CLAIM_TIMEOUT"
    assert table.version == version


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [({"version": "1"}, 400, "BAD_REQUEST"), ({}, 400, "BAD_REQUEST")],
)
def test_a_bad_claim_request_is_refused(
    client: TestClient, body: JSON, status: int, code: str
) -> None:
    created = client.post("/tables", json={}).json()
    answer = client.post(
        f"/tables/{created['table']}/claim", json=body, headers=bearer(created["tokens"]["0"])
    )
    assert answer.status_code == status and answer.json()["error"] == code


def test_a_spectator_cannot_claim_but_can_read_reviews(client: TestClient) -> None:
    created = client.post("/tables", json={}).json()
    answer = client.post(
        f"/tables/{created['table']}/claim",
        json={"version": 0},
        headers=bearer(created["spectator"]),
    )
    assert answer.status_code == 403 and answer.json()["error"] == "SPECTATOR"
    early = client.get(f"/tables/{created['table']}/review/1", headers=bearer(created["spectator"]))
    assert early.status_code == 409
    bad = client.get(f"/tables/{created['table']}/review/x", headers=bearer(created["spectator"]))
    assert bad.status_code == 404


def test_a_child_exits_when_the_server_closes_its_input() -> None:
    """A search must not outlive the server: the child watches its standard input."""
    job = hand_job(played_hand(6, 4), 1)  # minutes of search on the pure build
    request = json.dumps({"work": "review", "seat": -1, "job": attrs.asdict(job)})
    child = subprocess.Popen(
        [sys.executable, "-m", "fivehundred.server._review"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=python_env(),
    )
    assert child.stdin is not None and child.stdout is not None
    try:
        child.stdin.write(request.encode() + b"\n")
        child.stdin.flush()
        first = json.loads(child.stdout.readline())  # it has started: the hand's piece
        assert first["piece"] == "hand"
        child.stdin.close()  # what the end of the server does
        assert child.wait(WAIT) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(WAIT)
        child.stdout.close()
