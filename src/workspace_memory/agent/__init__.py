"""The agent surface: core memory blocks, trigger recall and the pre-compaction flush prompt.

Pure functions over Markdown text; the file writes happen in `core_write` (under the per-file
lock) and everything is reached through `api.Memory`.
"""
