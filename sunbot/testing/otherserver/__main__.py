"""``python -m sunbot.testing.otherserver``: serve the other server on loopback."""

from __future__ import annotations

from typing import Annotated

import typer

from sunbot.testing.otherserver.app import create_other_app
from sunbot.testing.otherserver.bugs import BUGS
from sunbot.testing.otherserver.options import OtherOptions
from sunbot.testing.otherserver.variants import VARIANTS


def serve(
    port: Annotated[int, typer.Option(min=1, max=65535, help="TCP port on 127.0.0.1.")] = 8001,
    bug: Annotated[
        list[str] | None, typer.Option(help=f"Plant a rule bug (repeatable): {', '.join(BUGS)}.")
    ] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option(help=f"Another faithful reading (repeatable): {', '.join(VARIANTS)}."),
    ] = None,
    throttle_every: Annotated[
        int, typer.Option(min=0, help="A 429 on every n-th request (0: never; else >= 2).")
    ] = 7,
) -> None:
    """Serve another Gameboard-compatible server (other local choices) for manual trials."""
    import uvicorn

    unknown = sorted(set(bug or []) - set(BUGS))
    odd = sorted(set(variant or []) - set(VARIANTS))
    if unknown or odd or throttle_every == 1:
        what = (
            f"unknown bug {', '.join(unknown)}"
            if unknown
            else f"unknown variant {', '.join(odd)}"
            if odd
            else "--throttle-every 1"
        )
        raise typer.BadParameter(what)
    opts = OtherOptions(
        bugs=frozenset(bug or []), variants=frozenset(variant or []), throttle_every=throttle_every
    )
    app = create_other_app(opts)
    typer.echo(f"other Gameboard server on http://127.0.0.1:{port}/api/games")
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":  # pragma: no cover
    typer.run(serve)
