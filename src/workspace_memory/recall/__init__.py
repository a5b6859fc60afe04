"""Recall: understand the query, find candidates (lexical, semantic), rank, pack."""
