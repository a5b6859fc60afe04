"""`memory mcp`: the memory tools over the Model Context Protocol (the official `mcp` SDK).

A thin shell over one `api.Memory`: each tool is a small function that calls one library
method. The process is long-lived, so it keeps what a one-shot CLI pays for on every call:
the embedding model and vector store stay loaded, and a watchdog observer marks the files that
change, so a search syncs only those instead of stat-scanning the workspace (watch.py).

Errors come back as tool errors (`is_error`) carrying the library's one-line message; bad
arguments are refused by the SDK's validation; the server never dies on a bad call. Calls are
serialised (one lock): the library object is not thread-safe and SQLite writes one at a time.

Transports: stdio (default), or streamable HTTP with `--http HOST:PORT`. Off loopback a bearer
token is required: memory.toml `[mcp] token_env = "MEMORY_MCP_TOKEN"` names the environment
variable that holds it (also honoured on loopback when set).
"""

from __future__ import annotations

import contextlib
import hmac
import ipaddress
import os
import sys
import threading
from collections.abc import Callable
from datetime import date
from typing import Annotated, Any, Literal, TypeVar

from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from .errors import MemoryError_, UserError

_T = TypeVar("_T")
DEFAULT_TOKEN_ENV = "MEMORY_MCP_TOKEN"

INSTRUCTIONS = """\
Long-term memory kept as Markdown in a workspace (MEMORY.md = core memory, memory/YYYY-MM-DD.md = \
daily logs with "## Retain" facts, bank/ = curated pages). Search before you answer questions about \
people, projects, past decisions or preferences; cite results by their source (path#Lline). \
Store durable facts with memory_retain. Core memory (MEMORY.md blocks) is what you always know: \
keep it small and current with the memory_core_* tools."""

_READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
_ADD = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
_CHANGE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)


def build_server(mem, token: str | None = None, issuer: str = "http://127.0.0.1",  # noqa: ANN001
                 lock: threading.Lock | None = None) -> MCPServer:
    """The MCPServer with every memory tool bound to `mem` (api.Memory), calls serialised by `lock`."""
    lock = lock or threading.Lock()

    def call(fn: Callable[[], _T]) -> _T:
        with lock:
            try:
                return fn()
            except MemoryError_ as exc:
                raise ToolError(str(exc)) from None
            except (ValueError, TypeError, OSError) as exc:
                raise ToolError(" ".join(str(exc).split()) or type(exc).__name__) from None

    auth = {}
    if token:
        auth = {"token_verifier": _StaticToken(token),
                "auth": AuthSettings(issuer_url=issuer, resource_server_url=None)}
    server = _MemoryServer("workspace-memory", instructions=INSTRUCTIONS, log_level="WARNING", **auth)

    @server.tool(annotations=_READ)
    def memory_search(query: str, k: Annotated[int, Field(ge=1, le=1000)] = 10, since: str | None = None,
                      until: str | None = None, kind: str | None = None, entity: str | None = None,
                      mode: Literal["auto", "lexical", "semantic", "hybrid"] = "auto",
                      budget: Annotated[int | None, Field(ge=1)] = None,
                      source: Literal["memory", "sessions", "all"] | None = None,
                      include_invalid: bool = False) -> dict[str, Any]:
        """Search long-term memory before answering anything about people, projects, past events,
        decisions or preferences that is not in the conversation. Returns small cited results
        (content, kind, date, source as path#Lline, score 0..1), best first.

        query: what you want to know, in plain words ("where does Peter live", "Baileys crash fix").
        Time phrases in the query work ("last week", "in November 2025").
        k: how many results (default 10). since/until: hard time filter, 30d, 2w, 6m, 1y or YYYY-MM-DD.
        kind: world, experience, opinion, observation or note (comma-separated). entity: only
        entries about this person or project. mode: auto, lexical, semantic or hybrid.
        budget: pack the results into about this many tokens. source: memory (the notes), sessions
        (past conversation transcripts, when configured) or all; default: the workspace's setting.
        include_invalid: also facts marked as no longer true.
        Use memory_get with a result's source to read the lines around it."""
        from .api import RecallRequest

        return call(lambda: mem.recall(RecallRequest(query=query, k=k, since=since, until=until, kind=kind,
                                                     entity=entity, mode=mode, budget=budget, source=source,
                                                     include_invalid=include_invalid)))

    @server.tool(annotations=_READ)
    def memory_get(path: str, from_line: int | None = None, lines: int | None = None) -> dict[str, Any]:
        """Read a memory file, or the lines a search result cites. path: a workspace path
        (MEMORY.md, memory/2025-11-27.md, bank/entities/Peter.md) or a citation exactly as search
        returns it (memory/2025-11-27.md#L7 reads from line 7; #L7-L9 reads lines 7 to 9).
        Returns at most 120 lines / 12,000 characters and next_from when there is more.
        Only the workspace's memory files can be read."""
        return call(lambda: mem.get(path, from_line, lines).to_dict())

    @server.tool(annotations=_ADD)
    def memory_retain(bullet: str, day: str | None = None) -> dict[str, Any]:
        """Store one durable fact in today's log (memory/YYYY-MM-DD.md, under "## Retain").
        Call it when you learn something worth remembering beyond this conversation.
        bullet: one fact in the Retain grammar: "W @Peter: Lives in Vienna." (world fact),
        "B @warelay: I fixed the reconnect bug." (what you did, first person),
        "O(c=0.8) @Peter: Prefers short replies." (opinion, confidence 0..1),
        "S @Peter: Travels often." (observation). Mention people/projects as @Slug.
        day: YYYY-MM-DD to write to another day's log. Storing the same fact twice is a no-op."""
        return call(lambda: mem.retain(bullet, _day(day)).__dict__)

    @server.tool(annotations=_READ)
    def memory_entity(name: str) -> dict[str, Any]:
        """Everything memory holds about one person, project or place: its page, its facts
        (newest first, with sources) and the opinions about it. name: @Slug, name or alias
        (typos are tolerated). Use it for "tell me about X" questions."""
        return call(lambda: mem.entity(name))

    @server.tool(annotations=_READ)
    def memory_entities() -> dict[str, Any]:
        """List the people, projects and places memory knows (slug, name, page, number of facts),
        most facts first. Use it to find the right @Slug before retaining or searching."""
        return call(lambda: {"entities": mem.entities()})

    @server.tool(annotations=_READ)
    def memory_core_show() -> dict[str, Any]:
        """Show core memory: the blocks of MEMORY.md with their size, limit and read-only flag.
        Call it before editing a block, to see its exact current text."""
        return call(lambda: {k: v for k, v in mem.core_show().items() if k != "prompt"})

    @server.tool(annotations=_ADD)
    def memory_core_append(block: str, text: str) -> dict[str, Any]:
        """Add a line (or lines) at the end of a core memory block, for a durable fact that
        belongs in what you always know (a lasting preference, a standing instruction).
        Refused when the block would exceed its character limit or is read-only."""
        return call(lambda: mem.core_append(block, text))

    @server.tool(annotations=_CHANGE)
    def memory_core_replace(block: str, old: str, new: str) -> dict[str, Any]:
        """Correct a core memory block: replace the text `old` (which must occur exactly once in
        the block; the error says how many times and on which lines otherwise) by `new`.
        An empty `new` deletes the text (and its line when it becomes empty)."""
        return call(lambda: mem.core_replace(block, old, new))

    @server.tool(annotations=_ADD)
    def memory_core_insert(block: str, text: str, line: int) -> dict[str, Any]:
        """Insert text into a core memory block so that it starts at `line` of the block's value
        (1 = first line; -1 = after the last)."""
        return call(lambda: mem.core_insert(block, text, line))

    @server.tool(annotations=_CHANGE)
    def memory_core_rethink(block: str, text: str) -> dict[str, Any]:
        """Rewrite a whole core memory block with new text: to reorganise or condense it when it
        is near its limit or outdated. Keep everything that is still true."""
        return call(lambda: mem.core_rethink(block, text))

    @server.tool(annotations=_CHANGE)
    def memory_reflect(since: str = "7d", apply: bool = False, apply_core: bool = False) -> dict[str, Any]:
        """Consolidate recent facts into the bank pages (entity pages, opinions with confidence,
        world/experience lists) and list facts proposed for core memory. A dry run that writes
        nothing unless apply=true; apply_core=true also appends the proposals to MEMORY.md.
        since: the window of new facts (7d, 2w, 30d, YYYY-MM-DD)."""
        return call(lambda: mem.reflect(since, dry_run=not apply, apply_core=apply and apply_core).to_dict())

    return server


class _MemoryServer(MCPServer):
    """MCPServer whose tool errors are the library's one-line message, as the CLI prints it.

    The SDK prefixes "Error executing tool NAME: " and reports bad arguments as pydantic's
    multi-line text; an agent reads these, so they are flattened to one line here.
    """

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc, UnexpectedToolError):
                raise  # a crash: the SDK answers with a generic message and logs the traceback
            return CallToolResult(content=[TextContent(type="text", text=_one_line(name, exc))], is_error=True)


def _one_line(tool: str, exc: ToolError) -> str:
    cause = exc.__cause__
    if isinstance(cause, ValidationError):
        problems = "; ".join(f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg']}"
                             for err in cause.errors())
        return f"{tool}: bad arguments: {problems}"
    text = str(cause) if isinstance(cause, ToolError) else str(exc)
    return " ".join(text.split())


def _day(value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise UserError(f"day {value!r}: expected an existing date as YYYY-MM-DD") from None


class _StaticToken:
    """The SDK's TokenVerifier for one shared bearer token (compared in constant time)."""

    def __init__(self, token: str) -> None:
        self._token = token.encode()

    async def verify_token(self, token: str) -> AccessToken | None:
        if hmac.compare_digest(token.encode(), self._token):
            return AccessToken(token=token, client_id="memory-client", scopes=[])
        return None


def parse_address(address: str) -> tuple[str, int]:
    """'127.0.0.1:8765' / '[::1]:8765' / 'localhost:8765' -> (host, port); a bad one is a UserError."""
    host, sep, port = address.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UserError(f"--http {address!r}: expected HOST:PORT, e.g. 127.0.0.1:8765")
    return host, int(port)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def http_token(config: dict, host: str) -> str | None:
    """The bearer token for HTTP: required off loopback, from the variable `[mcp] token_env` names."""
    section = config.get("mcp") or {}
    unknown = set(section) - {"token_env"}
    if unknown:
        raise UserError(f"memory.toml [mcp]: unknown setting {sorted(unknown)[0]!r}; expected token_env")
    env_name = section.get("token_env", DEFAULT_TOKEN_ENV)
    if not isinstance(env_name, str) or not env_name:
        raise UserError("memory.toml [mcp] token_env must name an environment variable")
    token = os.environ.get(env_name, "").strip() or None
    if token is None and not is_loopback(host):
        raise UserError(f"serving on {host} (not loopback) needs a bearer token: set the environment "
                        f"variable {env_name} (named by memory.toml [mcp] token_env)")
    return token


def serve(mem, http: str | None = None) -> None:  # noqa: ANN001 - api.Memory
    """Run the server until the client disconnects (stdio) or the process is stopped (HTTP)."""
    token = host = port = None
    if http is not None:
        host, port = parse_address(http)
        token = http_token(mem.workspace.config, host)
    mem.workspace.require()
    lock = threading.Lock()
    server = build_server(mem, token, issuer=f"http://{host or '127.0.0.1'}:{port or 80}", lock=lock)
    try:
        mem.start_watching()
    except OSError as exc:  # e.g. the inotify watch limit: searches stat-scan instead
        print(f"memory mcp: file events unavailable ({exc}); every search scans the workspace", file=sys.stderr)
    # Load the model and the vector store now, not in the first search.
    threading.Thread(target=_warm_up, args=(mem, lock), daemon=True).start()
    stop = threading.Event()
    threading.Thread(target=_follow_sessions, args=(mem, lock, stop), daemon=True).start()
    try:
        if http is None:
            _run_stdio(server)
        else:
            print(f"memory mcp: serving http://{host}:{port}/mcp" + (" (bearer token required)" if token else ""),
                  file=sys.stderr)
            server.run("streamable-http", host=host, port=port)
    finally:
        stop.set()
        mem.stop_watching()


def _run_stdio(server: MCPServer) -> None:
    """The SDK's stdio transport, fed by the event loop instead of a thread per line (mcp_stdio)
    when stdin and stdout are pipes, sockets or terminals; else (a file) the SDK's own."""
    import stat

    import anyio

    from .mcp_stdio import serve_stdio

    streamable = all(stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)
                     for mode in (os.fstat(0).st_mode, os.fstat(1).st_mode))
    if streamable and os.environ.get("MEMORY_MCP_SDK_STDIO") != "1":
        anyio.run(serve_stdio, server)
    else:
        server.run("stdio")


def _follow_sessions(mem, lock: threading.Lock, stop: threading.Event) -> None:  # noqa: ANN001 - api.Memory
    """Index session transcripts as they grow (workspace/watch.SessionFollower), one delta at a time."""
    from .workspace.watch import SessionFollower

    follower = SessionFollower(mem)
    while follower.enabled and not stop.wait(1.0):
        with lock, contextlib.suppress(Exception):  # a failing sync shows in the next search's notices
            follower.tick()


def _warm_up(mem, lock: threading.Lock) -> None:  # noqa: ANN001
    with lock, contextlib.suppress(Exception):  # an optimisation: the first search reports any error
        mem.warm_up()
