"""Notation: every word the library reads or writes for a suit, card, call or action.

Every spelling table is offered here, and so are the readers (``parse_*``) and
writers (``format_*``) built on them. The card and call readers are those of
:mod:`fivehundred.cards` and :mod:`fivehundred.calls` (the same functions), and
the tables are written in the internal ``_cardtext`` and ``_calltext``, so that
the value types read their own notation without importing this module. The
values keep their canonical forms (``str(card)`` is ``"10H"``,
``Suit.HEARTS.letter`` is ``"H"``, ``Suit.HEARTS.symbol`` is ``"♥"``);
:data:`SUIT_TEXT` is the one table of every way to write a suit, and the card,
call, action and nomination readers all use it.

>>> import fivehundred as fh
>>> from fivehundred import notation
>>> notation.parse_suit("hearts"), notation.parse_suit("♡"), notation.SUIT_NAMES[fh.Suit.CLUBS]
(<Suit.HEARTS: 3>, <Suit.HEARTS: 3>, 'clubs')
>>> notation.parse_move("Jo hearts", phase=fh.Phase.PLAY)
Play(card=Card.parse('Jo'), suit=Suit.HEARTS)
>>> ten = fh.parse_card("10H")
>>> notation.format_card(ten), notation.format_card(ten, ascii=True)
('10♥', '10H')
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Final

import attrs

from fivehundred._engine.calltext import CALL_FORMS
from fivehundred._engine.cardtext import CARD_FORMS, SUIT_FORMS, SUIT_NAMES, SUIT_NUMBERS
from fivehundred._engine.quoting import expect, quote, too_long
from fivehundred._engine.values import Phase
from fivehundred.actions import DECLINE, Action, CallPartner, Discard, Nominate, Play
from fivehundred.calls import Call, parse_call
from fivehundred.cards import Card, Suit, parse_card, parse_cards
from fivehundred.errors import FiveHundredTypeError, NotationError, Reason

if TYPE_CHECKING:  # for annotations only
    from fivehundred.rules import Rules

__all__ = [
    "ACTION_FORMS",
    "CALL_FORMS",
    "CARD_FORMS",
    "DECLINE_WORDS",
    "HAND_FORMS",
    "PHASE_RULES",
    "PHASE_WANTS",
    "PHASE_WORDS",
    "SUIT_NAMES",
    "SUIT_TEXT",
    "THROWN_IN",
    "HandScore",
    "format_action",
    "format_call",
    "format_card",
    "format_cards",
    "format_suit",
    "parse_action",
    "parse_call",
    "parse_card",
    "parse_cards",
    "parse_hand_score",
    "parse_move",
    "parse_suit",
    "read_move",
    "split_hands",
]

# -- suits ------------------------------------------------------------------------------

#: Every way to write a suit, in upper case: the letter, the symbol (filled or
#: hollow) and the name, singular or plural. The one suit table of the package
#: (the card, call, action and nomination readers all read it, by suit number).
SUIT_TEXT: Final[dict[str, Suit]] = {text: Suit(suit) for text, suit in SUIT_NUMBERS.items()}


def parse_suit(text: str) -> Suit:
    """Read a suit: a letter, a symbol or a name, in any case.

    >>> parse_suit("h"), parse_suit("♠"), parse_suit("Diamonds")
    (<Suit.HEARTS: 3>, <Suit.SPADES: 0>, <Suit.DIAMONDS: 2>)

    Raises :class:`~fivehundred.NotationError` for anything else.
    """
    if not isinstance(text, str):
        raise NotationError(
            f"a suit is written as text, not {quote(text)}",
            text=quote(text),
            reason=Reason.NOT_TEXT,
        )
    too_long(text, "a suit")
    suit = SUIT_TEXT.get(text.strip().upper())
    if suit is None:
        raise NotationError(
            f"{quote(text)} is not a suit: write {SUIT_FORMS}", text=text, reason=Reason.NOT_A_SUIT
        )
    return suit


def format_suit(suit: Suit, *, ascii: bool = False) -> str:
    """A suit as the symbol (``♥``), or its letter (``H``) with ``ascii``."""
    expect(suit, Suit, "a Suit")
    return suit.letter if ascii else suit.symbol


# -- cards ------------------------------------------------------------------------------


def format_card(card: Card, *, ascii: bool = False) -> str:
    """A card with its suit symbol (``10♥``), or in canonical letters (``10H``) with ``ascii``."""
    expect(card, Card, "a Card")
    return str(card) if ascii else card.pretty


def format_cards(cards: tuple[Card, ...] | list[Card], *, ascii: bool = False) -> str:
    """Cards separated by spaces (``-`` for none), as :func:`format_card` writes each."""
    expect(cards, (tuple, list), "a tuple or list of Cards")
    return " ".join(format_card(c, ascii=ascii) for c in cards) or "-"


# -- calls ------------------------------------------------------------------------------


def format_call(call: Call, *, ascii: bool = False) -> str:
    """A call as people read it (``7♥``, ``Misère``); canonical (``7H``, ``M``) with ``ascii``."""
    expect(call, Call, "a Call")
    return str(call) if ascii else call.pretty


# -- actions ----------------------------------------------------------------------------

_ACTION_TYPES: Final = (Call, Discard, Nominate, CallPartner, Play)
#: The keyword an action of a phase starts with, in :func:`format_action` notation.
PHASE_WORDS: Final = {
    "discard": Phase.DISCARD,
    "nominate": Phase.NOMINATE,
    "decline": Phase.NOMINATE,
    "partner": Phase.PARTNER,
}
#: What an action may look like, for messages.
ACTION_FORMS: Final = (
    "a call (7H, pass, M), 'discard 4D 5D 6D', 'nominate H' or 'decline', "
    "'partner AH' or 'partner seat 2', or a card play (KS, or Jo:H for a Joker lead naming hearts)"
)
#: Words a person may type for "no nomination" at the Joker nomination (R7.1).
DECLINE_WORDS: Final = frozenset({"decline", "none", "no", "keep", "free", "suitless"})


def format_action(action: Action) -> str:
    """The notation of an action, as records and the JSON format write it.

    A call is its call notation (``7H``, ``pass``, ``M``, ``7H-SK``); a discard
    ``discard 4D 5D 6D``; a nomination ``nominate H`` or ``decline``; a partner
    call ``partner AH`` or ``partner seat 2``; a card play its card (``KS``), and
    a Joker lead that names a suit ``Jo:H``.

    >>> format_action(DECLINE), format_action(CallPartner(seat=2))
    ('decline', 'partner seat 2')

    Raises :class:`TypeError` for anything that is not an action.
    """
    if isinstance(action, CallPartner) and action.seat is not None:
        return f"partner seat {int(action.seat)}"
    if not isinstance(action, _ACTION_TYPES):
        raise FiveHundredTypeError(f"{quote(action)} is not an action")
    return str(action)


def _suit_in(text: str, whole: str) -> Suit:
    suit = SUIT_TEXT.get(text.strip().upper())
    if suit is None:
        raise NotationError(
            f"{quote(whole)}: {quote(text)} is not a suit (S, C, D or H)",
            text=whole,
            reason=Reason.NOT_A_SUIT,
        )
    return suit


def _parse_play(text: str) -> Play:
    """A card play: ``KS``, or ``Jo:H`` for a Joker lead that names a suit."""
    card_text, colon, suit_text = text.partition(":")
    card = parse_card(card_text)
    if not colon:
        return Play(card)
    if not card.is_joker:
        raise NotationError(
            f"{quote(text)}: only a Joker lead names a suit (Jo:H)",
            text=text,
            reason=Reason.SUIT_ON_NON_JOKER,
        )
    return Play(card, _suit_in(suit_text, text))


#: What each phase takes, in :func:`format_action` notation, with its rule: the end of a
#: message refusing text in that phase. Each names only the moves of its own phase.
PHASE_WANTS: Final = {
    Phase.BIDDING: "the auction takes a call: a bid such as 7H or 6NT, pass, M, OM or BM",
    Phase.DISCARD: (
        "the kitty exchange takes 'discard' and the cards put down, such as 'discard 4D 5D 6D'"
    ),
    Phase.NOMINATE: (
        "the nomination takes 'nominate' and a suit, such as 'nominate H', or 'decline'"
    ),
    Phase.PARTNER: (
        "the partner call takes 'partner' and a card, such as 'partner AH', or 'partner seat 2'"
    ),
    Phase.PLAY: "card play takes a card, such as KS, or Jo:H to lead the Joker naming hearts",
    Phase.DEAL: "no action is taken before the next deal",
    Phase.GAME_OVER: "no action is taken once the game is over",
}
#: The rules of what each phase takes, cited by the messages that refuse its text.
PHASE_RULES: Final = {
    Phase.BIDDING: "R3.2, R3.3",
    Phase.DISCARD: "R4.1",
    Phase.NOMINATE: "R7.1",
    Phase.PARTNER: "P5",
    Phase.PLAY: "R5.1, R7.4",
    Phase.DEAL: "R2.1",
    Phase.GAME_OVER: "R9",
}


def _wants(phase: Phase) -> str:
    return f"{PHASE_WANTS[phase]} ({PHASE_RULES[phase]})"


#: The kind of action each phase takes.
_PHASE_TYPES: Final[dict[Phase, type]] = {
    Phase.BIDDING: Call,
    Phase.DISCARD: Discard,
    Phase.NOMINATE: Nominate,
    Phase.PARTNER: CallPartner,
    Phase.PLAY: Play,
}
#: What each kind of action is called in a message.
_KIND_NAMES: Final[dict[type, str]] = {
    Call: "a call",
    Discard: "a discard",
    Nominate: "a nomination",
    CallPartner: "a partner call",
    Play: "a card play",
}


def parse_action(text: str, *, phase: Phase | None = None) -> Action:
    """Read an action in :func:`format_action` notation.

    A trick bid and a card play can be written alike (``7H``): give the
    ``phase`` the action is taken in, or the text must be unambiguous. Bad text
    raises :class:`~fivehundred.NotationError`, whose ``reason`` says why
    (``NOT_A_CARD``, ``NOT_A_CALL``, ``AMBIGUOUS_TEXT``, ...). Given a ``phase``,
    the message ends with what that phase takes and its rule, and text that is
    an action of another phase is refused with ``WRONG_PHASE``.

    >>> parse_action("partner seat 2"), parse_action("Jo:H")
    (CallPartner(card=None, seat=2), Play(card=Card.parse('Jo'), suit=Suit.HEARTS))
    >>> parse_action("7H")
    Traceback (most recent call last):
    ...
    fivehundred.errors.NotationError: '7H' is a bid or a card play: give the phase
    >>> parse_action("8S 4D 9D", phase=Phase.DISCARD)
    Traceback (most recent call last):
    ...
    fivehundred.errors.NotationError: '8S 4D 9D' is not a discard: write 'discard 8S 4D 9D' (R4.1)
    """
    if phase is not None and not isinstance(phase, Phase):
        raise NotationError(
            f"{quote(phase)} is not a Phase", text=quote(text), reason=Reason.WRONG_PHASE
        )
    if phase is None:
        return _parse_action(text)
    try:
        return _parse_action(text, phase)
    except NotationError as err:
        if err.reason is Reason.NOT_AN_ACTION or err.reason is Reason.WRONG_PHASE:
            raise  # worded for the phase already
        other = _other_phase(text, phase) if isinstance(text, str) else None
        if other is not None:
            raise _wrong_phase(text, phase, other) from None
        raise NotationError(
            f"{err} ({PHASE_RULES[phase]})", text=err.text, reason=err.reason
        ) from None


def _parse_action(text: str, phase: Phase | None = None) -> Action:
    """:func:`parse_action` of a checked ``phase``, without the phase's rule in messages."""
    if not isinstance(text, str):
        raise NotationError(
            f"an action is written as text, not {type(text).__name__} {quote(text)}",
            text=quote(text),
            reason=Reason.NOT_TEXT,
        )
    too_long(text, "an action")
    words = text.split()
    if phase is None:
        if not words:
            raise NotationError(
                f"{quote(text)} is not an action: write {ACTION_FORMS}",
                text=text,
                reason=Reason.NOT_AN_ACTION,
            )
        named = PHASE_WORDS.get(words[0].lower())
        return _guess(text) if named is None else _in_phase(text, words, named, aware=False)
    return _in_phase(text, words, phase)


def _refuse(text: str, phase: Phase, what: str, *, aware: bool) -> NotationError:
    """Text that is no action of ``phase``: ``what`` it is not, then what the phase takes;
    ``aware``: the text is read in a phase given, so an action of another phase says so."""
    other = _other_phase(text, phase) if aware else None
    if other is not None:
        return _wrong_phase(text, phase, other)
    return NotationError(
        f"{quote(text)} is not {what}: {_wants(phase)}", text=text, reason=Reason.NOT_AN_ACTION
    )


def _wrong_phase(text: str, phase: Phase, other: Action) -> NotationError:
    kind = _KIND_NAMES[type(other)]
    return NotationError(
        f"{quote(text)} is {kind}, which is not taken now: {_wants(phase)}",
        text=text,
        reason=Reason.WRONG_PHASE,
    )


def _other_phase(text: str, phase: Phase) -> Action | None:
    """The action of another phase than ``phase`` that ``text`` is, if it is one."""
    try:
        action = parse_action(text)
    except NotationError:
        if phase is Phase.BIDDING:  # 7H is a card too
            with contextlib.suppress(NotationError):
                return _parse_play(text.strip())
        elif phase is not Phase.PLAY:  # and a call
            with contextlib.suppress(NotationError):
                return parse_call(text)
        return None
    return None if type(action) is _PHASE_TYPES.get(phase) else action


def _in_phase(text: str, words: list[str], phase: Phase, *, aware: bool = True) -> Action:
    """``text`` (split into ``words``) read as an action of ``phase``; ``aware``: the phase
    was given (not named by the text's keyword), see :func:`_refuse`."""
    if phase is Phase.BIDDING:
        return parse_call(text)
    if phase is Phase.PLAY:
        if len(words) != 1:
            raise _refuse(text, phase, "a card play", aware=aware)
        return _parse_play(words[0])
    wanted = _PHASE_TYPES.get(phase)
    if wanted is None:
        raise _refuse(text, phase, "an action", aware=aware)
    head = words[0].lower() if words else ""
    if PHASE_WORDS.get(head) is not phase:
        cards = _cards_or_none(text) if phase is Phase.DISCARD and words else None
        if cards is not None:
            written = " ".join(map(str, cards))
            raise NotationError(
                f"{quote(text)} is not a discard: write 'discard {written}' (R4.1)",
                text=text,
                reason=Reason.NOT_AN_ACTION,
            )
        raise _refuse(text, phase, _KIND_NAMES[wanted], aware=aware)
    rest = words[1:]
    if phase is Phase.DISCARD:
        return Discard(parse_cards(" ".join(rest)))
    if phase is Phase.NOMINATE:
        if head == "decline" and not rest:
            return DECLINE
        if head == "nominate" and len(rest) == 1:
            return Nominate(_suit_in(rest[0], text))
        raise _refuse(text, phase, "a nomination", aware=aware)
    return _parse_partner(rest, text)


def _cards_or_none(text: str) -> tuple[Card, ...] | None:
    try:
        return parse_cards(text)
    except NotationError:
        return None


def read_move(text: str, phase: Phase, *, seat: int | None = None) -> Action:
    """The action ``text`` is in ``phase``, or the action of another phase it is.

    The reader of :func:`~fivehundred.play`: an action of another phase is
    handed back, so that the rules refuse it (``WRONG_PHASE``), as they refuse
    the action itself. Any other text raises :func:`parse_action`'s
    :class:`~fivehundred.NotationError`, naming ``seat``.

    >>> read_move("7H", Phase.BIDDING), read_move("AS", Phase.BIDDING)
    (Call.parse('7H'), Play(card=Card.parse('AS')))
    >>> read_move("seven hearts", Phase.BIDDING, seat=1)
    Traceback (most recent call last):
    ...
    fivehundred.errors.NotationError: 'seven hearts' is not a call: write a trick bid such as \
6S, 7NT or 10♥ (6-10 tricks and S, C, D, H or NT), M/misere, OM (open misère), BM (blind \
misère) or pass/P; add -SK for sans kitty (R3.2, R3.3)
    """
    try:
        return parse_action(text, phase=phase)
    except NotationError as err:
        other = _other_phase(text, phase) if err.reason is Reason.WRONG_PHASE else None
        if other is not None:
            return other
        err.seat = seat
        raise


def _parse_partner(rest: list[str], text: str) -> CallPartner:
    """The partner call (P5) after its keyword: a card, or ``seat N``."""
    if len(rest) == 2 and rest[0].lower() == "seat" and rest[1].isascii() and rest[1].isdigit():
        if len(rest[1]) > 2:
            raise NotationError(
                f"{quote(text)}: {rest[1]} is not a seat", text=text, reason=Reason.NOT_A_SEAT
            )
        return CallPartner(seat=int(rest[1]))
    if len(rest) == 1:
        return CallPartner(parse_card(rest[0]))
    raise NotationError(
        f"{quote(text)} is not a partner call: "
        "write 'partner AH' (one card) or 'partner seat 2' (P5)",
        text=text,
        reason=Reason.NOT_AN_ACTION,
    )


def _guess(text: str) -> Action:
    """Read an action without its phase: a call or a card play, if only one fits."""
    if ":" in text:
        return _parse_play(text.strip())
    readings: list[Action] = []
    for reader in (parse_call, _parse_play):
        with contextlib.suppress(NotationError):
            readings.append(reader(text.strip()))
    if len(readings) == 1:
        return readings[0]
    if readings:
        raise NotationError(
            f"{quote(text)} is a bid or a card play: give the phase",
            text=text,
            reason=Reason.AMBIGUOUS_TEXT,
        )
    raise NotationError(
        f"{quote(text)} is not an action: write {ACTION_FORMS}",
        text=text,
        reason=Reason.NOT_AN_ACTION,
    )


def parse_move(text: str, *, phase: Phase) -> Action:
    """Read an action as a person types it at the table, in a known ``phase``.

    Everything :func:`parse_action` reads, and the shorter forms people type:
    the keyword may be left out (``4D 5D 6D`` for ``discard 4D 5D 6D``,
    ``hearts`` or ``♥`` for ``nominate H``, ``none`` for ``decline``, ``AH``
    or ``seat 2`` for a partner call), and a Joker lead may name its suit after
    a space (``Jo H``, ``jo hearts``). The command line reads moves with it.

    >>> parse_move("none", phase=Phase.NOMINATE), parse_move("seat 2", phase=Phase.PARTNER)
    (Nominate(suit=None), CallPartner(card=None, seat=2))
    >>> parse_move("9h 10h jh", phase=Phase.DISCARD)
    Discard(cards=(Card.parse('9H'), Card.parse('10H'), Card.parse('JH')))

    Raises :class:`~fivehundred.NotationError` saying what a move of the phase looks like.
    """
    if not isinstance(phase, Phase):
        raise NotationError(
            f"{quote(phase)} is not a Phase", text=quote(text), reason=Reason.WRONG_PHASE
        )
    if not isinstance(text, str):
        raise NotationError(
            f"a move is written as text, not {quote(text)}",
            text=quote(text),
            reason=Reason.NOT_TEXT,
        )
    too_long(text, "a move")
    words = text.replace(",", " ").split()
    keyword = {Phase.DISCARD: "discard", Phase.NOMINATE: "nominate", Phase.PARTNER: "partner"}
    if words and words[0].lower() == keyword.get(phase):
        words = words[1:]
    if phase is Phase.BIDDING:
        return parse_call(text)
    if phase is Phase.DISCARD:
        return Discard(parse_cards(" ".join(words)))
    if phase is Phase.NOMINATE:
        said = " ".join(words)
        if said.lower() in DECLINE_WORDS:
            return DECLINE
        if SUIT_TEXT.get(said.upper()) is None:
            what = f"{quote(said)} is not a suit" if said else f"{quote(text)} names no suit"
            raise NotationError(
                f"{what}: write {SUIT_FORMS}, or 'decline'", text=text, reason=Reason.NOT_A_SUIT
            )
        return Nominate(SUIT_TEXT[said.upper()])
    if phase is Phase.PARTNER:
        return _parse_partner(words, text)
    if phase is not Phase.PLAY:
        raise NotationError(
            f"nothing is typed in the {phase.value} phase", text=text, reason=Reason.WRONG_PHASE
        )
    if len(words) == 2:
        return _parse_play(f"{words[0]}:{words[1]}")
    if len(words) != 1:
        raise NotationError(
            "play one card, such as 10H (or 'Jo H' to lead the Joker naming hearts)",
            text=text,
            reason=Reason.NOT_AN_ACTION,
        )
    return _parse_play(words[0])


# -- hands scored at a real table ----------------------------------------------------------


@attrs.frozen
class HandScore:
    """One hand of a game played with real cards, as a scorekeeper writes it.

    ``contractor`` is the contractor's seat (``by SEAT``), or its side in the
    short form: :func:`~fivehundred.score_hand` takes either. ``tricks`` are the
    tricks each side took; ``partner`` is the five-player partner (P5).
    """

    contract: Call
    contractor: int
    tricks: tuple[int, ...]
    partner: int | None = None


#: What a thrown-in hand (everyone passed, R3.9) may be written as.
THROWN_IN: Final = frozenset({"pass", "all pass", "passed", "thrown in", "throw in"})
#: What a scored hand may look like, for messages.
HAND_FORMS: Final = (
    "write a contract and the tricks its side took: CONTRACT TRICKS [SIDE] (7H 8, M 0 1, "
    "6NT 2,3,5 by side), CONTRACT by SEAT took N (7H by 0 took 8), "
    "CONTRACT by SEAT [with SEAT] tricks N N N N (by seat), or pass"
)
_HAND_WORDS: Final = frozenset({"by", "with", "took", "tricks"})


def _number(text: str, whole: str, what: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 3:
        raise NotationError(f"{quote(text)} is not {what}", text=whole, reason=Reason.NOT_A_HAND)
    return int(text)


def parse_hand_score(text: str, rules: Rules | None = None, *, side: int = 0) -> HandScore | None:
    """Read one hand of a real table; ``None`` for a thrown-in hand (``pass``, R3.9).

    The short form gives the contract, the tricks its side took and, if it is
    not ``side``, the contracting side: ``7H 8``, ``M 0 1``. The long form names
    the contractor's seat: ``7H by 0 took 8``; with more than two sides give the
    tricks of every seat (``6NT by 1 tricks 2 3 5``) or side (``6NT 2,3,5``), and
    a five-player partner with ``with SEAT`` (P5). ``fivehundred score`` and
    ``examples/scorekeeper.py`` read this notation.

    >>> import fivehundred as fh
    >>> parse_hand_score("7H 8", fh.Rules()), parse_hand_score("7h by 3 took 6", fh.Rules())
    (HandScore(contract=Call.parse('7H'), contractor=0, tricks=(8, 2), partner=None), \
HandScore(contract=Call.parse('7H'), contractor=3, tricks=(4, 6), partner=None))
    >>> parse_hand_score("pass", fh.Rules()) is None
    True

    ``rules`` are the game's (the default :class:`~fivehundred.Rules` when left out) and
    ``side`` the contracting side of the short form when the text names none.

    Raises :class:`~fivehundred.NotationError` saying what is wrong and what a hand looks
    like, :class:`~fivehundred.FiveHundredTypeError` for ``rules`` that are not a
    :class:`~fivehundred.Rules` or a ``side`` that is not a whole number, and
    :class:`~fivehundred.FiveHundredError` for a ``side`` that is not a side of the rules.
    """
    from fivehundred.errors import FiveHundredError
    from fivehundred.rules import Rules

    if rules is None:
        rules = Rules()
    expect(rules, Rules, "the game's rules (a fivehundred.Rules, or None for the default)")
    expect(side, int, "a side (a whole number)")
    if not 0 <= side < len(rules.sides):
        raise FiveHundredError(f"side {side} is not a side: sides are 0 to {len(rules.sides) - 1}")
    if not isinstance(text, str):
        raise NotationError(
            f"a hand is written as text, not {quote(text)}",
            text=quote(text),
            reason=Reason.NOT_TEXT,
        )
    too_long(text, "a hand")
    words = text.split()
    if " ".join(words).lower() in THROWN_IN:
        return None
    if len(words) < 2:
        raise NotationError(f"{quote(text)}: {HAND_FORMS}", text=text, reason=Reason.NOT_A_HAND)
    contract = parse_call(words[0])
    if contract.is_pass:
        raise NotationError(
            f"{quote(text)}: a pass is not a contract: a contract is a bid, not a pass, and a "
            "thrown-in hand is 'pass' alone, scoring nothing (R3.9)",
            text=text,
            reason=Reason.NOT_A_HAND,
        )
    players, sides = rules.players, len(rules.sides)
    rest = [w.lower() for w in words[1:]]
    seat = partner = None
    for keyword in ("by", "with"):
        if rest[:1] == [keyword]:
            if len(rest) < 2:
                raise NotationError(
                    f"{quote(text)}: {HAND_FORMS}", text=text, reason=Reason.NOT_A_HAND
                )
            who = _number(rest[1], text, "a seat")
            if who >= players:
                raise NotationError(
                    f"{quote(text)}: seat {who} is not at a {players}-seat table",
                    text=text,
                    reason=Reason.NOT_A_HAND,
                )
            seat, partner = (who, partner) if keyword == "by" else (seat, who)
            rest = rest[2:]
    took: int | None = None
    tricks: tuple[int, ...] | None = None
    if rest[:1] == ["took"] and len(rest) >= 2:
        took, rest = _number(rest[1], text, "a number of tricks: write 0 to 10, e.g. 8"), rest[2:]
    elif rest[:1] == ["tricks"] and len(rest) >= 2:
        counts = tuple(_number(n, text, "a number of tricks") for n in rest[1:])
        if len(counts) not in (players, sides):
            raise NotationError(
                f"{quote(text)}: give the tricks of each of the {players} seats",
                text=text,
                reason=Reason.NOT_A_HAND,
            )
        tricks = counts if len(counts) == sides else _by_side(counts, rules)
        rest = []
    elif rest and "," in rest[0]:
        parts = rest[0].split(",")
        tricks = tuple(_number(n, text, "a number of tricks") for n in parts)
        if len(tricks) != sides:
            raise NotationError(
                f"{quote(text)}: give the tricks of all {sides} sides, comma-separated, e.g. 6,2,2",
                text=text,
                reason=Reason.NOT_A_HAND,
            )
        rest = rest[1:]
    elif rest and rest[0] not in _HAND_WORDS:
        took = _number(rest[0], text, "a number of tricks: write 0 to 10, e.g. 8")
        rest = rest[1:]
    else:
        raise NotationError(f"{quote(text)}: {HAND_FORMS}", text=text, reason=Reason.NOT_A_HAND)
    if seat is None and len(rest) == 1:
        side = _number(rest[0], text, f"a side: sides are 0 to {sides - 1}")
        if side >= sides:
            raise NotationError(
                f"{quote(rest[0])} is not a side: sides are 0 to {sides - 1}",
                text=text,
                reason=Reason.NOT_A_HAND,
            )
        rest = []
    if rest:
        raise NotationError(f"{quote(text)}: {HAND_FORMS}", text=text, reason=Reason.NOT_A_HAND)
    contractor = seat if seat is not None else side
    if took is not None:
        if took > 10:
            raise NotationError(
                f"{quote(text)}: {took} tricks is not possible: a hand has ten tricks",
                text=text,
                reason=Reason.NOT_A_HAND,
            )
        if sides != 2 or partner is not None:
            raise NotationError(
                f"{quote(text)}: give the tricks of all {sides} sides, comma-separated (6,2,2), "
                "or of every seat (CONTRACT by SEAT tricks N N N ...)",
                text=text,
                reason=Reason.NOT_A_HAND,
            )
        ours = rules.side_of(contractor)
        tricks = (took, 10 - took) if ours == 0 else (10 - took, took)
    assert tricks is not None
    if sum(tricks) > 10:
        raise NotationError(
            f"{quote(text)}: tricks {' '.join(map(str, tricks))} are not possible: "
            "a hand has ten tricks",
            text=text,
            reason=Reason.NOT_A_HAND,
        )
    return HandScore(contract, contractor, tricks, partner)


def _by_side(counts: tuple[int, ...], rules: Rules) -> tuple[int, ...]:
    return tuple(sum(counts[s] for s in seats) for seats in rules.sides)


def split_hands(text: str) -> list[str]:
    """Several hands in one line, each starting at its contract: ``7H 8 8S 9`` is two.

    >>> split_hands("7H 8 8S 9 pass M by 1 took 0")
    ['7H 8', '8S 9', 'pass', 'M by 1 took 0']
    """
    expect(text, str, "text (a str)")
    hands: list[list[str]] = []
    for word in text.split():
        starts = not hands or hands[-1][-1].lower() not in _HAND_WORDS
        try:
            parse_call(word)
        except NotationError:
            starts = False
        if starts:
            hands.append([word])
        elif hands:
            hands[-1].append(word)
        else:
            hands.append([word])
    return [" ".join(hand) for hand in hands]
