"""The writes of one event-loop pass leave as one (an answer's head and body in one send);
closing sends what is held first, aborting drops it, and a large body is not held."""

from __future__ import annotations

import asyncio

from sunbot.server.batched_writes import FLUSH_AT, BatchedWrites


class _Recording(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = self.aborted = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.aborted = True

    def is_closing(self) -> bool:
        return self.closed or self.aborted

    def get_write_buffer_size(self) -> int:
        return 0


async def test_one_pass_of_writes_is_one_write():
    inner = _Recording()
    out = BatchedWrites(inner, asyncio.get_running_loop())
    out.write(b"HTTP/1.1 200 OK\r\n\r\n")
    out.write(b"")
    out.write(b'{"ok":true}')
    assert inner.writes == []
    await asyncio.sleep(0)
    assert inner.writes == [b'HTTP/1.1 200 OK\r\n\r\n{"ok":true}']
    out.write(b"next")
    await asyncio.sleep(0)
    assert inner.writes[1:] == [b"next"]


async def test_close_sends_what_is_held_and_abort_drops_it():
    inner = _Recording()
    out = BatchedWrites(inner, asyncio.get_running_loop())
    out.write(b"408")
    out.close()
    assert inner.writes == [b"408"] and inner.closed
    other = _Recording()
    out = BatchedWrites(other, asyncio.get_running_loop())
    out.write(b"lost")
    out.abort()
    await asyncio.sleep(0)
    assert other.writes == [] and other.aborted


async def test_a_large_body_is_written_at_once():
    inner = _Recording()
    out = BatchedWrites(inner, asyncio.get_running_loop())
    out.write(b"h")
    out.write(b"b" * FLUSH_AT)
    assert inner.writes == [b"h" + b"b" * FLUSH_AT]
    assert out.get_write_buffer_size() == 0
