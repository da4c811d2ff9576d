"""JSON: save and load game states, rules, player views, actions and game records.

Format version 1 is described in ``docs/json-format.md``. Every document is a
JSON object with ``"format_version": 1`` and a ``"type"``; cards and calls are
written in their notation (``"10H"``, ``"Jo"``, ``"7NT"``).

A saved :class:`~fivehundred.GameState` holds the rules, the game's record
(every deal and action) and a readable snapshot of the state. Loading replays
the record, so the loaded state is exactly one the rules can reach, then
checks every field of the snapshot against it; anything wrong raises
:class:`~fivehundred.InvalidStateError` listing every problem found.

>>> import fivehundred as fh
>>> state = fh.apply(fh.deal(fh.new_game(dealer=3), seed=7), fh.parse_call("6S"))
>>> text = fh.to_json(state)
>>> fh.from_json(text) == state
True
>>> fh.from_json(text.replace('"to_act": 1', '"to_act": 2'))
Traceback (most recent call last):
...
fivehundred.errors.InvalidStateError: invalid state: snapshot.to_act is 2, but the record \
replays to 1
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import Any, Final, TypeAlias, TypeVar, cast, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_structure_fn

from fivehundred import records as _records
from fivehundred.actions import Action, CallPartner, Discard, Nominate, Play
from fivehundred.calls import Call, parse_call
from fivehundred.cards import Card, Suit, parse_card
from fivehundred.errors import FiveHundredTypeError, InvalidStateError, NotationError
from fivehundred.records import (
    GameRecord,
    _replay,
    format_action,
    parse_action,
    record,
    rules_from_options,
    rules_options,
)
from fivehundred.rules import Rules
from fivehundred.scoring import GameResult, HandResult, Outcome
from fivehundred.state import GameState, Phase, Trick
from fivehundred.views import PlayerView

__all__ = [
    "FORMAT_VERSION",
    "MAX_HANDS",
    "MAX_JSON_DEPTH",
    "MAX_JSON_SIZE",
    "MAX_LIST",
    "MAX_SET",
    "action_from_dict",
    "action_from_json",
    "action_to_dict",
    "action_to_json",
    "from_dict",
    "from_json",
    "record_from_dict",
    "record_from_json",
    "record_to_dict",
    "record_to_json",
    "rules_from_dict",
    "rules_from_json",
    "rules_to_dict",
    "rules_to_json",
    "to_dict",
    "to_json",
    "view_from_dict",
    "view_from_json",
    "view_to_dict",
    "view_to_json",
]

#: The version of the JSON format this library writes and reads.
FORMAT_VERSION: Final = 1
#: The longest JSON text the loaders read, in characters (1 MiB; a game of
#: :data:`MAX_HANDS` hands takes about 130 KiB, indented or not).
MAX_JSON_SIZE: Final = 1024 * 1024
#: The longest list a document may hold (the format needs a few hundred at most: the
#: discards a view lists, or the hands of a very long game).
MAX_LIST: Final = 5000
#: The most items a set-valued field (``suits_led``, ``sitting_out``) may list.
MAX_SET: Final = 64
#: The most hands a game record may hold (a game to 500 takes about 15).
MAX_HANDS: Final = _records.MAX_HANDS
#: A list stops being checked after this many bad items (the rest are counted, not read).
MAX_ITEM_PROBLEMS: Final = 10
#: The deepest nesting of JSON arrays and objects the loaders read (the format needs 6).
MAX_JSON_DEPTH: Final = 32
#: Whole numbers in a document must lie within ±(2**53 - 1), the range JSON keeps exactly.
MAX_INT: Final = 2**53 - 1

#: Anything :func:`to_dict` can save.
Saveable: TypeAlias = GameState | Rules | PlayerView | GameRecord | Action
JSONDict: TypeAlias = dict[str, Any]
_T = TypeVar("_T")


class _Bad(ValueError):
    """A problem in a document, with a sentence for a person (internal)."""


class _Problems(ValueError):
    """Several problems found by one hook (internal)."""

    def __init__(self, problems: tuple[str, ...]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


# -- the snapshot: a readable copy of a state's public properties ---------------------------


@attrs.frozen
class _Snapshot:
    """What a saved state says it is; loading checks every field against the replay."""

    phase: Phase
    hand_number: int
    dealer: int | None
    to_act: int | None
    scores: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]
    dead_hand: tuple[Card, ...]
    discards: tuple[Card, ...]
    auction: tuple[tuple[int, Call], ...]
    contract: Call | None
    contractor: int | None
    partner_card: Card | None
    partner: int | None
    joker_suit: Suit | None
    sitting_out: frozenset[int]
    trick: tuple[tuple[int, Card], ...]
    led_suit: Suit | None
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    suits_led: frozenset[Suit]
    exposed: bool
    last_hand: HandResult | None
    result: GameResult | None

    @classmethod
    def of(cls, state: GameState) -> _Snapshot:
        return cls(**{field.name: getattr(state, field.name) for field in attrs.fields(cls)})


#: The snapshot's fields with their types resolved (for reading them one by one).
_SNAPSHOT_FIELDS: Final = attrs.fields(attrs.resolve_types(_Snapshot))


@attrs.frozen
class _HandDoc:
    dealer: int
    deck: tuple[Card, ...]
    actions: tuple[str, ...]


@attrs.frozen
class _RecordDoc:
    dealer: int | None
    hands: tuple[_HandDoc, ...]


# -- the converter ------------------------------------------------------------------------


def _kind(value: object) -> str:
    """A short description of a JSON value for a message (never a long or deep repr)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and value.bit_length() > 128:
        return "a very large number"
    if isinstance(value, (int, float, str)) and not isinstance(value, _Huge):
        text = json.dumps(value) if isinstance(value, str) else repr(value)
        return text if len(text) <= 40 else text[:37] + "..."
    if isinstance(value, _Huge):
        return "a number with too many digits"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


class _Huge(str):
    """A JSON integer too long to read (kept as its text, internal)."""


def _int(value: object, _: object = None) -> int:
    if type(value) is not int:
        raise _Bad(f"expected a whole number, found {_kind(value)}")
    if abs(value) > MAX_INT:
        raise _Bad(f"{_kind(value)} is too large: whole numbers lie within ±(2**53 - 1)")
    return value


def _bool(value: object, _: object = None) -> bool:
    if type(value) is not bool:
        raise _Bad(f"expected true or false, found {_kind(value)}")
    return value


def _str(value: object, _: object = None) -> str:
    if type(value) is not str:
        raise _Bad(f"expected a string, found {_kind(value)}")
    if len(value) > 1000:
        raise _Bad("the string is too long (over 1000 characters)")
    return value


def _notation(value: object, parse: Callable[[str], _T], kind: str, examples: str) -> _T:
    """``value`` read by ``parse``, which must give it back as written (a card or a call)."""
    text = _str(value)
    try:
        parsed = parse(text)
    except NotationError:
        raise _Bad(f"{_kind(value)} is not a {kind} (write {examples})") from None
    if str(parsed) != text:
        raise _Bad(f"write the {kind} {_kind(value)} as {json.dumps(str(parsed))}")
    return parsed


def _card(value: object, _: object = None) -> Card:
    return _notation(value, parse_card, "card", "10H, JD, AS or Jo")


def _call(value: object, _: object = None) -> Call:
    return _notation(value, parse_call, "call", "7H, 7NT, pass, M, OM or BM")


_SUITS: Final = {suit.letter: suit for suit in Suit}


def _suit(value: object, _: object = None) -> Suit:
    text = _str(value)
    if text not in _SUITS:
        raise _Bad(f"{_kind(value)} is not a suit (write S, C, D or H)")
    return _SUITS[text]


def _enum_hook(enum_type: type[Phase] | type[Outcome]) -> Callable[[object, object], Any]:
    values = {member.value: member for member in enum_type}

    def structure(value: object, _: object = None) -> Any:
        text = _str(value)
        if text not in values:
            allowed = ", ".join(json.dumps(v) for v in values)
            raise _Bad(f"{_kind(value)} is not one of {allowed}")
        return values[text]

    return structure


def _rules(value: object, _: object = None) -> Rules:
    if type(value) is not dict:
        raise _Bad(f"expected an object of rule options, found {_kind(value)}")
    try:
        return rules_from_options(value)
    except InvalidStateError as err:
        raise _Problems(tuple(p.removeprefix("rules: ") for p in err.problems)) from None


def _is_tuple(t: Any) -> bool:
    return get_origin(t) is tuple


def _is_frozenset(t: Any) -> bool:
    return get_origin(t) is frozenset


def _items(
    converter: cattrs.Converter, values: list[Any], types: list[Any], whole: Any
) -> list[Any]:
    """Structure each list item by its type, collecting failures (cattrs style).

    After :data:`MAX_ITEM_PROBLEMS` bad items the rest are not read, only counted.
    """
    out: list[Any] = []
    errors: list[Exception] = []
    for index, (item, item_type) in enumerate(zip(values, types, strict=True)):
        if len(errors) >= MAX_ITEM_PROBLEMS:
            left = len(values) - index
            errors.append(_Bad(f"and {left} more item{'s' if left > 1 else ''} not checked"))
            break
        try:
            out.append(converter.structure(item, item_type))
        except Exception as err:
            err.add_note(IterableValidationNote(f"@ index {index}", index, item_type))
            errors.append(err)
    if errors:
        raise IterableValidationError(f"While structuring {whole!r}", errors, whole)
    return out


def _tuple_hook(t: Any, converter: cattrs.Converter) -> Callable[[object, object], Any]:
    args = get_args(t)
    homogenous = len(args) == 2 and args[1] is Ellipsis

    def structure(value: object, _: object = None) -> tuple[Any, ...]:
        if type(value) is not list:
            raise _Bad(f"expected a list, found {_kind(value)}")
        if len(value) > MAX_LIST:
            raise _Bad(f"the list is too long: {len(value)} items, at most {MAX_LIST}")
        if homogenous:
            types = [args[0]] * len(value)
        elif len(value) != len(args):
            raise _Bad(f"expected a list of {len(args)} items, found {len(value)}")
        else:
            types = list(args)
        return tuple(_items(converter, value, types, t))

    return structure


def _frozenset_hook(t: Any, converter: cattrs.Converter) -> Callable[[object, object], Any]:
    (item_type,) = get_args(t)

    def structure(value: object, _: object = None) -> frozenset[Any]:
        if type(value) is not list:
            raise _Bad(f"expected a list, found {_kind(value)}")
        if len(value) > MAX_SET:
            raise _Bad(f"the list is too long: {len(value)} items, at most {MAX_SET}")
        items = _items(converter, value, [item_type] * len(value), t)
        if len(set(items)) != len(items):
            raise _Bad("the list repeats an item")
        if items != sorted(items):
            raise _Bad("write the items in order")
        return frozenset(items)

    return structure


def _every_key_hook(cls: type, converter: cattrs.Converter) -> Callable[[object, object], Any]:
    """Structure an attrs class, requiring every key: a default never stands in for one."""
    base: Callable[[Any, Any], Any] = make_dict_structure_fn(
        cls,
        converter,
        _cattrs_forbid_extra_keys=converter.forbid_extra_keys,
        _cattrs_detailed_validation=True,
    )
    defaulted = [field for field in attrs.fields(cls) if field.default is not attrs.NOTHING]

    def structure(value: object, _: object = None) -> Any:
        if type(value) is not dict:
            raise _Bad(f"expected an object, found {_kind(value)}")
        missing = [field for field in defaulted if field.name not in value]
        if not missing:
            return base(value, cls)
        errors: list[Exception] = []
        for field in missing:
            error = _Bad("missing")
            error.add_note(AttributeValidationNote(f"@ {field.name}", field.name, field.type))
            errors.append(error)
        try:
            base(value, cls)
        except ClassValidationError as err:
            errors += err.exceptions
        raise ClassValidationError(f"While structuring {cls.__name__}", errors, cls)

    return structure


def _make_converter(*, forbid_extra_keys: bool = True) -> cattrs.Converter:
    conv = cattrs.Converter(
        forbid_extra_keys=forbid_extra_keys,
        detailed_validation=True,
        unstruct_collection_overrides={tuple: list, Sequence: list},
    )
    conv.register_structure_hook(int, _int)
    conv.register_structure_hook(bool, _bool)
    conv.register_structure_hook(str, _str)
    conv.register_structure_hook(Card, _card)
    conv.register_structure_hook(Call, _call)
    conv.register_structure_hook(Suit, _suit)
    conv.register_structure_hook(Phase, _enum_hook(Phase))
    conv.register_structure_hook(Outcome, _enum_hook(Outcome))
    conv.register_structure_hook(Rules, _rules)
    conv.register_structure_hook_factory(_is_tuple, _tuple_hook)
    conv.register_structure_hook_factory(_is_frozenset, _frozenset_hook)
    conv.register_structure_hook_factory(attrs.has, _every_key_hook)
    conv.register_unstructure_hook(Card, str)
    conv.register_unstructure_hook(Call, str)
    conv.register_unstructure_hook(Suit, lambda suit: suit.letter)
    conv.register_unstructure_hook(Phase, lambda phase: phase.value)
    conv.register_unstructure_hook(Outcome, lambda outcome: outcome.value)
    conv.register_unstructure_hook(Rules, rules_options)
    for action_type in (Call, Discard, Nominate, CallPartner, Play):
        if action_type is not Call:
            conv.register_unstructure_hook(action_type, format_action)
    conv.register_unstructure_hook_factory(
        _is_frozenset,
        lambda t, c: lambda value: [c.unstructure(item) for item in sorted(value)],
    )
    return conv


_CONVERTER: Final = _make_converter()
#: The same, but ignoring unknown keys: after reporting them, the rest is still checked.
_LENIENT: Final = _make_converter(forbid_extra_keys=False)


def _messages(err: BaseException, path: str) -> list[str]:
    """Every problem inside a cattrs error, each as ``"path: sentence"``."""
    if isinstance(err, (ClassValidationError, IterableValidationError)):
        found: list[str] = []
        with_notes, without = err.group_exceptions()
        for inner, note in with_notes:
            if isinstance(note, IterableValidationNote):
                found += _messages(inner, f"{path}[{note.index}]")
            else:
                found += _messages(inner, f"{path}.{note.name}")
        for inner in without:
            found += _messages(inner, path)
        return found
    if isinstance(err, _Problems):
        return [f"{path}: {problem}" for problem in err.problems]
    if isinstance(err, _Bad):
        return [f"{path}: {err}"]
    if isinstance(err, ForbiddenExtraKeysError):
        keys = sorted(_kind(key) if not isinstance(key, str) else key for key in err.extra_fields)
        shown = ", ".join(keys[:10]) + (", ..." if len(keys) > 10 else "")
        return [f"{path}: unknown key{'s' if len(keys) > 1 else ''} {shown}"]
    if isinstance(err, KeyError):
        return [f"{path}: missing"]
    return [f"{path}: invalid value ({type(err).__name__})"]


def _structure(value: object, cls: type[_T], path: str, problems: list[str]) -> _T | None:
    """``value`` structured as ``cls``, or ``None`` after adding its problems to ``problems``."""
    if attrs.has(cls) and type(value) is not dict:
        problems.append(f"{path}: expected an object, found {_kind(value)}")
        return None
    try:
        return _CONVERTER.structure(value, cls)
    except RecursionError:  # pragma: no cover - the depth limit keeps inputs shallow
        problems.append(f"{path}: nested too deeply")
        return None
    except Exception as err:
        problems += _messages(err, path)
    try:  # when unknown keys were the only problems, go on checking the rest
        return _LENIENT.structure(value, cls)
    except Exception:
        return None


# -- reading JSON text ----------------------------------------------------------------------

_STRINGS: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKETS: Final = re.compile(r"[\[\]{}]")


def _depth(text: str) -> int:
    """The deepest nesting of arrays and objects (strings skipped)."""
    marks = _BRACKETS.findall(_STRINGS.sub("", text))
    return max(accumulate(1 if m in "[{" else -1 for m in marks), default=0)


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def _parse_int(text: str) -> int | _Huge:
    return _Huge(text) if len(text) > 30 else int(text)


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        twice = ""
        for key, _ in pairs:
            if key in seen:
                twice = key
                break
            seen.add(key)
        raise ValueError(f"the key {json.dumps(twice)[:60]} appears twice in one object")
    return result


def _load(text: object, what: str) -> dict[str, Any]:
    """Parse JSON text into a document, or raise InvalidStateError (size, depth, syntax)."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > 4 * MAX_JSON_SIZE:  # more characters than allowed, however encoded
            raise InvalidStateError([f"the JSON text is too long: {len(text)} bytes"])
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as err:
            raise InvalidStateError([f"the JSON text is not UTF-8: {err.reason}"]) from None
    if not isinstance(text, str):
        raise InvalidStateError([f"JSON text (str or bytes) is needed, not {type(text).__name__}"])
    if len(text) > MAX_JSON_SIZE:
        raise InvalidStateError(
            [f"the JSON text is too long: {len(text)} characters, at most {MAX_JSON_SIZE}"]
        )
    if _depth(text) > MAX_JSON_DEPTH:
        raise InvalidStateError([f"the JSON text is nested more than {MAX_JSON_DEPTH} deep"])
    try:
        data = json.loads(
            text, parse_constant=_no_constant, parse_int=_parse_int, object_pairs_hook=_pairs
        )
    except (ValueError, RecursionError) as err:
        raise InvalidStateError([f"not valid JSON: {str(err)[:200]}"]) from None
    return _document(data, what)


_TYPES: Final = {
    "game_state": "from_json",
    "game_record": "record_from_json",
    "rules": "rules_from_json",
    "player_view": "view_from_json",
    "action": "action_from_json",
}


def _document(data: object, what: str) -> dict[str, Any]:
    """Check the envelope of a document: an object, format version 1, the expected type."""
    if type(data) is not dict:
        raise InvalidStateError([f"a JSON object is needed, not {_kind(data)}"])
    problems = []
    version = data.get("format_version")
    if version is None:
        problems.append("format_version: missing (this library writes and reads version 1)")
    elif version != FORMAT_VERSION or type(version) is not int:
        raise InvalidStateError(
            [f"format_version {_kind(version)} is not supported: this library reads version 1"]
        )
    kind = data.get("type")
    if kind != what:
        if isinstance(kind, str) and kind in _TYPES:
            problems.append(f"type: this is a {kind} document; read it with {_TYPES[kind]}()")
        else:
            problems.append(f"type: expected {json.dumps(what)}, found {_kind(kind)}")
    if problems:
        raise InvalidStateError(problems)
    return data


def _fields(
    data: dict[str, Any],
    required: tuple[str, ...],
    problems: list[str],
    optional: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The fields of a document beyond the envelope; unknown and missing keys are problems."""
    allowed = {"format_version", "type", *required, *optional}
    extra = sorted(k if isinstance(k, str) else _kind(k) for k in data if k not in allowed)
    if extra:
        problems.append(f"unknown key{'s' if len(extra) > 1 else ''} {', '.join(extra[:10])}")
    for key in required:
        if key not in data:
            problems.append(f"{key}: missing")
    return {key: data[key] for key in (*required, *optional) if key in data}


def _envelope(what: str, **fields: Any) -> JSONDict:
    return {"format_version": FORMAT_VERSION, "type": what, **fields}


def _dumps(data: JSONDict, indent: int | None) -> str:
    """JSON text: one line, or indented with short lists (cards, pairs) kept on one line."""
    if indent is not None and not isinstance(indent, int):
        raise FiveHundredTypeError(f"indent is a whole number of spaces or None, not {indent!r}")
    if indent is None:
        return json.dumps(data, ensure_ascii=False)
    return _pretty(data, " " * indent, "")


def _flat(value: object) -> bool:
    if isinstance(value, list):
        return all(not isinstance(item, (list, dict)) for item in value)
    return not isinstance(value, dict)


def _pretty(value: object, step: str, margin: str) -> str:
    inner = margin + step
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k)}: {_pretty(v, step, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{margin}}}"
    if isinstance(value, list) and value and not all(_flat(item) for item in value):
        items = [f"{inner}{_pretty(item, step, inner)}" for item in value]
        return "[\n" + ",\n".join(items) + f"\n{margin}]"
    return json.dumps(value, ensure_ascii=False)


# -- rules ------------------------------------------------------------------------------


def rules_to_dict(rules: Rules) -> JSONDict:
    """A rules document: the options that differ from the default game.

    >>> import fivehundred as fh
    >>> fh.rules_to_dict(fh.Rules(players=5, partner_by_seat=True))
    {'format_version': 1, 'type': 'rules', 'rules': {'players': 5, 'partner_by_seat': True}}
    """
    _need(rules, Rules)
    return _envelope("rules", rules=rules_options(rules))


def rules_from_dict(data: object) -> Rules:
    """The :class:`~fivehundred.Rules` of a rules document (see :func:`rules_to_dict`)."""
    doc = _document(data, "rules")
    problems: list[str] = []
    fields = _fields(doc, ("rules",), problems)
    rules = _structure(fields["rules"], Rules, "rules", problems) if "rules" in fields else None
    if problems or rules is None:
        raise InvalidStateError(problems)
    return rules


def rules_to_json(rules: Rules, *, indent: int | None = None) -> str:
    """:func:`rules_to_dict` as JSON text."""
    return _dumps(rules_to_dict(rules), indent)


def rules_from_json(text: str | bytes) -> Rules:
    """Read a rules document from JSON text."""
    return rules_from_dict(_load(text, "rules"))


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


def action_to_dict(action: Action) -> JSONDict:
    """An action document: ``{"kind": ..., ...}`` under ``"action"``.

    >>> import fivehundred as fh
    >>> fh.action_to_dict(fh.Play(fh.JOKER, fh.Suit.HEARTS))["action"]
    {'kind': 'play', 'card': 'Jo', 'suit': 'H'}
    """
    return _envelope("action", action=_action_fields(action))


_ACTION_KEYS: Final = {
    "call": ("call",),
    "discard": ("cards",),
    "nominate": ("suit",),
    "partner": ("card", "seat"),
    "play": ("card", "suit"),
}


def _read_action(value: object, path: str, problems: list[str]) -> Action | None:
    if type(value) is not dict:
        problems.append(f"{path}: expected an object, found {_kind(value)}")
        return None
    kind = value.get("kind")
    if not isinstance(kind, str) or kind not in _ACTION_KEYS:
        allowed = ", ".join(json.dumps(k) for k in _ACTION_KEYS)
        problems.append(f"{path}.kind: expected one of {allowed}, found {_kind(kind)}")
        return None
    keys = _ACTION_KEYS[kind]
    before = len(problems)
    extra = sorted(k if isinstance(k, str) else _kind(k) for k in value if k not in ("kind", *keys))
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
            problems += _messages(err, f"{path}.{key}")
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
        raise _Bad("write the cards in card order")
    return cards


def _optional(reader: Callable[[object], _T]) -> Callable[[object], _T | None]:
    def read(value: object) -> _T | None:
        return None if value is None else reader(value)

    return read


_ACTION_READERS: Final[dict[tuple[str, str], Callable[[object], Any]]] = {
    ("call", "call"): _call,
    ("discard", "cards"): lambda value: _in_order(_CONVERTER.structure(value, tuple[Card, ...])),
    ("nominate", "suit"): _optional(_suit),
    ("partner", "card"): _optional(_card),
    ("partner", "seat"): _optional(_int),
    ("play", "card"): _card,
    ("play", "suit"): _optional(_suit),
}


def action_from_dict(data: object) -> Action:
    """The action of an action document (see :func:`action_to_dict`)."""
    doc = _document(data, "action")
    problems: list[str] = []
    fields = _fields(doc, ("action",), problems)
    action = _read_action(fields["action"], "action", problems) if "action" in fields else None
    if problems or action is None:
        raise InvalidStateError(problems)
    return action


def action_to_json(action: Action, *, indent: int | None = None) -> str:
    """:func:`action_to_dict` as JSON text."""
    return _dumps(action_to_dict(action), indent)


def action_from_json(text: str | bytes) -> Action:
    """Read an action document from JSON text.

    >>> import fivehundred as fh
    >>> fh.action_from_json(fh.action_to_json(fh.DECLINE))
    Nominate(suit=None)
    """
    return action_from_dict(_load(text, "action"))


# -- player views ---------------------------------------------------------------------------


def view_to_dict(view: PlayerView) -> JSONDict:
    """A player-view document: what one seat may know, to send to a client or a bot.

    Legal actions are written in action notation (:func:`~fivehundred.format_action`).
    """
    _need(view, PlayerView)
    return _envelope("player_view", view=_CONVERTER.unstructure(view))


def view_from_dict(data: object) -> PlayerView:
    """The :class:`~fivehundred.PlayerView` of a player-view document.

    The document is checked for its form and notation only: a view alone cannot
    be checked against the game it came from.
    """
    doc = _document(data, "player_view")
    problems: list[str] = []
    fields = _fields(doc, ("view",), problems)
    view: PlayerView | None = None
    if "view" in fields:
        raw = fields["view"]
        if type(raw) is not dict:
            problems.append(f"view: expected an object, found {_kind(raw)}")
        else:
            texts = _structure(
                raw.get("legal_actions"), tuple[str, ...], "view.legal_actions", problems
            )
            view = _structure({**raw, "legal_actions": []}, PlayerView, "view", problems)
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


def view_to_json(view: PlayerView, *, indent: int | None = None) -> str:
    """:func:`view_to_dict` as JSON text.

    >>> import fivehundred as fh
    >>> view = fh.observe(fh.deal(fh.new_game(dealer=3), seed=7), 0)
    >>> fh.view_from_json(fh.view_to_json(view)) == view
    True
    """
    return _dumps(view_to_dict(view), indent)


def view_from_json(text: str | bytes) -> PlayerView:
    """Read a player-view document from JSON text (see :func:`view_from_dict`)."""
    return view_from_dict(_load(text, "player_view"))


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


def record_to_dict(game: GameRecord) -> JSONDict:
    """A game-record document: the rules, the first dealer and every hand's deck and actions."""
    _need(game, GameRecord)
    return _envelope("game_record", rules=rules_options(game.rules), **_record_fields(game))


def _read_record(
    rules: Rules | None, record_data: object, problems: list[str], prefix: str
) -> tuple[GameRecord, GameState] | None:
    """Read and replay a record (under ``rules``, if they could be read); problems go to
    ``problems``."""
    before = len(problems)
    scores: tuple[int, ...] | None = None
    if type(record_data) is dict and "scores" in record_data:  # the optional field
        record_data = dict(record_data)
        scores = _structure(record_data.pop("scores"), tuple[int, ...], f"{prefix}scores", problems)
        if scores is not None and not any(scores):
            problems.append(f"{prefix}scores: a game started at 0 leaves the scores out")
    doc = _structure(record_data, _RecordDoc, prefix.rstrip("."), problems)
    if rules is None or doc is None or len(problems) > before:
        return None
    if len(doc.hands) > MAX_HANDS:
        problems.append(f"{prefix}hands: {len(doc.hands)} hands, at most {MAX_HANDS}")
        return None
    if doc.dealer is None and doc.hands:  # one document per state: the dealer is known
        first = doc.hands[0].dealer
        problems.append(f"{prefix}dealer: null, but hand 1 is dealt by seat {first}: write {first}")
        return None
    hands = [(hand.dealer, hand.deck, hand.actions) for hand in doc.hands]
    state, done, problem = _replay(rules, doc.dealer, hands, strict=True, scores=scores)
    if problem is not None:
        where = "scores" if problem.startswith("the game cannot start") else "hands"
        problems.append(f"{prefix}{where}: {problem}")
        return None
    return GameRecord(rules, doc.dealer, done, scores), state


def record_from_dict(data: object) -> GameRecord:
    """The :class:`~fivehundred.GameRecord` of a game-record document.

    The record is replayed to read its actions (a bid and a card play can look
    alike), so a record whose actions are not legal is refused.
    """
    doc = _document(data, "game_record")
    problems: list[str] = []
    fields = _fields(doc, ("rules", "dealer", "hands"), problems, optional=("scores",))
    if problems:
        raise InvalidStateError(problems)
    rules = _structure(fields["rules"], Rules, "rules", problems)
    found = _read_record(
        rules,
        {key: fields[key] for key in ("dealer", "hands", "scores") if key in fields},
        problems,
        "",
    )
    if problems or found is None:
        raise InvalidStateError(problems)
    return found[0]


def record_to_json(game: GameRecord, *, indent: int | None = None) -> str:
    """:func:`record_to_dict` as JSON text."""
    return _dumps(record_to_dict(game), indent)


def record_from_json(text: str | bytes) -> GameRecord:
    """Read a game-record document from JSON text (see :func:`record_from_dict`)."""
    return record_from_dict(_load(text, "game_record"))


# -- game states ----------------------------------------------------------------------------


def _state_to_dict(state: GameState) -> JSONDict:
    return _envelope(
        "game_state",
        rules=rules_options(state.rules),
        record=_record_fields(record(state)),
        snapshot=_CONVERTER.unstructure(_Snapshot.of(state)),
    )


def to_dict(obj: Saveable) -> JSONDict:
    """The JSON document (a dict of plain values) of a state, rules, view, record or action.

    >>> import fivehundred as fh
    >>> doc = fh.to_dict(fh.deal(fh.new_game(dealer=3), seed=7))
    >>> list(doc), doc["snapshot"]["phase"], doc["snapshot"]["to_act"]
    (['format_version', 'type', 'rules', 'record', 'snapshot'], 'bidding', 0)
    """
    if isinstance(obj, GameState):
        return _state_to_dict(obj)
    if isinstance(obj, Rules):
        return rules_to_dict(obj)
    if isinstance(obj, PlayerView):
        return view_to_dict(obj)
    if isinstance(obj, GameRecord):
        return record_to_dict(obj)
    return action_to_dict(obj)


def to_json(obj: Saveable, *, indent: int | None = None) -> str:
    """:func:`to_dict` as JSON text; ``indent`` as in :func:`json.dumps`."""
    return _dumps(to_dict(obj), indent)


def from_dict(data: object) -> GameState:
    """The :class:`~fivehundred.GameState` of a game-state document, fully checked.

    The record is replayed (every deal and action must be legal) and every
    field of the snapshot must match the replayed state; the snapshot is also
    checked on its own (card conservation, hand and kitty sizes, seats, turn).
    Every problem found is listed in one :class:`~fivehundred.InvalidStateError`.
    """
    doc = _document(data, "game_state")
    problems: list[str] = []
    fields = _fields(doc, ("rules", "record", "snapshot"), problems)
    rules = _structure(fields["rules"], Rules, "rules", problems) if "rules" in fields else None
    found = None
    if "record" in fields:
        found = _read_record(rules, fields["record"], problems, "record.")
    snapshot: _Snapshot | None = None
    values: dict[str, Any] = {}
    if "snapshot" in fields:
        snapshot, values = _read_snapshot(fields["snapshot"], problems)
    if snapshot is not None and rules is not None:
        problems += _snapshot_problems(snapshot, rules)
    if found is not None:
        problems += _compare(values, _Snapshot.of(found[1]))
    if problems or found is None:
        raise InvalidStateError(problems or ["the document does not hold a game"])
    return found[1]


def from_json(text: str | bytes) -> GameState:
    """Read a game-state document from JSON text (see :func:`from_dict`).

    Oversized (over 16 MiB) or too deeply nested (over 32 levels) text, numbers
    beyond ±(2**53 - 1), NaN and repeated keys are refused too.
    """
    return from_dict(_load(text, "game_state"))


def _need(obj: object, cls: type) -> None:
    if not isinstance(obj, cls):
        raise FiveHundredTypeError(f"a {cls.__name__} is needed, not {type(obj).__name__}")


# -- checking a snapshot ------------------------------------------------------------------


def _show(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "..."


def _read_snapshot(raw: object, problems: list[str]) -> tuple[_Snapshot | None, dict[str, Any]]:
    """The snapshot, field by field: a malformed field does not hide the others' problems.

    Returns the whole snapshot (``None`` if any field is missing or malformed)
    and the fields that could be read.
    """
    if type(raw) is not dict:
        problems.append(f"snapshot: expected an object, found {_kind(raw)}")
        return None, {}
    names = [field.name for field in _SNAPSHOT_FIELDS]
    extra = sorted(k if isinstance(k, str) else _kind(k) for k in raw if k not in names)
    if extra:
        problems.append(f"snapshot: unknown key{'s' if len(extra) > 1 else ''} "
                        f"{', '.join(extra[:10])}")  # fmt: skip
    values: dict[str, Any] = {}
    for field in _SNAPSHOT_FIELDS:
        if field.name not in raw:
            problems.append(f"snapshot.{field.name}: missing")
            continue
        before = len(problems)
        kind: Any = field.type
        value = _structure(raw[field.name], kind, f"snapshot.{field.name}", problems)
        if len(problems) == before:
            values[field.name] = value
    if len(values) < len(names):
        return None, values
    return _Snapshot(**values), values


def _compare(values: dict[str, Any], replayed: _Snapshot) -> list[str]:
    """Every readable snapshot field that differs from the replayed state."""
    problems = []
    for field in _SNAPSHOT_FIELDS:
        if field.name not in values:
            continue
        mine = _CONVERTER.unstructure(values[field.name], unstructure_as=field.type)
        real = _CONVERTER.unstructure(getattr(replayed, field.name), unstructure_as=field.type)
        if mine != real:
            problems.append(
                f"snapshot.{field.name} is {_show(mine)}, but the record replays to {_show(real)}"
            )
    return problems


def _snapshot_problems(snap: _Snapshot, rules: Rules) -> list[str]:
    """Checks of a snapshot on its own: seats, list lengths, card conservation, sizes, turn."""
    problems: list[str] = []
    players, sides = rules.players, len(rules.sides)

    def seat(name: str, value: int | None) -> None:
        if value is not None and not 0 <= value < players:
            problems.append(f"snapshot.{name}: {value} is not a seat (0 to {players - 1})")

    for name in ("dealer", "to_act", "contractor", "partner"):
        seat(name, getattr(snap, name))
    for value in snap.sitting_out:
        seat("sitting_out", value)
    for index, (who, _) in enumerate(snap.auction):
        seat(f"auction[{index}]", who)
    for index, (who, _) in enumerate(snap.trick):
        seat(f"trick[{index}]", who)
    for number, trick in enumerate(snap.tricks):
        seat(f"tricks[{number}].leader", trick.leader)
        seat(f"tricks[{number}].winner", trick.winner)
        for index, (who, _) in enumerate(trick.plays):
            seat(f"tricks[{number}].plays[{index}]", who)
    for name, length in (("hands", players), ("scores", sides), ("tricks_won", sides)):
        if len(getattr(snap, name)) != length:
            problems.append(
                f"snapshot.{name}: {length} entries are needed, not {len(getattr(snap, name))}"
            )
    in_turn = snap.phase not in (Phase.DEAL, Phase.GAME_OVER)
    if in_turn != (snap.to_act is not None):
        need = "a seat" if in_turn else "null"
        problems.append(f"snapshot.to_act: in the {snap.phase.value} phase it is {need}")
    if (snap.phase is Phase.GAME_OVER) != (snap.result is not None):
        problems.append("snapshot.result: a result is given exactly when the game is over")
    problems += _card_problems(snap, rules)
    return problems


def _card_problems(snap: _Snapshot, rules: Rules) -> list[str]:
    """Card conservation (R1.1) and the sizes of hands, kitty, dead hand and discards (R2.2)."""
    places: dict[str, tuple[Card, ...]] = {f"hands[{s}]": hand for s, hand in enumerate(snap.hands)}
    places |= {"kitty": snap.kitty, "dead_hand": snap.dead_hand, "discards": snap.discards}
    places["trick"] = tuple(card for _, card in snap.trick)
    for number, trick in enumerate(snap.tricks):
        places[f"tricks[{number}]"] = trick.cards
    where: dict[Card, list[str]] = {}
    for place, cards in places.items():
        for card in cards:
            where.setdefault(card, []).append(place)
    problems = []
    if snap.hand_number == 0:
        if where:
            problems.append("snapshot: cards are placed before the first deal")
        return problems
    deck = set(rules.deck)
    for card, found in where.items():
        if len(found) > 1:
            unique = list(dict.fromkeys(found))
            shown = ", ".join(unique[:6]) + (
                f" and {len(unique) - 6} more" if len(unique) > 6 else ""
            )
            times = f"{len(found)} times, " if len(unique) < len(found) else ""
            problems.append(f"snapshot: {card} is in more than one place ({times}{shown})")
        if card not in deck:
            problems.append(f"snapshot: {card} is not a card of this deck (in {found[0]})")
    missing = sorted(deck - set(where))
    if missing:
        problems.append(f"snapshot: cards missing: {' '.join(map(str, missing))}")
    played = [0] * len(snap.hands)
    for who, _ in (*snap.trick, *(play for trick in snap.tricks for play in trick.plays)):
        if 0 <= who < len(played):
            played[who] += 1
    for who, hand in enumerate(snap.hands):
        if len(hand) + played[who] != rules.hand_size:
            problems.append(
                f"snapshot.hands[{who}]: holds {len(hand)} cards and played {played[who]}; "
                f"the two make {rules.hand_size} (R2.2)"
            )
    size = rules.kitty_size
    for name in ("kitty", "discards"):
        if len(getattr(snap, name)) not in (0, size):
            problems.append(
                f"snapshot.{name}: {size} cards or none, not {len(getattr(snap, name))}"
            )
    dead = rules.hand_size if rules.has_dead_hand else 0
    if len(snap.dead_hand) != dead:
        problems.append(f"snapshot.dead_hand: {dead} cards, not {len(snap.dead_hand)} (P2)")
    return problems
