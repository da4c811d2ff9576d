"""The interactive table: a person plays a game against computer players."""

from __future__ import annotations

import contextlib
import random
import re
import sys
from collections.abc import Sequence
from typing import Any, Final, TextIO

import fivehundred as fh

# -- play ------------------------------------------------------------------------------
from fivehundred._engine.rulebook import RULE_TEXT, cited
from fivehundred.bots.tournament import (
    DEFAULT_BUDGET,
    make_player,
)
from fivehundred.cli._args import HOW_TO_PLAY, UsageError
from fivehundred.cli._render import (
    Narrator,
    Style,
    actor,
    describe,
    final_scores,
    hand_events,
    hand_groups,
    scoreline,
    use_colour,
)
from fivehundred.notation import parse_move

#: What ``help`` prints at the table.
_HELP: Final = HOW_TO_PLAY

#: Said once, when the person first reaches the Joker nomination.
NOMINATION_NOTE: Final = (
    "The Joker nomination: in No Trumps and misère the Joker is the only trump. If you hold "
    "it you may nominate a suit for it, and it then belongs to that suit; or decline, and "
    "it stays suitless: it may be played only when you cannot follow suit, it wins any "
    "trick, and when you lead it you name a suit not yet led. Without the Joker, decline "
    "is your only choice; the others are not told whether you hold it."
)


class Prompt:
    """Reads answers: from the terminal with line editing, or from any text stream."""

    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp = inp
        self.out = out

    def ask(self, prompt: str) -> str | None:
        """One line of input, or ``None`` at the end of input."""
        if self.inp is sys.stdin and self.out is sys.stdout and sys.stdin.isatty():
            _line_editing()  # tests/test_cli_pty.py runs this under a pseudo-terminal
            try:
                return input(prompt)
            except EOFError:
                return None
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            return None
        line = line.rstrip("\n")
        self.out.write(line + "\n")  # echo: a transcript of piped input reads like a session
        return line


def _line_editing() -> None:
    """Line editing and history for :func:`input`, where the platform has readline."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401 - importing it is what turns line editing on


def _choices(view: fh.PlayerView) -> list[fh.Action]:
    """The legal actions a number may stand for, in the order the hand is shown.

    The discard is chosen card by card (see :func:`_pool`)."""
    if view.phase is fh.Phase.DISCARD:
        return []
    actions = list(view.legal_actions)
    if view.phase is not fh.Phase.PLAY:
        return actions
    order = {card: n for n, card in enumerate(_in_hand_order(view, view.hand))}
    return sorted(actions, key=lambda a: order[a.card] if isinstance(a, fh.Play) else 0)


def _in_hand_order(view: fh.PlayerView, cards: Sequence[fh.Card]) -> list[fh.Card]:
    groups = hand_groups(cards, view.contract, view.joker_suit)
    return [card for _, group in groups for card in group]


def _label(style: Style, action: fh.Action) -> str:
    if isinstance(action, fh.Call):
        return style.call(action)
    if isinstance(action, fh.Play):
        return style.play(action)
    if isinstance(action, fh.Nominate):
        return "decline" if action.suit is None else style.suit(action.suit)
    if isinstance(action, fh.CallPartner):
        return f"seat {action.seat}" if action.card is None else style.card(action.card)
    return f"discard {style.cards(action.cards)}"  # not listed, but named by 'undo'


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
    """The cards a discard is chosen from: hand and kitty, in the order the hand is shown."""
    return _in_hand_order(view, [*view.hand, *(view.kitty or ())])


def _status(style: Style, state: fh.GameState, view: fh.PlayerView) -> list[str]:
    rules = state.rules
    lines = [
        "-" * 60,
        f"Hand {state.hand_number} · dealer {style.seat(state.dealer or 0)} · "
        f"scores: {scoreline(style, state)}",
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


_VERBS: Final = {"holds": "hold", "has": "have", "does": "do", "leads": "lead", "is": "are"}
_RULE_IDS: Final = re.compile(r"\s*\((?:R\d|V-|P\d)[^()]*\)|; the order of a hand is R4\.3")


def personal(sentence: str, seat: int) -> str:
    """An engine sentence about ``seat`` said to its player: "you hold", "your hand"."""
    sentence = re.sub(
        rf"\bseat {seat} (holds|has|does|leads|is)\b",
        lambda m: "you " + _VERBS[m.group(1)],
        sentence,
    )
    sentence = re.sub(rf"\bseat {seat}'s\b", "yours", sentence)
    sentence = re.sub(rf"\bseat {seat}\b", "you", sentence)
    sentence = sentence.replace(" its hand", " your hand").replace(" it must ", " you must ")
    return sentence[:1].upper() + sentence[1:]


def plain(sentence: str) -> str:
    """A sentence without its rule IDs (``why`` shows them)."""
    return _RULE_IDS.sub("", sentence)


def _read_action(text: str, state: fh.GameState, view: fh.PlayerView) -> fh.Action:
    """The action a line of input stands for; :class:`UsageError` explains bad input.

    A number picks a choice (at the discard, a card of hand and kitty); anything
    else is read by :func:`fivehundred.notation.parse_move`.
    """
    words = text.replace(",", " ").split()
    choices = _choices(view)
    phase = view.phase
    if len(words) == 1 and words[0].isdigit() and phase is not fh.Phase.DISCARD:
        number = int(words[0])
        if 1 <= number <= len(choices):
            return choices[number - 1]
        raise UsageError(f"{number} is not a choice: pick a number from 1 to {len(choices)}")
    if phase is fh.Phase.DISCARD:
        text = _discard_text(words, view)
    try:
        action = parse_move(text, phase=phase)
    except fh.NotationError as err:
        raise UsageError(str(err)) from None
    if isinstance(action, fh.Discard):
        size = view.rules.kitty_size
        if len(action.cards) != size or len(set(action.cards)) != size:
            raise UsageError(f"name exactly {size} different cards to discard, e.g. '1 2 3'")
    if isinstance(action, fh.Play) and action.card.is_joker and action.suit is None:
        _joker_hint(view)
    refusal = _refusal(state, action)
    if refusal is not None:
        raise UsageError(personal(refusal, view.seat))
    return action


def _discard_text(words: Sequence[str], view: fh.PlayerView) -> str:
    """The discard with card numbers (of hand and kitty) written as cards."""
    pool = _pool(view)
    cards = []
    for word in words:
        if word.isdigit():
            number = int(word)
            if not 1 <= number <= len(pool):
                raise UsageError(f"{number} is not one of your cards: numbers go 1 to {len(pool)}")
            cards.append(str(pool[number - 1]))
        else:
            cards.append(word)
    return " ".join(cards)


def _joker_hint(view: fh.PlayerView) -> None:
    """Refuse a suitless Joker lead that must name a suit, saying which suits it may name."""
    named = [p.suit for p in view.legal_actions if isinstance(p, fh.Play) and p.suit is not None]
    if named:
        options = ", ".join(s.letter for s in named)
        raise UsageError(
            f"leading the Joker names a suit not yet led (R7.4): 'Jo {options[0]}'"
            f" — you may name {options}"
        )


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
        style: Style,
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
        #: Before each of the person's actions: the state, the random sources, ``last``.
        self.history: list[tuple[fh.GameState, tuple[Any, ...], str | None, fh.Action]] = []
        #: The last refusal, rule IDs and all, for ``why``.
        self.why: str | None = None
        #: The previous trick, for ``last``.
        self.last: str | None = None
        self.nomination_explained = False

    def snapshot(self, action: fh.Action) -> None:
        saved = (self.deal_rng.getstate(), *(r.getstate() for r in self.rngs))
        self.history.append((self.state, saved, self.last, action))

    def undo(self) -> fh.Action | None:
        if not self.history:
            return None
        state, saved, self.last, action = self.history.pop()
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
    prompt = Prompt(inp if inp is not None else sys.stdin, out)
    rules = rules if rules is not None else fh.Rules()
    style = Style(ascii_only, seat, colour=use_colour(out))
    table = _Table(seed=seed, human=seat, rules=rules, bots=bots, budget=budget, style=style)
    narrator = Narrator(style, reveal=False)
    partners = rules.partners(seat)
    with_whom = f", your partner is {' & '.join(f'seat {p}' for p in partners)}" if partners else ""
    print(f"Five Hundred: you are seat {seat}{with_whom}. Type 'help' for help.", file=out)

    def say(line: str) -> None:
        print(line, file=out)

    while not table.state.is_over:
        state = table.state
        if state.phase is fh.Phase.DEAL:
            table.state = fh.deal(state, rng=table.deal_rng)
            for line in narrator.deal(table.state):
                say(line)
            continue
        mover = actor(state)
        if mover != seat:
            action = table.players[mover].choose(fh.observe(state, mover))
        else:
            view = fh.observe(state, seat)
            if len(view.legal_actions) == 1 and state.phase is fh.Phase.PLAY:
                action = view.legal_actions[0]
                say(f"  (your only legal play is {_label(style, action)})")
            else:
                for line in _status(style, state, view):
                    say(line)
                if state.phase is fh.Phase.NOMINATE and not table.nomination_explained:
                    table.nomination_explained = True
                    say(NOMINATION_NOTE)
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
                    say(final_scores(style, table.state))
                    say("Goodbye.")
                    return 0
                if isinstance(answer, str):
                    continue  # undone: the state is back to before the last action
                action = answer
                table.snapshot(action)
            if isinstance(action, (fh.Call, fh.Play)):
                say("  " + describe(style, state, action, watch=False))
        after = fh.apply(state, action)
        for line in narrator.step(state, action, after):
            say(line)
        if len(after.tricks) > len(state.tricks):
            table.last = hand_events(style, state, after)[0].strip()
        table.state = after
    say(final_scores(style, table.state))
    return 0


_ASKS: Final = {
    fh.Phase.BIDDING: "Your call",
    fh.Phase.DISCARD: "Discard {size} cards (numbers or cards)",
    fh.Phase.NOMINATE: "Nominate the Joker's suit, or decline",
    fh.Phase.PARTNER: "Call a partner (a card, or 'seat N')",
    fh.Phase.PLAY: "Your play",
}


_NO_JOKER_ASK: Final = "You do not hold the Joker: decline is your only choice"


def _why(table: _Table, state: fh.GameState, view: fh.PlayerView) -> str:
    """The rule behind the last refusal, or behind the cards you may not play now."""
    if table.why is not None:
        return _with_rule_text(f"Why: {table.why}")
    if state.phase is fh.Phase.PLAY:
        allowed = {a.card for a in view.legal_actions if isinstance(a, fh.Play)}
        for card in _in_hand_order(view, view.hand):
            if card not in allowed:
                refusal = _refusal(state, fh.Play(card))
                if refusal is not None:
                    said = table.style.text(personal(refusal, view.seat))
                    return _with_rule_text(f"Why not {table.style.card(card)}: {said}")
    return "Nothing was refused: every choice listed is legal. 'help' says how to type moves."


def _with_rule_text(sentence: str) -> str:
    """A refusal with the text of each rule it cites, a line each, below it."""
    rules = [f"  {rule}: {RULE_TEXT[rule]}" for rule in cited(sentence)]
    return "\n".join([sentence, *rules])


def _ask_action(
    prompt: Prompt, table: _Table, state: fh.GameState, view: fh.PlayerView
) -> fh.Action | str | None:
    """Ask until the answer is a legal action or 'undo'; ``None`` to leave."""
    out = prompt.out
    question = _ASKS[state.phase].format(size=state.rules.kitty_size)
    if state.phase is fh.Phase.NOMINATE and fh.JOKER not in view.hand:
        question = _NO_JOKER_ASK  # R7.1: no nomination is the only choice
    table.why = None
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
        if word == "why":
            print(_why(table, state, view), file=out)
            continue
        if word == "last":
            print(table.last or "No trick has been played yet.", file=out)
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
            said = table.style.text(str(err))
            table.why = said
            hint = " ('why' for the rule)" if plain(said) != said else ""
            print(f"  {plain(said)}{hint}", file=out)
