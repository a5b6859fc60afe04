"""`memory ui` in a real browser: Debian's chromium driven headless by Playwright.

The server is the real command (`memory ui --port 0`) over a real, indexed and reflected
workspace. The tests load every page at 1280 and 390 px, search and follow a result to its
day, count the opinion chart's points against `memory opinions --json`, use the keyboard,
retain a fact through the form, and save a screenshot of every page (under the test's tmp
folder, and under $MEMORY_TEST_ARTIFACTS when it is set; $MEMORY_UI_DOCS=docs/screenshots
refreshes docs/ui.md's screenshots).

They run whenever a chromium is found (`.ci/run` installs Debian's when it is missing); in CI
(`$CI` set) a missing chromium or Playwright is a failure, never a skip. Playwright is pointed
at that executable: `playwright install`, which downloads a browser, is never needed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import NOW, build_workspace, clean_env, line_of, memory_executable, run_ok, write_files

pytestmark = pytest.mark.browser

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PAGES = {"timeline": "/", "day": "/day/2025-11-12", "search": "/search?q=Baileys+crash",
         "entities": "/entities", "entity": "/entity/Peter", "opinions": "/opinions", "status": "/status"}
# An opinion that is formed, reinforced, contradicted twice and replaced (bank/opinions.md keeps it all).
TEA_DAYS = {
    "memory/2025-11-03.md": "O(c=0.8) @Peter: Prefers tea over coffee in the morning.",
    "memory/2025-11-05.md": "O(c=0.9) @Peter: Prefers tea over coffee, asked for tea again.",
    "memory/2025-11-13.md": "O(c=0.8) @Peter: No longer prefers tea over coffee in the morning.",
    "memory/2025-11-19.md": "O(c=0.8) @Peter: Avoids tea in the morning now.",
}


def find_chromium() -> str | None:
    for candidate in (os.environ.get("MEMORY_TEST_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason}: CI must run the browser tests (.ci/run installs Debian's chromium)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    executable = find_chromium()
    if executable is None:
        _unavailable("no chromium found (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (the dev extra)")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = build_workspace(tmp_path_factory.mktemp("browser") / "ws")
    write_files(root, {path: f"# {path[7:17]}\n\n## Notes\n- Talked about breakfast.\n\n## Retain\n- {fact}\n"
                       for path, fact in TEA_DAYS.items()})
    run_ok(root, "index")
    run_ok(root, "reflect", "--since", "1y")
    return root


@pytest.fixture(scope="module")
def base(ws: Path) -> Iterator[str]:
    """The real `memory ui --port 0`, stopped with SIGTERM after the module."""
    proc = subprocess.Popen([memory_executable(), "--workspace", str(ws), "--now", NOW, "ui", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=clean_env())
    match = re.search(r"serving (http://\S+)/", proc.stdout.readline())
    assert match, proc.stderr.read() if proc.poll() is not None else "no URL printed"
    yield match[1]
    proc.terminate()
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0 and "Traceback" not in err, err


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folders = [tmp_path_factory.mktemp("ui-screenshots")]
    if os.environ.get("MEMORY_TEST_ARTIFACTS"):
        folders.append(Path(os.environ["MEMORY_TEST_ARTIFACTS"]) / "ui-screenshots")
        folders[-1].mkdir(parents=True, exist_ok=True)
    return folders


def screenshot(page, folders: list[Path], name: str) -> None:
    """The whole page into each artifacts folder; with $MEMORY_UI_DOCS, also the first screen for docs/."""
    data = page.screenshot(full_page=True)
    for folder in folders:
        (folder / f"{name}.png").write_bytes(data)
    if os.environ.get("MEMORY_UI_DOCS"):
        Path(os.environ["MEMORY_UI_DOCS"]).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(os.environ["MEMORY_UI_DOCS"]) / f"{name}.png"))


def open_page(browser, base: str, width: int = 1280, scheme: str = "light"):
    """A new page that records every request it makes and every console error."""
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.requests, page.errors = [], []
    page.on("request", lambda r: page.requests.append(r.url))
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


@pytest.mark.parametrize("width", [1280, 390])
def test_every_page_loads_offline_and_fits_the_width(browser, base: str, artifacts: list[Path], width: int) -> None:
    page = open_page(browser, base, width)
    for name, path in PAGES.items():
        response = page.goto(base + path)
        assert response.status == 200, (path, response.status)
        assert page.locator("main h1").first.is_visible()
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{path} is {overflow}px wider than {width}px"
        screenshot(page, artifacts, f"{name}-{width}")
    assert all(urlsplit(url).netloc == urlsplit(base).netloc for url in page.requests), page.requests
    assert page.errors == []
    page.context.close()


def test_dark_mode_follows_the_system(browser, base: str, artifacts: list[Path]) -> None:
    colours = {}
    for scheme in ("light", "dark"):
        page = open_page(browser, base, scheme=scheme)
        page.goto(base + "/opinions")
        colours[scheme] = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        screenshot(page, artifacts, f"opinions-1280-{scheme}")
        page.context.close()
    assert colours["light"] != colours["dark"]


def test_a_search_finds_the_source_and_its_link_opens_the_day(browser, base: str, ws: Path,
                                                              artifacts: list[Path]) -> None:
    line = line_of(ws, "memory/2025-11-12.md", "Baileys WS crash")
    page = open_page(browser, base)
    page.goto(base + "/search")
    page.fill("#f-query", "Baileys crash")
    page.select_option("#f-mode", "lexical")
    page.press("#f-query", "Enter")
    page.wait_for_url(re.compile(r"/search\?q=Baileys"))
    sources = page.locator(".result .source").all_inner_texts()
    assert f"memory/2025-11-12.md#L{line}" in sources
    first = page.locator(".result").first
    first.locator("summary").click()  # the explain trace, on demand
    assert first.locator(".explain svg.bar").count() >= 3 and first.locator(".explain .chip").count() >= 1
    screenshot(page, artifacts, "search-explain-1280")
    page.locator(".result .source", has_text=f"memory/2025-11-12.md#L{line}").click()
    page.wait_for_url(re.compile(r"/day/2025-11-12"))
    target = page.locator(":target")
    assert target.count() == 1 and "Baileys WS crash" in target.inner_text()
    assert "focus" in target.get_attribute("class") and "k-experience" in target.get_attribute("class")
    screenshot(page, artifacts, "day-from-search-1280")
    page.context.close()


def test_the_opinion_chart_has_one_point_per_evidence(browser, base: str, ws: Path) -> None:
    opinions = json.loads(run_ok(ws, "opinions", "--json"))
    assert sum(len(op["evidence"]) for op in opinions) >= 6
    page = open_page(browser, base)
    page.goto(base + "/opinions")
    for op in opinions:
        card = page.locator(f"article.opinion:has(h2:text-is({json.dumps(op['statement'])}))")
        assert card.count() == 1, op["statement"]
        links = card.locator("svg.chart a")
        assert links.count() == len(op["evidence"]) == card.locator("svg.chart circle.pt").count()
        for n, ev in enumerate(op["evidence"]):
            href = links.nth(n).get_attribute("href")
            assert href.startswith(f"/day/{ev['day']}?") and f"line={ev['line']}" in href, (href, ev)
    tea = page.locator("article.opinion:has(h2:text-is('Peter: Avoids tea in the morning now.'))")
    assert tea.locator("circle.pt-contra").count() >= 1 and tea.locator(".event-mark").count() == 1  # replaced
    tea.locator("svg.chart a").first.click()
    page.wait_for_url(re.compile(r"/day/2025-11-03"))
    assert "Prefers tea over coffee in the morning" in page.locator(":target").inner_text()
    page.context.close()


def test_the_pages_are_keyboard_navigable(browser, base: str) -> None:
    page = open_page(browser, base)
    page.goto(base + "/")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    page.goto(base + "/")
    labels = []
    for _ in range(8):
        page.keyboard.press("Tab")
        labels.append(page.evaluate("document.activeElement.textContent || document.activeElement.name"))
    assert {"Timeline", "Search", "Entities", "Opinions", "Status"} <= set(labels)
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"  # the focused control shows where the keyboard is
    page.goto(base + "/opinions")
    for _ in range(40):  # the chart's points are reachable with Tab, each a link to its fact
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('svg.chart') !== null"):
            break
    else:
        raise AssertionError("no chart point is reachable with Tab")
    page.context.close()


def test_retain_through_the_form_lands_in_the_day_log(browser, base: str, ws: Path, artifacts: list[Path]) -> None:
    page = open_page(browser, base, width=390)
    page.goto(base + "/")
    page.fill("#retain-bullet", "W @The-Castle: The roofer fixed the east wing on Dec 1.")
    page.fill("#retain-day", "2025-12-01")
    page.click("form.retain button")
    page.wait_for_url(re.compile(r"/day/2025-12-01\?line=4"))
    assert (ws / "memory/2025-12-01.md").read_text() == (
        "# 2025-12-01\n\n## Retain\n- W @The-Castle: The roofer fixed the east wing on Dec 1.\n")
    assert "k-world" in page.locator(":target").get_attribute("class")
    assert "Retained at memory/2025-12-01.md#L4" in page.locator(".notice").inner_text()
    screenshot(page, artifacts, "day-retained-390")
    page.context.close()
