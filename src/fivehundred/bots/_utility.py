"""What a finished hand is worth to a computer player: its side's score change, or the game.

The search player's play-outs and the PIMC player's solved deals are both scored
with :class:`HandUtility`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from fivehundred.calls import Call
from fivehundred.errors import FiveHundredError, FiveHundredTypeError
from fivehundred.scoring import contract_made, game_result, score_hand
from fivehundred.views import PlayerView


class HandUtility:
    """One side's score change minus the others' average, from tricks per side (cached).

    The value a computer player puts on a finished hand of ``contract`` played by
    ``contractor``, seen from ``view.seat``'s side: the search player's play-outs and
    the PIMC player's solved deals are both scored with it. With a ``game_value``,
    a hand that ends the game (:func:`~fivehundred.game_result`: R9, P-END and the
    V- options) is worth that much to a winning side and minus that much to the
    others, instead of its score. Calling it raises what
    :func:`~fivehundred.score_hand` raises for trick counts that do not fit the rules.
    """

    def __init__(
        self,
        view: PlayerView,
        contract: Call | None,
        contractor: int | None,
        game_value: float | None = None,
    ) -> None:
        rules = view.rules
        self.rules = rules
        self.contract = contract
        self.contract_side = None if contractor is None else rules.side_of(contractor)
        self.side = rules.side_of(view.seat)
        self.scores = view.scores
        self.game_value = game_value
        self.cache: dict[tuple[tuple[int, ...], int | None], float] = {}

    def __call__(self, won: Sequence[int], partner: int | None = None) -> float:
        partner_side = None if partner is None else self.rules.side_of(partner)
        key = (tuple(won), partner_side)
        value = self.cache.get(key)
        if value is None:
            changes = score_hand(
                self.contract,
                self.contract_side,
                key[0],
                rules=self.rules,
                scores=self.scores,
                partner=partner_side,
            )
            value = self._game(key[0], changes, partner_side)
            if value is None:
                others = [c for k, c in enumerate(changes) if k != self.side]
                value = changes[self.side] - (sum(others) / len(others) if others else 0.0)
            self.cache[key] = value
        return value

    def _game(
        self, won: Sequence[int], changes: Sequence[int], partner_side: int | None
    ) -> float | None:
        """Plus or minus :attr:`game_value` when the hand ends the game, else None."""
        if self.game_value is None:
            return None
        contracting: tuple[int, ...] = ()
        made = None
        if self.contract is not None and self.contract_side is not None:
            contracting = (self.contract_side,)
            if partner_side is not None and partner_side != self.contract_side:
                contracting = (self.contract_side, partner_side)
            made = contract_made(self.contract, sum(won[side] for side in contracting))
        scores = [a + b for a, b in zip(self.scores, changes, strict=True)]
        end = game_result(contracting, made, scores, self.rules)
        if end is None:
            return None
        return self.game_value if self.side in end.winners else -self.game_value


def check_game_value(
    instance: object, attribute: attrs.Attribute[float | None], value: object
) -> None:
    """The ``game_value`` field's attrs validator of both computer players that take one:
    raise unless ``value`` is a whole or decimal number of points from 0, or None."""
    if value is None:
        return
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise FiveHundredTypeError(f"game_value must be a number or None, not {value!r}")
    if not 0 <= value < math.inf:
        raise FiveHundredError(
            f"game_value={value}: a game is worth a finite number of points, 0 or more"
        )
