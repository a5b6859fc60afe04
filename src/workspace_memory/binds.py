"""Who may serve without a token, and which Host and Origin headers a server answers.

One policy for `memory mcp --http` and `memory ui`:
- Without a token only "this machine, this user's loopback" may be bound: 127.0.0.1, ::1 (in any
  spelling of that one address: 0:0:0:0:0:0:0:1 is the same socket) and localhost. Any other
  address needs a token, including the rest of 127/8 (127.0.0.2 is reachable by other
  containers and network namespaces on some setups).
- Every bind checks Host and Origin (DNS rebinding: a page on attacker.example whose name
  resolves to 127.0.0.2 must not reach the server through the victim's browser). The allowed
  names are the bind address itself, plus the loopback names for a loopback bind, plus this
  machine's names for a wildcard bind (0.0.0.0, ::).
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket

TOKENLESS_HOSTS = ("127.0.0.1", "::1", "localhost")
_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def bare_host(host: str) -> str:
    """'[::1]' -> '::1', 'LocalHost' -> 'localhost'."""
    return host.strip().strip("[]").lower()


def needs_token(host: str) -> bool:
    """True unless `host` is 127.0.0.1, ::1 (any spelling of that address) or localhost."""
    name = bare_host(host)
    if name in TOKENLESS_HOSTS:
        return False
    try:
        return ipaddress.ip_address(name).compressed not in TOKENLESS_HOSTS
    except ValueError:
        return True


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def allowed_names(host: str) -> set[str]:
    """The host names (IPv6 in brackets) a server bound to `host` answers to in Host and Origin."""
    name = bare_host(host)
    names = {_url_host(name)}
    with contextlib.suppress(ValueError):
        address = ipaddress.ip_address(name)
        names.add(_url_host(address.compressed))
        names.add(_url_host(address.exploded))
        if address.is_loopback:
            names.update(_LOOPBACK_NAMES)
        if address.is_unspecified:  # every interface: the loopback names and this machine's own
            names.update(_LOOPBACK_NAMES)
            names.update(_url_host(n.lower()) for n in _machine_names())
    if name == "localhost":
        names.update(_LOOPBACK_NAMES)
    return names


def allowed_hosts(host: str, port: int) -> list[str]:
    """Host header values (host:port; bare host on port 80) a server bound to host:port answers."""
    names = allowed_names(host)
    return sorted(f"{n}:{port}" for n in names) + (sorted(names) if port == 80 else [])


def header_name(value: str) -> str:
    """The host name of a Host header or an Origin, lower-cased, IPv6 kept in brackets: port and scheme dropped."""
    value = value.strip().lower()
    value = value.split("://", 1)[1] if "://" in value else value
    value = value.split("/", 1)[0]
    if value.startswith("["):
        return value[: value.find("]") + 1] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def allowed_origins(host: str, port: int) -> list[str]:
    """Origin header values allowed: http:// and https:// of every allowed Host."""
    return [f"{scheme}://{value}" for value in allowed_hosts(host, port) for scheme in ("http", "https")]


def _machine_names() -> set[str]:
    """This machine's host names and addresses (for a wildcard bind)."""
    names: set[str] = set()
    with contextlib.suppress(OSError):
        hostname = socket.gethostname()
        names.update({hostname, socket.getfqdn()})
        for info in socket.getaddrinfo(hostname, None):
            names.add(str(info[4][0]).split("%")[0])
    return {n for n in names if n}
