"""A circuit breaker per remote provider: a provider that failed or stalled is skipped for a cool-down.

Without it a stalled provider costs every search its whole `query_timeout` in turn: the MCP server
and the OpenClaw plugin's long-lived child answer concurrent searches one at a time (mcp.tools),
so the sixth of six waited six timeouts. With it the first search pays the timeout, the breaker
opens, and the searches after it skip the provider at once (a lexical answer with a notice, as
for a timeout), until the cool-down ends.

- **Where the state lives**: in the process (one Breaker per workspace and provider, shared by
  every embedder and thread: the MCP server, the web page), and in `.memory/breaker.json`, so
  that the separate `memory recall` processes an agent starts (one per call) skip too, and
  `memory status` shows it. The file holds the provider's name, the failure's reason (the key
  blanked), counts and times; never a key or a URL. Concurrent writers replace it atomically; the
  state is advisory, the last writer wins.
- **Which calls it gates**: calls with a recall's deadline (the question's vector, a recall's new
  entries, the dimension probe of a recall). `memory index` has minutes to spend and always tries;
  its outcome opens or closes the breaker like any other call's.
- **What opens it**: a timeout, a connection that fails, a 5xx or 429 after retries, a rejected
  key (401/403), an answer of the wrong shape. Not a 4xx that concerns one request (400, 413, 422).
- **Cool-down**: `[embedding.<provider>] cooldown` seconds (default 30) after the first failure,
  doubled for each failure in a row (a trial after the cool-down that fails too), at most
  MAX_COOLDOWN (300 s). After the cool-down one call tries (the others still skip while it runs,
  in one process); a success closes the breaker. `cooldown = 0` turns it off.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
import time
from pathlib import Path
from typing import Any

from .. import secrecy
from ..errors import ProviderTimeout, ProviderUnavailable
from ..files import read_json_object, write_json_object
from .config import DEFAULT_COOLDOWN

STATE_FILE = "breaker.json"
MAX_COOLDOWN = 300.0

_lock = threading.Lock()
_breakers: dict[tuple[str, str], Breaker] = {}


def breaker_for(provider: str, base_url: str, state_dir: Path | None,
                cooldown: float = DEFAULT_COOLDOWN) -> Breaker:
    """The one Breaker of `provider` at `base_url` in the workspace whose `.memory/` is `state_dir`
    (None: this process only), shared by every caller in the process."""
    key = (str(state_dir or ""), provider, base_url)
    with _lock:
        breaker = _breakers.get(key)
        if breaker is None:
            breaker = _breakers[key] = Breaker(provider, base_url, state_dir, cooldown)
        breaker.cooldown = cooldown
        return breaker


class Breaker:
    """Open (skip the provider) until `open_until`, closed otherwise; see the module docstring."""

    def __init__(self, provider: str, base_url: str, state_dir: Path | None, cooldown: float = DEFAULT_COOLDOWN,
                 clock: Any = time.time) -> None:
        self.provider = provider
        # The file names the provider; a hash tells whether its entry is about this address (a
        # base_url changed since is a provider of its own), without writing the URL down.
        self.where = hashlib.sha256(base_url.encode()).hexdigest()[:12]
        self.path = state_dir / STATE_FILE if state_dir is not None else None
        self.cooldown = cooldown
        self._clock = clock
        self._lock = threading.Lock()
        self._state: dict[str, Any] = {}  # failures, opened_at, open_until, reason, timeout
        self._trial_until = 0.0  # a call is trying the provider after the cool-down, until then

    def check(self, budget: float) -> None:
        """Raise the skip (ProviderTimeout when a timeout opened the breaker, else ProviderUnavailable)
        while the breaker is open; after the cool-down let one caller through for `budget` seconds."""
        if self.cooldown <= 0:
            return
        with self._lock:
            state = self._load()
            now = self._clock()
            if not state:
                return
            if now >= state["open_until"] and now >= self._trial_until:
                self._trial_until = now + budget  # this call is the trial; the others skip meanwhile
                return
            until = max(state["open_until"], self._trial_until)
            left = max(1, round(until - now))
            cls = ProviderTimeout if state.get("timeout") else ProviderUnavailable
            raise cls(f"{self.provider} embeddings skipped for {left} s more (circuit breaker, open since it failed "
                      f"{_ago(now - state['opened_at'])}: {state['reason']})")

    def failed(self, reason: str, timeout: bool) -> None:
        """A call failed: open the breaker (again), for a cool-down that doubles with each failure in a row."""
        if self.cooldown <= 0:
            return
        with self._lock:
            state = self._load()
            now = self._clock()
            if state and now < state["open_until"]:
                # Open already: this call started before another (or another process) opened it,
                # and failed of the same cause. One episode is one failure, not a longer cool-down.
                return
            # Failures in a row: a failure long after the last cool-down ended starts a new row.
            recent = state and now - state["open_until"] <= MAX_COOLDOWN
            failures = (int(state["failures"]) if recent else 0) + 1
            pause = min(self.cooldown * 2 ** (failures - 1), max(MAX_COOLDOWN, self.cooldown))
            self._state = {"failures": failures, "opened_at": now, "open_until": now + pause, "at": self.where,
                           "reason": secrecy.blank(" ".join(reason.split()))[:300], "timeout": timeout}
            self._trial_until = 0.0
            self._save()

    def succeeded(self) -> None:
        """A call succeeded: close the breaker."""
        with self._lock:
            self._trial_until = 0.0
            if self._state or (self.path is not None and self.provider in read_json_object(self.path)):
                self._state = {}
                self._save()

    def describe(self) -> dict[str, Any]:
        """What `memory status` shows: {"state": "closed"} or the open breaker's reason and times."""
        with self._lock:
            return describe_state(self._load(), self._clock())

    # -- the shared state -------------------------------------------------------------------
    def _load(self) -> dict[str, Any]:
        """The state: the file's when there is one (another process may have opened the breaker)."""
        if self.path is not None:
            entry = read_json_object(self.path).get(self.provider)
            self._state = entry if _valid(entry) and entry.get("at") == self.where else {}
        return self._state

    def _save(self) -> None:
        if self.path is None or not self.path.parent.is_dir():
            return
        record = read_json_object(self.path)
        if self._state:
            record[self.provider] = self._state
        else:
            record.pop(self.provider, None)
        with contextlib.suppress(OSError):  # a read-only workspace: the breaker still works in this process
            write_json_object(self.path, record)


def describe_state(state: dict[str, Any], now: float) -> dict[str, Any]:
    if not _valid(state):
        return {"state": "closed"}
    opened = state["open_until"] > now
    return {"state": "open" if opened else "half-open (the next call tries)",
            "seconds_left": max(0, round(state["open_until"] - now)), "failures_in_a_row": int(state["failures"]),
            "since": _iso(state["opened_at"]), "until": _iso(state["open_until"]),
            "reason": secrecy.blank(str(state["reason"]))}


def read_states(state_dir: Path, providers: dict[str, str], now: float | None = None) -> dict[str, dict[str, Any]]:
    """The breakers of `providers` (name -> base_url) as `memory status` shows them, from
    `.memory/breaker.json` (no request)."""
    record = read_json_object(state_dir / STATE_FILE)
    now = time.time() if now is None else now
    out = {}
    for name, base_url in providers.items():
        entry = record.get(name) or {}
        same = isinstance(entry, dict) and entry.get("at") == hashlib.sha256(base_url.encode()).hexdigest()[:12]
        out[name] = describe_state(entry if same else {}, now)
    return out


def _valid(entry: Any) -> bool:
    return isinstance(entry, dict) and all(isinstance(entry.get(k), int | float) for k in
                                           ("failures", "opened_at", "open_until")) and "reason" in entry


def _iso(epoch: float) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _ago(seconds: float) -> str:
    return f"{max(0, round(seconds))} s ago"
