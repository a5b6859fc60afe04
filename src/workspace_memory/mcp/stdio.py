"""Stdio for `memory mcp`: JSON-RPC framing as the spec says, without a thread hop per line.

The SDK's stdio transport wraps stdin and stdout in anyio's thread-backed files (about 1 ms per
line on a busy 2-core machine), and it answers nothing to a line that is not a valid message: a
client that sent one waits forever. Here stdin is read by the event loop itself (asyncio's pipe
reader; a regular file is read in a worker thread) and stdout written by it, and every line is
judged before the SDK's session sees it (`judge`):

- not JSON (or not UTF-8)                     -> -32700 parse error, id null
- a batch, no "jsonrpc": "2.0", an id that is
  null / an object / a float, a bad method     -> -32600 invalid request (id null unless readable)
- a lone surrogate (an escaped "\\ud800")       -> -32602 invalid params (it is not text)
- longer than MAX_REQUEST_BYTES                -> -32600, and the rest of the line is skipped unread
A notification that is invalid gets no answer (JSON-RPC: a notification is never answered).
The server goes on after each of these. Like the SDK, fd 0 and fd 1 are moved out of the way
while serving (stdin reads the null device, stdout goes to stderr), so that a stray print can
never corrupt the protocol, and restored afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import stat
from collections.abc import AsyncIterator, Callable
from typing import Any

from ..limits import MAX_REQUEST_BYTES

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602
_SURROGATE = re.compile("[\ud800-\udfff]")
_CHUNK = 65_536


class _Lines:
    """`async for line in stdin`: lines (bytes) of a private copy of fd 0, each at most `limit` bytes.

    A longer line is yielded as None once, and its bytes are dropped up to its newline, so
    memory stays bounded whatever a client sends.
    """

    def __init__(self, fd: int, limit: int = MAX_REQUEST_BYTES) -> None:
        self.fd = fd
        self.limit = limit

    async def _chunks(self) -> AsyncIterator[bytes]:
        if stat.S_ISREG(os.fstat(self.fd).st_mode):  # a file: the loop cannot watch it, a thread reads it
            loop = asyncio.get_running_loop()
            while chunk := await loop.run_in_executor(None, os.read, self.fd, _CHUNK):
                yield chunk
            return
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=_CHUNK, loop=loop)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(self.fd, "rb", 0))
        while chunk := await reader.read(_CHUNK):
            yield chunk

    def __aiter__(self) -> AsyncIterator[bytes | None]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[bytes | None]:
        buffer = bytearray()
        skipping = False  # inside a line that was too long: drop up to its newline
        async for chunk in self._chunks():
            start = 0
            while True:
                end = chunk.find(b"\n", start)
                piece = chunk[start:] if end < 0 else chunk[start:end]
                if not skipping:
                    buffer += piece
                    if len(buffer) > self.limit:
                        buffer.clear()
                        skipping = True
                        yield None
                if end < 0:
                    break
                if not skipping:
                    yield bytes(buffer)
                buffer.clear()
                skipping = False
                start = end + 1
        if buffer and not skipping:
            yield bytes(buffer)


class _Writer:
    """`await stdout.write(text)` / `flush()` on a private copy of fd 1, from the event loop.

    Writes are serialised: the session's replies and this transport's own error replies share
    the pipe, and a partial write must never interleave with another.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._lock: asyncio.Lock | None = None

    async def write(self, text: str) -> None:
        self._lock = self._lock or asyncio.Lock()
        async with self._lock:
            data = memoryview(text.encode("utf-8"))
            while data:
                try:
                    data = data[os.write(self.fd, data):]
                except BlockingIOError:  # the client is not reading: let the loop run meanwhile
                    await asyncio.sleep(0.001)

    async def flush(self) -> None:
        return None


def judge(line: bytes | None) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """(message to pass on, error reply to send): at most one of them is not None."""
    if line is None:
        return None, error_reply(None, INVALID_REQUEST, f"message over {MAX_REQUEST_BYTES:,} bytes; skipped")
    if not line.strip():
        return None, None
    try:
        message = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None, error_reply(None, PARSE_ERROR, "parse error: the message is not JSON (UTF-8)")
    if isinstance(message, list):
        return None, error_reply(None, INVALID_REQUEST, "invalid request: JSON-RPC batches are not supported by MCP")
    if not isinstance(message, dict):
        return None, error_reply(None, INVALID_REQUEST, "invalid request: expected a JSON object")
    has_id = "id" in message
    rid = message.get("id")
    good_id = isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool))
    if has_id and not good_id:
        return None, error_reply(None, INVALID_REQUEST, "invalid request: id must be a string or an integer")
    answer_to = rid if "method" in message and has_id else None
    if message.get("jsonrpc") != "2.0":
        return None, _maybe(answer_to, has_id, INVALID_REQUEST, 'invalid request: "jsonrpc" must be "2.0"')
    if "method" in message and not isinstance(message["method"], str):
        return None, _maybe(answer_to, has_id, INVALID_REQUEST, "invalid request: method must be a string")
    if "method" in message and not isinstance(message.get("params", {}), dict):
        return None, _maybe(answer_to, has_id, INVALID_PARAMS, "invalid params: params must be an object")
    if _has_surrogate(message):
        return None, _maybe(answer_to, has_id, INVALID_PARAMS,
                            "invalid params: a string holds a lone surrogate (such as \\ud800), which is not text")
    return message, None


def _maybe(rid: Any, has_id: bool, code: int, text: str) -> dict[str, Any] | None:
    """An error reply for a request; None for a notification or a response (never answered)."""
    return error_reply(rid, code, text) if has_id and rid is not None else None


def error_reply(rid: Any, code: int, text: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": text}}


def _has_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return _SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_surrogate(v) for v in value)
    return False


@contextlib.contextmanager
def claimed_stdio() -> Any:
    """(stdin lines, stdout writer) on private copies of fd 0 and 1; the fds restored on exit."""
    stdin_fd, stdout_fd = os.dup(0), os.dup(1)
    with contextlib.suppress(OSError):
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


async def serve_stdio(server: Any, on_call: Callable[[], None] | None = None) -> None:  # MCPServer
    """Run `server` over stdin/stdout: judged lines in, the session's replies out. `on_call()` runs
    as each tools/call line arrives, before the SDK parses it (api.Memory.request_arrived)."""
    import anyio
    import mcp_types as types
    from mcp.shared._context_streams import create_context_streams
    from mcp.shared.message import SessionMessage

    lowlevel = server._lowlevel_server  # the SDK's run_stdio_async, with our streams
    with claimed_stdio() as (lines, writer):
        to_server, read_stream = create_context_streams[Any](0)
        write_stream, from_server = create_context_streams[Any](0)

        async def read_lines() -> None:
            async with to_server:
                async for line in lines:
                    message, error = judge(line)
                    if error is not None:
                        await writer.write(json.dumps(error) + "\n")
                    elif message is not None:
                        if on_call is not None and message.get("method") == "tools/call":
                            on_call()
                        try:
                            parsed = types.jsonrpc_message_adapter.validate_python(message, by_name=False)
                        except ValueError:  # well-formed JSON-RPC the SDK's models still refuse
                            rid = message.get("id") if "method" in message else None
                            if rid is not None:
                                reply = error_reply(rid, INVALID_REQUEST, "invalid request: not an MCP message")
                                await writer.write(json.dumps(reply) + "\n")
                            continue
                        await to_server.send(SessionMessage(parsed))

        async def write_replies() -> None:
            async with from_server:
                async for session_message in from_server:
                    text = session_message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await writer.write(text + "\n")

        async with anyio.create_task_group() as tg:
            tg.start_soon(read_lines)
            tg.start_soon(write_replies)
            try:
                await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
            finally:
                await write_stream.aclose()  # the replies written, write_replies ends
