"""recall/params.py is the one declaration of a recall's parameters: RecallRequest, `memory recall`'s
click options, the quick path's table (tests/test_cli_quick.py) and the MCP tool's published
inputSchema all say what it says (names, types, defaults, bounds, choices, help). The OpenClaw
plugin's memory_search mapping is checked against it in tests/test_openclaw_plugin.py."""

from __future__ import annotations

import inspect
from typing import Any

import anyio
import click

from workspace_memory.cli.app import cli
from workspace_memory.mcp.tools import build_server
from workspace_memory.recall.params import PARAMS, Param
from workspace_memory.recall.query import RecallRequest

CLI_OWN = {"batch", "as_json", "workspace", "now"}  # not fields of a request (the last two: hidden global copies)


def expected_property(param: Param) -> dict[str, Any]:
    """What pydantic publishes for `param` in memory_search's inputSchema."""
    schema: dict[str, Any] = {
        "text": lambda: {"type": "string", "maxLength": param.limit},
        "int": lambda: {"type": "integer", "minimum": param.low}
        | ({"maximum": param.high} if param.high is not None else {}),
        "choice": lambda: {"type": "string", "enum": list(param.choices)},
        "flag": lambda: {"type": "boolean"},
    }[param.kind]()
    if param.option is None:  # the query: required, no default
        return schema | {"description": param.agent}
    if param.default is None:
        schema = {"anyOf": [schema, {"type": "null"}]}
    return schema | {"default": param.default, "description": param.agent}


def search_schema() -> dict[str, Any]:
    tools = anyio.run(build_server(None).list_tools)
    return next(t for t in tools if t.name == "memory_search").input_schema


def test_the_mcp_tool_publishes_the_declaration() -> None:
    schema = search_schema()
    offered = [p for p in PARAMS if p.agent is not None]
    assert list(schema["properties"]) == [p.name for p in offered]
    assert schema["required"] == ["query"] and schema["additionalProperties"] is False
    for param in offered:
        assert schema["properties"][param.name] == expected_property(param), param.name


def test_a_request_has_the_declared_fields_and_defaults() -> None:
    signature = inspect.signature(RecallRequest.__init__).parameters
    assert list(RecallRequest.__slots__) == [p.name for p in PARAMS]
    for param in PARAMS:
        if param.option is not None:
            assert signature[param.name].default == param.default, param.name
    assert signature["query"].default is inspect.Parameter.empty  # required of a library caller


def test_the_cli_options_are_the_declaration() -> None:
    command = cli.get_command(click.Context(cli), "recall")
    assert command is not None
    by_name = {p.name: p for p in command.params}
    assert set(by_name) == {p.name for p in PARAMS} | CLI_OWN
    for param in PARAMS:
        option = by_name[param.name]
        if param.option is None:
            assert isinstance(option, click.Argument) and not option.required
            continue
        assert isinstance(option, click.Option) and option.opts == [param.option], param.name
        assert option.help == param.help and option.metavar == param.metavar, param.name
        if param.kind == "int":
            assert isinstance(option.type, click.IntRange)
            assert (option.type.min, option.type.max) == (param.low, param.high), param.name
        if param.kind == "choice":
            assert isinstance(option.type, click.Choice) and tuple(option.type.choices) == param.choices
        assert option.is_flag == (param.kind == "flag") and option.multiple == (param.kind == "multiple")
