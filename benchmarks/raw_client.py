"""A lean keep-alive HTTP/1.1 client for load benchmarks (h11 over asyncio streams).

A load generator must cost the machine much less than the server it measures: on two
cores, a full-featured client (httpx) spends as much CPU per request as the server under
test, and the figure measures the client. This one sends ready-made requests and reads the
answers with h11, the HTTP/1.1 parser uvicorn itself uses; nothing is retried.
"""

from __future__ import annotations

import asyncio
import contextlib

import h11


class Connection:
    """One keep-alive connection to ``host:port``; :meth:`request` returns
    ``(status, body)``. Open it with :meth:`open`, close it with :meth:`close`."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self._conn = h11.Connection(h11.CLIENT)
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        """Connect."""
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)

    async def close(self) -> None:
        """Close the connection (bounded: a second at most)."""
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(TimeoutError, OSError):
                await asyncio.wait_for(self._writer.wait_closed(), 1)

    async def request(self, method: str, target: str, body: bytes = b"") -> tuple[int, bytes]:
        """Send one request and read its whole answer (``timeout``: 30 s)."""
        assert self._reader is not None and self._writer is not None
        headers = [("host", f"{self.host}:{self.port}"), ("content-length", str(len(body)))]
        if body:
            headers.append(("content-type", "application/json"))
        conn = self._conn
        out = conn.send(h11.Request(method=method, target=target, headers=headers))
        out = (out or b"") + (conn.send(h11.Data(data=body)) or b"") if body else out or b""
        out += conn.send(h11.EndOfMessage()) or b""
        self._writer.write(out)
        status, chunks = 0, []
        async with asyncio.timeout(30):
            while True:
                event = conn.next_event()
                if event is h11.NEED_DATA:
                    conn.receive_data(await self._reader.read(65536))
                elif isinstance(event, h11.Response):
                    status = event.status_code
                elif isinstance(event, h11.Data):
                    chunks.append(bytes(event.data))
                elif isinstance(event, h11.EndOfMessage):
                    break
                elif isinstance(event, h11.ConnectionClosed):
                    raise ConnectionError("the server closed the connection")
        conn.start_next_cycle()
        return status, b"".join(chunks)
