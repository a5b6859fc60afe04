"""What `memory doctor` checks of a Postgres store: the server, pgvector, pg_trgm, the migrations.

Each finding is {"check", "ok", "detail"}; a failed check says what to do. Runs on a connection
of its own that does not migrate, so it can report a server where the schema cannot be created.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import StoreUnavailable
from .connection import reason
from .schema import SCHEMA_VERSION, applied

if TYPE_CHECKING:
    from .connection import Database

MIN_SERVER = 13  # generated identity columns, the jsonb and tsvector functions used here
MIN_PGVECTOR = (0, 5)  # HNSW indexes arrived in pgvector 0.5.0


def _finding(check: str, ok: bool, detail: str) -> dict[str, Any]:
    return {"check": check, "ok": ok, "detail": detail}


def findings(db: Database) -> list[dict[str, Any]]:
    """The server's version, pgvector (present, version), pg_trgm, and the schema migrations."""
    try:
        conn = db.connect_raw()
    except StoreUnavailable as exc:
        return [_finding("server", False, str(exc))]
    out = []
    try:
        version = conn.execute("SHOW server_version").fetchone()[0]
        major = int(conn.execute("SHOW server_version_num").fetchone()[0]) // 10000
        standby = conn.execute("SELECT pg_is_in_recovery()").fetchone()[0]
        out.append(_finding("server", major >= MIN_SERVER,
                            f"PostgreSQL {version} at {db.where}" + (" (a read replica)" if standby else "")
                            + ("" if major >= MIN_SERVER else f"; version {MIN_SERVER} or later is needed")))
        for name, needed in (("vector", MIN_PGVECTOR), ("pg_trgm", ())):
            installed = conn.execute("SELECT extversion FROM pg_extension WHERE extname = %s", (name,)).fetchone()
            available = conn.execute("SELECT default_version FROM pg_available_extensions WHERE name = %s",
                                     (name,)).fetchone()
            label = "pgvector" if name == "vector" else name
            if installed:
                parts = tuple(int(p) for p in installed[0].split(".")[:2] if p.isdigit())
                ok = parts >= needed
                out.append(_finding(label, ok, f"{label} {installed[0]}" + (
                    "" if ok else f"; {'.'.join(map(str, needed))} or later is needed (ALTER EXTENSION {name} UPDATE)")))
            elif available:
                out.append(_finding(label, True, f"{label} {available[0]} available; created by the migrations"))
            elif name == "pg_trgm":
                out.append(_finding(label, True, "pg_trgm is not on the server (postgresql-contrib): CJK runs are "
                                                 "found by scanning the entries that hold CJK text, without an index"))
            else:
                out.append(_finding(label, False, "pgvector is not installed on the server (the postgresql-NN-pgvector "
                                                  "package), so the schema cannot be created"))
        done = applied(conn)
        out.append(_finding("migrations", done <= SCHEMA_VERSION,
                            f"{done} of {SCHEMA_VERSION} applied" + (
                                "; the rest run on the next connection" if done < SCHEMA_VERSION else "")
                            + ("; the database is newer than this program" if done > SCHEMA_VERSION else "")))
    except Exception as exc:  # a doctor reports, it does not crash
        out.append(_finding("server", False, f"{db.where}: {reason(exc)}"))
    finally:
        conn.close()
    return out
