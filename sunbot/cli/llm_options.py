"""The ``--llm-*`` options of ``sunbot play``, ``bench`` and ``check-bot``: one definition of
each, and :func:`llm_options`, which turns the given ones into the model agent's options
(:class:`sunbot.agents.llm.LLMStrategy`'s arguments)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from sunbot.agents.spec import parse_price


class LlmMode(StrEnum):
    """How a decision is asked (``LLMStrategy(mode=...)``)."""

    structured = "structured"
    text = "text"
    tools = "tools"


LlmUrl = Annotated[
    str | None,
    typer.Option(help="llm:MODEL: the OpenAI-compatible endpoint (default: OPENAI_BASE_URL)."),
]
LlmPrompt = Annotated[
    Path | None,
    typer.Option(
        exists=True, dir_okay=False, help="llm:MODEL: a Jinja2 prompt template to use instead."
    ),
]
LlmPrice = Annotated[
    str | None,
    typer.Option(
        metavar="IN,OUT", help="llm:MODEL: USD per million input, output tokens (for cost)."
    ),
]
LlmMaxTokens = Annotated[
    int | None,
    typer.Option(
        min=0,
        max=1_000_000,
        help="llm:MODEL: the longest answer in tokens (default 256; 0: the endpoint's own).",
    ),
]
LlmTemperature = Annotated[
    float | None,
    typer.Option(min=0, max=2, help="llm:MODEL: sampling temperature (default: the endpoint's)."),
]
LlmTimeout = Annotated[
    float | None,
    typer.Option(
        min=0.5,
        max=3600,
        help="llm:MODEL: seconds one call may take (default 60; the first call of a run twice"
        " that).",
    ),
]
LlmModeOption = Annotated[
    LlmMode | None,
    typer.Option(
        "--llm-mode",
        case_sensitive=False,
        help="llm:MODEL: structured (a JSON Schema of the answer; the default), text (plain"
        " text) or tools (each kind of legal action a function to call).",
    ),
]
LlmCache = Annotated[
    Path | None,
    typer.Option(
        file_okay=False,
        help="llm:MODEL: keep each answer in this folder and take a repeated question's"
        " answer from it (0 tokens).",
    ),
]


def llm_options(
    is_llm: bool,
    for_what: str,
    *,
    url: str | None = None,
    prompt: Path | None = None,
    price: str | None = None,
    max_tokens: int | None = None,
    temperature: float | None = None,
    timeout: float | None = None,
    mode: LlmMode | None = None,
    cache: Path | None = None,
    flags: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The agent options of the ``--llm-*`` options given (``{}`` when none is).

    Args:
        is_llm: the command plays an ``llm:MODEL`` strategy.
        for_what: how the command names that strategy in an error (``--strategy
            llm:MODEL``, ``-s llm:MODEL``).
        flags: names of flag options given that also need an ``llm:`` strategy
            (``--llm-dry-run``).

    Raises:
        ValueError: options given without an ``llm:`` strategy (the message names them), or
            ``--llm-price`` that is not two numbers.
    """
    values = {
        "--llm-url": url, "--llm-prompt": prompt, "--llm-price": price,
        "--llm-max-tokens": max_tokens, "--llm-temperature": temperature,
        "--llm-timeout": timeout, "--llm-mode": mode, "--llm-cache": cache,
    }  # fmt: skip
    given = [name for name, v in values.items() if v is not None] + list(flags)
    if not given:
        return {}
    if not is_llm:
        raise ValueError(f"{', '.join(given)} apply to {for_what}")
    options: dict[str, Any] = {}
    for key, value in (
        ("base_url", url), ("prompt", prompt), ("max_tokens", max_tokens),
        ("temperature", temperature), ("timeout_s", timeout), ("cache", cache),
    ):  # fmt: skip
        if value is not None:
            options[key] = value
    if mode is not None:
        options["mode"] = mode.value
    if price is not None:
        options["price"] = parse_price(price)
    return options


__all__ = [
    "LlmCache",
    "LlmMaxTokens",
    "LlmMode",
    "LlmModeOption",
    "LlmPrice",
    "LlmPrompt",
    "LlmTemperature",
    "LlmTimeout",
    "LlmUrl",
    "llm_options",
]
