"""The block of one hand's fields, shared by every state of one phase of a hand.

A :class:`Hand` holds what changes only a few times a hand (the phase, the
dealer, the scores, the deal, the auction, the contract and its seats); the
states of one phase point to the same block, and a phase change copies it.
Internal; compiled by mypyc.
"""

from __future__ import annotations

from typing import Final, TypeAlias, cast, final

from fivehundred._engine.docs import mypyc_attr
from fivehundred._engine.order import Ctx
from fivehundred._engine.table import Table, positions_context, table
from fivehundred._engine.values import Phase
from fivehundred.actions import Action
from fivehundred.calls import Call
from fivehundred.rules import Rules
from fivehundred.scoring import GameResult, HandResult

# -- phases as small integers ----------------------------------------------------


DEAL: Final = 0
BIDDING: Final = 1
DISCARD: Final = 2
NOMINATE: Final = 3
PARTNER: Final = 4
PLAY: Final = 5
OVER: Final = 6
#: The phase of each number above: the members of Phase in their own order.
PHASES: Final = tuple(Phase)
PHASE_CODES: Final = {phase: code for code, phase in enumerate(PHASES)}

#: The fields of a :class:`Hand` that make its value, in order, after the rules: what
#: :meth:`Hand.key` compares and hashes and what pickling stores. The other fields
#: (the card order, the active seats, caches) follow from these. ``tests/test_state.py``
#: checks that ``__init__`` and :meth:`Hand.copy` handle exactly this list and those.
KEY_FIELDS: Final = (
    "phase",
    "dealer",
    "number",
    "scores",
    "start",
    "order",
    "kitty",
    "dead",
    "discards",
    "auction",
    "passed",
    "called",
    "passes",
    "raised",
    "high",
    "high_bid",
    "contract",
    "contractor",
    "partner",
    "partner_card",
    "joker_suit",
    "out",
    "last_raw",
    "result",
    "history",
)
#: Key fields that :func:`set_contract` and :func:`set_seats` set when a hand is rebuilt.
DERIVED_FROM: Final = frozenset({"contractor", "joker_suit", "out"})


@final
@mypyc_attr(acyclic=True)  # the table, the rules and immutable values: no reference cycle
class Hand:
    """What every state of one phase of one hand shares: the rules' table, the dealer,
    the scores, the deal, the auction so far, the contract and its card order.

    A new block is made (by :meth:`copy`) at every action that changes one of these;
    a block that a state points to is never changed again.
    """

    def __init__(self, t: Table) -> None:
        self.t = t
        self.phase = DEAL
        self.dealer = -1
        self.number = 0
        self.scores: tuple[int, ...] = (0,) * t.nsides
        #: The scores the game started from (``new_game(scores=...)``).
        self.start: tuple[int, ...] = self.scores
        #: The Rules object the game was made with (equal to ``t.rules``, maybe not it).
        self.rules: Rules = t.rules
        #: The deck order of this hand, as positions (R2.3); empty before a deal.
        self.order: tuple[int, ...] = ()
        self.kitty = 0
        self.dead = 0
        self.discards = 0
        self.auction: tuple[tuple[int, Call], ...] = ()
        self.passed = 0
        self.called = 0
        self.passes = 0
        self.raised = 0
        #: The auction index of the standing bid, and its index in ``t.bids``.
        self.high = -1
        self.high_bid = -1
        self.contract: Call | None = None
        self.contractor = -1
        self.partner = -1
        #: The five-player called card, as a card index (P5).
        self.partner_card = -1
        self.joker_suit = -1
        self.ctx: Ctx | None = None
        self.misere = False
        self.ends_early = False
        #: Seats sitting out (R4.2), the next active seat of each seat, active seats.
        self.out = 0
        self.nxt: tuple[int, ...] = t.follow
        self.active = t.players
        #: False only in a computer player's private play-out: the hand ends unscored.
        self.scored = True
        #: The last finished hand, as the fields of a HandResult (made on demand, by
        #: :meth:`last`: building the attrs value on every hand would cost play-outs).
        self.last_raw: RawResult | None = None
        self.last_obj: HandResult | None = None
        self.result: GameResult | None = None
        #: Finished hands: ``(dealer, deck order as positions, actions)``.
        self.history: tuple[tuple[int, tuple[int, ...], tuple[Action, ...]], ...] = ()

    def last(self) -> HandResult | None:
        """The last finished hand's result (built once, when first asked for)."""
        if self.last_obj is None and self.last_raw is not None:
            self.last_obj = HandResult(*self.last_raw)
        return self.last_obj

    def copy(self) -> Hand:
        new = Hand(self.t)
        new.phase = self.phase
        new.dealer = self.dealer
        new.number = self.number
        new.scores = self.scores
        new.start = self.start
        new.rules = self.rules
        new.order = self.order
        new.kitty = self.kitty
        new.dead = self.dead
        new.discards = self.discards
        new.auction = self.auction
        new.passed = self.passed
        new.called = self.called
        new.passes = self.passes
        new.raised = self.raised
        new.high = self.high
        new.high_bid = self.high_bid
        new.contract = self.contract
        new.contractor = self.contractor
        new.partner = self.partner
        new.partner_card = self.partner_card
        new.joker_suit = self.joker_suit
        new.ctx = self.ctx
        new.misere = self.misere
        new.ends_early = self.ends_early
        new.out = self.out
        new.nxt = self.nxt
        new.active = self.active
        new.scored = self.scored
        new.last_raw = self.last_raw
        new.last_obj = self.last_obj
        new.result = self.result
        new.history = self.history
        return new

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (make_hand, self.key())

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, Hand):
            return self.key() == other.key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.key())

    def key(self) -> tuple[object, ...]:
        """Every field that makes the value: the rules, then :data:`KEY_FIELDS`."""
        return (self.t.rules, *[getattr(self, name) for name in KEY_FIELDS])


def make_hand(rules: Rules, *values: object) -> Hand:
    """Rebuild a :class:`Hand` from :meth:`Hand.key` (unpickling): the rules, then the
    values of :data:`KEY_FIELDS`; the card order and the seats follow from them."""
    h = Hand(table(rules))
    fields = dict(zip(KEY_FIELDS, values, strict=True))
    for name in KEY_FIELDS:
        if name not in DERIVED_FROM:
            setattr(h, name, fields[name])
    h.rules = rules
    if h.contract is not None or h.phase == PLAY:
        set_contract(h, cast("int", fields["contractor"]), cast("int", fields["joker_suit"]))
    h.out = cast("int", fields["out"])
    set_seats(h)
    return h


#: The fields of a :class:`~fivehundred.HandResult`, in order.
RawResult: TypeAlias = tuple[
    int,
    int,
    Call | None,
    int | None,
    tuple[int, ...],
    bool | None,
    tuple[int, ...],
    tuple[int, ...],
    int | None,
    bool,
]


def raw_result(result: HandResult) -> RawResult:
    return (
        result.number,
        result.dealer,
        result.contract,
        result.contractor,
        result.tricks,
        result.made,
        result.changes,
        result.scores,
        result.partner,
        result.all_pass,
    )


def set_contract(h: Hand, contractor: int, joker_suit: int) -> None:
    """The contract's card order, sitting-out seats and early end (R1.3, R1.4, R4.2, R5.5)."""
    t = h.t
    contract = h.contract
    h.contractor = contractor
    h.joker_suit = joker_suit
    trump = -1
    if contract is not None and contract.strain is not None and contract.trump is not None:
        trump = int(contract.trump)
    h.ctx = positions_context(t, trump, joker_suit)
    h.misere = contract is not None and contract.is_misere
    h.ends_early = h.misere and not t.misere_playout


def set_seats(h: Hand) -> None:
    """The next active seat of each seat and the active count, from the seats sitting out."""
    t = h.t
    players = t.players
    out = h.out
    nxt = []
    for seat in range(players):
        following = (seat + 1) % players
        while (out >> following) & 1:
            following = (following + 1) % players
        nxt.append(following)
    h.nxt = tuple(nxt)
    h.active = players - out.bit_count()
