"""The documented size limits of every input and output an agent (or anything else) can send.

One place for all of them, so the CLI, the MCP server (stdio and HTTP) and the web page refuse
the same things with the same words (docs/mcp.md, docs/mcp.md "Limits and hostile input"). Each
check runs before any work: a 1 MB query used to take 40 s and 3 GB of memory in the embedder
before anything said no. A refusal is a UserError that names the argument, the size and the limit.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import UserError

MAX_QUERY_CHARS = 2_000  # a search query (memory_search `query`, `memory recall QUERY`)
MAX_FTS_TERMS = 64  # distinct words of a query sent to full-text search; the rest are left out, with a notice
MIN_K = 1  # results per search: at least one,
MAX_K = 1_000  # and at most this many
MAX_BUDGET = 1_000_000  # tokens a search's results may be packed into (--budget, memory_search `budget`)
MAX_FACT_CHARS = 4_000  # one Retain fact (retain, import)
MAX_EDIT_CHARS = 20_000  # the text of one core-memory edit (each of old/new/text)
MAX_ARG_CHARS = 1_000  # every other text argument: a path, an entity name, a block label, since/until
MAX_EMBED_CHARS = 8_192  # what one text sends to an embedder (the models read 256-512 tokens of it)
MAX_REQUEST_BYTES = 1_048_576  # one JSON-RPC message: an HTTP body (else 413), a line on stdio
MAX_RESULT_CHARS = 60_000  # one tool result as compact JSON; longer lists are cut, with a mark
MAX_FIELD_CHARS = 8_000  # one text field inside a tool result (a page, a fact written by hand)


def too_long(argument: str, length: int, limit: int) -> str:
    """The one wording of a text over its limit, in every shell: 'query: 2,001 characters; the limit is 2,000'."""
    return f"{argument}: {length:,} characters; the limit is {limit:,}"


def out_of_range(argument: str, value: object, low: int | None, high: int | None) -> str:
    """The one wording of a number outside its bounds, in every shell: 'k: 5,000; expected 1 to 1,000'."""
    shown = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)
    if low is not None and high is not None:
        return f"{argument}: {shown}; expected {low:,} to {high:,}"
    return f"{argument}: {shown}; expected at least {low:,}" if low is not None else \
        f"{argument}: {shown}; expected at most {high:,}"


def check_text(argument: str, value: str | None, limit: int = MAX_ARG_CHARS) -> None:
    """UserError naming `argument` when `value` is longer than `limit` characters."""
    if value is not None and len(value) > limit:
        raise UserError(too_long(argument, len(value), limit))


def check_recall(query: str, k: int, **others: str | None) -> None:
    """The bounds of one search: the query, k, and the short text filters (since, until, kind, entity)."""
    check_text("query", query, MAX_QUERY_CHARS)
    check_k(k)
    for name, value in others.items():
        check_text(name, value)


def check_something_asked(query: str, **filters: str | None) -> None:
    """A search asks for something: a query, or a filter (since, until, kind, entity). The CLI
    says the same with its flags' names (`memory recall ""` exits 2)."""
    if not query.strip() and not any(filters.values()):
        raise UserError("query: empty; give a query (or a filter such as since or entity)")


def check_k(k: int, most: int = MAX_K) -> None:
    """UserError when `k` results cannot be asked for (MIN_K to `most`: MAX_K, or a page's own bound)."""
    if not MIN_K <= k <= most:
        raise UserError(out_of_range("k", k, MIN_K, most))


def clip(text: str, limit: int, mark: str = "…") -> str:
    """`text` cut to `limit` characters, with `mark` at the cut (so a reader knows it was cut)."""
    return text if len(text) <= limit else text[: max(limit - len(mark), 0)] + mark


def compact_json(data: Any) -> str:
    """JSON as an agent reads it: no indentation, no spaces after separators, UTF-8 as is."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def cap_result(data: dict[str, Any], limit: int = MAX_RESULT_CHARS) -> dict[str, Any]:
    """`data` made to fit `limit` characters of compact JSON, with a `truncated` mark when cut.

    First every text field longer than MAX_FIELD_CHARS is clipped (a hand-written 1 MB fact);
    then the longest lists lose items from their end (the least relevant: results are ranked,
    facts newest first) until the whole fits. `truncated` names each list cut and how many
    items it lost, so the agent can narrow its question or page on.
    """
    return capped_json(data, limit)[0]


def capped_json(data: dict[str, Any], limit: int = MAX_RESULT_CHARS) -> tuple[dict[str, Any], str]:
    """cap_result's dict and its compact JSON: a result that fits is encoded once (the MCP server
    sends that text as well as the dict, and encoding 25 results costs about 0.1 ms)."""
    text = compact_json(data)
    if len(text) <= limit:
        return data, text
    clipped: dict[str, int] = {}
    out = _clip_fields(data, "", clipped)
    cut: dict[str, int] = {}
    while len(compact_json(out)) > limit:
        lists = sorted(_lists(out, ""), key=lambda item: -len(compact_json(item[1])))
        if not lists or not lists[0][1]:
            break
        path, items = lists[0]
        keep = _fitting(out, items, limit)
        cut[path] = cut.get(path, 0) + len(items) - keep
        del items[keep:]
    mark = {"limit_chars": limit}
    if cut:
        mark["items_left_out"] = cut  # type: ignore[assignment]
    if clipped:
        mark["fields_clipped"] = clipped  # type: ignore[assignment]
    out["truncated"] = mark
    return out, compact_json(out)


def _clip_fields(value: Any, path: str, clipped: dict[str, int]) -> Any:
    """A copy of `value` with long strings clipped; `clipped` counts them by path."""
    if isinstance(value, str) and len(value) > MAX_FIELD_CHARS:
        clipped[path] = clipped.get(path, 0) + 1
        return clip(value, MAX_FIELD_CHARS, f"… [{len(value) - MAX_FIELD_CHARS + 1:,} more characters]")
    if isinstance(value, dict):
        return {k: _clip_fields(v, f"{path}.{k}" if path else str(k), clipped) for k, v in value.items()}
    if isinstance(value, list):
        return [_clip_fields(v, path, clipped) for v in value]
    return value


def _lists(value: Any, path: str) -> list[tuple[str, list]]:
    """(path, list) of every non-empty list inside `value`, nested ones included."""
    found: list[tuple[str, list]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _lists(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list) and value:
        found.append((path, value))
        for item in value:
            found += _lists(item, path)
    return found


def _fitting(whole: dict[str, Any], items: list, limit: int) -> int:
    """How many leading `items` can stay (at least one fewer than now) for `whole` to approach `limit`."""
    over = len(compact_json(whole)) - limit
    size, keep = 0, len(items)
    while keep > 0 and size < over:
        keep -= 1
        size += len(compact_json(items[keep])) + 1
    return min(keep, len(items) - 1)
