"""The matches one local server holds, and the limits that keep one client from taking
them all (issue 12 case 8).

- At most :data:`MAX_OPEN_MATCHES` held at once (running, or finished and kept
  :data:`~sunbot.server.match_state.KEEP_DONE_MS` for late viewers). When that is reached,
  a create drops the finished match that ended first (its late viewers get 404 sooner);
  only when every held match is still live is the create refused (429
  ``too_many_matches``).
- At most :data:`MAX_LIVE_PER_CLIENT` live (starting or running) matches created by one
  client, told apart by its socket's peer address (``sunbot serve`` ignores
  ``X-Forwarded-For``, :func:`~sunbot.server.serving.serve_config`); past it, 429
  ``too_many_matches_from_client``. Finished matches do not count, so a client that plays
  many short matches one after another is never refused.

Together: one client cannot fill the server; the cap is reached only by
``MAX_OPEN_MATCHES / MAX_LIVE_PER_CLIENT`` clients each at its own limit.
"""

from __future__ import annotations

from sunbot.server.match_state import KEEP_DONE_MS, SWEEP_EVERY_MS, Match

#: Most matches one server holds at once (running and finished-but-kept): creates in a
#: loop cannot grow the server's memory without bound.
MAX_OPEN_MATCHES = 1_000
#: Most live (starting or running) matches one client may have created: a tenth of the
#: server, so no one client can fill it.
MAX_LIVE_PER_CLIENT = 100


class MatchRegistry:
    """Every match this server holds, by id, and who created it.

    A finished match is kept ``keep_ms`` after it ended (:data:`KEEP_DONE_MS`), then
    dropped: the routes drop it when they meet it expired, and :meth:`sweep` (run by every
    route, at most once per :data:`SWEEP_EVERY_MS` of clock time) catches up and drops the
    ones nobody asks about, so abandoned matches do not pile up either. See the module
    doc for ``max_open`` and ``max_live_per_client``.
    """

    def __init__(
        self,
        keep_ms: int = KEEP_DONE_MS,
        max_open: int = MAX_OPEN_MATCHES,
        max_live_per_client: int = MAX_LIVE_PER_CLIENT,
    ) -> None:
        self.matches: dict[str, Match] = {}
        self.owners: dict[str, str] = {}
        self.keep_ms = keep_ms
        self.max_open = max_open
        self.max_live_per_client = max_live_per_client
        self.swept_at: int | None = None

    def full(self) -> bool:
        """Whether the registry holds ``max_open`` matches (no create until one goes)."""
        return len(self.matches) >= self.max_open

    def make_room(self, now: int) -> bool:
        """Whether one more match fits at ``now``; when the registry is full, the finished
        match that ended first is dropped to make room. ``False``: every held match is
        live."""
        if not self.full():
            return True
        done = [m for m in self.matches.values() if m.finished_at is not None]
        if not done:
            return False
        self.drop(min(done, key=lambda m: m.finished_at or 0).match_id)
        return True

    def live_of(self, owner: str, now: int) -> int:
        """Matches created by ``owner`` that are not finished at ``now`` (each caught up
        to ``now`` first, unless a request holds its lock)."""
        live = 0
        for match_id, who in self.owners.items():
            match = self.matches.get(match_id)
            if who != owner or match is None:
                continue
            if not match.lock.locked():
                match.catch_up(now)
            live += match.status != "done"
        return live

    def client_full(self, owner: str, now: int) -> bool:
        """Whether ``owner`` has ``max_live_per_client`` live matches at ``now``."""
        return self.live_of(owner, now) >= self.max_live_per_client

    def add(self, match: Match, owner: str | None = None) -> None:
        """Register ``match`` under its id, created by ``owner`` (a peer address)."""
        self.matches[match.match_id] = match
        if owner is not None:
            self.owners[match.match_id] = owner

    def get(self, match_id: str) -> Match | None:
        """The match with this id, or ``None`` (unknown or dropped)."""
        return self.matches.get(match_id)

    def drop(self, match_id: str) -> None:
        """Forget a match (a no-op for an unknown id)."""
        self.matches.pop(match_id, None)
        self.owners.pop(match_id, None)

    def sweep(self, now: int) -> list[str]:
        """Catch every idle match up to ``now`` and drop the expired ones; returns their ids.

        Catching up is what a request would do anyway (each beat resolves at its own
        deadline, whenever it is computed), so it changes nothing a seat can see. A match
        whose lock is held is left for its request. Runs at most once per
        :data:`SWEEP_EVERY_MS`; earlier calls return ``[]``.
        """
        if self.swept_at is not None and now - self.swept_at < SWEEP_EVERY_MS:
            return []
        self.swept_at = now
        gone = []
        for match_id, match in list(self.matches.items()):
            if match.lock.locked():
                continue
            match.catch_up(now)
            if match.expired(now, self.keep_ms):
                gone.append(match_id)
                self.drop(match_id)
        return gone
