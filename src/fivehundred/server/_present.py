"""What the browser table shows of one seat's view, in a person's words.

:func:`page` is the ``"page"`` part of a seat's answer to ``GET /tables/{id}``
(and of the live ``view`` message). The page's script draws it and holds no
rule of its own: the seats around the table with their marks, the bidding box
with each call's points (from the library's scoring table), the auction by
seat, the contract and its trump badge, every card's spoken name and marks
(trump, bower, kept from the kitty), the tricks of this hand and of the hand
before, the score sheet by hand, and a sentence for whose turn it is.

Everything comes from the seat's :class:`~fivehundred.PlayerView` and from the
public record of finished hands (:class:`FinishedHand`), so the page is given
no card the seat may not see.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

import attrs

import fivehundred as fh
from fivehundred.calls import CallKind, Strain
from fivehundred.scoring import SCORE_TABLE, bid_value
from fivehundred.tricks import display_groups, is_trump

__all__ = [
    "MISERE_WORDS",
    "FinishedHand",
    "card_name",
    "finished",
    "json_bytes",
    "kept_from_kitty",
    "page",
    "trumps",
]

#: Each misère call: its name and a one-line explanation (R3.2, R6.3).
MISERE_WORDS: Final = {
    CallKind.MISERE: ("Misère", "Win no trick at all, playing alone with no trumps."),
    CallKind.OPEN_MISERE: (
        "Open misère",
        "Win no trick, with your hand laid face up after the first trick.",
    ),
    CallKind.BLIND_MISERE: (
        "Blind misère",
        "Open misère called before you look at your cards: worth the same, and bolder.",
    ),
}
_RANK_WORDS: Final = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}
_SUIT_WORDS: Final = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}
_STRAIN_WORDS: Final = {**_SUIT_WORDS, "NT": "no trumps"}
_NUMBER_WORDS: Final = {6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}
_PHASE_WORDS: Final = {
    fh.Phase.DEAL: "The deal",
    fh.Phase.BIDDING: "The auction",
    fh.Phase.DISCARD: "The kitty",
    fh.Phase.NOMINATE: "The Joker's suit",
    fh.Phase.PARTNER: "The partner call",
    fh.Phase.PLAY: "The play",
    fh.Phase.GAME_OVER: "The game is over",
}
_DOING: Final = {
    fh.Phase.BIDDING: "bid or pass",
    fh.Phase.DISCARD: "discard three cards",
    fh.Phase.NOMINATE: "name the Joker's suit",
    fh.Phase.PARTNER: "call a partner",
    fh.Phase.PLAY: "play a card",
}


@attrs.frozen(cache_hash=True)  # a key of the page's caches: hashed once
class FinishedHand:
    """The public record of a hand once played: its auction, its tricks and its result.

    Constructing one checks nothing and raises nothing: :func:`finished` makes them.
    """

    result: fh.HandResult | None
    auction: tuple[tuple[int, fh.Call], ...]
    tricks: tuple[Any, ...]


def finished(state: fh.GameState) -> FinishedHand:
    """The public record of the hand ``state`` has just finished (every card played is public).

    Raises nothing for a state of the library.
    """
    return FinishedHand(state.last_hand, state.auction, state.tricks)


def kept_from_kitty(state: fh.GameState, seat: int) -> tuple[fh.Card, ...]:
    """The kitty's cards the contractor ``seat`` kept, once the kitty is exchanged (R4.1).

    Nothing for any other seat, or before the exchange. The kitty is found by
    dealing this hand's deck again, so no state keeps it after the discard.
    Raises nothing for a state of the library.
    """
    if state.contractor != seat or not state.deck or state.phase is fh.Phase.DISCARD:
        return ()
    held = set(state.hand(seat))
    return tuple(card for card in _kitty(state.rules, state.dealer, state.deck) if card in held)


@functools.lru_cache(maxsize=1024)  # the hands being played now, one deal each
def _kitty(rules: fh.Rules, dealer: int, deck: tuple[fh.Card, ...]) -> tuple[fh.Card, ...]:
    """The kitty of a hand dealt from ``deck``: dealt once, not for every view of the hand."""
    return fh.deal(fh.new_game(rules, dealer=dealer), cards=deck).kitty


def card_name(card: fh.Card) -> str:
    """A card as a screen reader says it: ``"queen of hearts"``, ``"10 of spades"``, ``"Joker"``.

    Raises nothing for a card.
    """
    return _card_name(card)


@functools.lru_cache(maxsize=256)  # a deck has at most 63 cards
def _card_name(card: fh.Card) -> str:
    if card.is_joker:
        return "Joker"
    rank = str(card.rank)
    assert card.suit is not None
    return f"{_RANK_WORDS.get(rank, rank)} of {_SUIT_WORDS[card.suit.letter]}"


@functools.lru_cache(maxsize=256)  # the calls of the games being played: a few dozen
def _call_text(call: fh.Call) -> str:
    """A call as the page prints it: ``8♥``, ``7NT``, ``Misère``, ``Pass``."""
    if call.kind is CallKind.BID:
        assert call.strain is not None
        return f"{call.tricks}{call.strain.symbol}"
    if call.kind is CallKind.PASS:
        return "Pass"
    return MISERE_WORDS[call.kind][0]


def _call_words(call: fh.Call) -> str:
    """A call in words: ``eight hearts``, ``seven no trumps``, ``misère``, ``pass``."""
    if call.kind is CallKind.BID:
        assert call.tricks is not None and call.strain is not None
        return f"{_NUMBER_WORDS[call.tricks]} {_STRAIN_WORDS[call.strain.letter]}"
    return _call_text(call).lower()


def _names(seats: Sequence[str], you: int | None, names: Sequence[str | None] | None) -> list[str]:
    """Each seat's name: "You", a given name, or "Player 3" / "Computer 3"."""
    out = []
    for seat, kind in enumerate(seats):
        if seat == you:
            out.append("You")
        elif names and seat < len(names) and names[seat]:
            out.append(str(names[seat]))
        else:
            out.append(f"{'Player' if kind == 'human' else 'Computer'} {seat + 1}")
    return out


def _sides(rules: fh.Rules, name: list[str], you: int | None) -> list[str]:
    """Each side's name: "You", "You and Player 3", "Computer 2 and Player 4"."""
    out = []
    for side in rules.sides:
        ordered = sorted(side, key=lambda seat: seat != you)
        out.append(" and ".join(name[seat] for seat in ordered))
    return out


@functools.lru_cache(maxsize=4096)  # the tricks of the hands being played, by each seat
def _trick(trick: fh.Trick, name: tuple[str, ...]) -> dict[str, Any]:
    """A trick as the page shows it (shared by the answers that show it: never changed)."""
    return {
        "plays": [{"seat": seat, "card": str(card)} for seat, card in trick.plays],
        "winner": trick.winner,
        "words": f"{name[trick.winner]} won it with the "
        + card_name(dict((seat, card) for seat, card in trick.plays)[trick.winner]),
    }


def _result(hand: fh.HandResult, rules: fh.Rules, name: list[str], sides: list[str]) -> str:
    if hand.contract is None or hand.contractor is None:
        return "Everyone passed: the hand was thrown in, and nothing scored."
    who = name[hand.contractor]
    verb = "made" if hand.made else "lost"
    side = _side_of(rules, hand.contractor)
    took = hand.tricks[side]
    tricks = f"{took} trick{'s' if took != 1 else ''}"
    changes = ", ".join(
        f"{sides[n]} {_signed(change)}" for n, change in enumerate(hand.changes) if change
    )
    return f"{who} {verb} {_call_words(hand.contract)} with {tricks}: {changes or 'no change'}."


def _signed(number: int) -> str:
    """A score's change as a person reads it, with its sign: a true minus sign (U+2212).

    >>> _signed(50), _signed(0), _signed(-280) == chr(0x2212) + "280"
    ('+50', '0', True)
    """
    if number > 0:
        return f"+{number}"
    return f"\u2212{-number}" if number < 0 else "0"


def _side_of(rules: fh.Rules, seat: int) -> int:
    return _sides_by_seat(rules)[seat]


@functools.lru_cache(maxsize=64)  # the rules being played
def _sides_by_seat(rules: fh.Rules) -> tuple[int, ...]:
    """Each seat's side, by seat."""
    return tuple(
        next(n for n, side in enumerate(rules.sides) if seat in side)
        for seat in range(rules.players)
    )


def _partnered(rules: fh.Rules, seat: int, contractor: int | None, partner: int | None) -> bool:
    """Whether ``seat`` plays with the contractor: the called partner, or the
    contractor's side at a table of fixed sides."""
    return partner == seat or (
        contractor is not None
        and seat != contractor
        and not rules.partner_by_seat
        and rules.players != 5
        and _side_of(rules, seat) == _side_of(rules, contractor)
    )


def _sheet_row(
    hand: fh.HandResult, rules: fh.Rules, name: list[str], sides: list[str]
) -> dict[str, Any]:
    contract = hand.contract
    return {
        "hand": hand.number,
        "contract": "Thrown in" if contract is None else _call_text(contract),
        "by": None if hand.contractor is None else name[hand.contractor],
        "tricks": list(hand.tricks),
        "made": hand.made,
        "changes": list(hand.changes),
        "scores": list(hand.scores),
        "words": _result(hand, rules, name, sides),
    }


@functools.lru_cache(maxsize=512)  # the rules and the calls open: few in any auction
def _box(rules: fh.Rules, legal: frozenset[str]) -> dict[str, Any]:
    """The bidding box: a bid per level and strain, the misère calls, and pass.

    The same for every view of one auction's position, so made once: the answer is
    only encoded, never changed.
    """
    bids = []
    for level, row in SCORE_TABLE.items():
        for strain in Strain:
            call = fh.Call.bid(level, strain)
            text = fh.format_action(call)
            bids.append(
                {
                    "call": text,
                    "text": _call_text(call),
                    "words": _call_words(call),
                    "points": row[strain],
                    "legal": text in legal,
                }
            )
    miseres = []
    kinds = [fh.MISERE, fh.OPEN_MISERE] + ([fh.BLIND_MISERE] if rules.blind_misere else [])
    for call in kinds if rules.misere else []:
        text = fh.format_action(call)
        title, explain = MISERE_WORDS[call.kind]
        miseres.append(
            {
                "call": text,
                "text": title,
                "explain": explain,
                "points": bid_value(call, rules),
                "legal": text in legal,
            }
        )
    strains = [{"symbol": s.symbol, "words": _STRAIN_WORDS[s.letter]} for s in Strain]
    return {
        "levels": list(SCORE_TABLE),
        "strains": strains,
        "bids": bids,
        "misere": miseres,
        "pass": "pass" in legal,
    }


def _auction(view: fh.PlayerView, name: list[str]) -> dict[str, Any]:
    """The auction as a table: a column a seat, from the dealer's left, a row a round.

    Once the game is over, the auction is the last hand's, from its dealer's left
    (the view's dealer is then the dealer of a hand that never comes)."""
    dealer = view.dealer
    if view.result is not None and view.last_hand is not None:
        dealer = view.last_hand.dealer
    return _auction_table(view.rules.players, dealer, view.auction, tuple(name))


@functools.lru_cache(maxsize=1024)  # an auction is read by each seat through its hand
def _auction_table(
    players: int,
    dealer: int | None,
    auction: tuple[tuple[int, fh.Call], ...],
    name: tuple[str, ...],
) -> dict[str, Any]:
    """The auction grid (shared by the answers that show it: never changed)."""
    first = 0 if dealer is None else (dealer + 1) % players
    order = [(first + n) % players for n in range(players)]
    rows: list[list[str]] = []
    column = {seat: n for n, seat in enumerate(order)}
    for seat, call in auction:
        if not rows or rows[-1][column[seat]] or column[seat] < _last_filled(rows[-1]):
            rows.append([""] * players)
        rows[-1][column[seat]] = _call_text(call)
    return {"seats": order, "names": [name[s] for s in order], "rows": rows}


def _last_filled(row: list[str]) -> int:
    return max((n for n, text in enumerate(row) if text), default=-1)


def _action_words(parsed: fh.Action, name: list[str]) -> str:
    """A legal action in words (the Joker lead, the nomination, the partner call...)."""
    if isinstance(parsed, fh.Play) and parsed.suit is not None:
        return f"Lead the Joker as {_SUIT_WORDS[parsed.suit.letter]}"
    if isinstance(parsed, fh.Nominate):
        if parsed.suit is None:
            return "Leave the Joker without a suit"
        return f"The Joker is a {_SUIT_WORDS[parsed.suit.letter][:-1]}"
    if isinstance(parsed, fh.CallPartner):
        if parsed.seat is not None:
            return f"Take {name[parsed.seat]} as partner"
        return (
            "Call a partner by card"
            if parsed.card is None
            else f"Call the {card_name(parsed.card)}"
        )
    if isinstance(parsed, fh.Call):
        return _call_words(parsed).capitalize()
    if isinstance(parsed, fh.Play):
        return f"Play the {card_name(parsed.card)}"
    return fh.format_action(parsed)


def _cards(
    view: fh.PlayerView, kept: Iterable[fh.Card], tricks: Iterable[Any]
) -> dict[str, dict[str, Any]]:
    """Every card the page shows: its spoken name and its marks under the contract."""
    contract, joker = view.contract, view.joker_suit
    kitty = {card.index for card in kept} | {card.index for card in view.kitty or ()}
    shown = {card.index: card for card in view.hand}
    for cards in (view.kitty or (), view.exposed_hand or ()):
        shown.update((card.index, card) for card in cards)
    shown.update((card.index, card) for _, card in view.trick)
    for trick in tricks:
        shown.update((card.index, card) for _, card in trick.plays)
    entries = _entries(contract, joker)
    out = {}
    for index, card in shown.items():
        entry = entries.get(index)
        if entry is None:
            entry = entries[index] = _card_entry(card, contract, joker)
        text, plain, from_kitty = entry
        out[text] = from_kitty if index in kitty else plain
    return out


@functools.lru_cache(maxsize=256)  # the contracts and nominations being played
def _entries(
    contract: fh.Call | None, joker: fh.Suit | None
) -> dict[int, tuple[str, dict[str, Any], dict[str, Any]]]:
    """The entries of :func:`_cards` under a contract, by card index, filled as cards are
    met: the same for every view of the hand (the answers are only encoded, never changed)."""
    return {}


def _card_entry(
    card: fh.Card, contract: fh.Call | None, joker: fh.Suit | None
) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A card's name and its entries of :func:`_cards`, held or from the kitty."""
    trump_suit = None
    if contract is not None and contract.kind is CallKind.BID and contract.strain is not None:
        trump_suit = contract.strain.suit
    label, trump, bower, red = _marks(card, contract, joker, trump_suit)
    entry = {"label": label, "trump": trump, "bower": bower, "kitty": False, "red": red}
    return str(card), entry, {**entry, "label": f"{label}, from the kitty", "kitty": True}


@functools.lru_cache(maxsize=4096)  # the cards, by the contracts and nominations met
def _marks(
    card: fh.Card, contract: fh.Call | None, joker: fh.Suit | None, trump_suit: fh.Suit | None
) -> tuple[str, bool, str | None, bool]:
    """A card's spoken label (its name, then "right bower", "left bower" or "trump"), whether
    it is a trump, which bower it is, and whether it is red: the same for every view of
    one contract, so worked out once."""
    trump = contract is not None and is_trump(card, contract, joker_suit=joker)
    bower = None
    if trump and trump_suit is not None and str(card.rank) == "J" and card.suit is not None:
        if card.suit == trump_suit:
            bower = "right"
        elif card.suit == trump_suit.partner:
            bower = "left"
    marks = [card_name(card)]
    marks += [f"{bower} bower"] if bower else (["trump"] if trump else [])
    return ", ".join(marks), trump, bower, card.suit is not None and card.suit.is_red


def _turn(view: fh.PlayerView, name: list[str], sides: list[str], you: int | None) -> str:
    if view.result is not None:
        winners = " and ".join(sides[side] for side in view.result.winners)
        return f"The game is over: {winners} won."
    if view.to_act is None:
        return "Dealing."
    doing = _DOING.get(view.phase, "move")
    if view.to_act == you:
        return f"Your turn: {doing}."
    return f"{name[view.to_act]} to {doing}."


def _tally(view: fh.PlayerView, name: list[str], sides: list[str]) -> dict[str, Any] | None:
    """The tricks each side has taken this hand, against what the contract needs, and who
    leads the trick: what a player tracks at a glance during the play (R5, R8)."""
    if view.phase is not fh.Phase.PLAY or view.contract is None or view.contractor is None:
        return None
    rules = view.rules
    contract_sides = {_side_of(rules, view.contractor)}
    if view.partner is not None:  # a five-player partner, once this seat may know it (P5)
        contract_sides.add(_side_of(rules, view.partner))
    taken = sum(view.tricks_won[side] for side in contract_sides)
    playing = [size for seat, size in enumerate(view.hand_sizes) if seat not in view.sitting_out]
    total = len(view.tricks) + max(playing, default=0)
    misere = view.contract.kind is not CallKind.BID
    need = 0 if misere else int(view.contract.tricks or 0)
    against = total - need + 1 if not misere else 1  # the tricks that defeat the contract
    leader = view.trick[0][0] if view.trick else view.to_act
    return {
        "sides": [
            {"name": sides[n], "tricks": won, "contract": n in contract_sides}
            for n, won in enumerate(view.tricks_won)
        ],
        "taken": taken,
        "need": need,
        "misere": misere,
        "left": total - len(view.tricks),
        "words": (
            f"The contract must take no trick; it has {taken}."
            if misere
            else f"The contract has {taken} of the {need} tricks it needs; "
            f"the others have {len(view.tricks) - taken} of the {against} that beat it."
        ),
        "leader": None if leader is None else name[leader],
    }


def _contract(call: fh.Call, contractor: int, rules: fh.Rules, name: list[str]) -> dict[str, Any]:
    """The contract as the page's bar shows it: the call, its trump badge, who and what."""
    if call.kind is CallKind.BID:
        assert call.strain is not None and call.tricks is not None
        badge, badge_words = call.strain.symbol, f"{_STRAIN_WORDS[call.strain.letter]}"
        need = f"{call.tricks} tricks"
    else:
        badge, badge_words, need = "Misère", "no trumps: misère", "no trick"
    return {
        "text": _call_text(call),
        "words": _call_words(call),
        "by": name[contractor],
        "points": bid_value(call, rules),
        "badge": badge,
        "badge_words": "Trumps: " + badge_words,
        "red": call.strain is not None and call.strain.suit is not None and call.strain.suit.is_red,
        "need": need,
    }


@functools.lru_cache(maxsize=1024)  # a finished hand is read by each seat until the next
def _sheet(
    past: tuple[FinishedHand, ...], rules: fh.Rules, name: tuple[str, ...], sides: tuple[str, ...]
) -> list[dict[str, Any]]:
    """The score sheet's rows of the hands played (shared: copy it before changing it)."""
    return [_sheet_row(h.result, rules, [*name], [*sides]) for h in past if h.result is not None]


@functools.lru_cache(maxsize=1024)  # the hand before, read by each seat through a hand
def _previous(
    hand: FinishedHand | None, rules: fh.Rules, names: tuple[str, ...], teams: tuple[str, ...]
) -> dict[str, Any] | None:
    """The hand before, as the page shows it while its end is held: its tricks and result,
    and its contract, auction and seats' marks as they were (not the next deal's).
    Shared by every answer that shows it: never changed once made."""
    if hand is None or hand.result is None:
        return None
    name, sides = [*names], [*teams]  # the helpers take lists
    result = hand.result
    played = {seat for trick in hand.tricks for seat, _ in trick.plays}
    return {
        "hand": result.number,
        "tricks": [_trick(t, names) for t in hand.tricks],
        "words": _result(result, rules, name, sides),
        "contract": None
        if result.contract is None or result.contractor is None
        else _contract(result.contract, result.contractor, rules, name),
        "phase": f"Hand {result.number} is over"
        if result.contract is not None
        else "Everyone passed: " + ("played at no trumps" if result.all_pass else "thrown in"),
        "auction": _auction_table(rules.players, result.dealer, hand.auction, names),
        "seats": [
            {
                "dealer": seat == result.dealer,
                "contractor": seat == result.contractor,
                "partner": _partnered(rules, seat, result.contractor, result.partner),
                # every card is played by the end of a hand; a thrown-in hand keeps its deal
                "cards": 0 if hand.tricks else rules.hand_size,
                "out": bool(hand.tricks) and seat not in played,
            }
            for seat in range(rules.players)
        ],
    }


def page(
    view: fh.PlayerView,
    seats: Sequence[str],
    past: Sequence[FinishedHand] = (),
    *,
    kept: Iterable[fh.Card] = (),
    names: Sequence[str | None] | None = None,
    spectator: bool = False,
    legal: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The page's part of a seat's answer: the table as the browser draws it, in words.

    ``seats`` are the seat kinds (``"human"`` or a computer player's kind),
    ``past`` the table's finished hands in order (for the score sheet and the
    last trick), ``kept`` the kitty cards the contractor kept
    (:func:`kept_from_kitty`), ``names`` the people's names if they gave any.
    A ``spectator``'s page names no seat "You" and has no bidding box (it has no call).
    ``legal`` is the view's legal actions in notation, where the caller has them already.

    Raises nothing for a view of the library.
    """
    rules = view.rules
    you = None if spectator else view.seat
    name = _names(seats, you, names)
    sides = _sides(rules, name, you)
    texts = [fh.format_action(a) for a in view.legal_actions] if legal is None else legal
    previous = past[-1] if past else None
    before = () if previous is None else previous.tricks
    people = []
    for seat in range(rules.players):
        people.append(
            {
                "seat": seat,
                "name": name[seat],
                "computer": seats[seat] != "human",
                "you": seat == you,
                # once the game is over, no hand is dealt: nobody is its dealer
                "dealer": seat == view.dealer and view.result is None,
                "contractor": seat == view.contractor,
                "partner": _partnered(rules, seat, view.contractor, view.partner),
                "to_act": seat == view.to_act,
                "cards": view.hand_sizes[seat],
                "out": seat in view.sitting_out,
                "side": _side_of(rules, seat),
            }
        )
    contract = None
    if view.contract is not None and view.contractor is not None:
        contract = _contract(view.contract, view.contractor, rules, name)
    names, teams = tuple(name), tuple(sides)  # the cached helpers' keys
    sheet = [*_sheet(tuple(past), rules, names, teams)]  # a copy: it grows
    last = view.last_hand
    if (
        last is not None
        and last.contract is not None
        and all(row["hand"] != last.number for row in sheet)
    ):  # the game's last hand: the game ended without another deal
        sheet.append(_sheet_row(last, rules, name, sides))
    return {
        "you": you,
        "phase": _PHASE_WORDS.get(view.phase, view.phase.value),
        "hand": view.hand_number,
        # the hand the review is of: the last one finished (at the game's end, the last one)
        "reviewed": None if view.last_hand is None else view.last_hand.number,
        "turn": _turn(view, name, sides, you),
        "seats": people,
        "sides": [{"name": s, "score": view.scores[n]} for n, s in enumerate(sides)],
        "target": rules.target,
        "contract": contract,
        "box": _box(rules, frozenset(texts))
        if view.phase is fh.Phase.BIDDING and not spectator
        else None,
        "auction": _auction(view, name),
        "cards": _cards(view, kept, (*view.tricks, *before)),
        "tricks": [_trick(t, names) for t in view.tricks],
        "trick": [{"seat": seat, "card": str(card)} for seat, card in view.trick],
        "previous": _previous(previous, rules, names, teams),
        "sheet": sheet,
        "actions": {
            text: _action_words(action, name)
            for action, text in zip(view.legal_actions, texts, strict=True)
            if not isinstance(action, fh.Discard)
        },
        "partner_card": None if view.partner_card is None else card_name(view.partner_card),
        "tally": _tally(view, name, sides),
    }


#: orjson's encoder (in Rust: a view is encoded several times faster), where the server
#: extra installed it.
_fast_json: Callable[[object], bytes] | None
try:
    import orjson

    _fast_json = functools.partial(orjson.dumps, option=orjson.OPT_NON_STR_KEYS)
except ImportError:  # pragma: no cover - orjson is not installed
    _fast_json = None


def json_bytes(value: object) -> bytes:
    """``value`` as compact JSON in UTF-8: with orjson where it is installed, else ``json``.

    The two give the same JSON value; orjson writes non-ASCII characters as they are,
    where ``json`` escapes them.

    >>> json.loads(json_bytes({"suit": "♠", "seats": [0, 1]}))
    {'suit': '♠', 'seats': [0, 1]}
    """
    if _fast_json is not None:
        return _fast_json(value)
    return json.dumps(value, separators=(",", ":")).encode()


@functools.lru_cache(maxsize=256)  # the rules, contracts and nominations being played
def trumps(rules: fh.Rules, contract: fh.Call, joker: fh.Suit | None) -> tuple[str, ...]:
    """Every trump of the deck under a contract, highest first: the same for every view of
    the hand, so worked out once."""
    first = display_groups(rules.deck, contract, joker_suit=joker)[0]
    return tuple(str(c) for c in first) if is_trump(first[0], contract, joker_suit=joker) else ()


def _colour(group: Sequence[fh.Card]) -> bool | None:
    """Whether a group of cards is red (``None``: the Joker alone, no colour)."""
    suits = [card.suit for card in group if card.suit is not None]
    return None if not suits else suits[-1].is_red


def alternate(groups: Sequence[Sequence[fh.Card]], trumps: bool) -> list[Sequence[fh.Card]]:
    """The groups of a hand with the suits in alternating colours where the cards allow it.

    The trumps stay first (``trumps``: the first group is the trumps); each next group is
    the first one left, in the library's suit order, whose colour differs from the one
    before, so that no two suits of one colour lie side by side unless they must.
    """
    out: list[Sequence[fh.Card]] = [groups[0]] if trumps and groups else []
    left = list(groups[1:] if trumps and groups else groups)
    while left:
        before = _colour(out[-1]) if out else None
        pick = next((g for g in left if before is None or _colour(g) != before), left[0])
        left.remove(pick)
        out.append(pick)
    return out


def display(view: fh.PlayerView) -> dict[str, Any]:
    """How the browser table shows a view's cards, sorted and marked by the library.

    ``hand`` is the seat's cards (with the kitty while the seat discards from it)
    and ``exposed_hand`` an open misère hand, each as groups in the order of
    :func:`~fivehundred.tricks.display_groups`; ``kitty`` is in that order too.
    ``trumps`` is every card of the deck that is a trump under the contract,
    highest first (none before there is a contract), so that the page marks
    them wherever they are shown: in the hand, the kitty or the trick.
    """
    contract, joker = view.contract, view.joker_suit
    kitty = view.kitty
    return {
        "hand": _groups((*view.hand, *(kitty or ())), contract, joker),
        "kitty": None
        if kitty is None
        else [card for group in _groups(kitty, contract, joker) for card in group],
        "exposed_hand": None
        if view.exposed_hand is None
        else _groups(view.exposed_hand, contract, joker),
        "trumps": [] if contract is None else list(trumps(view.rules, contract, joker)),
    }


@functools.lru_cache(maxsize=4096)  # the hands being played: one changes at each card
def _groups(
    cards: tuple[fh.Card, ...], contract: fh.Call | None, joker: fh.Suit | None
) -> list[list[str]]:
    """Cards as :func:`display` shows them: in groups, the colours alternating (shared by
    the answers that show them: never changed)."""
    found = display_groups(cards, contract, joker_suit=joker)
    first_trumps = bool(found) and is_trump(found[0][0], contract, joker_suit=joker)
    return [[str(c) for c in group] for group in alternate(found, first_trumps)]
