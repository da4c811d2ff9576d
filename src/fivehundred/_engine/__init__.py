"""The rule engine, laid out like the rule book, on small integers.

This package is the one implementation of the game behind :func:`fivehundred.apply`,
:func:`fivehundred.ai.playout` and the computer players. It is plain typed Python that
mypyc compiles (``fivehundred.COMPILED``); the same source is the pure build.
Inside, a card is its *position* in the deck of the table (0 … len(deck) - 1, in
card order), a set of cards is a bit mask of positions, and a state is a
``GameState`` of about a dozen fields that points to a ``Hand`` block shared by
every state of one phase of a hand.

Nothing here is public API: :mod:`fivehundred.engine`, :mod:`fivehundred.engine`,
:mod:`fivehundred.tricks` and :mod:`fivehundred.ai.playout` wrap it. Every module of
this package is compiled by mypyc in the compiled build. One module a section:

- :mod:`~fivehundred._engine.table`: what a table of given rules fixes (seats,
  sides, the deck, the bid ladder);
- :mod:`~fivehundred._engine.order`: the card order under every contract (R1.3,
  R1.4, R5.2, R7), as tables built from the rules;
- :mod:`~fivehundred._engine.hand`: the block of one hand's fields;
- :mod:`~fivehundred._engine.state`: :class:`GameState`, one moment of a game;
- :mod:`~fivehundred._engine.deal` (R2), :mod:`~fivehundred._engine.auction` (R3),
  :mod:`~fivehundred._engine.kitty` (R4), :mod:`~fivehundred._engine.partner` (P5),
  :mod:`~fivehundred._engine.nomination` (R7.1), :mod:`~fivehundred._engine.play`
  (R5, R7) and :mod:`~fivehundred._engine.outcome` (R6, R8, R9): each phase's
  legal actions and transition;
- :mod:`~fivehundred._engine.judge`: the one apply path, and why an action is refused;
- :mod:`~fivehundred._engine.simulate`: random play-outs on the same steps.

This ``__init__`` imports nothing, so that the modules import each other one way.
"""
