"""Another Gameboard-compatible server, built for sunbot's tests from the same engines.

Everything the rule texts determine is the rules engines' (so it is exactly as the rules
say); every local choice is made another way: generators and ramps, the Naptuft deck, the
wording of free text, pacing, round numbering, house bots, carry forms (the ``{state}``
form with a seal, signed JSON tokens, server-side ids), no ``rng`` anywhere, unknown extra
fields in every answer, 429s on every route. Planted rule bugs are opt-in.

Serve it on loopback for manual trials: ``python -m sunbot.testing.otherserver --help``.
"""

from sunbot.testing.otherserver.app import create_other_app, inner
from sunbot.testing.otherserver.bugs import BUGS
from sunbot.testing.otherserver.options import OtherOptions

__all__ = ["BUGS", "OtherOptions", "create_other_app", "inner"]
