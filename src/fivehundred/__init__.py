"""fivehundred: the rules of Five Hundred (500), the Australian national card game.

An immutable, typed game-state model with pure functions for legal bids and
plays, trick resolution, scoring and the end of the game.

>>> import fivehundred as fh
>>> fh.parse_card("j♥")
Card.parse('JH')
>>> fh.bid_value(fh.parse_call("7NT"))
220
>>> state = fh.deal(fh.new_game(dealer=3), seed=7)
>>> fh.parse_call("6S") in fh.legal_bids(state)
True
"""

from typing import TYPE_CHECKING, Final

from fivehundred._engine.state import COMPILED
from fivehundred.actions import DECLINE, Action, CallPartner, Discard, Nominate, Play
from fivehundred.calls import (
    BLIND_MISERE,
    MISERE,
    OPEN_MISERE,
    PASS,
    Call,
    CallKind,
    Strain,
)
from fivehundred.cards import JOKER, Card, Rank, Suit
from fivehundred.engine import (
    ANY_SEAT,
    GameState,
    Phase,
    Trick,
    apply,
    check_action,
    deal,
    is_legal,
    legal_actions,
    legal_bids,
    legal_plays,
    new_game,
    play,
)
from fivehundred.errors import (
    FiveHundredError,
    FiveHundredTypeError,
    IllegalActionError,
    InvalidStateError,
    MoveError,
    NotationError,
    Reason,
)
from fivehundred.notation import format_action, parse_action, parse_call, parse_card, parse_cards
from fivehundred.rules import Rules
from fivehundred.scoring import (
    GameResult,
    HandResult,
    Outcome,
    bid_value,
    game_result,
    score_hand,
)
from fivehundred.tricks import effective_suit, trick_winner, winning_play
from fivehundred.views import PlayerView, observe

if TYPE_CHECKING:  # resolved on first use by __getattr__ below (PEP 562)
    from fivehundred.records import GameRecord, HandRecord, record, replay
    from fivehundred.serialize import from_dict, from_json, to_dict, to_json

__version__ = "1.0.0"

#: The public names, in plain ``sorted()`` order (as ``dir()`` shows them): what an
#: application needs. Bot and framework authors find the rest in their own modules
#: (``fivehundred.ai.encoding``, ``.tensors``, ``.playout``, ``.search``, ``.solver``,
#: ``.bots``, ``.records``, ``.serialize``). ``__version__`` is an attribute, not a name
#: to import.
__all__ = [
    "ANY_SEAT",
    "Action",
    "BLIND_MISERE",
    "COMPILED",
    "Call",
    "CallKind",
    "CallPartner",
    "Card",
    "DECLINE",
    "Discard",
    "FiveHundredError",
    "FiveHundredTypeError",
    "GameRecord",
    "GameResult",
    "GameState",
    "HandRecord",
    "HandResult",
    "IllegalActionError",
    "InvalidStateError",
    "JOKER",
    "MISERE",
    "MoveError",
    "Nominate",
    "NotationError",
    "OPEN_MISERE",
    "Outcome",
    "PASS",
    "Phase",
    "Play",
    "PlayerView",
    "Rank",
    "Reason",
    "Rules",
    "Strain",
    "Suit",
    "Trick",
    "apply",
    "bid_value",
    "check_action",
    "deal",
    "effective_suit",
    "format_action",
    "from_dict",
    "from_json",
    "game_result",
    "is_legal",
    "legal_actions",
    "legal_bids",
    "legal_plays",
    "new_game",
    "observe",
    "parse_action",
    "parse_call",
    "parse_card",
    "parse_cards",
    "play",
    "record",
    "replay",
    "score_hand",
    "to_dict",
    "to_json",
    "trick_winner",
    "winning_play",
]

#: The public names that load their module (and, for JSON, cattrs) only when first used,
#: so that ``import fivehundred`` stays quick for code that only plays.
_LAZY: Final[dict[str, str]] = {
    **dict.fromkeys(("GameRecord", "HandRecord", "record", "replay"), "fivehundred.records"),
    **dict.fromkeys(("from_dict", "from_json", "to_dict", "to_json"), "fivehundred.serialize"),
}

if not TYPE_CHECKING:  # hidden from type checkers, so that a misspelt fh.name stays an error

    def __getattr__(name: str) -> object:
        """Load a lazy public name's module on first use, then keep the name here (PEP 562)."""
        module_name = _LAZY.get(name)
        if module_name is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(module_name), name)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    """The public names (the lazy ones before they are loaded) and the module's dunders.

    Submodules, old names and the names used to build this module stay out, so that
    ``dir()`` shows exactly ``__all__`` among the names without a leading underscore.
    """
    return sorted({*__all__, *(name for name in globals() if name.startswith("__"))})
