"""Time words per language (`lang/timewords/<code>.py`, see workspace_memory.lang), read by dates.languages.

Each module holds plain constants; dates.languages turns a text of that language into the English the
engine's grammar (dates.parse, dates.points) reads, word by word and phrase by phrase, keeping where
each piece came from, so that a phrase found in the English is a phrase of the original text:

- `MONTHS` and `WEEKDAYS`: names (full, short, with and without accents) -> 1..12 and 0..6 (Monday 0).
- `WORDS`: other words -> their English ("gestern" -> "yesterday", "am" -> "on"; "" drops the word).
- `REWRITES`: (pattern, template) pairs for what word order or grammar makes more than a word
  ("vor zwei Wochen" -> "2 weeks ago", "la semana pasada" -> "last week", "12月4日" -> "December 4"),
  tried at each place before WORDS. A pattern is a regular expression over the lower-cased text, in
  which {MONTH}, {WEEKDAY}, {N} and {UNIT} stand for this module's names, numbers and units; a
  template names groups as {1}, or {1:month}, {1:weekday}, {1:num}, {1:unit}, {1:th} ("20" -> "20th").
  A habit ("jeden Sonntag", "los domingos", "每周日") is rewritten to "" so it is never one day.
- `NUMBERS` (number words -> int) and `UNITS` (-> "day" | "week" | "month" | "year").
- `FUTURE` and `PAST`: words or short phrases that make a question or a line look ahead or back
  (dates.lean.lean: the direction a year-less date leans).
- `NARRATED`: regular expressions over a line as written that show it tells of the past ("moved",
  "ist ... umgezogen", "se mudó", "a quitté"): a year-less month in such a line is the one gone by,
  in any other the nearest (dates.lean.line_month_lean).
- `NOW`: words that mean "now" (never a window).

A language without a module has no words here: its questions go to dateparser when `[time] languages`
names it, and are otherwise read as English numbers and ISO dates only.
"""
