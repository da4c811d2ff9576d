"""``python -m fivehundred``: the command line (see :mod:`fivehundred.cli`)."""

from fivehundred.cli import main

raise SystemExit(main())
