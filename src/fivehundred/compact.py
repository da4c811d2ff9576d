"""Deprecated: the compact action ids are ``layout="compact"`` of :mod:`fivehundred.encoding`.

Every name this module had still works for one minor release, with a
:class:`DeprecationWarning` that names its replacement:

>>> import warnings
>>> import fivehundred as fh
>>> from fivehundred.encoding import num_actions
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore", DeprecationWarning)
...     from fivehundred.compact import compact_num_actions
>>> compact_num_actions(fh.Rules()) == num_actions(fh.Rules(), layout="compact")
True
"""

from typing import TYPE_CHECKING as _TYPE_CHECKING

from fivehundred._deprecated import deprecated_getattr as _deprecated_getattr

__all__: list[str] = []

if not _TYPE_CHECKING:  # hidden from type checkers: the old names are for old code only
    #: The names of this module, which warn and point at :mod:`fivehundred.encoding`.
    __getattr__ = _deprecated_getattr(__name__)
