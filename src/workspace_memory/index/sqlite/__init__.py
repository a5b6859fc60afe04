"""The SQLite store: the embedded default. One file, `.memory/index.sqlite` (WAL), with FTS5 for
words, hnswlib for vectors (a file under `.memory/vectors/` rebuilt from SQLite when needed)."""
