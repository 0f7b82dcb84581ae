"""Deprecated name of :mod:`sunbot._text.safe`, kept so that older imports keep working."""

import warnings

from sunbot._text import safe as _moved
from sunbot._text.safe import *  # noqa: F403

__all__ = list(_moved.__all__)

warnings.warn("sunbot.safe_text moved to sunbot._text.safe", DeprecationWarning, stacklevel=2)
