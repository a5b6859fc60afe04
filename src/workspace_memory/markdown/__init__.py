"""Markdown: parsing, chunking, the Retain fact grammar and frontmatter."""

# Bump when chunk boundaries, texts or what facts state change: the index's settings fingerprint
# includes it (here, not in parse.py, so that checking the fingerprint parses nothing).
PARSER_VERSION = 7  # 7: entry_start; day-first and anchored dates in facts
