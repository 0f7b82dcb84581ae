"""``python -m sunbot.testing.unseen --port N``: serve the unseen games on loopback."""

from __future__ import annotations

import argparse

from sunbot.testing.unseen.app import SALT, create_unseen_app


def main(argv: list[str] | None = None) -> None:
    """Parse the options and serve until Ctrl-C."""
    parser = argparse.ArgumentParser(
        prog="python -m sunbot.testing.unseen",
        description="Serve three games sunbot has no engine for (tests, manual trials).",
    )
    parser.add_argument("--port", type=int, default=8002, help="TCP port on 127.0.0.1")
    parser.add_argument(
        "--rate-limit-every", type=int, default=0, help="a 429 on every k-th request (0: never)"
    )
    parser.add_argument("--seed-salt", default=SALT, help="varies every seeded draw")
    args = parser.parse_args(argv)
    if not 1 <= args.port <= 65535:
        parser.error("--port must be 1..65535")
    try:
        app = create_unseen_app(rate_limit_every=args.rate_limit_every, seed_salt=args.seed_salt)
    except ValueError as exc:
        parser.error(str(exc))
    import uvicorn

    print(f"unseen games on http://127.0.0.1:{args.port}/api/games")
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":  # pragma: no cover
    main()
