"""Dates and time phrases: where a day, a range or a time phrase in a text is read (the base layer).

- `parse`: the values people type (`--since 7d`, `--date 2025-11-30`), the ranges stated in Retain
  facts, the time window of a recall question and the days a line of notes names; the English
  grammar's entry points.
- `points`: the grammar under `parse`: points in time as people write them ("last Friday", "Dec 4",
  "the week after X") and the days they mean.
- `lean`: the rule a year-less date follows ("Dec 4": the coming one or the last one), for a
  question and for a line of notes alike.
- `languages`: another language's time words (lang/timewords/<code>.py) put into the English
  grammar, and dateparser only for a configured language without words there.

How much a window moves a recall's ranking is recall's (recall/window.py), not this package's.
This file imports nothing: a lexical recall imports only the modules it uses (docs/architecture.md).
"""
