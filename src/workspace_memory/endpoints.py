"""One client for OpenAI-compatible HTTP endpoints (embeddings and chat): Ollama, llama.cpp, vLLM.

Standard library only (urllib + json), so that a recall through a remote provider starts as
fast as a lexical one. Every failure becomes `EndpointError` with a one-line reason; the caller
turns it into its own error (an unavailable provider, a reflect notice). Loopback servers
bypass any configured HTTP proxy.
"""

from __future__ import annotations

import ipaddress
import json
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit


class EndpointError(Exception):
    """The endpoint could not be used; the message is one line naming why.

    `status` is the HTTP status when the server answered (None for a transport failure or a bad
    body) and `retry_after` the seconds its Retry-After header asked for: a caller that retries
    (embed.remote) decides from them, and the message stays the same for callers that do not.
    """

    def __init__(self, message: str, status: int | None = None, retry_after: float | None = None,
                 timed_out: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
        self.timed_out = timed_out


class JsonEndpoint:
    """POSTs JSON to `{base_url}/{path}` and returns the decoded JSON answer."""

    def __init__(self, base_url: str, *, api_key: str | None = None, headers: Mapping[str, str] | None = None,
                 timeout: float = 30.0) -> None:
        """Raises EndpointError for a URL that is not http(s) (urllib would also open file:// URLs)."""
        self.base_url = base_url.rstrip("/")
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise EndpointError(f"base_url {base_url!r} must be an http:// or https:// URL")
        self.timeout = timeout
        self.headers = {"Content-Type": "application/json", "Accept": "application/json", **(headers or {})}
        if api_key:
            self.headers["Authorization"] = f"Bearer {api_key}"
        self._opener = opener_for(parts.hostname)
        self.requests = 0  # how many HTTP calls this client made (tests, --explain)

    def post(self, path: str, payload: Any, *, timeout: float | None = None) -> Any:
        """Send one JSON request; translate every transport or protocol failure into one line.

        `timeout` (seconds) overrides the client's for this request (a recall's short deadline)."""
        return parse_json(self.send("POST", path, json.dumps(payload).encode("utf-8"), timeout=timeout))

    def get(self, path: str, *, timeout: float | None = None) -> Any:
        """GET a JSON answer (a batch job's state)."""
        return parse_json(self.send("GET", path, None, timeout=timeout))

    def send(self, method: str, path: str, data: bytes | None, *, content_type: str | None = None,
             timeout: float | None = None) -> bytes:
        """One request with a raw body (a multipart upload) or none; the raw answer (a JSONL file)."""
        url = f"{self.base_url}/{path.lstrip('/')}"
        headers = self.headers if content_type is None else {**self.headers, "Content-Type": content_type}
        req = urllib.request.Request(url, data=data, headers=headers, method=method)
        timeout = self.timeout if timeout is None else timeout
        self.requests += 1
        try:
            with self._opener.open(req, timeout=timeout) as resp:
                return resp.read()
        except urllib.error.HTTPError as exc:
            raise EndpointError(f"HTTP {exc.code} {exc.reason}{_error_detail(exc)}", status=exc.code,
                                retry_after=_retry_after(exc.headers.get("Retry-After"))) from None
        except urllib.error.URLError as exc:
            raise EndpointError(_reason(exc.reason, timeout), timed_out=isinstance(exc.reason, TimeoutError)) from None
        except (TimeoutError, OSError) as exc:  # timeouts, reset by peer mid-read, and the like
            raise EndpointError(_reason(exc, timeout), timed_out=isinstance(exc, TimeoutError)) from None


def parse_json(raw: bytes) -> Any:
    """A JSON answer decoded, or EndpointError."""
    try:
        return json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise EndpointError("response is not valid JSON") from None


def opener_for(host: str) -> urllib.request.OpenerDirector:
    """A urllib opener; loopback servers bypass any configured HTTP proxy.

    Without this, an `http_proxy` variable meant for the internet would route a local Ollama or
    llama.cpp call through the proxy, which cannot reach our loopback interface.
    """
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if loopback:
        return urllib.request.build_opener(urllib.request.ProxyHandler({}))
    return urllib.request.build_opener()


def _reason(reason: object, timeout: float) -> str:
    """'connection refused', 'timed out after 30s', or the OS's own words, on one line."""
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused"
    if isinstance(reason, TimeoutError):  # socket.timeout is an alias since 3.10
        return f"timed out after {timeout:g}s"
    text = str(getattr(reason, "strerror", None) or reason)
    return " ".join(text.split()) or type(reason).__name__


def _retry_after(value: str | None) -> float | None:
    """Retry-After in seconds: a number, or an HTTP date turned into seconds from now; None otherwise."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    from email.utils import parsedate_to_datetime  # only for the rare server that sends a date

    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    import time

    return max(0.0, when.timestamp() - time.time())


def _error_detail(exc: urllib.error.HTTPError) -> str:
    """The server's own error message, if it sent one, shortened to keep the error on one line."""
    try:
        raw = exc.read(2000).decode("utf-8", "replace")
    except Exception:  # the body is a courtesy; never let reading it mask the HTTP error
        return ""
    try:
        body = json.loads(raw)
        err = body.get("error", body) if isinstance(body, dict) else body
        msg = err.get("message", err) if isinstance(err, dict) else err
        text = str(msg)
    except (json.JSONDecodeError, AttributeError):
        text = raw
    text = " ".join(text.split())
    if not text:
        return ""
    return f": {text[:160]}{'…' if len(text) > 160 else ''}"
