"""What a game's mirror hooks module (``sunbot/mirror/<game>.py``) gives the mirror.

:class:`MirrorHooks` is the part every hooks module has (a protocol, so mypy holds each
module to it: :mod:`sunbot.testing.conformance`). All take and return plain JSON values.
The mirror also reads these when a module defines them:

- ``complete(state, *, opening) -> state``: a server's position with what the mirror
  tracks itself filled in (a field the text never promises, taken from our own replay).
- ``expected_envelope(expected_state) -> dict``: the envelope fields to compare (default:
  ``legalActions``, ``score``, ``gameOver``, ``observation`` from the engine).
- ``our_spelling(position) -> None``: rewrites in place a server's state or observation
  (already stripped of unknown keys) where the rule text allows two spellings of the same
  thing (a null field left out, a list in another order), so that only real differences
  reach the comparison.
- ``legal_order(got_legal) -> list[Finding]``: what the rule text fixes of the order of
  ``legalActions`` (checked once the set is right; by default order is free).
- ``numbering(opening) -> dict[str, int]``: constant offsets of counters whose numbering the
  text leaves open, learned from the opening position.
- ``PROMISED``, ``NOT_PROMISED``: the field patterns the rule text promises, and the parts
  of those it does not (a missing field is a divergence only when promised); ``TRACKED``:
  top-level fields whose encoding the text does not fix, never read from a server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the mirror imports this module, not the reverse
    from sunbot.mirror import Finding


class MirrorHooks(Protocol):
    """The hooks every game's mirror module defines."""

    def template_states(self) -> list[dict[str, Any]]:
        """Positions of the game whose keys are every key our rules define (the mirror
        learns from them which fields of a server's answer are known)."""
        ...

    def check_initial(self, state: dict[str, Any], /) -> list[Finding]:
        """The opening position's shape and the fields the rules derive from it."""
        ...

    def expected_after(
        self, prev: dict[str, Any], action: Any, got: dict[str, Any], /
    ) -> tuple[dict[str, Any], list[Finding]]:
        """The position the rules give for ``action`` from ``prev`` (adopting from ``got``
        only what the rules leave to chance), and the findings made on the way.

        Raises:
            IllegalAction: the rules refuse ``action``.
        """
        ...


__all__ = ["MirrorHooks"]
