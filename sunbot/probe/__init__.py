"""``sunbot probe URL``'s library half: what a Gameboard server serves, game by game
(:mod:`~sunbot.probe.report`), and the action-grammar checks it runs
(:mod:`~sunbot.probe.grammar`)."""
