"""``sunbot check-bot``: a bot's conformance check, above the API.

:func:`sunbot.checkbot.check.check_bot` plays a bot through short runs of the games it
claims (through :mod:`sunbot.api`, the one assembly point) and reports what it did wrong
(:mod:`sunbot.checkbot.report`).
"""
