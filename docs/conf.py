"""Sphinx configuration for the fivehundred documentation.

Build with ``nox -s docs`` (``sphinx-build -n -W --keep-going``).

Two pieces of the docs come from the library at build time:

- the tables of ``docs/_generated/`` (the bid ladder, the scoring tables) are
  written by ``docs/_gen.py`` and committed; the build warns, and so fails
  under ``-W``, when one of them is stale (``tests/test_docs.py`` checks it too);
- the ``cli-help`` directive inserts the ``--help`` text of the ``fivehundred``
  command and of each of its subcommands, so the CLI page never drifts.

There is no network at build time except the package index, so intersphinx is
off unless ``FIVEHUNDRED_DOCS_ONLINE`` is set. While it is off, references to
the standard library and attrs cannot be resolved; those (and only those) are
listed in ``nitpick_ignore_regex`` so that ``-n`` still checks every reference
to the project's own objects.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version
from pathlib import Path
from typing import Any

project = "fivehundred"
author = "the fivehundred developers"
project_copyright = "2026, the fivehundred developers"

try:
    release = dist_version("fivehundred")
except PackageNotFoundError:  # building from a checkout without installing
    release = "0+unknown"
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx_copybutton",
]

# -n on the command line; set here too, for builds that take no options (Read the Docs).
nitpicky = True

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
# _generated/ holds table fragments that the pages include; they are not pages.
exclude_patterns = ["_build", "_generated", "Thumbs.db", ".DS_Store"]

html_theme = "furo"
# The JSON Schema of the format, published as _static/format-1.schema.json.
html_static_path = ["../src/fivehundred/schema"]
html_title = f"fivehundred {release}"

# -- MyST -------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# -- copy buttons -------------------------------------------------------------
# The copy button of a block copies the code without the ">>> " and "... "
# prompts (and without the output lines), so that it pastes into Python; and
# without the "$ " of console blocks.
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True

# -- autodoc ----------------------------------------------------------------
autodoc_typehints = "description"
autodoc_member_order = "bysource"

# -- cross-references to other projects ------------------------------------
_EXTERNAL_MODULES = sorted(set(sys.stdlib_module_names) | {"attr", "attrs"})

if os.environ.get("FIVEHUNDRED_DOCS_ONLINE"):
    extensions.append("sphinx.ext.intersphinx")
    intersphinx_mapping = {
        "python": ("https://docs.python.org/3", None),
        "attrs": ("https://www.attrs.org/en/stable/", None),
    }
else:
    nitpick_ignore_regex = [
        (r"py:.*", rf"(?:{'|'.join(_EXTERNAL_MODULES)})(?:\..+)?"),
    ]


# Private types of the engine core that show in signatures (the GameState
# constructor, the card-order context of fivehundred.tricks): undocumented on
# purpose, as every name with a leading underscore.
nitpick_ignore = [
    ("py:class", "Hand"),
    ("py:class", "TrickNode"),
    ("py:class", "LogNode"),
    ("py:class", "fivehundred._engine.order.Ctx"),
    ("py:class", "fivehundred.serialize._Loadable"),  # the classes from_dict reads, a TypeVar
]


# -- build-time pieces --------------------------------------------------------

DOCS = Path(__file__).resolve().parent


def _check_generated(app: Any) -> None:
    """Warn (an error under -W) when a committed generated table is stale."""
    from sphinx.util import logging

    sys.path.insert(0, str(DOCS))
    try:
        import _gen
    finally:
        sys.path.remove(str(DOCS))
    for name in _gen.stale():
        logging.getLogger(__name__).warning(
            "docs/_generated/%s is stale: run python docs/_gen.py", name
        )


def _cli_help(args: list[str]) -> str:
    """The ``--help`` text of ``fivehundred ARGS``, at a fixed width."""
    from fivehundred.cli import main

    out = io.StringIO()
    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "88"
    try:
        with (
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(io.StringIO()),
            contextlib.suppress(SystemExit),
        ):
            main([*args, "--help"])
    finally:
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns
    return out.getvalue().rstrip()


def _subcommands(top: str) -> list[str]:
    """The subcommands listed by the top-level help (``{a,b}`` or one per indented line)."""
    choices = re.search(r"\{([\w,-]+)\}", top)
    if choices:
        return choices.group(1).split(",")
    names = []
    section = top.partition("COMMAND\n")[2]
    for line in section.splitlines():
        match = re.match(r"^    ([a-z][\w-]*)(?:\s|$)", line)
        if match:
            names.append(match.group(1))
        elif line and not line.startswith(" "):
            break
    return names


def _reexported(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """Resolve a reference to a name the top-level package re-exports.

    The API pages document each public object once, under the name users write
    (``fivehundred.observe``). A docstring that says :func:`observe` inside
    :mod:`fivehundred.views`, or a reference to ``fivehundred.views.observe``,
    names the same object: if the object found under the referenced name *is*
    ``fivehundred.<name>``, the reference resolves to that entry.
    """
    import importlib

    import fivehundred

    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"]
    module = node.get("py:module")
    full = f"{module}.{target}" if module and "." not in target else target
    head, _, name = full.rpartition(".")
    if not head.startswith("fivehundred") or not hasattr(fivehundred, name):
        return None
    try:
        owner = importlib.import_module(head)
    except ImportError:
        return None
    if getattr(owner, name, None) is not getattr(fivehundred, name):
        return None
    domain = env.get_domain("py")
    return domain.resolve_xref(
        env,
        node["refdoc"],
        app.builder,
        node["reftype"],
        f"fivehundred.{name}",
        node,
        contnode,
    )


def setup(app: Any) -> dict[str, object]:
    from docutils import nodes
    from sphinx.util.docutils import SphinxDirective

    class CliHelp(SphinxDirective):
        """``cli-help``: the help of the command, then of every subcommand."""

        def run(self) -> list[nodes.Node]:
            top = _cli_help([])
            if not top:
                raise self.error("fivehundred --help printed nothing")
            result: list[nodes.Node] = [nodes.literal_block(top, top, language="text")]
            for name in _subcommands(top):
                text = _cli_help([name])
                result.append(nodes.rubric("", f"fivehundred {name}"))
                result.append(nodes.literal_block(text, text, language="text"))
            return result

    app.add_directive("cli-help", CliHelp)
    app.connect("builder-inited", _check_generated)
    app.connect("missing-reference", _reexported)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
