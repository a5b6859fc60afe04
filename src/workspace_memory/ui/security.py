"""Who may use the UI: 127.0.0.1, ::1 or localhost by default; any other address only with a token.

Pure checks, used by app.py's middleware:
- `resolve_settings`: the host, port and token from the options, memory.toml `[ui]` and the
  environment. A host that is not loopback needs a token, read from the environment variable
  that `[ui] token_env` or `--token-env` names (the token itself is never in a file or argv).
- `request_token`: the token a request carries, as `Authorization: Bearer`, the cookie set
  after a first `?token=` visit, or `?token=`.
- `host_allowed`: on every bind, the Host header (and an Origin, when sent) must name the
  bound address, so a web page on another site cannot reach the UI through DNS rebinding.
- A form that writes carries the server's per-run CSRF secret.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..binds import allowed_names, header_name, needs_token
from ..errors import UserError

COOKIE = "memory_ui_token"
MIN_TOKEN_CHARS = 16


def is_loopback(host: str) -> bool:
    """True for the addresses that may serve without a token: 127.0.0.1, ::1, localhost (binds.py)."""
    return not needs_token(host)


@dataclass(frozen=True)
class UiSettings:
    """Where the UI listens and the token it asks for (None: no token, loopback only)."""

    host: str = "127.0.0.1"
    port: int = 8765
    token: str | None = field(default=None, repr=False)
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(24), repr=False)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"


def resolve_settings(config: object, host: str, port: int, token_env: str | None,
                     env: Mapping[str, str]) -> UiSettings:
    """Check the options against `[ui]` and the environment; raise UserError with the fix."""
    section = config if config is not None else {}
    if not isinstance(section, Mapping):
        raise UserError("memory.toml [ui]: expected a table, e.g. [ui] token_env = \"MEMORY_UI_TOKEN\"")
    unknown = set(section) - {"token_env"}
    if unknown:
        raise UserError(f"memory.toml [ui]: unknown key(s) {', '.join(sorted(unknown))} (known: token_env)")
    explicit = token_env is not None
    name = token_env or section.get("token_env")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise UserError("memory.toml [ui] token_env: expected the name of an environment variable")
    token = env.get(name) if name else None
    if not is_loopback(host) or explicit:
        where = f"--host {host} is not a loopback address" if not is_loopback(host) else f"--token-env {name}"
        if not name:
            raise UserError(f"{where}: a token is required; name its environment variable with "
                            "--token-env VAR or memory.toml [ui] token_env = \"VAR\"")
        if not token:
            raise UserError(f"{where}: the environment variable {name} (the token) is not set")
    if token is not None and len(token) < MIN_TOKEN_CHARS:
        raise UserError(f"the token in {name} is too short: use at least {MIN_TOKEN_CHARS} characters")
    return UiSettings(host=host, port=port, token=token or None)


def request_token(authorization: str | None, cookie: str | None, query: str | None) -> str | None:
    """The token a request carries: a bearer header, else the cookie, else `?token=`."""
    if authorization:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    return cookie or query or None


def same_secret(given: str | None, expected: str) -> bool:
    """Constant-time comparison of a presented token or CSRF value with the expected one."""
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


def host_allowed(header: str | None, settings: UiSettings) -> bool:
    """The Host header (or an Origin) names the address the UI is bound to (binds.allowed_names):
    checked on every bind, with or without a token, against DNS rebinding."""
    return bool(header) and header_name(header) in allowed_names(settings.host)
