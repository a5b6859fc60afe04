"""Optional model assist: an OpenAI-compatible chat endpoint (llama.cpp server, Ollama, ...). Off by default.

Configured in the workspace's memory.toml; without this table reflect never opens a socket:

    [reflect.model]
    base_url = "http://127.0.0.1:8080/v1"   # POST {base_url}/chat/completions
    model = "qwen2.5-3b-instruct"
    api_key_env = "LLAMA_API_KEY"            # optional: name of the env var holding a bearer token
    timeout = 30                             # seconds per request
    summaries = true                         # write entity-page summaries
    retain = true                            # suggest Retain bullets for daily logs without any
    stances = true                           # judge the opinion pairs whose stance the rule leaves unclear

What a model writes is never a fact: summaries sit in an entity page's generated region
(marked as model-written, and reused while the page's facts are unchanged, so runs stay
idempotent), and suggested Retain bullets go to bank/proposals.md for a human, never into a
daily log. Every failure (refused connection, timeout, bad JSON) becomes a notice and reflect
falls back to its deterministic output. The HTTP client is the project's one (endpoints.py).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from .. import secrecy
from ..endpoints import EndpointError, JsonEndpoint
from ..errors import UserError
from ..markdown.retain import normalize_bullet, validate_bullet
from .regions import one_line

MAX_SUMMARY_CHARS = 800
MAX_RETAIN_BULLETS = 8
MAX_DAY_CHARS = 6000


class ModelError(Exception):
    """The endpoint could not be used; the message is one line for a notice."""


@dataclass(frozen=True)
class ChatModel:
    """A chat-completions endpoint."""

    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 30.0
    summaries: bool = True
    retain: bool = True
    stances: bool = True
    key_problem: str | None = None  # why the variable's value cannot be a key (secrecy.key_problem)

    @property
    def label(self) -> str:
        return self.model

    def complete(self, system: str, user: str) -> str:
        """One chat completion at temperature 0; raises ModelError."""
        payload = {
            "model": self.model, "temperature": 0, "stream": False,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
        }
        where = f"model {self.model} at {self.base_url.rstrip('/')}/chat/completions"
        if self.key_problem:
            raise ModelError(f"{where}: {self.key_problem}")
        try:
            data = JsonEndpoint(self.base_url, api_key=self.api_key, timeout=self.timeout).post(
                "chat/completions", payload)
            content = data["choices"][0]["message"]["content"]
        except EndpointError as exc:
            raise ModelError(f"{where}: {one_line(str(exc), 120)}") from None
        except (KeyError, IndexError, TypeError):
            raise ModelError(f"{where}: the reply is not a chat completion") from None
        if not isinstance(content, str):
            raise ModelError(f"{where}: the reply has no text")
        return secrecy.blank(content)  # a model that echoes its key never writes it into a bank page


def model_from_config(config: dict[str, Any]) -> ChatModel | None:
    """The configured model, or None when `[reflect.model]` is absent or has no base_url/model."""
    section = (config.get("reflect") or {}).get("model")
    if section is None:
        return None
    if not isinstance(section, dict):
        raise UserError("memory.toml: [reflect.model] must be a table")
    for key, expected, name in (("base_url", str, "a string"), ("model", str, "a string"),
                                ("api_key_env", str, "a string"), ("summaries", bool, "true or false"),
                                ("retain", bool, "true or false"), ("stances", bool, "true or false")):
        if key in section and not isinstance(section[key], expected):
            raise UserError(f"memory.toml: [reflect.model] {key} must be {name}, not {section[key]!r:.40}")
    timeout = section.get("timeout", 30)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
        raise UserError(f"memory.toml: [reflect.model] timeout must be a positive number, not {timeout!r:.40}")
    if not section.get("base_url") or not section.get("model"):
        return None
    key_env = section.get("api_key_env")
    key = os.environ.get(key_env) or None if key_env else None
    problem = secrecy.key_problem(key, key_env) if key else None
    if key and not problem:
        secrecy.register(key)
    return ChatModel(
        base_url=section["base_url"], model=section["model"], api_key=None if problem else key,
        timeout=float(timeout), summaries=section.get("summaries", True), retain=section.get("retain", True),
        stances=section.get("stances", True), key_problem=problem,
    )


_SUMMARY_SYSTEM = (
    "You summarise what an assistant's memory says about one entity. Use only the facts given. "
    "Write 2 to 4 plain sentences, newest information first. No lists, no headings, no speculation."
)
_RETAIN_SYSTEM = (
    "You extract durable facts from an assistant's daily log. Reply with up to 8 lines, one fact per line, "
    "each in the form `W @Entity: text` (world fact), `B @Entity: text` (something the assistant did, first "
    "person), or `O(c=0.0..1.0) @Entity: text` (an opinion with a confidence). Entities are @Slugs such as "
    "@Peter or @The-Castle. Reply with the lines only."
)


def summarize(model: ChatModel, name: str, fact_lines: list[str]) -> list[str]:
    """A model-written summary paragraph (one line) for an entity page; raises ModelError."""
    reply = model.complete(_SUMMARY_SYSTEM, f"Entity: {name}\nFacts (newest first):\n" + "\n".join(fact_lines))
    text = one_line(reply, MAX_SUMMARY_CHARS)
    if not text:
        raise ModelError(f"model {model.model}: empty summary for {name}")
    return [text]


def suggest_retain(model: ChatModel, day: str, log_text: str) -> list[str]:
    """Retain bullets the model suggests for one day's log, only those the grammar accepts."""
    reply = model.complete(_RETAIN_SYSTEM, f"Daily log of {day}:\n\n{log_text[:MAX_DAY_CHARS]}")
    out: list[str] = []
    for raw in reply.splitlines():
        line = normalize_bullet(raw.strip().strip("`"))
        if line and validate_bullet(line) is None and line not in out:
            out.append(one_line(line))
        if len(out) >= MAX_RETAIN_BULLETS:
            break
    return out


_STANCE_SYSTEM = (
    "You compare two opinions an assistant's memory holds about the same thing. The second was written "
    "later. Does the second contradict the first (the writer changed their mind), support it (the same "
    "view, restated or narrowed), or is it unrelated (about something else)? Reply with one word: "
    "contradiction, support or unrelated."
)
STANCE_LABELS = ("contradiction", "support", "unrelated")


def judge_stance(model: ChatModel, opinion: str, statement: str) -> str:
    """The model's stance of `statement` (newer) toward `opinion`: one of STANCE_LABELS; raises ModelError."""
    reply = model.complete(_STANCE_SYSTEM, f"First: {one_line(opinion, 400)}\nSecond: {one_line(statement, 400)}")
    word = next(iter(reply.strip().casefold().split()), "").strip(".,:;!\"'*")
    if word not in STANCE_LABELS:
        raise ModelError(f"model {model.model}: no stance in its reply ({one_line(reply, 60)!r})")
    return word
