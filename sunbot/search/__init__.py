"""Search over a forward model: the generic ``search`` strategy's parts.

- :mod:`sunbot.search.objective`: what a run maximises (the spec's score order, or
  ``--objective``).
- :mod:`sunbot.search.peek`: the peek guard, whether looking ahead through a server would
  see what the player cannot.
- :mod:`sunbot.search.mcts`: anytime Monte Carlo tree search over a simulator.
- :mod:`sunbot.search.simulators`: the simulators: a forward model, our engine of a known
  game, or (``--lookahead``) the server behind a request budget
  (:mod:`sunbot.search.lookahead`).

The strategy itself is ``sunbot.strategies.search``; the guide is
``docs/guide-forward-models.md``.
"""
