"""For mypy only: ``sunbot.strategies`` is the top-level ``strategies/`` folder, which the
install places at ``sunbot/strategies`` (pyproject's package-dir) and mypy checks as the
package ``strategies``. Its public names are its ``__all__``."""

from strategies import *  # noqa: F403
