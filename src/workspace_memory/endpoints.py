"""One client for OpenAI-compatible HTTP endpoints (embeddings and chat): Ollama, llama.cpp, vLLM.

Standard library only (urllib + json), so that a recall through a remote provider starts as
fast as a lexical one. Every failure becomes `EndpointError` with a one-line reason; the caller
turns it into its own error (an unavailable provider, a reflect notice). Loopback servers
bypass any configured HTTP proxy.

A request carries the user's key, so the client keeps it where it was sent:
- every request goes to the configured origin (scheme, host and port), whatever its path says;
- a redirect is never followed (urllib's default would resend the key's header to any host the
  server names, turning a POST into a GET): it is an error that names where it pointed;
- every message is blanked (secrecy.blank) before it is cut to one line, so a server that echoes
  the key, whole or in pieces, in its status line or body never gets it into an error;
- an answer is read up to MAX_ANSWER_BYTES.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import Any
from urllib.parse import urljoin, urlsplit

from . import secrecy

MAX_ANSWER_BYTES = 512 * 1024 * 1024  # one answer (2,048 texts of 3,072 floats as JSON is ~150 MB)
DETAIL_CHARS = 160  # the server's own message, at most, in an error line


class EndpointError(Exception):
    """The endpoint could not be used; the message is one line naming why.

    `status` is the HTTP status when the server answered (None for a transport failure or a bad
    body) and `retry_after` the seconds its Retry-After header asked for: a caller that retries
    (embed.remote) decides from them, and the message stays the same for callers that do not.
    """

    def __init__(self, message: str, status: int | None = None, retry_after: float | None = None,
                 timed_out: bool = False) -> None:
        super().__init__(secrecy.blank(message))
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
        self.origin = _origin(self.base_url)
        self.timeout = timeout
        self.headers = {"Content-Type": "application/json", "Accept": "application/json", **(headers or {})}
        if api_key:
            self.headers["Authorization"] = f"Bearer {api_key}"
        for name, value in self.headers.items():  # the key, however it travels, is blanked from every exit
            if secrecy.is_secret_header(name):
                secrecy.register_credential(value)
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
        if _origin(url) != self.origin:  # a model name like "//elsewhere" must not move the key
            raise EndpointError("the request's address leaves base_url's host; refused")
        headers = self.headers if content_type is None else {**self.headers, "Content-Type": content_type}
        req = urllib.request.Request(url, data=data, headers=headers, method=method)
        timeout = self.timeout if timeout is None else timeout
        self.requests += 1
        try:
            with self._opener.open(req, timeout=timeout) as resp:
                raw = resp.read(MAX_ANSWER_BYTES + 1)
        except urllib.error.HTTPError as exc:
            if 300 <= exc.code < 400:
                raise EndpointError(_redirect(exc, url), status=exc.code) from None
            raise EndpointError(f"HTTP {exc.code} {_one_line(str(exc.reason))}{_error_detail(exc)}", status=exc.code,
                                retry_after=_retry_after(exc.headers.get("Retry-After"))) from None
        except urllib.error.URLError as exc:
            raise EndpointError(_reason(exc.reason, timeout), timed_out=isinstance(exc.reason, TimeoutError)) from None
        except (TimeoutError, OSError) as exc:  # timeouts, reset by peer mid-read, and the like
            raise EndpointError(_reason(exc, timeout), timed_out=isinstance(exc, TimeoutError)) from None
        except (http.client.HTTPException, ValueError) as exc:
            # A malformed status line or header, a body cut short; or a request urllib refused to send.
            # Their own words may quote a header (the key's): the type says enough.
            raise EndpointError(f"the exchange with the server failed ({type(exc).__name__})") from None
        if len(raw) > MAX_ANSWER_BYTES:
            raise EndpointError(f"the answer is over {MAX_ANSWER_BYTES // 1_048_576} MB; refused")
        return raw


def parse_json(raw: bytes) -> Any:
    """A JSON answer decoded, or EndpointError."""
    try:
        return json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise EndpointError("response is not valid JSON") from None


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Redirects are answers, not instructions: urllib then raises HTTPError with the 3xx status."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def opener_for(host: str) -> urllib.request.OpenerDirector:
    """A urllib opener that never follows a redirect; loopback servers bypass any configured HTTP proxy.

    Without the proxy rule, an `http_proxy` variable meant for the internet would route a local
    Ollama or llama.cpp call through the proxy, which cannot reach our loopback interface.
    """
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if loopback:
        return urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect)
    return urllib.request.build_opener(_NoRedirect)


def _origin(url: str) -> tuple[str, str, int | None]:
    """(scheme, host, port) of `url`, the default port filled in."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = -1
    return parts.scheme, (parts.hostname or "").lower(), port or {"http": 80, "https": 443}.get(parts.scheme)


def _redirect(exc: urllib.error.HTTPError, url: str) -> str:
    """The error for a redirect: where it pointed (its origin only; a path may carry anything)."""
    location = exc.headers.get("Location") or ""
    scheme, host, port = _origin(urljoin(url, location)) if location else ("", "", None)
    where = f" to {scheme}://{host}:{port}" if host else ""
    return (f"HTTP {exc.code}: the server redirects{where}; redirects are not followed (a request carries "
            "the key): set base_url to the address it names")


def _one_line(text: str) -> str:
    return " ".join(secrecy.blank(text).split())


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
    text = _one_line(text)  # blanked before the cut: a cut could leave most of a long key behind
    if not text:
        return ""
    return f": {text[:DETAIL_CHARS]}{'…' if len(text) > DETAIL_CHARS else ''}"
