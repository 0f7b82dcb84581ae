"""Harvest Watch: a server may list seats already out in speeches and votes, but only with
what their empty command list gives (issue 11, point 3)."""

from __future__ import annotations

from sunbot.engines.harvest_watch import ELLIPSIS
from sunbot.mirror import UNKNOWN_FIELD, Finding
from sunbot.mirror.harvest_watch import _out_seats_listed


def _unknown(path, got):
    return Finding(path, "<missing>", got, UNKNOWN_FIELD)


def test_an_out_seat_listed_with_the_ellipsis_or_an_abstention_is_accepted():
    found = [_unknown("data.summary.speeches1.3", ELLIPSIS)]
    assert _out_seats_listed(found, "speeches1", [0, 1, 2]) == []
    found = [_unknown("data.summary.votes.3", {"punish": None})]
    assert _out_seats_listed(found, "votes", [0, 1, 2]) == []


def test_an_out_seat_that_speaks_or_votes_is_a_divergence():
    (f,) = _out_seats_listed([_unknown("data.summary.speeches2.3", "hi")], "speeches2", [0, 1])
    assert (f.path, f.expected, f.got) == ("data.summary.speeches2.3", ELLIPSIS, "hi")
    ballot = {"punish": 0, "giveTo": 1}
    (f,) = _out_seats_listed([_unknown("data.summary.votes.3", ballot)], "votes", [0, 1])
    assert f.expected == {"punish": None} and f.got == ballot


def test_a_living_seat_and_other_findings_are_kept():
    living = _unknown("data.summary.votes.1", {"punish": None})
    other = Finding("data.summary.food", 2.0, 3.0)
    assert _out_seats_listed([living, other], "votes", [0, 1]) == [living, other]
    assert _out_seats_listed([living], None, [0]) == [living]
