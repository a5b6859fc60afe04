"""Words for Postgres full text, tokenized and stemmed as SQLite's FTS5 `porter unicode61` does.

Postgres' own `english` configuration differs from FTS5 in three ways that move scores: it
drops stop words (a phrase such as "don't" or "what's" loses a word), it stems with Porter2
("generously" -> "generous", FTS5's Porter gives "gener"), and it keeps diacritics. So the
tsvector is built here, with the `simple` semantics (no dictionary at all): the text is split
where unicode61 splits it (every character outside the Unicode categories L*, N*, Co), folded
to lower case without diacritics, and stemmed with FTS5's own Porter (porter.py). Which characters
split words, and how they fold, come from SQLite's tables (unicode61.py, generated). A test
compares the words of both stores on the same texts.

One tsvector per entry holds three columns as weights, each at its own positions (a gap
between them, so a phrase never spans two): A the entry's search text (heading + text),
B the words of its file path, C the previous entry of its section (context). Document
frequencies count A and B, as FTS5 counts `{search_text path_text}`.
"""

from __future__ import annotations

import bisect
import functools
import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from .porter import stem


def _unicode61() -> tuple[int, tuple[tuple[int, int], ...], dict[int, str]]:
    """FTS5 unicode61's own tables, as SQLite answered (unicode61.json, scripts/gen_unicode61.py):
    LAST (every code point from there on is a token character), the inclusive ranges of non-ASCII
    token characters below it, and the folds that differ from str.lower()."""
    data = json.loads((Path(__file__).parent / "unicode61.json").read_text(encoding="utf-8"))
    return (data["last"], tuple((a, b) for a, b in data["token_ranges"]),
            {int(code): text for code, text in data["folds"].items()})


LAST, TOKEN_RANGES, FOLDS = _unicode61()

# Part of the settings fingerprint: a change here means every tsvector must be rebuilt.
TOKENIZER = "fts5-unicode61-porter/v1"
_GAP = 8  # positions left empty between the columns of one tsvector
_MAX_POSITION = 16383  # Postgres keeps positions up to here
_MAX_LEXEME_BYTES = 2046  # longer words are not indexed (Postgres refuses them)
WEIGHT_TEXT, WEIGHT_PATH, WEIGHT_CONTEXT = "A", "B", "C"
_STARTS = [a for a, _ in TOKEN_RANGES]
_RUN_RE = re.compile(r"[0-9A-Za-z\u0080-\U0010ffff]+")


@functools.lru_cache(maxsize=8192)
def _is_token_char(ch: str) -> bool:
    """FTS5 unicode61's answer for a non-ASCII character (see unicode61.json)."""
    code = ord(ch)
    if code >= LAST:
        return True
    at = bisect.bisect_right(_STARTS, code) - 1
    return at >= 0 and TOKEN_RANGES[at][0] <= code <= TOKEN_RANGES[at][1]


@functools.lru_cache(maxsize=65536)
def _fold(token: str) -> str:
    """Lower case without diacritics, character by character as unicode61 folds."""
    if token.isascii():
        return token.lower()
    return "".join(FOLDS.get(ord(c), c.lower()) if not c.isascii() else c.lower() for c in token)


def split_words(text: str) -> list[str]:
    """The tokens of `text` as unicode61 sees them, folded (not stemmed)."""
    out: list[str] = []
    for run in _RUN_RE.findall(text):  # ASCII letters and digits, and any non-ASCII
        if run.isascii():
            out.append(run.lower())
            continue
        start = -1
        for i, ch in enumerate(run):
            if ch.isascii() or _is_token_char(ch):
                if start < 0:
                    start = i
            elif start >= 0:
                out.append(_fold(run[start:i]))
                start = -1
        if start >= 0:
            out.append(_fold(run[start:]))
    return [t for t in out if t]


def lexemes(text: str) -> list[str]:
    """The stemmed words of `text`, in order (what a phrase query matches)."""
    return [stem(t) for t in split_words(text)]


def tsvector_literal(columns: Sequence[tuple[str, str]]) -> tuple[str, int]:
    """A tsvector in Postgres' text form for (weight, text) columns, and the number of tokens.

    Positions count from 1 through the columns in order, with a gap between columns. Words are
    made of letters and digits only (split_words), so they need no escaping inside the quotes.
    """
    positions: dict[str, list[str]] = {}
    position = 0
    count = 0
    for weight, text in columns:
        words = lexemes(text)
        count += len(words)
        for word in words:
            position += 1
            mark = f"{position if position < _MAX_POSITION else _MAX_POSITION}{weight}"
            seen = positions.get(word)
            if seen is None:
                positions[word] = [mark]
            else:
                seen.append(mark)
        position += _GAP
    return " ".join(f"'{w}':{','.join(p)}" for w, p in positions.items()
                    if len(w) * 4 <= _MAX_LEXEME_BYTES or len(w.encode("utf-8")) <= _MAX_LEXEME_BYTES), count


def tsquery_phrase(words: Sequence[str], weights: str = "") -> str | None:
    """`'w1':AB <-> 'w2':AB` for a phrase of stemmed words (None when there are none)."""
    if not words:
        return None
    suffix = f":{weights}" if weights else ""
    # "remplac*" is a prefix (a stemmed word, index.base.Term.stem): 'remplac':*AB
    return " <-> ".join(f"{_quote(w[:-1])}:*{weights}" if w.endswith("*") else f"{_quote(w)}{suffix}"
                        for w in words)


def any_of(phrases: Iterable[str]) -> str:
    """Phrases OR'ed into one tsquery."""
    return " | ".join(f"({p})" for p in phrases)


def _quote(word: str) -> str:
    return "'" + word.replace("\\", "\\\\").replace("'", "''") + "'"
