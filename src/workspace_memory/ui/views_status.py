"""The status page: counts, search modes, warnings with path:line, and `doctor` findings."""

from __future__ import annotations

from typing import Any

from .html import Safe, el
from .layout import kind_badge, notices, source_link

NO_DOCTOR = "doctor not available in this version (memory doctor comes with a later release)"


def status_body(status: dict[str, Any], doctor: list[dict[str, Any]] | None, doctor_note: str | None) -> Safe:
    """`memory status` as cards and tables; doctor's findings when the library has `doctor`."""
    numbers = [("files", status["files"]), ("chunks", status["chunks"]), ("facts", status["facts"]),
               ("entities", status["entities"]), ("warnings", len(status["warnings"]))]
    cards = el("dl", [el("div", el("dt", name), el("dd", f"{value:,}"), class_="stat") for name, value in numbers],
               class_="stats")
    kinds = el("p", [el("span", kind_badge(k), f" {n:,}", class_="kind-count")
                     for k, n in status["facts_by_kind"].items()], class_="kinds") if status["facts_by_kind"] else None
    age = status.get("index_age_seconds")
    facts = el("table", el("tbody",
                           _row("Workspace", el("code", status["workspace"])),
                           _row("Index", el("code", status["index"])),
                           _row("Search modes", ", ".join(status["modes"])),
                           _row("Last sync", f"{status.get('last_sync') or 'never'}"
                                + (f" ({age:.0f} s ago)" if isinstance(age, int | float) else ""))),
               class_="kv")
    return el("div", el("h1", "Status"), cards, kinds, notices(status.get("notices", [])),
              el("section", el("h2", "Index"), el("div", facts, class_="table-wrap"), aria_label="Index"),
              el("section", el("h2", f"Warnings ({len(status['warnings'])})"), _warnings(status["warnings"]),
                 aria_label="Warnings"),
              el("section", el("h2", "Doctor"), _doctor(doctor, doctor_note), aria_label="Doctor"))


def _row(name: str, value: object) -> Safe:
    return el("tr", el("th", name, scope="row"), el("td", value))


def _warnings(warnings: list[dict[str, Any]]) -> Safe:
    if not warnings:
        return el("p", "No warnings.", class_="empty")
    return el("ul", [el("li", source_link(w["path"], w["line"]), " ", el("span", w["message"]))
                     for w in warnings], class_="warnings")


def _doctor(findings: list[dict[str, Any]] | None, note: str | None) -> Safe:
    if findings is None:
        return el("p", note or NO_DOCTOR, class_="empty")
    if not findings:
        return el("p", "doctor found nothing to fix.", class_="empty")
    items = []
    for f in findings:
        path, line = f.get("path"), f.get("line")
        where = source_link(path, line if isinstance(line, int) else None) if isinstance(path, str) else None
        level = f.get("code")  # doctor.Finding: code, what, path, line, how
        text = f.get("what") or ""
        fix = f.get("how")
        items.append(el("li", el("span", str(level), class_="chip") if level else None, " ", where, " ",
                        el("span", str(text)), el("small", f" fix: {fix}") if fix else None))
    return el("ul", items, class_="warnings")


def doctor_findings(report: object) -> list[dict[str, Any]]:
    """Findings from whatever `Memory.doctor()` returns: a list, or an object/dict holding `findings`."""
    if hasattr(report, "to_dict"):
        report = report.to_dict()
    if isinstance(report, dict):
        report = report.get("findings", [])
    out = []
    for item in report or []:
        if hasattr(item, "to_dict"):
            item = item.to_dict()
        elif hasattr(item, "__dataclass_fields__"):
            item = {k: getattr(item, k) for k in item.__dataclass_fields__}
        out.append(item if isinstance(item, dict) else {"message": str(item)})
    return out
