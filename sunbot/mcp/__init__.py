"""``sunbot mcp``: any MCP-capable assistant plays the games through sunbot (extra ``[mcp]``).

A face like the command line: an MCP server (the official SDK) whose tools start, show and
play games, every game a sunbot run through :mod:`sunbot.api`, so each answer is checked
(the mirror, or the generic checks), each game recorded as a transcript that resumes,
replays (``sunbot replay``) and rates (``sunbot tournament --transcripts``). Modules:

- :mod:`.bridge`: the strategy whose decisions wait for the client's ``act``;
- :mod:`.game`: one game in a background task; :mod:`.legal`: which actions are sent;
- :mod:`.host`: sessions, budgets, starting and resuming games, the transcript folder;
- :mod:`.render`: a position as text and JSON; :mod:`.models`: the tools' output;
- :mod:`.server`: the tools and resources; :mod:`.serve`: stdio, or HTTP with a token.

Guide: ``docs/guide-mcp.md``.
"""

from __future__ import annotations

from sunbot.mcp.host import Budget, McpOptions

__all__ = ["Budget", "McpOptions"]
