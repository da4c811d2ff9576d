"""What a table of given :class:`~fivehundred.Rules` fixes, as small integers.

The seats and sides, the deck and each card's position in it, the bid ladder,
the card order of a contract over the deck's positions (a projection of
:mod:`fivehundred._engine.order`), and what may be played (R5.3, R7.3-R7.5).
Internal; compiled by mypyc.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, final

from fivehundred._engine.order import Ctx, context
from fivehundred.actions import DECLINE, Discard, Nominate, Play
from fivehundred.calls import Call, CallKind
from fivehundred.cards import CARDS, JOKER, JOKER_INDEX, RANKS_PER_SUIT, Card, Suit
from fivehundred.rules import Rules

SUITS: Final = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)
NOMINATIONS: Final = (*(Nominate(suit) for suit in SUITS), DECLINE)
CACHE_LIMIT: Final = 1 << 16

# kinds of bid on the ladder
K_BID: Final = 0
K_MISERE: Final = 1
K_OPEN: Final = 2
K_BLIND: Final = 3
KIND_CODE: Final = {
    CallKind.BID: K_BID,
    CallKind.MISERE: K_MISERE,
    CallKind.OPEN_MISERE: K_OPEN,
    CallKind.BLIND_MISERE: K_BLIND,
}


def _project(mask: int, deck: tuple[int, ...]) -> int:
    """A card-index mask as a mask of deck positions."""
    out = 0
    for pos in range(len(deck)):
        if (mask >> deck[pos]) & 1:
            out |= 1 << pos
    return out


def positions_context(t: Table, trump: int, joker_suit: int) -> Ctx:
    """The card order of a contract over a table's deck positions (a projection of
    :func:`context`: the rule is written once)."""
    key = trump * 8 + joker_suit
    found = t.contexts.get(key)
    if found is not None:
        return found
    base = context(
        None if trump < 0 else SUITS[trump], None if joker_suit < 0 else SUITS[joker_suit]
    )
    deck = t.deck
    masks = [_project(base.suit_masks[s], deck) for s in range(4)]
    ctx = Ctx(
        base.trump,
        base.joker_suit,
        (masks[0], masks[1], masks[2], masks[3]),
        _project(base.trump_mask, deck),
        tuple(base.power[index] for index in deck),
        tuple(base.suits[index] for index in deck),
        t.joker,
    )
    t.contexts[key] = ctx
    return ctx


# -- what may be played (R5.3, R7.3-R7.5) -----------------------------------------


# -- one table's constants ----------------------------------------------------------


@final
class Table:
    """Everything fixed by a :class:`~fivehundred.Rules`: seats, sides, the deck, the ladder."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        players = rules.players
        self.players = players
        self.seats = (1 << players) - 1
        self.follow = tuple((s + 1) % players for s in range(players))
        sides = rules.sides
        self.nsides = len(sides)
        self.side_of = tuple(rules.side_of(s) for s in range(players))
        self.partners = tuple(rules.partners(s) for s in range(players))
        deck = tuple(card.index for card in rules.deck)
        self.deck = deck
        pos_of = [-1] * (JOKER_INDEX + 1)
        for pos in range(len(deck)):
            pos_of[deck[pos]] = pos
        self.pos_of = tuple(pos_of)
        self.size = len(deck)
        self.full = (1 << len(deck)) - 1
        self.joker = pos_of[JOKER_INDEX]
        self.joker_bit = 1 << self.joker
        shared = _deck_cache(deck)
        #: Every table with this deck shares these (the caches below too).
        self.cards: tuple[Card, ...] = shared.cards
        self.plays: tuple[Play, ...] = shared.plays
        self.joker_leads: tuple[Play, ...] = shared.joker_leads
        self.kitty_size = rules.kitty_size
        self.hand_size = rules.hand_size
        #: ``(cards to each hand, cards to the kitty)`` per round of the deal (R2.2);
        #: Rules has checked that they place every card of the deck.
        self.packets: tuple[tuple[int, int], ...] = rules.deal_packets
        self.dead = rules.has_dead_hand
        # For each dealer, who receives the n-th card dealt (R2.2; see _receivers), and
        # the other way round: for each receiver (the seats, the dead hand, the kitty)
        # the indices in the deck order of the cards it gets.
        receivers = [_receivers(players, d, self.packets, self.dead) for d in range(players)]
        self.dealt_to: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(
                tuple(at for at in range(len(got)) if got[at] == who) for who in range(players + 2)
            )
            for got in receivers
        )
        # the ladder (R3.3) as parallel tuples, each bid followed by its sans-kitty form
        bids: list[Call] = []
        rung: list[int] = []
        kind: list[int] = []
        seven: list[bool] = []
        ladder = rules.ladder
        for call in ladder.calls:
            forms = [call]
            if rules.sans_kitty:
                forms.append(Call(call.kind, call.tricks, call.strain, sans_kitty=True))
            for form in forms:
                bids.append(form)
                rung.append(ladder.position(call))
                kind.append(KIND_CODE[call.kind])
                seven.append(call.kind is CallKind.BID and (call.tricks or 0) >= 7)
        self.bids: tuple[Call, ...] = tuple(bids)
        from fivehundred.scoring import bid_value

        #: The value of each bid (R8.1), beside ``bids``.
        self.bid_value: tuple[int, ...] = tuple(bid_value(call, rules) for call in bids)
        #: The tricks each bid names (0 for misère), beside ``bids``.
        self.bid_tricks: tuple[int, ...] = tuple(call.tricks or 0 for call in bids)
        self.bid_rung: tuple[int, ...] = tuple(rung)
        self.bid_kind: tuple[int, ...] = tuple(kind)
        self.bid_seven: tuple[bool, ...] = tuple(seven)
        self.call_cache: dict[int, tuple[tuple[Call, ...], tuple[int, ...]]] = {}
        self.contexts: dict[int, Ctx] = {}
        self.discard_cache: dict[int, Discard] = shared.discard_cache
        #: Three-card discards by ``(a * size + b) * size + c`` (see ``kitty.legal_discards``),
        #: made on first use.
        self.discards3: list[Discard] = shared.discards3
        #: Each suit's block of positions: where it starts, and its mask from there.
        starts = [0, 0, 0, 0]
        chunks = [0, 0, 0, 0]
        for suit in range(4):
            inside = [p for p in range(len(deck)) if deck[p] // RANKS_PER_SUIT == suit]
            if inside:
                starts[suit] = inside[0]
                chunks[suit] = (1 << len(inside)) - 1
        self.suit_start: tuple[int, ...] = tuple(starts)
        self.suit_chunk: tuple[int, ...] = tuple(chunks)
        #: The plays of each suit's block of positions, and their codes (see
        #: ``play.legal_pair``), by ``chunk << 2 | suit``; ``None`` until first asked.
        if not shared.chunk_plays:  # a slot for every chunk of the longest block, each suit
            width = max(chunk.bit_length() for chunk in chunks)
            shared.chunk_plays.extend([None] * (4 << width))
        self.chunk_plays: list[tuple[tuple[Play, ...], tuple[int, ...]] | None] = shared.chunk_plays
        # options read on the hot paths
        self.single_round = rules.single_round
        self.rebid = rules.rebid
        self.self_raise = rules.self_raise
        self.misere_needs_seven = rules.misere_needs_seven
        self.all_pass = rules.all_pass_no_trumps
        self.same_dealer = rules.same_dealer
        self.eldest_leads = rules.eldest_leads
        self.misere_playout = rules.misere_playout
        self.lead_last = rules.joker_lead_last
        self.name_any = rules.joker_name_any
        self.nomination = rules.joker_nomination
        self.calls_partner = rules.calls_partner
        self.partner_by_seat = rules.partner_by_seat
        self.open_before_lead = rules.open_before_lead
        from fivehundred.scoring import SLAM_VALUE

        self.trick_points = rules.trick_points
        self.score_cap = rules.score_cap
        self.slam = SLAM_VALUE if rules.slam_bonus else 0
        self.target = rules.target
        self.losing = rules.losing_score
        self.defence_wins = rules.defence_wins

    def mask_of(self, cards: Sequence[Card]) -> int:
        """The position mask of cards of this deck (cards not in it are left out)."""
        mask = 0
        for card in cards:
            pos = self.pos_of[card.index]
            if pos >= 0:
                mask |= 1 << pos
        return mask

    def cards_of(self, mask: int) -> tuple[Card, ...]:
        """The cards of a position mask, in card order."""
        cards = self.cards
        out: list[Card] = []
        while mask:
            low = mask & -mask
            out.append(cards[low.bit_length() - 1])
            mask ^= low
        return tuple(out)


def _receivers(
    players: int, dealer: int, packets: tuple[tuple[int, int], ...], dead: bool
) -> tuple[int, ...]:
    """Who receives each card of a deal (R2.2): from the dealer's left, each round gives
    every hand its packet, then the kitty its own; the two-player dead hand is dealt
    between the non-dealer and the dealer (P2)."""
    slots = [(dealer + step) % players for step in range(1, players + 1)]
    if dead:
        slots.insert(1, players)
    out: list[int] = []
    for packet, kitty_packet in packets:
        for slot in slots:
            out.extend([slot] * packet)
        out.extend([players + 1] * kitty_packet)
    return tuple(out)


@final
class DeckCache:
    """What depends on the deck alone, shared by every table that plays it: the cards
    and plays by position, and the caches of legal plays and discards."""

    def __init__(self, deck: tuple[int, ...]) -> None:
        self.cards: tuple[Card, ...] = tuple(CARDS[index] for index in deck)
        self.plays: tuple[Play, ...] = tuple(Play(card) for card in self.cards)
        self.joker_leads: tuple[Play, ...] = tuple(Play(JOKER, suit) for suit in SUITS)
        self.discard_cache: dict[int, Discard] = {}
        self.discards3: list[Discard] = []
        self.chunk_plays: list[tuple[tuple[Play, ...], tuple[int, ...]] | None] = []


_DECKS: Final[dict[tuple[int, ...], DeckCache]] = {}


def _deck_cache(deck: tuple[int, ...]) -> DeckCache:
    found = _DECKS.get(deck)
    if found is None:
        if len(_DECKS) >= 16:
            _DECKS.clear()
        found = _DECKS[deck] = DeckCache(deck)
    return found


_TABLES: Final[dict[Rules, Table]] = {}


def table(rules: Rules) -> Table:
    """The :class:`Table` of a :class:`~fivehundred.Rules` (built once)."""
    found = _TABLES.get(rules)
    if found is None:
        if len(_TABLES) >= 256:
            _TABLES.clear()
        found = _TABLES[rules] = Table(rules)
    return found


def clear_tables() -> None:
    """Forget every built :class:`Table` (for tests that patch the rule tables)."""
    _TABLES.clear()
    _DECKS.clear()


def _bit_at() -> tuple[int, ...]:
    found = [-1] * 67
    for k in range(66):
        found[(1 << k) % 67] = k
    return tuple(found)


#: The bit number of each power of two below 2**66, by its remainder mod 67 (2 is a
#: primitive root of 67, so the remainders all differ): the lowest set bit of a mask
#: is ``BIT_AT[(mask & -mask) % 67]``. Compiled, ``int.bit_length`` is a Python method
#: call on a boxed int; this is integer arithmetic and one tuple read.
BIT_AT: Final = _bit_at()


def bits(mask: int) -> list[int]:
    """The set bit numbers of a mask, lowest first."""
    out: list[int] = []
    at = BIT_AT
    while mask:
        out.append(at[(mask & -mask) % 67])  # the lowest set bit
        mask &= mask - 1
    return out
