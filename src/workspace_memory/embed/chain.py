"""The fallback chain (`[embedding] fallback = ["gemini", "local"]`) and the space an index uses.

Every provider and model is an embedding space of its own: its vectors are cached under its
provider and model and searched in an HNSW file named by its identity (index.sqlite.vectors),
so two models' vectors never meet in one search. The chain only decides which space to fill and
search:

- `memory index` tries the provider, then each fallback in order; a failure (unreachable, 5xx
  after retries, a rejected key, no key) hands the texts to the next with a notice naming why. The
  space that succeeded is recorded in `.memory/embedding.json` (no key: names and counts only).
- recall starts from the recorded space (the one the index was built with), so a primary that
  came back does not leave recall searching an empty space; the next `memory index` moves back
  to the primary when it works again.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .. import secrecy
from ..errors import ProviderUnavailable
from ..files import read_json_object, write_json_object

if TYPE_CHECKING:
    from collections.abc import Callable

    from .base import Embedder
    from .config import EmbeddingConfig

SPACE_FILE = "embedding.json"
T = TypeVar("T")


def read_space(state_dir: Path) -> dict[str, Any]:
    """What `.memory/embedding.json` records ({} when nothing, or when it is unreadable: derived data)."""
    return read_json_object(state_dir / SPACE_FILE)


def write_space(state_dir: Path, embedder: Embedder, fallback_reason: str | None) -> None:
    """Record the space the index was built with, and the tokens each space has been sent so far.

    Atomic (temp file + rename); holds names, dimensions and counts, never a key or a URL.
    """
    record = read_space(state_dir)
    tokens = record.get("tokens") if isinstance(record.get("tokens"), dict) else {}
    identity = embedder.identity()
    sent = int(getattr(embedder, "tokens", 0) or 0)
    if sent:
        tokens[identity] = int(tokens.get(identity, 0)) + sent
        embedder.tokens = 0  # type: ignore[attr-defined] - counted once
    record = {"space": identity, "provider": embedder.provider, "model": embedder.model, "dim": embedder.dim,
              "fallback_reason": secrecy.blank(fallback_reason) if fallback_reason else None, "tokens": tokens}
    write_json_object(state_dir / SPACE_FILE, record)


def start_of(cfg: EmbeddingConfig, state_dir: Path) -> int:
    """Where in the chain recall starts: the recorded provider when it is in the chain, else the first."""
    recorded = read_space(state_dir).get("provider")
    chain = cfg.chain
    return chain.index(recorded) if recorded in chain else 0


def build_from(cfg: EmbeddingConfig, state_dir: Path, start: int = 0) -> tuple[Embedder | None, list[str], int]:
    """The first embedder of the chain from position `start` that can be built: (embedder or None
    for lexical, notices, its position). A provider that cannot be built (no key, no package) hands
    on to the next with a notice; the last one's failure is raised as it is when it was chosen
    explicitly, as without a chain."""
    from . import resolve_embedder

    chain = cfg.chain
    notices: list[str] = []
    for pos in range(start, len(chain)):
        try:
            embedder, more = resolve_embedder(cfg.with_provider(chain[pos]), state_dir)
        except ProviderUnavailable as exc:
            if pos + 1 >= len(chain):
                raise
            notices.append(handing_on(exc, chain[pos + 1]))
            continue
        return embedder, notices + more, pos
    return None, notices, len(chain)


def handing_on(exc: BaseException, to: str) -> str:
    """The notice when a provider fails and the next one takes its texts."""
    target = "lexical search" if to == "none" else f"the fallback provider {to!r}"
    return secrecy.blank(f"{exc}; using {target}")


def run_chain(cfg: EmbeddingConfig, state_dir: Path, attempt: Callable[[Embedder], T],
              start: int = 0) -> tuple[Embedder | None, T | None, list[str], int]:
    """Call `attempt(embedder)` with the chain's providers from `start` until one succeeds:
    (the embedder that did, its result, the notices of those that failed, its position). None
    and no result when the chain ends in `none` (or `auto` finds no model). The last provider's
    failure is raised, as it is without a chain."""
    notices: list[str] = []
    chain = cfg.chain
    pos = start
    while True:
        embedder, more, pos = build_from(cfg, state_dir, pos)
        notices += more
        if embedder is None:
            return None, None, notices, pos
        try:
            return embedder, attempt(embedder), notices, pos
        except ProviderUnavailable as exc:
            if pos + 1 >= len(chain):
                raise
            notices.append(handing_on(exc, chain[pos + 1]))
            pos += 1


def describe(cfg: EmbeddingConfig, embedder: Embedder | None, state_dir: Path) -> dict[str, Any]:
    """What `memory status --json` and `memory doctor` say about embedding: the provider, model and
    dimensions in use, the chain, whether a fallback is in use and why, where the key came from (the
    variable's name, never the key), and the tokens sent to each space so far. Sends no request."""
    record = read_space(state_dir)
    dim = getattr(embedder, "known_dim", None) if hasattr(embedder, "known_dim") else getattr(embedder, "dim", None)
    provider = embedder.provider if embedder is not None else None
    remote = cfg.remote_config(provider) if provider in cfg.remotes or provider == "remote" else None
    return {
        "requested": cfg.requested,
        "provider": provider,
        "model": embedder.model if embedder is not None else None,
        "dimensions": dim,
        "chain": list(cfg.chain),
        # `auto` resolves to `local`: that is the primary, not a fallback.
        "fallback_in_use": provider is not None and provider != {"auto": "local"}.get(cfg.chain[0], cfg.chain[0]),
        # Blanked when read too: a record written before keys were blanked may hold one.
        "fallback_reason": secrecy.blank(str(record.get("fallback_reason"))) if record.get("fallback_reason")
        and record.get("provider") == provider else None,
        "key_from": remote.api_key_from if remote is not None else None,
        "tokens_sent": record.get("tokens") or {},
        "batch_jobs": _pending(state_dir),
        "breakers": _breakers(cfg, state_dir),
        "calibration": _calibration(embedder, state_dir),
    }


def _calibration(embedder: Embedder | None, state_dir: Path) -> dict[str, Any] | None:
    """The cosine calibration recall uses for this embedder (recall.semantic.calibration_of): the
    model's fitted constants, the one `memory index` measured (embed.calibration), or the default."""
    if embedder is None:
        return None
    fitted = getattr(embedder, "calibration", None)
    if fitted:
        return {"source": "fitted", "floor": float(fitted[0]), "ceil": float(fitted[1])}
    from .calibration import stored

    # The identity holds the dimension; a model that learns it from a first answer is not asked here.
    unknown = hasattr(embedder, "known_dim") and getattr(embedder, "known_dim", None) is None
    measured = None if unknown else stored(state_dir, embedder.identity())
    if measured:
        return {"source": "measured", "floor": measured[0], "ceil": measured[1]}
    return {"source": "default", "floor": None, "ceil": None}  # MiniLM's, until `memory index` measures


def _breakers(cfg: EmbeddingConfig, state_dir: Path) -> dict[str, dict[str, Any]]:
    """The circuit breaker of each remote provider of the chain (embed.breaker): closed, or open
    with its reason and until when."""
    from .breaker import read_states
    from .config import REMOTE_PROVIDERS
    from .wire import WIRES

    remote = {name: (cfg.remote_config(name).base_url or WIRES[name].base_url).rstrip("/")
              for name in cfg.chain if name in REMOTE_PROVIDERS}
    return read_states(state_dir, remote) if remote else {}


def _pending(state_dir: Path) -> list[dict[str, Any]]:
    from .batch import pending_jobs  # imports embed.remote: only when status asks

    return pending_jobs(state_dir)
