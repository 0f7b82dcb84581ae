"""``python -m sunbot.testing.platform --port N``: serve the platform's test games on
loopback."""

from __future__ import annotations

import argparse

from sunbot.testing.platform.app import CHECKERS_DEPTH, SALT, create_platform_app


def main(argv: list[str] | None = None) -> None:
    """Parse the options and serve until Ctrl-C."""
    parser = argparse.ArgumentParser(
        prog="python -m sunbot.testing.platform",
        description="Serve test copies of fourteen of the platform's games (tests, trials).",
    )
    parser.add_argument("--port", type=int, default=8003, help="TCP port on 127.0.0.1")
    parser.add_argument(
        "--rate-limit-every", type=int, default=0, help="a 429 on every k-th request (0: never)"
    )
    parser.add_argument("--retry-after", type=int, default=1, help="the 429s' Retry-After (s)")
    parser.add_argument("--seed-salt", default=SALT, help="varies every seeded draw")
    parser.add_argument(
        "--checkers-depth", type=int, default=CHECKERS_DEPTH, help="G-Bot's checkers plies"
    )
    parser.add_argument(
        "--word-guess-menu",
        action="store_true",
        help="list every dictionary word as a legal guess (the live game lists none)",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.port <= 65535:
        parser.error("--port must be 1..65535")
    if args.retry_after < 0:
        parser.error("--retry-after must be 0 or more")
    try:
        app = create_platform_app(
            rate_limit_every=args.rate_limit_every,
            retry_after_s=args.retry_after,
            seed_salt=args.seed_salt,
            checkers_depth=args.checkers_depth,
            word_guess_menu=args.word_guess_menu,
        )
    except ValueError as exc:
        parser.error(str(exc))
    import uvicorn

    print(f"platform games on http://127.0.0.1:{args.port}/api/games")
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":  # pragma: no cover
    main()
