"""``python -m sunbot``: the same as the ``sunbot`` command."""

from sunbot.cli import run_cli

run_cli()
