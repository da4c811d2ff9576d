"""The load-time checks of a saved state: its snapshot, read field by field and
compared with the state its record replays to (the replay is ``fivehundred._engine.replay``).

Internal: :func:`fivehundred.serialize.from_dict` runs them.
"""

from __future__ import annotations

import json
from typing import Any, Final

import attrs

from fivehundred._engine.convert import CONVERTER, kind_of, structure_into
from fivehundred._engine.state import GameState
from fivehundred._engine.values import Phase, Trick
from fivehundred.calls import Call
from fivehundred.cards import Card, Suit
from fivehundred.rules import Rules
from fivehundred.scoring import GameResult, HandResult
from fivehundred.views import PlayerView

# -- the snapshot: a readable copy of a state's public properties ---------------------------


@attrs.frozen
class Snapshot:
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
    def of(cls, state: GameState) -> Snapshot:
        return cls(**{field.name: getattr(state, field.name) for field in attrs.fields(cls)})


#: The snapshot's fields with their types resolved (for reading them one by one).
SNAPSHOT_FIELDS: Final = attrs.fields(attrs.resolve_types(Snapshot))


# -- checking a snapshot ------------------------------------------------------------------


def show_value(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "..."


def read_snapshot(raw: object, problems: list[str]) -> tuple[Snapshot | None, dict[str, Any]]:
    """The snapshot, field by field: a malformed field does not hide the others' problems.

    Returns the whole snapshot (``None`` if any field is missing or malformed)
    and the fields that could be read.
    """
    if type(raw) is not dict:
        problems.append(f"snapshot: expected an object, found {kind_of(raw)}")
        return None, {}
    names = [field.name for field in SNAPSHOT_FIELDS]
    extra = sorted(k if isinstance(k, str) else kind_of(k) for k in raw if k not in names)
    if extra:
        problems.append(f"snapshot: unknown key{'s' if len(extra) > 1 else ''} "
                        f"{', '.join(extra[:10])}")  # fmt: skip
    values: dict[str, Any] = {}
    for field in SNAPSHOT_FIELDS:
        if field.name not in raw:
            problems.append(f"snapshot.{field.name}: missing")
            continue
        before = len(problems)
        kind: Any = field.type
        value = structure_into(raw[field.name], kind, f"snapshot.{field.name}", problems)
        if len(problems) == before:
            values[field.name] = value
    if len(values) < len(names):
        return None, values
    return Snapshot(**values), values


def compare_snapshot(values: dict[str, Any], replayed: Snapshot) -> list[str]:
    """Every readable snapshot field that differs from the replayed state."""
    problems = []
    for field in SNAPSHOT_FIELDS:
        if field.name not in values:
            continue
        mine = CONVERTER.unstructure(values[field.name], unstructure_as=field.type)
        real = CONVERTER.unstructure(getattr(replayed, field.name), unstructure_as=field.type)
        if mine != real:
            problems.append(
                f"snapshot.{field.name} is {show_value(mine)}, "
                f"but the record replays to {show_value(real)}"
            )
    return problems


def snapshot_problems(snap: Snapshot, rules: Rules) -> list[str]:
    """Checks of a snapshot on its own: seats, list lengths, card conservation, sizes, turn."""
    problems = table_problems("snapshot", snap, rules)
    if len(snap.hands) != rules.players:
        problems.append(
            f"snapshot.hands: {rules.players} entries are needed, not {len(snap.hands)}"
        )
    in_turn = snap.phase not in (Phase.DEAL, Phase.GAME_OVER)
    if in_turn != (snap.to_act is not None):
        need = "a seat" if in_turn else "null"
        problems.append(f"snapshot.to_act: in the {snap.phase.value} phase it is {need}")
    if (snap.phase is Phase.GAME_OVER) != (snap.result is not None):
        problems.append("snapshot.result: a result is given exactly when the game is over")
    problems += card_problems(snap, rules)
    return problems


def table_problems(where: str, found: Snapshot | PlayerView, rules: Rules) -> list[str]:
    """The seats and list lengths of what a snapshot and a view both hold: every seat named
    is one of the table's, and scores and tricks won have one entry a side."""
    problems: list[str] = []
    players, sides = rules.players, len(rules.sides)

    def seat(name: str, value: int | None) -> None:
        if value is not None and not 0 <= value < players:
            problems.append(f"{where}.{name}: {value} is not a seat (0 to {players - 1})")

    for name in ("dealer", "to_act", "contractor", "partner"):
        seat(name, getattr(found, name))
    for value in found.sitting_out:
        seat("sitting_out", value)
    for index, (who, _) in enumerate(found.auction):
        seat(f"auction[{index}]", who)
    for index, (who, _) in enumerate(found.trick):
        seat(f"trick[{index}]", who)
    for number, trick in enumerate(found.tricks):
        seat(f"tricks[{number}].leader", trick.leader)
        seat(f"tricks[{number}].winner", trick.winner)
        for index, (who, _) in enumerate(trick.plays):
            seat(f"tricks[{number}].plays[{index}]", who)
    for name in ("scores", "tricks_won"):
        if len(getattr(found, name)) != sides:
            problems.append(
                f"{where}.{name}: {sides} entries are needed, not {len(getattr(found, name))}"
            )
    if found.hand_number < 0:
        problems.append(f"{where}.hand_number: {found.hand_number} is not a hand's number")
    return problems


def view_problems(view: PlayerView) -> list[str]:
    """Checks of a player view on its own (it cannot be checked against its game): the
    seats, the list lengths, and each card place holding cards of the deck, once each."""
    rules = view.rules
    problems = table_problems("view", view, rules)
    players = rules.players
    if not 0 <= view.seat < players:
        problems.append(f"view.seat: {view.seat} is not a seat (0 to {players - 1})")
    for value in sorted(view.passed):
        if not 0 <= value < players:
            problems.append(f"view.passed: {value} is not a seat (0 to {players - 1})")
    deck = set(rules.deck)
    if len(view.hand_sizes) != players:
        problems.append(
            f"view.hand_sizes: {players} entries are needed, not {len(view.hand_sizes)}"
        )
    for who, size in enumerate(view.hand_sizes):
        if not 0 <= size <= len(deck):
            problems.append(f"view.hand_sizes[{who}]: {size} is not a number of cards")
    places = {
        "hand": view.hand,
        "kitty": view.kitty or (),
        "discards": view.discards or (),
        "exposed_hand": view.exposed_hand or (),
        "trick": tuple(card for _, card in view.trick),
    }
    for name, cards in places.items():
        for card in sorted(set(cards) - deck):
            problems.append(f"view.{name}: {card} is not a card of this deck")
        for card in sorted({card for card in cards if cards.count(card) > 1}):
            problems.append(f"view.{name}: {card} is there more than once")
    return problems


def card_problems(snap: Snapshot, rules: Rules) -> list[str]:
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
