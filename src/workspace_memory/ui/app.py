"""The Starlette application: routes that call `api.Memory` and render views, and the guards.

Every Memory call runs on one worker thread: the index connection and the caches inside
Memory are used by one thread only, and the event loop stays free for static files. Without
`--now` the worker moves Memory's clock to the wall clock before each call, so a server
left running past midnight retains into the right day.

Guards on every response: a strict Content-Security-Policy (the page loads nothing from
elsewhere and runs no script), no framing, no referrer; the Host check on loopback; the token
off loopback; the CSRF secret on the one form that writes (retain).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import secrecy
from ..errors import IndexBusy, MemoryError_, PathRefused, ProviderUnavailable, UserError
from ..timeparse import parse_day
from ..workspace import day_from_name
from . import views_days, views_entities, views_search, views_status
from .html import Safe, el
from .layout import page, retain_form
from .links import source_href
from .security import COOKIE, UiSettings, host_allowed, request_token, same_secret

log = logging.getLogger("workspace_memory.ui")

PAGE_LINES = 2_000  # one file page in the UI (the CLI's `get` pages are smaller: they go to a model)
PAGE_CHARS = 400_000
CSP = ("default-src 'self'; script-src 'none'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
ERROR_STATUS = ((PathRefused, 404), (IndexBusy, 503), (ProviderUnavailable, 503), (MemoryError_, 400))

Built = Safe | tuple[Safe, int]  # a page body, or a body and its status code


class NotFound(Exception):
    """A page that does not exist (an unknown entity)."""


class MemoryWorker:
    """Runs Memory calls on one dedicated thread (see the module docstring)."""

    def __init__(self, mem, fixed_now: bool) -> None:  # api.Memory
        self.mem = mem
        self.fixed_now = fixed_now
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memory-ui")

    async def run(self, fn: Callable[[Any], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.pool, self._call, fn)

    def _call(self, fn: Callable[[Any], Any]) -> Any:
        if not self.fixed_now:
            self.mem.now = datetime.now(self.mem.tz)
        return fn(self.mem)

    def close(self) -> None:
        self.pool.submit(self.mem.close).result()
        self.pool.shutdown()


@dataclass
class UiState:
    """What every handler needs: the worker, the settings, the footer line."""

    worker: MemoryWorker
    settings: UiSettings
    footer: str


def _state(request: Request) -> UiState:
    return request.app.state.ui


def error_page(request: Request, code: int, title: str, message: str, extra: Safe | None = None) -> Response:
    body = el("div", el("h1", title), el("p", message, class_="error", role="alert"), extra,
              el("p", el("a", "Back to the timeline", href="/")))
    return HTMLResponse(secrecy.blank(page(title, body, section="", footer=_state(request).footer)), status_code=code)


async def render(request: Request, build: Callable[[Any], Built], title: str, section: str) -> Response:
    """Run `build(mem)` on the worker and wrap its body in the page; typed errors become pages."""
    try:
        built = await _state(request).worker.run(build)
    except NotFound as exc:
        return error_page(request, 404, "Not found", str(exc))
    except MemoryError_ as exc:
        code = next(code for cls, code in ERROR_STATUS if isinstance(exc, cls))
        return error_page(request, code, "Refused" if code == 404 else "Cannot do that", str(exc))
    except Exception:  # a bug shows a page and goes to the log, never a traceback page
        log.exception("memory ui: %s failed", request.url.path)
        return error_page(request, 500, "Internal error", "the server failed on this page; its log has the details")
    body, code = built if isinstance(built, tuple) else (built, 200)
    # Any key the process holds is blanked from the page, as from every other exit (secrecy).
    return HTMLResponse(secrecy.blank(page(title, body, section=section, footer=_state(request).footer)),
                        status_code=code)


# ------------------------------------------------------------------------------------------ pages


async def timeline(request: Request) -> Response:
    year = request.query_params.get("year", "")
    wanted = int(year) if year.isdigit() else None
    csrf = _state(request).settings.csrf
    return await render(request, lambda m: views_days.timeline_body(m.timeline(), wanted, m.today, csrf),
                        "Timeline", "timeline")


async def day(request: Request) -> Response:
    raw = request.path_params["day"]
    try:
        when = parse_day(raw, "day")
    except UserError as exc:
        return error_page(request, 404, "Not found", str(exc))
    iso = when.isoformat()
    line = _int(request.query_params.get("line"))
    focus = (request.query_params.get("file") or f"memory/{iso}.md", line) if line else None
    retained = request.query_params.get("retained")
    csrf = _state(request).settings.csrf

    def build(m: Any) -> Built:
        days = m.timeline()
        info = next((d for d in days if d["day"] == iso), None)
        around = (max((d["day"] for d in days if d["day"] < iso), default=None),
                  min((d["day"] for d in days if d["day"] > iso), default=None))
        files = [(p, m.get(p, 1, PAGE_LINES, PAGE_CHARS)) for p in (info["files"] if info else [])]
        body = views_days.day_body(when, info, files, around, focus, csrf, retained)
        return body if info else (body, 404)

    return await render(request, build, iso, "timeline")


async def file(request: Request) -> Response:
    path = request.path_params["path"]
    start = _int(request.query_params.get("from")) or 1
    line = _int(request.query_params.get("line"))
    if line and start == 1 and line > PAGE_LINES:
        start = max(1, line - 20)  # a deep citation opens on the page that holds it

    def build(m: Any) -> Built:
        pg = m.get(path, start, PAGE_LINES, PAGE_CHARS)
        return views_days.file_body(pg.path, pg, day_from_name(pg.path), line)

    return await render(request, build, path, "")


async def media(request: Request) -> Response:
    """A media file's bytes (an image beside its derived text, a voice note to play, a PDF to open)."""
    path = request.path_params["path"]
    state = _state(request)
    try:
        data, mime = await state.worker.run(lambda m: m.media_file(path))
    except (PathRefused, UserError) as exc:
        return HTMLResponse(f"{exc}", status_code=404)
    return Response(data, media_type=mime, headers={"Content-Disposition": "inline"})


async def search(request: Request) -> Response:
    form = {key: request.query_params.get(key, "").strip() for key in ("q", "mode", "k", "since", "entity", "kind")}

    def build(m: Any) -> Built:
        names = [e["name"] or e["slug"] for e in m.entities()]
        if not any(form[key] for key in ("q", "since", "entity", "kind")):
            return views_search.search_body(form, None, None, names)
        try:
            result = m.recall(_recall_request(form))
        except (MemoryError_, ValueError) as exc:
            return views_search.search_body(form, None, str(exc), names), 400
        return views_search.search_body(form, result, None, names)

    return await render(request, build, f"Search: {form['q']}" if form["q"] else "Search", "search")


async def entities(request: Request) -> Response:
    return await render(request, lambda m: views_entities.entities_body(m.entities()), "Entities", "entities")


async def entity(request: Request) -> Response:
    name = request.path_params["name"]

    def build(m: Any) -> Built:
        try:
            report = m.entity(name)
        except MemoryError_ as exc:
            raise NotFound(str(exc)) from None
        return views_entities.entity_body(report, m.opinions(report["slug"]))

    return await render(request, build, name, "entities")


async def opinions(request: Request) -> Response:
    name = request.query_params.get("entity") or None
    return await render(request, lambda m: views_entities.opinions_body(m.opinions(name), name), "Opinions",
                        "opinions")


async def status(request: Request) -> Response:
    def build(m: Any) -> Built:
        findings, note = None, None
        if hasattr(m, "doctor"):
            try:
                findings = views_status.doctor_findings(m.doctor())
            except MemoryError_ as exc:
                note = f"doctor failed: {exc}"
        return views_status.status_body(m.status(), findings, note)

    return await render(request, build, "Status", "status")


async def retain(request: Request) -> Response:
    """The retain form: Memory.retain, as `memory retain`; then the day, at the new line."""
    ui = _state(request)
    form = await request.form()
    bullet, day_text = str(form.get("bullet", "")), str(form.get("day", ""))
    if not same_secret(str(form.get("csrf", "")), ui.settings.csrf):
        return error_page(request, 403, "Refused", "the form is stale or came from another site; reload the page")
    try:
        when = parse_day(day_text, "day")
    except UserError as exc:
        return error_page(request, 400, "Not retained", str(exc), retain_form(ui.settings.csrf, day_text, bullet))
    try:
        written = await ui.worker.run(lambda m: m.retain(bullet, when))
    except MemoryError_ as exc:
        return error_page(request, 400, "Not retained", str(exc), retain_form(ui.settings.csrf, day_text, bullet))
    note = f"{'Already retained' if written.duplicate else 'Retained'} at {written.path}#L{written.line}"
    base, _, fragment = source_href(written.path, written.line).partition("#")
    sep = "&" if "?" in base else "?"
    return RedirectResponse(f"{base}{sep}{urlencode({'retained': note})}#{fragment}", status_code=303)


# ------------------------------------------------------------------------------------------ guards


async def guard(request: Request, call_next: Callable) -> Response:
    """Host and token checks first; security headers on every response."""
    response = _refusal(request, _state(request).settings)
    if response is None:
        response = await call_next(request)
    response.headers.update(SECURITY_HEADERS)
    return response


def _refusal(request: Request, settings: UiSettings) -> Response | None:
    """The response that refuses this request (bad Host, no token), or None when it may go on."""
    if not host_allowed(request.headers.get("host"), settings):
        return HTMLResponse("unexpected Host header: open the UI at the address it serves", status_code=421)
    origin = request.headers.get("origin")
    # "null": the UI's own form posts under its `Referrer-Policy: no-referrer` (and sandboxed frames)
    # name no site. It gets past this check only; the Host check above and every write's CSRF
    # secret still stand between another site and the workspace.
    if origin and origin != "null" and not host_allowed(origin, settings):
        return HTMLResponse("unexpected Origin header: a page on another site cannot use the UI", status_code=403)
    if settings.token is None:
        return None
    given = request_token(request.headers.get("authorization"), request.cookies.get(COOKIE),
                          request.query_params.get("token"))
    if not same_secret(given, settings.token):
        return HTMLResponse("a token is required: open the URL with ?token=… once, or send "
                            "Authorization: Bearer …", status_code=401)
    if "token" in request.query_params:  # first visit: keep the token in a cookie, out of the address bar
        rest = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "token"])
        response = RedirectResponse(request.url.path + (f"?{rest}" if rest else ""), status_code=303)
        response.set_cookie(COOKIE, settings.token, httponly=True, samesite="strict")
        return response
    return None


async def not_found(request: Request, exc: Exception) -> Response:
    return error_page(request, 404, "Not found", f"no page at {request.url.path}")


# ------------------------------------------------------------------------------------------ the app


def create_app(mem, settings: UiSettings, *, fixed_now: bool = False) -> Starlette:
    """The UI for `mem` (an api.Memory); `fixed_now` when --now pinned the clock."""
    worker = MemoryWorker(mem, fixed_now)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        worker.close()

    routes = [
        Route("/", timeline), Route("/day/{day}", day), Route("/file/{path:path}", file),
        Route("/media/{path:path}", media),
        Route("/search", search), Route("/entities", entities), Route("/entity/{name}", entity),
        Route("/opinions", opinions), Route("/status", status), Route("/retain", retain, methods=["POST"]),
        Mount("/static", StaticFiles(packages=[("workspace_memory.ui", "static")]), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(BaseHTTPMiddleware, dispatch=guard)],
                    exception_handlers={404: not_found}, lifespan=lifespan)
    app.state.ui = UiState(worker, settings, f"workspace {mem.workspace.root}")
    return app


def _int(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None


def _recall_request(form: dict[str, str]):  # recall.query.RecallRequest
    from ..limits import check_k
    from ..recall.params import MODES
    from ..recall.query import RecallRequest

    k = form["k"] or views_search.DEFAULT_K
    if not k.isdigit():
        raise ValueError(f"k {k!r}: expected a number")
    check_k(int(k), views_search.MAX_K)
    if form["mode"] and form["mode"] not in MODES:
        raise ValueError(f"mode {form['mode']!r}: expected one of {', '.join(MODES)}")
    return RecallRequest(query=form["q"], k=int(k), since=form["since"] or None, entity=form["entity"] or None,
                         kind=form["kind"] or None, mode=form["mode"] or "auto", explain=True)
