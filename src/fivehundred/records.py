"""Game records: the rules, the dealt cards and the actions, which replay to the same state.

A game is its rules, its deals and its actions (R2.3): :func:`record` takes
them out of a state and :func:`replay` rebuilds the identical state from them,
checking every action on the way.

>>> import fivehundred as fh
>>> state = fh.deal(fh.new_game(dealer=3), seed=7)
>>> state = fh.apply(state, fh.parse_call("6S"))
>>> game = fh.record(state)
>>> len(game.hands), game.hands[0].actions
(1, (Call.parse('6S'),))
>>> fh.replay(game) == state
True

A record also has a text form, one line per hand, to paste into a bug report
(see ``docs/records.md``): :func:`record_to_text` and :func:`record_from_text`.

>>> from fivehundred.records import record_from_text, record_to_text
>>> text = record_to_text(game)
>>> print(text[:59])
fivehundred record 1 dealer=3
hand 1 dealer=3 | deck 9C 10S
>>> record_from_text(text) == game
True

The actions of the text form are written in the action notation of
:mod:`fivehundred.notation` (:func:`~fivehundred.format_action`,
:func:`~fivehundred.parse_action`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from fivehundred._engine.deal import start_scores
from fivehundred._engine.options import MAX_OPTIONS, rules_from_options, rules_options
from fivehundred._engine.quoting import quote
from fivehundred._engine.replay import GameRecord, HandRecord, dealer_problems, replay_hands
from fivehundred._engine.state import GameState, hand_records
from fivehundred._engine.values import Phase
from fivehundred.actions import Action, CallPartner, Discard, Nominate, Play
from fivehundred.calls import Call, CallKind
from fivehundred.cards import Card
from fivehundred.engine import apply, deal, new_game
from fivehundred.errors import (
    FiveHundredError,
    FiveHundredTypeError,
    InvalidStateError,
    NotationError,
    Reason,
)
from fivehundred.notation import PHASE_WORDS, parse_call, parse_cards

# notation's own names, kept out of this module's namespace: records lends them no more
from fivehundred.notation import format_action as _format_action
from fivehundred.notation import parse_action as _parse_action
from fivehundred.rules import Rules

__all__ = [
    "MAX_HANDS",
    "MAX_OPTIONS",
    "MAX_RECORD_TEXT",
    "GameRecord",
    "HandRecord",
    "record",
    "record_from_text",
    "record_to_text",
    "replay",
    "rules_from_options",
    "rules_options",
]


#: The most hands a record may hold when it is read (JSON or text): a game to 500
#: takes about 15, and replaying 200 takes about a fifth of a second.
MAX_HANDS: Final = 200
#: The longest text :func:`record_from_text` reads, in characters (1 MiB).
MAX_RECORD_TEXT: Final = 1024 * 1024

_IN_HAND = frozenset({Phase.BIDDING, Phase.DISCARD, Phase.PARTNER, Phase.NOMINATE, Phase.PLAY})
_ACTION_TYPES: Final = (Call, Discard, Nominate, CallPartner, Play)


def record(state: GameState) -> GameRecord:
    """The record of a game: :func:`replay` turns it back into ``state``.

    Raises :class:`~fivehundred.FiveHundredTypeError` for a non-state.
    """

    if type(state) is not GameState:
        raise FiveHundredTypeError(f"a fivehundred GameState is needed, not {quote(state)}")
    hands = [HandRecord(dealer, deck, actions) for dealer, deck, actions in hand_records(state)]
    first = hands[0].dealer if hands else state.dealer
    start = _starting_scores(state, hands)
    return GameRecord(state.rules, first, tuple(hands), None if not any(start) else start)


def _starting_scores(state: GameState, hands: Sequence[HandRecord]) -> tuple[int, ...]:
    """The scores ``state``'s game started from (``new_game(scores=...)``)."""

    return start_scores(state)


def _is_seat(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _record_problems(game: GameRecord) -> list[str]:
    """Type problems of a record's parts (a record built by hand may hold anything)."""
    problems: list[str] = []
    if not isinstance(game.rules, Rules):
        problems.append(f"rules must be a fivehundred.Rules, not {type(game.rules).__name__}")
    if game.dealer is not None and not _is_seat(game.dealer):
        problems.append(f"the first dealer must be a seat number or None, not {quote(game.dealer)}")
    if game.scores is not None and (
        not isinstance(game.scores, (tuple, list)) or not all(_is_seat(n) for n in game.scores)
    ):
        problems.append(f"the starting scores must be ints or None, not {quote(game.scores)}")
    if not isinstance(game.hands, (tuple, list)):
        problems.append(f"hands must be a tuple of HandRecord, not {type(game.hands).__name__}")
        return problems
    for number, hand in enumerate(game.hands, 1):
        if not isinstance(hand, HandRecord):
            problems.append(f"hand {number} must be a HandRecord, not {type(hand).__name__}")
            continue
        if not _is_seat(hand.dealer):
            problems.append(
                f"hand {number}: the dealer must be a seat number, not {quote(hand.dealer)}"
            )
        if not isinstance(hand.deck, (tuple, list)) or not all(
            isinstance(card, Card) for card in hand.deck
        ):
            problems.append(f"hand {number}: the deck must be a sequence of Cards")
        if not isinstance(hand.actions, (tuple, list)):
            problems.append(f"hand {number}: the actions must be a sequence of actions")
        else:
            for step, action in enumerate(hand.actions, 1):
                if not isinstance(action, _ACTION_TYPES):
                    problems.append(
                        f"hand {number}, action {step}: {quote(action)} is not an action"
                    )
    return problems


def replay(game: GameRecord) -> GameState:
    """Rebuild a state from its record, checking every deal and action.

    A record that does not replay raises :class:`~fivehundred.InvalidStateError`
    naming the hand and the action that failed.
    """
    if not isinstance(game, GameRecord):
        raise FiveHundredTypeError(f"a GameRecord is needed, not {type(game).__name__}")
    problems = _record_problems(game)
    if problems:
        raise InvalidStateError(problems)
    hands = [(hand.dealer, hand.deck, hand.actions) for hand in game.hands]
    state, _, problem = replay_hands(game.rules, game.dealer, hands, scores=game.scores)
    if problem is not None:
        raise InvalidStateError([problem])
    return state


# -- the text form -------------------------------------------------------------------------

_HEADER: Final = "fivehundred record 1"
_SECTIONS: Final = ("deck", "auction", "discard", "partner", "nominate", "decline", "tricks")
#: ``name=value``: a whole number, true, false, none, or a rule ID (``deck_id=V-45``).
_OPTION_RE: Final = re.compile(r"^([A-Za-z_]+)=(-?[0-9]{1,10}|[A-Za-z][A-Za-z0-9.\-]{0,15})$")
_SCORES_RE: Final = re.compile(r"^scores=(-?[0-9]{1,7}(?:,-?[0-9]{1,7}){0,9})$")
_HAND_RE: Final = re.compile(r"^hand\s+([0-9]{1,9})\s+dealer=([0-9]{1,2})$", re.IGNORECASE)


def _format_option(value: int | bool | str | None) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _trick_size(rules: Rules, actions: Sequence[Action]) -> int:
    """Cards per trick: every player, less a misère contractor's partners (R4.2)."""
    bids = [a for a in actions if isinstance(a, Call) and a.kind is not CallKind.PASS]
    if bids and bids[-1].is_misere:
        return rules.players - len(rules.partners(0))
    return rules.players


def _hand_line(number: int, hand: HandRecord, rules: Rules, note: str) -> str:
    sections = [f"hand {number} dealer={hand.dealer}", "deck " + " ".join(map(str, hand.deck))]
    run: list[Action] = []
    size = _trick_size(rules, hand.actions)

    def flush() -> None:
        if not run:
            return
        if isinstance(run[0], Call):
            sections.append("auction " + " ".join(map(_format_action, run)))
        elif isinstance(run[0], Play):
            tricks = [run[i : i + size] for i in range(0, len(run), size)]
            text = " / ".join(" ".join(map(_format_action, trick)) for trick in tricks)
            sections.append("tricks " + text)
        else:
            sections.extend(map(_format_action, run))
        run.clear()

    for action in hand.actions:
        if run and not (type(action) is type(run[0]) and isinstance(action, (Call, Play))):
            flush()
        run.append(action)
    flush()
    line = " | ".join(sections)
    return f"{line}  # {note}" if note else line


def _hand_note(state: GameState) -> str:
    result = state.last_hand
    if result is None:
        return ""
    if result.contract is None and not result.all_pass:
        return "thrown in"
    scores = " ".join(map(str, result.scores))
    if result.contract is None:
        return f"all passed, played at No Trumps; scores {scores}"
    made = "made" if result.made else "failed"
    return f"{result.contract} by seat {result.contractor} {made}; scores {scores}"


def record_to_text(game: GameRecord) -> str:
    """The text form of a record: a header line, then one line per hand.

    The header names the first dealer and the rule options that differ from the
    default game (:func:`rules_options`). Each hand line holds the dealer, the
    deck order, the auction, the kitty discard, the partner call and the Joker
    nomination, and the tricks (separated by ``/``), each section after ``|``.
    A comment after ``#`` gives the hand's result; :func:`record_from_text`
    ignores comments.

    Raises :class:`~fivehundred.FiveHundredTypeError` for a non-record and
    :class:`~fivehundred.InvalidStateError` for a record whose parts are malformed.
    """
    if not isinstance(game, GameRecord):
        raise FiveHundredTypeError(f"a GameRecord is needed, not {type(game).__name__}")
    problems = _record_problems(game)
    if problems:
        raise InvalidStateError(problems)
    first = game.hands[0].dealer if game.dealer is None and game.hands else game.dealer
    dealer = "none" if first is None else str(first)
    header = [_HEADER, f"dealer={dealer}"]
    if game.scores is not None and any(game.scores):
        header.append("scores=" + ",".join(map(str, game.scores)))
    header += [f"{k}={_format_option(v)}" for k, v in rules_options(game.rules).items()]
    lines = [" ".join(header)]
    notes = _notes(game)
    for number, hand in enumerate(game.hands, 1):
        note = notes[number - 1] if number <= len(notes) else ""
        lines.append(_hand_line(number, hand, game.rules, note))
    return "\n".join(lines) + "\n"


def _notes(game: GameRecord) -> list[str]:
    """The result of each finished hand, for the comments (as far as the record replays)."""
    notes: list[str] = []
    try:
        state = new_game(game.rules, dealer=game.dealer, scores=game.scores)
        for hand in game.hands:
            if state.dealer is None:
                state = new_game(game.rules, dealer=hand.dealer, scores=game.scores)
            if hand.dealer != state.dealer:
                break
            state = deal(state, cards=hand.deck)
            for action in hand.actions:
                state = apply(state, action)
            notes.append(_hand_note(state) if state.phase not in _IN_HAND else "")
    except (FiveHundredError, TypeError):
        pass
    return notes


def record_from_text(text: str) -> GameRecord:
    """Read the text form written by :func:`record_to_text`.

    Blank lines and ``#`` comments are ignored; cards, calls and actions are
    read tolerantly (``10h``, ``J♥``). Unreadable text raises
    :class:`~fivehundred.NotationError` naming the line; bad rule options raise
    :class:`~fivehundred.InvalidStateError`. The record is not replayed here:
    :func:`replay` checks that its actions are legal.
    """
    if not isinstance(text, str):
        raise NotationError(
            f"a record is text, not {type(text).__name__}", text=quote(text), reason=Reason.NOT_TEXT
        )
    if len(text) > MAX_RECORD_TEXT:
        raise NotationError(
            f"the record is too long: {len(text)} characters, at most {MAX_RECORD_TEXT}",
            text=text,
            reason=Reason.TOO_LONG,
        )
    lines = [
        (number, line.partition("#")[0].strip()) for number, line in enumerate(text.splitlines(), 1)
    ]
    lines = [(number, line) for number, line in lines if line]
    if not lines:
        raise NotationError(
            "an empty record: the first line is the header",
            text=text[:100],
            reason=Reason.NOT_A_RECORD,
        )
    if len(lines) > MAX_HANDS + 1:
        raise NotationError(
            f"the record has {len(lines) - 1} hand lines: it holds at most {MAX_HANDS}",
            text=text,
            reason=Reason.NOT_A_RECORD,
        )
    header_number, header = lines[0]
    rules, dealer, scores = _read_header(header, header_number)
    hands = []
    for position, (number, line) in enumerate(lines[1:], 1):
        hands.append(_read_hand(line, number, position))
    wrong = dealer_problems(rules, dealer, [hand.dealer for hand in hands])
    if wrong:
        raise NotationError(
            f"the record's dealers are not all seats: {'; '.join(wrong)}",
            text=text[:100],
            reason=Reason.NOT_A_RECORD,
        )
    if dealer is None and hands:  # one text per game: the first dealer is known
        first = hands[0].dealer
        raise _line_error(
            header_number,
            header,
            f"dealer=none, but hand 1 is dealt by seat {first}: write dealer={first}",
        )
    return GameRecord(rules, dealer, tuple(hands), scores)


def _line_error(number: int, line: str, why: str) -> NotationError:
    return NotationError(
        f"line {number} ({quote(line)}): {why}", text=line, reason=Reason.NOT_A_RECORD
    )


def _read_header(line: str, number: int) -> tuple[Rules, int | None, tuple[int, ...] | None]:
    words = line.split()
    if [w.lower() for w in words[:2]] != ["fivehundred", "record"]:
        raise _line_error(number, line, f"the header starts with {_HEADER!r}")
    if words[2:3] != ["1"]:
        raise _line_error(number, line, "this library reads version 1 of the record format")
    dealer: int | None = None
    seen_dealer = False
    options: dict[str, object] = {}
    scores: tuple[int, ...] | None = None
    for word in words[3:]:
        given = _SCORES_RE.match(word.lower())
        if given is not None:
            if scores is not None:
                raise _line_error(number, line, "scores are given twice")
            scores = tuple(int(part) for part in given.group(1).split(","))
            if not any(scores):
                raise _line_error(number, line, "a game started at 0 leaves scores= out")
            continue
        match = _OPTION_RE.match(word)
        if match is None:
            raise _line_error(number, line, f"{quote(word)} is not an option=value pair")
        name, value = match.group(1).lower(), match.group(2)
        parsed: object = {"true": True, "false": False, "none": None}.get(value.lower())
        if value.lower() not in ("true", "false", "none"):
            parsed = value if value[0].isalpha() else int(value)  # a rule ID, or a number
        if name == "dealer":
            if seen_dealer or isinstance(parsed, bool):
                raise _line_error(number, line, f"{quote(word)}: dealer=SEAT once, or dealer=none")
            dealer = parsed if isinstance(parsed, int) else None
            seen_dealer = True
        elif name in options:
            raise _line_error(number, line, f"{name} is given twice")
        else:
            options[name] = parsed
    if not seen_dealer:
        raise _line_error(number, line, "the header names the first dealer (dealer=3)")
    return rules_from_options(options), dealer, scores


def _read_hand(line: str, number: int, position: int) -> HandRecord:
    sections = [part.strip() for part in line.split("|")]
    match = _HAND_RE.match(sections[0])
    if match is None:
        raise _line_error(number, line, "a hand line starts with 'hand N dealer=SEAT'")
    if int(match.group(1)) != position:
        raise _line_error(number, line, f"this is hand {position}, not hand {match.group(1)}")
    dealer = int(match.group(2))
    deck: tuple[Card, ...] | None = None
    actions: list[Action] = []
    for section in sections[1:]:
        head, _, rest = section.partition(" ")
        label = head.lower()
        if label not in _SECTIONS:
            expected = ", ".join(_SECTIONS)
            raise _line_error(number, line, f"{quote(head)} is not a section ({expected})")
        try:
            if label == "deck":
                if deck is not None or actions:
                    raise _line_error(number, line, "the deck comes once, first")
                deck = parse_cards(rest)
            elif deck is None:
                raise _line_error(number, line, "the deck comes first")
            elif label == "auction":
                actions.extend(parse_call(word) for word in _call_words(rest))
            elif label == "tricks":
                actions.extend(
                    _parse_action(word, phase=Phase.PLAY) for word in rest.replace("/", " ").split()
                )
            else:
                actions.append(_parse_action(section, phase=PHASE_WORDS[label]))
        except NotationError as err:
            if str(err).startswith(f"line {number} "):
                raise
            raise _line_error(number, line, str(err)) from None
    if deck is None:
        raise _line_error(number, line, "a hand line needs its deck")
    return HandRecord(dealer, deck, tuple(actions))


def _call_words(text: str) -> Iterable[str]:
    """The calls of an auction section (sans-kitty bids are written ``7H-SK``, one word)."""
    return text.split()
