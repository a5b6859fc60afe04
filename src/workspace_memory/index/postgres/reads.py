"""Reads of the Postgres store for recall, reflect and status (the SQL behind index.base.Store).

Every query is scoped to the workspace ids of the store's view (`ws`: one id, or several for a
recall across workspaces). Dates are `date` columns here and ISO text in the rows recall sees.
Paths sort byte-wise (COLLATE "C"), as in SQLite.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from ...facts.model import PROPOSALS_PATH, EntityInfo, Fact, order_mentions
from ...markdown.retain import display_name
from ..base import ChunkRow, Filters
from ..sql_filters import Dialect, filter_sql
from .connection import guarded

if TYPE_CHECKING:
    import psycopg


def iso(value: date | None) -> str | None:
    return value.isoformat() if value is not None else None


def scope(ws: list[int], alias: str = "c") -> tuple[str, list[Any]]:
    """The clause that keeps the workspaces `ws` of `alias`, and its parameters.

    The planner must be able to walk the primary key (workspace_id, id) newest first and stop
    after a LIMIT: `workspace_id = ANY(%s)` alone does not allow it (Postgres 16), so the 50
    newest entries with a common word cost a scan and sort of all of them (20 ms in a workspace
    of 100k entries, 540 ms across 101 workspaces of 1.1M) instead of about 1 ms. So one
    workspace is `= %s`, several also carry their range.
    """
    if len(ws) == 1:
        return f"{alias}.workspace_id = %s", [ws[0]]
    return (f"{alias}.workspace_id BETWEEN %s AND %s AND {alias}.workspace_id = ANY(%s)",
            [min(ws, default=0), max(ws, default=0), ws])


def _one_of(column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
    return f"{column} = ANY(%s)", [list(values)]


# Postgres' SQL for index.sql_filters: `date` columns; every table keyed by workspace first.
DIALECT = Dialect("%s", "::date", _one_of, "(EXISTS (SELECT 1 FROM mentions m WHERE m.workspace_id ="
                  " {alias}.workspace_id AND m.chunk_id = {alias}.id AND {mentions}) OR {alias}.path IN"
                  " (SELECT e.page_path FROM entities e WHERE e.workspace_id = {alias}.workspace_id AND {pages}))",
                  "m.entity_key", "e.key",
                  # The days named are an uncorrelated array (chunk ids are unique across workspaces), so
                  # that each side of the OR keeps its index: chunks_window, and the primary key for `id = ANY(...)`.
                  "{alias}.id = ANY(ARRAY(SELECT d.chunk_id FROM chunk_days d WHERE d.t_start <= {day}"
                  " AND d.t_end >= {day}))")



def named_filter(filters: Filters | None) -> tuple[str, dict[str, Any]]:
    """filter_sql with named placeholders (%(p0)s, %(p1)s, ...), to mix with a query's own named ones."""
    where, params = filter_sql(filters, DIALECT)
    parts = where.split("%s")
    sql = "".join(part + (f"%(p{i})s" if i < len(params) else "") for i, part in enumerate(parts))
    return sql, {f"p{i}": value for i, value in enumerate(params)}


def _and(where: str) -> str:
    return f" AND {where}" if where else ""


class PostgresReads:
    """The reads of a Postgres store (index.base's RecallReads and ReflectReads, and the counts of
    Maintenance), as methods of PostgresStore, over the workspace ids of its view. They use what
    the store defines: `db`, `ids` (the view's workspaces), `own_id()` (its own workspace, for what
    only it holds), `view` and `_names()` (a view's workspace names), `scoped()` (filters without
    clauses that exclude nothing) and `_state()` (what cached reads depend on). Every read turns a
    lost server into StoreUnavailable (`guarded`)."""

    @guarded
    def holds_entries(self, filters: Filters) -> bool:
        conn, ws, filters = self.db.conn, self.ids, self.scoped(filters)
        where, params = filter_sql(filters, DIALECT)
        in_ws, ws_params = scope(ws)
        return conn.execute(f"SELECT 1 FROM chunks c WHERE {in_ws}{_and(where)} LIMIT 1",
                            [*ws_params, *params]).fetchone() is not None

    @guarded
    def entries_in(self, paths: Sequence[str], filters: Filters) -> dict[int, str]:
        conn, ws, filters = self.db.conn, self.ids, self.scoped(filters)
        where, params = filter_sql(filters, DIALECT)
        in_ws, ws_params = scope(ws)
        return dict(conn.execute(f"SELECT c.id, c.path FROM chunks c WHERE {in_ws} AND c.path = ANY(%s){_and(where)}",
                                 [*ws_params, list(paths), *params]).fetchall())

    @guarded
    def rows(self, ids: Sequence[int], filters: Filters | None = None) -> dict[int, ChunkRow]:
        """The rows of these chunks, with their fact's content and confidence and their entities; in
        a view over several workspaces each row also carries its `workspace`."""
        if not ids:
            return {}
        conn, ws, filters = self.db.conn, self.ids, filters and self.scoped(filters)
        names = self._names() if self.view is not None else None
        where, params = filter_sql(filters, DIALECT)
        in_ws, ws_params = scope(ws)
        out: dict[int, ChunkRow] = {}
        for (cid, path, start, end, entry_start, kind, heading, text, role, day, t_start, t_end, invalid_at, content,
             confidence, ws_id, keys, names_, at) in conn.execute(
            "SELECT c.id, c.path, c.start_line, c.end_line, COALESCE(c.entry_start, c.start_line), c.kind, c.heading, c.text, c.role, c.day, c.t_start,"
            " c.t_end, c.invalid_at, f.content, f.confidence, c.workspace_id, m.keys, m.names, c.at FROM chunks c LEFT JOIN facts f"
            " ON f.workspace_id = c.workspace_id AND f.id = c.id LEFT JOIN LATERAL (SELECT"
            " array_agg(m.entity_key ORDER BY m.ord) AS keys, array_agg(COALESCE(e.name, m.slug) ORDER BY m.ord) AS names"
            " FROM mentions m LEFT JOIN entities e ON e.workspace_id = m.workspace_id AND e.key = m.entity_key"
            " WHERE m.workspace_id = c.workspace_id AND m.chunk_id = c.id) m ON true"
            f" WHERE {in_ws} AND c.id = ANY(%s){_and(where)}", [*ws_params, list(ids), *params]):
            row: Any = {"id": cid, "path": path, "start_line": start, "end_line": end, "entry_start": entry_start,
                        "kind": kind,
                        "heading": heading, "text": text, "role": role, "day": iso(day), "t_start": iso(t_start),
                        "t_end": iso(t_end), "at": at, "invalid_at": invalid_at, "fact_content": content,
                        "confidence": confidence, "entity_keys": [], "entity_names": [], "named": []}
            if path.startswith("bank/entities/"):
                row["entity_keys"].append(path.rsplit("/", 1)[-1][:-3].lower())  # on the entity's page
            row["entity_keys"] += keys or []
            row["entity_names"] += names_ or []
            if names is not None:
                row["workspace"] = names.get(ws_id, str(ws_id))
            out[cid] = row
        if out:
            for cid, start, end in conn.execute(
                    f"SELECT d.chunk_id, d.t_start, d.t_end FROM chunk_days d WHERE {scope(ws, 'd')[0]}"
                    " AND d.chunk_id = ANY(%s) ORDER BY d.t_start", [*scope(ws, "d")[1], list(out)]):
                out[cid]["named"].append((iso(start), iso(end)))
        return out

    @guarded
    def superseded(self, ids: Sequence[int]) -> dict[int, int]:
        if not ids:
            return {}
        conn, ws = self.db.conn, self.ids
        in_ws, ws_params = scope(ws, "f")
        return dict(conn.execute(
            f"SELECT f.id, f.superseded_by FROM facts f WHERE {in_ws} AND f.id = ANY(%s)"
            " AND f.superseded_by IS NOT NULL", (*ws_params, list(ids))).fetchall())

    @guarded
    def about_entities(self, keys: Sequence[str], filters: Filters, limit: int,
                       opinions_only: bool = False) -> list[int]:
        """The newest entries about these entities: their facts and mentions, and their pages."""
        conn, ws, filters = self.db.conn, self.ids, self.scoped(filters)
        where, params = named_filter(filters)
        kind = " AND c.kind = 'opinion'" if opinions_only else ""
        # Driven by the entity's rows (mentions, its pages), not by a scan of the workspace's entries.
        # (Not scope()'s `= %s`: knowing that every entry is in the workspace, the planner would
        # hash-join a scan of all of them, 40 ms at 100k entries, instead of looking up 1,300.)
        sql = ("SELECT c.id FROM chunks c WHERE c.workspace_id = ANY(%(ws)s) AND (c.workspace_id, c.id) IN ("
               "SELECT m.workspace_id, m.chunk_id FROM mentions m WHERE m.workspace_id = ANY(%(ws)s)"
               " AND m.entity_key = ANY(%(keys)s) UNION SELECT p.workspace_id, p.id FROM entities e JOIN chunks p"
               " ON p.workspace_id = e.workspace_id AND p.path = e.page_path WHERE e.workspace_id = ANY(%(ws)s)"
               f" AND e.key = ANY(%(keys)s)){kind}{_and(where)}"
               " ORDER BY c.day IS NULL, c.day DESC, c.id LIMIT %(limit)s")
        return [r[0] for r in conn.execute(sql, params | {"ws": ws, "keys": list(keys), "limit": limit})]

    @guarded
    def browse(self, filters: Filters, limit: int, per_day: int | None = None) -> list[int]:
        """Entries that pass the filters, newest first (none without a filter); with `per_day`, the
        first `per_day` of each day in file order (as the SQLite store)."""
        conn, ws, filters = self.db.conn, self.ids, self.scoped(filters)
        if filters.empty:
            return []
        where, params = filter_sql(filters, DIALECT)
        in_ws, ws_params = scope(ws)
        if per_day is None:
            sql = (f"SELECT c.id FROM chunks c WHERE {in_ws} AND {where}"
                   ' ORDER BY c.day DESC NULLS LAST, c.path COLLATE "C", c.start_line LIMIT %s')
            return [r[0] for r in conn.execute(sql, [*ws_params, *params, limit])]
        sql = ('SELECT id FROM (SELECT c.id, c.day, c.path COLLATE "C" AS path, c.start_line, ROW_NUMBER() OVER'
               ' (PARTITION BY c.day ORDER BY c.path COLLATE "C", c.start_line) AS n FROM chunks c'
               f" WHERE {in_ws} AND {where}) x"
               " WHERE n <= %s ORDER BY day DESC NULLS LAST, path, start_line LIMIT %s")
        return [r[0] for r in conn.execute(sql, [*ws_params, *params, per_day, limit])]

    @guarded
    def entities(self) -> list[EntityInfo]:
        """Every entity of the view (read for every question), cached while its generations stay the same."""
        state = self._state()
        if state != self._entities[0]:
            self._entities = (state, self._read_entities())
        return list(self._entities[1])

    def _read_entities(self) -> list[EntityInfo]:
        """Every entity, by key; in a view of several workspaces, one entry per key (counts added up)."""
        conn, ws = self.db.conn, self.ids
        merged: dict[str, EntityInfo] = {}
        for key, slug, name, page, aliases, count in conn.execute(
            "SELECT key, slug, name, page_path, aliases, fact_count FROM entities WHERE workspace_id = ANY(%s)"
            ' ORDER BY key COLLATE "C", workspace_id', (ws,)):
            alias_list = tuple(str(a) for a in aliases) if isinstance(aliases, list) else ()
            info = EntityInfo(key, slug, name or display_name(slug), page, alias_list, count or 0)
            old = merged.get(key)
            if old is not None:
                info = EntityInfo(key, old.slug, old.name, old.page_path or page,
                                  tuple(dict.fromkeys(old.aliases + alias_list)), old.fact_count + (count or 0))
            merged[key] = info
        return list(merged.values())

    @guarded
    def facts(self, until: date | None = None) -> list[Fact]:
        """Every fact of one workspace written up to `until` (undated ones always), oldest first."""
        conn, ws_id = self.db.conn, self.own_id(create=False)
        if ws_id is None:
            return []
        mentions: dict[int, list[tuple[str, str]]] = {}
        for chunk_id, key, slug in conn.execute(
            "SELECT m.chunk_id, m.entity_key, m.slug FROM mentions m JOIN facts f ON f.workspace_id = m.workspace_id"
            " AND f.id = m.chunk_id WHERE m.workspace_id = %s ORDER BY m.chunk_id, m.ord", (ws_id,)):
            mentions.setdefault(chunk_id, []).append((key, slug))
        out: list[Fact] = []
        for fid, path, line, kind, content, confidence, day, o_start, o_end, bullet, end_line, invalid_at, reason in (
            conn.execute("SELECT id, path, line, kind, content, confidence, day, occurred_start, occurred_end, bullet,"
                         " end_line, invalid_at, invalid_reason FROM facts WHERE workspace_id = %s", (ws_id,))):
            if path == PROPOSALS_PATH or (until is not None and day is not None and day > until):
                continue
            out.append(Fact(fid, path, line, kind, content, confidence, day,
                            order_mentions(content, mentions.get(fid, [])), iso(o_start), iso(o_end), bullet or "",
                            end_line, invalid_at, reason))
        out.sort(key=lambda f: f.order)
        return out

    @guarded
    def entity_facts(self, key: str, limit: int) -> list[dict[str, Any]]:
        conn, ws = self.db.conn, self.ids
        cur = conn.execute(
            "SELECT f.id, f.kind, f.content, f.confidence, f.day, f.occurred_start, f.occurred_end, f.path, f.line,"
            " f.invalid_at, f.invalid_reason FROM facts f JOIN mentions m ON m.workspace_id = f.workspace_id AND m.chunk_id = f.id"
            " WHERE f.workspace_id = ANY(%s) AND m.entity_key = %s"
            ' ORDER BY f.day IS NULL, f.day DESC, f.path COLLATE "C" DESC, f.line DESC LIMIT %s', (ws, key, limit))
        names = [d.name for d in cur.description or []]
        out = []
        for r in cur:
            row = dict(zip(names, r, strict=True))
            for field in ("day", "occurred_start", "occurred_end"):
                row[field] = iso(row[field])
            out.append(row)
        return out

    @guarded
    def log_days(self, since: date, until: date) -> list[tuple[str, str]]:
        conn, ws_id = self.db.conn, self.own_id(create=False)
        if ws_id is None:
            return []
        return [(path, day.isoformat()) for path, day in conn.execute(
            "SELECT path, day FROM files WHERE workspace_id = %s AND role = 'daily' AND day >= %s AND day <= %s"
            ' ORDER BY path COLLATE "C"', (ws_id, since, until))]

    @guarded
    def day_counts(self) -> list[dict[str, Any]]:
        """One dict per day with a daily log, oldest first: day, files, notes, facts, facts_by_kind."""
        conn, ws = self.db.conn, self.ids
        days: dict[str, dict[str, Any]] = {}
        for day, path in conn.execute('SELECT day, path FROM files WHERE workspace_id = ANY(%s) AND day IS NOT NULL'
                                      ' ORDER BY day, path COLLATE "C"', (ws,)):
            entry = days.setdefault(day.isoformat(), {"day": day.isoformat(), "files": [], "notes": 0, "facts": 0,
                                                      "facts_by_kind": {}})
            entry["files"].append(path)
        for day, count in conn.execute("SELECT day, count(*) FROM chunks WHERE workspace_id = ANY(%s)"
                                       " AND day IS NOT NULL AND kind = 'note' GROUP BY day", (ws,)):
            if day.isoformat() in days:
                days[day.isoformat()]["notes"] = count
        for day, kind, count in conn.execute("SELECT day, kind, count(*) FROM facts WHERE workspace_id = ANY(%s)"
                                             " AND day IS NOT NULL GROUP BY day, kind ORDER BY day, kind", (ws,)):
            if day.isoformat() in days:
                days[day.isoformat()]["facts"] += count
                days[day.isoformat()]["facts_by_kind"][kind] = count
        return [days[day] for day in sorted(days)]

    @guarded
    def status(self) -> dict[str, Any]:
        """Counts, warnings with path:line, the last sync and the session transcripts of one workspace,
        for `memory status`."""
        conn, ws_id = self.db.conn, self.own_id(create=False)
        if ws_id is None:
            return {"files": 0, "chunks": 0, "facts": 0, "facts_by_kind": {}, "entities": 0, "warnings": [],
                    "last_sync": None, "index_age_seconds": None, "invalid_facts": 0, "sessions": None}
        def count(table: str, extra: str = "") -> int:
            return conn.execute(f"SELECT count(*) FROM {table} WHERE workspace_id = %s{extra}", (ws_id,)).fetchone()[0]

        last_sync = conn.execute("SELECT last_sync FROM workspaces WHERE workspace_id = %s", (ws_id,)).fetchone()
        last = last_sync[0] if last_sync else None
        return {
            "files": count("files"),
            "chunks": count("chunks"),
            "facts": count("facts"),
            "facts_by_kind": dict(conn.execute("SELECT kind, count(*) FROM facts WHERE workspace_id = %s GROUP BY kind"
                                               " ORDER BY kind", (ws_id,)).fetchall()),
            "entities": count("entities"),
            "warnings": [{"path": p, "line": line, "message": m} for p, line, m in conn.execute(
                'SELECT path, line, message FROM warnings WHERE workspace_id = %s ORDER BY path COLLATE "C", line, ord',
                (ws_id,))],
            "last_sync": last.isoformat(timespec="seconds") if last else None,
            "index_age_seconds": round((datetime.now(UTC) - last).total_seconds(), 1) if last else None,
            "invalid_facts": count("facts", " AND invalid_at IS NOT NULL"),
            "sessions": session_totals(conn, ws_id),
        }

    @guarded
    def file_text(self, path: str) -> str | None:
        ws_id = self.own_id(create=False)
        if ws_id is None:
            return None
        row = self.db.conn.execute("SELECT body FROM files WHERE workspace_id = %s AND path = %s",
                                   (ws_id, path)).fetchone()
        return row[0] if row else None


def session_totals(conn: psycopg.Connection, ws_id: int) -> dict[str, int] | None:
    """Transcripts, messages, skipped lines and entries (None without sessions), as the SQLite store says."""
    files, messages, other, malformed = conn.execute(
        "SELECT count(*), COALESCE(sum(messages), 0)::int, COALESCE(sum(other), 0)::int,"
        " COALESCE(sum(malformed), 0)::int FROM session_files WHERE workspace_id = %s", (ws_id,)).fetchone()
    if not files:
        return None
    entries = conn.execute("SELECT count(*) FROM chunks WHERE workspace_id = %s AND role = 'session'",
                           (ws_id,)).fetchone()[0]
    return {"files": files, "messages": messages, "other": other, "malformed": malformed, "entries": entries}
