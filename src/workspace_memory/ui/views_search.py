"""The search page: recall with its filters; each result with its source, score and explain trace.

Recall always runs with `explain` on (it costs little): the trace sits in a closed
<details> under each result and opens on demand, without a second query.
"""

from __future__ import annotations

from typing import Any

from ..recall.params import BY_NAME, MODES
from .charts import bar
from .html import Safe, el
from .layout import kind_badge, notices, source_link
from .links import entity_href

MAX_K = 200  # results on one page (recall itself takes up to limits.MAX_K)
DEFAULT_K = str(BY_NAME["k"].default)
KINDS = ("", "world", "experience", "opinion", "observation", "note", "fact")


def search_body(form: dict[str, str], result: dict[str, Any] | None, error: str | None,
                entity_names: list[str]) -> Safe:
    """The form, then the results (or the error that stopped the query)."""
    return el("div", el("h1", "Search"), _form(form, entity_names),
              el("p", error, class_="error", role="alert") if error else None,
              _results(result) if result is not None else None)


def _field(label: str, control: Safe, hint: str | None = None) -> Safe:
    return el("div", el("label", label, for_=f"f-{label.lower()}"), control,
              el("small", hint) if hint else None, class_="field")


def _form(form: dict[str, str], entity_names: list[str]) -> Safe:
    mode = form.get("mode") or "auto"
    kind = form.get("kind") or ""
    return el(
        "form",
        el("div", el("label", "Query", for_="f-query", class_="visually-hidden"),
           el("input", id="f-query", type="search", name="q", value=form.get("q", ""), autofocus=True,
              placeholder="where does Peter live? last week? @warelay crash", autocomplete="off"),
           el("button", "Search", type="submit"), class_="query-row"),
        el("div",
           _field("Mode", el("select", [el("option", m, value=m, selected=m == mode) for m in MODES],
                             id="f-mode", name="mode")),
           _field("K", el("input", id="f-k", name="k", type="number", min=BY_NAME["k"].low, max=MAX_K,
                                     value=form.get("k") or DEFAULT_K)),
           _field("Since", el("input", id="f-since", name="since", value=form.get("since", ""),
                              placeholder="30d, 2w, 2025-11-01")),
           _field("Entity", el("input", id="f-entity", name="entity", value=form.get("entity", ""),
                               list="entity-names", placeholder="@Peter", autocomplete="off")),
           _field("Kind", el("select", [el("option", k or "any", value=k, selected=k == kind) for k in KINDS],
                             id="f-kind", name="kind")),
           class_="filters"),
        el("datalist", [el("option", value=n) for n in entity_names], id="entity-names"),
        action="/search", method="get", role="search", class_="card search-form",
    )


def _results(result: dict[str, Any]) -> Safe:
    rows = result.get("results", [])
    bm25_max = max((r.get("explain", {}).get("channels", {}).get("bm25", 0.0) for r in rows), default=0.0)
    head = el("p", f"{len(rows)} result{'' if len(rows) == 1 else 's'} · mode {result.get('mode')}", class_="lead")
    if not rows:
        return el("section", head, notices(result.get("notices", [])), el("p", "Nothing found.", class_="empty"),
                  aria_label="Results")
    return el("section", head, notices(result.get("notices", [])),
              el("ol", [_result(r, n, bm25_max) for n, r in enumerate(rows, 1)], class_="results"),
              aria_label="Results")


def _result(r: dict[str, Any], rank: int, bm25_max: float) -> Safe:
    meta = [kind_badge(r["kind"]),
            el("span", f"{r['score']:.3f}", bar(r["score"], label=f"score {r['score']:.3f}"), class_="score"),
            el("time", r["timestamp"], datetime=r["timestamp"]) if r.get("timestamp") else None]
    if r.get("confidence") is not None:
        meta.append(el("span", f"c={r['confidence']:.2f}", class_="conf"))
    entities = el("span", [el("a", f"@{name}", href=entity_href(name), class_="chip") for name in r["entities"]],
                  class_="chips") if r.get("entities") else None
    return el("li",
              el("div", el("span", f"{rank}.", class_="rank"), meta, entities, class_="result-meta"),
              el("p", r["content"], class_="content"),
              el("p", source_link(r["path"], r["start_line"], r["end_line"]), class_="result-source"),
              _explain(r["explain"], bm25_max) if r.get("explain") else None,
              class_="result card")


def _explain(explain: dict[str, Any], bm25_max: float) -> Safe:
    """found_by as chips; channels and factors as labelled bars (bm25 against the best in the list)."""
    channels = explain.get("channels", {})
    factors = explain.get("factors", {})

    def rows(values: dict[str, float], scale: dict[str, float]) -> Safe:
        return el("table", el("tbody", [
            el("tr", el("th", name, scope="row"), el("td", f"{value:.4g}"),
               el("td", bar(value, scale.get(name, 1.0), label=f"{name} {value:.4g}")))
            for name, value in values.items() if isinstance(value, int | float)]), class_="bars")

    return el("details",
              el("summary", "Explain"),
              el("div", el("h3", "Found by"),
                 el("p", [el("span", pool, class_="chip") for pool in explain.get("found_by", [])], class_="chips"),
                 el("h3", "Channels"), rows(channels, {"bm25": bm25_max or 1.0}),
                 el("h3", "Factors"), rows(factors, {}),
                 class_="explain"),
              class_="explain-box")
