"""How calls are written: the spelling tables of the call reader, on plain values.

The words of the passes and misère calls (to :class:`~fivehundred.CallKind`
values), every way to write a bid's strain (to strain numbers, No Trumps 4), the
patterns of a trick bid and of a sans-kitty mark, and what a call may look like.
It imports none of the modules that define calls, so that
:mod:`fivehundred.calls` reads call notation itself (``Call.parse``) and
:mod:`fivehundred.notation`, above it, offers the same reader and forms.

>>> from fivehundred._engine import calltext as _calltext
>>> _calltext.CALL_WORDS["NULLO"], _calltext.STRAIN_NUMBERS["♥"], _calltext.STRAIN_NUMBERS["NT"]
('misere', 3, 4)
"""

from __future__ import annotations

import re
from typing import Final

from fivehundred._engine.cardtext import SUIT_NUMBERS
from fivehundred._engine.ruledata import BID_TRICKS, MAX_BID, MIN_BID

__all__ = ["BID_PATTERN", "CALL_FORMS", "CALL_WORDS", "SANS_PATTERN", "STRAIN_NUMBERS"]

#: Every word for a call that is not a trick bid, in upper case, to its ``CallKind`` value.
CALL_WORDS: Final = {
    "P": "pass",
    "PASS": "pass",
    "NO BID": "pass",
    "M": "misere",
    "MIS": "misere",
    "MISERE": "misere",
    "MISÈRE": "misere",
    "NULLO": "misere",
    "OM": "open_misere",
    "OPEN MISERE": "open_misere",
    "OPEN MISÈRE": "open_misere",
    "BM": "blind_misere",
    "BLIND MISERE": "blind_misere",
    "BLIND MISÈRE": "blind_misere",
}
#: A bid's strain: every spelling of a suit (its suit number), and No Trumps (4).
STRAIN_NUMBERS: Final[dict[str, int]] = SUIT_NUMBERS | {
    "NT": 4,
    "N": 4,
    "NOTRUMPS": 4,
    "NOTRUMP": 4,
}
#: The trick counts of a bid, longest notation first so that ``10`` is not read as ``1``.
_TRICKS_RE: Final = "|".join(sorted(map(str, BID_TRICKS), key=len, reverse=True))
#: A trick bid: its number of tricks, then its strain.
BID_PATTERN: Final = re.compile(rf"^({_TRICKS_RE})\s*(.+)$")
#: The sans-kitty mark at the end of a call (V-SANS-KITTY).
SANS_PATTERN: Final = re.compile(r"(?:\s*[-/ ]\s*|\s+)(?:SK|SANS KITTY|SANS)$")
#: What a call may look like, for messages.
CALL_FORMS: Final = (
    f"a trick bid such as 6S, 7NT or 10♥ ({MIN_BID}-{MAX_BID} tricks and S, C, D, H or NT), "
    "M/misere, OM (open misère), BM (blind misère) or pass/P; add -SK for sans kitty"
)
