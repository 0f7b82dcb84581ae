"""A transport whose writes within one pass of the event loop leave as one send.

uvicorn writes an answer's head and its body separately, each a system call and, on
loopback, a wake-up of the client for half an answer. :class:`BatchedWrites` wraps the
connection's transport: a write is held until the end of the loop's current pass (or
until :data:`FLUSH_AT` bytes are held, so flow control still sees large bodies at once),
and then everything held goes to the transport in one ``write``. Closing sends what is
held first; aborting drops it, as aborting does.
"""

from __future__ import annotations

import asyncio
from typing import Any

#: Bytes held before they are written at once, without waiting for the end of the pass.
FLUSH_AT = 64 * 1024


class BatchedWrites(asyncio.Transport):
    """``transport`` with its writes of one event-loop pass joined into one.

    Args:
        transport: the connection's transport (every call but the writes goes to it).
        loop: the loop that runs the connection.
    """

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._transport = transport
        self._loop = loop
        self._held: list[bytes] = []
        self._size = 0

    def write(self, data: bytes | bytearray | memoryview) -> None:
        """Hold ``data`` until the end of this pass of the loop (or :data:`FLUSH_AT`)."""
        if not data:
            return
        if not self._held:
            self._loop.call_soon(self.flush)
        self._held.append(bytes(data))
        self._size += len(data)
        if self._size >= FLUSH_AT:
            self.flush()

    def writelines(self, list_of_data: Any) -> None:
        """Hold each of ``list_of_data`` (:meth:`write`)."""
        for data in list_of_data:
            self.write(data)

    def flush(self) -> None:
        """Write what is held, in one ``write`` (nothing once the transport is closing)."""
        if not self._held:
            return
        data = self._held[0] if len(self._held) == 1 else b"".join(self._held)
        self._held.clear()
        self._size = 0
        if not self._transport.is_closing():
            self._transport.write(data)

    def close(self) -> None:
        """Write what is held, then close."""
        self.flush()
        self._transport.close()

    def abort(self) -> None:
        """Drop what is held and abort."""
        self._held.clear()
        self._size = 0
        self._transport.abort()

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._transport.get_extra_info(name, default)

    def pause_reading(self) -> None:
        self._transport.pause_reading()

    def resume_reading(self) -> None:
        self._transport.resume_reading()

    def is_reading(self) -> bool:
        return self._transport.is_reading()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._transport.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._transport.get_protocol()

    def get_write_buffer_size(self) -> int:
        return self._size + self._transport.get_write_buffer_size()

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._transport.get_write_buffer_limits()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._transport.set_write_buffer_limits(high, low)

    def can_write_eof(self) -> bool:
        return self._transport.can_write_eof()

    def write_eof(self) -> None:
        """Write what is held, then close the write end."""
        self.flush()
        self._transport.write_eof()
