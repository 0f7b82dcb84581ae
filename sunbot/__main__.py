"""``python -m sunbot``: the same as the ``sunbot`` command."""

from sunbot.cli.main import main

main()
