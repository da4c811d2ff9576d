"""Every public callable refuses a wrong type with a library error (issue 26).

Each callable of every public ``__all__`` (the modules found with ``pkgutil``,
as in ``tests/api_surface.py``) is called with arguments of unrelated types: a
``GameState`` where a ``PlayerView`` or a ``Card`` belongs, a ``str``, ``None``,
an ``int``, a bare ``object``. Every required parameter gets the wrong value
at once; a callable with no required parameter gets it in each optional one in
turn. It may return (the value was of a type it takes: ``is_legal`` answers
``False`` for anything) or raise a :class:`~fivehundred.FiveHundredError`, or
the documented error listed in :data:`DOCUMENTED`; anything else, an
``AttributeError``, ``KeyError``, ``IndexError`` or a bare ``TypeError``
from deep inside, fails. What cannot be called this way is in
:data:`NOT_CALLED`, with the reason, and that table is checked too.
"""

from __future__ import annotations

import importlib
import inspect
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any, Final

import pytest

import fivehundred as fh
from api_surface import OPTIONAL, public_modules

#: The wrong values, each of a type no public parameter takes in its place.
WRONG: Final[dict[str, object]] = {
    "a GameState": fh.deal(fh.new_game(dealer=0), seed=1),
    "a str": "x",
    "None": None,
    "an int": 12345,
    "an object": object(),
}

#: Public names not called here, and why.
NOT_CALLED: Final = {
    "fivehundred.ai.playout.Policy": "a type alias (a Callable type) for annotations",
    "fivehundred.bots.Player": "a Protocol, a type for annotations: it cannot be instantiated",
    "fivehundred.ai.tensors.Buffer": "a Protocol, a type for annotations: not instantiable",
    "fivehundred.tricks.Context": "the compiled class that context() builds once and caches; "
    "users never construct it (contexts compare by identity)",
    "fivehundred.server.serve.serve": "starts a server that runs until it is killed",
    "fivehundred.server.serve.JsonH11Protocol": "uvicorn's protocol class, which uvicorn "
    "constructs with its own arguments",
    "fivehundred.bots.tournament.RayExecutor": "starts (or needs) a Ray cluster",
    "fivehundred.ai.openspiel.FiveHundredState": "OpenSpiel's C++ base class checks the "
    "arguments first and aborts the process on wrong ones",
    "fivehundred.ai.openspiel.FiveHundredObserver": "made by the game's make_py_observer, "
    "as OpenSpiel's C++ base class requires",
    "fivehundred.GameState": "states are made by new_game, deal and apply; the constructor's "
    "parameters are the engine's private ones (GameState() itself raises FiveHundredTypeError, "
    "tested below)",
}

#: Why no exception class is called: what the library raises, with the message it writes.
EXCEPTION: Final = "an exception class: a caller catches it rather than builds it"


def not_called(name: str) -> str | None:
    """Why ``name`` is not called here, or ``None`` when it is."""
    obj = CALLABLES[name]
    if inspect.isclass(obj) and issubclass(obj, BaseException):
        return EXCEPTION
    return NOT_CALLED.get(name)


#: Errors a callable documents besides the library's, for values it cannot use.
DOCUMENTED: Final[dict[str, tuple[type[BaseException], ...]]] = {
    # The command line's own error, for a preset name it does not know (a str, the right type).
    "fivehundred.cli.rules_for": (importlib.import_module("fivehundred.cli").UsageError,),
    # ``argv=None`` means sys.argv, here pytest's own arguments: argparse exits with status 2,
    # as both docstrings say. A wrong type is refused before that.
    "fivehundred.cli.main": (SystemExit,),
    "fivehundred.bots.tournament.main": (SystemExit,),
    # The key file named "x" does not exist: OSError, as the docstring says.
    "fivehundred.server.settings.read_key": (OSError,),
    # The server's refusal (an HTTP status, a code and a sentence), as its docstring says.
    "fivehundred.server.tables.check_rules": (
        importlib.import_module("fivehundred.server.tables").Refused,
    ),
}

#: Seconds one call may take: a wrong type is refused at once.
CALL_SECONDS: Final = 10


def public_callables() -> dict[str, Callable[..., Any]]:
    """``{"module.name": obj}`` for each callable of each public ``__all__``, first name wins."""
    found: dict[str, Callable[..., Any]] = {}
    seen: set[int] = set()
    for module_name in public_modules():
        try:
            module = importlib.import_module(module_name)
            names = {name: getattr(module, name) for name in getattr(module, "__all__", ())}
        except ImportError:
            assert module_name in OPTIONAL, module_name
            continue
        for name, obj in names.items():
            if callable(obj) and id(obj) not in seen:
                seen.add(id(obj))
                found[f"{module_name}.{name}"] = obj
    return found


CALLABLES: Final = public_callables()


#: One call's arguments: positional, then by keyword.
Arguments = tuple[tuple[Any, ...], dict[str, Any]]


def calls(obj: Callable[..., Any], wrong: object) -> Iterator[Arguments]:
    """The calls of ``obj`` with ``wrong`` in its parameters (see the module docstring)."""
    params = [
        p
        for p in inspect.signature(obj).parameters.values()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    required = [p for p in params if p.default is p.empty]
    if required:
        yield (
            tuple(wrong for p in required if p.kind is not p.KEYWORD_ONLY),
            {p.name: wrong for p in required if p.kind is p.KEYWORD_ONLY},
        )
        return
    for p in params:
        if p.kind is p.POSITIONAL_ONLY:
            yield (wrong,), {}
        else:
            yield (), {p.name: wrong}


class _TooLong(Exception):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _TooLong


def outcome(name: str, obj: Callable[..., Any], wrong: object) -> list[str]:
    """What went wrong calling ``obj`` with ``wrong`` (nothing when every call is fine)."""
    bad = []
    allowed: tuple[type[BaseException], ...] = (fh.FiveHundredError, *DOCUMENTED.get(name, ()))
    for args, kwargs in calls(obj, wrong):
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(CALL_SECONDS)
        try:
            obj(*args, **kwargs)
        except allowed:
            pass
        except _TooLong:
            bad.append(f"{name}{args}{kwargs}: still running after {CALL_SECONDS} s")
        except BaseException as error:  # every other error is the finding
            bad.append(f"{name}{args}{kwargs}: {type(error).__name__}: {error}")
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
    return bad


@pytest.mark.parametrize("name", sorted(name for name in CALLABLES if not_called(name) is None))
def test_a_wrong_type_gets_a_library_error(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a server's table store, given a str, is a file made here
    obj = CALLABLES[name]
    bad = [line for value in WRONG.values() for line in outcome(name, obj, value)]
    assert bad == []


def test_the_table_of_what_is_not_called_is_current() -> None:
    """Each entry names a public callable that exists here, or one of a missing extra."""
    stale = [
        name
        for name in NOT_CALLED
        if name not in CALLABLES and name.rsplit(".", 1)[0] not in OPTIONAL
    ]
    assert stale == []
    assert all(reason.strip() for reason in NOT_CALLED.values())
    exceptions = {name for name in CALLABLES if not_called(name) == EXCEPTION}
    assert {"fivehundred.FiveHundredError", "fivehundred.NotationError"} <= exceptions


def test_a_state_is_not_made_by_its_constructor() -> None:
    with pytest.raises(fh.FiveHundredTypeError, match="new_game"):
        fh.GameState()


def test_the_callables_are_found() -> None:
    assert {
        "fivehundred.apply",
        "fivehundred.observe",
        "fivehundred.ai.tensors.observation_tensor",
        "fivehundred.bots.sample_state",
    } <= set(CALLABLES)


def test_a_game_state_where_a_view_belongs_is_named_in_the_error() -> None:
    from fivehundred.ai.tensors import observation_tensor

    with pytest.raises(fh.FiveHundredTypeError, match=r"expected a PlayerView .* got <GameState"):
        observation_tensor(WRONG["a GameState"])  # type: ignore[arg-type]  # the wrong type


def test_a_view_where_a_view_belongs_still_works() -> None:
    from fivehundred.ai.tensors import observation_tensor, observation_tensor_size

    state = WRONG["a GameState"]
    assert isinstance(state, fh.GameState)
    view = fh.observe(state, 0)
    assert len(observation_tensor(view)) == observation_tensor_size(state.rules)


def test_the_shared_check_refuses_a_bool_where_a_number_belongs() -> None:
    from fivehundred._engine.quoting import expect

    with pytest.raises(fh.FiveHundredTypeError, match=r"^expected a seat \(an int\), got True$"):
        expect(True, int, "a seat (an int)")
    with pytest.raises(fh.FiveHundredTypeError, match="got False"):
        expect(False, (int, float), "a number")
    expect(True, (bool, int), "a flag")  # a bool where a bool is one of the kinds
    expect(3, int, "a seat (an int)")
