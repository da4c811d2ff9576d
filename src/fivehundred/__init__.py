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
    apply,
    check_action,
    deal,
    is_legal,
    legal_actions,
    legal_bids,
    legal_plays,
    new_game,
)
from fivehundred.errors import (
    FiveHundredError,
    FiveHundredTypeError,
    IllegalActionError,
    InvalidStateError,
    NotationError,
    Reason,
)
from fivehundred.notation import parse_call, parse_card, parse_cards
from fivehundred.playout import Policy, playout
from fivehundred.rules import DEFAULT_LADDER, Ladder, Rules
from fivehundred.scoring import (
    GameResult,
    HandResult,
    Outcome,
    bid_value,
    game_result,
    score_hand,
)
from fivehundred.state import GameState, Phase, Trick
from fivehundred.tricks import effective_suit, trick_winner
from fivehundred.views import PlayerView, observe

if TYPE_CHECKING:  # resolved on first use by __getattr__ below (PEP 562)
    from fivehundred.compact import (
        COMPACT_NUM_ACTIONS,
        CompactLayout,
        compact_apply,
        compact_decode,
        compact_encode,
        compact_ids,
        compact_layout,
        compact_legal,
        compact_mask,
        compact_num_actions,
    )
    from fivehundred.encoding import (
        NUM_ACTIONS,
        ActionLayout,
        action_layout,
        decode_action,
        encode_action,
        legal_action_indices,
        legal_action_mask,
        num_actions,
    )
    from fivehundred.records import (
        GameRecord,
        HandRecord,
        format_action,
        parse_action,
        record,
        record_from_text,
        record_to_text,
        replay,
        rules_from_options,
        rules_options,
    )
    from fivehundred.search import sample_deal
    from fivehundred.serialize import (
        FORMAT_VERSION,
        action_from_dict,
        action_from_json,
        action_to_dict,
        action_to_json,
        from_dict,
        from_json,
        record_from_dict,
        record_from_json,
        record_to_dict,
        record_to_json,
        rules_from_dict,
        rules_from_json,
        rules_to_dict,
        rules_to_json,
        to_dict,
        to_json,
        view_from_dict,
        view_from_json,
        view_to_dict,
        view_to_json,
    )
    from fivehundred.solver import Solution, claim, solve

__version__ = "0.1.0"

#: The public names, in plain ``sorted()`` order (as ``dir()`` shows them).
#: ``__version__`` is an attribute, not a name to import.
__all__ = [
    "Action",
    "ActionLayout",
    "BLIND_MISERE",
    "COMPACT_NUM_ACTIONS",
    "COMPILED",
    "Call",
    "CallKind",
    "CallPartner",
    "Card",
    "CompactLayout",
    "DECLINE",
    "DEFAULT_LADDER",
    "Discard",
    "FORMAT_VERSION",
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
    "Ladder",
    "MISERE",
    "NUM_ACTIONS",
    "Nominate",
    "NotationError",
    "OPEN_MISERE",
    "Outcome",
    "PASS",
    "Phase",
    "Play",
    "PlayerView",
    "Policy",
    "Rank",
    "Reason",
    "Rules",
    "Solution",
    "Strain",
    "Suit",
    "Trick",
    "action_from_dict",
    "action_from_json",
    "action_layout",
    "action_to_dict",
    "action_to_json",
    "apply",
    "bid_value",
    "check_action",
    "claim",
    "compact_apply",
    "compact_decode",
    "compact_encode",
    "compact_ids",
    "compact_layout",
    "compact_legal",
    "compact_mask",
    "compact_num_actions",
    "deal",
    "decode_action",
    "effective_suit",
    "encode_action",
    "format_action",
    "from_dict",
    "from_json",
    "game_result",
    "is_legal",
    "legal_action_indices",
    "legal_action_mask",
    "legal_actions",
    "legal_bids",
    "legal_plays",
    "new_game",
    "num_actions",
    "observe",
    "parse_action",
    "parse_call",
    "parse_card",
    "parse_cards",
    "playout",
    "record",
    "record_from_dict",
    "record_from_json",
    "record_from_text",
    "record_to_dict",
    "record_to_json",
    "record_to_text",
    "replay",
    "rules_from_dict",
    "rules_from_json",
    "rules_from_options",
    "rules_options",
    "rules_to_dict",
    "rules_to_json",
    "sample_deal",
    "score_hand",
    "solve",
    "to_dict",
    "to_json",
    "trick_winner",
    "view_from_dict",
    "view_from_json",
    "view_to_dict",
    "view_to_json",
]

#: The public names that load their module (and, for JSON, cattrs) only when first used,
#: so that ``import fivehundred`` stays quick for code that only plays.
_LAZY: Final[dict[str, str]] = {
    **dict.fromkeys(
        (
            "NUM_ACTIONS",
            "ActionLayout",
            "action_layout",
            "decode_action",
            "encode_action",
            "legal_action_indices",
            "legal_action_mask",
            "num_actions",
        ),
        "fivehundred.encoding",
    ),
    **dict.fromkeys(
        (
            "COMPACT_NUM_ACTIONS",
            "CompactLayout",
            "compact_apply",
            "compact_decode",
            "compact_encode",
            "compact_ids",
            "compact_layout",
            "compact_legal",
            "compact_mask",
            "compact_num_actions",
        ),
        "fivehundred.compact",
    ),
    "sample_deal": "fivehundred.search",
    **dict.fromkeys(
        (
            "GameRecord",
            "HandRecord",
            "format_action",
            "parse_action",
            "record",
            "record_from_text",
            "record_to_text",
            "replay",
            "rules_from_options",
            "rules_options",
        ),
        "fivehundred.records",
    ),
    **dict.fromkeys(
        (
            "FORMAT_VERSION",
            "action_from_dict",
            "action_from_json",
            "action_to_dict",
            "action_to_json",
            "from_dict",
            "from_json",
            "record_from_dict",
            "record_from_json",
            "record_to_dict",
            "record_to_json",
            "rules_from_dict",
            "rules_from_json",
            "rules_to_dict",
            "rules_to_json",
            "to_dict",
            "to_json",
            "view_from_dict",
            "view_from_json",
            "view_to_dict",
            "view_to_json",
        ),
        "fivehundred.serialize",
    ),
    **dict.fromkeys(("Solution", "claim", "solve"), "fivehundred.solver"),
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

    Submodules and the names used to build this module stay out, so that ``dir()`` shows
    exactly ``__all__`` among the names without a leading underscore.
    """
    return sorted({*__all__, *(name for name in globals() if name.startswith("__"))})
