"""One real HTTP server on 127.0.0.1 that speaks every remote embedding provider's shapes (no network).

    openai, voyage, mistral, remote   POST /v1/embeddings            {data: [{index, embedding}], usage}
    gemini                            POST /v1beta/models/M:embedContent, :batchEmbedContents
    ollama                            POST /api/embed                 {embeddings: [[...]]}

It checks each provider's way of sending the key (Bearer, or x-goog-api-key) and answers a wrong
one with 401 and a message that echoes the key, as some providers do, so tests see that the client
never repeats it. `script` is a list of failures for the next requests, in order: an int status
(with `retry_after` for the first), "badjson", or "hang" (answer after `hang_seconds`).
`slow_queries` delays only gemini's embedContent (the question's request).

Gemini's multimodal gemini-embedding-2 (the shape OpenClaw 2026.9.6 sends): a request's parts may
hold an `inlineData` {mimeType, data: base64} beside a text label; the server decodes it and
"sees" what `pictures` says the file (by its sha256) shows, else only the label. Text for that
model carries its task as a prefix ("task: search result | query: "), which it reads and drops; a
taskType sent to it is refused (400), as are bad base64 and a MIME type of another kind. A file it
"sees" is embedded by what it shows (its label aside, as a model looking at the picture would).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler

from http_fixtures import RecordingServer, send_json

DIM = 32
# What a model answers when no dimensions are asked for (the real models' sizes; others: DIM).
MODEL_DIMS = {"text-embedding-3-small": 1536, "mistral-embed": 1024, "nomic-embed-text": 768,
              "gemini-embedding-001": 3072, "voyage-3.5": 1024}


def dim_for(model: str, asked: int | None) -> int:
    return asked or MODEL_DIMS.get(model.removeprefix("models/"), DIM)


def bag_of_words(text: str, dim: int = DIM) -> list[float]:
    """Hashed bag of lower-cased words: texts that share words are close (deliberately not normalised)."""
    vec = [0.0] * dim
    for word in re.findall(r"\w+", text.lower()):
        digest = hashlib.sha256(word.encode()).digest()
        vec[int.from_bytes(digest[:4], "little") % dim] += 3.0 if digest[4] & 1 else -3.0
    vec[0] += 0.5  # never the zero vector, even for " "
    return vec


class ProviderServer(RecordingServer):
    """All providers on one port; `base(provider)` is the base_url to configure for each."""

    def __init__(self, key: str = "") -> None:
        self.key = key
        self.script: list[object] = []
        self.retry_after: str | None = None
        self.hang_seconds = 2.0
        self.slow_queries = 0.0
        self.dead = False  # every request fails with 500
        self.pictures: dict[str, str] = {}  # sha256 of a media file -> what gemini-embedding-2 sees in it
        self.media_seen: list[tuple[str, str]] = []  # (mimeType, sha256) of each inline file received
        super().__init__()

    def base(self, provider: str) -> str:
        root = f"http://127.0.0.1:{self.port}"
        return {"gemini": f"{root}/v1beta", "ollama": root}.get(provider, f"{root}/v1")

    def paths(self) -> list[str]:
        return [r["path"] for r in self.requests]

    def answer(self, handler: BaseHTTPRequestHandler, path: str, body: dict) -> None:
        if self.dead:
            return send_json(handler, 500, {"error": {"message": "upstream overloaded"}})
        if self.script:
            step = self.script.pop(0)
            if step == "badjson":
                return send_json(handler, 200, b"{not json")
            if step == "hang":
                time.sleep(self.hang_seconds)
            elif isinstance(step, int):
                return self._fail(handler, step)
        # handler.headers is case-insensitive, as HTTP headers are.
        sent = handler.headers.get("x-goog-api-key") if path.startswith("/v1beta/") else \
            (handler.headers.get("Authorization") or "").removeprefix("Bearer ")
        if self.key and sent != self.key:
            return send_json(handler, 401, {"error": {"message": f"Incorrect API key provided: {sent}"}})
        if path.startswith("/v1beta/models/"):
            return self._gemini(handler, path, body)
        if path == "/api/embed":
            vectors = [bag_of_words(t, dim_for(body["model"], body.get("dimensions"))) for t in body["input"]]
            return send_json(handler, 200, {"model": body["model"], "embeddings": vectors, "prompt_eval_count": 7})
        if path == "/v1/embeddings":
            dim = dim_for(body["model"], body.get("dimensions") or body.get("output_dimension"))
            data = [{"object": "embedding", "index": i, "embedding": bag_of_words(t, dim)}
                    for i, t in enumerate(body["input"])]
            return send_json(handler, 200, {"object": "list", "data": data[::-1], "model": body["model"],
                                            "usage": {"prompt_tokens": 11, "total_tokens": 11}})
        return send_json(handler, 404, {"error": {"message": f"no route {path}"}})

    def _fail(self, handler: BaseHTTPRequestHandler, status: int) -> None:
        raw = b'{"error": {"message": "slow down"}}'
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(raw)))
        if self.retry_after is not None:
            handler.send_header("Retry-After", self.retry_after)
            self.retry_after = None
        handler.end_headers()
        handler.wfile.write(raw)

    def _gemini(self, handler: BaseHTTPRequestHandler, path: str, body: dict) -> None:
        model, _, method = path.removeprefix("/v1beta/").partition(":")
        if method == "embedContent":
            time.sleep(self.slow_queries)
            text = self._seen(model, body)
            if text is None:
                return send_json(handler, 400, {"error": {"message": "bad request for this model"}})
            dim = dim_for(model, body.get("outputDimensionality"))
            return send_json(handler, 200, {"embedding": {"values": bag_of_words(text, dim)}})
        if method == "batchEmbedContents":
            assert all(r["model"] == model for r in body["requests"]), "each request names the path's model"
            texts = [self._seen(model, r) for r in body["requests"]]
            if None in texts:
                return send_json(handler, 400, {"error": {"message": "bad request for this model"}})
            return send_json(handler, 200, {"embeddings": [
                {"values": bag_of_words(t, dim_for(model, r.get("outputDimensionality")))}  # type: ignore[arg-type]
                for t, r in zip(texts, body["requests"], strict=True)]})
        return send_json(handler, 404, {"error": {"message": f"no method {method}"}})

    def _seen(self, model: str, request: dict) -> str | None:
        """What the model reads in one request's parts (None: a request it would refuse)."""
        parts = request["content"]["parts"]
        if model != "models/gemini-embedding-2":
            return parts[0]["text"]
        if "taskType" in request:
            return None  # gemini-embedding-2 takes its task in the text
        seen = []
        for part in parts:
            if "text" in part:
                seen.append(re.sub(r"^(task: [\w ]+ \| query: |title: none \| text: )", "", part["text"]))
                continue
            inline = part.get("inlineData") or {}
            try:
                data = base64.b64decode(inline["data"], validate=True)
            except (KeyError, binascii.Error):
                return None
            if not str(inline.get("mimeType", "")).startswith(("image/", "audio/")):
                return None
            digest = hashlib.sha256(data).hexdigest()
            self.media_seen.append((inline["mimeType"], digest))
            if digest in self.pictures:
                return self.pictures[digest]
        return " ".join(seen)


@contextmanager
def serving(key: str = "") -> Iterator[ProviderServer]:
    """A ProviderServer for the block (closed after it), for tests that need one without a fixture."""
    srv = ProviderServer(key=key)
    try:
        yield srv
    finally:
        srv.close()
