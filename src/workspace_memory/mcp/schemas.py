"""The outputSchema of each memory tool: the shape of its `structuredContent`.

Written by hand from the library's result dictionaries (DESIGN §3 for search); kept open
(additional properties allowed) so that a new field is not a breaking change, and every result
may carry `truncated` (limits.cap_result). tests/test_mcp_hostile.py checks real results
against these schemas.
"""

from __future__ import annotations

from typing import Any


def _obj(required: tuple[str, ...] = (), **props: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": {**props, "truncated": _TRUNCATED}}
    if required:
        schema["required"] = list(required)
    return schema


def _t(kind: str | list[str], description: str | None = None) -> dict[str, Any]:
    return {"type": kind, **({"description": description} if description else {})}


def _list(items: dict[str, Any], description: str | None = None) -> dict[str, Any]:
    return {"type": "array", "items": items, **({"description": description} if description else {})}


_TRUNCATED = {"type": "object", "description": "Present when the result was cut to fit the result size limit: "
              "limit_chars, items_left_out (list path -> items dropped from its end), fields_clipped."}
_NOTICES = _list(_t("string"), "Fallbacks and warnings, one line each.")
_STR_OR_NULL = _t(["string", "null"])
_INT_OR_NULL = _t(["integer", "null"])

_RESULT = {"type": "object", "properties": {
    "kind": _t("string", "world | experience | opinion | observation | note | session"),
    "content": _t("string"), "entities": _list(_t("string")), "timestamp": _STR_OR_NULL,
    "confidence": _t(["number", "null"]), "source": _t("string", "path#Lline, to cite and to pass to memory_get"),
    "path": _t("string"), "start_line": _t("integer"), "end_line": _t("integer"),
    "score": _t("number", "0..1")}}

_FACT = {"type": "object", "properties": {
    "kind": _t("string"), "content": _t("string"), "timestamp": _STR_OR_NULL, "confidence": _t(["number", "null"]),
    "source": _t("string"), "path": _t("string"), "line": _t("integer")}}

_PAGE = _obj(("path", "start_line", "end_line", "total_lines", "text", "next_from"),
             path=_t("string"), start_line=_t("integer"), end_line=_t("integer"), total_lines=_t("integer"),
             text=_t("string"), next_from=_t(["integer", "null"], "Where the next page starts; null at the end."),
             cut_line=_INT_OR_NULL, cut_line_chars=_INT_OR_NULL,
             derived=_t(["string", "null"], "For an image, PDF or voice note: the text is derived from the "
                        "file (OCR, PDF text, a transcript), and by what; null for Markdown."))

_EDIT = _obj(("path", "block", "changed"), path=_t("string"), operation=_t("string"), block=_t("string"),
             changed=_t("boolean"), chars_before=_t("integer"), chars_current=_t("integer"),
             chars_limit=_t("integer"), line=_INT_OR_NULL, diff=_t("string"), notices=_NOTICES)

OUTPUT_SCHEMAS: dict[str, dict[str, Any]] = {
    "memory_search": _obj(("query", "mode", "notices", "results"), query=_t("string"),
                          mode=_t("string", "What ran: hybrid, lexical or semantic."), notices=_NOTICES,
                          results=_list(_RESULT, "Best first.")),
    "memory_get": _PAGE,
    "memory_retain": _obj(("path", "line", "duplicate"), path=_t("string"), line=_t("integer"),
                          created_file=_t("boolean"), created_section=_t("boolean"),
                          duplicate=_t("boolean", "The fact was already there; nothing was written.")),
    "memory_entity": _obj(("entity", "slug", "facts", "opinions"), entity=_t("string"), slug=_t("string"),
                          aliases=_list(_t("string")), fact_count=_t("integer"),
                          page={"type": ["object", "string", "null"], "description": "The entity's page (as "
                                "memory_get returns it), or null."},
                          facts=_list(_FACT, "Newest first."), opinions=_list(_FACT)),
    "memory_entities": _obj(("entities",), entities=_list({"type": "object", "properties": {
        "slug": _t("string"), "name": _t("string"), "page": _STR_OR_NULL, "aliases": _list(_t("string")),
        "facts": _t("integer")}})),
    "memory_core_show": _obj(("path", "blocks"), path=_t("string"), exists=_t("boolean"),
                             blocks=_list({"type": "object", "properties": {
                                 "label": _t("string"), "chars_current": _t("integer"),
                                 "chars_limit": _t("integer"), "read_only": _t("boolean"), "line": _t("integer"),
                                 "value": _t("string")}})),
    "memory_core_append": _EDIT,
    "memory_core_replace": _EDIT,
    "memory_core_insert": _EDIT,
    "memory_core_rethink": _EDIT,
    "memory_triggers": _obj(("results",), message=_STR_OR_NULL, threshold=_t("number"), chars=_t("integer"),
                            total=_t("integer", "Without a message: how many trigger entries there are."),
                            results=_list({"type": "object", "properties": {
                                "source": _t("string"), "path": _t("string"), "start_line": _t("integer"),
                                "end_line": _t("integer"), "trigger": _t("string"), "phrases": _list(_t("string")),
                                "score": _t("number"), "text": _t("string")}})),
    "memory_status": _obj(("files", "chunks", "modes"), workspace=_STR_OR_NULL, index=_t("string"),
                          files=_t("integer"), chunks=_t("integer"), facts=_t("integer"), entities=_t("integer"),
                          last_sync=_STR_OR_NULL, index_age_seconds=_t(["number", "null"]),
                          modes=_list(_t("string")), embedding=_STR_OR_NULL, warnings=_list(_t("object")),
                          notices=_NOTICES),
    "memory_reflect": _obj(("dry_run", "changed"), since=_t("string"), first_run=_t("boolean"), facts=_t("integer"),
                           dry_run=_t("boolean"), busy=_t("boolean"), entity_pages=_t("object"), opinions=_t("object"),
                           proposals=_list(_t("object")), applied_core=_t(["integer", "boolean", "array", "null"]),
                           changed=_list(_t("string"), "Files written (or that would be, in a dry run)."),
                           notices=_NOTICES, seconds=_t("number")),
}
