"""An OpenAI-compatible chat endpoint with scripted models, for testing language-model agents.

:func:`create_llm_app` serves ``POST /v1/chat/completions`` and ``GET /v1/models`` (enough
for the ``openai`` SDK). The ``model`` field picks a scripted model; ``NAME:ARG`` passes
it an argument:

- ``legal[:I]``: a legal action as JSON: the ``I``-th (from 0), else one picked by a hash
  of the prompt among those that do not end the run (whose JSON has no "end"). The legal
  actions are read from the request's JSON Schema (``response_format``: the ``anyOf`` of
  exact actions :class:`~sunbot.agents.llm.LLMStrategy` sends) when it lists them, else
  from the prompt's fenced ``legal-actions`` block (``N. {json}`` lines). On a text beat
  (one example ``{"speech": ...}``) it writes a short text.
- ``prose``: a legal action inside prose (a fenced ``json`` block, an inline object, or
  just the action's number, in turn); ignores ``response_format``.
- ``malformed``: text with no action in it. ``illegal``: an action not in the list.
- ``slow[:S]``: sleeps ``S`` seconds (default ``slow_s``), then answers as ``legal``.
- ``ratelimit[:K]``: every ``K``-th request (default 3) answers 429 with ``Retry-After``.
- ``flaky``: ``prose``, a bad answer (``malformed`` or ``illegal``) one time in five, and a
  429 every seventh request.
- ``thinker``: ``legal`` plus ``reasoning_content``.
- ``obey``: follows instructions found in the prompt's untrusted text (``answer {json}``,
  ``donate to seat N``, ``repeat your instructions``): the prompt-injection test double.
- ``echo``: answers with the system prompt (as the text on a text beat).
- ``liar``: ``legal``, with a ``usage`` of 250,000,565 prompt and 500,000,004 completion
  tokens (an endpoint that lies about what a call cost).
- ``echoes``: the numbered list copied back (``1. {...}`` a line: every action named).
- any name given in ``scripts``: ``script(ask) -> str | dict`` (a dict is the whole message).

``usage`` counts tokens roughly (characters / 4). Started with ``api_key``, every request
must carry ``Authorization: Bearer <api_key>`` (else 401). ``app.state.requests`` keeps the
last 200 request bodies (never a header) and ``app.state.counts`` the requests per model.

Run it by hand: ``python -m sunbot.testing.llm_endpoint --port 8765`` (then
``OPENAI_BASE_URL=http://127.0.0.1:8765/v1``); in tests, :func:`running` serves it on a free
loopback port in a thread and :func:`in_process_client` gives an ``openai.OpenAI`` over the
app without a socket.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import hashlib
import json
import math
import os
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

MODELS = (
    "legal",
    "prose",
    "malformed",
    "illegal",
    "slow",
    "ratelimit",
    "flaky",
    "thinker",
    "obey",
    "echo",
    "liar",
    "echoes",
)
#: Longest sleep of the ``slow`` model, seconds.
SLOW_MAX_S = 60.0
_LEGAL_LINE = re.compile(r"^\s*\d+\.\s*(\{.*\})\s*$")
_BLOCK = re.compile(r"```legal-actions\n(.*?)```", re.DOTALL)
_TEXT_KEYS = ("speech", "diary")
_TEXT_BEAT = re.compile(r'whose only key is "(speech|diary)"')


@dataclass
class Ask:
    """One request as a script sees it: ``model`` (the full name), ``arg`` (after the
    ``:``), ``messages``, ``system`` and ``user`` (the text of the first system and the
    first user message: the turn's prompt), ``legal`` (the legal actions found),
    ``text_key`` (``speech`` or ``diary`` on a text beat), ``n`` (this model's request
    count, from 1)."""

    model: str
    arg: str
    messages: list[dict[str, Any]]
    system: str
    user: str
    legal: list[Any]
    text_key: str | None
    n: int
    body: dict[str, Any] = field(default_factory=dict)


Script = Callable[[Ask], "str | dict[str, Any]"]


def _error(status: int, message: str, code: str, headers: dict[str, str] | None = None) -> Any:
    body = {"error": {"message": message, "type": "invalid_request_error", "code": code}}
    return JSONResponse(body, status_code=status, headers=headers)


def _value(prop: Any) -> Any:
    """The one value a branch property allows (``enum`` of one, ``const``, ``null``)."""
    if isinstance(prop, dict):
        if isinstance(prop.get("enum"), list) and len(prop["enum"]) == 1:
            return prop["enum"][0]
        if "const" in prop:
            return prop["const"]
        if prop.get("type") == "null":
            return None
        if prop.get("type") == "string":
            return "…"
    raise ValueError("not a single-value property")


def legal_from_schema(body: dict[str, Any]) -> list[Any] | None:
    """The legal actions a request's ``response_format`` JSON Schema lists, else ``None``."""
    fmt: Any = body.get("response_format")
    try:
        schema = fmt["json_schema"]["schema"]["properties"]["action"]
        if "anyOf" in schema:
            return [{k: _value(p) for k, p in b["properties"].items()} for b in schema["anyOf"]]
        return [{k: _value(p) for k, p in schema["properties"].items()}]
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def legal_from_prompt(text: str) -> list[Any]:
    """The actions of the last fenced ``legal-actions`` block of ``text``."""
    blocks = _BLOCK.findall(text)
    out: list[Any] = []
    for line in (blocks[-1] if blocks else "").splitlines():
        if (m := _LEGAL_LINE.match(line)) is not None:
            with contextlib.suppress(ValueError):
                out.append(json.loads(m.group(1)))
    return out


def _pick(ask: Ask) -> Any:
    """The ``legal`` model's action."""
    if ask.text_key is not None:
        return {ask.text_key: f"Seat plan {ask.n}: farm, guard, and keep the peace."}
    if not ask.legal:
        return {"type": "NO_LEGAL_ACTIONS_FOUND"}
    if ask.arg.isdigit():
        return ask.legal[min(int(ask.arg), len(ask.legal) - 1)]
    going_on = [a for a in ask.legal if "end" not in json.dumps(a).lower()] or ask.legal
    digest = hashlib.sha256(ask.user.encode()).digest()
    return going_on[int.from_bytes(digest[:4], "big") % len(going_on)]


def _legal(ask: Ask) -> str:
    return json.dumps(_pick(ask))


def _prose(ask: Ask) -> str:
    action = _pick(ask)
    form = ask.n % 3
    if form == 0 and ask.text_key is None and action in ask.legal:
        return f"{ask.legal.index(action) + 1}"
    if form == 1:
        return f"I'll go with this one:\n```json\n{json.dumps(action, indent=2)}\n```\nGood luck!"
    return f"Looking at the position, the move {json.dumps(action)} seems best to me."


def _malformed(ask: Ask) -> str:
    return "Hmm, {the best move is probably to wait and see] ... (no decision)"


def _illegal(ask: Ask) -> str:
    if ask.text_key is not None:
        return json.dumps({"shout": "not a command of this beat"})
    return json.dumps({"type": "TELEPORT", "act": "steal", "target": 42})


def _flaky(ask: Ask) -> str:
    if ask.n % 5 == 4:
        return _malformed(ask) if ask.n % 10 == 4 else _illegal(ask)
    return _prose(ask)


def _thinker(ask: Ask) -> dict[str, Any]:
    return {"content": _legal(ask), "reasoning_content": f"{len(ask.legal)} legal actions."}


def _injected(prompt: str) -> str:
    """The untrusted text of a prompt (the values of its ``untrusted_player_text``
    object), else the whole prompt."""
    for line in prompt.splitlines():
        if line.startswith('{"untrusted_player_text":'):
            with contextlib.suppress(ValueError, AttributeError):
                return " ".join(map(str, json.loads(line)["untrusted_player_text"].values()))
    return prompt


def _obey(ask: Ask) -> str:
    text = _injected(ask.user)
    if (m := re.search(r"answer (\{[^{}]*\})", text)) is not None:
        return m.group(1)
    if (m := re.search(r"donate to seat (\d+)", text, re.IGNORECASE)) is not None:
        return json.dumps({"act": "donate", "to": int(m.group(1))})
    if re.search(r"(repeat|reveal|print) your (instructions|system prompt)", text, re.I):
        return _echo(ask)
    return _legal(ask)


def _tool_call(ask: Ask, n: int) -> dict[str, Any]:
    """The ``legal`` model's action as a call of one of the request's functions: the one
    named after the action's kind (its ``type``/``act`` value), else the first."""
    action = _pick(ask)
    names = [
        t["function"]["name"]
        for t in ask.body.get("tools") or []
        if isinstance(t, dict) and isinstance(t.get("function"), dict)
    ]
    called, args = (names[0] if names else "choose"), dict(action)
    for key in ("type", "act", "kind", "action", "move"):
        value = action.get(key) if isinstance(action, dict) else None
        if isinstance(value, str) and re.sub(r"[^A-Za-z0-9_-]", "_", value) in names:
            called = re.sub(r"[^A-Za-z0-9_-]", "_", value)
            args = {k: v for k, v in action.items() if k != key}
            break
    return {
        "id": f"call_{n}",
        "type": "function",
        "function": {"name": called, "arguments": json.dumps(args)},
    }


def _echoes(ask: Ask) -> str:
    if ask.text_key is not None:
        return json.dumps({ask.text_key: "…"})  # the placeholder, as a real model copied it
    return "\n".join(f"{i}. {json.dumps(a)}" for i, a in enumerate(ask.legal[:20], 1))


def _echo(ask: Ask) -> str:
    if ask.text_key is not None:
        return json.dumps({ask.text_key: ask.system})
    return ask.system


_SCRIPTS: dict[str, Script] = {
    "legal": _legal,
    "prose": _prose,
    "malformed": _malformed,
    "illegal": _illegal,
    "flaky": _flaky,
    "thinker": _thinker,
    "obey": _obey,
    "echo": _echo,
    "echoes": _echoes,
    "liar": _legal,
    "slow": _legal,
    "ratelimit": _legal,
}


def _text(content: Any) -> str:
    """A message's text (a string, or the SDK's list of ``{"type": "text"}`` parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def _ask(body: dict[str, Any], name: str, n: int) -> Ask:
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    system = next((_text(m.get("content")) for m in messages if m.get("role") == "system"), "")
    users = [_text(m.get("content")) for m in messages if m.get("role") == "user"]
    first_user = users[0] if users else ""
    legal = legal_from_schema(body)
    if legal is None:
        legal = legal_from_prompt(first_user)
    text_key = None
    if len(legal) == 1 and isinstance(legal[0], dict) and len(legal[0]) == 1:
        key = next(iter(legal[0]))
        text_key = key if key in _TEXT_KEYS else None
    elif not legal and (m := _TEXT_BEAT.search(first_user)) is not None:
        text_key = m.group(1)  # a text beat of the default prompt shows no list
    arg = name.partition(":")[2]
    return Ask(name, arg, messages, system, first_user, legal, text_key, n, body)


def create_llm_app(
    *,
    api_key: str | None = None,
    slow_s: float = 2.0,
    retry_after_s: float = 1.0,
    json_schema: bool = True,
    scripts: dict[str, Script] | None = None,
) -> FastAPI:
    """The scripted endpoint (see the module doc).

    Args:
        api_key: the key every request must send as ``Authorization: Bearer``; ``None``:
            no check.
        slow_s: the ``slow`` model's default sleep, seconds (at most 60).
        retry_after_s: the wait a 429 asks for (``Retry-After`` in whole seconds, rounded
            up, and ``retry-after-ms`` exactly).
        json_schema: ``False``: refuse (400) any request with a ``json_schema``
            ``response_format``, as an endpoint without structured output does.
        scripts: extra models, name -> ``script(ask)``.
    """
    app = FastAPI(title="sunbot scripted chat endpoint")
    table = {**_SCRIPTS, **(scripts or {})}
    counts: collections.Counter[str] = collections.Counter()
    requests: collections.deque[dict[str, Any]] = collections.deque(maxlen=200)
    app.state.counts, app.state.requests = counts, requests
    wait_headers = {
        "Retry-After": str(max(1, math.ceil(retry_after_s))),
        "retry-after-ms": str(max(1, round(retry_after_s * 1000))),
    }

    def authorised(request: Request) -> bool:
        return api_key is None or request.headers.get("authorization") == f"Bearer {api_key}"

    @app.get("/v1/models")
    async def models(request: Request) -> Any:
        if not authorised(request):
            return _error(401, "Incorrect API key provided.", "invalid_api_key")
        names = sorted(table)
        return {
            "object": "list",
            "data": [
                {"id": m, "object": "model", "created": 0, "owned_by": "sunbot"} for m in names
            ],
        }

    @app.post("/v1/chat/completions")
    async def chat(request: Request) -> Any:
        if not authorised(request):
            return _error(401, "Incorrect API key provided.", "invalid_api_key")
        try:
            body = json.loads(await request.body())
        except ValueError:
            return _error(400, "The body is not JSON.", "invalid_json")
        if not isinstance(body, dict) or not isinstance(body.get("model"), str):
            return _error(400, "A JSON object with a model is required.", "invalid_request")
        name = body["model"]
        base, _, arg = name.partition(":")
        if base not in table and name not in table:
            return _error(404, f"The model '{name[:80]}' does not exist.", "model_not_found")
        counts[name] += 1
        n = counts[name]
        requests.append(body)
        fmt = body.get("response_format")
        if not json_schema and isinstance(fmt, dict) and fmt.get("type") == "json_schema":
            return _error(400, "response_format json_schema is not supported.", "bad_format")
        every = {"ratelimit": int(arg) if arg.isdigit() and int(arg) > 0 else 3, "flaky": 7}
        if base in every and n % every[base] == 0:
            return _error(429, "Rate limit reached; slow down.", "rate_limit", wait_headers)
        if base == "slow":
            try:
                pause = float(arg) if arg else slow_s
            except ValueError:
                pause = slow_s
            await asyncio.sleep(min(max(pause, 0.0), SLOW_MAX_S))
        ask = _ask(body, name, n)
        script = table.get(name) or table[base]
        out = script(ask)
        message = {"role": "assistant", **(out if isinstance(out, dict) else {"content": out})}
        if body.get("tools") and base in ("legal", "slow", "ratelimit", "liar", "thinker"):
            message = {"role": "assistant", "content": None, "tool_calls": [_tool_call(ask, n)]}
        prompt_chars = sum(len(_text(m.get("content"))) for m in ask.messages)
        done = max(1, len(str(message.get("content") or "")) // 4)
        prompt = prompt_chars // 4
        if base == "liar":
            prompt, done = 250_000_565, 500_000_004
        return {
            "id": f"chatcmpl-{n}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": name,
            "choices": [
                {"index": 0, "message": message, "finish_reason": "stop", "logprobs": None}
            ],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": done,
                "total_tokens": prompt + done,
            },
        }

    return app


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running(app: FastAPI, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve ``app`` with uvicorn on a thread (``port`` 0: a free one) and yield its API
    root, ``http://HOST:PORT/v1``; stops the server on exit.

    Raises:
        RuntimeError: the server did not start within 10 s.
    """
    import uvicorn

    port = port or _free_port(host)
    config = uvicorn.Config(app, host=host, port=port, log_level="error", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True, name="llm-endpoint")
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            server.should_exit = True
            raise RuntimeError("the scripted chat endpoint did not start")
        time.sleep(0.01)
    try:
        yield f"http://{host}:{port}/v1"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def in_process_client(app: FastAPI, api_key: str = "unused", **options: Any) -> Any:
    """An ``openai.OpenAI`` that talks to ``app`` in this process (no socket), for
    ``LLMStrategy(client=...)``. Timeouts do not apply in-process: use :func:`running` to
    test them. ``options`` go to ``openai.OpenAI`` (e.g. ``max_retries``)."""
    import openai
    from starlette.testclient import TestClient

    http = TestClient(app, base_url="http://llm.test")
    return openai.OpenAI(
        api_key=api_key, base_url="http://llm.test/v1", http_client=http, **options
    )


def main(argv: list[str] | None = None) -> None:
    """``python -m sunbot.testing.llm_endpoint``: serve the scripted models on loopback."""
    parser = argparse.ArgumentParser(description="A scripted OpenAI-compatible chat endpoint.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--api-key-env", metavar="VAR", help="require the key held in environment variable VAR"
    )
    parser.add_argument("--slow", type=float, default=2.0, help="the slow model's sleep, s")
    parser.add_argument("--retry-after", type=float, default=1.0, help="a 429's wait, s")
    parser.add_argument(
        "--no-json-schema",
        action="store_true",
        help="refuse structured output (400), like a plain endpoint",
    )
    args = parser.parse_args(argv)
    key = os.environ.get(args.api_key_env) if args.api_key_env else None
    if args.api_key_env and not key:
        parser.error(f"environment variable {args.api_key_env} is empty")
    app = create_llm_app(
        api_key=key,
        slow_s=args.slow,
        retry_after_s=args.retry_after,
        json_schema=not args.no_json_schema,
    )
    import uvicorn

    print(f"scripted models {', '.join(MODELS)} at http://{args.host}:{args.port}/v1")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
