"""Every platform endpoint the client calls, in one table (the platform protocol,
Harvest Watch §2 "Match protocol over HTTP"). Live endpoints may differ from the local server's:
change them here and nowhere else."""

from __future__ import annotations

from typing import NamedTuple


class Route(NamedTuple):
    """An endpoint: HTTP method and a path template with ``{placeholders}``."""

    method: str
    path: str

    def url(self, **params: str) -> str:
        """The path with its placeholders filled in."""
        return self.path.format(**params)


ROUTES: dict[str, Route] = {
    "games": Route("GET", "/api/games"),
    "spec": Route("GET", "/api/games/{slug}/spec"),
    "init": Route("GET", "/api/games/{slug}/init"),
    "action": Route("POST", "/api/games/{slug}/action"),
    "match_create": Route("POST", "/api/matches/{slug}"),
    "match_join": Route("POST", "/api/matches/{match_id}/join"),
    "match_view": Route("GET", "/api/matches/{match_id}"),
    "match_commands": Route("POST", "/api/matches/{match_id}/commands"),
}
