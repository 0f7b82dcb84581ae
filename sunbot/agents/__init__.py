"""Agents: bots outside this process and the move clock that bounds every bot.

- :class:`ExecStrategy`: a bot in another process, any language, one JSON line per decision
  (``--strategy "exec:python3 bot.py"``);
- :class:`HttpStrategy`: a bot behind an HTTP endpoint (``--strategy http://host:port/move``);
- :class:`LLMStrategy`: a language model behind an OpenAI-compatible API (``llm:MODEL``);
- :class:`IsolatedStrategy`: an in-process bot played in a child process (``--isolate``);
- :class:`Decider`: asks any strategy for a decision within the move clock
  (``--move-timeout``), with a fallback when it is late; :class:`BotError` is a bot's failure;
- :func:`create_agent`: any ``--strategy`` text made into one of the above.

Guide: ``docs/guide-other-processes.md``. Names are imported on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sunbot.agents.clock import BotError, Decider, Decision, default_fallback
    from sunbot.agents.exec import ExecStrategy
    from sunbot.agents.http import HttpStrategy
    from sunbot.agents.isolate import IsolatedStrategy
    from sunbot.agents.spec import agent_kind, create_agent

_LAZY: dict[str, str] = {
    "BotError": "sunbot.agents.clock",
    "Decider": "sunbot.agents.clock",
    "Decision": "sunbot.agents.clock",
    "default_fallback": "sunbot.agents.clock",
    "ExecStrategy": "sunbot.agents.exec",
    "HttpStrategy": "sunbot.agents.http",
    "IsolatedStrategy": "sunbot.agents.isolate",
    "LLMStrategy": "sunbot.agents.llm",
    "agent_kind": "sunbot.agents.spec",
    "create_agent": "sunbot.agents.spec",
}


def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'sunbot.agents' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "BotError",
    "Decider",
    "Decision",
    "ExecStrategy",
    "HttpStrategy",
    "IsolatedStrategy",
    "LLMStrategy",
    "agent_kind",
    "create_agent",
    "default_fallback",
]
