"""Is a served spec the spec of the game asked for? (issue 26 case 6)

A server that answers ``GET /api/games/keelhold/spec`` (or Keelhold's init) with another
game's spec would have ``sunbot rules`` print that game's rules under Keelhold's name, and a
bot read the wrong grammar. :func:`check_spec` compares what the answer says of its game
with the game asked for:

- ``slug``: the answer's own ``slug`` and its ``spec.slug`` (a spec route's answer; an init
  answer: ``slug`` and ``spec.slug``), compared without regard to case;
- ``name``: the answer's ``name`` and ``spec.name``, compared without regard to case or
  runs of spaces, only where the index gave a name for the slug (``expected_name``) and
  only for a spec route's answer (an envelope's ``name`` may mean something else).

Servers word their answers differently: a field that is absent, or not a string, is not a
mismatch; it is *not checked* (:attr:`SpecCheck.checked` says what was).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sunbot._text.safe import safe
from sunbot._text.terminal import printable
from sunbot.client.retry import ClientError

__all__ = ["SpecCheck", "WrongGame", "check_spec"]


class WrongGame(ClientError):
    """A served spec names another game than the one asked for (not retried)."""


@dataclass(frozen=True)
class SpecCheck:
    """What :func:`check_spec` found.

    Attributes:
        checked: the fields compared (``("slug",)``, ``("slug", "name")``; ``()``: the
            answer names no game: not checked).
        mismatch: the one-line reason when a field names another game, else ``None``.
    """

    checked: tuple[str, ...]
    mismatch: str | None = None

    @property
    def said(self) -> str:
        """``checked (slug, name)``, ``not checked (the answer names no game)``, or the
        mismatch."""
        if self.mismatch is not None:
            return self.mismatch
        if not self.checked:
            return "not checked (the answer names no game)"
        return f"checked ({', '.join(self.checked)})"

    def raise_if_wrong(self) -> None:
        """Raises :class:`WrongGame` with :attr:`mismatch`, if any."""
        if self.mismatch is not None:
            raise WrongGame(self.mismatch)


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _shown(text: str) -> str:
    return printable(safe(repr(text), 80))


def check_spec(
    answer: Any,
    slug: str,
    expected_name: str | None = None,
    *,
    where: str = "spec route",
) -> SpecCheck:
    """Compare ``answer`` (a decoded spec route or init answer) with the game ``slug``.

    Args:
        answer: the decoded JSON answer (anything: only objects are looked into).
        slug: the slug asked for.
        expected_name: the game's name as the server's index gives it, if known.
        where: ``"spec route"`` or ``"init answer"`` (names are compared only for the
            first; it also words the reason).

    Returns:
        A :class:`SpecCheck`; its ``mismatch`` reads like ``the spec route of 'keelhold'
        answered for 'sunloaf'``.
    """
    if not isinstance(answer, dict):
        return SpecCheck(())
    spec = answer.get("spec")
    places: list[dict[str, Any]] = [answer] + ([spec] if isinstance(spec, dict) else [])
    checked: list[str] = []
    for place in places:
        given = place.get("slug")
        if isinstance(given, str):
            checked.append("slug")
            if given.casefold() != slug.casefold():
                return SpecCheck(
                    ("slug",), f"the {where} of {_shown(slug)} answered for {_shown(given)}"
                )
    if expected_name is not None and where == "spec route":
        for place in places:
            given = place.get("name")
            if isinstance(given, str):
                checked.append("name")
                if _norm(given) != _norm(expected_name):
                    return SpecCheck(
                        ("name",),
                        f"the {where} of {_shown(slug)} answered for a game named "
                        f"{_shown(given)}, not {_shown(expected_name)} as the index names it",
                    )
    return SpecCheck(tuple(dict.fromkeys(checked)))
