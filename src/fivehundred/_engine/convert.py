"""The converters of the JSON format: reading values, hooks, text, envelopes.

Internal: :mod:`fivehundred.serialize` is the document API built on them.
Every reader here adds sentences to a problem list rather than stopping at the
first problem.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import Any, Final, TypeAlias, TypeVar, get_args, get_origin

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

from fivehundred._engine.options import rules_from_options, rules_options
from fivehundred._engine.values import Phase
from fivehundred.actions import CallPartner, Discard, Nominate, Play
from fivehundred.calls import Call, parse_call
from fivehundred.cards import Card, Suit, parse_card
from fivehundred.errors import FiveHundredTypeError, InvalidStateError, NotationError
from fivehundred.notation import format_action
from fivehundred.rules import Rules
from fivehundred.scoring import Outcome

#: The version of the JSON format this library writes and reads.
FORMAT_VERSION: Final = 1
#: The longest JSON text the loaders read, in characters.
MAX_JSON_SIZE: Final = 1024 * 1024
#: The longest list a document may hold.
MAX_LIST: Final = 5000
#: The most items a set-valued field may list.
MAX_SET: Final = 64
#: The most cards a list of cards may hold: no deck has more (six players: 63).
MAX_CARDS: Final = 64
#: A list stops being checked after this many bad items (the rest are counted, not read).
MAX_ITEM_PROBLEMS: Final = 10
#: The deepest nesting of JSON arrays and objects the loaders read.
MAX_JSON_DEPTH: Final = 32
#: Whole numbers in a document must lie within ±(2**53 - 1), the range JSON keeps exactly.
MAX_INT: Final = 2**53 - 1

JSONDict: TypeAlias = dict[str, Any]
_T = TypeVar("_T")


class BadValue(ValueError):
    """A problem in a document, with a sentence for a person (internal)."""


class Problems(ValueError):
    """Several problems found by one hook (internal)."""

    def __init__(self, problems: tuple[str, ...]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@attrs.frozen
class HandDoc:
    dealer: int
    deck: tuple[Card, ...]
    actions: tuple[str, ...]


@attrs.frozen
class RecordDoc:
    dealer: int | None
    hands: tuple[HandDoc, ...]


# -- the converter ------------------------------------------------------------------------


def kind_of(value: object) -> str:
    """A short description of a JSON value for a message (never a long or deep repr)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and value.bit_length() > 128:
        return "a very large number"
    if isinstance(value, (int, float, str)) and not isinstance(value, Huge):
        text = json.dumps(value) if isinstance(value, str) else repr(value)
        return text if len(text) <= 40 else text[:37] + "..."
    if isinstance(value, Huge):
        return "a number with too many digits"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


class Huge(str):
    """A JSON integer too long to read (kept as its text, internal)."""


def read_int(value: object, _: object = None) -> int:
    if type(value) is not int:
        raise BadValue(f"expected a whole number, found {kind_of(value)}")
    if abs(value) > MAX_INT:
        raise BadValue(f"{kind_of(value)} is too large: whole numbers lie within ±(2**53 - 1)")
    return value


def read_bool(value: object, _: object = None) -> bool:
    if type(value) is not bool:
        raise BadValue(f"expected true or false, found {kind_of(value)}")
    return value


def read_str(value: object, _: object = None) -> str:
    if type(value) is not str:
        raise BadValue(f"expected a string, found {kind_of(value)}")
    if len(value) > 1000:
        raise BadValue("the string is too long (over 1000 characters)")
    return value


def read_notation(value: object, parse: Callable[[str], _T], kind: str, examples: str) -> _T:
    """``value`` read by ``parse``, which must give it back as written (a card or a call)."""
    text = read_str(value)
    try:
        parsed = parse(text)
    except NotationError:
        raise BadValue(f"{kind_of(value)} is not a {kind} (write {examples})") from None
    if str(parsed) != text:
        raise BadValue(f"write the {kind} {kind_of(value)} as {json.dumps(str(parsed))}")
    return parsed


def read_card(value: object, _: object = None) -> Card:
    return read_notation(value, parse_card, "card", "10H, JD, AS or Jo")


def read_call(value: object, _: object = None) -> Call:
    return read_notation(value, parse_call, "call", "7H, 7NT, pass, M, OM or BM")


SUITS_BY_LETTER: Final = {suit.letter: suit for suit in Suit}


def read_suit(value: object, _: object = None) -> Suit:
    text = read_str(value)
    if text not in SUITS_BY_LETTER:
        raise BadValue(f"{kind_of(value)} is not a suit (write S, C, D or H)")
    return SUITS_BY_LETTER[text]


def enum_hook(enum_type: type[Phase] | type[Outcome]) -> Callable[[object, object], Any]:
    values = {member.value: member for member in enum_type}

    def structure(value: object, _: object = None) -> Any:
        text = read_str(value)
        if text not in values:
            allowed = ", ".join(json.dumps(v) for v in values)
            raise BadValue(f"{kind_of(value)} is not one of {allowed}")
        return values[text]

    return structure


def read_rules(value: object, _: object = None) -> Rules:
    if type(value) is not dict:
        raise BadValue(f"expected an object of rule options, found {kind_of(value)}")
    try:
        return rules_from_options(value)
    except InvalidStateError as err:
        raise Problems(tuple(p.removeprefix("rules: ") for p in err.problems)) from None


def is_tuple(t: Any) -> bool:
    return get_origin(t) is tuple


def is_frozenset(t: Any) -> bool:
    return get_origin(t) is frozenset


def read_items(
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
            errors.append(BadValue(f"and {left} more item{'s' if left > 1 else ''} not checked"))
            break
        try:
            out.append(converter.structure(item, item_type))
        except Exception as err:
            err.add_note(IterableValidationNote(f"@ index {index}", index, item_type))
            errors.append(err)
    if errors:
        raise IterableValidationError(f"While structuring {whole!r}", errors, whole)
    return out


def tuple_hook(t: Any, converter: cattrs.Converter) -> Callable[[object, object], Any]:
    args = get_args(t)
    homogenous = len(args) == 2 and args[1] is Ellipsis

    def structure(value: object, _: object = None) -> tuple[Any, ...]:
        if type(value) is not list:
            raise BadValue(f"expected a list, found {kind_of(value)}")
        if len(value) > MAX_LIST:
            raise BadValue(f"the list is too long: {len(value)} items, at most {MAX_LIST}")
        if homogenous and args[0] is Card and len(value) > MAX_CARDS:
            # refused before any card is read: forty hands of 4,000 good cards took a second
            raise BadValue(
                f"the list of cards is too long: {len(value)} cards, at most {MAX_CARDS}"
                " (no deck has more)"
            )
        if homogenous:
            types = [args[0]] * len(value)
        elif len(value) != len(args):
            raise BadValue(f"expected a list of {len(args)} items, found {len(value)}")
        else:
            types = list(args)
        return tuple(read_items(converter, value, types, t))

    return structure


def frozenset_hook(t: Any, converter: cattrs.Converter) -> Callable[[object, object], Any]:
    (item_type,) = get_args(t)

    def structure(value: object, _: object = None) -> frozenset[Any]:
        if type(value) is not list:
            raise BadValue(f"expected a list, found {kind_of(value)}")
        if len(value) > MAX_SET:
            raise BadValue(f"the list is too long: {len(value)} items, at most {MAX_SET}")
        items = read_items(converter, value, [item_type] * len(value), t)
        if len(set(items)) != len(items):
            raise BadValue("the list repeats an item")
        if items != sorted(items):
            raise BadValue("write the items in order")
        return frozenset(items)

    return structure


def every_key_hook(cls: type, converter: cattrs.Converter) -> Callable[[object, object], Any]:
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
            raise BadValue(f"expected an object, found {kind_of(value)}")
        missing = [field for field in defaulted if field.name not in value]
        if not missing:
            return base(value, cls)
        errors: list[Exception] = []
        for field in missing:
            error = BadValue("missing")
            error.add_note(AttributeValidationNote(f"@ {field.name}", field.name, field.type))
            errors.append(error)
        try:
            base(value, cls)
        except ClassValidationError as err:
            errors += err.exceptions
        raise ClassValidationError(f"While structuring {cls.__name__}", errors, cls)

    return structure


def make_converter(*, forbid_extra_keys: bool = True) -> cattrs.Converter:
    conv = cattrs.Converter(
        forbid_extra_keys=forbid_extra_keys,
        detailed_validation=True,
        unstruct_collection_overrides={tuple: list, Sequence: list},
    )
    conv.register_structure_hook(int, read_int)
    conv.register_structure_hook(bool, read_bool)
    conv.register_structure_hook(str, read_str)
    conv.register_structure_hook(Card, read_card)
    conv.register_structure_hook(Call, read_call)
    conv.register_structure_hook(Suit, read_suit)
    conv.register_structure_hook(Phase, enum_hook(Phase))
    conv.register_structure_hook(Outcome, enum_hook(Outcome))
    conv.register_structure_hook(Rules, read_rules)
    conv.register_structure_hook_factory(is_tuple, tuple_hook)
    conv.register_structure_hook_factory(is_frozenset, frozenset_hook)
    conv.register_structure_hook_factory(attrs.has, every_key_hook)
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
        is_frozenset,
        lambda t, c: lambda value: [c.unstructure(item) for item in sorted(value)],
    )
    return conv


CONVERTER: Final = make_converter()
#: The same, but ignoring unknown keys: after reporting them, the rest is still checked.
LENIENT: Final = make_converter(forbid_extra_keys=False)


def error_messages(err: BaseException, path: str) -> list[str]:
    """Every problem inside a cattrs error, each as ``"path: sentence"``."""
    if isinstance(err, (ClassValidationError, IterableValidationError)):
        found: list[str] = []
        with_notes, without = err.group_exceptions()
        for inner, note in with_notes:
            if isinstance(note, IterableValidationNote):
                found += error_messages(inner, f"{path}[{note.index}]")
            else:
                found += error_messages(inner, f"{path}.{note.name}")
        for inner in without:
            found += error_messages(inner, path)
        return found
    if isinstance(err, Problems):
        return [f"{path}: {problem}" for problem in err.problems]
    if isinstance(err, BadValue):
        return [f"{path}: {err}"]
    if isinstance(err, ForbiddenExtraKeysError):
        keys = sorted(kind_of(key) if not isinstance(key, str) else key for key in err.extra_fields)
        shown = ", ".join(keys[:10]) + (", ..." if len(keys) > 10 else "")
        return [f"{path}: unknown key{'s' if len(keys) > 1 else ''} {shown}"]
    if isinstance(err, KeyError):
        return [f"{path}: missing"]
    return [f"{path}: invalid value ({type(err).__name__})"]


def structure_into(value: object, cls: type[_T], path: str, problems: list[str]) -> _T | None:
    """``value`` structured as ``cls``, or ``None`` after adding its problems to ``problems``."""
    if attrs.has(cls) and type(value) is not dict:
        problems.append(f"{path}: expected an object, found {kind_of(value)}")
        return None
    try:
        return CONVERTER.structure(value, cls)
    except RecursionError:  # pragma: no cover - the depth limit keeps inputs shallow
        problems.append(f"{path}: nested too deeply")
        return None
    except Exception as err:
        problems += error_messages(err, path)
    try:  # when unknown keys were the only problems, go on checking the rest
        return LENIENT.structure(value, cls)
    except Exception:
        return None


# -- reading JSON text ----------------------------------------------------------------------

JSON_STRINGS: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
JSON_BRACKETS: Final = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects (strings skipped)."""
    marks = JSON_BRACKETS.findall(JSON_STRINGS.sub("", text))
    return max(accumulate(1 if m in "[{" else -1 for m in marks), default=0)


def no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def parse_json_int(text: str) -> int | Huge:
    return Huge(text) if len(text) > 30 else int(text)


def json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
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


def load_json(text: object, what: str) -> dict[str, Any]:
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
    if json_depth(text) > MAX_JSON_DEPTH:
        raise InvalidStateError([f"the JSON text is nested more than {MAX_JSON_DEPTH} deep"])
    try:
        data = json.loads(
            text,
            parse_constant=no_constant,
            parse_int=parse_json_int,
            object_pairs_hook=json_object,
        )
    except (ValueError, RecursionError) as err:
        raise InvalidStateError([f"not valid JSON: {str(err)[:200]}"]) from None
    return read_document(data, what)


#: The class that reads each type of document (``from_json(text, cls=...)``).
DOCUMENT_TYPES: Final = {
    "game_state": "GameState",
    "game_record": "GameRecord",
    "rules": "Rules",
    "player_view": "PlayerView",
    "action": "Action",
}


def read_document(data: object, what: str) -> dict[str, Any]:
    """Check the envelope of a document: an object, format version 1, the expected type."""
    if type(data) is not dict:
        raise InvalidStateError([f"a JSON object is needed, not {kind_of(data)}"])
    problems = []
    version = data.get("format_version")
    if version is None:
        problems.append("format_version: missing (this library writes and reads version 1)")
    elif version != FORMAT_VERSION or type(version) is not int:
        raise InvalidStateError(
            [f"format_version {kind_of(version)} is not supported: this library reads version 1"]
        )
    kind = data.get("type")
    if kind != what:
        if isinstance(kind, str) and kind in DOCUMENT_TYPES:
            problems.append(
                f"type: this is a {kind} document; read it with cls={DOCUMENT_TYPES[kind]}"
            )
        else:
            problems.append(f"type: expected {json.dumps(what)}, found {kind_of(kind)}")
    if problems:
        raise InvalidStateError(problems)
    return data


def read_fields(
    data: dict[str, Any],
    required: tuple[str, ...],
    problems: list[str],
    optional: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The fields of a document beyond the envelope; unknown and missing keys are problems."""
    allowed = {"format_version", "type", *required, *optional}
    extra = sorted(k if isinstance(k, str) else kind_of(k) for k in data if k not in allowed)
    if extra:
        problems.append(f"unknown key{'s' if len(extra) > 1 else ''} {', '.join(extra[:10])}")
    for key in required:
        if key not in data:
            problems.append(f"{key}: missing")
    return {key: data[key] for key in (*required, *optional) if key in data}


def make_envelope(what: str, **fields: Any) -> JSONDict:
    return {"format_version": FORMAT_VERSION, "type": what, **fields}


def dump_json(data: JSONDict, indent: int | None) -> str:
    """JSON text: one line, or indented with short lists (cards, pairs) kept on one line."""
    if indent is not None and not isinstance(indent, int):
        raise FiveHundredTypeError(f"indent is a whole number of spaces or None, not {indent!r}")
    if indent is None:
        return json.dumps(data, ensure_ascii=False)
    return pretty_json(data, " " * indent, "")


def is_flat(value: object) -> bool:
    if isinstance(value, list):
        return all(not isinstance(item, (list, dict)) for item in value)
    return not isinstance(value, dict)


def pretty_json(value: object, step: str, margin: str) -> str:
    inner = margin + step
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k)}: {pretty_json(v, step, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{margin}}}"
    if isinstance(value, list) and value and not all(is_flat(item) for item in value):
        items = [f"{inner}{pretty_json(item, step, inner)}" for item in value]
        return "[\n" + ",\n".join(items) + f"\n{margin}]"
    return json.dumps(value, ensure_ascii=False)
