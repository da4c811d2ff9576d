"""JSON: save and load game states, rules, player views, actions and game records.

One family for every type: :func:`to_dict` and :func:`to_json` save any of them, and
:func:`from_dict` and :func:`from_json` load the type their ``cls`` argument names
(a :class:`~fivehundred.GameState` when it is left out), as cattrs'
``structure(data, cls)`` does.

Format version 1 is described in ``docs/json-format.md``. Every document is a
JSON object with ``"format_version": 1`` and a ``"type"``; cards and calls are
written in their notation (``"10H"``, ``"Jo"``, ``"7NT"``).

A saved :class:`~fivehundred.GameState` holds the rules, the game's record
(every deal and action) and a readable snapshot of the state. Loading replays
the record, so the loaded state is exactly one the rules can reach, then
checks every field of the snapshot against it; anything wrong raises
:class:`~fivehundred.InvalidStateError` listing every problem found.

This module is the document API; the converters it reads and writes values with
live in the internal ``fivehundred._engine.convert``, and the load-time checks (the
snapshot, the replay of the record) in ``fivehundred._engine.checks``.

>>> import fivehundred as fh
>>> state = fh.apply(fh.deal(fh.new_game(dealer=3), seed=7), fh.parse_call("6S"))
>>> text = fh.to_json(state)
>>> fh.from_json(text) == state
True
>>> fh.from_json(fh.to_json(state.rules), cls=fh.Rules) == state.rules
True
>>> fh.from_json(text.replace('"to_act": 1', '"to_act": 2'))
Traceback (most recent call last):
...
fivehundred.errors.InvalidStateError: invalid state: snapshot.to_act is 2, but the record \
replays to 1
"""

from __future__ import annotations

import json
from collections.abc import Callable
from types import UnionType
from typing import Any, Final, TypeAlias, TypeVar, cast, overload

import attrs

from fivehundred import records as _records
from fivehundred._engine import convert as _convert
from fivehundred._engine.checks import (
    Snapshot,
    compare_snapshot,
    read_snapshot,
    snapshot_problems,
    view_problems,
)
from fivehundred._engine.convert import (
    CONVERTER,
    BadValue,
    RecordDoc,
    dump_json,
    error_messages,
    kind_of,
    load_json,
    make_envelope,
    read_call,
    read_card,
    read_document,
    read_fields,
    read_int,
    read_suit,
    structure_into,
)
from fivehundred._engine.replay import dealer_problems, replay_hands
from fivehundred._engine.state import GameState
from fivehundred.actions import Action, CallPartner, Discard, Nominate, Play
from fivehundred.calls import Call
from fivehundred.cards import Card
from fivehundred.errors import FiveHundredTypeError, InvalidStateError, NotationError
from fivehundred.notation import format_action, parse_action
from fivehundred.records import (
    GameRecord,
    record,
    rules_options,
)
from fivehundred.rules import Rules
from fivehundred.views import PlayerView

__all__ = [
    "FORMAT_VERSION",
    "MAX_CARDS",
    "MAX_HANDS",
    "MAX_JSON_DEPTH",
    "MAX_JSON_SIZE",
    "MAX_LIST",
    "MAX_SET",
    "from_dict",
    "from_json",
    "to_dict",
    "to_json",
]

#: The version of the JSON format this library writes and reads.
FORMAT_VERSION: Final = _convert.FORMAT_VERSION
#: The longest JSON text the loaders read, in characters (1 MiB; a game of
#: :data:`MAX_HANDS` hands takes about 130 KiB, indented or not).
MAX_JSON_SIZE: Final = _convert.MAX_JSON_SIZE
#: The longest list a document may hold (the format needs a few hundred at most: the
#: discards a view lists, or the hands of a very long game).
MAX_LIST: Final = _convert.MAX_LIST
#: The most items a set-valued field (``suits_led``, ``sitting_out``) may list.
MAX_SET: Final = _convert.MAX_SET
#: The most cards a list of cards (a hand, the kitty, a deck) may hold: 64, above the
#: largest deck (63 cards, six players), so a hostile hand is refused before it is read.
MAX_CARDS: Final = _convert.MAX_CARDS
#: The most hands a game record may hold (a game to 500 takes about 15).
MAX_HANDS: Final = _records.MAX_HANDS
#: A list stops being checked after this many bad items (the rest are counted, not read).
MAX_ITEM_PROBLEMS: Final = _convert.MAX_ITEM_PROBLEMS
#: The deepest nesting of JSON arrays and objects the loaders read (the format needs 6).
MAX_JSON_DEPTH: Final = _convert.MAX_JSON_DEPTH
#: Whole numbers in a document must lie within ±(2**53 - 1), the range JSON keeps exactly.
MAX_INT: Final = _convert.MAX_INT

#: Anything :func:`to_dict` can save.
Saveable: TypeAlias = GameState | Rules | PlayerView | GameRecord | Action
JSONDict: TypeAlias = _convert.JSONDict
_T = TypeVar("_T")


# -- rules ------------------------------------------------------------------------------


def _rules_to_dict(rules: Rules) -> JSONDict:
    """A rules document: the options that differ from the default game.

    Raises :class:`~fivehundred.FiveHundredTypeError` for an argument of the wrong type.
    """
    _need(rules, Rules)
    return make_envelope("rules", rules=rules_options(rules))


def _rules_from_dict(data: object) -> Rules:
    """The :class:`~fivehundred.Rules` of a rules document (see :func:`_rules_to_dict`).

    Raises :class:`~fivehundred.InvalidStateError` listing every problem of the document
    (``err.problems``); any Python value is data here, so there is no type error.
    """
    doc = read_document(data, "rules")
    problems: list[str] = []
    fields = read_fields(doc, ("rules",), problems)
    rules = structure_into(fields["rules"], Rules, "rules", problems) if "rules" in fields else None
    if problems or rules is None:
        raise InvalidStateError(problems)
    return rules


# -- actions ------------------------------------------------------------------------------


def _action_fields(action: Action) -> JSONDict:
    if isinstance(action, Call):
        return {"kind": "call", "call": str(action)}
    if isinstance(action, Discard):
        return {"kind": "discard", "cards": [str(card) for card in action.cards]}
    if isinstance(action, Nominate):
        return {"kind": "nominate", "suit": None if action.suit is None else action.suit.letter}
    if isinstance(action, CallPartner):
        card = None if action.card is None else str(action.card)
        seat = None if action.seat is None else int(action.seat)
        return {"kind": "partner", "card": card, "seat": seat}
    if isinstance(action, Play):
        suit = None if action.suit is None else action.suit.letter
        return {"kind": "play", "card": str(action.card), "suit": suit}
    raise FiveHundredTypeError(f"{type(action).__name__} is not an action")


def _action_to_dict(action: Action) -> JSONDict:
    """An action document: ``{"kind": ..., ...}`` under ``"action"``.

    Raises :class:`~fivehundred.FiveHundredTypeError` for an argument of the wrong type.
    """
    return make_envelope("action", action=_action_fields(action))


_ACTION_KEYS: Final = {
    "call": ("call",),
    "discard": ("cards",),
    "nominate": ("suit",),
    "partner": ("card", "seat"),
    "play": ("card", "suit"),
}


def _read_action(value: object, path: str, problems: list[str]) -> Action | None:
    if type(value) is not dict:
        problems.append(f"{path}: expected an object, found {kind_of(value)}")
        return None
    kind = value.get("kind")
    if not isinstance(kind, str) or kind not in _ACTION_KEYS:
        allowed = ", ".join(json.dumps(k) for k in _ACTION_KEYS)
        problems.append(f"{path}.kind: expected one of {allowed}, found {kind_of(kind)}")
        return None
    keys = _ACTION_KEYS[kind]
    before = len(problems)
    extra = sorted(
        k if isinstance(k, str) else kind_of(k) for k in value if k not in ("kind", *keys)
    )
    if extra:
        problems.append(
            f"{path}: unknown key{'s' if len(extra) > 1 else ''} {', '.join(extra[:10])}"
        )
    problems += [f"{path}.{key}: missing" for key in keys if key not in value]
    if len(problems) > before:
        return None
    fields = value
    got: dict[str, Any] = {}
    for key in keys:
        try:
            got[key] = _ACTION_READERS[kind, key](fields[key])
        except Exception as err:
            problems += error_messages(err, f"{path}.{key}")
    if len(problems) > before:
        return None
    if kind == "call":
        return cast(Call, got["call"])
    if kind == "discard":
        return Discard(got["cards"])
    if kind == "nominate":
        return Nominate(got["suit"])
    if kind == "partner":
        if (got["card"] is None) == (got["seat"] is None):
            problems.append(f"{path}: a partner call names a card or a seat (the other is null)")
            return None
        return CallPartner(got["card"]) if got["seat"] is None else CallPartner(seat=got["seat"])
    return Play(got["card"], got["suit"])


def _in_order(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    if list(cards) != sorted(cards):
        raise BadValue("write the cards in card order")
    return cards


def _optional(reader: Callable[[object], _T]) -> Callable[[object], _T | None]:
    def read(value: object) -> _T | None:
        return None if value is None else reader(value)

    return read


_ACTION_READERS: Final[dict[tuple[str, str], Callable[[object], Any]]] = {
    ("call", "call"): read_call,
    ("discard", "cards"): lambda value: _in_order(CONVERTER.structure(value, tuple[Card, ...])),
    ("nominate", "suit"): _optional(read_suit),
    ("partner", "card"): _optional(read_card),
    ("partner", "seat"): _optional(read_int),
    ("play", "card"): read_card,
    ("play", "suit"): _optional(read_suit),
}


def _action_from_dict(data: object) -> Action:
    """The action of an action document (see :func:`_action_to_dict`).

    Raises :class:`~fivehundred.InvalidStateError` listing every problem of the document
    (``err.problems``); any Python value is data here, so there is no type error.
    """
    doc = read_document(data, "action")
    problems: list[str] = []
    fields = read_fields(doc, ("action",), problems)
    action = _read_action(fields["action"], "action", problems) if "action" in fields else None
    if problems or action is None:
        raise InvalidStateError(problems)
    return action


# -- player views ---------------------------------------------------------------------------


def _view_to_dict(view: PlayerView) -> JSONDict:
    """A player-view document: what one seat may know, to send to a client or a bot.

    Legal actions are written in action notation (:func:`~fivehundred.format_action`).

    Raises :class:`~fivehundred.FiveHundredTypeError` for an argument of the wrong type.
    """
    _need(view, PlayerView)
    return make_envelope("player_view", view=CONVERTER.unstructure(view))


def _view_from_dict(data: object) -> PlayerView:
    """The :class:`~fivehundred.PlayerView` of a player-view document.

    The document is checked for its form and notation, and on its own: every seat it
    names is one of the table's, its lists have their lengths, and each place of cards
    holds cards of the deck, once each. A view alone cannot be checked against the game
    it came from.

    Raises :class:`~fivehundred.InvalidStateError` listing every problem of the document
    (``err.problems``); any Python value is data here, so there is no type error.
    """
    doc = read_document(data, "player_view")
    problems: list[str] = []
    fields = read_fields(doc, ("view",), problems)
    view: PlayerView | None = None
    if "view" in fields:
        raw = fields["view"]
        if type(raw) is not dict:
            problems.append(f"view: expected an object, found {kind_of(raw)}")
        else:
            texts = structure_into(
                raw.get("legal_actions"), tuple[str, ...], "view.legal_actions", problems
            )
            view = structure_into({**raw, "legal_actions": []}, PlayerView, "view", problems)
            if view is not None:
                problems += view_problems(view)
            if view is not None and texts is not None:
                actions = []
                for index, text in enumerate(texts):
                    try:
                        action = parse_action(text, phase=view.phase)
                    except NotationError as err:
                        problems.append(f"view.legal_actions[{index}]: {err}")
                        continue
                    if format_action(action) != text:
                        problems.append(
                            f"view.legal_actions[{index}]: write {text!r} as "
                            f"{format_action(action)!r}"
                        )
                    actions.append(action)
                view = attrs.evolve(view, legal_actions=tuple(actions))
    if problems or view is None:
        raise InvalidStateError(problems)
    return view


# -- game records -------------------------------------------------------------------------


def _record_fields(game: GameRecord) -> JSONDict:
    first = game.hands[0].dealer if game.dealer is None and game.hands else game.dealer
    fields: JSONDict = {
        "dealer": first,
        "hands": [
            {
                "dealer": hand.dealer,
                "deck": [str(card) for card in hand.deck],
                "actions": [format_action(action) for action in hand.actions],
            }
            for hand in game.hands
        ],
    }
    if game.scores is not None and any(game.scores):  # optional: a game from 0 leaves it out
        fields["scores"] = list(game.scores)
    return fields


def _record_to_dict(game: GameRecord) -> JSONDict:
    """A game-record document: the rules, the first dealer and every hand's deck and actions.

    Raises :class:`~fivehundred.FiveHundredTypeError` for an argument of the wrong type.
    """
    _need(game, GameRecord)
    return make_envelope("game_record", rules=rules_options(game.rules), **_record_fields(game))


def _read_record(
    rules: Rules | None, record_data: object, problems: list[str], prefix: str
) -> tuple[GameRecord, GameState] | None:
    """Read and replay a record (under ``rules``, if they could be read); problems go to
    ``problems``."""
    before = len(problems)
    scores: tuple[int, ...] | None = None
    if type(record_data) is dict and "scores" in record_data:  # the optional field
        record_data = dict(record_data)
        scores = structure_into(
            record_data.pop("scores"), tuple[int, ...], f"{prefix}scores", problems
        )
        if scores is not None and not any(scores):
            problems.append(f"{prefix}scores: a game started at 0 leaves the scores out")
    doc = structure_into(record_data, RecordDoc, prefix.rstrip("."), problems)
    if rules is None or doc is None or len(problems) > before:
        return None
    if len(doc.hands) > MAX_HANDS:
        problems.append(f"{prefix}hands: {len(doc.hands)} hands, at most {MAX_HANDS}")
        return None
    if doc.dealer is None and doc.hands:  # one document per state: the dealer is known
        first = doc.hands[0].dealer
        problems.append(f"{prefix}dealer: null, but hand 1 is dealt by seat {first}: write {first}")
        return None
    wrong = dealer_problems(rules, doc.dealer, [hand.dealer for hand in doc.hands])
    if wrong:
        problems += [f"{prefix}{problem}" for problem in wrong]
        return None
    hands = [(hand.dealer, hand.deck, hand.actions) for hand in doc.hands]
    state, done, problem = replay_hands(rules, doc.dealer, hands, strict=True, scores=scores)
    if problem is not None:
        where = "scores" if problem.startswith("the game cannot start") else "hands"
        problems.append(f"{prefix}{where}: {problem}")
        return None
    return GameRecord(rules, doc.dealer, done, scores), state


def _record_from_dict(data: object) -> GameRecord:
    """The :class:`~fivehundred.GameRecord` of a game-record document.

    The record is replayed to read its actions (a bid and a card play can look
    alike), so a record whose actions are not legal is refused.

    Raises :class:`~fivehundred.InvalidStateError` listing every problem of the document
    (``err.problems``); any Python value is data here, so there is no type error.
    """
    doc = read_document(data, "game_record")
    problems: list[str] = []
    fields = read_fields(doc, ("rules", "dealer", "hands"), problems, optional=("scores",))
    if problems:
        raise InvalidStateError(problems)
    rules = structure_into(fields["rules"], Rules, "rules", problems)
    found = _read_record(
        rules,
        {key: fields[key] for key in ("dealer", "hands", "scores") if key in fields},
        problems,
        "",
    )
    if problems or found is None:
        raise InvalidStateError(problems)
    return found[0]


# -- game states ----------------------------------------------------------------------------


def _state_to_dict(state: GameState) -> JSONDict:
    return make_envelope(
        "game_state",
        rules=rules_options(state.rules),
        record=_record_fields(record(state)),
        snapshot=CONVERTER.unstructure(Snapshot.of(state)),
    )


def to_dict(obj: Saveable) -> JSONDict:
    """The JSON document (a dict of plain values) of a state, rules, view, record or action.

    >>> import fivehundred as fh
    >>> doc = fh.to_dict(fh.deal(fh.new_game(dealer=3), seed=7))
    >>> list(doc), doc["snapshot"]["phase"], doc["snapshot"]["to_act"]
    (['format_version', 'type', 'rules', 'record', 'snapshot'], 'bidding', 0)
    >>> fh.to_dict(fh.Rules(players=5, partner_by_seat=True))
    {'format_version': 1, 'type': 'rules', 'rules': {'players': 5, 'partner_by_seat': True}}
    >>> fh.to_dict(fh.Play(fh.JOKER, fh.Suit.HEARTS))["action"]
    {'kind': 'play', 'card': 'Jo', 'suit': 'H'}

    Raises :class:`~fivehundred.FiveHundredTypeError` for anything it cannot save.
    """
    if isinstance(obj, GameState):
        return _state_to_dict(obj)
    if isinstance(obj, Rules):
        return _rules_to_dict(obj)
    if isinstance(obj, PlayerView):
        return _view_to_dict(obj)
    if isinstance(obj, GameRecord):
        return _record_to_dict(obj)
    if isinstance(obj, _ACTION_CLASSES):
        return _action_to_dict(obj)
    raise FiveHundredTypeError(
        f"to_dict saves a GameState, GameRecord, PlayerView, Rules or an action, "
        f"not {type(obj).__name__}"
    )


def to_json(obj: Saveable, *, indent: int | None = None) -> str:
    """:func:`to_dict` as JSON text; ``indent`` as in :func:`json.dumps`.

    >>> import fivehundred as fh
    >>> fh.to_json(fh.Rules(players=3))
    '{"format_version": 1, "type": "rules", "rules": {"players": 3}}'

    Raises :class:`~fivehundred.FiveHundredTypeError` for anything it cannot save, or an
    ``indent`` that is not a whole number or ``None``.
    """
    return dump_json(to_dict(obj), indent)


def _state_from_dict(data: object) -> GameState:
    """The :class:`~fivehundred.GameState` of a game-state document, fully checked."""
    doc = read_document(data, "game_state")
    problems: list[str] = []
    fields = read_fields(doc, ("rules", "record", "snapshot"), problems)
    rules = structure_into(fields["rules"], Rules, "rules", problems) if "rules" in fields else None
    found = None
    if "record" in fields:
        found = _read_record(rules, fields["record"], problems, "record.")
    snapshot: Snapshot | None = None
    values: dict[str, Any] = {}
    if "snapshot" in fields:
        snapshot, values = read_snapshot(fields["snapshot"], problems)
    if snapshot is not None and rules is not None:
        problems += snapshot_problems(snapshot, rules)
    if found is not None:
        problems += compare_snapshot(values, Snapshot.of(found[1]))
    if problems or found is None:
        raise InvalidStateError(problems or ["the document does not hold a game"])
    return found[1]


#: The action classes: ``from_dict(data, cls=Play)`` reads an action of that class only.
_ACTION_CLASSES: Final = (Call, Discard, Nominate, CallPartner, Play)

#: For each class a document can hold: its document type and its reader.
_READERS: Final[dict[object, tuple[str, Callable[[object], Any]]]] = {
    GameState: ("game_state", _state_from_dict),
    GameRecord: ("game_record", _record_from_dict),
    PlayerView: ("player_view", _view_from_dict),
    Rules: ("rules", _rules_from_dict),
    Action: ("action", _action_from_dict),
    **{cls: ("action", _action_from_dict) for cls in _ACTION_CLASSES},
}

#: A class :func:`from_dict` reads.
_Loadable = TypeVar(
    "_Loadable",
    GameState,
    GameRecord,
    PlayerView,
    Rules,
    Call,
    Discard,
    Nominate,
    CallPartner,
    Play,
)


def _reader(cls: object) -> tuple[str, Callable[[object], Any]]:
    try:
        return _READERS[cls]
    except (KeyError, TypeError):
        raise FiveHundredTypeError(
            f"cls is the class to load: GameState, GameRecord, PlayerView, Rules, Action or "
            f"one of its classes, not {cls!r}"
        ) from None


def _load(found: object, cls: object) -> Any:
    """``found``, checked to be of the action class ``cls`` asked for (when one was)."""
    if cls in _ACTION_CLASSES and type(found) is not cls:
        name = getattr(cls, "__name__", cls)
        raise InvalidStateError([f"action: a {name} is asked for, found {found!r}"])
    return found


@overload
def from_dict(data: object) -> GameState: ...
@overload
def from_dict(data: object, cls: type[_Loadable]) -> _Loadable: ...
@overload
def from_dict(data: object, cls: UnionType) -> Action: ...
def from_dict(data: object, cls: object = GameState) -> object:
    """The value of type ``cls`` that a document (a dict of plain values) holds, fully checked.

    ``cls`` is :class:`~fivehundred.GameState` (the default),
    :class:`~fivehundred.GameRecord`, :class:`~fivehundred.PlayerView`,
    :class:`~fivehundred.Rules`, or :data:`~fivehundred.Action` (or one action class, to
    accept that kind only), as in cattrs' ``structure(data, cls)``.

    A state's record is replayed (every deal and action must be legal) and every
    field of its snapshot must match the replayed state; the snapshot is also
    checked on its own (card conservation, hand and kitty sizes, seats, turn). A
    record is replayed too; a view is checked for its form and notation only (a view
    alone cannot be checked against the game it came from). Every problem found is
    listed in one :class:`~fivehundred.InvalidStateError`.

    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), seed=7)
    >>> fh.from_dict(fh.to_dict(state)) == state
    True
    >>> fh.from_dict(fh.to_dict(fh.record(state)), cls=fh.GameRecord) == fh.record(state)
    True
    >>> fh.from_dict({"format_version": 1, "type": "action",
    ...               "action": {"kind": "nominate", "suit": "D"}}, cls=fh.Action)
    Nominate(suit=Suit.DIAMONDS)

    Raises :class:`~fivehundred.InvalidStateError` listing every problem of the document
    (``err.problems``; any Python value is data here), and
    :class:`~fivehundred.FiveHundredTypeError` for a ``cls`` it cannot load.
    """
    return _load(_reader(cls)[1](data), cls)


@overload
def from_json(text: str | bytes) -> GameState: ...
@overload
def from_json(text: str | bytes, cls: type[_Loadable]) -> _Loadable: ...
@overload
def from_json(text: str | bytes, cls: UnionType) -> Action: ...
def from_json(text: str | bytes, cls: object = GameState) -> object:
    """Read the value of type ``cls`` from JSON text (see :func:`from_dict`).

    Oversized (over 1 MiB) or too deeply nested (over 32 levels) text, numbers
    beyond ±(2**53 - 1), NaN and repeated keys are refused too.

    >>> import fivehundred as fh
    >>> view = fh.observe(fh.deal(fh.new_game(dealer=3), seed=7), 0)
    >>> fh.from_json(fh.to_json(view), cls=fh.PlayerView) == view
    True
    >>> fh.from_json(fh.to_json(fh.DECLINE), cls=fh.Action)
    Nominate(suit=None)

    Raises :class:`~fivehundred.InvalidStateError` listing every problem of the text or the
    document, including text that is not JSON, too long or too deeply nested, and
    :class:`~fivehundred.FiveHundredTypeError` for a ``cls`` it cannot load.
    """
    what, read = _reader(cls)
    return _load(read(load_json(text, what)), cls)


def _need(obj: object, cls: type) -> None:
    if not isinstance(obj, cls):
        raise FiveHundredTypeError(f"a {cls.__name__} is needed, not {type(obj).__name__}")
