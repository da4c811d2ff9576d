"""Five Hundred for AI research: action ids, tensors, fast play-outs and framework adapters.

Everything a learning agent or a search needs beyond the rules, in one package:

- :mod:`fivehundred.ai.encoding`: every action as an integer, with legal masks (two
  layouts: ``"full"``, one id an action, and ``"compact"``, one card at a time);
- :mod:`fivehundred.ai.tensors`: observation and information-state tensors of a
  :class:`~fivehundred.PlayerView`, with their layouts;
- :mod:`fivehundred.ai.playout`: random play-outs to the end of the hand or game;
- :mod:`fivehundred.ai.openspiel`: the game for OpenSpiel (the ``openspiel`` extra);
- :mod:`fivehundred.ai.pettingzoo`: the environment for PettingZoo (the ``pettingzoo``
  extra).

The computer players and seeded matches are :mod:`fivehundred.bots`; the rules are the
top-level package. The first three modules need nothing beyond the core and load with
this package; the two adapters load only when imported, as their extras may be missing.

>>> import fivehundred as fh
>>> from fivehundred.ai import encoding
>>> state = fh.deal(fh.new_game(dealer=3), seed=7)
>>> len(encoding.legal_action_indices(state)) == len(fh.legal_actions(state))
True
"""

from fivehundred.ai import encoding, playout, tensors

__all__ = ["encoding", "playout", "tensors"]
