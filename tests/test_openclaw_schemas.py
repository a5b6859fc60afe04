"""The plugin's tool schemas are the engine's: integrations/openclaw/src/engine-tools.json is the
`tools/list` of a real `memory mcp`, and this test fails when the two drift.

Regenerate after changing a tool of the MCP server:

    OPENCLAW_SCHEMAS_WRITE=1 pytest tests/test_openclaw_schemas.py -p no:cacheprovider

The file keeps each tool's name, description and input schema as the engine lists them, with one
rewrite an agent runtime needs: an optional argument's `anyOf [X, null]` (and its `default: null`)
becomes X, since a tool caller omits an argument rather than sending null. The plugin
(src/schemas.js) passes the engine's own tools through with these schemas and derives memory-core's
memory_search / memory_get bounds from them (maxResults = k's, lines = lines', the query's maxLength).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from conftest import build_workspace
from test_mcp_hostile import raw_stdio

SCHEMAS = Path(__file__).resolve().parents[1] / "integrations" / "openclaw" / "src" / "engine-tools.json"


def _plain(schema: Any) -> Any:
    """`anyOf [X, {"type": "null"}]` as X, and no `default: null`, all the way down."""
    if isinstance(schema, list):
        return [_plain(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    options = schema.get("anyOf")
    if isinstance(options, list) and len(options) == 2 and {"type": "null"} in options:
        [kept] = [o for o in options if o != {"type": "null"}]
        rest = {k: v for k, v in schema.items() if k != "anyOf" and not (k == "default" and v is None)}
        return _plain({**kept, **rest})
    return {k: _plain(v) for k, v in schema.items() if not (k == "default" and v is None)}


def engine_tools(workspace: Path) -> list[dict[str, Any]]:
    with raw_stdio(workspace) as server:
        tools = server.request({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})["result"]["tools"]
    return [{"name": t["name"], "description": t["description"], "inputSchema": _plain(t["inputSchema"])}
            for t in tools]


def test_the_plugins_schemas_are_the_engines_tools_list(tmp_path: Path) -> None:
    want = engine_tools(build_workspace(tmp_path / "ws"))
    text = json.dumps(want, indent=1, ensure_ascii=False) + "\n"
    if os.environ.get("OPENCLAW_SCHEMAS_WRITE"):
        SCHEMAS.write_text(text, encoding="utf-8")
    got = json.loads(SCHEMAS.read_text(encoding="utf-8"))
    assert got == want, ("integrations/openclaw/src/engine-tools.json differs from `memory mcp`'s tools/list: "
                         "regenerate it (see this module's docstring)")


def test_plain_drops_only_the_null_alternative() -> None:
    assert _plain({"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "default": None,
                   "description": "d"}) == {"type": "integer", "minimum": 1, "description": "d"}
    kept = {"anyOf": [{"type": "integer"}, {"type": "string"}], "default": 3}
    assert _plain(kept) == kept
