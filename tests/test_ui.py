"""`memory ui` without a browser: the pure parts (SVG, escaping, links, token rules) and the real
server over loopback (pages, path confinement, headers, token, retain through Memory.retain)."""

from __future__ import annotations

import contextlib
import json
import re
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from conftest import NOW, WORKSPACE_FILES, assert_one_line_error, clean_env, memory_executable, run_memory
from workspace_memory.errors import UserError
from workspace_memory.ui.charts import ChartEvent, ChartPoint, confidence_chart, point_xs
from workspace_memory.ui.html import Safe, el
from workspace_memory.ui.links import anchor_id, source_href
from workspace_memory.ui.markdown_view import render_markdown
from workspace_memory.ui.security import UiSettings, host_allowed, request_token, resolve_settings

HOSTILE = """\
# 2025-11-29

## Notes
- <script>alert("note")</script> and <img src=x onerror=alert(1)>
- [click me](javascript:alert(1)) and ![pixel](http://tracker.example/p.png)
- [a source](../bank/entities/Peter.md#L3)

## Retain
- W @Peter: Said "<b>hi</b>" & <script>alert(2)</script> in a message.
- x @Peter: not a fact <svg onload=alert(3)>
"""

# ------------------------------------------------------------------------------------------ pure parts


def test_the_chart_has_one_linked_point_per_evidence_and_a_mark_per_event() -> None:
    points = [ChartPoint("2025-11-03", 0.8, "/day/2025-11-03?line=7#a", "formed"),
              ChartPoint("2025-11-05", 0.845, "/day/2025-11-05?line=7#b", "reinforced"),
              ChartPoint("2025-11-05", 0.77, "/day/2025-11-05?line=8#c", "contradicted", supporting=False),
              ChartPoint(None, 0.7, "/file/MEMORY.md?line=3#d", "undated", estimated=True)]
    svg = confidence_chart(points, [ChartEvent("2025-11-04", "confidence set by hand to 0.50", 0.5)], "t")
    circles = re.findall(r'<a href="([^"]+)"[^>]*><circle [^>]*class="(pt[^"]*)"', svg)
    assert [href for href, _ in circles] == [p.href.replace("&", "&amp;") for p in points]
    assert [cls for _, cls in circles] == ["pt pt-support", "pt pt-support", "pt pt-contra",
                                           "pt pt-support pt-estimated"]
    assert svg.count('class="event-mark"') == 1 and svg.count('class="event-set"') == 1
    assert len(re.findall(r"\d+\.\d,\d+\.\d", re.search(r'points="([^"]+)"', svg)[1])) == 4


def test_point_positions_follow_the_days_and_stay_apart_and_inside() -> None:
    days = [date(2025, 11, 1), date(2025, 11, 1), None, date(2025, 11, 2), date(2025, 12, 31)]
    xs = point_xs(days, left=0, right=100)
    assert xs == sorted(xs) and xs[0] == 0 and xs[-1] == pytest.approx(100)
    assert all(b - a > 5 for a, b in zip(xs, xs[1:], strict=False))
    assert point_xs([date(2025, 1, 1)], left=0, right=100) == [50]
    assert point_xs([None, None], left=0, right=100) == [0, 16]


def test_the_html_builder_escapes_everything_that_is_not_safe() -> None:
    out = el("a", '<script>"x"</script>', href='javascript:"><img src=x>', title="a&b")
    assert out == ('<a href="javascript:&quot;&gt;&lt;img src=x&gt;" title="a&amp;b">'
                   "&lt;script&gt;&quot;x&quot;&lt;/script&gt;</a>")
    assert el("p", Safe("<b>ok</b>"), ["<i>", 3]) == "<p><b>ok</b>&lt;i&gt;3</p>"
    assert el("input", disabled=True, value=None, data_x="1") == '<input disabled data-x="1">'


def test_hostile_markdown_renders_as_text_with_facts_marked() -> None:
    html = render_markdown(HOSTILE, "memory/2025-11-29.md", day=date(2025, 11, 29), focus=9)
    assert "<script" not in html and "<img" not in html and "<svg" not in html and "<b>" not in html
    assert "onerror=alert" not in html.replace("&lt;img src=x onerror=alert(1)&gt;", "")
    assert "&lt;script&gt;alert(&quot;note&quot;)&lt;/script&gt;" in html
    assert "javascript:" not in html.split("</h1>", 1)[1].replace("[click me](javascript:alert(1))", "")
    assert "tracker.example" not in html and "[image: pixel]" in html  # nothing is loaded from anywhere
    assert 'href="/file/bank/entities/Peter.md?line=3#bank-entities-Peter-md-L3"' in html
    fact = re.search(r'<li id="memory-2025-11-29-md-L9" class="fact k-world focus">\s*<span class="badge k-world"', html)
    assert fact, html
    assert re.search(r'<li id="memory-2025-11-29-md-L10" class="fact k-malformed">\s*<span class="badge k-malformed"',
                     html)


def test_reflect_markers_and_ledger_comments_are_hidden() -> None:
    text = "# Opinions\n\n<!-- reflect:begin evidence -->\nSupporting evidence:\n- one\n<!-- reflect:end evidence -->\n" \
           "\n<!-- reflect:begin state -->\n<!--\nledger {\"k\":1}\n-->\n<!-- reflect:end state -->\n"
    html = render_markdown(text, "bank/opinions.md")
    assert "reflect:" not in html and "ledger" not in html and "Supporting evidence:" in html


def test_sources_open_in_the_day_view_or_the_file_view() -> None:
    assert source_href("memory/2025-11-20.md", 8) == "/day/2025-11-20?line=8#memory-2025-11-20-md-L8"
    assert source_href("memory/2025-11-20-standup.md", 2) == (
        "/day/2025-11-20?file=memory%2F2025-11-20-standup.md&line=2#memory-2025-11-20-standup-md-L2")
    assert source_href("bank/entities/The Castle.md") == "/file/bank/entities/The%20Castle.md"
    assert source_href("/srv/notes/x.md", 1) == "/file//srv/notes/x.md?line=1#srv-notes-x-md-L1"
    assert anchor_id("MEMORY.md", 3) == "MEMORY-md-L3"


def test_a_token_is_required_off_loopback_and_read_from_the_environment() -> None:
    env = {"UI_TOKEN": "s3cret-token-of-some-length", "SHORT": "abc"}
    assert resolve_settings(None, "127.0.0.1", 8765, None, env).token is None
    assert resolve_settings({"token_env": "UNSET"}, "::1", 8765, None, env).token is None  # loopback: optional
    assert resolve_settings({"token_env": "UI_TOKEN"}, "127.0.0.1", 1, None, env).token == env["UI_TOKEN"]
    assert resolve_settings({"token_env": "UI_TOKEN"}, "0.0.0.0", 1, None, env).token == env["UI_TOKEN"]
    assert resolve_settings(None, "192.168.1.5", 1, "UI_TOKEN", env).token == env["UI_TOKEN"]
    for config, host, option, message in [
        (None, "0.0.0.0", None, "a token is required"),
        ({"token_env": "UNSET"}, "10.0.0.2", None, "UNSET (the token) is not set"),
        (None, "127.0.0.1", "UNSET", "UNSET (the token) is not set"),  # asked for explicitly
        (None, "0.0.0.0", "SHORT", "too short"),
        ({"token": "inline"}, "127.0.0.1", None, "unknown key(s) token"),
        ({"token_env": 3}, "127.0.0.1", None, "token_env: expected the name"),
        ("x", "127.0.0.1", None, "expected a table"),
    ]:
        with pytest.raises(UserError, match=re.escape(message)):
            resolve_settings(config, host, 1, option, env)


def test_request_token_and_host_checks() -> None:
    assert request_token("Bearer abc", "cookie", "query") == "abc"
    assert request_token("Basic abc", "cookie", "query") == "cookie"
    assert request_token(None, None, "query") == "query"
    assert request_token(None, None, None) is None
    open_ = UiSettings()
    assert host_allowed("127.0.0.1:8765", open_) and host_allowed("localhost:1", open_)
    assert host_allowed("[::1]:8765", open_) and not host_allowed("evil.example:8765", open_)
    assert not host_allowed(None, open_)
    assert not host_allowed("evil.example", UiSettings(token="x" * 20))  # checked on every bind (DNS rebinding)


# ------------------------------------------------------------------------------------------ the server


@contextlib.contextmanager
def serving(root: Path, monkeypatch: pytest.MonkeyPatch, **settings: object) -> Iterator[str]:
    """The real app under uvicorn on a free loopback port, in a thread; yields its base URL."""
    import uvicorn

    from workspace_memory.api import Memory
    from workspace_memory.ui.app import create_app
    from workspace_memory.ui.server import bind

    monkeypatch.setenv("MEMORY_EMBED_PROVIDER", "none")
    mem = Memory.open(str(root), now=NOW)
    sock = bind("127.0.0.1", 0)
    ui = UiSettings(port=sock.getsockname()[1], **settings)
    server = uvicorn.Server(uvicorn.Config(create_app(mem, ui, fixed_now=True), log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield ui.url.rstrip("/")
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def fetch(url: str, data: dict[str, str] | None = None, headers: dict[str, str] | None = None):
    """(status, headers, body) without following redirects."""
    from urllib.parse import urlencode

    body = urlencode(data).encode() if data is not None else None
    request = urllib.request.Request(url, data=body, headers=headers or {})
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=30) as resp:
            return resp.status, resp.headers, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read().decode()


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html)[1]


def test_every_page_answers_with_a_strict_policy(indexed_workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with serving(indexed_workspace, monkeypatch) as base:
        for path, needle in [("/", "November 2025"), ("/day/2025-11-16", "k-malformed"),
                             ("/file/MEMORY.md", "Drinks espresso"), ("/search?q=Baileys+crash", "2025-11-12.md#L13"),
                             ("/entities", "The Castle"), ("/entity/Peter", "Peter: In Marrakech"),
                             ("/opinions", "Opinions"), ("/status", "malformed-retain"),
                             ("/static/style.css", "prefers-color-scheme")]:
            code, headers, body = fetch(base + path)
            assert code == 200 and needle in body, (path, code, body[:500])
            assert headers["Content-Security-Policy"].startswith("default-src 'self'")
            # On Nov 30 Peter is in Marrakech (Nov 27-Dec 1): the flight to Tokyo on Dec 8 replaces nothing yet.
            assert "<s>Peter: In Marrakech" not in body
            assert headers["X-Frame-Options"] == "DENY"
            assert not re.search(r"""(src|href)=["']?(https?:)?//""", body), path  # nothing from elsewhere
        code, _, body = fetch(base + "/search?q=x&since=soon")
        assert code == 400 and "soon" in body


@pytest.mark.parametrize("path", ["/file/..%2F..%2Fetc%2Fpasswd.md", "/file/%2E%2E/%2E%2E/x.md", "/file//etc/passwd.md",
                                  "/file/.memory/index.sqlite", "/file/bank/../../secret.md", "/file/memory/nope.md",
                                  "/day/2025-13-40", "/day/..%2F..", "/entity/..%2F..%2Fetc"])
def test_paths_are_confined_like_memory_get(shared_ws: Path, monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    (shared_ws.parent / "secret.md").write_text("top secret\n")
    with serving(shared_ws, monkeypatch) as base:
        code, _, body = fetch(base + path)
    assert 400 <= code < 500, (path, code)
    assert "Traceback" not in body and "top secret" not in body and "root:" not in body


def test_the_host_header_must_be_loopback_without_a_token(shared_ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with serving(shared_ws, monkeypatch) as base:
        assert fetch(base + "/", headers={"Host": "attacker.example"})[0] == 421
        assert fetch(base + "/", headers={"Host": "localhost:1"})[0] == 200


def test_with_a_token_every_request_needs_it(shared_ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    token = "t0ken-" + "x" * 20
    with serving(shared_ws, monkeypatch, token=token) as base:
        for path in ("/", "/status", "/static/style.css", "/file/MEMORY.md"):
            assert fetch(base + path)[0] == 401
        assert fetch(base + "/?token=wrong-token-value-123")[0] == 401
        assert fetch(base + "/status", headers={"Authorization": f"Bearer {token}"})[0] == 200
        code, headers, _ = fetch(f"{base}/search?q=tea&token={token}")
        assert code == 303 and headers["Location"] == "/search?q=tea"  # the token leaves the address bar
        cookie = headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie
        assert fetch(base + "/search?q=tea", headers={"Cookie": cookie.split(";")[0]})[0] == 200


def test_retain_writes_through_memory_retain_and_needs_the_form_secret(
        indexed_workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = indexed_workspace / "memory/2025-11-30.md"
    before = log.read_text()
    with serving(indexed_workspace, monkeypatch) as base:
        secret = csrf_of(fetch(base + "/")[2])
        bullet = "O(c=0.7) @Peter: Likes <b>green</b> tea"
        assert fetch(base + "/retain", {"bullet": bullet, "day": "2025-11-30", "csrf": "forged"})[0] == 403
        assert log.read_text() == before
        code, _, body = fetch(base + "/retain", {"bullet": "Z nonsense", "day": "2025-11-30", "csrf": secret})
        assert code == 400 and "not retained" in body and log.read_text() == before
        code, headers, _ = fetch(base + "/retain", {"bullet": bullet, "day": "2025-11-30", "csrf": secret})
        assert code == 303
        assert log.read_text() == before + f"- {bullet}\n"  # exactly what `memory retain` writes
        line = len(before.splitlines()) + 1
        assert headers["Location"].startswith(f"/day/2025-11-30?line={line}&retained=Retained")
        code, _, day_page = fetch(base + headers["Location"])
        assert code == 200 and "Likes &lt;b&gt;green&lt;/b&gt; tea" in day_page and 'class="fact k-opinion focus"' in day_page
        code, _, _ = fetch(base + "/retain", {"bullet": bullet, "day": "2025-11-30", "csrf": secret})
        assert code == 303 and log.read_text().count("green") == 1  # a duplicate is a no-op, as in the CLI


def test_a_day_is_read_as_the_cli_reads_it(shared_ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """dates.parse.parse_day for the day page and the retain form (date.fromisoformat alone takes 20251130)."""
    with serving(shared_ws, monkeypatch) as base:
        code, _, body = fetch(base + "/day/20251130")
        assert code == 404 and "day &#x27;20251130&#x27;: expected YYYY-MM-DD" in body.replace("&#39;", "&#x27;"), body
        code, _, body = fetch(base + "/day/2026-02-30")
        assert code == 404 and "day 2026-02-30: no such date" in body
        secret = csrf_of(fetch(base + "/")[2])
        code, _, body = fetch(base + "/retain", {"bullet": "W @Peter: x", "day": "20251130", "csrf": secret})
        assert code == 400 and "expected YYYY-MM-DD" in body


def test_the_timeline_counts_each_day(shared_ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from workspace_memory.api import Memory

    monkeypatch.setenv("MEMORY_EMBED_PROVIDER", "none")
    mem = Memory.open(str(shared_ws), now=NOW)
    try:
        days = {d["day"]: d for d in mem.timeline()}
    finally:
        mem.close()
    daily = {rel[7:17] for rel in WORKSPACE_FILES if re.match(r"memory/\d{4}-\d\d-\d\d\.md$", rel)}
    assert set(days) == daily
    assert days["2025-11-16"]["facts_by_kind"] == {"world": 1, "experience": 1}  # the malformed bullet is not one
    assert days["2025-11-16"]["notes"] == 2  # the quiet-day note and the malformed bullet, kept as text
    assert days["2025-03-14"] == {"day": "2025-03-14", "files": ["memory/2025-03-14.md"], "notes": 2, "facts": 0,
                                  "facts_by_kind": {}}


# ------------------------------------------------------------------------------------------ the command


def start_ui(root: Path, *args: str, env: dict[str, str | None] | None = None) -> tuple[subprocess.Popen, str]:
    """`memory ui --port 0 ARGS` in a subprocess; returns it and the URL it printed."""
    proc = subprocess.Popen([memory_executable(), "--workspace", str(root), "--now", NOW, "ui", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=clean_env(env))
    line = proc.stdout.readline()
    match = re.search(r"serving (http://\S+)", line)
    if not match:
        proc.kill()
        raise AssertionError(f"no URL: {line!r} {proc.stderr.read()}")
    return proc, match[1]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_the_command_serves_until_a_signal_stops_it_cleanly(shared_ws: Path, sig: signal.Signals) -> None:
    proc, url = start_ui(shared_ws)
    try:
        assert fetch(url + "status")[0] == 200
    finally:
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "memory ui: stopped" in out and "Traceback" not in err


def test_open_starts_the_browser_named_by_BROWSER(shared_ws: Path, tmp_path: Path) -> None:
    seen = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" > {seen}\n')
    browser.chmod(0o755)
    proc, url = start_ui(shared_ws, "--open", env={"BROWSER": str(browser)})
    try:
        deadline = time.monotonic() + 20
        while not seen.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert seen.read_text().strip() == url
    finally:
        proc.terminate()
        proc.communicate(timeout=20)


def test_bad_options_are_one_line_errors(shared_ws: Path) -> None:
    line = assert_one_line_error(*run_memory(shared_ws, "ui", "--host", "0.0.0.0", "--port", "0"))
    assert "a token is required" in line
    line = assert_one_line_error(*run_memory(shared_ws, "ui", "--host", "0.0.0.0", "--token-env", "NOPE_UNSET"))
    assert "NOPE_UNSET" in line
    proc, url = start_ui(shared_ws)
    try:
        port = url.rsplit(":", 1)[1].strip("/")
        code, out, err = run_memory(shared_ws, "ui", "--port", port)
        assert "in use" in assert_one_line_error(code, out, err) or "cannot listen" in err
    finally:
        proc.terminate()
        proc.communicate(timeout=20)
    line = assert_one_line_error(*run_memory(shared_ws.parent / "missing", "ui"))
    assert "no workspace" in line
    (shared_ws / "memory.toml").write_text('[ui]\ntoken = "inline"\n')
    try:
        assert "unknown key" in assert_one_line_error(*run_memory(shared_ws, "ui"))
    finally:
        (shared_ws / "memory.toml").unlink()


def test_opinions_json_carries_the_confidence_each_evidence_left(shared_ws: Path) -> None:
    code, out, err = run_memory(shared_ws, "reflect", "--since", "1y")
    assert code == 0, err
    ops = json.loads(run_memory(shared_ws, "opinions", "--json")[1])
    assert ops and all(isinstance(e["confidence_after"], float) and e["estimated"] is False
                       for op in ops for e in op["evidence"])
