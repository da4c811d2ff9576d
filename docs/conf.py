"""Sphinx configuration for the fivehundred documentation.

Build with ``nox -s docs`` (``sphinx-build -n -W --keep-going``).

There is no network at build time except the package index, so intersphinx is
off unless ``FIVEHUNDRED_DOCS_ONLINE`` is set. While it is off, references to
the standard library and attrs cannot be resolved; those (and only those) are
listed in ``nitpick_ignore_regex`` so that ``-n`` still checks every reference
to the project's own objects.
"""

from __future__ import annotations

import os
import sys
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version

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
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

html_theme = "furo"
html_title = f"fivehundred {release}"

# -- MyST -------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# -- autodoc ----------------------------------------------------------------
autodoc_typehints = "description"
autodoc_member_order = "bysource"
# ``Action`` is a type alias (a union of the action classes); Sphinx cannot link it.
nitpick_ignore = [("py:class", "Action"), ("py:class", "fivehundred.actions.Action")]

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
