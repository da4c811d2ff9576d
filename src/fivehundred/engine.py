"""Game flow as pure functions: new game, deal, legal actions, apply; and the game state.

A :class:`GameState` is created by :func:`new_game`, dealt by :func:`deal` and advanced
by :func:`apply`; it never changes. Inside it is a handful of small integers and bit
masks that point to a block shared by every state of the same phase of a hand (see
``fivehundred._engine``); the properties turn that into cards, calls and tricks.

The rules themselves live in the engine (the package ``fivehundred._engine``); this module
checks arguments, turns the core's verdicts into errors (``fivehundred._engine.explain``)
and is the public face of the game.

>>> import fivehundred as fh
>>> state = fh.deal(fh.new_game(dealer=3), seed=7)
>>> state.phase, state.to_act
(<Phase.BIDDING: 'bidding'>, 0)
>>> fh.parse_call("6S") in fh.legal_bids(state)
True
>>> fh.MISERE in fh.legal_bids(state)  # misère needs a standing 7-level bid (R3.4)
False
>>> state = fh.apply(state, fh.parse_call("6S"))
>>> state.to_act, state.high_bid
(1, Call.parse('6S'))
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from fivehundred._engine import deal as dealing
from fivehundred._engine import docs as _docs
from fivehundred._engine import judge as judging
from fivehundred._engine import play as card_play
from fivehundred._engine.auction import legal_calls
from fivehundred._engine.explain import explain
from fivehundred._engine.hand import BIDDING, PLAY
from fivehundred._engine.state import GameState, hand_block
from fivehundred._engine.table import Table, table
from fivehundred._engine.values import ANY_SEAT, AnySeat, Phase, Trick
from fivehundred._engine.verdict import Verdict
from fivehundred.actions import Action, Play
from fivehundred.calls import PASS, Call
from fivehundred.cards import Card
from fivehundred.errors import FiveHundredTypeError, IllegalActionError, InvalidStateError, Reason
from fivehundred.notation import read_move
from fivehundred.rules import Rules

__all__ = [
    "ANY_SEAT",
    "AnySeat",
    "GameState",
    "Phase",
    "Trick",
    "apply",
    "check_action",
    "deal",
    "is_legal",
    "legal_actions",
    "legal_bids",
    "legal_plays",
    "new_game",
    "play",
]

_DEFAULT_RULES: Final = Rules()

_docs.document_class(GameState)  # compiled, its docstring and signature come from its source

if TYPE_CHECKING:  # the signatures users type-check against

    def apply(state: GameState, action: Action, *, seat: int | AnySeat = ANY_SEAT) -> GameState:
        """See :func:`fivehundred._engine.judge.apply`."""

    def legal_actions(state: GameState) -> tuple[Action, ...]:
        """See :func:`fivehundred._engine.judge.legal_actions`."""

else:  # the engine core's functions themselves (compiled in the compiled build): they check
    # their arguments at run time, so a wrong type gets the library's TypeError, and are
    # annotated ``object`` for it. Each public name shows the signature of the stub above
    # (read from this file) and its docstring from its source (see fivehundred._engine.docs).
    apply = _docs.documented(judging.apply, signature=_docs.stub_signature(__name__, "apply"))
    legal_actions = _docs.documented(
        judging.legal_actions, signature=_docs.stub_signature(__name__, "legal_actions")
    )
#: Starting scores lie strictly within ±MAX_START_SCORE.
MAX_START_SCORE: Final = 10**6


def _not_a_state(state: object) -> FiveHundredTypeError:
    return FiveHundredTypeError(
        f"a fivehundred GameState is needed (from new_game, deal or apply), not {state!r}"
    )


def _state(state: object) -> GameState:
    """The state itself, or a clear TypeError for anything else."""
    if type(state) is not GameState:
        raise _not_a_state(state)
    return state


# -- starting and dealing ----------------------------------------------------


def new_game(
    rules: Rules | None = None,
    *,
    dealer: int | None = None,
    scores: Sequence[int] | None = None,
) -> GameState:
    """A new game, waiting for its first deal.

    ``dealer`` is the first dealer's seat; leave it ``None`` to let the random
    source of the first :func:`deal` choose (R2.1).

    ``scores`` are running scores to start from, one whole number per side (a
    game played on paper, continued here); leave it ``None`` to start at 0. They
    must lie strictly within ±1,000,000 and be scores a game in progress can
    have: no side at or below ``losing_score`` (R9.2), and no side at or past
    the target when reaching it would already have won (V-DEFENCE-WINS, or
    V-CAP, under which only a contract can pass the cap). A side at or past the
    target on defence is allowed otherwise: it must still win by a contract (R9.3).

    Raises :class:`TypeError` when ``rules`` is not a :class:`~fivehundred.Rules`
    or ``scores`` not a sequence of ints, and
    :class:`~fivehundred.InvalidStateError` when ``dealer`` is not a seat or the
    scores are not scores of a game in progress.

    >>> import fivehundred as fh
    >>> game = fh.new_game(dealer=0)
    >>> game.phase, game.scores, game.dealer
    (<Phase.DEAL: 'deal'>, (0, 0), 0)
    >>> fh.new_game(dealer=0, scores=(480, 350)).scores
    (480, 350)
    """
    if rules is None:
        rules = _DEFAULT_RULES
    elif not isinstance(rules, Rules):
        raise FiveHundredTypeError(f"rules must be a fivehundred.Rules, not {rules!r}")
    players = rules.players
    if dealer is not None and (
        not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players
    ):
        raise InvalidStateError([f"dealer {dealer!r} is not a seat: seats are 0 to {players - 1}"])
    start = None if scores is None else _start_scores(scores, rules)
    return dealing.new_game(rules, -1 if dealer is None else dealer, start)


def _start_scores(scores: object, rules: Rules) -> tuple[int, ...]:
    """Checked starting scores (see :func:`new_game`)."""
    if not isinstance(scores, (tuple, list)) or not all(type(score) is int for score in scores):
        raise FiveHundredTypeError(
            f"scores are a tuple or list of ints, one per side, not {scores!r}"
        )
    start: tuple[int, ...] = tuple(scores)
    sides = len(rules.sides)
    problems = []
    if len(start) != sides:
        problems.append(f"scores {start}: one score per side ({sides}) is needed")
    elif any(abs(score) >= MAX_START_SCORE for score in start):
        problems.append(f"scores {start}: each lies strictly within ±{MAX_START_SCORE}")
    elif any(score <= rules.losing_score for score in start):
        problems.append(
            f"scores {start}: a side at or below {rules.losing_score} has lost the game (R9.2)"
        )
    elif any(score >= rules.target for score in start) and (
        rules.defence_wins or rules.score_cap is not None
    ):
        why = "V-DEFENCE-WINS" if rules.defence_wins else "V-CAP"
        problems.append(
            f"scores {start}: a side at or past the target {rules.target} has won the game ({why})"
        )
    if problems:
        raise InvalidStateError(problems)
    return start


def deal(
    state: GameState,
    *,
    seed: int | str | bytes | None = None,
    rng: random.Random | None = None,
    cards: Sequence[Card | str] | str | None = None,
) -> GameState:
    """Deal the next hand (R2), from exactly one source of randomness.

    - ``seed``: shuffle with ``random.Random(seed)``;
    - ``rng``: shuffle with this ``random.Random`` (it advances);
    - ``cards``: deal this exact deck order (a list or tuple of cards or card
      notation, or text for :func:`~fivehundred.parse_cards`), top card first, by
      the convention of R2.2.

    Raises :class:`~fivehundred.IllegalActionError` (``WRONG_PHASE``,
    ``GAME_OVER``, ``BAD_DECK``) and :class:`TypeError` for sources of the wrong type.

    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), cards=fh.Rules().deck)
    >>> " ".join(str(c) for c in state.hand(0))
    '5S 6S 7S 8C 9C 10C JC AD 4H 5H'
    >>> state.kitty
    (Card.parse('7C'), Card.parse('KD'), Card.parse('Jo'))
    """
    s = _state(state)
    phase = s.phase
    if phase is not Phase.DEAL:
        if phase is Phase.GAME_OVER:
            raise IllegalActionError(Reason.GAME_OVER, "the game is over: there is no next hand")
        raise IllegalActionError(
            Reason.WRONG_PHASE,
            f"the hand in progress ({phase.value}) must be finished before the next deal",
        )
    if (seed is not None) + (rng is not None) + (cards is not None) > 1:
        raise FiveHundredTypeError("deal() takes one of seed=, rng= or cards=, not several")
    if seed is not None and not isinstance(seed, (int, str, bytes)):
        raise FiveHundredTypeError(f"seed must be an int, str or bytes, not {seed!r}")
    if rng is not None and not isinstance(rng, random.Random):
        raise FiveHundredTypeError(f"rng must be a random.Random, not {rng!r}")
    if cards is None:
        return dealing.deal_from(s, rng if rng is not None else random.Random(seed))
    rules = s.rules
    order = _deck_order(cards, rules, table(rules))
    dealer = s.dealer
    if dealer is None:
        raise IllegalActionError(
            Reason.BAD_DECK,
            "the first dealer was left to the random source, but cards= gives none: "
            "pass dealer= to new_game() (R2.1)",
        )
    return dealing.deal(s, order, dealer)


def _deck_order(cards: Sequence[Card | str] | str, rules: Rules, t: Table) -> list[int]:
    from fivehundred.cards import parse_card, parse_cards

    if isinstance(cards, str):
        items = parse_cards(cards)
    elif isinstance(cards, (list, tuple)):
        items = tuple(parse_card(c) if isinstance(c, str) else c for c in cards)
    else:
        raise IllegalActionError(
            Reason.BAD_DECK, f"a deck order is a list or tuple of Cards, not {cards!r}"
        )
    bad = [c for c in items if not isinstance(c, Card)]
    if bad:
        raise IllegalActionError(
            Reason.BAD_DECK, f"a deck order is a sequence of Cards; found {bad[0]!r}"
        )
    problems = []
    deck = set(rules.deck)
    counts = Counter(items)
    seen = set(counts)
    duplicates = sorted(c for c, n in counts.items() if n > 1)
    missing = sorted(deck - seen)
    extra = sorted(seen - deck)
    if duplicates:
        problems.append("duplicated " + " ".join(map(str, duplicates)))
    if missing:
        problems.append("missing " + " ".join(map(str, missing)))
    if extra:
        problems.append("not in this deck " + " ".join(map(str, extra)))
    if problems:
        raise IllegalActionError(
            Reason.BAD_DECK,
            f"the deck order must hold each of the {len(deck)} cards once (R1.1): "
            + "; ".join(problems),
        )
    return [t.pos_of[c.index] for c in items]


# -- the public surface ------------------------------------------------------


def legal_bids(state: GameState) -> tuple[Call, ...]:
    """The legal calls of the seat to act (pass first); empty outside the auction.

    Raises :class:`TypeError` for a non-state.
    """
    s = _state(state)
    return legal_calls(s) if hand_block(s).phase == BIDDING else ()


def legal_plays(state: GameState) -> tuple[Play, ...]:
    """The legal card plays of the seat to act; empty outside card play.

    Raises :class:`TypeError` for a non-state.
    """
    s = _state(state)
    if hand_block(s).phase != PLAY:
        return ()
    return card_play.legal_plays(s)


def is_legal(state: GameState, action: object, *, seat: int | AnySeat = ANY_SEAT) -> bool:
    """Whether ``action`` is legal now (for ``seat``, if given). Never raises.

    ``seat=None`` is no seat: the answer is ``False`` (see :func:`apply`).
    """
    if type(state) is not GameState:
        return False
    try:
        return judging.judge(state, action, seat).reason is None
    except Exception:  # pragma: no cover - judge answers every input; this is the promise
        return False


def check_action(state: GameState, action: object, *, seat: int | AnySeat = ANY_SEAT) -> None:
    """Raise the :class:`~fivehundred.IllegalActionError` that :func:`apply` would raise.

    Raises :class:`TypeError` for a non-state.

    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), seed=7)
    >>> try:
    ...     fh.check_action(state, fh.MISERE)
    ... except fh.IllegalActionError as err:
    ...     print(err.reason.name)
    MISERE_NEEDS_SEVEN
    """
    s = _state(state)
    verdict = judging.judge(s, action, seat)
    if verdict.reason is not None:
        raise explain(s, action, verdict, seat)


def play(state: GameState, seat: int, text: str) -> GameState:
    """The state after ``seat`` moves ``text``: an untrusted move, read, checked and applied.

    In the spirit of python-chess's ``board.push_san``, for a server taking a
    client's move: the text is read in the notation of the phase the game is in
    (:func:`~fivehundred.parse_action`: ``7H`` is a bid in the auction and a card
    in play), ``seat`` must be a seat of the table whose turn it is, and the move
    must be legal. ``seat`` is required: ``None`` (a client's ``null``) and
    :data:`ANY_SEAT` are refused, as a seat that is not at the table.

    Every refusal is a :class:`~fivehundred.MoveError` with a
    :class:`~fivehundred.Reason` in ``err.reason`` and the rule in its message:
    an :class:`~fivehundred.IllegalActionError` when the rules refuse the move
    (``GAME_OVER``, ``NOT_YOUR_TURN``, ``BID_TOO_LOW``, ...; text that is an
    action of another phase, such as a card in the auction, is ``WRONG_PHASE``,
    as the action itself would be), a :class:`~fivehundred.NotationError` when
    the text is no action (``NOT_A_CALL``, ``NOT_A_CARD``, ``TOO_LONG``, ...). The
    checks come in that order: the game, the seat and its turn, the text, the
    rules. The input is never changed.

    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), seed=7)
    >>> state = fh.play(state, 0, "7H")
    >>> state.high_bid, state.to_act
    (Call.parse('7H'), 1)
    >>> fh.play(state, 1, "6NT")
    Traceback (most recent call last):
    ...
    fivehundred.errors.IllegalActionError: seat 1 called 6NT, which is not higher than the \
standing bid 7H by seat 0; a bid must be higher on the ladder (R3.1, R3.3)
    >>> try:
    ...     fh.play(state, None, "pass")
    ... except fh.MoveError as err:
    ...     print(err.reason.name, err)
    NOT_YOUR_TURN seat None is not a seat at this table: seats are 0 to 3, and it is \
seat 1's turn (R3.1: the auction goes clockwise, skipping players who passed)

    Raises :class:`TypeError` for a ``state`` that is not a :class:`~fivehundred.GameState`.
    """
    s = _state(state)
    phase = s.phase
    if phase is Phase.GAME_OVER or phase is Phase.DEAL:  # no move is taken: say why
        raise explain(s, PASS, judging.judge(s, PASS, ANY_SEAT))
    if type(seat) is not int or not 0 <= seat < s.rules.players:
        raise explain(s, PASS, Verdict(Reason.NOT_YOUR_TURN, -1), seat)
    wrong_seat = judging.check_seat(s, seat)
    if wrong_seat is not None:
        raise explain(s, PASS, wrong_seat)
    return judging.apply(s, read_move(text, phase, seat=seat), seat=seat)
