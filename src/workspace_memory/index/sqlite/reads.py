"""Reads of the SQLite index for recall, reflect and status (the SQL behind index.base.Store)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from ...facts.entity_info import EntityInfo
from ...markdown.names import display_name
from ..base import ChunkRow, Filters, in_batches
from ..sql_filters import Dialect, filter_sql

if TYPE_CHECKING:
    from ...facts.model import Fact


def _one_of(column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
    return f"{column} IN ({','.join('?' * len(values))})", list(values)


# SQLite's SQL for index.sql_filters: dates are ISO text; one workspace per file.
DIALECT = Dialect("?", "", _one_of, "({alias}.id IN (SELECT chunk_id FROM mentions WHERE {mentions})"
                  " OR {alias}.path IN (SELECT page_path FROM entities WHERE {pages}))", "entity_key", "key",
                  "{alias}.id IN (SELECT chunk_id FROM chunk_days WHERE t_start <= {day} AND t_end >= {day})")



ROW_BATCH = 400  # ids per SQL IN list
ROWS_KEPT = 5_000  # rows the read cache keeps at most (a few MB); beyond, it starts again
_ROW_SQL = (
    "SELECT c.id, c.path, c.start_line, c.end_line, COALESCE(c.entry_start, c.start_line) AS entry_start, c.kind,"
    " c.heading, c.text, c.role, c.day, c.t_start, c.t_end, c.at, c.invalid_at, f.content AS fact_content,"
    " f.confidence FROM chunks c LEFT JOIN facts f ON f.id = c.id"
    " WHERE c.id IN ({marks}){extra}"
)


class SqliteReads:
    """The reads of the SQLite index (index.base's RecallReads and ReflectReads, and the counts of
    Maintenance), as methods of SqliteStore. They use what the store defines: `conn`, `scoped()`
    (filters without the clauses that exclude nothing) and `_cache` (index.sqlite.read_cache)."""

    def languages(self) -> dict[str, int]:
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'languages'").fetchone()
        return json.loads(row[0]) if row else {}

    def holds_entries(self, filters: Filters) -> bool:
        conn, filters = self.conn, self.scoped(filters)
        where, params = filter_sql(filters, DIALECT)
        return conn.execute(f"SELECT 1 FROM chunks c WHERE {where or '1'} LIMIT 1", params).fetchone() is not None

    def entries_in(self, paths: Sequence[str], filters: Filters) -> dict[int, str]:
        conn, filters = self.conn, self.scoped(filters)
        where, params = filter_sql(filters, DIALECT)
        out: dict[int, str] = {}
        for part in in_batches(list(paths), 400):
            sql = f"SELECT c.id, c.path FROM chunks c WHERE c.path IN ({','.join('?' * len(part))})"
            out.update(conn.execute(sql + (f" AND {where}" if where else ""), (*part, *params)))
        return out

    def rows(self, ids: Sequence[int], filters: Filters | None = None) -> dict[int, ChunkRow]:
        """The rows of these chunks, with their fact's content and confidence and their entities.

        Without a filter they come from the read cache (a long-lived process reads the rows of the
        same candidates question after question), each a copy: a caller may change what it gets.
        The order is SQLite's: by id within each batch of ROW_BATCH ids."""
        if not ids:
            return {}
        conn, filters = self.conn, filters and self.scoped(filters)
        where, params = filter_sql(filters, DIALECT)
        if where or len(ids) > ROWS_KEPT:
            return _read_rows(conn, ids, f" AND {where}" if where else "", params)
        kept = self._cache.fresh(conn).rows
        missing = [cid for cid in ids if cid not in kept]
        if len(kept) + len(missing) > ROWS_KEPT:
            kept.clear()
            missing = list(ids)
        if missing:
            kept.update(_read_rows(conn, missing, "", []))
        return {cid: _copy(kept[cid]) for part in in_batches(list(ids), ROW_BATCH)
                for cid in sorted(part) if cid in kept}

    def superseded(self, ids: Sequence[int]) -> dict[int, int]:
        """{superseded fact id: id of the fact that replaced it} among `ids` (facts.superseded_by)."""
        conn = self.conn
        out: dict[int, int] = {}
        for part in in_batches(list(ids)):
            out.update(conn.execute(
                "SELECT id, superseded_by FROM facts WHERE superseded_by IS NOT NULL"
                f" AND id IN ({','.join('?' * len(part))})", part,
            ).fetchall())
        return out

    def about_entities(self, keys: Sequence[str], filters: Filters, limit: int,
                       opinions_only: bool = False) -> list[int]:
        """The newest entries about these entities: their facts and mentions, and their pages."""
        conn, filters = self.conn, self.scoped(filters)
        marks = ",".join("?" * len(keys))
        kind = " AND c.kind = 'opinion'" if opinions_only else ""
        where, params = filter_sql(filters, DIALECT)
        extra = f" AND {where}" if where else ""
        sql = (
            f"SELECT c.id FROM chunks c WHERE (c.id IN (SELECT chunk_id FROM mentions WHERE entity_key IN ({marks}))"
            f" OR c.path IN (SELECT page_path FROM entities WHERE key IN ({marks}))){kind}{extra}"
            " ORDER BY c.day IS NULL, c.day DESC, c.id LIMIT ?"
        )
        return [r[0] for r in conn.execute(sql, (*keys, *keys, *params, limit))]

    def browse(self, filters: Filters, limit: int, per_day: int | None = None) -> list[int]:
        """Entries that pass the filters, newest first (none when there is no filter); with `per_day`,
        the first `per_day` of each day in file order."""
        conn, filters = self.conn, self.scoped(filters)
        where, params = filter_sql(filters, DIALECT)
        if filters.empty:
            return []
        if per_day is None:
            sql = f"SELECT c.id FROM chunks c WHERE {where} ORDER BY c.day DESC, c.path, c.start_line LIMIT ?"
            return [cid for (cid,) in conn.execute(sql, (*params, limit))]
        sql = ("SELECT id FROM (SELECT c.id, c.day, c.path, c.start_line, ROW_NUMBER() OVER"
               f" (PARTITION BY c.day ORDER BY c.path, c.start_line) AS n FROM chunks c WHERE {where})"
               " WHERE n <= ? ORDER BY day DESC, path, start_line LIMIT ?")
        return [cid for (cid,) in conn.execute(sql, (*params, per_day, limit))]

    def entities(self) -> list[EntityInfo]:
        """Every entity (read for every question), kept while the index does not change (ReadCache)."""
        cache = self._cache.fresh(self.conn)
        if cache.entities is None:
            cache.entities = self._read_entities()
        return list(cache.entities)

    def day_counts(self) -> list[dict[str, Any]]:
        from .timeline import day_counts  # the web page's timeline only

        return day_counts(self.conn)

    def _read_entities(self) -> list[EntityInfo]:
        """Every entity of the `entities` table, by key."""
        conn = self.conn
        out = []
        for key, slug, name, page, aliases, count in conn.execute(
            "SELECT key, slug, name, page_path, aliases, fact_count FROM entities ORDER BY key"
        ):
            try:
                listed = json.loads(aliases or "[]")
            except ValueError:
                listed = []
            alias_list = tuple(str(a) for a in listed) if isinstance(listed, list) else ()
            out.append(EntityInfo(key, slug, name or display_name(slug), page, alias_list, count or 0))
        return out

    def facts(self, until: date | None = None) -> list[Fact]:
        """Every fact written up to `until` (inclusive; undated facts always), oldest first.

        Facts dated after `until` are left out: reflecting "as of --now" must not see the future.
        """
        conn = self.conn
        from ...facts.model import PROPOSALS_PATH, Fact, order_mentions  # lazy: a recall reads no facts

        mentions: dict[int, list[tuple[str, str]]] = {}
        for chunk_id, key, slug in conn.execute(
            "SELECT m.chunk_id, m.entity_key, m.slug FROM mentions m JOIN facts f ON f.id = m.chunk_id"
        ):
            mentions.setdefault(chunk_id, []).append((key, slug))
        out: list[Fact] = []
        for fid, path, line, kind, content, confidence, day_s, o_start, o_end, *more in conn.execute(
            "SELECT id, path, line, kind, content, confidence, day, occurred_start, occurred_end, bullet, end_line,"
            " invalid_at, invalid_reason FROM facts"
        ):
            if path == PROPOSALS_PATH:
                continue
            day = date.fromisoformat(day_s) if day_s else None
            if until is not None and day is not None and day > until:
                continue
            bullet, end_line, invalid_at, reason = more
            out.append(Fact(fid, path, line, kind, content, confidence, day,
                            order_mentions(content, mentions.get(fid, [])), o_start, o_end, bullet or "",
                            end_line, invalid_at, reason))
        out.sort(key=lambda f: f.order)
        return out

    def entity_facts(self, key: str, limit: int) -> list[dict[str, Any]]:
        """The facts that mention one entity, newest first."""
        conn = self.conn
        cur = conn.execute(
            "SELECT f.id, f.kind, f.content, f.confidence, f.day, f.occurred_start, f.occurred_end, f.path, f.line,"
            " f.invalid_at, f.invalid_reason FROM facts f JOIN mentions m ON m.chunk_id = f.id WHERE m.entity_key = ?"
            " ORDER BY f.day IS NULL, f.day DESC, f.path DESC, f.line DESC LIMIT ?",
            (key, limit),
        )
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r, strict=True)) for r in cur]

    def log_days(self, since: date, until: date) -> list[tuple[str, str]]:
        conn = self.conn
        return conn.execute(
            "SELECT path, day FROM files WHERE role = 'daily' AND day >= ? AND day <= ? ORDER BY path",
            (since.isoformat(), until.isoformat())).fetchall()

    def status(self) -> dict[str, Any]:
        """Counts, warnings with path:line, and the last sync, for `memory status`."""
        conn = self.conn
        def count(sql: str) -> int:
            return conn.execute(sql).fetchone()[0]

        last_sync = conn.execute("SELECT value FROM meta WHERE key = 'last_sync'").fetchone()
        age = None
        if last_sync:
            age = round((datetime.now(UTC) - datetime.fromisoformat(last_sync[0])).total_seconds(), 1)
        return {
            "files": count("SELECT COUNT(*) FROM files"),
            "chunks": count("SELECT COUNT(*) FROM chunks"),
            "facts": count("SELECT COUNT(*) FROM facts"),
            "facts_by_kind": dict(conn.execute("SELECT kind, COUNT(*) FROM facts GROUP BY kind ORDER BY kind")),
            "entities": count("SELECT COUNT(*) FROM entities"),
            "warnings": [{"path": p, "line": line, "message": m} for p, line, m in
                         conn.execute("SELECT path, line, message FROM warnings ORDER BY path, line")],
            "last_sync": last_sync[0] if last_sync else None,
            "index_age_seconds": age,
            "invalid_facts": count("SELECT COUNT(*) FROM facts WHERE invalid_at IS NOT NULL"),
            "sessions": session_totals(conn),
        }


def session_totals(conn: sqlite3.Connection) -> Mapping[str, int] | None:
    """Transcripts, messages, skipped lines and entries, for `memory status` (None without sessions)."""
    files, messages, other, malformed = conn.execute(
        "SELECT COUNT(*), COALESCE(SUM(messages), 0), COALESCE(SUM(other), 0), COALESCE(SUM(malformed), 0)"
        " FROM session_files").fetchone()
    if not files:
        return None
    entries = conn.execute("SELECT COUNT(*) FROM chunks WHERE role = 'session'").fetchone()[0]
    return {"files": files, "messages": messages, "other": other, "malformed": malformed, "entries": entries}


def _read_rows(conn: sqlite3.Connection, ids: Sequence[int], extra: str, params: Sequence) -> dict[int, ChunkRow]:
    """SqliteReads.rows read from SQLite (`extra`: " AND <filter>" or "", with its `params`)."""
    out: dict[int, ChunkRow] = {}
    for part in in_batches(list(ids), ROW_BATCH):
        marks = ",".join("?" * len(part))
        cur = conn.execute(_ROW_SQL.format(marks=marks, extra=extra), (*part, *params))
        names = [d[0] for d in cur.description]
        for r in cur:
            row: Any = dict(zip(names, r, strict=True))
            row["entity_keys"], row["entity_names"], row["named"] = [], [], []
            if row["path"].startswith("bank/entities/"):
                row["entity_keys"].append(row["path"].rsplit("/", 1)[-1][:-3].lower())  # on the entity's page
            out[r[0]] = row
        for cid, key, name in conn.execute(
            "SELECT m.chunk_id, m.entity_key, COALESCE(e.name, m.slug) FROM mentions m"
            f" LEFT JOIN entities e ON e.key = m.entity_key WHERE m.chunk_id IN ({marks}) ORDER BY m.rowid",
            part,
        ):
            if cid in out:
                out[cid]["entity_keys"].append(key)
                out[cid]["entity_names"].append(name)
        for cid, start, end in conn.execute(
                f"SELECT chunk_id, t_start, t_end FROM chunk_days WHERE chunk_id IN ({marks}) ORDER BY rowid", part):
            if cid in out:
                out[cid]["named"].append((start, end))
    return out


def _copy(row: Any) -> ChunkRow:
    """A row a caller may change without changing the cached one (its lists copied too)."""
    return row | {"entity_keys": list(row["entity_keys"]), "entity_names": list(row["entity_names"]),
                  "named": list(row["named"])}
