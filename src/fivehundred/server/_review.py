"""The review after each hand, and claims: the double-dummy solver on the server.

After a hand, with every card seen, :func:`review_pieces` works out how many
tricks the contract could have made (:func:`fivehundred.solver.solve` from the
first lead), and for each card played, the cards that would have kept the most
tricks for its player's side next to the card played. A claim
(:func:`claim_line`) is accepted only when :func:`fivehundred.solver.claim`
proves that the claimer's side takes every remaining trick against any
defence (a misère contractor: that it can lose every one), and the rest of the
hand is then played out on the solver's line.

The solver is exact, and so can be slow: a card of a six-player hand's first
trick takes minutes even compiled. So the work never runs in the event loop,
nor even in its process: :func:`run_budgeted` runs it in a child process that
sends each piece as it is found, and stops it when the time budget is spent. A
review cut short keeps the pieces found (the people's cards and the first lead
first, each from the last trick back, as those are the quickest:
:func:`review_order`) and says it is not complete. :class:`Reviewer` runs reviews in
worker threads, a few at a time, keeps the latest, and hands each to a
callback (the live table pushes it to every socket of the table).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import selectors
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

import attrs

import fivehundred as fh
from fivehundred.records import record, rules_from_options, rules_options
from fivehundred.solver import HandMemory, claim, review_card, solve

__all__ = [
    "CLAIM_BUDGET",
    "FOLLOW_IDLE",
    "MAX_FOLLOWED",
    "MAX_KEPT",
    "MAX_REVIEWS",
    "MAX_WAITING",
    "REVIEW_BUDGET",
    "HandJob",
    "Reviewer",
    "build_review",
    "claim_line",
    "finished_hands",
    "hand_job",
    "review_pieces",
    "run_budgeted",
]

#: Seconds a hand's review may take; what is found by then is sent.
REVIEW_BUDGET: Final = 5.0
#: Seconds a claim may take to be proved (and its line played out); beyond, it is refused.
CLAIM_BUDGET: Final = 10.0
#: Reviews worked out at once (each in its own child process).
MAX_REVIEWS: Final = 2
#: Reviews waiting for a worker; beyond, a new one is not started (ask again later).
MAX_WAITING: Final = 64
#: Finished reviews kept in memory, the oldest dropped first.
MAX_KEPT: Final = 1000
#: Hands in play valued as they are played (a child process each), the oldest dropped.
MAX_FOLLOWED: Final = 2
#: Seconds a followed hand may go without a card before a newer hand takes its place.
FOLLOW_IDLE: Final = 300.0
#: Bounds a following child's solver keeps at most (about 300 bytes each).
FOLLOW_MEMORY: Final = 300_000
#: Positions one search of a card may take while its hand is played; a card not
#: valued within them is taken up again after the newer cards.
SLICE: Final = 50_000


def _seats(seats: Iterable[int]) -> tuple[int, ...]:
    return tuple(seats)


@attrs.frozen
class HandJob:
    """One hand as plain data a child process can rebuild: the rules' options, the
    dealer, the deck dealt and the actions taken, in notation; and the people's
    seats, whose cards a review values first (see :func:`review_order`)."""

    hand: int
    rules: Mapping[str, object]
    dealer: int
    deck: str
    actions: tuple[str, ...]
    people: tuple[int, ...] = attrs.field(default=(), converter=_seats)

    def states(self) -> Iterator[tuple[fh.GameState, fh.Action]]:
        """Each state of the hand with the action taken from it, in order."""
        state = fh.new_game(rules_from_options(self.rules), dealer=self.dealer)
        state = fh.deal(state, cards=self.deck)
        for text in self.actions:
            action = fh.parse_action(text, phase=state.phase)
            yield state, action
            state = fh.apply(state, action)

    def state(self) -> fh.GameState:
        """The state after the last action."""
        state = fh.new_game(rules_from_options(self.rules), dealer=self.dealer)
        state = fh.deal(state, cards=self.deck)
        for text in self.actions:
            state = fh.apply(state, fh.parse_action(text, phase=state.phase))
        return state


def finished_hands(state: fh.GameState) -> int:
    """How many hands of the game are over (the hand in play is not)."""
    if state.result is not None or state.phase is fh.Phase.DEAL:
        return state.hand_number
    return state.hand_number - 1


def hand_job(state: fh.GameState, hand: int, people: Collection[int] = ()) -> HandJob:
    """The ``hand``-th hand (from 1) of a game, as a job; the hand in play is the last.
    ``people`` are the seats of the people at the table, valued first.

    Raises :class:`ValueError` for a hand the game has not dealt.
    """
    hands = record(state).hands
    if not 1 <= hand <= len(hands):
        raise ValueError(f"hand {hand} has not been dealt")
    played = hands[hand - 1]
    return HandJob(
        hand=hand,
        rules=rules_options(state.rules),
        dealer=played.dealer,
        deck=" ".join(map(str, played.deck)),
        actions=tuple(fh.format_action(action) for action in played.actions),
        people=sorted(people),
    )


# -- the work, in the child process --------------------------------------------------------


def _plays(job: HandJob) -> list[tuple[int, int, fh.GameState, fh.Play]]:
    """Each card played: its trick (from 0), its seat, the state before it, the play."""
    plays = []
    for state, action in job.states():
        if isinstance(action, fh.Play):
            seat = state.to_act
            assert seat is not None  # a card is played by the seat to act
            plays.append((len(state.tricks), seat, state, action))
    return plays


def review_order(seat: int, number: int, people: Collection[int]) -> tuple[int, int]:
    """Where a card played comes in a review's work, the greatest first: the people's
    cards and the first lead (what the contract could make) before the other
    seats' cards, each from the last card played back (the fewer tricks left, the
    quicker the search). ``number`` is the card's place in the hand's play (0 for
    the first lead).

    A person reads the review for their own cards, and at five or six players the
    first tricks can take the solver minutes: whatever the budget leaves out is
    then another seat's card.
    """
    return (1 if seat in people or number == 0 else 0, number)


def review_pieces(job: HandJob, skip: Collection[tuple[int, int]] = ()) -> Iterator[dict[str, Any]]:
    """The pieces of a hand's review, the quickest first.

    First the hand as it was played (no search), then each card played, in the
    order of :func:`review_order`, valued by the solver: ``tricks`` is what
    the contracting side ends the hand with, under best play after the card,
    ``best`` the cards that would have kept the most tricks for the player's
    side, and ``lost`` the tricks the card cost that side. The first lead's
    best is what the contract could have made. The searches share one memory
    of the hand, so each later position is searched once. ``skip`` holds the
    ``(trick, seat)`` of cards already valued: they are not searched again.
    """
    head = _hand_piece(job)
    yield head
    if head["contractor"] is None:
        return  # nothing was contracted (V-ALL-PASS): there is no contract to value
    memory = HandMemory()
    ranked = sorted(
        enumerate(_plays(job)),
        key=lambda item: review_order(item[1][1], item[0], job.people),
        reverse=True,
    )
    for _, (trick, seat, state, play) in ranked:
        if (trick + 1, seat) not in skip:
            piece = _card_piece(trick, seat, state, play, memory=memory, nodes=None)
            assert piece is not None  # a search without a budget is exact
            yield piece


def _hand_piece(job: HandJob) -> dict[str, Any]:
    """The hand as it was played: the contract, its side and the tricks."""
    final = job.state()
    result = final.last_hand if final.phase is fh.Phase.DEAL or final.result else None
    contractor = final.contractor if result is None else result.contractor
    side: set[int] = set()
    if contractor is not None:
        side = set(next(s for s in final.rules.sides if contractor in s))
        partner = final.partner if result is None else result.partner
        if partner is not None:
            side.add(partner)
    contract = final.contract if result is None else result.contract
    return {
        "piece": "hand",
        "contract": None if contract is None else str(contract),
        "contractor": contractor,
        "side": sorted(side),
        "made": None if result is None or contractor is None else result.made,
        "contract_tricks": sum(1 for trick in final.tricks if trick.winner in side),
        "played": [
            {
                "number": number + 1,
                "leader": trick.leader,
                "winner": trick.winner,
                "cards": [[seat, str(card)] for seat, card in trick.plays],
            }
            for number, trick in enumerate(final.tricks)
        ],
    }


def _card_piece(
    trick: int,
    seat: int,
    state: fh.GameState,
    play: fh.Play,
    *,
    memory: HandMemory,
    nodes: int | None,
) -> dict[str, Any] | None:
    """A card's piece, searched within ``nodes`` positions: ``None`` if they were too few
    (what was searched stays in ``memory``, so the next search goes on from there)."""
    if len(fh.legal_plays(state)) == 1:
        return {"piece": "card", "trick": trick + 1, "seat": seat, "forced": True}
    # the played card, the best and the worst: not every card's count (review_card)
    found = review_card(state, play, memory=memory, nodes=nodes)
    if not found.exact:
        return None
    return {
        "piece": "card",
        "trick": trick + 1,
        "seat": seat,
        "forced": False,
        "tricks": found.taken + found.played,
        "best": [fh.format_action(p) for p in found.best],
        "best_tricks": found.taken + found.tricks,
        "lost": abs(found.tricks - found.played),
        "worst": [fh.format_action(p) for p in found.worst_plays],
        "worst_tricks": found.taken + found.worst,
    }


def follow_pieces(
    job: HandJob, later: queue.Queue[dict[str, Any] | None]
) -> Iterator[dict[str, Any]]:
    """The pieces of a hand's review, worked out while it is played.

    ``job`` is the hand so far; ``later`` brings each newer job as
    ``{"job": JOB}``, the hand's last as ``{"job": JOB, "final": True}``, and
    ``None`` when the server is done. Each card played is valued as soon as it
    is known, in the order of :func:`review_order`, in searches of :data:`SLICE`
    positions sharing one memory: a costly early card is taken up again after
    each newer card, from where it stopped. Once the hand is final, its piece
    comes first, and the cards left are searched to the end.
    """
    memory = HandMemory(FOLLOW_MEMORY)
    pending: dict[tuple[int, int], tuple[int, int, fh.GameState, fh.Play]] = {}
    played: dict[tuple[int, int], int] = {}  # each card's place in the hand
    valued: set[tuple[int, int]] = set()
    final = False
    inbox: list[dict[str, Any]] = [{"job": job}]
    while True:
        for message in inbox:  # take in every newer job that has come
            job = message["job"]
            if not final and message.get("final"):
                final = True
                head = _hand_piece(job)
                yield head
                if head["contractor"] is None:
                    return  # nothing was contracted (V-ALL-PASS): nothing to value
            for number, (trick, seat, state, play) in enumerate(_plays(job)):
                if (trick + 1, seat) not in valued and state.contractor is not None:
                    pending[trick + 1, seat] = (trick, seat, state, play)
                    played[trick + 1, seat] = number
        inbox = []
        if not pending:
            if final:
                return
            got = later.get()
            if got is None:
                return  # the server is done
            inbox.append(got)
            continue
        key = max(pending, key=lambda k: review_order(k[1], played[k], job.people))
        piece = _card_piece(*pending[key], memory=memory, nodes=None if final else SLICE)
        if piece is not None:
            del pending[key]
            valued.add(key)
            yield piece
        while not later.empty():
            got = later.get_nowait()
            if got is None:
                return
            inbox.append(got)


def claim_line(job: HandJob, seat: int) -> Iterator[dict[str, Any]]:
    """Judge ``seat``'s claim of every remaining trick of the hand in play; if it holds,
    the rest of the hand on the solver's line.

    Yields one piece: ``{"accepted": True, "line": [[seat, action], ...]}``, or
    ``{"accepted": False, "why": SENTENCE}``. The claimer's side plays its best
    and every other seat plays against it.
    """
    state = job.state()
    if state.phase is not fh.Phase.PLAY:
        yield {"accepted": False, "why": "a claim is made during the play of the cards"}
        return
    misere = state.contract is not None and state.contract.is_misere and seat == state.contractor
    remaining = max(
        len(state.hand(other))
        for other in range(state.rules.players)
        if other not in state.sitting_out
    )
    if misere:
        holds = not solve(state, actions=False).forced
        why = "the others can still make you take a trick"
    else:
        holds = claim(state, seat, remaining)
        best = solve(state, seat=seat, actions=False).tricks
        why = f"the others can hold your side to {best} of the {remaining} tricks left"
    if not holds:
        yield {"accepted": False, "why": why}
        return
    line: list[list[object]] = []
    hand = state.hand_number
    for _ in range(remaining * state.rules.players + 1):
        if state.phase is not fh.Phase.PLAY or state.hand_number != hand:
            break
        mover = state.to_act
        assert mover is not None
        found = solve(state, seat=None if misere else seat)
        ours = mover in found.side
        wants_more = ours != misere  # the claimer's side keeps the count it claimed
        pick = (max if wants_more else min)(found.values, key=lambda p: found.values[p])
        line.append([mover, fh.format_action(pick)])
        state = fh.apply(state, pick)
    yield {"accepted": True, "line": line}


#: The work a child process can do, by name: each yields JSON-ready pieces.
WORKS: Final[
    dict[str, Callable[[HandJob, int, Collection[tuple[int, int]]], Iterator[dict[str, Any]]]]
] = {
    "review": lambda job, seat, skip: review_pieces(job, skip),
    "claim": lambda job, seat, skip: claim_line(job, seat),
}


def run_budgeted(
    work: str,
    job: HandJob,
    seat: int,
    budget: float,
    *,
    skip: Collection[tuple[int, int]] = (),
    stop: threading.Event | None = None,
    sink: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[list[dict[str, Any]], bool]:
    """Run a work of :data:`WORKS` on ``job`` in a child process for at most ``budget``
    seconds: the pieces it sent by then, and whether it finished. Blocks: call it
    from a worker thread.

    ``skip`` is passed to the work (the cards a review need not value again);
    ``stop``, once set, ends the run early (within a twentieth of a second), and
    ``sink`` is given each piece as it arrives.

    The child is a fresh ``python -m fivehundred.server._review`` (not a fork of
    the server, with its threads and sockets), reading the job as one line of
    JSON and writing a line per piece; it is killed when the budget is spent.
    Its standard input stays open until then: when it closes (the server ended,
    even by ``kill -9``), the child exits too, so no search outlives the server.
    """
    request = json.dumps(
        {"work": work, "seat": seat, "job": attrs.asdict(job), "skip": sorted(skip)}
    )
    child = subprocess.Popen(
        [sys.executable, "-m", "fivehundred.server._review"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    pieces: list[dict[str, Any]] = []
    done = False
    deadline = time.monotonic() + budget
    buffer = b""
    assert child.stdin is not None and child.stdout is not None
    try:
        child.stdin.write(request.encode() + b"\n")
        child.stdin.flush()
        with selectors.DefaultSelector() as selector:
            selector.register(child.stdout, selectors.EVENT_READ)
            while not done:
                left = deadline - time.monotonic()
                if left <= 0 or (stop is not None and stop.is_set()):
                    break
                if not selector.select(left if stop is None else min(left, 0.05)):
                    continue
                chunk = os.read(child.stdout.fileno(), 65536)
                if not chunk:
                    break  # the child ended without its last line: keep what it sent
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    piece = json.loads(line)
                    if piece is None:
                        done = True
                    else:
                        pieces.append(piece)
                        if sink is not None:
                            sink(piece)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(5)
        child.stdout.close()
        with contextlib.suppress(OSError):  # a child that failed at once broke the pipe
            child.stdin.close()
    return pieces, done


def _exit_with_parent() -> None:  # pragma: no cover - in the child process
    """Exit when standard input closes: the server is done with this child, or gone."""
    sys.stdin.buffer.read()
    os._exit(0)


def _job(data: dict[str, Any]) -> HandJob:
    return HandJob(**{**data, "actions": tuple(data["actions"])})


def _read_later(later: queue.Queue[dict[str, Any] | None]) -> None:  # pragma: no cover
    """Each newer job the server sends a following child; exit when its input closes."""
    for line in sys.stdin.buffer:
        message = json.loads(line)
        later.put({**message, "job": _job(message["job"])})
    os._exit(0)


def main() -> None:  # pragma: no cover - the child process of run_budgeted
    """The child process: one job from stdin, one JSON line per piece on stdout."""
    request = json.loads(sys.stdin.buffer.readline())
    job = _job(request["job"])
    skip = {(trick, seat) for trick, seat in request.get("skip", ())}
    if request["work"] == "follow":  # the server's own answers come first
        with contextlib.suppress(OSError):
            os.nice(10)
        later: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=_read_later, args=(later,), daemon=True).start()
        pieces = follow_pieces(job, later)
    else:
        threading.Thread(target=_exit_with_parent, daemon=True).start()
        pieces = WORKS[request["work"]](job, request["seat"], skip)
    for piece in pieces:
        print(json.dumps(piece), flush=True)
    print("null", flush=True)


def build_review(hand: int, pieces: list[dict[str, Any]], complete: bool) -> dict[str, Any]:
    """The review message of a hand from its pieces (see docs/howto/game-server.md)."""
    head = next((p for p in pieces if p["piece"] == "hand"), None)
    cards = {(p["trick"], p["seat"]): p for p in pieces if p["piece"] == "card"}
    tricks = []
    for trick in [] if head is None else head["played"]:
        plays = []
        for seat, card in trick["cards"]:
            found = cards.get((trick["number"], seat))
            entry: dict[str, Any] = {"seat": seat, "card": card, "analysed": found is not None}
            if found is not None and found["forced"]:
                entry.update(forced=True, best=[card], lost=0, worst=[card], saved=0)
            elif found is not None:
                entry.update(
                    forced=False,
                    best=found["best"],
                    lost=found["lost"],
                    tricks=found["tricks"],
                    best_tricks=found["best_tricks"],
                    worst=found["worst"],
                    # the tricks the card kept for its side over the worst card held
                    saved=abs(found["tricks"] - found["worst_tricks"]),
                )
            plays.append(entry)
        tricks.append({"number": trick["number"], "winner": trick["winner"], "cards": plays})
    could = None
    if head is not None and head["played"]:
        first = cards.get((1, head["played"][0]["leader"]))
        could = None if first is None or first["forced"] else first["best_tricks"]
    return {
        "type": "review",
        "hand": hand,
        "complete": complete,
        "contract": None if head is None else head["contract"],
        "contractor": None if head is None else head["contractor"],
        "side": [] if head is None else head["side"],
        "made": None if head is None else head["made"],
        "tricks_taken": None if head is None else head["contract_tricks"],
        "could_make": could,
        "tricks": tricks,
    }


# -- the reviews of a server ----------------------------------------------------------------


class _Follower:
    """A child process valuing one hand's cards as it is played (``follow_pieces``)."""

    def __init__(self, job: HandJob) -> None:
        self.pieces: dict[tuple[int, int], dict[str, Any]] = {}
        self.head: dict[str, Any] | None = None
        self.sent = len(job.actions)
        #: When it was last sent a newer state.
        self.fed = time.monotonic()
        self.finished = threading.Event()
        self._lock = threading.Lock()
        self._writing = threading.Lock()
        self._child = subprocess.Popen(
            [sys.executable, "-m", "fivehundred.server._review"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._send({"work": "follow", "seat": -1, "job": attrs.asdict(job)})
        self._reader = threading.Thread(target=self._read, name="review-follow", daemon=True)
        self._reader.start()

    def _send(self, message: dict[str, Any]) -> None:
        assert self._child.stdin is not None
        # a child gone (or closed): what it found is kept
        with self._writing, contextlib.suppress(OSError, ValueError):
            self._child.stdin.write(json.dumps(message).encode() + b"\n")
            self._child.stdin.flush()

    def _read(self) -> None:
        assert self._child.stdout is not None
        for line in self._child.stdout:
            piece = json.loads(line)
            if piece is None:
                break
            with self._lock:
                if piece["piece"] == "hand":
                    self.head = piece
                else:
                    self.pieces[piece["trick"], piece["seat"]] = piece
        self.finished.set()

    def send(self, job: HandJob) -> None:
        """A newer state of the hand."""
        if len(job.actions) > self.sent:
            self.sent = len(job.actions)
            self.fed = time.monotonic()
            self._send({"job": attrs.asdict(job)})

    def finish(self, job: HandJob, deadline: float) -> tuple[list[dict[str, Any]], bool]:
        """The hand is over: the review's pieces by ``deadline``, and whether complete."""
        self._send({"job": attrs.asdict(job), "final": True})
        done = self.finished.wait(max(0.0, deadline - time.monotonic()))
        self.close()
        with self._lock:
            head = [] if self.head is None else [self.head]
            return [*head, *self.pieces.values()], done and self.head is not None

    def close(self) -> None:
        if self._child.poll() is None:
            self._child.kill()
        self._child.wait(5)
        self._reader.join(5)
        assert self._child.stdout is not None and self._child.stdin is not None
        self._child.stdout.close()
        with contextlib.suppress(OSError):
            self._child.stdin.close()


class Reviewer:
    """Works out hands' reviews in worker threads (each in a child process, within
    ``budget`` seconds) and keeps the latest :data:`MAX_KEPT`.

    While a hand is played, :meth:`follow` has a child process (at a lower
    priority) value each card as soon as it is played, in the order of
    :func:`review_order`, sharing the solver's memory across the hand; at the hand's end its
    review is then that child's work, finished within ``budget``: the whole
    budget goes to the costly first cards not yet valued. At most
    :data:`MAX_FOLLOWED` hands are followed at once (a hand left without a card
    for :data:`FOLLOW_IDLE` seconds is dropped for a newer one, as is a table's hand
    once the next is fed); a child ends when its hand's review is built.

    ``done(table_id, review)`` is called from the worker thread with each
    finished review.
    """

    def __init__(
        self,
        done: Callable[[str, dict[str, Any]], None],
        *,
        budget: float = REVIEW_BUDGET,
        workers: int = MAX_REVIEWS,
        waiting: int = MAX_WAITING,
        following: int = MAX_FOLLOWED,
    ) -> None:
        self.done = done
        self.budget = budget
        self.waiting = waiting
        self.following = following
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="review")
        #: Feeds the followers, so that building a job never delays a move's answer.
        self._feeder = ThreadPoolExecutor(1, thread_name_prefix="review-feed")
        self._lock = threading.Lock()
        self._kept: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._pending: set[tuple[str, int]] = set()
        self._followers: OrderedDict[tuple[str, int], _Follower] = OrderedDict()

    def get(self, table_id: str, hand: int) -> dict[str, Any] | None:
        """A finished review, or ``None``."""
        with self._lock:
            return self._kept.get((table_id, hand))

    def pending(self, table_id: str, hand: int) -> bool:
        """Whether a review is being worked out."""
        with self._lock:
            return (table_id, hand) in self._pending

    def start(self, table_id: str, job: HandJob) -> bool:
        """Start a hand's review unless it is kept, under way, or too many wait."""
        key = (table_id, job.hand)
        with self._lock:
            if key in self._kept or key in self._pending:
                return True
            if len(self._pending) >= self.waiting:
                return False
            self._pending.add(key)
        self._pool.submit(self._run, table_id, job)
        return True

    def follow(self, table_id: str, state: fh.GameState, people: Collection[int] = ()) -> None:
        """A table's hand in play changed: have its cards valued, ``people``'s seats
        first (in a worker thread; this returns at once and searches nothing)."""
        if state.phase is fh.Phase.PLAY and state.contractor is not None:
            self._feeder.submit(self._feed, table_id, state, tuple(people))

    def followed(self, table_id: str, hand: int) -> int:
        """How many cards of a hand in play are valued so far."""
        with self._lock:
            follower = self._followers.get((table_id, hand))
        if follower is None:
            return 0
        with follower._lock:
            return len(follower.pieces)

    def _feed(self, table_id: str, state: fh.GameState, people: tuple[int, ...]) -> None:
        key = (table_id, state.hand_number)
        job = hand_job(state, state.hand_number, people)
        dropped: list[_Follower] = []
        with self._lock:
            if key in self._kept or key in self._pending:
                return
            follower = self._followers.get(key)
            if follower is not None:
                self._followers.move_to_end(key)
            else:
                for left in [k for k in self._followers if k[0] == table_id]:
                    dropped.append(self._followers.pop(left))  # a hand left for the next
                if len(self._followers) >= self.following:
                    oldest = next(iter(self._followers.values()))
                    if oldest.fed > time.monotonic() - FOLLOW_IDLE:
                        return  # all followed hands are in play: review this one at its end
                    dropped.append(self._followers.popitem(last=False)[1])
                follower = self._followers[key] = _Follower(job)
        for gone in dropped:
            gone.close()
        follower.send(job)

    def _run(self, table_id: str, job: HandJob) -> None:
        key = (table_id, job.hand)
        deadline = time.monotonic() + self.budget
        try:
            with self._lock:
                follower = self._followers.pop(key, None)
            if follower is not None:
                pieces, complete = follower.finish(job, deadline)
            else:
                pieces, complete = run_budgeted("review", job, -1, self.budget)
            review = build_review(job.hand, pieces, complete)
            with self._lock:
                self._kept[key] = review
                while len(self._kept) > MAX_KEPT:
                    self._kept.popitem(last=False)
        finally:
            with self._lock:
                self._pending.discard(key)
        self.done(table_id, review)

    def close(self) -> None:
        """Stop taking reviews; wait for those under way (each within its budget)."""
        self._feeder.shutdown(wait=True, cancel_futures=True)
        self._pool.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            followers = list(self._followers.values())
            self._followers.clear()
        for follower in followers:
            follower.close()


if __name__ == "__main__":  # pragma: no cover - run by run_budgeted
    main()
