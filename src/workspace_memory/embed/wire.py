"""Each remote provider's request and response shapes, from its public API reference.

One `Wire` per provider says where to send texts, how to say "this is a query" or "this is a
document", how to read the vectors back, which environment variable usually holds its key, and
its input limits (texts per request, tokens per text, tokens per request). The HTTP itself, the
splitting and the retries are embed.remote's, the same for all.

    provider            request                                               query / document
    openai              POST {base}/embeddings {model, input[], dimensions}   none
    gemini              POST {base}/models/{m}:embedContent (a query)         taskType RETRIEVAL_QUERY /
                        POST {base}/models/{m}:batchEmbedContents (documents)          RETRIEVAL_DOCUMENT
                        (gemini-embedding-2: a task prefix in the text instead; an image or a
                        recording as an inlineData part beside its label: GeminiWire.media_request)
    voyage              POST {base}/embeddings {model, input[], input_type}   input_type query / document
    mistral             POST {base}/embeddings {model, input[]}               none
    ollama              POST {base}/api/embed {model, input[], dimensions}    none
    remote              POST {base}/embeddings (OpenAI-compatible servers)    none

Limits are the documented ones (Dec 2026), kept a little under where a provider counts tokens
with its own tokenizer: our estimate (tokens.estimate_tokens) is about 4 characters a token.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any, ClassVar

QUERY, DOCUMENT = "query", "document"


class WireError(Exception):
    """The provider's answer does not have the shape its API reference gives (one line)."""


def _n_items(items: Any, key: str, n: int) -> list[Any]:
    """`items` (the answer's `key`) checked: a list of exactly `n` entries, else a WireError."""
    if not isinstance(items, list):
        raise WireError(f"response has no '{key}' list")
    if len(items) != n:
        raise WireError(f"expected {n} embeddings, got {len(items)}")
    return items


class Wire:
    """The OpenAI `/embeddings` shape; the other providers override what differs."""

    name: ClassVar[str] = "remote"
    label: ClassVar[str] = "OpenAI-compatible"
    key_envs: ClassVar[tuple[str, ...]] = ()  # the provider's usual variables, first set wins
    base_url: ClassVar[str] = ""  # "" = must be configured
    model: ClassVar[str] = ""  # "" = must be configured
    dims: ClassVar[dict[str, int]] = {}  # known models' default vector length (saves a probe request)
    max_texts: ClassVar[int] = 2048
    max_text_tokens: ClassVar[int] = 8191
    max_request_tokens: ClassVar[int | None] = None
    key_required: ClassVar[bool] = False

    def auth_headers(self, key: str | None) -> dict[str, str]:
        """How the key travels: a bearer token for most; never in the URL, which errors may show."""
        return {"Authorization": f"Bearer {key}"} if key else {}

    def request(self, model: str, texts: Sequence[str], kind: str, dimensions: int | None) -> tuple[str, Any]:
        """(path under base_url, JSON body) for one request embedding `texts` as `kind`."""
        body: dict[str, Any] = {"model": model, "input": list(texts)}
        if dimensions is not None:
            body["dimensions"] = dimensions
        return "embeddings", body

    def vectors(self, body: Any, n: int) -> list[Any]:
        """The `n` vectors of an answer, in input order (OpenAI's `data[].index` may reorder them)."""
        data = _n_items(body.get("data") if isinstance(body, dict) else None, "data", n)
        rows: list[Any] = [None] * n
        for pos, item in enumerate(data):
            if not isinstance(item, dict) or not isinstance(item.get("embedding"), list):
                raise WireError("an item in 'data' has no 'embedding' list")
            idx = item.get("index", pos)
            if not isinstance(idx, int) or not 0 <= idx < n or rows[idx] is not None:
                raise WireError(f"bad or repeated 'index' {idx!r} in response")
            rows[idx] = item["embedding"]
        return rows

    def used_tokens(self, body: Any) -> int | None:
        """Tokens the provider says it counted for the request, when it says."""
        usage = body.get("usage") if isinstance(body, dict) else None
        if isinstance(usage, dict):
            for key in ("total_tokens", "prompt_tokens"):
                if isinstance(usage.get(key), int):
                    return usage[key]
        return None


class OpenAIWire(Wire):
    """OpenAI: 2,048 inputs and 300,000 tokens a request, 8,192 tokens an input; `dimensions` shortens."""

    name = "openai"
    label = "OpenAI"
    key_envs = ("OPENAI_API_KEY",)
    base_url = "https://api.openai.com/v1"
    model = "text-embedding-3-small"
    dims = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072, "text-embedding-ada-002": 1536}
    max_request_tokens = 250_000
    key_required = True

    def request(self, model: str, texts: Sequence[str], kind: str, dimensions: int | None) -> tuple[str, Any]:
        path, body = super().request(model, texts, kind, dimensions)
        body["encoding_format"] = "float"  # the default is float too; said so a proxy cannot pick base64
        return path, body


class GeminiWire(Wire):
    """Gemini API: embedContent for one query, batchEmbedContents (100 a request) for documents;
    2,048 tokens an input; `outputDimensionality` shortens; the key in `x-goog-api-key`.

    gemini-embedding-2 (multimodal) takes no taskType: the task is a prefix of the text
    ("task: search result | query: ..." for a question, "title: none | text: ..." for a passage),
    and an image or a recording is an `inlineData` part ({mimeType, data: base64}) beside a text part
    that names it. That shape is OpenClaw 2026.9.6's own (extensions/google/embedding-provider.ts and
    its memory host's multimodal chunks, read from its package in .node/), as sent to Google's API."""

    name = "gemini"
    label = "Gemini"
    key_envs = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
    base_url = "https://generativelanguage.googleapis.com/v1beta"
    model = "gemini-embedding-001"
    dims = {"gemini-embedding-001": 3072, "text-embedding-004": 768, "gemini-embedding-2": 3072,
            "gemini-embedding-2-preview": 3072}
    max_texts = 100
    max_text_tokens = 2000
    key_required = True
    # gemini-embedding-2's task prefixes (OpenClaw's GEMINI_EMBEDDING_2_TASK_PREFIXES)
    PREFIXES: ClassVar[dict[str, str]] = {QUERY: "task: search result | query: ", DOCUMENT: "title: none | text: "}

    def auth_headers(self, key: str | None) -> dict[str, str]:
        return {"x-goog-api-key": key} if key else {}

    @staticmethod
    def model_path(model: str) -> str:
        return model if model.startswith("models/") else f"models/{model}"

    def _item(self, name: str, parts: list[dict[str, Any]], kind: str, dimensions: int | None) -> dict[str, Any]:
        """One request of a batch (or the body of embedContent, without its model)."""
        item: dict[str, Any] = {"model": name, "content": {"parts": parts}}
        if name.removeprefix("models/") != "gemini-embedding-2":
            item["taskType"] = "RETRIEVAL_QUERY" if kind == QUERY else "RETRIEVAL_DOCUMENT"
        elif all("text" in p for p in parts):  # the stable model says the task in the text
            parts[0] = {"text": self.PREFIXES[kind] + parts[0]["text"]}
        if dimensions is not None:
            item["outputDimensionality"] = dimensions
        return item

    def request(self, model: str, texts: Sequence[str], kind: str, dimensions: int | None) -> tuple[str, Any]:
        name = self.model_path(model)
        if kind == QUERY and len(texts) == 1:
            body = self._item(name, [{"text": texts[0]}], kind, dimensions)
            del body["model"]  # embedContent names the model in its path only
            return f"{name}:embedContent", body
        return f"{name}:batchEmbedContents", {"requests": [self._item(name, [{"text": t}], kind, dimensions)
                                                           for t in texts]}

    def media_request(self, model: str, files: Sequence[tuple[str, str, bytes]],
                      dimensions: int | None) -> tuple[str, Any]:
        """batchEmbedContents for media files, each (label, MIME type, bytes): the label as a text
        part and the bytes inline, as OpenClaw sends a multimodal memory file."""
        name = self.model_path(model)
        return f"{name}:batchEmbedContents", {"requests": [
            self._item(name, [{"text": label}, {"inlineData": {"mimeType": mime,
                                                               "data": base64.b64encode(data).decode("ascii")}}],
                       DOCUMENT, dimensions) for label, mime, data in files]}

    def vectors(self, body: Any, n: int) -> list[Any]:
        if not isinstance(body, dict):
            raise WireError("response is not a JSON object")
        items = _n_items([body["embedding"]] if "embedding" in body and n == 1 else body.get("embeddings"),
                         "embeddings", n)
        if not all(isinstance(it, dict) and isinstance(it.get("values"), list) for it in items):
            raise WireError("an embedding has no 'values' list")
        return [it["values"] for it in items]


class VoyageWire(Wire):
    """Voyage AI: 1,000 inputs and 320,000 tokens a request (voyage-3.5); `input_type` query or
    document; `output_dimension` shortens."""

    name = "voyage"
    label = "Voyage AI"
    key_envs = ("VOYAGE_API_KEY",)
    base_url = "https://api.voyageai.com/v1"
    model = "voyage-3.5"
    dims = {"voyage-3.5": 1024, "voyage-3.5-lite": 1024, "voyage-3-large": 1024, "voyage-3": 1024,
            "voyage-3-lite": 512, "voyage-code-3": 1024}
    max_texts = 1000
    max_text_tokens = 32_000
    max_request_tokens = 100_000  # voyage-3-large allows 120K, the lowest of the family
    key_required = True

    def request(self, model: str, texts: Sequence[str], kind: str, dimensions: int | None) -> tuple[str, Any]:
        body: dict[str, Any] = {"model": model, "input": list(texts), "input_type": kind}
        if dimensions is not None:
            body["output_dimension"] = dimensions
        return "embeddings", body


class MistralWire(Wire):
    """Mistral: the OpenAI shape; mistral-embed has 1,024 dimensions, 8,192 tokens an input, and a
    request's total is bounded too (16,384 tokens)."""

    name = "mistral"
    label = "Mistral"
    key_envs = ("MISTRAL_API_KEY",)
    base_url = "https://api.mistral.ai/v1"
    model = "mistral-embed"
    dims = {"mistral-embed": 1024}
    max_texts = 512
    max_text_tokens = 8000
    max_request_tokens = 15_000
    key_required = True

    def request(self, model: str, texts: Sequence[str], kind: str, dimensions: int | None) -> tuple[str, Any]:
        body: dict[str, Any] = {"model": model, "input": list(texts)}
        if dimensions is not None:
            body["output_dimension"] = dimensions  # codestral-embed only; mistral-embed has one size
        return "embeddings", body


class OllamaWire(Wire):
    """Ollama's native `/api/embed`: many inputs at once, `truncate` to the model's context; no key
    (OLLAMA_API_KEY if a proxy in front wants one)."""

    name = "ollama"
    label = "Ollama"
    key_envs = ("OLLAMA_API_KEY",)
    base_url = "http://127.0.0.1:11434"
    model = "nomic-embed-text"
    dims = {"nomic-embed-text": 768, "mxbai-embed-large": 1024, "all-minilm": 384}
    max_texts = 256

    def request(self, model: str, texts: Sequence[str], kind: str, dimensions: int | None) -> tuple[str, Any]:
        body: dict[str, Any] = {"model": model, "input": list(texts), "truncate": True}
        if dimensions is not None:
            body["dimensions"] = dimensions
        return "api/embed", body

    def vectors(self, body: Any, n: int) -> list[Any]:
        return _n_items(body.get("embeddings") if isinstance(body, dict) else None, "embeddings", n)

    def used_tokens(self, body: Any) -> int | None:
        count = body.get("prompt_eval_count") if isinstance(body, dict) else None
        return count if isinstance(count, int) else None


WIRES: dict[str, type[Wire]] = {w.name: w for w in (Wire, OpenAIWire, GeminiWire, VoyageWire, MistralWire, OllamaWire)}
