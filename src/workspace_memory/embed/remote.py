"""The remote providers: openai, gemini, voyage, mistral, ollama and remote (any OpenAI-compatible
server), each in its own wire shape (embed.wire), all through the project's one HTTP client
(endpoints.py: the standard library, so a recall through a remote provider starts as fast as a
lexical one; httpx would add ~60 ms of imports and nothing these JSON POSTs need).

The client is well behaved: texts are split into requests within the provider's limits (texts per
request, tokens per text and per request; a text over the limit is cut, as the providers would do);
429 and 5xx are retried with exponential backoff, or after Retry-After when the server says, until
`retries` or `total_timeout` runs out; each request has its own `timeout`; recall's question has
`query_timeout` for everything, and `memory index` the indexing budget (`total_timeout`) from its
first request on (the dimension probe of a first index included). Every failure becomes
`ProviderUnavailable` with a one-line reason (the fallback chain hands the texts on, naming it),
and the key never appears in one: it is blanked, whole and in pieces, out of whatever the server
echoed (secrecy). A provider that fails or stalls is skipped by the calls with a recall's deadline
for a cool-down (embed.breaker), so concurrent searches pay its timeout once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import secrecy
from ..endpoints import EndpointError, JsonEndpoint
from ..errors import ProviderTimeout, ProviderUnavailable
from ..tokens import estimate_tokens, fit_chars
from .base import clip_texts, l2_normalize
from .breaker import DEFAULT_COOLDOWN, breaker_for
from .wire import DOCUMENT, QUERY, WIRES, Wire, WireError

if TYPE_CHECKING:
    from .config import EmbeddingConfig

# Text used to learn the vector length when nothing has been embedded yet and the model is unknown.
_PROBE_TEXT = "dimension probe"
BACKOFF = 0.5  # seconds before the first retry; doubled for each next one
MAX_WAIT = 60.0  # a Retry-After longer than this is not waited for: the provider is unavailable now
_RETRIED = frozenset({408, 409, 425, 429})  # and every 5xx
_AUTH = frozenset({401, 403})


class RemoteEmbedder:
    """Embeds through one provider's HTTP API (`wire`; OpenAI-compatible by default)."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        headers: Mapping[str, str] | None = None,
        batch_size: int = 32,
        timeout: float = 30.0,
        dimensions: int | None = None,
        wire: Wire | None = None,
        retries: int = 4,
        total_timeout: float = 120.0,
        query_timeout: float = 3.0,
        sleep: Callable[[float], None] = time.sleep,
        state_dir: Path | None = None,
        cooldown: float = DEFAULT_COOLDOWN,
    ) -> None:
        self.wire = wire or Wire()
        self.provider = self.wire.name
        self.base_url = base_url.rstrip("/")
        secrecy.register(api_key)
        try:
            self._endpoint = JsonEndpoint(self.base_url, headers={**self.wire.auth_headers(api_key), **(headers or {})},
                                          timeout=timeout)
        except EndpointError as exc:
            raise ProviderUnavailable(f"{self.provider} embeddings unavailable: {exc} (set [embedding."
                                      f"{self.provider}] base_url or MEMORY_EMBED_BASE_URL)") from None
        if not model:
            raise ProviderUnavailable(f"{self.provider} embeddings unavailable: no model configured "
                                      f"(set [embedding.{self.provider}] model or MEMORY_EMBED_MODEL)")
        self.model = model
        self.batch_size = max(1, min(int(batch_size), self.wire.max_texts))
        self.timeout = timeout
        self.retries = max(0, int(retries))
        self.total_timeout = total_timeout
        self.query_timeout = query_timeout
        self.breaker = breaker_for(self.provider, self.base_url, state_dir, cooldown)
        self.dimensions = dimensions
        self._sleep = sleep
        self._dim: int | None = dimensions or self.wire.dims.get(model.removeprefix("models/"))
        self.texts_sent = 0  # texts embedded by the provider (a retried request counts once)
        self.tokens = 0  # tokens the provider counted (its `usage`), else our estimate

    @property
    def requests(self) -> int:
        """How many HTTP calls this embedder made (tests and `--explain`)."""
        return self._endpoint.requests

    @classmethod
    def from_config(cls, cfg: EmbeddingConfig, state_dir: Path | None) -> RemoteEmbedder:
        """Build from `[embedding.<provider>]` and the provider's defaults; a key that is needed and
        missing, or named by `api_key_env` and unset, is a ProviderUnavailable that names the variable."""
        name = cfg.provider
        wire = WIRES[name]()
        r = cfg.remote_config(name)
        if r.key_problem:
            raise ProviderUnavailable(f"{name} embeddings unavailable: {r.key_problem}")
        if r.api_key_env and not r.api_key:
            raise ProviderUnavailable(f"{name} embeddings unavailable: environment variable {r.api_key_env} "
                                      f"(named by [embedding.{name}] api_key_env) is not set")
        if wire.key_required and not r.api_key:
            raise ProviderUnavailable(f"{name} embeddings unavailable: no API key (set {' or '.join(wire.key_envs)}, "
                                      f"or name the variable in [embedding.{name}] api_key_env)")
        return cls(r.base_url or wire.base_url, r.model or wire.model, api_key=r.api_key, headers=r.headers,
                   batch_size=cfg.batch_size if name == "remote" else wire.max_texts, timeout=r.timeout,
                   dimensions=r.dimensions, wire=wire, retries=r.retries, total_timeout=r.total_timeout,
                   query_timeout=r.query_timeout, state_dir=state_dir, cooldown=r.cooldown)

    @property
    def dim(self) -> int:
        """Vector length: configured `dimensions`, a known model's, else learned from a first answer."""
        if self._dim is None:
            # One tiny request, on the question's deadline: a recall opening its vectors asks this.
            self._embed_batch([_PROBE_TEXT], DOCUMENT, budget=self.query_timeout)
        assert self._dim is not None
        return self._dim

    def ready_for_index(self) -> None:
        """What `memory index` asks first, on the indexing budget (`total_timeout` with retries, not
        a recall's deadline): the vector length when unknown, and one request when the breaker is
        open, so that an index closes it for the recalls after it when the provider is back (an
        index with nothing new to embed would send nothing otherwise)."""
        if self._dim is None or self.breaker.describe()["state"] != "closed":
            self._embed_batch([_PROBE_TEXT], DOCUMENT)

    @property
    def known_dim(self) -> int | None:
        """The vector length if known without a request (status must not call the provider)."""
        return self._dim

    def identity(self) -> str:
        """provider/model/dim. The URL is left out: the same model served elsewhere gives the same vectors."""
        return f"{self.provider}/{self.model}/{self.dim}"

    def embed_documents(self, texts: Sequence[str], budget: float | None = None) -> np.ndarray:
        """Embed passages, split into requests within the provider's limits; rows in input order.

        `budget` (seconds) bounds each request with its retries instead of `total_timeout` (a recall
        embedding new entries must not wait minutes for a provider that is down)."""
        if not texts:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        texts = clip_texts(texts)  # never a 1 MB string: the input limit (limits.MAX_EMBED_CHARS)
        return np.vstack([self._embed_batch(part, DOCUMENT, budget) for part in self.split(texts)])

    def embed_query(self, text: str) -> np.ndarray:
        """One question, as a query where the provider tells them apart, within `query_timeout`."""
        return self._embed_batch(clip_texts([text]), QUERY, budget=self.query_timeout)[0]

    def split(self, texts: Sequence[str]) -> list[list[str]]:
        """The requests `texts` make: at most `batch_size` texts and the provider's tokens per request
        each, every text cut to its tokens per text (and a blank sent as " ": servers reject "")."""
        parts: list[list[str]] = []
        part: list[str] = []
        tokens = 0
        cap = self.wire.max_request_tokens
        for text in texts:
            text = text or " "
            if estimate_tokens(text) > self.wire.max_text_tokens:
                text = text[: fit_chars(text, self.wire.max_text_tokens)]
            n = estimate_tokens(text)
            if part and (len(part) >= self.batch_size or (cap is not None and tokens + n > cap)):
                parts.append(part)
                part, tokens = [], 0
            part.append(text)
            tokens += n
        return [*parts, part] if part else parts

    def _embed_batch(self, texts: Sequence[str], kind: str, budget: float | None = None) -> np.ndarray:
        """One request (retried as the module docstring says), its answer validated.

        A call with a `budget` (a recall's deadline) is skipped while the breaker is open; every
        call's outcome opens or closes it (embed.breaker)."""
        if budget is not None:
            self.breaker.check(budget)
        path, payload = self.wire.request(self.model, [t or " " for t in texts], kind, self.dimensions)
        arr, body = self.send(path, payload, len(texts), budget if budget is not None else self.total_timeout)
        self.texts_sent += len(texts)
        used = self.wire.used_tokens(body)
        self.tokens += used if used is not None else sum(estimate_tokens(t) for t in texts)
        return arr

    def send(self, path: str, payload: Any, n: int, budget: float | None = None) -> tuple[np.ndarray, Any]:
        """POST one request for `n` vectors (retried, within `budget`), read them back checked and
        normalised, and open or close the breaker by the outcome: (vectors, the answer's body).
        embed.media sends its multimodal requests through it too."""
        try:
            body = self._post(path, payload, self.total_timeout if budget is None else budget)
            try:
                rows = self.wire.vectors(body, n)
            except WireError as exc:
                raise self.unavailable(str(exc)) from None
            arr = self.to_array(rows)
        except ProviderUnavailable as exc:
            if getattr(exc, "opens_breaker", True):
                self.breaker.failed(getattr(exc, "reason", str(exc)), isinstance(exc, ProviderTimeout))
            raise
        self.breaker.succeeded()
        return arr, body

    def to_array(self, rows: list[Any]) -> np.ndarray:
        """Check vectors from an answer (equal lengths, this space's dimension, finite) and normalise them."""
        try:
            arr = np.asarray(rows, dtype=np.float32)
        except (TypeError, ValueError):
            raise self.unavailable("embeddings are not equal-length lists of numbers") from None
        if arr.ndim != 2 or arr.shape[1] == 0:
            raise self.unavailable("embeddings are not equal-length lists of numbers")
        if self._dim is not None and arr.shape[1] != self._dim:
            raise self.unavailable(f"expected dimension {self._dim}, got {arr.shape[1]}")
        if not np.isfinite(arr).all():
            raise self.unavailable("response contains non-finite numbers")
        self._dim = int(arr.shape[1])
        return l2_normalize(arr)

    def _post(self, path: str, payload: Any, budget: float) -> Any:
        """POST until an answer, a failure that retrying cannot mend, or the budget's end."""
        return self.call(lambda timeout: self._endpoint.post(path, payload, timeout=timeout), budget)

    def call(self, request: Callable[[float], Any], budget: float | None = None) -> Any:
        """`request(timeout)` through the endpoint, retried as the module docstring says, within
        `budget` seconds (`total_timeout` by default). Batch jobs (embed.batch) use it too."""
        budget = self.total_timeout if budget is None else budget
        deadline = time.monotonic() + budget
        attempt = 0
        while True:
            left = deadline - time.monotonic()
            try:
                return request(max(0.05, round(min(self.timeout, left), 2)))
            except EndpointError as exc:
                error = exc
            if error.status in _AUTH:
                raise self.unavailable(f"key rejected ({error})")
            retryable = error.timed_out or error.status in _RETRIED or (error.status or 0) >= 500
            wait = error.retry_after if error.retry_after is not None else BACKOFF * 2**attempt
            if not retryable or attempt >= self.retries:
                tries = f" (after {_attempts(attempt + 1)})" if attempt else ""
                # A 4xx about this request (400, 404, 413, 422) says nothing about the next one.
                one_request = error.status is not None and 400 <= error.status < 500 and not retryable
                raise self.unavailable(f"{error}{tries}", timeout=error.timed_out, opens_breaker=not one_request)
            if wait > MAX_WAIT or time.monotonic() + wait >= deadline:
                raise self.unavailable(f"{error}; the provider asks to wait {wait:g}s, past this call's "
                                        f"{budget:g}s limit" if error.retry_after is not None else
                                        f"{error}; out of time after {_attempts(attempt + 1)} ({budget:g}s limit)",
                                        timeout=True)
            self._sleep(wait)
            attempt += 1

    @property
    def endpoint(self) -> JsonEndpoint:
        """The HTTP client (with the key's header), for batch jobs."""
        return self._endpoint

    def unavailable(self, reason: str, timeout: bool = False, opens_breaker: bool = True) -> ProviderUnavailable:
        """The error to raise; ProviderTimeout when time ran out (slow, not broken). It carries
        `reason` (for the breaker's record) and whether it opens the breaker."""
        cls = ProviderTimeout if timeout else ProviderUnavailable
        # A server may echo what it was sent: the key (registered by embed.config) is blanked, whole and in pieces.
        error = cls(secrecy.blank(f"{self.provider} embeddings unavailable: {self.base_url}: {reason}"))
        error.reason = secrecy.blank(reason)  # type: ignore[attr-defined]
        error.opens_breaker = opens_breaker  # type: ignore[attr-defined]
        return error


def _attempts(n: int) -> str:
    return f"{n} attempt{'s' if n != 1 else ''}"
