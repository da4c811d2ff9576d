"""The game situation every computer player's auction reads: the scores, the target and R9.

One place decides what the score means for a call, so that the heuristic, search and
PIMC players bid for the game alike (:func:`game_call`):

- **do not outbid a winning partner:** when this seat's side holds the standing bid and
  making it wins the game (R9.1, V-TARGET, V-DEFENCE-WINS), pass;
- **bid the game:** when a bid this seat can make (by its own estimate, at least
  :data:`GAME_CHANCE`; :data:`MISERE_GAME_CHANCE` for a misère) wins the game when
  made, bid the one likeliest to be made (the cheapest on ties): at 120 with 9♦
  worth 380, 9♦ rather than 10♦;
- **push:** when the opponents hold a bid that wins them the game if they make it,
  outbid them with any trump or No Trumps bid this seat makes at least
  :data:`PUSH_CHANCE` of the time and whose failure does not put its side out
  backwards (R9.2).

Otherwise the player's own judgement stands (:func:`game_call` returns ``None``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import attrs

from fivehundred.calls import PASS, Call
from fivehundred.rules import Rules
from fivehundred.scoring import game_result, score_hand
from fivehundred.views import PlayerView

#: The least chance of making a bid that wins the game for the player to bid it.
GAME_CHANCE: Final = 0.5
#: The same for a misère bid, whose estimate is the least sure (one card can sink it;
#: the search players' play-outs flatter it most): in effect the game logic leaves
#: misère to the player's own judgement.
MISERE_GAME_CHANCE: Final = 0.9
#: The least chance of making a bid for the player to push opponents who would win.
PUSH_CHANCE: Final = 0.15


@attrs.frozen
class GameSituation:
    """What the score means to one seat in the auction: read from its view by
    :func:`situation`."""

    rules: Rules
    seat: int
    #: This seat's side.
    side: int
    #: Every side's score before this hand.
    scores: tuple[int, ...]
    #: The standing bid and the seat that made it, or ``None``.
    standing: tuple[int, Call] | None

    @property
    def ours(self) -> bool:
        """Whether the standing bid is this seat's side's."""
        return self.standing is not None and self.rules.side_of(self.standing[0]) == self.side

    def _after(self, call: Call, seat: int, made: bool) -> tuple[tuple[int, ...], int]:
        """The scores after ``seat`` plays ``call`` and just makes it (or falls one short)."""
        rules = self.rules
        side = rules.side_of(seat)
        tricks = 0 if call.is_misere else (call.tricks or 0)
        if not made:
            tricks = 1 if call.is_misere else tricks - 1
        won = [0] * len(self.scores)
        won[side] = tricks
        other = next((k for k in range(len(won)) if k != side), side)
        if other != side:
            won[other] = rules.hand_size - tricks
        changes = score_hand(call, side, won, rules=rules, scores=self.scores)
        scores = tuple(a + b for a, b in zip(self.scores, changes, strict=True))
        return scores, side

    def wins_if_made(self, call: Call, seat: int | None = None) -> bool:
        """Whether ``seat`` (this seat by default) wins the game by making ``call``."""
        seat = self.seat if seat is None else seat
        scores, side = self._after(call, seat, True)
        end = game_result((side,), True, scores, self.rules)
        return end is not None and side in end.winners

    def loses_if_failed(self, call: Call, seat: int | None = None) -> bool:
        """Whether failing ``call`` loses the game for ``seat``'s side (R9.2)."""
        seat = self.seat if seat is None else seat
        scores, side = self._after(call, seat, False)
        end = game_result((side,), False, scores, self.rules)
        return end is not None and side not in end.winners

    @property
    def standing_wins(self) -> bool:
        """Whether the standing bid, made, wins the game for the side that holds it."""
        if self.standing is None:
            return False
        seat, call = self.standing
        return self.wins_if_made(call, seat)


def situation(view: PlayerView) -> GameSituation:
    """The game situation of ``view.seat`` in the auction."""
    standing = next(((s, c) for s, c in reversed(view.auction) if c.is_bid), None)
    return GameSituation(
        rules=view.rules,
        seat=view.seat,
        side=view.rules.side_of(view.seat),
        scores=tuple(view.scores),
        standing=standing,
    )


def game_call(view: PlayerView, chances: Mapping[Call, float]) -> Call | None:
    """The call the game situation asks for, or ``None`` to leave it to the player.

    ``chances`` gives, for each legal bid the player considers, its estimate of the
    chance that its side makes it (0 to 1). The rules are the module's: do not outbid
    the own side's winning contract, bid the likeliest bid that wins the game, push
    opponents whose contract would win them the game.
    """
    legal = set(view.legal_actions)
    game = situation(view)
    if game.standing_wins and game.ours and PASS in legal:
        return PASS
    order = {call: k for k, call in enumerate(view.legal_actions)}
    bids = [c for c in chances if c.is_bid and c in legal]
    winners = [
        c
        for c in bids
        if chances[c] >= (MISERE_GAME_CHANCE if c.is_misere else GAME_CHANCE)
        and game.wins_if_made(c)
    ]
    if winners:
        return max(winners, key=lambda c: (chances[c], -order[c]))
    if game.standing_wins and not game.ours:
        pushes = [
            c
            for c in bids
            if not c.is_misere and chances[c] >= PUSH_CHANCE and not game.loses_if_failed(c)
        ]
        if pushes:
            return max(pushes, key=lambda c: (chances[c], -order[c]))
    return None
