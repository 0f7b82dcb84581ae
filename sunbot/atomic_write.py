"""Deprecated name of :mod:`sunbot._text.atomic_write`, kept so that older imports keep working."""

import warnings

from sunbot._text import atomic_write as _moved
from sunbot._text.atomic_write import *  # noqa: F403

__all__ = list(_moved.__all__)

warnings.warn(
    "sunbot.atomic_write moved to sunbot._text.atomic_write", DeprecationWarning, stacklevel=2
)
