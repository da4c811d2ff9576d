"""The rule book's IDs and a line of text for each: what ``why`` at the table says.

:data:`RULE_TEXT` is the one place the library holds the words of its rules.
Error messages cite rules by ID (``... (R5.3)``); :func:`cited` reads those
citations back, so a program can show each rule's text next to the message.
``docs/rules.md`` shows the same lines in its tables, and
``tests/test_rulebook.py`` fails when the two differ.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

__all__ = ["RULE_TEXT", "cited"]

_TEXT: Final = {
    # the sections of the default game
    "R1": "Cards",
    "R2": "Deal",
    "R3": "Bidding",
    "R4": "Kitty and the start of play",
    "R5": "Play",
    "R6": "Contract outcome and exposure",
    "R7": "The Joker in No Trumps and misère",
    "R8": "Scoring",
    "R9": "End of the game",
    # the default game, rule by rule
    "R1.1": "43 cards: red 4–A, black 5–A, one Joker",
    "R1.2": "strain order ♠ < ♣ < ♦ < ♥ < NT; same-colour pairs",
    "R1.3": (
        "trumps: Joker, right bower, left bower, A K Q 10 …; the Joker and left bower"
        " are of the trump suit for every purpose"
    ),
    "R1.4": "No Trumps and misère: no bowers; the Joker is the only trump",
    "R2.1": "the first dealer; the deal passes clockwise after every hand",
    "R2.2": "deal 3-1-4-1-3-1 from the dealer's left",
    "R2.3": "randomness only through an explicit deal; a saved game stores the dealt cards",
    "R3.1": "eldest calls first, clockwise; a pass or a strictly higher bid",
    "R3.2": "trick bids 6–10 in a strain, misère, open misère, blind misère",
    "R3.3": "the ladder, compared by position; open and blind misère share a rung",
    "R3.4": "misère only over a standing 7-level bid",
    "R3.5": "open misère whenever it is higher, even as the opening bid",
    "R3.6": "blind misère only as a player's first call",
    "R3.7": "a player who passed may not call again",
    "R3.8": "the auction ends when every other player has passed; the contract and contractor",
    "R3.9": "all pass: the hand is thrown in",
    "R4.1": "the contractor takes the kitty and discards any 3 of 13",
    "R4.2": "in misère the contractor's partner sits out",
    "R4.3": (
        "auction → kitty → nomination (every No Trumps and misère contract) → the contractor's lead"
    ),
    "R5.1": "the contractor leads trick 1, each trick's winner the next",
    "R5.2": (
        "the effective suit of a card: with trumps the Joker and the left bower are of the"
        " trump suit; in No Trumps and misère the Joker has the nominated suit, or none"
    ),
    "R5.3": "follow the led suit if able",
    "R5.4": "the highest trump wins, else the highest card of the led suit",
    "R5.5": "ten tricks; a misère hand ends at the contractor's first trick",
    "R6.1": "a trick contract is made with at least the tricks bid",
    "R6.2": "a misère contract is made when the contractor takes no trick",
    "R6.3": "the open-misère hand is shown after trick 1",
    "R7.1": (
        "the contractor may nominate the Joker's suit or make no nomination (the only choice"
        " without the Joker); not nominating is silent"
    ),
    "R7.2": "an un-nominated Joker has no suit and wins any trick",
    "R7.3": "the Joker only when void; in misère it must then be played",
    "R7.4": "leading the Joker names a suit not yet led",
    "R7.5": "once all four suits are led, the Joker leads only to the last trick, naming none",
    "R7.6": "the library never nominates for a misère contractor",
    "R8.1": "the Avondale values; misère 250, open and blind misère 500",
    "R8.2": "made: the value; a slam on a contract under 250 scores 250",
    "R8.3": "failed: minus the value",
    "R8.4": "defenders: 10 a trick, none in misère",
    "R8.5": "scores accumulate per side; a thrown-in hand changes nothing",
    "R9.1": "a side that made its contract and has 500 or more wins",
    "R9.2": "a side that failed and has \N{MINUS SIGN}500 or less loses",
    "R9.3": "reaching 500 on defence does not win",
    # the variants, options of Rules
    "V-NO-MISERE": "no misère, open misère or blind misère bids",
    "V-MISERE-ANYTIME": "misère needs no standing seven",
    "V-MISERE-BY-VALUE": "misère ranks between 8♠ and 8♣",
    "V-OPEN-MISERE-TOP": "open (and blind) misère is the top bid",
    "V-BLIND-MISERE": "no blind misère",
    "V-SANS-KITTY": "any bid may be declared without the kitty, on the same rung",
    "V-AMERICAN": "one call per player, ending with the dealer",
    "V-SELF-RAISE": "the last bidder may raise once after all others pass",
    "V-REBID": "players who passed may call again",
    "V-ALL-PASS": "when all pass, the hand is played at No Trumps without the kitty",
    "V-JOKER-LEAD-LAST": "a suitless Joker may be led only to the last trick",
    "V-JOKER-NAME-ANY": "a Joker lead may name any suit",
    "V-NO-NOMINATION": "the contractor may not nominate the Joker",
    "V-OPEN-BEFORE-LEAD": "the open-misère hand is shown before the first lead",
    "V-ELDEST-LEADS": "the player left of the dealer leads the first trick",
    "V-NO-SLAM": "no slam bonus",
    "V-TRICK-POINTS": "the points defenders score for each trick",
    "V-CAP": "defence points cannot lift a score above the cap (490 or 480)",
    "V-DEFENCE-WINS": "reaching the target by any means wins",
    "V-TARGET": "the winning and the losing score",
    "V-MISERE-PLAYOUT": "misère hands are played to the last trick",
    "V-SAME-DEALER": "after a throw-in the same dealer deals again",
    "V-45": "the 45-card deck (black 4s kept) and a kitty of 5",
    # the other tables
    "P2": "two players, 33 cards, a dead hand",
    "P3": "three players, 33 cards, each alone",
    "P5": "five players, 53 cards, a called partner",
    "P6": "six players, 63 cards; three teams of two or two of three",
    "P-END": "the end of the game with more than two sides",
}

#: Every rule ID (``R5.3``), section (``R5``), variant (``V-CAP``) and table
#: (``P5``) of the rule book, with its line of text, in rule-book order.
RULE_TEXT: Final[Mapping[str, str]] = MappingProxyType(_TEXT)

#: A citation: a rule, a section, a variant or a table, or a range of rules or tables
#: (``R7.3-R7.5``, ``P2–P6``).
_CITATION: Final = re.compile(
    r"\b(?:R(\d)\.(\d)(?:[-–]R\d\.(\d))?|(R\d)(?![.\d])|(V-[A-Z0-9]+(?:-[A-Z0-9]+)*)"
    r"|(P-END)|P(\d)(?:[-–]P(\d))?)(?![\w-])"
)


def cited(text: str) -> list[str]:
    """The rule IDs ``text`` cites that :data:`RULE_TEXT` knows, in order, each once.

    A range (``R7.3-R7.5``, ``P2–P6``) stands for every rule or table in it.

    >>> cited("you must follow hearts but played 8C (R5.3, R7.3-R7.5)")
    ['R5.3', 'R7.3', 'R7.4', 'R7.5']
    >>> cited("P5: the contractor calls a partner (V-SELF-RAISE, R7; R1.1, P2–P6)")
    ['P5', 'V-SELF-RAISE', 'R7', 'R1.1', 'P2', 'P3', 'P6']
    """
    found: list[str] = []
    for match in _CITATION.finditer(text):
        section, first, last, whole, variant, end, table, to = match.groups()
        if section is not None:
            span = range(int(first), int(last or first) + 1)
            ids = [f"R{section}.{n}" for n in span]
        elif table is not None:
            ids = [f"P{n}" for n in range(int(table), int(to or table) + 1)]
        else:
            ids = [whole or variant or end]
        found += [rule for rule in ids if rule in RULE_TEXT and rule not in found]
    return found
