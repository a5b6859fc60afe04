"""The page shell and the small widgets every page shares (kind badges, source links, notices)."""

from __future__ import annotations

from collections.abc import Iterable

from ..workspace.transcripts import SESSIONS_PREFIX
from .html import Safe, el, join
from .links import source_href

NAV = (("/", "Timeline", "timeline"), ("/search", "Search", "search"), ("/entities", "Entities", "entities"),
       ("/opinions", "Opinions", "opinions"), ("/status", "Status", "status"))
KIND_LETTER = {"world": "W", "experience": "B", "opinion": "O", "observation": "S", "note": "N", "session": "T"}


def page(title: str, body: object, *, section: str, footer: str = "") -> str:
    """A whole HTML document: skip link, navigation, a quick search box, main content."""
    nav = el("nav", [el("a", label, href=href, aria_current="page" if key == section else None)
                     for href, label, key in NAV], aria_label="Pages")
    search = el("form", el("input", type="search", name="q", placeholder="Search memory",
                           aria_label="Search memory"), action="/search", method="get", role="search",
                class_="quick-search")
    head = join(Safe('<meta charset="utf-8">'),
                el("meta", name="viewport", content="width=device-width, initial-scale=1"),
                el("meta", name="color-scheme", content="light dark"),
                el("title", f"{title} · memory"),
                el("link", rel="icon", href="/static/favicon.svg", type="image/svg+xml"),
                el("link", rel="stylesheet", href="/static/style.css"))
    body_html = join(
        el("a", "Skip to content", href="#main", class_="skip"),
        el("header", el("a", "memory", href="/", class_="brand"), nav,
           search if section != "search" else None, class_="top"),
        el("main", body, id="main", tabindex="-1"),
        el("footer", footer) if footer else None,
    )
    return "<!doctype html>\n" + el("html", el("head", head), el("body", body_html), lang="en")


def kind_badge(kind: str, title: str | None = None) -> Safe:
    """A coloured letter plus the kind's name (the word hides on narrow screens)."""
    return el("span", KIND_LETTER.get(kind, "?"), el("span", f" {kind}", class_="badge-word"),
              class_=f"badge k-{kind}", title=title or kind)


def source_link(path: str, start: int | None = None, end: int | None = None) -> Safe:
    """`path#Lstart` (or `#Lstart-Lend`) as a link to where it opens in the UI."""
    label = path if start is None else f"{path}#L{start}" + (f"-L{end}" if end and end != start else "")
    if path.startswith(SESSIONS_PREFIX):  # a session transcript: cited, never opened (not workspace Markdown)
        return el("span", label, class_="source")
    return el("a", label, href=source_href(path, start), class_="source")


def notices(items: Iterable[str], cls: str = "notice") -> Safe:
    items = list(items)
    if not items:
        return Safe("")
    return el("ul", [el("li", item) for item in items], class_=cls, role="status")


def retain_form(csrf: str, day: str, bullet: str = "", error: str | None = None) -> Safe:
    """The one write the UI offers: `memory retain`, through the same library call."""
    return el(
        "form",
        el("h2", "Retain a fact", id="retain-title"),
        el("p", el("code", "W"), " world, ", el("code", "B"), " experience, ", el("code", "O(c=0.8)"),
           " opinion, ", el("code", "S"), " observation; ", el("code", "@Name"), " marks an entity.",
           class_="hint"),
        el("p", error, class_="error", role="alert") if error else None,
        el("div",
           el("label", "Fact", for_="retain-bullet"),
           el("input", id="retain-bullet", name="bullet", value=bullet, required=True, autocomplete="off",
              placeholder="O(c=0.8) @Peter: Prefers tea in the afternoon"),
           el("label", "Day", for_="retain-day"),
           el("input", id="retain-day", name="day", type="date", value=day, required=True),
           el("button", "Retain", type="submit"),
           class_="retain-fields"),
        el("input", type="hidden", name="csrf", value=csrf),
        action="/retain", method="post", class_="card retain", aria_labelledby="retain-title",
    )
