"""Every public callable says what it raises (issue 10).

A user reading ``help(fh.some_function)`` learns which errors to catch: each
function and class in ``fivehundred.__all__`` has a sentence in its docstring
naming what it raises ("Raises :class:`...` for ..."), or saying it raises
nothing. The exceptions themselves, and type aliases such as ``Policy``, are
not calls a user makes for a result and are left out.
"""

from __future__ import annotations

import inspect
import re

import pytest

import fivehundred as fh

#: A sentence that names what is raised, or says nothing is.
SAYS_WHAT_IT_RAISES = re.compile(
    r"\bRaises\b|:raises\b|\braises?\b[^.]*?:class:`|\braises nothing\b|\b[Nn]ever raises\b",
    re.DOTALL,
)
#: Notation functions that move to the notation module on another branch; that
#: branch gives them their sentence (empty this set when it lands).
PENDING: frozenset[str] = frozenset({"format_action", "parse_cards"})


def public_callables() -> list[str]:
    names = []
    for name in fh.__all__:
        obj = getattr(fh, name)
        if inspect.isclass(obj) and issubclass(obj, BaseException):
            continue  # what is raised, not a call
        if inspect.isclass(obj) or inspect.isroutine(obj):
            names.append(name)
    return names


def test_the_public_callables_are_found() -> None:
    names = public_callables()
    assert {"apply", "deal", "Card", "Rules", "to_json", "observe"} <= set(names)
    assert "Policy" not in names and "FiveHundredError" not in names
    assert len(names) > 80


@pytest.mark.parametrize("name", public_callables())
def test_every_public_callable_documents_what_it_raises(name: str) -> None:
    if name in PENDING:
        pytest.skip("documented on the notation branch")
    doc = inspect.getdoc(getattr(fh, name)) or ""
    assert SAYS_WHAT_IT_RAISES.search(doc), f"fivehundred.{name} does not say what it raises"


def test_the_check_tells_a_sentence_from_its_absence() -> None:
    assert SAYS_WHAT_IT_RAISES.search("Raises :class:`TypeError` for a non-state.")
    assert SAYS_WHAT_IT_RAISES.search("Bad text raises :class:`~fivehundred.NotationError`.")
    assert SAYS_WHAT_IT_RAISES.search("Whether it is legal. Never raises.")
    assert not SAYS_WHAT_IT_RAISES.search("The cards of a hand, in card order.")
    assert not SAYS_WHAT_IT_RAISES.search("It raises the score. See :class:`Rules`.")
