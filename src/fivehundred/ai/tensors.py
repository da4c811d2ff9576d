"""Observation and information-state tensors, computed from a :class:`~fivehundred.PlayerView` only.

Both functions read nothing but the view that :func:`~fivehundred.observe` gives
one seat, so they cannot leak a hidden card by construction. They return plain
Python lists of floats (0.0 and 1.0 but for the scores); pass ``out=`` (a list,
a NumPy array, any buffer of the right size that takes slice assignment) to fill
a buffer of your own instead. NumPy is never needed.

The layout is versioned (:data:`TENSOR_VERSION`); :func:`observation_layout` and
:func:`information_state_layout` give every section's name, offset and shape for
given :class:`~fivehundred.Rules`. Cards are numbered by their position in the
rules' deck (card order, ``rules.deck``), calls by their action id (pass, then the
ladder; see :mod:`fivehundred.ai.encoding`), seats absolutely. The observation, version 1:

=================  =======================  ==================================================
section            shape                    what
=================  =======================  ==================================================
``seat``           players                  this view's seat, one-hot
``to_act``         players                  the seat to act, one-hot (zeros: nobody)
``phase``          7                        deal, bidding, discard, nominate, partner, play, over
``hand``           deck                     this seat's cards
``hand_sizes``     players                  cards each seat holds / hand size
``bids``           players x calls          each bid each seat made (bids only rise, R3.3)
``passes``         players x calls          seat passed while call ``c`` stood (``c = 0``: none)
``contract``       calls                    the contract, one-hot
``contractor``     players                  the contractor, one-hot
``joker_suit``     4                        the nominated suit (R7.1; making none is silent)
``partner_card``   deck                     the five-player called card (P5)
``partner``        players                  the five-player partner, once this seat may know it
``sitting_out``    players                  seats sitting this hand out (R4.2)
``kitty``          deck                     the kitty, for the contractor while discarding
``discards``       deck                     the contractor's own discards, for the contractor
``exposed``        deck                     the exposed open-misère hand (R6.3)
``played``         players x deck           the cards each seat has played this hand
``trick``          players x deck           the trick in progress: the ``k``-th card, one-hot
``trick_leader``   players                  the seat that led the trick in progress
``led_suit``       4                        the led suit of the trick in progress (R7.4)
``voids``          players x 4              effective suits each seat has shown void in (R5.3)
``tricks_won``     sides                    tricks each side has taken / hand size
``scores``         sides                    each side's score / target (signed)
=================  =======================  ==================================================

The information state is the observation followed by the seat's history of the
hand: ``history_hand`` (deck; the cards this seat held when play began), then for
each trick ``t`` of the hand (``hand_size`` of them), ``history_leader_t``
(players), ``history_led_t`` (4) and ``history_cards_t`` (players x deck: the card
each seat played). With the auction (``bids`` and ``passes`` reconstruct it in
order), that is everything this seat has seen this hand, in order.

>>> import fivehundred as fh
>>> from fivehundred.ai.tensors import observation_tensor, observation_tensor_size
>>> state = fh.deal(fh.new_game(dealer=3), seed=7)
>>> tensor = observation_tensor(fh.observe(state, 0))
>>> len(tensor) == observation_tensor_size(state.rules), sum(tensor[4:8])
(True, 1.0)
"""

from __future__ import annotations

from typing import Final, Protocol

import attrs

from fivehundred._engine.docs import document_module
from fivehundred._engine.quoting import expect
from fivehundred._engine.sight import read_sight
from fivehundred._engine.values import Phase
from fivehundred.ai.encoding import action_layout
from fivehundred.calls import PASS
from fivehundred.cards import Card
from fivehundred.rules import Rules
from fivehundred.views import PlayerView

__all__ = [
    "TENSOR_VERSION",
    "Buffer",
    "TensorLayout",
    "information_state_layout",
    "information_state_string",
    "information_state_tensor",
    "information_state_tensor_size",
    "observation_layout",
    "observation_string",
    "observation_tensor",
    "observation_tensor_size",
]

#: The version of the tensor layouts; it changes whenever a layout does.
TENSOR_VERSION: Final = 1

#: The phases in the order of the one-hot ``phase`` block: the members' own order.
_PHASES: Final = tuple(Phase)


@attrs.frozen
class TensorLayout:
    """The sections of one tensor for one set of rules: name -> (offset, shape).

    >>> import fivehundred as fh
    >>> layout = observation_layout(fh.Rules())
    >>> layout.size, layout.sections["hand"]
    (883, (15, (43,)))
    """

    version: int
    size: int
    sections: dict[str, tuple[int, tuple[int, ...]]]


def _observation_shapes(rules: Rules) -> list[tuple[str, tuple[int, ...]]]:
    players = rules.players
    deck = len(rules.deck)
    calls = len(action_layout(rules).calls)
    sides = len(rules.sides)
    return [
        ("seat", (players,)),
        ("to_act", (players,)),
        ("phase", (len(_PHASES),)),
        ("hand", (deck,)),
        ("hand_sizes", (players,)),
        ("bids", (players, calls)),
        ("passes", (players, calls)),
        ("contract", (calls,)),
        ("contractor", (players,)),
        ("joker_suit", (4,)),
        ("partner_card", (deck,)),
        ("partner", (players,)),
        ("sitting_out", (players,)),
        ("kitty", (deck,)),
        ("discards", (deck,)),
        ("exposed", (deck,)),
        ("played", (players, deck)),
        ("trick", (players, deck)),
        ("trick_leader", (players,)),
        ("led_suit", (4,)),
        ("voids", (players, 4)),
        ("tricks_won", (sides,)),
        ("scores", (sides,)),
    ]


def _history_shapes(rules: Rules) -> list[tuple[str, tuple[int, ...]]]:
    players = rules.players
    deck = len(rules.deck)
    shapes: list[tuple[str, tuple[int, ...]]] = [("history_hand", (deck,))]
    for t in range(rules.hand_size):
        shapes += [
            (f"history_leader_{t}", (players,)),
            (f"history_led_{t}", (4,)),
            (f"history_cards_{t}", (players, deck)),
        ]
    return shapes


def _layout(shapes: list[tuple[str, tuple[int, ...]]]) -> TensorLayout:
    sections: dict[str, tuple[int, tuple[int, ...]]] = {}
    offset = 0
    for name, shape in shapes:
        sections[name] = (offset, shape)
        size = 1
        for n in shape:
            size *= n
        offset += size
    return TensorLayout(TENSOR_VERSION, offset, sections)


_CACHE: dict[tuple[Rules, bool], TensorLayout] = {}


def observation_layout(rules: Rules) -> TensorLayout:
    """The sections of :func:`observation_tensor` for ``rules``."""
    expect(rules, Rules, "a fivehundred Rules")
    key = (rules, False)
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = _layout(_observation_shapes(rules))
    return found


def information_state_layout(rules: Rules) -> TensorLayout:
    """The sections of :func:`information_state_tensor` for ``rules``."""
    expect(rules, Rules, "a fivehundred Rules")
    key = (rules, True)
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = _layout(_observation_shapes(rules) + _history_shapes(rules))
    return found


def observation_tensor_size(rules: Rules) -> int:
    """The length of :func:`observation_tensor` for ``rules``.

    >>> import fivehundred as fh
    >>> observation_tensor_size(fh.Rules()), observation_tensor_size(fh.Rules(players=5))
    (883, 1194)
    """
    expect(rules, Rules, "a fivehundred Rules")
    return observation_layout(rules).size


def information_state_tensor_size(rules: Rules) -> int:
    """The length of :func:`information_state_tensor` for ``rules``.

    >>> import fivehundred as fh
    >>> information_state_tensor_size(fh.Rules())
    2726
    """
    expect(rules, Rules, "a fivehundred Rules")
    return information_state_layout(rules).size


class _Writer:
    """Fills the sections of a tensor by name."""

    __slots__ = ("out", "sections")

    def __init__(self, layout: TensorLayout) -> None:
        self.sections = layout.sections
        self.out = [0.0] * layout.size

    def set(self, name: str, *index: int, value: float = 1.0) -> None:
        offset, shape = self.sections[name]
        flat = 0
        for i, n in zip(index, shape, strict=True):
            flat = flat * n + i
        self.out[offset + flat] = value

    def cards(self, name: str, cards: tuple[Card, ...], positions: dict[Card, int]) -> None:
        offset = self.sections[name][0]
        for card in cards:
            self.out[offset + positions[card]] = 1.0


_POSITIONS: dict[Rules, dict[Card, int]] = {}


def _positions(rules: Rules) -> dict[Card, int]:
    found = _POSITIONS.get(rules)
    if found is None:
        found = _POSITIONS[rules] = {card: p for p, card in enumerate(rules.deck)}
    return found


def _call_ids(rules: Rules) -> dict[object, int]:
    layout = action_layout(rules)
    return {call: i for i, call in enumerate(layout.call_list)}


def _fill_observation(w: _Writer, view: PlayerView) -> None:
    rules = view.rules
    pos = _positions(rules)
    calls = _call_ids(rules)
    w.set("seat", view.seat)
    if view.to_act is not None:
        w.set("to_act", view.to_act)
    w.set("phase", _PHASES.index(view.phase))
    w.cards("hand", view.hand, pos)
    for seat, n in enumerate(view.hand_sizes):
        w.set("hand_sizes", seat, value=n / rules.hand_size)
    standing = 0
    for seat, call in view.auction:
        if call == PASS:
            w.set("passes", seat, standing)
        else:
            standing = calls[call]
            w.set("bids", seat, standing)
    if view.contract is not None:
        w.set("contract", calls[view.contract])
    if view.contractor is not None:
        w.set("contractor", view.contractor)
    if view.joker_suit is not None:
        w.set("joker_suit", int(view.joker_suit))
    if view.partner_card is not None:
        w.set("partner_card", pos[view.partner_card])
    if view.partner is not None:
        w.set("partner", view.partner)
    for seat in view.sitting_out:
        w.set("sitting_out", seat)
    if view.kitty is not None:
        w.cards("kitty", view.kitty, pos)
    if view.discards is not None:
        w.cards("discards", view.discards, pos)
    if view.exposed_hand is not None:
        w.cards("exposed", view.exposed_hand, pos)
    for trick in view.tricks:
        for seat, card in trick.plays:
            w.set("played", seat, pos[card])
    for k, (seat, card) in enumerate(view.trick):
        w.set("played", seat, pos[card])
        w.set("trick", k, pos[card])
        if k == 0:
            w.set("trick_leader", seat)
    if view.led_suit is not None:
        w.set("led_suit", int(view.led_suit))
    if view.phase is Phase.PLAY:
        know = read_sight(view)
        for seat, voids in enumerate(know.voids):
            for suit in range(4):
                if voids >> suit & 1:
                    w.set("voids", seat, suit)
    for side, n in enumerate(view.tricks_won):
        w.set("tricks_won", side, value=n / rules.hand_size)
    for side, score in enumerate(view.scores):
        w.set("scores", side, value=score / rules.target)


def _fill_history(w: _Writer, view: PlayerView) -> None:
    pos = _positions(view.rules)
    if view.phase is not Phase.PLAY and not view.tricks:
        return
    held = list(view.hand)
    for trick in view.tricks:
        held += [card for seat, card in trick.plays if seat == view.seat]
    held += [card for seat, card in view.trick if seat == view.seat]
    w.cards("history_hand", tuple(held), pos)
    rounds = [(t.plays, t.led_suit) for t in view.tricks]
    if view.trick:
        rounds.append((view.trick, view.led_suit))
    for t, (plays, led) in enumerate(rounds):
        w.set(f"history_leader_{t}", plays[0][0])
        if led is not None:
            w.set(f"history_led_{t}", int(led))
        for seat, card in plays:
            w.set(f"history_cards_{t}", seat, pos[card])


class Buffer(Protocol):
    """Where a tensor may be written: a list, a NumPy array, anything with slice assignment."""

    def __setitem__(self, key: slice, value: list[float], /) -> None: ...


def _result(values: list[float], out: Buffer | None) -> list[float]:
    if out is not None:
        out[:] = values
    return values


def observation_tensor(view: PlayerView, out: Buffer | None = None) -> list[float]:
    """The observation tensor of ``view`` (see the module docstring for the layout)."""
    expect(view, PlayerView, "a PlayerView (from observe)")
    w = _Writer(observation_layout(view.rules))
    _fill_observation(w, view)
    return _result(w.out, out)


def information_state_tensor(view: PlayerView, out: Buffer | None = None) -> list[float]:
    """The observation tensor followed by this seat's history of the hand."""
    expect(view, PlayerView, "a PlayerView (from observe)")
    w = _Writer(information_state_layout(view.rules))
    _fill_observation(w, view)
    _fill_history(w, view)
    return _result(w.out, out)


def _cards_text(cards: tuple[Card, ...] | None) -> str:
    return " ".join(str(card) for card in cards) if cards else "-"


def observation_string(view: PlayerView) -> str:
    """A one-line text of what this seat sees now (the public state and its hand)."""
    expect(view, PlayerView, "a PlayerView (from observe)")
    parts = [
        f"seat {view.seat}",
        f"phase {view.phase.value}",
        f"to act {view.to_act}",
        f"scores {' '.join(map(str, view.scores))}",
        f"hand {_cards_text(view.hand)}",
        "auction " + (" ".join(f"{s}:{c}" for s, c in view.auction) or "-"),
    ]
    if view.contract is not None:
        parts.append(f"contract {view.contract} by {view.contractor}")
    if view.joker_suit is not None:
        parts.append(f"joker {view.joker_suit.name.lower()}")
    if view.partner_card is not None:
        parts.append(f"partner card {view.partner_card} ({view.partner})")
    if view.kitty is not None:
        parts.append(f"kitty {_cards_text(view.kitty)}")
    if view.discards is not None:
        parts.append(f"discards {_cards_text(view.discards)}")
    if view.exposed_hand is not None:
        parts.append(f"exposed {_cards_text(view.exposed_hand)}")
    played = [" ".join(f"{s}:{c}" for s, c in t.plays) for t in view.tricks]
    parts.append(f"tricks won {' '.join(map(str, view.tricks_won))}")
    parts.append("played " + (" | ".join(played) or "-"))
    parts.append("trick " + (" ".join(f"{s}:{c}" for s, c in view.trick) or "-"))
    if view.led_suit is not None:
        parts.append(f"led {view.led_suit.name.lower()}")
    return "; ".join(parts)


def information_state_string(view: PlayerView) -> str:
    """:func:`observation_string` plus this seat's history of the hand (hand number included)."""
    expect(view, PlayerView, "a PlayerView (from observe)")
    held = list(view.hand)
    for trick in view.tricks:
        held += [card for seat, card in trick.plays if seat == view.seat]
    held += [card for seat, card in view.trick if seat == view.seat]
    held.sort(key=_positions(view.rules).__getitem__)
    return (
        f"hand number {view.hand_number}; "
        + observation_string(view)
        + f"; held at the lead {_cards_text(tuple(held))}"
    )


# Compiled (the compiled build), this module's functions and classes take their
# docstrings and signatures from its source (fivehundred._engine.docs).
document_module(__name__)
