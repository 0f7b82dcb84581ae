"""Harvest Watch ``data.pending`` (the rule text's Platform section: the commands this seat
stored, present until the beat resolves): a server that drops or changes it while the beat
is open diverges; one that numbers, paces and words things its own way does not."""

from __future__ import annotations

import copy
from typing import Any

from tests.mirror.test_foreign_harvest_watch import Event, check, foreign, record_match


def _stored_views(events: list[Event]) -> list[int]:
    """Indexes of running views, after a confirmed store, that still show that beat."""
    out: list[int] = []
    sent: dict[int, Any] = {}
    for i, (seat, kind, rec) in enumerate(events):
        if kind == "command" and isinstance(rec.get("answer"), dict) and rec["answer"]["ok"]:
            sent[seat] = rec["round"]
        elif (
            kind == "view"
            and rec.get("status") == "running"
            and rec["data"]["round"] == sent.get(seat)
            and "pending" in rec["data"]
        ):
            out.append(i)
    return out


async def test_pending_dropped_or_changed_while_the_beat_is_open_diverges() -> None:
    events = foreign(await record_match())
    assert all(m.divergences == [] for m in check(events).values())
    shown = _stored_views(events)
    assert len(shown) > 20
    dropped: list[Event] = copy.deepcopy(events)
    seat, _, rec = dropped[shown[3]]
    sent = rec["data"].pop("pending")
    found = [(d.path, d.expected, d.got) for d in check(dropped)[seat].divergences]
    assert ("data.pending", sent, None) in found
    changed: list[Event] = copy.deepcopy(events)
    seat, _, rec = changed[shown[5]]
    rec["data"]["pending"] = [{"speech": "not what we sent"}] + rec["data"]["pending"]
    paths = {d.path for d in check(changed)[seat].divergences}
    assert "data.pending" in paths
