"""The ``fivehundred`` command line (also ``python -m fivehundred``).

Commands:

- ``play``: you against computer players in the terminal;
- ``watch --seed N``: computer players play a whole game, narrated;
- ``simulate --games N``: many games between computer players, with a summary;
- ``score CONTRACT TRICKS``: a scorekeeper for a game played with real cards;
- ``rules``: the bid ladder and the scoring table;
- ``demo``: one seeded hand, narrated;
- ``serve``: the game server and its browser table (needs ``pip install "fivehundred[server]"``).

``--rules PRESET`` and ``--players K`` choose the rules (:data:`RULE_PRESETS`).
Bad input, at a prompt or in a flag, gets a one-line explanation; end of input
or Ctrl-C at a prompt leaves cleanly.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any, Final, NoReturn, TextIO

import fivehundred as fh
from fivehundred._tables import BID_TRICKS, MAX_PLAYERS, MIN_PLAYERS, TRICKS_PER_HAND
from fivehundred.bots import HeuristicPlayer, Player
from fivehundred.scoring import contract_made, game_result
from fivehundred.tournament import (
    BACKENDS,
    DEFAULT_BUDGET,
    PLAYER_TYPES,
    make_executor,
    make_player,
    play_games,
    summarize,
)
from fivehundred.tricks import contract_context

__all__ = ["RULE_PRESETS", "main", "rules_for"]

#: Named rule sets for ``--rules``: each makes :class:`~fivehundred.Rules` for a
#: number of players (``--players``). Add a preset by adding a line.
RULE_PRESETS: Final[dict[str, Callable[..., fh.Rules]]] = {
    "australian": fh.Rules.australian,
    "american": fh.Rules.american,
}


class UsageError(Exception):
    """Bad input on the command line or at a prompt: the message is one line for the user."""


def rules_for(preset: str, players: int = 4) -> fh.Rules:
    """The rules of a preset for a table of ``players``; :class:`UsageError` if there are none.

    >>> rules_for("australian").players
    4
    """
    factory = RULE_PRESETS.get(preset.lower())
    if factory is None:
        names = ", ".join(RULE_PRESETS)
        raise UsageError(f"unknown rules preset {preset!r}: choose one of {names}")
    try:
        return factory(players=players)
    except ValueError as err:
        raise UsageError(f"no {preset} rules for {players} players: {err}") from None


# -- showing cards ----------------------------------------------------------------


class _Style:
    """How cards, calls and seats are written: Unicode suits or plain letters."""

    def __init__(self, ascii_only: bool, human: int | None = None) -> None:
        self.ascii = ascii_only
        self.human = human

    def card(self, card: fh.Card) -> str:
        return str(card) if self.ascii else card.pretty

    def cards(self, cards: Sequence[fh.Card]) -> str:
        return " ".join(self.card(c) for c in cards) or "-"

    def call(self, call: fh.Call) -> str:
        return str(call) if self.ascii else call.pretty

    def suit(self, suit: fh.Suit) -> str:
        return suit.letter if self.ascii else suit.symbol

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
        """A hand sorted for reading: by suit (trumps last, in order of strength)."""
        ctx = contract_context(contract, joker) if contract is not None else None

        def key(card: fh.Card) -> tuple[int, int]:
            if ctx is None:
                group = 9 if card.is_joker else int(card.suit or 0)
                return (group, card.index)
            suit = ctx.suit_of(card.index)
            group = 8 if ctx.trump_mask >> card.index & 1 else suit
            return (group if group >= 0 else 9, ctx.power[card.index])

        ordered = sorted(cards, key=key)
        groups: list[list[str]] = []
        last = None
        for card in ordered:
            group = key(card)[0]
            if group != last:
                groups.append([])
                last = group
            groups[-1].append(self.card(card))
        return "  ".join(" ".join(g) for g in groups) or "-"


def _describe(style: _Style, state: fh.GameState, action: fh.Action, *, watch: bool) -> str:
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
            return f"{who} made no nomination (R7.1)"
        return f"{who} nominated the Joker as a {style.suit(action.suit)} (R7.1)"
    if isinstance(action, fh.Play):
        verb = "led" if not state.trick else "played"
        return f"{who} {verb} {style.play(action)}"
    if action.card is not None:
        return f"{who} called {style.card(action.card)}: its holder is the partner (P5)"
    return f"{who} called seat {action.seat} as partner (P5)"


def _hand_events(style: _Style, before: fh.GameState, after: fh.GameState) -> list[str]:
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
                lines.append(f"  {out} sit{'s' if len(after.sitting_out) == 1 else ''} out (R4.2)")
        elif after.phase is fh.Phase.PLAY:
            lines.append("Everyone passed: the hand is played at No Trumps (V-ALL-PASS)")
        else:
            lines.append("Everyone passed: the hand is thrown in (R3.9)")
    if len(after.tricks) > len(before.tricks):
        trick = after.tricks[-1]
        plays = ", ".join(f"{style.seat(s)} {style.card(c)}" for s, c in trick.plays)
        lines.append(f"  trick {len(after.tricks):2}: {plays} -> {style.seat(trick.winner)}")
    if _newly_exposed(before, after):
        contractor = after.contractor
        assert contractor is not None
        lines.append(
            f"  {style.Seat(contractor)} must show the open misère hand (R6.3): "
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
        lines.extend(_score_lines(style, rules, result.changes, result.scores))
    elif (
        before.phase is fh.Phase.PLAY
        and after.phase in (fh.Phase.DEAL, fh.Phase.GAME_OVER)
        and result is not None
    ):
        lines.extend(_score_lines(style, rules, result.changes, result.scores))
    if after.result is not None and before.result is None:
        sides = after.result.winners
        winners = " and ".join(style.side(rules, s) for s in sides) or "nobody"
        alone = rules.sides[sides[0]] if len(sides) == 1 else ()
        single = len(alone) == 1 and alone[0] != style.human
        lines.append(f"Game over: {winners} {'wins' if single else 'win'}")
    return lines


def _newly_exposed(before: fh.GameState, after: fh.GameState) -> bool:
    return bool(after.exposed) and not before.exposed and after.phase is fh.Phase.PLAY


def _score_lines(
    style: _Style, rules: fh.Rules, changes: Sequence[int], scores: Sequence[int]
) -> list[str]:
    width = max(len(style.side(rules, s)) for s in range(len(scores)))
    return [
        f"  {style.side(rules, s):<{width}}  {changes[s]:+5d}  score {scores[s]}"
        for s in range(len(scores))
    ]


def _scoreline(style: _Style, state: fh.GameState) -> str:
    rules = state.rules
    return ", ".join(f"{style.side(rules, s)} {score}" for s, score in enumerate(state.scores))


# -- demo ------------------------------------------------------------------------------


def _actor(state: fh.GameState) -> int:
    seat = state.to_act
    if seat is None:  # pragma: no cover - only called while a seat is to act
        raise fh.InvalidStateError(["no seat is to act"])
    return seat


def _side_name(rules: fh.Rules, side: int) -> str:
    return "seats " + " & ".join(str(s) for s in rules.sides[side])


def _cards(cards: Sequence[fh.Card], ascii_only: bool) -> str:
    return " ".join(str(c) if ascii_only else c.pretty for c in cards)


def _call(call: fh.Call, ascii_only: bool) -> str:
    return str(call) if ascii_only else call.pretty


def demo(seed: int, *, ascii_only: bool = False, out: TextIO | None = None) -> fh.GameState:
    """Play one seeded hand between computer players, narrating it to ``out``."""
    out = out if out is not None else sys.stdout
    rng = random.Random(seed)
    players = [HeuristicPlayer(random.Random(rng.getrandbits(32))) for _ in range(4)]
    state = fh.new_game(dealer=rng.randrange(4))
    print(f"Five Hundred: a seeded demo hand (seed {seed})", file=out)
    while True:
        state = fh.deal(state, rng=rng)
        rules = state.rules
        print(f"\nHand {state.hand_number}, dealer: seat {state.dealer}", file=out)
        for seat in range(rules.players):
            print(f"  seat {seat}: {_cards(state.hand(seat), ascii_only)}", file=out)
        while state.phase is fh.Phase.BIDDING:
            seat = _actor(state)
            call = players[seat].choose(fh.observe(state, seat))
            assert isinstance(call, fh.Call)
            print(f"  seat {seat} calls {_call(call, ascii_only)}", file=out)
            state = fh.apply(state, call)
        if state.phase is fh.Phase.DEAL:
            print(
                "  everyone passed: the hand is thrown in and the deal passes on (R3.9)", file=out
            )
            continue
        break
    contract, contractor = state.contract, state.contractor
    assert contract is not None and contractor is not None
    print(f"\nContract: {_call(contract, ascii_only)} by seat {contractor}", file=out)
    print(f"  seat {contractor} takes the kitty: {_cards(state.kitty, ascii_only)}", file=out)
    while state.phase is not fh.Phase.PLAY:
        seat = _actor(state)
        action = players[seat].choose(fh.observe(state, seat))
        if isinstance(action, fh.Discard):
            print(f"  and discards {_cards(action.cards, ascii_only)}", file=out)
        elif action == fh.DECLINE:
            print("  no Joker nomination (R7.1)", file=out)
        else:
            print(f"  Joker: {action}", file=out)
        state = fh.apply(state, action)
    if state.sitting_out:
        print(f"  seat {min(state.sitting_out)} sits out (R4.2)", file=out)
    shown = 0
    while state.phase is fh.Phase.PLAY:
        seat = _actor(state)
        state = fh.apply(state, players[seat].choose(fh.observe(state, seat)))
        if len(state.tricks) > shown:
            trick = state.tricks[shown]
            shown += 1
            plays = ", ".join(
                f"{s}:{card if ascii_only else card.pretty}" for s, card in trick.plays
            )
            print(f"  trick {shown:2}: {plays}  -> seat {trick.winner}", file=out)
    result = state.last_hand
    assert result is not None
    side = rules.side_of(contractor)
    verdict = "made" if result.made else "failed"
    print(
        f"\n{_side_name(rules, side)} took {result.tricks[side]} tricks: "
        f"{_call(contract, ascii_only)} {verdict}",
        file=out,
    )
    for s, (change, score) in enumerate(zip(result.changes, result.scores, strict=True)):
        print(f"  {_side_name(rules, s)}: {change:+d}, score {score}", file=out)
    return state


# -- watch -----------------------------------------------------------------------------

#: A game stops after this many hands even if nobody has won.
MAX_HANDS: Final = 300


def _seat_players(
    rules: fh.Rules, kinds: Sequence[str], rng: random.Random, budget: int, skip: int | None = None
) -> dict[int, Player]:
    """Computer players for every seat but ``skip``: side ``k`` plays ``kinds[k]``."""
    players: dict[int, Player] = {}
    for seat in range(rules.players):
        kind = kinds[rules.side_of(seat) % len(kinds)]
        source = random.Random(rng.getrandbits(64))
        if seat != skip:
            players[seat] = make_player(kind, source, budget)
    return players


def watch(
    seed: int,
    *,
    rules: fh.Rules | None = None,
    bots: Sequence[str] = ("heuristic",),
    budget: int = DEFAULT_BUDGET,
    ascii_only: bool = False,
    out: TextIO | None = None,
) -> fh.GameState:
    """Computer players play a whole seeded game; a transcript goes to ``out``."""
    out = out if out is not None else sys.stdout
    rules = rules if rules is not None else fh.Rules()
    style = _Style(ascii_only)
    rng = random.Random(seed)
    state = fh.new_game(rules, dealer=rng.randrange(rules.players))
    players = _seat_players(rules, bots, rng, budget)
    teams = " v ".join(
        f"{style.side(rules, s)} ({bots[s % len(bots)]})" for s in range(len(rules.sides))
    )
    print(f"Five Hundred, {rules.players} players, seed {seed}: {teams}", file=out)
    auction: list[str] = []
    while not state.is_over:
        if state.phase is fh.Phase.DEAL:
            if state.hand_number >= MAX_HANDS:
                break
            state = fh.deal(state, rng=rng)
            print(f"\nHand {state.hand_number}: seat {state.dealer} deals", file=out)
            for seat in range(rules.players):
                print(f"  seat {seat}: {style.hand(state.hand(seat), None, None)}", file=out)
            if state.dead_hand:
                print(f"  dead hand: {style.hand(state.dead_hand, None, None)}", file=out)
            print(f"  kitty: {style.cards(state.kitty)}", file=out)
            continue
        seat = _actor(state)
        action = players[seat].choose(fh.observe(state, seat))
        after = fh.apply(state, action)
        if isinstance(action, fh.Call):
            auction.append(f"{style.seat(seat)} {style.call(action)}")
            if after.phase is not fh.Phase.BIDDING:
                print("  auction: " + ", ".join(auction), file=out)
                auction = []
        elif not isinstance(action, fh.Play):
            print("  " + _describe(style, state, action, watch=True), file=out)
        for line in _hand_events(style, state, after):
            print(line, file=out)
        state = after
    if not state.is_over:
        print(f"\nStopped after {MAX_HANDS} hands without a winner.", file=out)
    return state


# -- play ------------------------------------------------------------------------------

_HELP: Final = (
    "Type the number of a choice, or write it: a call (7NT, 6S, pass, misere, OM), "
    "a card (10H, JD, Jo; 'Jo H' to lead the Joker naming hearts), three cards to discard, "
    "a suit or 'decline' (no nomination) at the Joker nomination, which every No Trumps and "
    "misère contract passes through: without the Joker, 'decline' is the only choice. "
    "'undo' takes back your last action; 'quit' leaves."
)
_SUIT_WORDS: Final = {
    **{s.letter.lower(): s for s in fh.Suit},
    **{s.symbol: s for s in fh.Suit},
    "spades": fh.Suit.SPADES,
    "clubs": fh.Suit.CLUBS,
    "diamonds": fh.Suit.DIAMONDS,
    "hearts": fh.Suit.HEARTS,
}
_DECLINE_WORDS: Final = frozenset({"decline", "none", "no", "keep", "free", "suitless"})


class _Prompt:
    """Reads answers: from the terminal with line editing, or from any text stream."""

    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp = inp
        self.out = out

    def ask(self, prompt: str) -> str | None:
        """One line of input, or ``None`` at the end of input."""
        if self.inp is sys.stdin and self.out is sys.stdout and sys.stdin.isatty():
            try:  # pragma: no cover - an interactive terminal
                return input(prompt)
            except EOFError:  # pragma: no cover
                return None
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            return None
        line = line.rstrip("\n")
        self.out.write(line + "\n")  # echo: a transcript of piped input reads like a session
        return line


def _choices(view: fh.PlayerView) -> list[fh.Action]:
    """The legal actions a number may stand for (the discard is chosen card by card)."""
    if view.phase is fh.Phase.DISCARD:
        return []
    return list(view.legal_actions)


def _label(style: _Style, action: fh.Action) -> str:
    if isinstance(action, fh.Call):
        return style.call(action)
    if isinstance(action, fh.Play):
        return style.play(action)
    if isinstance(action, fh.Nominate):
        return "decline" if action.suit is None else style.suit(action.suit)
    if isinstance(action, fh.CallPartner):
        return f"seat {action.seat}" if action.card is None else style.card(action.card)
    return str(action)  # pragma: no cover - discards are not listed


def _numbered(labels: Sequence[str], width: int = 78) -> list[str]:
    lines: list[str] = []
    line = " "
    for n, label in enumerate(labels, 1):
        item = f" {n}) {label}"
        if len(line) + len(item) > width and line.strip():
            lines.append(line)
            line = " "
        line += item
    if line.strip():
        lines.append(line)
    return lines


def _pool(view: fh.PlayerView) -> list[fh.Card]:
    """The cards a discard is chosen from: hand and kitty, in card order."""
    return sorted([*view.hand, *(view.kitty or ())])


def _status(style: _Style, state: fh.GameState, view: fh.PlayerView) -> list[str]:
    rules = state.rules
    lines = [
        "-" * 60,
        f"Hand {state.hand_number} · dealer {style.seat(state.dealer or 0)} · "
        f"scores: {_scoreline(style, state)}",
    ]
    if state.phase is fh.Phase.BIDDING:
        calls = ", ".join(f"{style.seat(s)} {style.call(c)}" for s, c in state.auction)
        lines.append(f"Auction: {calls or 'no calls yet'}")
    elif state.contract is not None and state.contractor is not None:
        tricks = ", ".join(f"{style.side(rules, s)} {t}" for s, t in enumerate(state.tricks_won))
        joker = f" · Joker: {style.suit(state.joker_suit)}" if state.joker_suit is not None else ""
        lines.append(
            f"Contract: {style.call(state.contract)} by {style.seat(state.contractor)}{joker}"
            f" · tricks: {tricks}"
        )
    else:
        tricks = ", ".join(f"{style.side(rules, s)} {t}" for s, t in enumerate(state.tricks_won))
        lines.append(f"No Trumps after all passed · tricks: {tricks}")
    if view.exposed_hand is not None and view.contractor is not None:
        exposed = style.hand(view.exposed_hand, view.contract, view.joker_suit)
        lines.append(f"Open misère, {style.seat(view.contractor)} shows: {exposed}")
    if state.phase is fh.Phase.PLAY:
        if view.trick:
            plays = ", ".join(f"{style.seat(s)} {style.card(c)}" for s, c in view.trick)
            led = f" (led {style.suit(view.led_suit)})" if view.led_suit is not None else ""
            lines.append(f"Trick {len(view.tricks) + 1}: {plays}{led}")
        else:
            lines.append(f"Trick {len(view.tricks) + 1}: your lead")
    if view.kitty is not None:
        lines.append(f"Kitty: {style.cards(view.kitty)}")
    lines.append(f"Your hand: {style.hand(view.hand, view.contract, view.joker_suit)}")
    return lines


def _refusal(state: fh.GameState, action: fh.Action) -> str | None:
    """The engine's sentence when ``action`` is illegal now, else ``None``."""
    try:
        fh.check_action(state, action)
    except fh.IllegalActionError as err:
        return str(err)
    return None


def _read_action(text: str, state: fh.GameState, view: fh.PlayerView) -> fh.Action:
    """The action a line of input stands for; :class:`UsageError` explains bad input."""
    words = text.replace(",", " ").replace(":", " ").split()
    choices = _choices(view)
    phase = view.phase
    if len(words) == 1 and words[0].isdigit() and phase is not fh.Phase.DISCARD:
        number = int(words[0])
        if 1 <= number <= len(choices):
            return choices[number - 1]
        raise UsageError(f"{number} is not a choice: pick a number from 1 to {len(choices)}")
    action: fh.Action
    try:
        if phase is fh.Phase.BIDDING:
            action = fh.parse_call(text)
        elif phase is fh.Phase.DISCARD:
            action = _read_discard(words, view)
        elif phase is fh.Phase.NOMINATE:
            action = _read_nomination(words)
        elif phase is fh.Phase.PARTNER:
            action = _read_partner(words)
        else:
            action = _read_play(words, view)
    except fh.NotationError as err:
        raise UsageError(str(err)) from None
    refusal = _refusal(state, action)
    if refusal is not None:
        raise UsageError(refusal)
    return action


def _read_discard(words: Sequence[str], view: fh.PlayerView) -> fh.Discard:
    pool = _pool(view)
    size = view.rules.kitty_size
    if words and words[0].lower() == "discard":
        words = words[1:]
    cards = []
    for word in words:
        if word.isdigit():
            number = int(word)
            if not 1 <= number <= len(pool):
                raise UsageError(f"{number} is not one of your cards: numbers go 1 to {len(pool)}")
            cards.append(pool[number - 1])
        else:
            cards.append(fh.parse_card(word))
    if len(cards) != size or len(set(cards)) != size:
        raise UsageError(f"name exactly {size} different cards to discard, e.g. '1 2 3'")
    return fh.Discard(cards)


def _read_nomination(words: Sequence[str]) -> fh.Nominate:
    text = " ".join(words).lower().removeprefix("nominate ").strip()
    if text in _DECLINE_WORDS:
        return fh.DECLINE
    suit = _SUIT_WORDS.get(text)
    if suit is None:
        raise UsageError(f"{text!r} is not a suit: write S, C, D, H (or a number), or 'decline'")
    return fh.Nominate(suit)


def _read_partner(words: Sequence[str]) -> fh.CallPartner:
    if words and words[0].lower() == "partner":
        words = words[1:]
    if len(words) == 2 and words[0].lower() == "seat" and words[1].isdigit():
        return fh.CallPartner(seat=int(words[1]))
    if len(words) != 1:
        raise UsageError("call a partner with one card, such as AH, or 'seat 2'")
    return fh.CallPartner(fh.parse_card(words[0]))


def _read_play(words: Sequence[str], view: fh.PlayerView) -> fh.Play:
    if not words:  # pragma: no cover - empty lines are skipped before
        raise UsageError("write a card, such as 10H")
    card = fh.parse_card(words[0])
    suit = None
    if len(words) == 2:
        suit = _SUIT_WORDS.get(words[1].lower())
        if suit is None:
            raise UsageError(f"{words[1]!r} is not a suit: write S, C, D or H")
    elif len(words) > 2:
        raise UsageError("play one card, such as 10H (or 'Jo H' to lead the Joker naming hearts)")
    if card.is_joker and suit is None:
        named = [
            p.suit for p in view.legal_actions if isinstance(p, fh.Play) and p.suit is not None
        ]
        if named:
            options = ", ".join(s.letter for s in named)
            raise UsageError(
                f"leading the Joker names a suit not yet led (R7.4): 'Jo {options[0]}'"
                f" — you may name {options}"
            )
    return fh.Play(card, suit)


class _Table:
    """The game a person plays against computer players, with undo."""

    def __init__(
        self,
        *,
        seed: int,
        human: int,
        rules: fh.Rules,
        bots: Sequence[str],
        budget: int,
        style: _Style,
    ) -> None:
        rng = random.Random(seed)
        self.human = human
        self.style = style
        self.state = fh.new_game(rules, dealer=rng.randrange(rules.players))
        self.deal_rng = random.Random(rng.getrandbits(64))
        self.rngs = [random.Random(rng.getrandbits(64)) for _ in range(rules.players)]
        kinds = [bots[rules.side_of(seat) % len(bots)] for seat in range(rules.players)]
        self.players = {
            seat: make_player(kinds[seat], self.rngs[seat], budget)
            for seat in range(rules.players)
            if seat != human
        }
        self.history: list[tuple[fh.GameState, tuple[Any, ...], fh.Action]] = []

    def snapshot(self, action: fh.Action) -> None:
        saved = (self.deal_rng.getstate(), *(r.getstate() for r in self.rngs))
        self.history.append((self.state, saved, action))

    def undo(self) -> fh.Action | None:
        if not self.history:
            return None
        state, saved, action = self.history.pop()
        self.state = state
        self.deal_rng.setstate(saved[0])
        for source, value in zip(self.rngs, saved[1:], strict=True):
            source.setstate(value)
        return action


def play(
    *,
    seed: int,
    seat: int = 0,
    rules: fh.Rules | None = None,
    bots: Sequence[str] = ("heuristic",),
    budget: int = DEFAULT_BUDGET,
    ascii_only: bool = False,
    inp: TextIO | None = None,
    out: TextIO | None = None,
) -> int:
    """A person (``seat``) plays a game against computer players; returns the exit status."""
    out = out if out is not None else sys.stdout
    prompt = _Prompt(inp if inp is not None else sys.stdin, out)
    rules = rules if rules is not None else fh.Rules()
    style = _Style(ascii_only, seat)
    table = _Table(seed=seed, human=seat, rules=rules, bots=bots, budget=budget, style=style)
    partners = rules.partners(seat)
    with_whom = f", your partner is {' & '.join(f'seat {p}' for p in partners)}" if partners else ""
    print(f"Five Hundred: you are seat {seat}{with_whom}. Type 'help' for help.", file=out)

    def say(line: str) -> None:
        print(line, file=out)

    while not table.state.is_over:
        state = table.state
        if state.phase is fh.Phase.DEAL:
            table.state = fh.deal(state, rng=table.deal_rng)
            say(f"\n=== Hand {table.state.hand_number}: seat {table.state.dealer} deals ===")
            continue
        actor = _actor(state)
        if actor != seat:
            action = table.players[actor].choose(fh.observe(state, actor))
        else:
            view = fh.observe(state, seat)
            if len(view.legal_actions) == 1 and state.phase is fh.Phase.PLAY:
                action = view.legal_actions[0]
                say(f"  (your only legal play is {_label(style, action)})")
            else:
                for line in _status(style, state, view):
                    say(line)
                if state.phase is fh.Phase.DISCARD:
                    say("Hand and kitty:")
                    for line in _numbered([style.card(c) for c in _pool(view)]):
                        say(line)
                else:
                    say("Choices:")
                    for line in _numbered([_label(style, a) for a in _choices(view)]):
                        say(line)
                answer = _ask_action(prompt, table, state, view)
                if answer is None:
                    say("\nGoodbye.")
                    return 0
                if isinstance(answer, str):
                    continue  # undone: the state is back to before the last action
                action = answer
                table.snapshot(action)
        say("  " + _describe(style, state, action, watch=False))
        after = fh.apply(state, action)
        for line in _hand_events(style, state, after):
            say(line)
        table.state = after
    return 0


_ASKS: Final = {
    fh.Phase.BIDDING: "Your call",
    fh.Phase.DISCARD: "Discard {size} cards (numbers or cards)",
    fh.Phase.NOMINATE: "Nominate the Joker's suit, or decline (no nomination)",
    fh.Phase.PARTNER: "Call a partner (a card, or 'seat N')",
    fh.Phase.PLAY: "Your play",
}


_NO_JOKER_ASK: Final = "You do not hold the Joker: decline (no nomination) is your only choice"


def _ask_action(
    prompt: _Prompt, table: _Table, state: fh.GameState, view: fh.PlayerView
) -> fh.Action | str | None:
    """Ask until the answer is a legal action or 'undo'; ``None`` to leave."""
    out = prompt.out
    question = _ASKS[state.phase].format(size=state.rules.kitty_size)
    if state.phase is fh.Phase.NOMINATE and fh.JOKER not in view.hand:
        question = _NO_JOKER_ASK  # R7.1: no nomination is the only choice
    while True:
        text = prompt.ask(f"{question}> ")
        if text is None:
            return None
        word = text.strip().lower()
        if not word:
            continue
        if word in ("q", "quit", "exit"):
            return None
        if word in ("h", "help", "?"):
            print(_HELP, file=out)
            continue
        if word == "undo":
            undone = table.undo()
            if undone is None:
                print("  nothing to undo yet: you have not acted in this game", file=out)
                continue
            print(f"  undone: back to before your {_label(table.style, undone)}", file=out)
            return "undo"
        try:
            return _read_action(text, state, view)
        except UsageError as err:
            print(f"  {err}", file=out)


# -- simulate --------------------------------------------------------------------------


def simulate(
    *,
    games: int,
    rules: fh.Rules,
    bots: Sequence[str],
    seed: int,
    budget: int,
    jobs: int,
    out: TextIO,
    err: TextIO,
    executor: Executor | None = None,
) -> None:
    """Many games between computer players: a progress bar on ``err``, a summary on ``out``.

    The games run here, on ``jobs`` processes, or on ``executor`` (any
    :class:`concurrent.futures.Executor`); each has its own seed, so the summary
    is the same either way."""
    sides = len(rules.sides)
    kinds = [bots[s % len(bots)] for s in range(sides)]
    records = []
    width = 30
    for record in play_games(
        kinds, games, seed=seed, budget=budget, rules=rules, jobs=jobs, executor=executor
    ):
        records.append(record)
        done = len(records)
        filled = width * done // games
        err.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{games} games")
        err.flush()
    err.write("\n")
    result = summarize(kinds, records)
    style = _Style(ascii_only=True)
    print(
        f"{games} games of {rules.players}-player Five Hundred (seed {seed}), "
        f"{result.hands} hands"
        + (f", {result.unfinished} unfinished" if result.unfinished else ""),
        file=out,
    )
    header = (
        f"{'side':<16} {'player':<10} {'win rate':>8} {'95% interval':>16} "
        f"{'contracts':>9} {'made':>6} {'avg score':>9}"
    )
    print(header, file=out)
    for side, kind in enumerate(kinds):
        low, high = result.interval(side)
        contracts = result.contracts[side]
        made = f"{100 * result.made[side] / contracts:5.1f}%" if contracts else "     -"
        average = sum(r.scores[side] for r in records) / len(records)
        print(
            f"{style.side(rules, side):<16} {kind:<10} {100 * result.win_rate(side):7.1f}% "
            f"[{100 * low:5.1f}%, {100 * high:5.1f}%] {contracts:>9} {made:>6} {average:>9.1f}",
            file=out,
        )
    total = sum(result.contracts)
    made_all = sum(result.made)
    share = f"{100 * made_all / total:.1f}%" if total else "-"
    print(f"contracts made overall: {made_all} of {total} ({share})", file=out)


# -- score -----------------------------------------------------------------------------


def _read_tricks(text: str, sides: int, side: int) -> tuple[int, ...]:
    parts = text.split(",")
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise UsageError(
            f"{text!r} is not a number of tricks: write 0 to {TRICKS_PER_HAND}, e.g. 8"
        ) from None
    if len(values) == 1 and sides == 2:
        taken = values[0]
        if not 0 <= taken <= TRICKS_PER_HAND:
            raise UsageError(f"{taken} tricks is not possible: a hand has {TRICKS_PER_HAND} tricks")
        tricks = [TRICKS_PER_HAND - taken] * sides
        tricks[side] = taken
        return tuple(tricks)
    if len(values) != sides:
        raise UsageError(f"give the tricks of all {sides} sides, comma-separated, e.g. 6,2,2")
    if any(v < 0 for v in values) or sum(values) > TRICKS_PER_HAND:
        raise UsageError(f"tricks {text} are not possible: a hand has {TRICKS_PER_HAND} tricks")
    return tuple(values)


def _score_hand(
    words: Sequence[str], rules: fh.Rules, default_side: int
) -> tuple[fh.Call, int, tuple[int, ...]]:
    """Read ``CONTRACT TRICKS [SIDE]``."""
    if len(words) not in (2, 3):
        raise UsageError("write a contract and the tricks its side took, e.g. '7H 8' (or '7H 8 1')")
    try:
        contract = fh.parse_call(words[0])
    except fh.NotationError as err:
        raise UsageError(str(err)) from None
    if contract.is_pass:
        raise UsageError("a pass is not a contract: a thrown-in hand scores nothing (R3.9)")
    sides = len(rules.sides)
    side = default_side
    if len(words) == 3:
        if not words[2].isdigit() or int(words[2]) >= sides:
            raise UsageError(f"{words[2]!r} is not a side: sides are 0 to {sides - 1}")
        side = int(words[2])
    return contract, side, _read_tricks(words[1], sides, side)


def _score_report(
    style: _Style,
    rules: fh.Rules,
    *,
    contract: fh.Call,
    side: int,
    tricks: tuple[int, ...],
    totals: list[int],
) -> tuple[list[str], bool]:
    """Score one hand onto ``totals``; the report lines and whether the game is over."""
    changes = fh.score_hand(contract, side, tricks, rules=rules, scores=totals)
    made = contract_made(contract, tricks[side])
    for s, change in enumerate(changes):
        totals[s] += change
    rule = ("R6.2" if contract.is_misere else "R6.1") if made else "R8.3"
    lines = [
        f"{style.call(contract)} by {style.side(rules, side)} with {tricks[side]} "
        f"trick{'s' if tricks[side] != 1 else ''}: {'made' if made else 'failed'} ({rule})"
    ]
    width = max(len(style.side(rules, s)) for s in range(len(totals)))
    for s, change in enumerate(changes):
        lines.append(f"  {style.side(rules, s):<{width}}  {change:+5d}  total {totals[s]}")
    result = game_result((side,), made, totals, rules)
    if result is not None:
        winners = " and ".join(style.side(rules, s) for s in result.winners)
        lines.append(f"Game over: {winners} win ({result.outcome.value.replace('_', ' ')})")
    return lines, result is not None


def score(
    words: Sequence[str],
    *,
    rules: fh.Rules,
    side: int,
    scores: Sequence[int],
    ascii_only: bool,
    inp: TextIO,
    out: TextIO,
) -> int:
    """The scorekeeper: one hand from ``words``, or a loop reading hands from ``inp``."""
    style = _Style(ascii_only)
    totals = list(scores)
    if words:
        contract, chosen, tricks = _score_hand(words, rules, side)
        lines, _ = _score_report(
            style, rules, contract=contract, side=chosen, tricks=tricks, totals=totals
        )
        for line in lines:
            print(line, file=out)
        return 0
    sides = ", ".join(f"side {s}: {style.side(rules, s)}" for s in range(len(rules.sides)))
    print(
        f"Scorekeeper ({sides}). Each line: CONTRACT TRICKS [SIDE], e.g. '7H 8' or 'M 0 1'; "
        "'undo' takes back a hand, 'quit' ends.",
        file=out,
    )
    prompt = _Prompt(inp, out)
    past: list[list[int]] = []
    while True:
        text = prompt.ask(f"hand {len(past) + 1}> ")
        if text is None or text.strip().lower() in ("q", "quit", "exit"):
            print(
                "Final scores: "
                + ", ".join(f"{style.side(rules, s)} {t}" for s, t in enumerate(totals)),
                file=out,
            )
            return 0
        words = text.split()
        if not words:
            continue
        if words[0].lower() == "undo":
            if not past:
                print("  nothing to undo", file=out)
                continue
            totals = past.pop()
            print(
                "  undone: "
                + ", ".join(f"{style.side(rules, s)} {t}" for s, t in enumerate(totals)),
                file=out,
            )
            continue
        try:
            contract, chosen, tricks = _score_hand(words, rules, side)
        except UsageError as err:
            print(f"  {err}", file=out)
            continue
        past.append(list(totals))
        lines, over = _score_report(
            style, rules, contract=contract, side=chosen, tricks=tricks, totals=totals
        )
        for line in lines:
            print(line, file=out)
        if over:
            return 0


# -- rules -----------------------------------------------------------------------------


def show_rules(rules: fh.Rules, *, preset: str, ascii_only: bool, out: TextIO) -> None:
    """The bid ladder and the scoring table of ``rules``."""
    style = _Style(ascii_only)
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


# -- the parser ------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """Argument errors as one line (and the exit status 2), not a usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _count(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def _number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _players(text: str) -> int:
    if not text.strip().isdigit() or not MIN_PLAYERS <= int(text) <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            f"{text!r} players: Five Hundred is for {MIN_PLAYERS} to {MAX_PLAYERS} players"
        )
    return int(text)


def _kind(text: str) -> str:
    if text not in PLAYER_TYPES:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a computer player: choose {', '.join(PLAYER_TYPES)}"
        )
    return text


def _scores(text: str) -> list[int]:
    try:
        return [int(p) for p in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a list of scores: write them comma-separated, e.g. 120,-40"
        ) from None


def _add_rules(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        default="australian",
        metavar="PRESET",
        help=f"rules preset: {', '.join(RULE_PRESETS)} (default australian)",
    )
    parser.add_argument(
        "--players",
        type=_players,
        default=4,
        metavar="K",
        help=f"players, {MIN_PLAYERS} to {MAX_PLAYERS} (default 4)",
    )
    parser.add_argument("--ascii", action="store_true", help="plain letters instead of symbols")


def _add_bots(parser: argparse.ArgumentParser, many: bool) -> None:
    parser.add_argument(
        "--bots",
        type=_kind,
        nargs="+" if many else None,
        default=["heuristic"] if many else "heuristic",
        metavar="KIND",
        help=f"computer players: {', '.join(PLAYER_TYPES)}"
        + (" (one per side, or one for all)" if many else "")
        + " (default heuristic)",
    )
    parser.add_argument(
        "--budget",
        type=_count,
        default=DEFAULT_BUDGET,
        help=f"search player: sampled deals per decision (default {DEFAULT_BUDGET})",
    )


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="fivehundred", description="Five Hundred (500), the card game.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    show = commands.add_parser("demo", help="deal, bid, play and score one seeded hand")
    show.add_argument("--seed", type=_number, default=1, help="random seed (default 1)")
    show.add_argument("--ascii", action="store_true", help="plain letters instead of suit symbols")

    game = commands.add_parser("play", help="play against computer players in the terminal")
    game.add_argument("--seed", type=_number, default=None, help="random seed (default: random)")
    game.add_argument("--seat", type=_number, default=0, help="your seat (default 0)")
    _add_rules(game)
    _add_bots(game, many=False)

    look = commands.add_parser("watch", help="computer players play a whole seeded game")
    look.add_argument("--seed", type=_number, default=1, help="random seed (default 1)")
    _add_rules(look)
    _add_bots(look, many=True)

    many = commands.add_parser("simulate", help="many games between computer players")
    many.add_argument("--games", type=_count, default=100, help="games to play (default 100)")
    many.add_argument("--seed", type=_number, default=1, help="random seed (default 1)")
    many.add_argument("--jobs", type=_count, default=1, help="workers (default 1)")
    many.add_argument(
        "--backend",
        choices=BACKENDS,
        default="process",
        help="where the games run: processes, threads or Ray (default process)",
    )
    many.add_argument("--address", default=None, help="a Ray cluster's address (--backend ray)")
    _add_rules(many)
    _add_bots(many, many=True)

    keep = commands.add_parser("score", help="score hands played with real cards")
    keep.add_argument(
        "hand", nargs="*", metavar="CONTRACT TRICKS [SIDE]", help="e.g. 7H 8 (or none: a loop)"
    )
    keep.add_argument("--side", type=_number, default=0, help="the contracting side (default 0)")
    keep.add_argument("--scores", type=_scores, default=None, help="scores before, e.g. 120,-40")
    _add_rules(keep)

    table = commands.add_parser("rules", help="the bid ladder and the scoring table")
    _add_rules(table)

    server = commands.add_parser(
        "serve", help='the game server and browser table (pip install "fivehundred[server]")'
    )
    server.add_argument(
        "--db",
        default="fivehundred.db",
        metavar="PATH",
        help="SQLite database (default %(default)s)",
    )
    server.add_argument("--host", default="127.0.0.1", help="address (default %(default)s)")
    server.add_argument("--port", type=_number, default=8500, help="port (default %(default)s)")
    server.add_argument(
        "--max-connections",
        type=_count,
        default=256,
        metavar="N",
        help="open connections at once; more get 503 (default %(default)s)",
    )
    return parser


#: What ``fivehundred serve`` says when the server extra is not installed.
SERVER_MISSING: Final = (
    'the game server needs its extra: pip install "fivehundred[server]" (Starlette and uvicorn)'
)


def serve(db: str, host: str, port: int, max_connections: int = 256) -> int:
    """``fivehundred serve``: imports the server only now, so the CLI works without the extra."""
    try:
        from fivehundred.server.serve import serve as run_server
    except ImportError as err:
        if err.name not in {"starlette", "uvicorn", "h11", "anyio"}:
            raise
        raise UsageError(SERVER_MISSING) from None
    run_server(
        db, host, port, max_connections=max_connections
    )  # pragma: no cover - runs until interrupted (tests/test_server.py)
    return 0  # pragma: no cover


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.command == "demo":
        demo(args.seed, ascii_only=args.ascii)
        return 0
    if args.command == "serve":
        return serve(args.db, args.host, args.port, args.max_connections)
    rules = rules_for(args.rules, args.players)
    sides = len(rules.sides)
    if args.command == "rules":
        show_rules(rules, preset=args.rules.lower(), ascii_only=args.ascii, out=sys.stdout)
        return 0
    if args.command == "score":
        scores = args.scores if args.scores is not None else [0] * sides
        if len(scores) != sides:
            raise UsageError(f"--scores needs {sides} scores, one per side, not {len(scores)}")
        if not 0 <= args.side < sides:
            raise UsageError(f"--side {args.side} is not a side: sides are 0 to {sides - 1}")
        return score(
            args.hand,
            rules=rules,
            side=args.side,
            scores=scores,
            ascii_only=args.ascii,
            inp=sys.stdin,
            out=sys.stdout,
        )
    if args.command == "watch":
        watch(args.seed, rules=rules, bots=args.bots, budget=args.budget, ascii_only=args.ascii)
        return 0
    if args.command == "simulate":
        if len(args.bots) not in (1, sides):
            raise UsageError(f"--bots takes one player type, or one per side ({sides})")
        executor = None
        if args.backend != "process" or args.address is not None:
            executor = make_executor(args.backend, args.jobs, args.address)
        try:
            simulate(
                games=args.games,
                rules=rules,
                bots=args.bots,
                seed=args.seed,
                budget=args.budget,
                jobs=args.jobs,
                out=sys.stdout,
                err=sys.stderr,
                executor=executor,
            )
        finally:
            if executor is not None:
                executor.shutdown()
        return 0
    if not 0 <= args.seat < rules.players:
        raise UsageError(f"--seat {args.seat} is not a seat: seats are 0 to {rules.players - 1}")
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    return play(
        seed=seed,
        seat=args.seat,
        rules=rules,
        bots=[args.bots],
        budget=args.budget,
        ascii_only=args.ascii,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["demo", *(argv if argv is not None else sys.argv[1:])])
    try:
        return _run(args, parser)
    except UsageError as err:
        print(f"fivehundred: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # pragma: no cover - the reader went away (``| head``)
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the exit-time flush
        return 1
