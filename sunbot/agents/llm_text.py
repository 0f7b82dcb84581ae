"""A chat model asked for text, not for an action: the writer of the forward-model drafting
loop (:mod:`sunbot.certify.draft`).

:class:`TextModel` sends a conversation to any OpenAI-compatible endpoint through the same
bounded client as the ``llm:`` agents (:mod:`sunbot.agents._llm_client`: each call inside
its deadline, the answer's size capped, the key never in a message) and returns the
answer's text with ``<think>`` blocks moved out. Needs ``pip install 'sunbot[llm]'``.
"""

from __future__ import annotations

import os
import time
from typing import Any

from sunbot._text.safe import remember


class TextModel:
    """A chat model for text answers.

    Args:
        model: the model name (``llm:`` stripped if given).
        base_url: the endpoint (default ``OPENAI_BASE_URL``).
        api_key: the key (default ``OPENAI_API_KEY``).
        timeout_s: seconds one answer may take.
        client: an ``openai.OpenAI`` to use as it is (tests).
        temperature, max_tokens: sent when given.

    Attributes:
        calls, prompt_tokens, completion_tokens: what was spent so far.

    Raises:
        ImportError: the ``openai`` SDK is not installed.
        ValueError: no model name.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 300.0,
        client: Any = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> None:
        name = model.removeprefix("llm:").strip()
        if not name:
            raise ValueError("give a model, e.g. llm:gpt-4o-mini")
        try:
            from sunbot.agents._llm_client import Endpoint
        except ImportError:
            raise ImportError(
                "the drafting loop needs the llm extra: pip install '.[llm]' in a checkout"
            ) from None
        key = api_key or os.environ.get("OPENAI_API_KEY") or "unused"
        remember(key)
        self.model = name
        self.timeout_s = timeout_s
        self._endpoint = Endpoint(
            name,
            base_url=base_url or os.environ.get("OPENAI_BASE_URL") or None,
            api_key=key,
            timeout_s=timeout_s,
            client=client,
            params={"temperature": temperature, "max_tokens": max_tokens},
        )
        self.calls = self.prompt_tokens = self.completion_tokens = 0

    def ask(self, messages: list[dict[str, str]]) -> str:
        """The model's answer to ``messages`` (its text, ``<think>`` blocks left out).

        Raises:
            RuntimeError: no usable answer (the endpoint's one-line reason).
        """
        from sunbot.agents._llm_client import EndpointError
        from sunbot.agents._llm_parse import split_thinking

        self.calls += 1
        try:
            reply = self._endpoint.complete(messages, deadline=time.monotonic() + self.timeout_s)
        except EndpointError as exc:
            raise RuntimeError(f"the model {self.model} gave no answer: {exc}") from None
        self.prompt_tokens += reply.prompt_tokens or 0
        self.completion_tokens += reply.completion_tokens or 0
        text, _ = split_thinking(reply.text)
        return text

    def close(self) -> None:
        """Close the endpoint's client."""
        self._endpoint.close()


__all__ = ["TextModel"]
