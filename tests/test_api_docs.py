"""Every public callable says what it raises (issue 10).

A user reading ``help(fh.some_function)`` learns which errors to catch: each
function and class in ``fivehundred.__all__`` has a sentence in its docstring
naming what it raises ("Raises :class:`...` for ..."), or saying it raises
nothing. The exceptions themselves, and type aliases such as ``Policy``, are
not calls a user makes for a result and are left out.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import cast

import pytest

import fivehundred as fh

#: A sentence that names what is raised, or says nothing is.
SAYS_WHAT_IT_RAISES = re.compile(
    r"\bRaises\b|:raises\b|\braises?\b[^.]*?:class:`|\braises nothing\b|\b[Nn]ever raises\b",
    re.DOTALL,
)


#: The public modules of bot and framework authors, whose names are not in
#: ``fivehundred.__all__``.
PLAYER_MODULES = (
    "fivehundred.bots",
    "fivehundred.ai.encoding",
    "fivehundred.ai.playout",
    "fivehundred.records",
    "fivehundred.bots",
    "fivehundred.serialize",
    "fivehundred.solver",
    "fivehundred.bots.pimc",
    "fivehundred.bots.tournament",
)


def public_callables(module: object = fh) -> list[str]:
    names = []
    for name in getattr(module, "__all__", ()):
        obj = getattr(module, name)
        if inspect.isclass(obj) and issubclass(obj, BaseException):
            continue  # what is raised, not a call
        # a partial: the compiled build's apply and legal_actions (see fivehundred._engine.docs)
        if inspect.isclass(obj) or inspect.isroutine(obj) or isinstance(obj, functools.partial):
            names.append(name)
    return names


def docstring(obj: object) -> str:
    """The docstring of a public object, read from its source when it is compiled.

    mypyc drops the docstrings of the functions and classes it compiles; their
    ``.py`` source ships beside the extension module, so read it there.
    """
    doc = inspect.getdoc(obj)
    if doc:
        return doc
    module = sys.modules[getattr(obj, "__module__", "")]
    path = Path(module.__file__ or "").with_suffix(".py")
    path = path.with_name(f"{module.__name__.rsplit('.', 1)[-1]}.py")
    name = getattr(obj, "__name__", "")
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == name:
            return ast.get_docstring(node) or ""
    return ""


def test_a_docstring_is_read_from_the_source_when_the_object_has_none() -> None:
    assert "Raises" in docstring(fh.observe)
    compiled_like = type(
        "GameState", (), {"__module__": "fivehundred._engine.state", "__doc__": None}
    )
    assert "new_game" in docstring(compiled_like)


def test_the_public_callables_are_found() -> None:
    names = public_callables()
    assert {"apply", "deal", "Card", "Rules", "to_json", "observe"} <= set(names)
    assert "Policy" not in names and "FiveHundredError" not in names
    assert len(names) > 40


@pytest.mark.parametrize("name", public_callables())
def test_every_public_callable_documents_what_it_raises(name: str) -> None:
    doc = docstring(getattr(fh, name))
    assert SAYS_WHAT_IT_RAISES.search(doc), f"fivehundred.{name} does not say what it raises"


@pytest.mark.parametrize(
    ("module", "name"),
    [(m, n) for m in PLAYER_MODULES for n in public_callables(importlib.import_module(m))],
)
def test_the_players_public_callables_document_what_they_raise(module: str, name: str) -> None:
    doc = docstring(getattr(importlib.import_module(module), name))
    assert SAYS_WHAT_IT_RAISES.search(doc), f"{module}.{name} does not say what it raises"


def test_the_heuristic_helpers_refuse_a_view_of_another_phase() -> None:
    """What the docstrings promise: the library's errors, not an assertion or IndexError."""
    from fivehundred import bots
    from fivehundred.views import PlayerView

    def helpers(view: PlayerView) -> list[Callable[[], object]]:
        return [
            lambda: bots.best_discard(view),
            lambda: bots.ranked_discards(view, 3),
            lambda: bots.nominate(view, []),
            lambda: bots.call_partner(view, []),
            lambda: bots.choose_play(view, []),
        ]

    state = fh.deal(fh.new_game(dealer=3), seed=1)
    assert state.to_act is not None
    bidding = fh.observe(state, state.to_act)
    waiting = fh.observe(state, (state.to_act + 1) % 4)
    for call in helpers(bidding):
        with pytest.raises(fh.FiveHundredError, match="phase"):
            call()
    for call in helpers(waiting):
        with pytest.raises(fh.FiveHundredError, match="not its turn"):
            call()
    for call in helpers(cast(PlayerView, None)):
        with pytest.raises(fh.FiveHundredTypeError):
            call()


def test_the_check_tells_a_sentence_from_its_absence() -> None:
    assert SAYS_WHAT_IT_RAISES.search("Raises :class:`TypeError` for a non-state.")
    assert SAYS_WHAT_IT_RAISES.search("Bad text raises :class:`~fivehundred.NotationError`.")
    assert SAYS_WHAT_IT_RAISES.search("Whether it is legal. Never raises.")
    assert not SAYS_WHAT_IT_RAISES.search("The cards of a hand, in card order.")
    assert not SAYS_WHAT_IT_RAISES.search("It raises the score. See :class:`Rules`.")
