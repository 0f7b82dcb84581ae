"""Playing a game sunbot has no engine for, on the platform's protocol alone.

- :mod:`sunbot.generic.checks`: :class:`GenericChecks`, the mirror's interface checking
  what every game promises (the envelope, the served action grammar, refusals), never rules.
- :mod:`sunbot.generic.grammar`: a served action grammar compiled once, checked in bounded
  time.
- :mod:`sunbot.generic.index`: :func:`list_games` (what a server lists and what sunbot has
  for each), :func:`served_rules` and :func:`describe_spec`.

The strategies that play any game are in :mod:`sunbot.strategies.generic`; the guide is
``docs/guide-any-game.md``.
"""

from sunbot.generic.checks import GenericChecks
from sunbot.generic.grammar import Grammar, GrammarProblem, compile_grammar, find_grammar
from sunbot.generic.index import (
    GameListing,
    check_slug,
    describe_spec,
    list_games,
    served_rules,
)

__all__ = [
    "GameListing",
    "GenericChecks",
    "Grammar",
    "GrammarProblem",
    "check_slug",
    "compile_grammar",
    "describe_spec",
    "find_grammar",
    "list_games",
    "served_rules",
]
