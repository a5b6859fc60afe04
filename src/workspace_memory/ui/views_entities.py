"""Entities and opinions: who memory knows about, what it believes, and how belief moved."""

from __future__ import annotations

from typing import Any

from .charts import ChartEvent, ChartPoint, bar, confidence_chart
from .html import Safe, el
from .layout import kind_badge, source_link
from .links import entity_href, opinion_anchor, source_href
from .markdown_view import render_markdown


def entities_body(entities: list[dict[str, Any]]) -> Safe:
    """Every entity with its fact count, most facts first."""
    top = max((e["facts"] for e in entities), default=0)
    items = [el("li",
                el("a", e["name"] or e["slug"], href=entity_href(e["slug"]), class_="entity-name"),
                el("span", ", ".join(e["aliases"]), class_="aliases") if e["aliases"] else None,
                el("span", str(e["facts"]), bar(e["facts"], top, width=80, label=f"{e['facts']} facts"),
                   class_="count"),
                class_="entity-row")
             for e in entities]
    return el("div", el("h1", "Entities"),
              el("p", f"{len(entities)} entities; @Slug in a Retain fact creates one.", class_="lead"),
              el("ul", items, class_="entity-list") if items else el("p", "No entities yet.", class_="empty"))


def entity_body(report: dict[str, Any], opinions: list[dict[str, Any]]) -> Safe:
    """An entity: its facts (superseded ones struck through), its opinions, its page rendered."""
    aliases = report.get("aliases") or []
    head = el("div", el("h1", report["entity"]),
              el("p", f"@{report['slug']}", f" · also {', '.join(aliases)}" if aliases else "",
                 f" · {report['fact_count']} facts", class_="lead"))
    facts = el("section", el("h2", "Facts"), _fact_list(report["facts"]) if report["facts"]
               else el("p", "No facts.", class_="empty"), aria_label="Facts")
    stated = el("section", el("h2", "Opinions as stated"), _fact_list(report["opinions"]),
                aria_label="Opinions as stated") if report["opinions"] else None
    beliefs = el("section", el("h2", "Opinions"), el("ul", [_opinion_row(op) for op in opinions], class_="plain"),
                 aria_label="Opinions") if opinions else None
    page = report.get("page")
    page_html = el("section", el("h2", "Page ", source_link(page["path"]), class_="doc-path"),
                   el("div", render_markdown(page["text"], page["path"], first_line=page["start_line"]),
                      class_="card doc"),
                   aria_label="Entity page") if page else None
    return el("div", head, beliefs, facts, stated, page_html)


def _fact_list(facts: list[dict[str, Any]]) -> Safe:
    rows = []
    for f in facts:
        text: Any = f["content"]
        replaced = f.get("superseded_by")
        if f.get("invalid_at"):
            replaced = replaced or True
            why = f": {f['invalid_reason']}" if f.get("invalid_reason") else ""
            text = el("span", el("s", f["content"]), f" (invalid since {f['invalid_at']}{why})")
        elif replaced:
            text = el("span", el("s", f["content"]), " (superseded by ",
                      source_link(*_split_source(replaced)) if isinstance(replaced, str) else str(replaced), ")")
        conf = el("span", f"c={f['confidence']:.2f}", class_="conf") if f.get("confidence") is not None else None
        rows.append(el("li", kind_badge(f["kind"]), " ", el("span", text, class_="fact-text"), " ", conf,
                       el("span", f["timestamp"] or "undated", " · ", source_link(f["path"], f["line"]),
                          class_="meta"),
                       class_="fact-row superseded" if replaced else "fact-row"))
    return el("ul", rows, class_="facts")


def _split_source(source: str) -> tuple[str, int | None]:
    path, _, line = source.partition("#L")
    return path, int(line) if line.isdigit() else None


def _opinion_row(op: dict[str, Any]) -> Safe:
    conf = op.get("confidence")
    return el("li", el("a", op["statement"], href=f"/opinions#{opinion_anchor(op['key'])}"), " ",
              el("span", f"{conf:.2f}", bar(conf, label=f"confidence {conf:.2f}"), class_="score")
              if conf is not None else None)


def opinions_body(opinions: list[dict[str, Any]], entity: str | None) -> Safe:
    """Each opinion with its confidence over time: one point per evidence, linked to its fact."""
    title = f"Opinions about {entity}" if entity else "Opinions"
    lead = ("Confidence moves with evidence (memory reflect). Each point is a fact; follow it to "
            "where it was written. Hollow points are estimated from the update rule.")
    cards = [_opinion_card(op) for op in opinions]
    # Filtered by an entity, an empty list says nothing about reflect (others may have opinions).
    empty = f"No opinions about {entity}." if entity else "No opinions yet: O facts become opinions when memory reflect runs."
    return el("div", el("h1", title), el("p", lead, class_="lead"), cards or el("p", empty, class_="empty"))


def _opinion_card(op: dict[str, Any]) -> Safe:
    conf = op.get("confidence")
    points = [ChartPoint(ev.get("day"), ev["confidence_after"], source_href(ev["path"], ev["line"]),
                         _point_label(ev), ev["role"] == "supporting", bool(ev.get("estimated")))
              for ev in op["evidence"]]
    events = [ChartEvent(h["day"], _event_label(h), h.get("value")) for h in op["history"] if h["event"] != "formed"]
    chart = confidence_chart(points, events, f"Confidence of “{op['statement']}” over time") if points \
        else el("p", "No evidence recorded.", class_="empty")
    entities = [el("a", f"@{name}", href=entity_href(name), class_="chip") for name in op["entities"]]
    return el("article",
              el("h2", op["statement"]),
              el("p", el("span", entities, class_="chips"),
                 el("span", "confidence ", f"{conf:.2f}" if conf is not None else "?",
                    bar(conf, label=f"confidence {conf:.2f}") if conf is not None else None, class_="score"),
                 el("span", f"updated {op.get('last_updated') or '?'}", class_="meta"),
                 source_link(*_split_source(op["source"])), class_="opinion-meta"),
              el("figure", chart, el("figcaption", f"{len(points)} evidence"), class_="chart-box"),
              _evidence_table(op["evidence"]),
              _history(op["history"]),
              id=opinion_anchor(op["key"]), class_="card opinion", tabindex="-1")


def _point_label(ev: dict[str, Any]) -> str:
    estimated = " (estimated)" if ev.get("estimated") else ""
    return (f"{ev.get('day') or 'undated'}: {ev['role']} {ev['kind']} fact {ev['source']}; "
            f"confidence {ev['confidence_after']:.2f}{estimated}")


def _event_label(h: dict[str, Any]) -> str:
    if h["event"] == "set":
        value = h.get("value")
        return f"confidence set by hand to {value:.2f}" if isinstance(value, int | float) else "confidence set by hand"
    if h["event"] == "replaced":
        return f"statement replaced; was “{h['statement']}”"
    if h["event"] == "edited":
        return f"statement edited by hand; was “{h['statement']}”"
    return h["event"]


def _evidence_table(evidence: list[dict[str, Any]]) -> Safe:
    rows = [el("tr", el("td", ev.get("day") or "undated"), el("td", ev["role"]), el("td", ev["kind"]),
               el("td", f"{ev['confidence_after']:.2f}" + (" (est.)" if ev.get("estimated") else "")),
               el("td", source_link(ev["path"], ev["line"])))
            for ev in evidence]
    head = el("tr", [el("th", h, scope="col") for h in ("Day", "Side", "Kind", "Confidence after", "Fact")])
    return el("details", el("summary", f"Evidence ({len(evidence)})"),
              el("div", el("table", el("thead", head), el("tbody", rows)), class_="table-wrap"))


def _history(history: list[dict[str, Any]]) -> Safe | None:
    if not history:
        return None
    items = [el("li", el("time", h["day"]), " ", "formed at " + f"{h['confidence']:.2f}"
                if h["event"] == "formed" else _event_label(h)) for h in history]
    return el("details", el("summary", f"History ({len(history)})"), el("ul", items, class_="plain"))
