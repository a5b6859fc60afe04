"""OpenClaw session transcripts for tests and benchmarks: the JSONL that OpenClaw writes."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any


def header(session_id: str, at: str) -> dict[str, Any]:
    return {"type": "session", "version": 3, "id": session_id, "timestamp": at, "cwd": "/home/peter"}


def message(role: str, text: str, at: str, *, thinking: str | None = None, tool: bool = False) -> dict[str, Any]:
    """A user or assistant message line; an assistant may think and call a tool around its text."""
    content: list[dict[str, Any]] = []
    if thinking:
        content.append({"type": "thinking", "thinking": thinking, "thinkingSignature": "sig"})
    content.append({"type": "text", "text": text})
    if tool:
        content.append({"type": "toolCall", "id": "call_1", "name": "read", "arguments": {"path": "/etc/hosts"}})
    body: dict[str, Any] = {"role": role, "content": content}
    if role == "assistant":
        body |= {"api": "openai-responses", "provider": "openai", "model": "gpt-5", "stopReason": "stop",
                 "usage": {"input": 120, "output": 40, "cost": {"total": 0.001}}}
    stamp = int(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000)
    return {"type": "message", "id": f"m{stamp}", "parentId": None, "timestamp": at, "message": body | {
        "timestamp": stamp}}


def tool_result(text: str, at: str) -> dict[str, Any]:
    return {"type": "message", "timestamp": at, "message": {"role": "toolResult", "toolCallId": "call_1",
                                                              "toolName": "read", "content": [{"type": "text",
                                                                                               "text": text}]}}


def write_lines(path: Path, lines: list[Any], mode: str = "w") -> None:
    """Write (or append) JSONL lines; a str is written as it is (a malformed line)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, mode, encoding="utf-8") as fh:
        for line in lines:
            fh.write((line if isinstance(line, str) else json.dumps(line, ensure_ascii=False)) + "\n")


def conversation(session_id: str, start: datetime, turns: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """A header and one message per (role, text), a minute apart."""
    stamp = start.astimezone(UTC)
    lines: list[dict[str, Any]] = [header(session_id, iso(stamp))]
    for n, (role, text) in enumerate(turns):
        lines.append(message(role, text, iso(stamp + timedelta(minutes=n + 1))))
    return lines


def iso(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")
