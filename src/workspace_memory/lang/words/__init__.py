"""Question and note words per language (`lang/words/<code>.py`): see workspace_memory.lang.

Each module holds plain constants; a name a module lacks is no data for that rule (neutral):

- `STOPWORDS`: words that carry nothing a note could be found by (articles, pronouns, auxiliaries,
  question words); a query of only these is searched with them;
- `EVENT_WORDS`: words that ask for events without naming any ("what happened", "was ist passiert");
  a question of only these and stop words, with a time phrase, asks for what is inside the window;
- `QUESTION_STARTS`: what a question starts with when it has no question mark;
- `QUESTION_WORDS`, `LEADING_VERBS`, `PRESENT_WORDS`, `NOW_WORDS`, `PAST_WORDS`, `NOW_PHRASES`,
  `PAST_PHRASES`: whether a question asks how things are now (recall.query.asks_about_now);
- `OPINION_WORDS`: words that ask for an opinion ("prefer", "bevorzugt", "opina", "觉得");
- `WHERE_WORDS`: words that ask for a place ("where", "wo", "哪里"); `LOCATIVES` (prepositions of place
  before a name, "in Porto"), `LOCATIVES_CJK` / `LOCATIVES_CJK_AFTER` (characters of place before / after
  a Latin name, "在Porto", "Portoで"): what names a place in a note (recall.place);
- `LABELS`: words that head a note as a label, not as a speaker ("Decision:", "Montag:");
- `STEMMER`: the Snowball algorithm that stems the language's words (PyStemmer), or None;
- `NOUN_SUFFIXES`: endings of a stem that make a noun of a verb ("mudanz" of "mudar"): a question's
  noun is searched by the verb's root as well (recall.lexical.with_stem);
- `FRAME_PIECES` (Chinese, Japanese): pieces of a question that ask rather than name (什么, 怎么, 何).
"""
