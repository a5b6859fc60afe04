"""The memory tools: one small async function per tool, each calling one `api.Memory` method.

What an agent sees is shaped here: every argument has a description and a size limit in its
schema (limits.py, the same bounds the CLI has), an unknown argument is refused, each result
carries `structuredContent` (with an outputSchema, schemas.py) and a compact-JSON text block,
and results longer than MAX_RESULT_CHARS are cut with a `truncated` mark.

Concurrency: the library object is not thread-safe, so calls run one at a time in worker
threads, under one lock. Arguments are checked before the lock (a refused call answers at once,
whatever runs meanwhile). A call cancelled (`notifications/cancelled`, or its client gone) is
answered at once; its worker never starts the work if it was still waiting for the lock, and
otherwise stops at the library's next checkpoint (cancel.py: after the index refresh, after
the query's embedding, after the candidates).
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from datetime import date
from typing import Annotated, Any, Literal

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from .. import __version__, secrecy
from ..cancel import cancellable
from ..dates.parse import parse_day
from ..errors import MemoryError_, UserError
from ..limits import (
    MAX_ARG_CHARS,
    MAX_EDIT_CHARS,
    MAX_FACT_CHARS,
    capped_json,
    check_recall,
    check_something_asked,
    check_text,
    out_of_range,
    too_long,
)
from ..recall.params import BY_NAME as _P
from .schemas import OUTPUT_SCHEMAS

INSTRUCTIONS = """\
Long-term memory kept as Markdown in a workspace (MEMORY.md = core memory, memory/YYYY-MM-DD.md = \
daily logs with "## Retain" facts, bank/ = curated pages). Search before you answer questions about \
people, projects, past decisions or preferences; cite results by their source (path#Lline). \
Store durable facts with memory_retain. Core memory (MEMORY.md blocks) is what you always know: \
keep it small and current with the memory_core_* tools."""

_READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
_ADD = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
_CHANGE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)


def _text(description: str | None, limit: int | None = MAX_ARG_CHARS) -> Any:  # a pydantic Field
    return Field(description=description, max_length=limit)


Block = Annotated[str, _text("The core block's label, as memory_core_show lists it (e.g. Human, Persona).")]
Since = Annotated[str | None, _text(_P["since"].agent)]
Until = Annotated[str | None, _text(_P["until"].agent)]
EditText = Annotated[str, _text("The text (one or more lines).", MAX_EDIT_CHARS)]


def build_server(mem, lock: threading.Lock | None = None, **auth: Any) -> MCPServer:
    """The MCPServer with every memory tool bound to `mem` (api.Memory), calls serialised by `lock`.

    `auth`: the SDK's token_verifier and auth settings, for HTTP with a bearer token."""
    lock = lock or threading.Lock()
    root = str(getattr(getattr(mem, "workspace", None), "root", "") or "")

    async def call(fn: Callable[[], Any]) -> CallToolResult:
        cancelled = threading.Event()

        def work() -> Any:
            with lock, cancellable(cancelled):  # a call cancelled while it waited stops on entry
                return fn()

        try:
            try:
                data = await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
            except anyio.get_cancelled_exc_class():
                cancelled.set()  # the worker stops at its next checkpoint (cancel.py); the caller is free now
                raise
        except MemoryError_ as exc:
            raise ToolError(_relative(str(exc), root)) from None
        except (ValueError, TypeError, OSError) as exc:
            raise ToolError(_relative(" ".join(str(exc).split()) or type(exc).__name__, root)) from None
        data, text = capped_json(secrecy.blank_data(data))  # any key blanked before anything is cut
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)

    def refuse(check: Callable[[], None]) -> None:
        """Run a limit check before the lock; its UserError is the tool's error."""
        try:
            check()
        except UserError as exc:
            raise ToolError(str(exc)) from None

    server = _MemoryServer("workspace-memory", instructions=INSTRUCTIONS, log_level="WARNING",
                           version=__version__, **auth)

    @server.tool(annotations=_READ)
    async def memory_search(  # the names, bounds, choices and words of recall/params.py (tests/test_recall_params.py)
        query: Annotated[str, _text(_P["query"].agent, _P["query"].limit)],
        k: Annotated[int, Field(ge=_P["k"].low, le=_P["k"].high, description=_P["k"].agent)] = _P["k"].default,
        since: Since = None,
        until: Until = None,
        kind: Annotated[str | None, _text(_P["kind"].agent)] = None,
        entity: Annotated[str | None, _text(_P["entity"].agent)] = None,
        mode: Annotated[Literal["auto", "lexical", "semantic", "hybrid"], Field(description=_P["mode"].agent)] = "auto",
        budget: Annotated[int | None, Field(ge=_P["budget"].low, le=_P["budget"].high,
                                            description=_P["budget"].agent)] = None,
        source: Annotated[Literal["memory", "sessions", "all"] | None, Field(description=_P["source"].agent)] = None,
        include_invalid: Annotated[bool, Field(description=_P["include_invalid"].agent)] = False,
    ) -> CallToolResult:
        """Search long-term memory before answering anything about people, projects, past events,
        decisions or preferences that is not in the conversation. Returns small cited results
        (content, kind, date, source as path#Lline, score 0..1), best first. For what is coming,
        ask for it ("what's on Friday?", "next week") or set until="+7d".
        Use memory_get with a result's source to read the lines around it."""
        from ..api import RecallRequest

        refuse(lambda: check_recall(query, k, since=since, until=until, kind=kind, entity=entity))
        refuse(lambda: check_something_asked(query, since=since, until=until, kind=kind, entity=entity))
        request = RecallRequest(query=query, k=k, since=since, until=until, kind=kind, entity=entity, mode=mode,
                                budget=budget, source=source, include_invalid=include_invalid)
        return await call(lambda: mem.recall(request))

    @server.tool(annotations=_READ)
    async def memory_get(
        path: Annotated[str, _text("A workspace path (MEMORY.md, memory/2025-11-27.md, bank/entities/Peter.md) "
                                   "or a citation as search returns it (memory/2025-11-27.md#L7, #L7-L9).")],
        from_line: Annotated[int | None, Field(ge=1, description="First line to read (1-based).")] = None,
        lines: Annotated[int | None, Field(ge=1, le=10_000, description="How many lines to read.")] = None,
    ) -> CallToolResult:
        """Read a memory file, or the lines a search result cites. Returns at most 120 lines /
        12,000 characters and next_from when there is more. Only the workspace's memory files
        can be read."""
        return await call(lambda: mem.get(path, from_line, lines).to_dict())

    @server.tool(annotations=_ADD)
    async def memory_retain(
        bullet: Annotated[str, _text('One fact in the Retain grammar: "W @Peter: Lives in Vienna." (world), '
                                     '"B @warelay: I fixed the reconnect bug." (what you did), "O(c=0.8) @Peter: '
                                     'Prefers short replies." (opinion, confidence 0..1), "S @Peter: Travels '
                                     'often." (observation). Mention people and projects as @Slug.',
                                     MAX_FACT_CHARS)],
        day: Annotated[str | None, _text("YYYY-MM-DD to write to another day's log (default: today).")] = None,
    ) -> CallToolResult:
        """Store one durable fact in today's log (memory/YYYY-MM-DD.md, under "## Retain").
        Call it when you learn something worth remembering beyond this conversation.
        Storing the same fact twice is a no-op."""
        when = _day(day)
        return await call(lambda: mem.retain(bullet, when).__dict__)

    @server.tool(annotations=_READ)
    async def memory_entity(
        name: Annotated[str, _text("@Slug, name or alias of a person, project or place (typos are tolerated).")],
    ) -> CallToolResult:
        """Everything memory holds about one person, project or place: its page, its facts
        (newest first, with sources) and the opinions about it. Use it for "tell me about X"."""
        return await call(lambda: mem.entity(name))

    @server.tool(annotations=_READ)
    async def memory_entities() -> CallToolResult:
        """List the people, projects and places memory knows (slug, name, page, number of facts),
        most facts first. Use it to find the right @Slug before retaining or searching."""
        return await call(lambda: {"entities": mem.entities()})

    @server.tool(annotations=_READ)
    async def memory_core_show() -> CallToolResult:
        """Show core memory: the blocks of MEMORY.md with their size, limit and read-only flag.
        Call it before editing a block, to see its exact current text."""
        return await call(lambda: {k: v for k, v in mem.core_show().items() if k != "prompt"})

    @server.tool(annotations=_ADD)
    async def memory_core_append(block: Block, text: EditText) -> CallToolResult:
        """Add a line (or lines) at the end of a core memory block, for a durable fact that
        belongs in what you always know (a lasting preference, a standing instruction).
        Refused when the block would exceed its character limit or is read-only."""
        return await call(lambda: mem.core_append(block, text))

    @server.tool(annotations=_CHANGE)
    async def memory_core_replace(
        block: Block,
        old: Annotated[str, _text("The exact text to replace; it must occur exactly once in the block.",
                                  MAX_EDIT_CHARS)],
        new: Annotated[str, _text("The replacement; empty deletes the text (and its line when it becomes "
                                  "empty).", MAX_EDIT_CHARS)],
    ) -> CallToolResult:
        """Correct a core memory block: replace the text `old` by `new`. The error says how many
        times and on which lines `old` occurs when it is not exactly once."""
        return await call(lambda: mem.core_replace(block, old, new))

    @server.tool(annotations=_ADD)
    async def memory_core_insert(
        block: Block,
        text: EditText,
        line: Annotated[int, Field(ge=-1, le=100_000, description="The line of the block's value the text starts "
                                                                    "at: 1 = first line, -1 = after the last.")],
    ) -> CallToolResult:
        """Insert text into a core memory block so that it starts at `line` of the block's value."""
        return await call(lambda: mem.core_insert(block, text, line))

    @server.tool(annotations=_CHANGE)
    async def memory_core_rethink(block: Block,
                                  text: Annotated[str, _text("The block's whole new text.", MAX_EDIT_CHARS)],
                                  ) -> CallToolResult:
        """Rewrite a whole core memory block with new text: to reorganise or condense it when it
        is near its limit or outdated. Keep everything that is still true."""
        return await call(lambda: mem.core_rethink(block, text))

    @server.tool(annotations=_READ)
    async def memory_triggers(
        message: Annotated[str | None, _text("The incoming message. Without it, every trigger entry is listed "
                                             "with its phrases (at most 200).", MAX_FACT_CHARS)] = None,
    ) -> CallToolResult:
        """Trigger recall before a reply: the core and bank entries whose <!-- trigger: ... --> phrases
        the message names (at most 3, 1,800 characters), to put into the context without a search."""
        if message is None:
            return await call(mem.trigger_entries)
        refuse(lambda: check_text("message", message, MAX_FACT_CHARS))
        return await call(lambda: mem.triggers(message))

    @server.tool(annotations=_READ)
    async def memory_status() -> CallToolResult:
        """The index's state: files, chunks, facts, entities, the last sync and its age, the search
        modes and embedding model in use, and warnings with path:line."""
        return await call(mem.status)

    @server.tool(annotations=_CHANGE)
    async def memory_reflect(
        since: Annotated[str | None, _text("The window of new facts: 7d, 2w, 30d or YYYY-MM-DD (default 7d; "
                                           "a workspace's first reflect takes every fact).")] = None,
        apply: Annotated[bool, Field(description="Write the bank pages (default: a dry run that writes "
                                                 "nothing).")] = False,
        apply_core: Annotated[bool, Field(description="With apply, also append the proposals to "
                                                      "MEMORY.md.")] = False,
    ) -> CallToolResult:
        """Consolidate recent facts into the bank pages (entity pages, opinions with confidence,
        world/experience lists) and list facts proposed for core memory."""
        return await call(lambda: mem.reflect(since, dry_run=not apply, apply_core=apply and apply_core).to_dict())

    server.finish_tools()
    return server


class _MemoryServer(MCPServer):
    """MCPServer as an agent should see it.

    - Tool errors are the library's one-line message, as the CLI prints it (the SDK prefixes
      "Error executing tool NAME: " and reports bad arguments as pydantic's multi-line text).
    - An unknown tool or prompt is JSON-RPC -32602 (invalid params), not a tool error.
    - An unknown argument is refused (the schemas say additionalProperties: false).
    - Only tools are advertised: the SDK also registers empty prompt and resource lists.
    """

    def finish_tools(self) -> None:
        """Clean descriptions, closed input schemas, output schemas; drop the unused capabilities."""
        for tool in self._tool_manager.list_tools():
            tool.description = inspect.cleandoc(tool.description).replace("\n", " ")
            tool.parameters["additionalProperties"] = False
            for prop in tool.parameters.get("properties", {}).values():
                prop.pop("title", None)
            tool.parameters.pop("title", None)
            tool.fn_metadata.output_schema = OUTPUT_SCHEMAS[tool.name]
        handlers = self._lowlevel_server._request_handlers  # no public way to unregister
        for method in ("prompts/list", "resources/list", "resources/templates/list", "resources/read",
                       "resources/subscribe", "resources/unsubscribe"):
            handlers.pop(method, None)

    async def get_prompt(self, name: str, arguments: dict[str, Any] | None = None, context: Any = None) -> Any:
        raise MCPError(INVALID_PARAMS, f"unknown prompt {name!r}: this server has no prompts")

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        tool = self._tool_manager.get_tool(name)
        if tool is None:
            known = ", ".join(t.name for t in self._tool_manager.list_tools())
            raise MCPError(INVALID_PARAMS, f"unknown tool {name!r}; the tools are {known}")
        unknown = sorted(set(arguments) - set(tool.parameters.get("properties", {})))
        if unknown:
            expected = ", ".join(tool.parameters.get("properties", {})) or "none"
            return _error(f"{name}: unknown argument {unknown[0]!r}; expected {expected}")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc, UnexpectedToolError):
                raise  # a crash: the SDK answers with a generic message and logs the traceback
            return _error(_one_line(name, exc, tool.parameters.get("properties", {})))


def _relative(text: str, root: str) -> str:
    """An error message with the workspace's absolute path left out: an agent sees workspace
    paths only, and the server's layout is none of a remote client's business."""
    return text.replace(root.rstrip("/") + "/", "").replace(root, ".") if root else text


def _error(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=secrecy.blank(text))], is_error=True)


def _one_line(tool: str, exc: ToolError, schema: dict[str, Any] | None = None) -> str:
    """A tool error on one line. A size limit that the arguments' validation caught is said in the
    words of limits.py, the CLI's: "query: 2,001 characters; the limit is 2,000"."""
    cause = exc.__cause__
    if isinstance(cause, ValidationError):
        errors = cause.errors()
        limits = [_limit_line(err, schema or {}) for err in errors]
        if all(limits):
            return "; ".join(limit for limit in limits if limit)
        problems = "; ".join(f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg']}"
                             for err in errors)
        return f"{tool}: bad arguments: {problems}"
    text = str(cause) if isinstance(cause, ToolError) else str(exc)
    return " ".join(text.split())


def _limit_line(err: Any, schema: dict[str, Any]) -> str | None:
    """limits.py's line for a pydantic error about a size or a bound (None for any other error)."""
    name = str(err["loc"][0]) if err.get("loc") else "arguments"
    ctx, value = err.get("ctx") or {}, err.get("input")
    if err["type"] == "string_too_long" and isinstance(value, str):
        return too_long(name, len(value), int(ctx["max_length"]))
    if err["type"] in ("less_than_equal", "greater_than_equal", "less_than", "greater_than"):
        bounds = schema.get(name, {})
        low = bounds.get("minimum", next((b.get("minimum") for b in bounds.get("anyOf", []) if "minimum" in b), None))
        high = bounds.get("maximum", next((b.get("maximum") for b in bounds.get("anyOf", []) if "maximum" in b), None))
        return out_of_range(name, value, low, high)
    return None


def _day(value: str | None) -> date | None:
    """The `day` argument, read as every shell reads a day (dates.parse.parse_day)."""
    if value is None:
        return None
    try:
        return parse_day(value, "day")
    except UserError as exc:
        raise ToolError(str(exc)) from None
