"""Stdio for `memory mcp` without a thread hop per line.

The SDK's stdio transport wraps stdin and stdout in anyio's thread-backed files: every line read,
every write and every flush wakes a worker thread and then the event loop, about 1 ms each on a
busy 2-core machine, three or four times per call. Here stdin is read by the event loop itself
(asyncio's pipe reader) and stdout written by it (a pipe takes a reply at once unless the client
stops reading, when the write waits for it). Both are handed to the SDK's own `stdio_server`,
which still frames and validates the messages. Like the SDK, fd 0 and fd 1 are moved out of the way
while serving (stdin reads the null device, stdout goes to stderr), so that a stray print can never
corrupt the protocol, and restored afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from typing import Any


class _Lines:
    """`async for line in stdin` over a private copy of fd 0, read by the event loop."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.reader: asyncio.StreamReader | None = None

    async def _open(self) -> asyncio.StreamReader:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=64 * 1024 * 1024, loop=loop)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(self.fd, "rb", 0))
        return reader

    def __aiter__(self) -> AsyncIterator[str]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[str]:
        reader = self.reader = self.reader or await self._open()
        while line := await reader.readline():
            yield line.decode("utf-8", errors="replace")


class _Writer:
    """`await stdout.write(text)` / `flush()` on a private copy of fd 1, from the event loop."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    async def write(self, text: str) -> None:
        data = memoryview(text.encode("utf-8"))
        while data:
            try:
                data = data[os.write(self.fd, data):]
            except BlockingIOError:  # the client is not reading: let the loop run meanwhile
                await asyncio.sleep(0.001)

    async def flush(self) -> None:
        return None


@contextlib.contextmanager
def claimed_stdio() -> Any:
    """(stdin lines, stdout writer) on private copies of fd 0 and 1; the fds restored on exit."""
    stdin_fd, stdout_fd = os.dup(0), os.dup(1)
    os.set_blocking(stdout_fd, False)
    null = os.open(os.devnull, os.O_RDONLY)
    saved = os.dup(0), os.dup(1)
    try:
        os.dup2(null, 0)
        os.dup2(2, 1)  # a stray print goes to stderr, never onto the wire
        yield _Lines(stdin_fd), _Writer(stdout_fd)
    finally:
        os.dup2(saved[0], 0)
        os.dup2(saved[1], 1)
        for fd in (null, *saved, stdout_fd):
            with contextlib.suppress(OSError):
                os.close(fd)


async def serve_stdio(server: Any) -> None:  # noqa: ANN401 - mcp.server.mcpserver.MCPServer
    """Run `server` over stdin/stdout through the SDK's stdio_server, with the streams above."""
    from mcp.server.stdio import stdio_server

    lowlevel = server._lowlevel_server  # noqa: SLF001 - the SDK's run_stdio_async, with our streams
    with claimed_stdio() as (lines, writer):
        async with stdio_server(stdin=lines, stdout=writer) as (read_stream, write_stream):
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
