"""The derived index: SQLite schema and migrations, sync from Markdown, FTS5, vectors."""
