"""Charts as inline SVG, generated on the server: pure functions from numbers to markup.

Nothing is drawn by a script, so the page works without JavaScript and loads nothing;
colours come from the stylesheet's classes, so the charts follow light and dark mode.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from .html import Safe, el


@dataclass(frozen=True)
class ChartPoint:
    """One evidence: the confidence it left, where it came from and which side it was on."""

    day: str | None  # ISO day the fact was written (None: undated, drawn after the previous point)
    value: float  # confidence after this evidence, 0..1
    href: str  # where the fact opens
    label: str  # tooltip and accessible name
    supporting: bool = True
    estimated: bool = False  # replayed from the update rule, not recorded by reflect


@dataclass(frozen=True)
class ChartEvent:
    """A change that is not evidence: a statement replaced or edited, a confidence set by hand."""

    day: str
    label: str
    value: float | None = None  # the confidence it set, when it set one


WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 14, 30
MIN_GAP = 16  # points on the same or close days stay apart enough to click
PAD = 14  # the first and last point keep clear of the axis labels


def _day(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def point_xs(days: list[date | None], left: float = LEFT + PAD, right: float = WIDTH - RIGHT - PAD) -> list[float]:
    """x of each point: proportional to its day, at least MIN_GAP apart, within [left, right].

    An undated point takes the day of the point before it; with no day at all the points
    are spread evenly.
    """
    known: list[date | None] = []
    last = None
    for d in days:
        last = d or last
        known.append(last)
    first = next((d for d in known if d is not None), None)
    if first is None:
        known = [None] * len(days)
    span = max(((known[-1] or first) - first).days if first else 0, 1) if days else 1
    xs: list[float] = []
    for i, d in enumerate(known):
        raw = left + (right - left) * ((d or first) - first).days / span if first else left + i * MIN_GAP
        xs.append(raw if not xs else max(raw, xs[-1] + MIN_GAP))
    if xs and xs[-1] > right and xs[-1] > left:
        scale = (right - left) / (xs[-1] - left)
        xs = [left + (x - left) * scale for x in xs]
    if len(xs) == 1:
        xs = [(left + right) / 2]
    return xs


def _y(value: float) -> float:
    return TOP + (1.0 - min(1.0, max(0.0, value))) * (HEIGHT - TOP - BOTTOM)


def confidence_chart(points: list[ChartPoint], events: list[ChartEvent], title: str) -> Safe:
    """A line chart of confidence over time: one linked point per evidence, events as markers."""
    xs = point_xs([_day(p.day) for p in points])
    parts: list[Safe] = [el("title", title)]
    for value in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = round(_y(value), 1)
        parts.append(el("line", x1=LEFT, x2=WIDTH - RIGHT, y1=y, y2=y, class_="grid"))
        if value in (0.0, 0.5, 1.0):
            parts.append(el("text", f"{value:g}", x=LEFT - 8, y=y + 4, class_="axis", text_anchor="end"))
    dated = [(x, p.day) for x, p in zip(xs, points, strict=True) if p.day]
    if dated:
        parts.append(el("text", dated[0][1], x=dated[0][0], y=HEIGHT - 8, class_="axis",
                        text_anchor="start" if len(dated) > 1 else "middle"))
        if len(dated) > 1 and dated[-1][1] != dated[0][1]:
            parts.append(el("text", dated[-1][1], x=dated[-1][0], y=HEIGHT - 8, class_="axis", text_anchor="end"))
    parts += _event_marks(events, points, xs)
    if len(points) > 1:
        coords = " ".join(f"{x:.1f},{_y(p.value):.1f}" for x, p in zip(xs, points, strict=True))
        parts.append(el("polyline", points=coords, class_="trend"))
    for x, p in zip(xs, points, strict=True):
        kind = "pt " + ("pt-support" if p.supporting else "pt-contra") + (" pt-estimated" if p.estimated else "")
        parts.append(el("a", el("circle", el("title", p.label), cx=f"{x:.1f}", cy=f"{_y(p.value):.1f}", r=7,
                                class_=kind), href=p.href, aria_label=p.label))
    return el("svg", parts, viewBox=f"0 0 {WIDTH} {HEIGHT}", class_="chart", role="img",
              aria_label=title, xmlns="http://www.w3.org/2000/svg")


def _event_x(day: date, points: list[ChartPoint], xs: list[float]) -> float:
    """Where an event's day falls between the points (interpolated by day)."""
    dated = [(d, x) for p, x in zip(points, xs, strict=True) if (d := _day(p.day)) is not None]
    before = [(d, x) for d, x in dated if d <= day]
    after = [(d, x) for d, x in dated if d > day]
    if before and after:
        (d0, x0), (d1, x1) = before[-1], after[0]
        return x0 + (x1 - x0) * (day - d0).days / max((d1 - d0).days, 1)
    if before:
        same_day = before[-1][0] == day  # e.g. the contradiction that replaced the statement
        return before[-1][1] if same_day else min(before[-1][1] + MIN_GAP / 2, WIDTH - RIGHT)
    if after:
        return max(after[0][1] - MIN_GAP / 2, LEFT)
    return (LEFT + WIDTH - RIGHT) / 2


def _event_marks(events: list[ChartEvent], points: list[ChartPoint], xs: list[float]) -> list[Safe]:
    """A dashed vertical line per event at its day; a square where a hand-set confidence put it."""
    out = []
    for event in events:
        day = _day(event.day)
        x = _event_x(day, points, xs) if day else (xs[-1] if xs else (LEFT + WIDTH - RIGHT) / 2)
        mark = [el("title", f"{event.day}: {event.label}"),
                el("line", x1=f"{x:.1f}", x2=f"{x:.1f}", y1=TOP, y2=HEIGHT - BOTTOM, class_="event")]
        if event.value is not None:
            mark.append(el("rect", x=f"{x - 5:.1f}", y=f"{_y(event.value) - 5:.1f}", width=10, height=10,
                           class_="event-set"))
        out.append(el("g", mark, class_="event-mark"))
    return out


def bar(value: float, max_value: float = 1.0, *, width: int = 120, height: int = 10, label: str = "") -> Safe:
    """A small horizontal bar for a value in [0, max_value] (explain factors, scores, confidence)."""
    share = 0.0 if max_value <= 0 else min(1.0, max(0.0, value / max_value))
    return el("svg", el("title", label) if label else None,
              el("rect", x=0, y=0, width=width, height=height, rx=2, class_="bar-bg"),
              el("rect", x=0, y=0, width=f"{width * share:.1f}", height=height, rx=2, class_="bar-fg"),
              viewBox=f"0 0 {width} {height}", width=width, height=height, class_="bar", role="img",
              aria_label=label or f"{value:g}", xmlns="http://www.w3.org/2000/svg")


def day_bars(notes: int, facts: int, max_notes: int, max_facts: int) -> Safe:
    """Two small columns for a day in the timeline: note entries and facts, scaled to the busiest day."""
    h = 22

    def column(x: int, value: int, top: int, cls: str) -> Safe:
        size = 0 if top <= 0 or value <= 0 else max(2, round(h * value / top))
        return el("rect", x=x, y=h - size, width=7, height=size, rx=1, class_=cls)

    return el("svg", column(1, notes, max_notes, "col-notes"), column(10, facts, max_facts, "col-facts"),
              viewBox=f"0 0 18 {h}", width=18, height=h, class_="day-bars", aria_hidden="true",
              xmlns="http://www.w3.org/2000/svg")
