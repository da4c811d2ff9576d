"""How the command line writes cards, calls, seats, events and the rules tables."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Final, TextIO

import fivehundred as fh
from fivehundred._engine.ruledata import BID_TRICKS
from fivehundred.notation import format_call, format_card, format_suit
from fivehundred.tricks import display_groups, is_trump

# -- showing cards ----------------------------------------------------------------


def use_colour(out: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(out, "isatty", None)
    return bool(isatty is not None and isatty())


#: A card or bid in canonical notation inside a sentence (``10H``, ``JD``, ``7S``).
_CARD_WORD: Final = re.compile(r"\b(1[0-3]|[2-9]|[JQKA])([SCDH])\b")
_SUITS: Final = {"S": "SPADES", "C": "CLUBS", "D": "DIAMONDS", "H": "HEARTS"}
_RED: Final = "\x1b[31m"
_BOLD: Final = "\x1b[1m"
_RESET: Final = "\x1b[0m"


class Style:
    """How cards, calls and seats are written: suit symbols (or letters), colour, "you"."""

    def __init__(self, ascii_only: bool, human: int | None = None, colour: bool = False) -> None:
        self.ascii = ascii_only
        self.human = human
        self.colour = colour

    def card(self, card: fh.Card, trump: bool = False) -> str:
        text = format_card(card, ascii=self.ascii)
        if not self.colour:
            return text
        red = card.suit is not None and card.suit.is_red
        if not (red or trump):
            return text
        return f"{_BOLD if trump else ''}{_RED if red else ''}{text}{_RESET}"

    def text(self, sentence: str) -> str:
        """A sentence in this style's notation: the cards and bids in it with suit symbols."""
        if self.ascii:
            return sentence
        return _CARD_WORD.sub(lambda m: m.group(1) + fh.Suit[_SUITS[m.group(2)]].symbol, sentence)

    def cards(self, cards: Sequence[fh.Card]) -> str:
        return " ".join(self.card(c) for c in cards) or "-"

    def call(self, call: fh.Call) -> str:
        return format_call(call, ascii=self.ascii)

    def suit(self, suit: fh.Suit) -> str:
        return format_suit(suit, ascii=self.ascii)

    def seat(self, seat: int) -> str:
        return "you" if seat == self.human else f"seat {seat}"

    def Seat(self, seat: int) -> str:  # the capitalised form, for a sentence start
        text = self.seat(seat)
        return text[0].upper() + text[1:]

    def side(self, rules: fh.Rules, side: int) -> str:
        seats = rules.sides[side]
        if self.human in seats:
            others = [f"seat {s}" for s in seats if s != self.human]
            return " & ".join(["you", *others])
        if len(seats) == 1:
            return f"seat {seats[0]}"
        return "seats " + " & ".join(str(s) for s in seats)

    def play(self, play: fh.Play) -> str:
        if play.suit is None:
            return self.card(play.card)
        return f"{self.card(play.card)} naming {self.suit(play.suit)}"

    def hand(
        self, cards: Sequence[fh.Card], contract: fh.Call | None, joker: fh.Suit | None
    ) -> str:
        """A hand sorted for reading: the trumps first and marked, then by suit, high to low."""
        parts = []
        for trump, group in hand_groups(cards, contract, joker):
            text = " ".join(self.card(c, trump) for c in group)
            parts.append(f"trumps: {text}" if trump else text)
        return "  ".join(parts) or "-"


def hand_groups(
    cards: Sequence[fh.Card], contract: fh.Call | None, joker: fh.Suit | None
) -> list[tuple[bool, list[fh.Card]]]:
    """A hand in reading order, the library's (:func:`~fivehundred.tricks.display_groups`):
    the trumps (marked ``True``), then suit by suit, high to low. Before there is a
    contract the hand is in No Trumps order, and nothing is marked."""
    return [
        (contract is not None and is_trump(group[0], contract, joker_suit=joker), list(group))
        for group in display_groups(cards, contract, joker_suit=joker)
    ]


def describe(style: Style, state: fh.GameState, action: fh.Action, *, watch: bool) -> str:
    """One line about an action that was just taken in ``state``."""
    seat = state.to_act
    assert seat is not None
    who = style.Seat(seat)
    you = seat == style.human
    if isinstance(action, fh.Call):
        if action.is_pass:
            return f"{who} {'pass' if you else 'passes'}"
        return f"{who} {'bid' if you else 'bids'} {style.call(action)}"
    if isinstance(action, fh.Discard):
        if watch or seat == style.human:
            kitty = style.cards(state.kitty)
            return f"{who} took the kitty ({kitty}) and discarded {style.cards(action.cards)}"
        return f"{who} took the kitty and discarded {len(action.cards)} cards"
    if isinstance(action, fh.Nominate):
        if action.suit is None:  # the same words with or without the Joker: silent (R7.1)
            return f"{who} made no nomination"
        return f"{who} nominated the Joker as a {style.suit(action.suit)}"
    if isinstance(action, fh.Play):
        verb = "led" if not state.trick else "played"
        return f"{who} {verb} {style.play(action)}"
    if action.card is not None:
        return f"{who} called {style.card(action.card)}: its holder is the partner"
    return f"{who} called seat {action.seat} as partner"


def hand_events(style: Style, before: fh.GameState, after: fh.GameState) -> list[str]:
    """Lines about what an action led to: the contract, a trick, the end of the hand."""
    lines = []
    rules = after.rules
    if before.phase is fh.Phase.BIDDING and after.phase is not fh.Phase.BIDDING:
        contract, contractor = after.contract, after.contractor
        if contract is not None and contractor is not None:
            team = style.side(rules, rules.side_of(contractor))
            lines.append(f"Contract: {style.call(contract)} by {style.seat(contractor)} ({team})")
            if after.sitting_out:
                out = ", ".join(style.seat(s) for s in sorted(after.sitting_out))
                lines.append(f"  {out} sit{'s' if len(after.sitting_out) == 1 else ''} out")
        elif after.phase is fh.Phase.PLAY:
            lines.append("Everyone passed: the hand is played at No Trumps")
        else:
            lines.append("Everyone passed: the hand is thrown in")
    if len(after.tricks) > len(before.tricks):
        trick = after.tricks[-1]
        plays = ", ".join(f"{style.seat(s)} {style.card(c)}" for s, c in trick.plays)
        lines.append(f"  trick {len(after.tricks):2}: {plays} -> {style.seat(trick.winner)}")
    if newly_exposed(before, after):
        contractor = after.contractor
        assert contractor is not None
        lines.append(
            f"  {style.Seat(contractor)} must show the open misère hand: "
            f"{style.hand(after.hand(contractor), after.contract, after.joker_suit)}"
        )
    result = after.last_hand
    if (
        before.phase not in (fh.Phase.DEAL, fh.Phase.GAME_OVER)
        and after.phase in (fh.Phase.DEAL, fh.Phase.GAME_OVER)
        and result is not None
        and result.contract is not None
        and result.contractor is not None
    ):
        side = rules.side_of(result.contractor)
        verdict = "made" if result.made else "failed"
        lines.append(
            f"{style.call(result.contract)} by {style.seat(result.contractor)}: "
            f"{style.side(rules, side)} took {result.tricks[side]} "
            f"trick{'s' if result.tricks[side] != 1 else ''}, {verdict}"
        )
        lines.extend(score_lines(style, rules, result.changes, result.scores))
    elif (
        before.phase is fh.Phase.PLAY
        and after.phase in (fh.Phase.DEAL, fh.Phase.GAME_OVER)
        and result is not None
    ):
        lines.extend(score_lines(style, rules, result.changes, result.scores))
    if after.result is not None and before.result is None:
        sides = after.result.winners
        winners = " and ".join(style.side(rules, s) for s in sides) or "nobody"
        alone = rules.sides[sides[0]] if len(sides) == 1 else ()
        single = len(alone) == 1 and alone[0] != style.human
        lines.append(f"Game over: {winners} {'wins' if single else 'win'}")
    return lines


def newly_exposed(before: fh.GameState, after: fh.GameState) -> bool:
    return bool(after.exposed) and not before.exposed and after.phase is fh.Phase.PLAY


def score_lines(
    style: Style, rules: fh.Rules, changes: Sequence[int], scores: Sequence[int]
) -> list[str]:
    width = max(len(style.side(rules, s)) for s in range(len(scores)))
    return [
        f"  {style.side(rules, s):<{width}}  {changes[s]:+5d}  score {scores[s]}"
        for s in range(len(scores))
    ]


def scoreline(style: Style, state: fh.GameState) -> str:
    rules = state.rules
    return ", ".join(f"{style.side(rules, s)} {score}" for s, score in enumerate(state.scores))


def actor(state: fh.GameState) -> int:
    seat = state.to_act
    if seat is None:  # pragma: no cover - only called while a seat is to act
        raise fh.InvalidStateError(["no seat is to act"])
    return seat


class Narrator:
    """The one narration of a game, for ``demo``, ``watch`` and ``play``.

    Each hand starts with a header (and, when ``reveal``, every seat's cards);
    the auction is one line when it ends; the kitty, partner and Joker steps one
    line each; every trick one line as it completes; then the hand's score.
    """

    def __init__(self, style: Style, *, reveal: bool) -> None:
        self.style = style
        self.reveal = reveal

    def deal(self, state: fh.GameState) -> list[str]:
        """The header of a hand just dealt."""
        style = self.style
        lines = [f"\n=== Hand {state.hand_number}: {style.seat(state.dealer or 0)} deals ==="]
        if style.human is not None:
            lines[0] = lines[0].replace("you deals", "you deal")
        if self.reveal:
            for seat in range(state.rules.players):
                lines.append(f"  {style.seat(seat)}: {style.hand(state.hand(seat), None, None)}")
            if state.dead_hand:
                lines.append(f"  dead hand: {style.hand(state.dead_hand, None, None)}")
            lines.append(f"  kitty: {style.cards(state.kitty)}")
        return lines

    def step(self, state: fh.GameState, action: fh.Action, after: fh.GameState) -> list[str]:
        """What ``action`` in ``state`` (leading to ``after``) shows."""
        style = self.style
        lines = []
        seat = actor(state)
        if isinstance(action, fh.Call):
            if after.phase is not fh.Phase.BIDDING:
                # Read from the state, not kept here: an undo at the table rewinds it too.
                calls = [*state.auction, (seat, action)]
                said = ", ".join(f"{style.seat(s)} {style.call(c)}" for s, c in calls)
                lines.append("  auction: " + said)
        elif not isinstance(action, fh.Play):
            lines.append("  " + describe(style, state, action, watch=self.reveal))
        return lines + hand_events(style, state, after)


def final_scores(style: Style, state: fh.GameState) -> str:
    """The closing line: every side's score."""
    return f"Final scores: {scoreline(style, state)}"


# -- rules -----------------------------------------------------------------------------


def show_rules(rules: fh.Rules, *, preset: str, ascii_only: bool, out: TextIO) -> None:
    """The bid ladder and the scoring table of ``rules``."""
    style = Style(ascii_only)
    sides = "; ".join(style.side(rules, s) for s in range(len(rules.sides)))
    print(f"Five Hundred, {preset} rules, {rules.players} players ({sides})", file=out)
    print(
        f"Win by making a contract at {rules.target} or more; out at {rules.losing_score} "
        f"or less; defenders score {rules.trick_points} a trick.",
        file=out,
    )
    print("\nBid ladder, low to high (R3.3):", file=out)
    for rung, calls in enumerate(rules.ladder.rungs, 1):
        names = " = ".join(style.call(c) for c in calls)
        value = fh.bid_value(calls[0], rules)
        print(f"  {rung:2}. {names:<28} {value:>4}", file=out)
    strains = list(fh.Strain)
    heads = "".join(f"{(s.letter if ascii_only else s.symbol):>6}" for s in strains)
    print("\nScoring (R8.1), points a contract is worth:", file=out)
    print(f"  tricks{heads}", file=out)
    for tricks in BID_TRICKS:
        row = "".join(f"{fh.bid_value(fh.Call.bid(tricks, s), rules):>6}" for s in strains)
        print(f"  {tricks:>6}{row}", file=out)
    misere = [c for c in (fh.MISERE, fh.OPEN_MISERE, fh.BLIND_MISERE) if c in rules.ladder]
    if misere:
        print(
            "  " + ", ".join(f"{style.call(c)} {fh.bid_value(c, rules)}" for c in misere),
            file=out,
        )
