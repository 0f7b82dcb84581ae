"""``python -m sunbot.testing.otherserver``: serve the other server on loopback."""

from __future__ import annotations

import argparse

from sunbot.testing.otherserver.app import create_other_app
from sunbot.testing.otherserver.bugs import BUGS
from sunbot.testing.otherserver.options import OtherOptions
from sunbot.testing.otherserver.variants import VARIANTS


def main(argv: list[str] | None = None) -> None:
    """Parse the options and serve another Gameboard-compatible server (other local
    choices) for manual trials, until Ctrl-C."""
    parser = argparse.ArgumentParser(
        prog="python -m sunbot.testing.otherserver",
        description="Serve another Gameboard-compatible server (other local choices).",
    )
    parser.add_argument("--port", type=int, default=8001, help="TCP port on 127.0.0.1")
    parser.add_argument(
        "--bug", action="append", default=[], help=f"plant a rule bug: {', '.join(BUGS)}"
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        help=f"another faithful reading: {', '.join(VARIANTS)}",
    )
    parser.add_argument(
        "--throttle-every", type=int, default=7, help="a 429 on every n-th request (0: never)"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.port <= 65535:
        parser.error("--port must be 1..65535")
    unknown = sorted(set(args.bug) - set(BUGS))
    odd = sorted(set(args.variant) - set(VARIANTS))
    if unknown:
        parser.error(f"unknown bug {', '.join(unknown)}")
    if odd:
        parser.error(f"unknown variant {', '.join(odd)}")
    if args.throttle_every < 0 or args.throttle_every == 1:
        parser.error("--throttle-every must be 0 or at least 2")
    opts = OtherOptions(
        bugs=frozenset(args.bug),
        variants=frozenset(args.variant),
        throttle_every=args.throttle_every,
    )
    app = create_other_app(opts)
    import uvicorn

    print(f"other Gameboard server on http://127.0.0.1:{args.port}/api/games")
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":  # pragma: no cover
    main()
