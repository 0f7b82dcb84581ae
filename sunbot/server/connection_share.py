"""Each client's share of ``sunbot serve``'s connections: which one to close when full.

A client is a peer address, as for the per-client match limit
(:mod:`sunbot.server.match_registry`): the socket's peer, never ``X-Forwarded-For``. When
the server holds more connections than its budget
(:func:`sunbot.server.serving.connection_budget`), a new connection closes a *waiting* one
(one that has not sent a whole request: fresh, half-sent, or idle between keep-alive
requests; never one being answered). It is the oldest waiting connection of the peer that
holds the most waiting connections (ties: the peer whose oldest one has waited longest).
So one address holding hundreds of half-sent heads gives up its own connections first,
and a client with a few connections keeps them however many the other holds.

What it does not do: every client on one address is one peer, so on loopback (all of
127.0.0.1) a local crowd and a local attacker share one share, and the oldest waiting
connection among them goes first, as before. It does not bound how fast a peer connects
(the accept loop and the CPU stay its to spend) and it counts each address on its own
(an IPv6 host with many addresses counts as many clients).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

C = TypeVar("C")


def connection_to_shed(
    waiting: Iterable[C], peer: Callable[[C], str], since: Callable[[C], float]
) -> C | None:
    """The connection to close among ``waiting`` (each waiting for a request), or ``None``
    when there is none.

    ``peer(c)`` is its client's address (any string; connections whose peer is unknown
    share ``""``); ``since(c)`` when it began to wait, in one clock's seconds. The pick
    is the oldest waiting connection of the peer with the most waiting connections; among
    peers with as many, the one whose oldest connection has waited longest.
    """
    by_peer: dict[str, list[C]] = {}
    for conn in waiting:
        by_peer.setdefault(peer(conn), []).append(conn)
    if not by_peer:
        return None
    oldest = {address: min(conns, key=since) for address, conns in by_peer.items()}
    widest = max(by_peer, key=lambda address: (len(by_peer[address]), -since(oldest[address])))
    return oldest[widest]
