"""`memory mcp --http HOST:PORT`: streamable HTTP with the bind rules of binds.py.

- A token is required unless HOST is 127.0.0.1, ::1 or localhost (binds.needs_token).
- Host and Origin are checked on every bind (binds.allowed_hosts): the SDK turns its own check
  on only for those three literals, which left 127.0.0.2 and long-form IPv6 open to DNS rebinding.
- A body over MAX_REQUEST_BYTES is answered 413 before it is read whole, and every body is judged
  as JSON-RPC exactly as a stdio line is (JsonRpcGate, stdio.judge).
- With a token, a 401 points at RFC 9728 protected-resource metadata that names no
  authorization server and one bearer method (the header); its body, and the OAuth endpoints an
  OAuth client falls back to, say in one line where the token comes from (see BearerOnly).
"""

from __future__ import annotations

import hmac
import json
import os
import sys

from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings

from ..binds import allowed_hosts, allowed_names, allowed_origins, bare_host, header_name, needs_token
from ..errors import UserError
from ..limits import MAX_REQUEST_BYTES
from .stdio import INVALID_REQUEST, error_reply, judge

DEFAULT_TOKEN_ENV = "MEMORY_MCP_TOKEN"
METADATA_PATH = "/.well-known/oauth-protected-resource"


def parse_address(address: str) -> tuple[str, int]:
    """'127.0.0.1:8765' / '[::1]:8765' / 'localhost:8765' -> (host, port); a bad one is a UserError."""
    host, sep, port = address.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UserError(f"--http {address!r}: expected HOST:PORT, e.g. 127.0.0.1:8765")
    return host, int(port)


def is_loopback(host: str) -> bool:
    """True for the addresses that may serve without a token (binds.TOKENLESS_HOSTS)."""
    return not needs_token(host)


def http_token(config: dict, host: str) -> str | None:
    """The bearer token for HTTP: required unless on 127.0.0.1/::1/localhost; read from the
    environment variable that `[mcp] token_env` names."""
    section = config.get("mcp") or {}
    unknown = set(section) - {"token_env"}
    if unknown:
        raise UserError(f"memory.toml [mcp]: unknown setting {sorted(unknown)[0]!r}; expected token_env")
    env_name = section.get("token_env", DEFAULT_TOKEN_ENV)
    if not isinstance(env_name, str) or not env_name:
        raise UserError("memory.toml [mcp] token_env must name an environment variable")
    token = os.environ.get(env_name, "").strip() or None
    if token is None and needs_token(host):
        raise UserError(f"serving on {host} needs a bearer token: set the environment variable {env_name} (named by "
                        "memory.toml [mcp] token_env); only 127.0.0.1, ::1 and localhost serve without one")
    return token


class StaticToken:
    """The SDK's TokenVerifier for one shared bearer token (compared in constant time)."""

    def __init__(self, token: str) -> None:
        self._token = token.encode()

    async def verify_token(self, token: str) -> AccessToken | None:
        if hmac.compare_digest(token.encode(), self._token):
            return AccessToken(token=token, client_id="memory-client", scopes=[])
        return None


def auth_options(token: str | None, host: str, port: int) -> dict:
    """build_server's keyword arguments for a bearer token (none without one)."""
    if not token:
        return {}
    return {"token_verifier": StaticToken(token),
            "auth": AuthSettings(issuer_url=base_url(host, port), resource_server_url=None)}


def base_url(host: str, port: int) -> str:
    name = bare_host(host)
    return f"http://{f'[{name}]' if ':' in name else name}:{port}"


def serve_http(server, host: str, port: int, token: str | None) -> None:  # MCPServer
    """Serve `server` on host:port until the process is stopped."""
    import anyio
    import uvicorn
    from mcp.server.transport_security import TransportSecuritySettings

    security = TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                         allowed_hosts=allowed_hosts(host, port),
                                         allowed_origins=allowed_origins(host, port))
    app = server.streamable_http_app(max_request_body_size=MAX_REQUEST_BYTES, transport_security=security,
                                     host=host)
    app = JsonRpcGate(app, host, token)
    if token:
        app = BearerOnly(app, base_url(host, port))
    print(f"memory mcp: serving {base_url(host, port)}/mcp" + (" (bearer token required)" if token else ""),
          file=sys.stderr)
    config = uvicorn.Config(app, host=bare_host(host), port=port, log_level="warning")
    anyio.run(uvicorn.Server(config).serve)


class JsonRpcGate:
    """ASGI wrapper: a POST to /mcp is judged as stdio.judge judges a stdio line, before the SDK.

    The SDK answers a batch or a missing "jsonrpc" with -32602, a lone surrogate with -32700, and
    takes an id that is null or an object for a notification (202, no answer at all). Here those
    get HTTP 400 with -32600 / -32602, as on stdio. Requests the SDK itself refuses (a bad Host or
    Origin, no token) go to it unread, so its 421 / 403 / 401 stay first; a body over
    MAX_REQUEST_BYTES is 413 before it is read whole.

    A request whose id is the id of a request still running in the same session (Mcp-Session-Id)
    is answered at once with HTTP 409 and -32600: the SDK keys each answer's stream by its id, so
    the two used to share one stream and neither was ever answered. An id may be used again once
    its request has been answered.
    """

    def __init__(self, app, host: str, token: str | None) -> None:  # an ASGI app
        self.app = app
        self.names = allowed_names(host)
        self.bearer = f"Bearer {token}".encode() if token else None
        self.running: set[tuple[bytes, str]] = set()  # (session, the id's JSON) of requests in progress

    def _for_the_sdk(self, scope: dict) -> bool:
        """True when the SDK refuses this request anyway (or it is not a JSON-RPC POST)."""
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != "/mcp":
            return True
        headers = dict(scope["headers"])
        origin = headers.get(b"origin", b"").decode("latin-1")
        if header_name(headers.get(b"host", b"").decode("latin-1")) not in self.names:
            return True
        if origin and header_name(origin) not in self.names:
            return True
        return self.bearer is not None and not hmac.compare_digest(headers.get(b"authorization", b""), self.bearer)

    async def __call__(self, scope, receive, send) -> None:
        if self._for_the_sdk(scope):
            await self.app(scope, receive, send)
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > MAX_REQUEST_BYTES:
                await _send(send, 413, b"Request body too large", [(b"content-type", b"text/plain")])
                return
            more = message.get("more_body", False)
        parsed, error = judge(bytes(body))
        if parsed is None and error is None:  # an invalid notification, or nothing: JSON-RPC answers neither,
            error = error_reply(None, INVALID_REQUEST, "invalid request: not a JSON-RPC message")  # HTTP must
        if error is not None:
            await _send(send, 400, json.dumps(error).encode(), [(b"content-type", b"application/json")])
            return
        assert parsed is not None
        key = None
        if "method" in parsed and "id" in parsed:
            key = (dict(scope["headers"]).get(b"mcp-session-id", b""), json.dumps(parsed["id"]))
            if key in self.running:
                error = error_reply(parsed["id"], INVALID_REQUEST, f"invalid request: id {key[1]} is the id of a "
                                    "request still in progress in this session; use a new id")
                await _send(send, 409, json.dumps(error).encode(), [(b"content-type", b"application/json")])
                return
            self.running.add(key)
        replayed = False

        async def replay() -> dict:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        try:
            await self.app(scope, replay, send)
        finally:
            if key is not None:
                self.running.discard(key)


HINT = ("a bearer token is required, set by whoever runs this server (the environment variable that memory.toml "
        "[mcp] token_env names, default MEMORY_MCP_TOKEN); there is no OAuth here: send Authorization: Bearer <token>")
_OAUTH_PATHS = ("/register", "/authorize", "/token")


class BearerOnly:
    """ASGI wrapper for a server with a token: the RFC 9728 metadata, and 401s that say what to do.

    Any 401 makes an OAuth client (the MCP inspector) start discovery; with no authorization
    server named it falls back to this origin and tries dynamic client registration. So the 401
    body, the metadata and the OAuth endpoints it tries (/register, /authorize, /token) all
    answer with one line that names the token's variable, instead of a bare 404.
    """

    def __init__(self, app, base: str) -> None:  # an ASGI app
        self.app = app
        self.resource = f"{base}/mcp"
        self.metadata_url = f"{base}{METADATA_PATH}/mcp"
        self.metadata = json.dumps({
            "resource": self.resource, "authorization_servers": [], "bearer_methods_supported": ["header"],
            "resource_name": "workspace-memory (a bearer token from its operator; no OAuth)",
        }).encode()
        self.refusal = json.dumps({"error": "invalid_token", "error_description": HINT}).encode()
        self.no_oauth = json.dumps({"error": "unsupported", "error_description": HINT}).encode()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and scope["path"] in (METADATA_PATH, f"{METADATA_PATH}/mcp"):
            await _send(send, 200, self.metadata, [(b"content-type", b"application/json")])
            return
        if scope["type"] == "http" and scope["path"] in _OAUTH_PATHS:
            await _send(send, 400, self.no_oauth, [(b"content-type", b"application/json")])
            return
        refused = False

        async def send_with_metadata(message: dict) -> None:
            nonlocal refused
            if message["type"] == "http.response.start" and message["status"] == 401:
                refused = True
                challenge = (f'Bearer realm="workspace-memory", error="invalid_token", error_description="a bearer '
                             f'token is required; there is no OAuth", resource_metadata="{self.metadata_url}"')
                message = {**message, "headers": [
                    (b"content-type", b"application/json"), (b"content-length", str(len(self.refusal)).encode()),
                    (b"www-authenticate", challenge.encode())]}
            elif message["type"] == "http.response.body" and refused:
                message = {"type": "http.response.body", "body": self.refusal}
            await send(message)

        await self.app(scope, receive, send_with_metadata)


async def _send(send, status: int, body: bytes, headers: list) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [*headers, (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
