"""What one seat knows from its view, in cards: :class:`Knowledge` and :func:`read_view`.

The players compute with the mask form of the same facts,
``fivehundred._engine.sight.Sight`` (:func:`~fivehundred._engine.sight.read_sight`).
"""

from __future__ import annotations

import attrs

from fivehundred._engine.quoting import expect
from fivehundred._engine.sight import read_sight
from fivehundred.cards import Card, Suit, cards_from_mask
from fivehundred.views import PlayerView


@attrs.frozen
class Knowledge:
    """What one seat knows about where the cards are, read from its view alone.

    Constructing one checks nothing and raises nothing: :func:`read_view` makes it.
    """

    seat: int
    #: The seat's own cards.
    hand: tuple[Card, ...]
    #: Every card played this hand, the trick in progress included.
    played: tuple[Card, ...]
    #: Cards this seat cannot place: the other hands, the kitty, others' discards.
    unseen: tuple[Card, ...]
    #: The exposed open-misère hand (R6.3), or ``None``.
    exposed: tuple[Card, ...] | None
    #: The seat whose hand is exposed, or ``None``.
    exposed_seat: int | None
    #: Per seat, the effective suits it is known to lack (R5.2, R5.3).
    voids: tuple[frozenset[Suit], ...]
    #: Seats known not to hold the Joker: a void misère player holding the
    #: suitless Joker must play it (R7.3).
    no_joker: frozenset[int]
    #: The seat known to hold the unplayed Joker (the nominating contractor), if any.
    joker_holder: int | None
    #: Seats playing this hand (the misère contractor's partner sits out, R4.2).
    active: tuple[int, ...]
    #: Cards played by each seat this hand.
    played_by: tuple[tuple[Card, ...], ...]
    #: Per seat, its team as far as this seat knows: its side, with a known
    #: five-player partner counted on the contractor's side (P5).
    team: tuple[int, ...]
    #: Per seat, the cards it may hold, as far as this seat can tell (voids,
    #: the Joker, the five-player called card and the exposed hand counted).
    possible: tuple[tuple[Card, ...], ...]

    def against(self, seat: int) -> tuple[Card, ...]:
        """Cards that ``seat`` may hold, as far as this seat can tell.

        Raises ``IndexError`` for a seat that is not at the table.
        """
        return self.possible[seat]


def read_view(view: PlayerView) -> Knowledge:
    """What ``view.seat`` knows about the hidden cards: voids, played and unseen cards.

    A seat that did not follow the led suit lacks it from then on (R5.3), with
    bowers and the Joker counted in their effective suits (R5.2); a void misère
    player who played anything but the suitless Joker does not hold it (R7.3).

    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), seed=1)
    >>> know = read_view(fh.observe(state, 0))
    >>> len(know.unseen), know.voids[1]
    (33, frozenset())

    Every view can be read: it raises nothing for one, and
    :class:`~fivehundred.FiveHundredTypeError` for anything else.
    """
    expect(view, PlayerView, "a PlayerView (from observe)")
    sight = read_sight(view)
    seats = range(len(sight.voids))
    return Knowledge(
        seat=sight.seat,
        hand=cards_from_mask(sight.hand),
        played=cards_from_mask(sight.played),
        unseen=cards_from_mask(sight.unseen),
        exposed=cards_from_mask(sight.exposed) if sight.exposed_seat is not None else None,
        exposed_seat=sight.exposed_seat,
        voids=tuple(frozenset(s for s in Suit if bits >> s & 1) for bits in sight.voids),
        no_joker=frozenset(s for s in seats if sight.no_joker >> s & 1),
        joker_holder=sight.joker_holder,
        active=sight.active,
        played_by=tuple(cards_from_mask(m) for m in sight.played_by),
        team=sight.team,
        possible=tuple(cards_from_mask(sight.against(s)) for s in seats),
    )
