"""Typed observations and actions, one module per game, for bot authors.

Every game answers the one strategy contract ``choose(observation, legal_actions) -> action``
(:class:`sunbot.strategies.Strategy`). These modules give the two arguments names and
types a bot can import::

    from sunbot.observations.keelhold import KeelholdAction, KeelholdObservation

The types are :class:`typing.TypedDict`: at run time an observation is the plain ``dict``
the server sent (a server may add fields of its own; none is ever removed by us). Fields
follow the field tables of ``docs/writing-a-bot.md`` and the game's rule notes
(``docs/rules/<game>.md``); a strategy reads only what the published rules show.

Harvest Watch has no ``legal`` list on its speech, vote and diary beats; :func:`harvest_watch.
legal_actions` gives every beat one (see that module).
"""

from sunbot.observations import harvest_watch, keelhold, naptuft, sunloaf

__all__ = ["harvest_watch", "keelhold", "naptuft", "sunloaf"]
