"""What the other server does besides following the rules: :class:`OtherOptions` (its
planted bugs, its variants, its throttling and its key), read by the app and the match
routes alike."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sunbot.testing.otherserver.bugs import BUGS, Bug
from sunbot.testing.otherserver.variants import VARIANTS, Variant

#: Fields of a served state that say where a run is (to find a bug's first touch).
WHERE: dict[str, tuple[str, ...]] = {
    "keelhold": ("voyage", "turn", "phase"),
    "sunloaf": ("day", "turn", "phase"),
    "naptuft": ("day", "moment", "phase"),
    "harvest-watch": ("round",),
}


@dataclass
class OtherOptions:
    """What the other server does besides following the rules.

    Attributes:
        bugs: names from :data:`~sunbot.testing.otherserver.bugs.BUGS` to plant.
        variants: names from :data:`~sunbot.testing.otherserver.variants.VARIANTS`: other
            readings of what the rule texts leave open (never divergences);
            ``variant_hits`` fills with those that acted.
        throttle_every: a 429 on every n-th ``/api/`` request (0: none; else >= 2).
        key: the HMAC key of signed tokens and seals (random when ``None``).
    """

    bugs: frozenset[str] = frozenset()
    variants: frozenset[str] = frozenset()
    throttle_every: int = 7
    key: bytes | None = None
    bug_hits: list[dict[str, Any]] = field(default_factory=list)
    variant_hits: set[str] = field(default_factory=set)

    def planted(self, slug: str) -> list[Bug]:
        """The planted bugs of game ``slug``.

        Raises:
            KeyError: an unknown bug name.
        """
        return [BUGS[name] for name in sorted(self.bugs) if BUGS[name].slug == slug]

    def varied(self, slug: str) -> list[Variant]:
        """The chosen variants of game ``slug``.

        Raises:
            KeyError: an unknown variant name.
        """
        return [VARIANTS[name] for name in sorted(self.variants) if VARIANTS[name].slug == slug]

    def vary(self, slug: str, before: dict[str, Any] | None, after: dict[str, Any]) -> None:
        """Apply the chosen variants of ``slug`` that change a position, in place."""
        for variant in self.varied(slug):
            if variant.state is not None and variant.state(before, after):
                self.variant_hits.add(variant.name)

    def show(self, slug: str, shown: dict[str, Any]) -> None:
        """Apply the chosen variants of ``slug`` that change what is served, in place."""
        for variant in self.varied(slug):
            if variant.served is not None and variant.served(shown):
                self.variant_hits.add(variant.name)

    def record(self, bug: Bug, state: dict[str, Any]) -> None:
        """Remember the first position each bug touched (``{bug, where}``)."""
        if not any(h["bug"] == bug.name for h in self.bug_hits):
            where = {k: state.get(k) for k in WHERE[bug.slug]}
            self.bug_hits.append({"bug": bug.name, "field": bug.field, "where": where})
