"""``import fivehundred`` is quick: JSON, records and the action encoding load on first use.

Each check runs in a fresh interpreter (``run_python``), so that nothing this test
process has already imported can hide an eager import.
"""

from __future__ import annotations

import json

import pytest

import fivehundred as fh
from subprocesses import run_python

#: The modules a program that only plays must never pay for.
LAZY_MODULES = ("cattrs", "fivehundred.serialize", "fivehundred.records", "fivehundred.ai.encoding")


def loaded_after(code: str) -> dict[str, bool]:
    """Which of LAZY_MODULES are in ``sys.modules`` after running ``code`` in a new interpreter."""
    script = (
        "import json, sys\n"
        f"{code}\n"
        f"print(json.dumps({{name: name in sys.modules for name in {LAZY_MODULES!r}}}))\n"
    )
    result = run_python(["-c", script])
    assert result.returncode == 0, result.stderr
    loaded: dict[str, bool] = json.loads(result.stdout.splitlines()[-1])
    return loaded


def test_import_loads_none_of_serialize_records_encoding_or_cattrs() -> None:
    assert loaded_after("import fivehundred") == dict.fromkeys(LAZY_MODULES, False)


def test_playing_a_hand_loads_none_of_them() -> None:
    code = (
        "import random\n"
        "import fivehundred as fh\n"
        "rng = random.Random(1)\n"
        "state = fh.deal(fh.new_game(dealer=0), seed=1)\n"
        "while state.phase is not fh.Phase.DEAL and not state.is_over:\n"
        "    state = fh.apply(state, rng.choice(fh.legal_actions(state)))\n"
        "fh.observe(state, 0)\n"
    )
    assert loaded_after(code) == dict.fromkeys(LAZY_MODULES, False)


def test_touching_to_json_loads_serialize_records_and_cattrs() -> None:
    loaded = loaded_after("import fivehundred\nfivehundred.to_json")
    assert loaded == {
        "cattrs": True,
        "fivehundred.serialize": True,
        "fivehundred.records": True,  # serialize reads records' types
        "fivehundred.ai.encoding": False,
    }


def test_from_import_of_a_lazy_name_works() -> None:
    code = (
        "from fivehundred import deal, from_json, new_game, to_json\n"
        "state = deal(new_game(dealer=0), seed=3)\n"
        "assert from_json(to_json(state)) == state\n"
    )
    assert loaded_after(code)["cattrs"]


def test_importing_the_encoding_loads_only_the_encoding() -> None:
    loaded = loaded_after(
        "import fivehundred.ai.encoding\nassert fivehundred.ai.encoding.NUM_ACTIONS == 12422"
    )
    assert loaded == {
        "cattrs": False,
        "fivehundred.serialize": False,
        "fivehundred.records": False,
        "fivehundred.ai.encoding": True,
    }


def test_every_public_name_resolves_and_is_listed() -> None:
    code = (
        "import fivehundred as fh\n"
        "listed = dir(fh)\n"
        "missing = [name for name in fh.__all__ if name not in listed]\n"
        "assert not missing, missing\n"
        "assert listed == sorted(listed)\n"
        "for name in sorted(fh.__all__):\n"
        "    getattr(fh, name)\n"
    )
    loaded = loaded_after(code)  # the encoding is a module of its own, not a top-level name
    assert loaded == {**dict.fromkeys(LAZY_MODULES, True), "fivehundred.ai.encoding": False}


def test_lazy_names_are_the_modules_own_objects() -> None:
    import fivehundred.records
    import fivehundred.serialize

    modules = {
        "fivehundred.records": fivehundred.records,
        "fivehundred.serialize": fivehundred.serialize,
    }
    lazy: dict[str, str] = fh._LAZY
    assert set(lazy) <= set(fh.__all__)
    for name, module in lazy.items():
        assert getattr(fh, name) is getattr(modules[module], name), name
        assert name in modules[module].__all__, name
    assert len(fh.__all__) == len(set(fh.__all__))


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'not_a_name'"):
        getattr(fh, "not_a_name")  # noqa: B009 (a name type checkers rightly refuse)
    assert not hasattr(fh, "to_yaml")


def test_all_is_sorted_and_is_exactly_what_dir_shows() -> None:
    public = [name for name in dir(fh) if not name.startswith("_")]
    assert sorted(fh.__all__) == fh.__all__ == public
    assert "__version__" in dir(fh)
    assert isinstance(fh.__version__, str)
