"""Five Hundred for PettingZoo (needs the ``pettingzoo`` extra).

Each version of the environment is a module, as PettingZoo names its own
(``pettingzoo.classic.leduc_holdem_v4``): :mod:`fivehundred.ai.pettingzoo.fivehundred_v1`
is the current one. This package offers the current version's names too, so
that ``from fivehundred.ai.pettingzoo import env`` keeps working.

>>> from fivehundred.ai.pettingzoo import env, fivehundred_v1
>>> env is fivehundred_v1.env
True
>>> table = env(render_mode="ansi")
>>> table.reset(seed=1)
>>> table.render().splitlines()[0]
'hand 1, bidding; scores 0 0'
"""

from __future__ import annotations

from fivehundred.ai.pettingzoo import fivehundred_v1
from fivehundred.ai.pettingzoo.fivehundred_v1 import FiveHundredEnv, env, raw_env

__all__ = ["FiveHundredEnv", "env", "fivehundred_v1", "raw_env"]
