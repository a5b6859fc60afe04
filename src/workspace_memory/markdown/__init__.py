"""Markdown: parsing, chunking, the Retain fact grammar and frontmatter."""
