"""Embedding settings: the `[embedding]` table of `memory.toml`, plus environment overrides.

```toml
[embedding]
provider = "auto"            # auto | auto-remote | local | openai | gemini | voyage | mistral | ollama |
                             #   remote (= openai-compatible) | none | fake
model = "use-multilingual-v3"  # local: use-multilingual-v3 | all-MiniLM-L6-v2 |
                               #   all-MiniLM-L6-v2+use-multilingual-v3 | a sentence-transformers folder
batch_size = 32
fallback = ["local"]         # tried in order when the provider fails (a string is a list of one)

[embedding.remote]           # any OpenAI-compatible /v1/embeddings server (llama.cpp, vLLM, LM Studio)
base_url = "http://127.0.0.1:8080/v1"
model = "nomic-embed-text"
api_key_env = "EMBED_API_KEY"  # name of the variable holding the key, never the key itself
headers = { "X-Team" = "ops" }
timeout = 30                  # seconds for one HTTP request
dimensions = 768              # optional; sent to servers that can shorten vectors

[embedding.gemini]           # the same keys for openai, gemini, voyage, mistral and ollama, plus:
retries = 4                   # 429 and 5xx are retried with backoff and Retry-After
total_timeout = 120           # seconds for one batch of texts, retries included
query_timeout = 3             # seconds for recall's question; then a lexical answer with a notice
cooldown = 30                 # seconds recalls skip a provider that failed or stalled (0: never)
```

A provider's key comes from `api_key_env` when it names a variable, else from the provider's usual
variable (embed.wire: OPENAI_API_KEY, GEMINI_API_KEY or GOOGLE_API_KEY, VOYAGE_API_KEY,
MISTRAL_API_KEY). It is read once and kept out of every repr, notice and status.

`auto` keeps its meaning (local when installed); `auto-remote` is OpenClaw's order, opt-in: OpenAI
when its key resolves, else Gemini when its key does, else `auto`.

Environment overrides (each beats the file): MEMORY_EMBED_PROVIDER, MEMORY_EMBED_MODEL (the model of
the provider in use), MEMORY_EMBED_BASE_URL (the URL of the remote provider in use).

When neither names a local model, an index that already has vectors keeps the model it was built
with, and `DEFAULT_LOCAL_MODEL` applies to new workspaces and after `memory index --rebuild`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# The HTTP providers, each with its own table `[embedding.<name>]` and wire shape (embed.wire).
REMOTE_PROVIDERS = ("openai", "gemini", "voyage", "mistral", "ollama", "remote")
PROVIDERS = ("auto", "auto-remote", "local", *REMOTE_PROVIDERS, "none", "fake")
ALIASES = {"openai-compatible": "remote"}
# Chosen by measurement (docs/embeddings.md): on LoCoMo it is within 0.01 of all-MiniLM-L6-v2,
# it is multilingual, and it needs no torch; MiniLM is one setting away (model = "all-MiniLM-L6-v2").
DEFAULT_LOCAL_MODEL = "use-multilingual-v3"
DEFAULT_BATCH_SIZE = 32
DEFAULT_TIMEOUT = 30.0
DEFAULT_TOTAL_TIMEOUT = 120.0
DEFAULT_QUERY_TIMEOUT = 3.0  # a recall waits this long for its question's vector, then answers lexically
DEFAULT_RETRIES = 4
DEFAULT_COOLDOWN = 30.0  # seconds a provider that failed or stalled is skipped by recalls (embed.breaker)


@dataclass
class RemoteConfig:
    """`[embedding.<provider>]`: where a remote provider lives and how to call it ("" = its default)."""

    base_url: str = ""
    model: str = ""
    api_key_env: str | None = None
    # The key itself is read from the environment once, and kept out of repr() so that it never
    # lands in a log line or a traceback.
    api_key: str | None = field(default=None, repr=False)
    headers: dict[str, str] = field(default_factory=dict)
    timeout: float = DEFAULT_TIMEOUT
    dimensions: int | None = None
    total_timeout: float = DEFAULT_TOTAL_TIMEOUT
    query_timeout: float = DEFAULT_QUERY_TIMEOUT
    retries: int = DEFAULT_RETRIES
    cooldown: float = DEFAULT_COOLDOWN  # seconds a failing provider is skipped by recalls (embed.breaker)
    # Which variable the key came from (shown by status; the value never is).
    api_key_from: str | None = None
    # Why the variable's value cannot be a key (secrecy.key_problem: names the variable, never the
    # value); the provider is then unavailable with this line, and the fallback chain goes on.
    key_problem: str | None = None


@dataclass
class BatchConfig:
    """`[embedding.batch]`: batch jobs for a big index through `openai` (embed.batch). OpenClaw's
    `remote.batch` settings under our names: enabled, wait, poll_interval (s), timeout_minutes,
    concurrency; and min_texts (fewer texts are sent as ordinary requests) and job_texts."""

    enabled: bool = True
    min_texts: int = 1000
    job_texts: int = 5000
    wait: bool = True
    poll_interval: float = 5.0
    timeout_minutes: float = 60.0
    concurrency: int = 2

    @classmethod
    def from_mapping(cls, table: Any) -> BatchConfig:
        table = table or {}
        if not isinstance(table, Mapping):
            raise ValueError("[embedding.batch] must be a table")
        out = cls()
        for name in ("enabled", "wait"):
            value = table.get(name, getattr(out, name))
            if not isinstance(value, bool):
                raise ValueError(f"[embedding.batch] {name} must be true or false, got {value!r}")
            setattr(out, name, value)
        for name in ("min_texts", "job_texts", "concurrency"):
            setattr(out, name, int(_positive_number(table.get(name, getattr(out, name)), f"[embedding.batch] {name}")))
        for name in ("poll_interval", "timeout_minutes"):
            setattr(out, name, _positive_number(table.get(name, getattr(out, name)), f"[embedding.batch] {name}"))
        return out


@dataclass
class EmbeddingConfig:
    """Which embedding provider recall and indexing use, and its settings."""

    provider: str = "auto"
    model: str = DEFAULT_LOCAL_MODEL
    # True when memory.toml or MEMORY_EMBED_MODEL names the model. When it does not, an existing
    # index keeps the local model it was built with (api.Memory), so that a new default applies
    # to new workspaces and after `memory index --rebuild`, never silently to an old index.
    model_set: bool = False
    batch_size: int = DEFAULT_BATCH_SIZE
    remote: RemoteConfig = field(default_factory=RemoteConfig)
    # `[embedding.openai]`, `[embedding.gemini]`, ... (`remote` above is `[embedding.remote]`).
    remotes: dict[str, RemoteConfig] = field(default_factory=dict)
    fallback: tuple[str, ...] = ()
    batch: BatchConfig = field(default_factory=BatchConfig)
    # What the settings asked for before `auto-remote` chose ("auto-remote"), else the provider.
    requested: str = "auto"

    def remote_config(self, name: str) -> RemoteConfig:
        """The settings of the remote provider `name` (its defaults when the file has no table)."""
        return self.remote if name == "remote" else self.remotes.get(name) or RemoteConfig()

    @property
    def chain(self) -> tuple[str, ...]:
        """The provider, then its fallbacks: the order in which embedding is tried."""
        return (self.provider, *[p for p in self.fallback if p != self.provider])

    @property
    def default_model(self) -> str:
        """The local model used when the settings name none (and the index records none)."""
        return DEFAULT_LOCAL_MODEL

    @property
    def explicit(self) -> bool:
        """True when the user chose a provider: its failure must be an error, never a silent downgrade."""
        return self.provider != "auto"

    def with_provider(self, name: str) -> EmbeddingConfig:
        """These settings with `name` as the provider (a fallback in the chain)."""
        from dataclasses import replace

        return replace(self, provider=name)

    @classmethod
    def from_mapping(cls, d: Mapping[str, Any] | None, env: Mapping[str, str]) -> EmbeddingConfig:
        """Build from the `[embedding]` table (`d`, may be None or empty) and the environment.

        Raises ValueError with a message naming the bad key when a value has the wrong type or the
        provider is unknown.
        """
        d = dict(d or {})
        provider = _provider(env.get("MEMORY_EMBED_PROVIDER") or d.get("provider") or "auto", "provider")
        model = str(d.get("model") or DEFAULT_LOCAL_MODEL)
        env_model = env.get("MEMORY_EMBED_MODEL")
        model_set = bool(d.get("model") or env_model)
        if env_model:
            # One variable for "the model to use" is simpler to explain than one per provider; it
            # applies to whichever provider ends up running.
            model = env_model
        requested = provider
        if provider == "auto-remote":
            # OpenClaw's order, opt-in: OpenAI when its key resolves, then Gemini, else local as `auto`.
            # A key that is set but unusable counts as set: the provider then says why it cannot run.
            provider = next((name for name in ("openai", "gemini")
                             if any(_key(d.get(name), name, env)[::2])), "auto")
        remotes = {}
        for name in REMOTE_PROVIDERS:
            primary = name == provider or (name == "remote" and provider not in REMOTE_PROVIDERS)
            remotes[name] = _remote(d.get(name), name, env, env_model if primary else None,
                                    env.get("MEMORY_EMBED_BASE_URL") if primary else None)
        fallback = d.get("fallback") or ()
        if isinstance(fallback, str):
            fallback = (fallback,)
        if not isinstance(fallback, list | tuple):
            raise ValueError("fallback must be a provider name or a list of them")
        chain = tuple(_provider(p, "fallback") for p in fallback)
        if any(p in ("auto", "auto-remote") for p in chain):
            raise ValueError("fallback names providers: local, none or a remote one, not auto")
        batch_size = int(_positive_number(d.get("batch_size", DEFAULT_BATCH_SIZE), "[embedding] batch_size"))
        return cls(provider=provider, model=model, batch_size=batch_size, remote=remotes.pop("remote"),
                   remotes=remotes, model_set=model_set, fallback=chain, requested=requested,
                   batch=BatchConfig.from_mapping(d.get("batch")))


def _provider(value: Any, what: str) -> str:
    name = str(value).strip().lower()
    name = ALIASES.get(name, name)
    if name not in PROVIDERS:
        raise ValueError(f"unknown embedding provider {name!r} in {what}; expected one of: {', '.join(PROVIDERS)}")
    return name


def _key(table: Any, name: str, env: Mapping[str, str]) -> tuple[str | None, str | None, str | None]:
    """(key, the variable it came from, why it cannot be a key): `api_key_env` when the table names
    one, else the provider's usual variables (embed.wire). A named variable that is unset gives
    (None, its name, None); a value with whitespace or a control character (a trailing CR) gives
    (None, its name, the problem), so that it never reaches an HTTP header. A usable key is
    registered with `secrecy`, which blanks it out of everything that leaves the process."""
    from .. import secrecy
    from .wire import WIRES

    named = table.get("api_key_env") if isinstance(table, Mapping) else None
    variables = (str(named),) if named else WIRES[name].key_envs
    for var in variables:
        value = env.get(var)
        if not value:
            continue
        problem = secrecy.key_problem(value, var)
        if problem:
            return None, var, problem
        secrecy.register(value)
        return value, var, None
    return None, (str(named) if named else None), None


def _remote(table: Any, name: str, env: Mapping[str, str], env_model: str | None,
            env_url: str | None) -> RemoteConfig:
    """One `[embedding.<name>]` table, checked (ValueError names the key)."""
    where = f"[embedding.{name}]"
    table = table or {}
    if not isinstance(table, Mapping):
        raise ValueError(f"{where} must be a table")
    headers = table.get("headers") or {}
    if not isinstance(headers, Mapping):
        raise ValueError(f"{where} headers must be a table of strings")
    headers = {str(k): str(v) for k, v in headers.items()}
    _check_headers(headers, where)
    api_key, api_key_from, key_problem = _key(table, name, env)
    dimensions = table.get("dimensions")
    return RemoteConfig(
        base_url=str(env_url or table.get("base_url") or "").rstrip("/"),
        model=str(env_model or table.get("model") or ""),
        api_key_env=str(table["api_key_env"]) if table.get("api_key_env") else None,
        api_key=api_key,
        api_key_from=api_key_from,
        key_problem=key_problem,
        headers=headers,
        timeout=_positive_number(table.get("timeout", DEFAULT_TIMEOUT), f"{where} timeout"),
        total_timeout=_positive_number(table.get("total_timeout", DEFAULT_TOTAL_TIMEOUT), f"{where} total_timeout"),
        query_timeout=_positive_number(table.get("query_timeout", DEFAULT_QUERY_TIMEOUT), f"{where} query_timeout"),
        retries=_count(table.get("retries", DEFAULT_RETRIES), f"{where} retries"),
        cooldown=_seconds(table.get("cooldown", DEFAULT_COOLDOWN), f"{where} cooldown"),
        dimensions=int(_positive_number(dimensions, f"{where} dimensions")) if dimensions is not None else None,
    )


def _check_headers(headers: dict[str, str], where: str) -> None:
    """Header values are one line of printable text (ValueError naming the header, never its value);
    a value under a name that says it is a credential (Authorization, X-Api-Key, ...) is registered
    with `secrecy` like a key."""
    from .. import secrecy

    for header, value in headers.items():
        problem = secrecy.header_problem(value, f"{where} headers.{header}")
        if problem:
            raise ValueError(problem)
        if secrecy.is_secret_header(header):
            secrecy.register_credential(value)


def _seconds(value: Any, name: str) -> float:
    """A number of seconds >= 0 from TOML (cooldown = 0 turns the breaker off)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ValueError(f"{name} must be a number of seconds >= 0, got {value!r}")
    return float(value)


def _count(value: Any, name: str) -> int:
    """A whole number >= 0 from TOML (retries = 0 turns retrying off)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a whole number >= 0, got {value!r}")
    return value


def _positive_number(value: Any, name: str) -> float:
    """Validate a positive number from TOML (bools are rejected: TOML `true` is not a timeout)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    return float(value)
