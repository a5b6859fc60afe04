"""Trigger recall: core entries whose `<!-- trigger: a, b -->` phrases an incoming message names (pure).

An agent runtime calls `memory triggers "incoming message"` before answering, and puts what comes
back into the prompt: a few curated entries that must not be missed when a topic comes up ("when
someone mentions the espresso machine, remember it is broken"), without a search.

Where triggers live: MEMORY.md and bank pages only (daily notes never qualify: they are a log,
not curated memory). What a trigger selects:
- on a heading line, or alone on a line under a heading: that section (the heading and its text);
- at the end of a list item or paragraph line: that line (and its indented continuation lines).

Matching (documented thresholds): message and phrase are lowercased and cut into words, with a
light stemmer (-s, -es after s/x/z/ch/sh, -ed, -ing) so "birthdays" meets "birthday". A phrase of n words matches
when some n consecutive words of the message score at least TRIGGER_THRESHOLD = 90 by rapidfuzz's
`ratio` (one typo passes in phrases of 10 characters or more) and every phrase word shorter than
EXACT_BELOW = 5 characters is there exactly ("tip" never matches "trip"). Phrases in Chinese or
Japanese match as substrings. At most MAX_ENTRIES = 3 entries, best score first, then longest
phrase; each cut to ENTRY_CHARS = 600 characters, so the answer stays within 1,800 characters.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from rapidfuzz import fuzz

from ..fuzzy import PHRASE_IN_TEXT
from ..markdown.frontmatter import split_frontmatter
from ..workspace.layout import file_role
from ..workspace.retain_writer import headings
from .core import TRIGGER_RE, is_annotation_line, strip_annotations, trigger_phrases

TRIGGER_THRESHOLD = PHRASE_IN_TEXT
EXACT_BELOW = 5
MAX_ENTRIES = 3
ENTRY_CHARS = 600
MAX_CHARS = MAX_ENTRIES * ENTRY_CHARS  # 1,800
MAX_LISTED = 200  # list_triggers: entries listed at most (a runtime that matches them itself)
_WORD_RE = re.compile(r"\w+")
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_LIST_ITEM_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")


@dataclass(frozen=True)
class TriggerEntry:
    """A piece of curated memory and the phrases that call it up."""

    path: str
    start_line: int  # 1-based, inclusive, as on disk
    end_line: int
    text: str  # compact: annotations and blank lines removed, cut to ENTRY_CHARS
    phrases: tuple[str, ...]

    @property
    def source(self) -> str:
        lines = f"L{self.start_line}" if self.start_line == self.end_line else f"L{self.start_line}-L{self.end_line}"
        return f"{self.path}#{lines}"


def trigger_entries(path: str, text: str) -> list[TriggerEntry]:
    """The entries of one file that carry trigger annotations, in file order."""
    lines = text.replace("\r\n", "\n").split("\n")
    skip = split_frontmatter(lines).line_count
    heads = [(i, level) for i, level, _ in headings(lines) if i >= skip]
    spans: dict[tuple[int, int], list[str]] = {}
    for idx in range(skip, len(lines)):
        line = lines[idx]
        if not TRIGGER_RE.search(line):
            continue
        heading_here = any(i == idx for i, _ in heads)
        if heading_here or is_annotation_line(line):
            span = _section(lines, heads, idx, skip)
        else:
            span = _item(lines, idx)
        spans.setdefault(span, []).extend(trigger_phrases(line))
    out = []
    for (start, end), phrases in sorted(spans.items()):
        body = [strip_annotations(lines[i]).rstrip() for i in range(start, end + 1)
                if not is_annotation_line(lines[i]) and lines[i].strip()]
        body = [b for b in body if b.strip()]
        if body and phrases:
            out.append(TriggerEntry(path, start + 1, end + 1, _cut("\n".join(body)), tuple(dict.fromkeys(phrases))))
    return out


def _section(lines: list[str], heads: list[tuple[int, int]], idx: int, skip: int) -> tuple[int, int]:
    """(first, last) 0-based line of the section that holds line `idx` (heading through its text)."""
    above = [(i, level) for i, level in heads if i <= idx]
    if not above:
        start, level = skip, 0
    else:
        start, level = above[-1]
    end = next((i for i, lv in heads if i > start and (level == 0 or lv <= level)), len(lines)) - 1
    while end > start and not lines[end].strip():
        end -= 1
    return start, end


def _item(lines: list[str], idx: int) -> tuple[int, int]:
    """(first, last) 0-based line of a list item or paragraph line with its indented continuation."""
    end = idx
    while (end + 1 < len(lines) and lines[end + 1].strip() and lines[end + 1][:1].isspace()
           and not _LIST_ITEM_RE.match(lines[end + 1])):
        end += 1
    return idx, end


def _cut(text: str) -> str:
    return text if len(text) <= ENTRY_CHARS else text[: ENTRY_CHARS - 1].rstrip() + "…"


def words(text: str) -> list[str]:
    """Lowercased, lightly stemmed words (the unit triggers are matched in)."""
    return [_stem(w) for w in _WORD_RE.findall(unicodedata.normalize("NFKC", text).casefold())]


def _stem(word: str) -> str:
    """birthdays -> birthday, matches -> match, deployed -> deploy, planning -> plann (both sides alike)."""
    if word.endswith(("ses", "xes", "zes", "ches", "shes")) and len(word) >= 6:
        return word[:-2]
    for suffix, keep in (("ing", 4), ("ed", 4), ("s", 3)):
        if word.endswith(suffix) and len(word) - len(suffix) >= keep and not word.endswith("ss"):
            return word[: -len(suffix)]
    return word


def phrase_score(phrase: str, message: str, message_words: list[str] | None = None) -> float:
    """How strongly `message` names `phrase`, 0..100 (see the module docstring)."""
    if _CJK_RE.search(phrase):
        norm = unicodedata.normalize("NFKC", phrase).casefold().strip()
        return 100.0 if norm and norm in unicodedata.normalize("NFKC", message).casefold() else 0.0
    target = words(phrase)
    have = words(message) if message_words is None else message_words
    n = len(target)
    if not n or n > len(have):
        return 0.0
    joined = " ".join(target)
    best = 0.0
    for i in range(len(have) - n + 1):
        window = have[i : i + n]
        if any(len(t) < EXACT_BELOW and t != w for t, w in zip(target, window, strict=True)):
            continue
        best = max(best, fuzz.ratio(joined, " ".join(window)))
        if best == 100.0:
            break
    return best


def list_triggers(sources: list[tuple[str, str]], limit: int = MAX_LISTED) -> dict:
    """Every trigger entry of `sources` [(path, text)], in file order, for a runtime that matches
    messages itself (OpenClaw's trigger recall): the same entries `find_triggers` chooses from,
    with their phrases; at most `limit` (<= MAX_LISTED). Daily logs are skipped."""
    limit = max(1, min(limit, MAX_LISTED))
    entries = [e for path, text in sources if file_role(path) in ("core", "bank") for e in trigger_entries(path, text)]
    results = [{"source": e.source, "path": e.path, "start_line": e.start_line, "end_line": e.end_line,
                "phrases": list(e.phrases), "text": e.text} for e in entries[:limit]]
    return {"results": results, "total": len(entries)}


def find_triggers(message: str, sources: list[tuple[str, str]]) -> dict:
    """Entries of `sources` [(path, text)] triggered by `message`: at most 3, within 1,800 characters.

    Daily logs (memory/YYYY-MM-DD.md) are skipped even if passed in.
    """
    have = words(message)
    found = []
    for path, text in sources:
        if file_role(path) not in ("core", "bank"):
            continue
        for entry in trigger_entries(path, text):
            scored = [(phrase_score(p, message, have), p) for p in entry.phrases]
            score, phrase = max(scored, key=lambda sp: (sp[0], len(sp[1])))
            if score >= TRIGGER_THRESHOLD:
                found.append((score, len(phrase), entry, phrase))
    found.sort(key=lambda f: (-f[0], -f[1], f[2].path, f[2].start_line))
    results = [{"source": e.source, "path": e.path, "start_line": e.start_line, "end_line": e.end_line,
                "trigger": phrase, "score": round(score, 1), "text": e.text}
               for score, _, e, phrase in found[:MAX_ENTRIES]]
    return {"message": message, "threshold": TRIGGER_THRESHOLD, "results": results,
            "chars": sum(len(r["text"]) for r in results)}
