"""Timeline, day and file pages: what was written when, rendered as Markdown."""

from __future__ import annotations

import calendar
from datetime import date
from typing import Any

from .charts import day_bars
from .html import Safe, el
from .layout import notices, retain_form
from .links import file_href, media_href, source_href
from .markdown_view import render_markdown


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _long_day(d: date) -> str:
    return f"{calendar.day_name[d.weekday()]}, {d.day} {calendar.month_name[d.month]} {d.year}"


def timeline_body(days: list[dict[str, Any]], year: int | None, today: date, csrf: str) -> Safe:
    """A strip of days per month of one year: each day links to its view, with its counts drawn."""
    years = sorted({int(d["day"][:4]) for d in days}, reverse=True)
    year = year if year in years else (years[0] if years else today.year)
    shown = [d for d in days if d["day"].startswith(f"{year}-")]
    by_day = {d["day"]: d for d in shown}
    max_notes = max((d["notes"] for d in shown), default=0)
    max_facts = max((d["facts"] for d in shown), default=0)
    months = sorted({int(d["day"][5:7]) for d in shown}, reverse=True)
    summary = (f"{_plural(len(days), 'day')} with a daily log, {days[0]['day']} to {days[-1]['day']}."
               if days else "No daily logs yet: retain a fact or write memory/YYYY-MM-DD.md.")
    year_nav = el("nav", [el("a", str(y), href=f"/?year={y}", aria_current="page" if y == year else None)
                          for y in years], class_="years", aria_label="Years") if len(years) > 1 else None
    legend = el("p", el("span", "■", class_="c-notes", aria_hidden="true"), " note entries ",
                el("span", "■", class_="c-facts", aria_hidden="true"), " Retain facts", class_="legend")
    sections = [_month(year, m, by_day, max_notes, max_facts) for m in months]
    return el("div",
              el("h1", "Timeline"), el("p", summary, class_="lead"), year_nav,
              legend if shown else None, sections,
              retain_form(csrf, today.isoformat()))


def _month(year: int, month: int, by_day: dict[str, dict[str, Any]], max_notes: int, max_facts: int) -> Safe:
    cells = []
    for day_no in range(1, calendar.monthrange(year, month)[1] + 1):
        iso = date(year, month, day_no).isoformat()
        info = by_day.get(iso)
        if info is None:
            cells.append(el("li", el("span", str(day_no), class_="dnum"), class_="day empty", aria_hidden="true"))
            continue
        label = f"{_long_day(date(year, month, day_no))}: {_plural(info['notes'], 'note')}, " \
                f"{_plural(info['facts'], 'fact')}"
        cells.append(el("li", el(
            "a", el("span", str(day_no), class_="dnum"),
            day_bars(info["notes"], info["facts"], max_notes, max_facts),
            el("span", el("span", str(info["notes"]), class_="c-notes"), " ",
               el("span", str(info["facts"]), class_="c-facts"), class_="counts"),
            href=f"/day/{iso}", aria_label=label, title=label), class_="day"))
    title = f"{calendar.month_name[month]} {year}"
    return el("section", el("h2", title), el("ol", cells, class_="days", aria_label=title), class_="month")


def day_body(day: date, info: dict[str, Any] | None, files: list[tuple[str, Any]], neighbours: tuple,
             focus: tuple[str, int] | None, csrf: str, retained: str | None) -> Safe:
    """One day: its logs rendered, Retain facts marked by kind, a link to the days around it."""
    before, after = neighbours
    nav = el("nav",
             el("a", f"← {before}", href=f"/day/{before}", rel="prev") if before else el("span"),
             el("a", "Timeline", href=f"/?year={day.year}"),
             el("a", f"{after} →", href=f"/day/{after}", rel="next") if after else el("span"),
             class_="pager", aria_label="Days")
    counts = None
    if info is not None:
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(info["facts_by_kind"].items()))
        counts = el("p", f"{_plural(info['notes'], 'note entry', 'note entries')}, {_plural(info['facts'], 'fact')}"
                    + (f" ({kinds})" if kinds else ""), class_="lead")
    docs = [_document(path, pg, day, focus) for path, pg in files]
    nothing = el("p", "Nothing was written on this day.", class_="empty") if info is None else None
    return el("div", nav, el("h1", _long_day(day)), counts, nothing,
              notices([retained] if retained else []), docs,
              retain_form(csrf, day.isoformat()))


def _document(path: str, pg: Any, day: date | None, focus: tuple[str, int] | None) -> Safe:
    line = focus[1] if focus and focus[0] == path else None
    more = None
    if pg.next_from is not None:
        more = el("p", el("a", f"Continue from line {pg.next_from}", href=file_href(path, pg.next_from)),
                  class_="more")
    text = render_markdown(pg.text, path, day=day, first_line=pg.start_line, focus=line)
    derived = getattr(pg, "derived", None)
    if derived:  # a media file: the picture (or player, or link) beside the text derived from it
        text = el("div", _media_view(path), el("div", el("p", derived, class_="meta"), text), class_="media-doc")
    return el("article",
              el("header", el("h2", el("a", path, href=source_href(path)), class_="doc-path"),
                 el("p", f"lines {pg.start_line}-{pg.end_line} of {pg.total_lines}", class_="meta")),
              text, more, class_="card doc")


_SHOWN = (".jpg", ".jpeg", ".png", ".gif", ".webp")
_PLAYED = (".mp3", ".wav", ".ogg", ".opus", ".m4a", ".aac", ".flac")


def _media_view(path: str) -> Safe:
    lower = path.lower()
    if lower.endswith(_SHOWN):
        return el("figure", el("img", src=media_href(path), alt=f"the image {path}", loading="lazy"), class_="media")
    if lower.endswith(_PLAYED):
        return el("figure", el("audio", controls="controls", src=media_href(path), preload="none"), class_="media")
    return el("figure", el("a", "open the file", href=media_href(path)), class_="media")


def file_body(path: str, pg: Any, day: date | None, focus: int | None) -> Safe:
    """Any workspace Markdown file (MEMORY.md, a bank page, a note), rendered."""
    return el("div", el("h1", path, class_="path-title"), _document(path, pg, day, (path, focus) if focus else None))
