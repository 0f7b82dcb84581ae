"""Keelhold's chain and lot count are the mirror's own (issue 11): the rule text defines the
chain C = 2..8 and the quota of lots but never shows either, so a server's encoding of them
is neither compared nor fed into the awards the mirror recomputes."""

from __future__ import annotations

import copy

from sunbot.engines import keelhold as kh
from sunbot.mirror import Mirror
from tests.mirror.test_mirror import honest_run


def _recoded(resp, chain, lots):
    out = copy.deepcopy(resp)
    for part in ("state", "observation"):
        out[part]["chain"], out[part]["lotsShipped"] = chain, lots
    return out


def _shipping_run():
    """An honest run of seed 7 in which lots ship on consecutive turns (the chain grows)."""
    run = honest_run(7, 200)
    chains = [r["state"]["chain"] for _, r in run]
    assert max(chains) >= 2  # the awards of this run depend on the chain
    return run


def test_another_encoding_of_chain_and_lots_is_not_a_divergence():
    run = _shipping_run()
    m = Mirror("keelhold")
    # C itself (2..8, 0 after a dry turn) and the run's lot total counted from 1000
    shown = [
        _recoded(r, r["state"]["chain"] + 1 if r["state"]["chain"] else 0, 1000 + i)
        for i, (_, r) in enumerate(run)
    ]
    assert m.check_init(shown[0]) == []
    for i in range(1, len(run)):
        assert m.check_action(i, shown[i - 1], run[i][0], shown[i]) == []
    assert not m.unknown_fields


def test_a_served_chain_never_feeds_the_award():
    """A server showing chain 7 (C = 8) before every lot: had the mirror read it, the next
    lot's award would be recomputed at C = 8 and the honest score flagged."""
    run = _shipping_run()
    m = Mirror("keelhold")
    shown = [_recoded(r, kh.CHAIN_CAP, 0) for _, r in run]
    assert m.check_init(shown[0]) == []
    found = [
        d for i in range(1, len(run)) for d in m.check_action(i, shown[i - 1], run[i][0], shown[i])
    ]
    assert found == []
    # and a real score error is still caught after the recoded fields
    bad = copy.deepcopy(shown[-1])
    bad["score"] += 1
    m2 = Mirror("keelhold")
    m2.warm(shown[0], [(a, r) for (a, _), r in zip(run[1:-1], shown[1:-1], strict=True)])
    assert [d.path for d in m2.check_action(len(run) - 1, shown[-2], run[-1][0], bad)] == ["score"]
