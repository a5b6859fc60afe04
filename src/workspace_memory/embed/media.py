"""Images and recordings embedded as themselves by Gemini's multimodal model (issue 41, "remote,
when chosen"): `[media] embedding = "gemini"`, through the same client as the text providers.

The connection is `[embedding.gemini]`'s (base_url, api_key_env, headers, timeouts, retries): the key
comes from GEMINI_API_KEY / GOOGLE_API_KEY or the named variable, travels in `x-goog-api-key` to
that one origin, and is blanked out of every error (secrecy), as for a text provider. The request
shape is embed.wire.GeminiWire.media_request. A file is sent whole, inline: requests hold at most
MAX_FILES files and MAX_REQUEST_BYTES of them (Gemini's inline limit is 20 MB a request, base64
included).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from .remote import RemoteEmbedder
from .wire import GeminiWire

if TYPE_CHECKING:
    from .config import EmbeddingConfig

T = TypeVar("T")
MAX_FILES = 16  # files a request
MAX_REQUEST_BYTES = 12 * 1024 * 1024  # raw bytes a request (base64 makes 16 MB of them, under Gemini's 20 MB)


class MediaEmbedder:
    """Media files (label, MIME type, bytes) and questions into one Gemini multimodal space."""

    def __init__(self, remote: RemoteEmbedder) -> None:
        self.remote = remote
        self.wire: GeminiWire = remote.wire  # type: ignore[assignment]

    @classmethod
    def from_config(cls, cfg: EmbeddingConfig, model: str, dimensions: int | None,
                    state_dir: Path | None) -> MediaEmbedder:
        """`[embedding.gemini]`'s connection with the media model (a missing key: ProviderUnavailable
        naming the variables)."""
        gemini = cfg.remote_config("gemini")
        gemini = replace(gemini, model=model, dimensions=dimensions or gemini.dimensions)
        chosen = replace(cfg, provider="gemini", remotes={**cfg.remotes, "gemini": gemini})
        return cls(RemoteEmbedder.from_config(chosen, state_dir))

    def identity(self) -> str:
        """provider/model/dim, without a request (the model's default length when none is set)."""
        remote = self.remote
        return f"{remote.provider}/{remote.model}/{remote.known_dim or 0}"

    def embed_files(self, files: Sequence[tuple[str, str, bytes]]) -> np.ndarray:
        """One vector per file, in order, on the indexing budget (`total_timeout`, with retries)."""
        rows = [self._request(part) for part in split(files, lambda f: len(f[2]))]
        return np.vstack(rows) if rows else np.zeros((0, self.remote.known_dim or 0), np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        """A question, as text in the same space, within the provider's `query_timeout`."""
        return self.remote.embed_query(text)

    def _request(self, files: Sequence[tuple[str, str, bytes]]) -> np.ndarray:
        path, payload = self.wire.media_request(self.remote.model, files, self.remote.dimensions)
        return self.remote.send(path, payload, len(files))[0]


def split(items: Sequence[T], size: Callable[[T], int]) -> list[list[T]]:
    """The requests `items` make: at most MAX_FILES each and MAX_REQUEST_BYTES of their `size` (a
    bigger file alone). media_space groups the files to read with it, embed_files the files read."""
    parts: list[list[T]] = []
    total = 0
    for item in items:
        n = size(item)
        if not parts or len(parts[-1]) >= MAX_FILES or total + n > MAX_REQUEST_BYTES:
            parts.append([])
            total = 0
        parts[-1].append(item)
        total += n
    return parts
