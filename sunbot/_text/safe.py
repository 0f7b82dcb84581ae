"""Text from a server made safe to print, log or write: secrets out, length bounded.

Two rules, applied where a server's free text becomes one of our own messages (an error,
a refusal reason, a summary row, a log record):

- **Secrets by value.** Every secret we hold (a seat token, the password of a ``--server``
  URL) is registered with :func:`remember`; :func:`scrub` replaces each occurrence with
  ``***`` wherever it stands, whatever key (or none) the server put it under. A state
  token is scrubbed from the error its own request caused (:func:`scrub` ``extra``), not
  registered: transcripts keep state tokens as data (``--resume`` needs them).
- **Length.** :func:`clip` cuts free text to :data:`MAX_TEXT` characters and says how
  many were left out, so one hostile 1 MB string cannot flood the terminal, the summary or
  the result line (``docs/decisions.md``, "Server text in our messages").
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

#: Characters of server free text kept in one of our messages (error, reason, summary row).
MAX_TEXT = 300
#: Characters of a traceback kept (its end, where the error is).
MAX_TRACEBACK = 8000
#: What a secret becomes.
REDACTED = "***"
#: Shortest value treated as a secret: a shorter one would blank out ordinary words.
MIN_SECRET = 8

#: Environment variables that hold a secret of ours (a model API key): their values are
#: scrubbed everywhere (:func:`remember_environment`) and not handed to a bot's process.
ENV_SECRETS = ("OPENAI_API_KEY",)

_secrets: set[str] = set()


def remember(secret: str | None) -> None:
    """Register ``secret`` (a seat token, a URL password) for :func:`scrub`, for the life
    of the process. Values shorter than :data:`MIN_SECRET` characters are ignored."""
    if secret and len(secret) >= MIN_SECRET:
        _secrets.add(secret)


def remember_environment() -> None:
    """:func:`remember` the values of :data:`ENV_SECRETS` set in the environment now, so a
    bot, model or server that echoes them is scrubbed like a seat token (done on import)."""
    for name in ENV_SECRETS:
        remember(os.environ.get(name))


def known() -> frozenset[str]:
    """The registered secrets (for tests and the transcript writer)."""
    return frozenset(_secrets)


def scrub(text: str, extra: Iterable[str | None] = ()) -> str:
    """``text`` with every registered secret, and every value of ``extra`` at least
    :data:`MIN_SECRET` long, replaced by ``***``; longest first, so a secret holding
    another goes whole."""
    values = {s for s in extra if s and len(s) >= MIN_SECRET} | _secrets
    for secret in sorted(values, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text


#: The tail :func:`clip` writes, so that clipping clipped text again counts from the whole.
_CLIPPED = re.compile(r"… \((\d+) more characters\)$")


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` cut to ``limit`` characters, then ``… (N more characters)``; a shorter
    text is returned as it is. Text that ``clip`` already cut is cut again from its kept
    part, and ``N`` still counts every character left out of the original."""
    if len(text) <= limit:
        return text
    before = 0
    found = _CLIPPED.search(text)
    if found is not None:
        text, before = text[: found.start()], int(found.group(1))
        if len(text) <= limit:
            return f"{text}… ({before} more characters)"
    return f"{text[:limit]}… ({len(text) - limit + before} more characters)"


def safe(text: object, limit: int = MAX_TEXT, extra: Iterable[str | None] = ()) -> str:
    """``clip(scrub(str(text)))``: server text ready for one of our messages."""
    return clip(scrub(str(text), extra), limit)


def describe(exc: BaseException, limit: int = MAX_TEXT) -> str:
    """``TypeName: message`` of ``exc``, scrubbed and clipped (an error line or field).
    An exception whose ``str`` itself raises (a model's or a bot's own class) is described
    as ``TypeName: <unprintable>``, one with no message as ``TypeName``; ``describe`` never
    raises."""
    name = getattr(type(exc), "__name__", "Exception")
    try:
        message = str(exc)
    except Exception:
        message = "<unprintable>"
    return safe(f"{name}: {message}" if message else name, limit)


def traceback_text(text: str) -> str:
    """A formatted traceback as we may show or record it: secrets scrubbed, each line
    clipped to :data:`MAX_TEXT` characters (the message line may hold a server's 1 MB
    reason), and only the last :data:`MAX_TRACEBACK` characters kept."""
    lines = [clip(line) for line in scrub(text).splitlines()]
    return "\n".join(lines)[-MAX_TRACEBACK:]


remember_environment()

__all__ = [
    "ENV_SECRETS",
    "MAX_TEXT",
    "MAX_TRACEBACK",
    "MIN_SECRET",
    "REDACTED",
    "clip",
    "describe",
    "known",
    "remember",
    "remember_environment",
    "safe",
    "scrub",
    "traceback_text",
]
