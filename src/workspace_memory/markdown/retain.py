"""The Retain fact grammar (DESIGN §2): one bullet under ``## Retain`` is one fact.

    W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.
    O(c=0.95) @Peter: Prefers concise replies (<1500 chars) on WhatsApp.

A prefix letter (``W`` world, ``B`` experience, ``O`` opinion, ``S`` observation), an optional
confidence ``(c=0..1)`` or ``(c=0..100%)`` directly after it (opinions only), then whitespace or ``:`` and
the text. ``@Slug`` mentions anywhere in the text are entities. Parsing never raises: a malformed bullet
comes back without a fact and with a one-line warning, so the indexer can keep it as plain text.

A fact that is no longer true keeps its bullet, struck through and annotated (`memory forget`):

    ~~W @Peter: Lives in Vienna.~~ (invalid since 2025-12-01: moved to London)

The struck text is parsed as the fact; the annotation gives the day it stopped being true and an
optional reason. A bullet struck by hand without the annotation is invalid since the day it was
written (or, in an undated file, since an unknown day: INVALID_UNKNOWN).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date

from ..dates.parse import DateRange, resolve_stated_range
from ..limits import MAX_FACT_CHARS
from .names import SLUG, SLUG_SPACED, WORD_NOT_CJK, ScriptPattern, display_name, slugify

__all__ = [
    "DEFAULT_OPINION_CONFIDENCE",
    "ENTITY_RE",
    "FACT_KINDS",
    "RetainFact",
    "RetainParse",
    "INVALID_UNKNOWN",
    "InvalidMark",
    "display_name",
    "find_entities",
    "invalid_mark",
    "mark_invalid",
    "parse_retain_bullet",
    "slugify",
    "validate_bullet",
]

FACT_KINDS = {"W": "world", "B": "experience", "O": "opinion", "S": "observation"}
# An opinion written without c= is a belief held with moderate, not certain, confidence.
DEFAULT_OPINION_CONFIDENCE = 0.7

# "@" + a slug (names.SLUG: a letter, then letters/digits/_/-, not ending in "-", so "@Peter-" at a
# dash stays "Peter"; or a run of CJK characters). The look-behinds keep e-mail addresses (a@b.com),
# "@@x" and path/URL pieces ("/@user") out, but not a mention inside CJK text ("在@Fernwerk工作").
# (ScriptPattern: the CJK class is compiled only for a text that may hold CJK.)
ENTITY_RE = ScriptPattern(rf"(?<!\w)(?<![@./+-])@(?P<slug>{SLUG_SPACED})",
                          rf"(?<!{WORD_NOT_CJK})(?<![@./+-])@(?P<slug>{SLUG})")
_CODE_SPAN_RE = re.compile(r"`[^`]*`")  # "`@dataclass`" is code, not a mention

_GRAMMAR = '"W|B|O|S[(c=0..1)] text"'
_CONFIDENCE_RE = re.compile(r"\s*c\s*=\s*(?P<num>[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+))\s*(?P<pct>%)?\s*", re.I)
_PAREN_RE = re.compile(r"(?P<space>\s*)\((?P<body>[^()\n]*)\)")
_SEP_RE = re.compile(r"\s*:\s*|\s+")
BULLET_PREFIX_RE = re.compile(r"^\s*[-*+]\s+")  # "- ", "* ", "+ " before a bullet's text
# "~~fact~~ (invalid since 2025-12-01: reason)": greedy, so a "~~" inside the fact stays in it.
_INVALID_RE = re.compile(
    r"^~~(?P<inner>\S(?:.*\S)?)~~(?:\s*\(invalid since (?P<day>\d{4}-\d{2}-\d{2})(?::\s*(?P<reason>.*?))?\))?\s*$",
    re.S)
# The day a fact struck by hand in an undated file stopped being true: unknown, stored as the far past.
INVALID_UNKNOWN = "0001-01-01"


@dataclass(frozen=True)
class RetainFact:
    """One parsed Retain bullet."""

    kind: str  # world | experience | opinion | observation
    content: str  # text after the prefix, mentions shown as display names ("@The-Castle" -> "The Castle")
    entities: tuple[str, ...]  # slugs as written after "@", deduplicated in order of appearance
    confidence: float | None  # opinions only: given (clamped to 0..1) or DEFAULT_OPINION_CONFIDENCE
    occurred: DateRange | None  # the time the text states, if any
    bullet: str = ""  # the bullet's text as written, without an invalid mark ("W @Peter: ...")
    invalid_at: str | None = None  # ISO day it stopped being true (INVALID_UNKNOWN: unknown), None: valid
    invalid_reason: str | None = None


@dataclass(frozen=True)
class RetainParse:
    """A parse result: ``fact`` None means malformed (index the line as plain text)."""

    fact: RetainFact | None
    warnings: tuple[str, ...]  # one-line messages without a path; the caller adds path:line


@dataclass(frozen=True)
class InvalidMark:
    """A struck bullet's parts: the fact as written, the day it stopped being true, the reason."""

    inner: str
    day: str | None  # None: struck by hand without the annotation
    reason: str | None


@dataclass(frozen=True)
class _Head:
    letter: str
    rest: str
    confidence: float | None
    warnings: tuple[str, ...]
    refusal: str | None  # why `memory retain` would refuse this bullet although it parses


# --------------------------------------------------------------------------------------- entities


def _code_mask(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _CODE_SPAN_RE.finditer(text)]


def _mentions(text: str) -> list[re.Match[str]]:
    """@Slug matches outside inline code whose first character is a real letter."""
    code = _code_mask(text)
    found = []
    for m in ENTITY_RE.finditer(text):
        if not m["slug"][0].isalpha():  # [^\W\d_] also admits numerals such as "²"
            continue
        if any(start <= m.start() < end for start, end in code):
            continue
        found.append(m)
    return found


def find_entities(text: str) -> tuple[str, ...]:
    """The ``@Slug`` mentions in ``text`` (not e-mail addresses, not inside `code`), deduplicated in order."""
    if not isinstance(text, str):
        return ()
    return tuple(dict.fromkeys(m["slug"] for m in _mentions(text)))


def _render(text: str) -> str:
    """Mentions replaced by display names, whitespace collapsed."""
    pieces: list[str] = []
    last = 0
    for m in _mentions(text):
        pieces.append(text[last : m.start()])
        pieces.append(display_name(m["slug"]))
        last = m.end()
    pieces.append(text[last:])
    return " ".join("".join(pieces).split())


def _without_mentions(text: str) -> str:
    """The text with mentions blanked, so that "@May" or "@March-Group" never reads as a date."""
    chars = list(text)
    for m in _mentions(text):
        chars[m.start() : m.end()] = " " * (m.end() - m.start())
    return "".join(chars)


# ------------------------------------------------------------------------------------------ grammar


def _quote(text: str, limit: int = 40) -> str:
    flat = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    if len(flat) > limit:
        flat = flat[: limit - 1] + "…"
    return f'"{flat}"'


def _malformed(text: str) -> str:
    message = f"not a Retain fact: expected {_GRAMMAR}, got {_quote(text)}"
    head = text.strip()[:2]
    if head[:1] in ("w", "b", "o", "s") and (len(head) == 1 or not head[1].isalnum()):
        message += " (the prefix letter is uppercase)"
    return message


def _parse_head(text: str) -> _Head | str:
    """Split a bullet into prefix, confidence and the rest; a str result is the malformed-warning."""
    s = text.strip()
    if not s or s[0] not in FACT_KINDS:
        return _malformed(s)
    letter, pos = s[0], 1
    warnings: list[str] = []
    refusal: str | None = None
    confidence: float | None = None
    paren = _PAREN_RE.match(s, pos)
    # "O (c=0.8) text" is tolerated; "W (see notes) text" is content, so a spaced paren must be a c=.
    if paren and (not paren["space"] or re.match(r"\s*c\s*=", paren["body"], re.I)):
        body = paren["body"]
        m = _CONFIDENCE_RE.fullmatch(body)
        if letter != "O":
            message = f"c= is only for opinions (O); ignored on {letter}"
            warnings.append(message)
            refusal = message
        elif m is None:
            shown = _quote("(" + body + ")")
            return f"not a Retain fact: bad confidence {shown}, expected (c=0..1) or (c=0..100%)"
        else:
            number = m["num"].replace(",", ".")
            value = float(number) / (100.0 if m["pct"] else 1.0)
            confidence = min(1.0, max(0.0, value))
            if confidence != value:
                shown = number + ("%" if m["pct"] else "")
                warnings.append(f"confidence {shown} clamped to {confidence:.1f}")
                refusal = f"confidence {shown} is outside 0..1 (or 0..100%)"
        pos = paren.end()
    after = s[pos:]
    if not after:
        return f"not a Retain fact: empty content after {_quote(s)}"
    sep = _SEP_RE.match(after)
    if sep is None:
        return _malformed(s)  # "Wfoo", "O(c=0.8)x": the prefix must be followed by a space or ":"
    rest = after[sep.end() :]
    if not _without_mentions(rest).strip().strip(":").strip():
        return f"not a Retain fact: empty content after {_quote(s[:pos] + after[: sep.end()] + rest)}"
    if letter == "O" and confidence is None:
        confidence = DEFAULT_OPINION_CONFIDENCE
    return _Head(letter, rest, confidence, tuple(warnings), refusal)


def invalid_mark(text: str) -> InvalidMark | None:
    """The parts of a struck bullet ("~~W ...~~ (invalid since DAY: reason)"), or None when not struck."""
    m = _INVALID_RE.match(text.strip())
    if m is None:
        return None
    reason = " ".join((m["reason"] or "").split()) or None
    day = m["day"]
    try:
        date.fromisoformat(day) if day else None
    except ValueError:
        day = None  # "invalid since 2025-13-45": struck, but on no real day
    return InvalidMark(m["inner"], day, reason)


def mark_invalid(bullet: str, day: str | None, reason: str | None = None) -> str:
    """The struck form of a bullet's text: "~~W @Peter: x~~ (invalid since 2025-12-01: reason)".

    Without a day (or INVALID_UNKNOWN) it is struck only, as by hand: "~~W @Peter: x~~".
    """
    if day in (None, INVALID_UNKNOWN):
        return f"~~{bullet.strip()}~~"
    note = f"invalid since {day}" + (f": {' '.join(reason.split())}" if reason and reason.strip() else "")
    return f"~~{bullet.strip()}~~ ({note})"


def stated_range(text: str, written: date | None, date_order: str | None,
                 languages: tuple[str, ...]) -> DateRange | None:
    """The time range a fact states: the English grammar, else (with a day written) the phrase in
    another language it shows, or one of `languages` ("Zahnarzt am 3. Dezember", dates.languages)."""
    found = resolve_stated_range(text, written, date_order)
    if found is not None or written is None:
        return found
    from datetime import datetime

    from ..dates.languages import extract_window  # lazy: only a fact with no English time phrase

    window, _ = extract_window(text, datetime(written.year, written.month, written.day), languages, fact=True)
    return DateRange(window.start, window.end) if window is not None else None


def parse_retain_bullet(text: str, written: date | None, date_order: str | None = None,
                        languages: tuple[str, ...] = ()) -> RetainParse:
    """Parse one Retain list item's text (without the "- " marker) written on day ``written``.

    ``date_order`` ("DMY" | "MDY") reads slashed dates in the time range the fact states, and
    ``languages`` (the workspace's `[time] languages`) the other languages it may state it in.

    Never raises. A malformed bullet gives ``RetainParse(None, (warning,))``; a fact may still carry
    warnings (a clamped confidence, a c= on a non-opinion). A struck bullet (module docstring) is
    the fact it strikes, with `invalid_at` set.
    """
    if not isinstance(text, str):
        return RetainParse(None, (f"not a Retain fact: expected {_GRAMMAR}, got {type(text).__name__}",))
    mark = invalid_mark(text)
    bullet = mark.inner if mark else text.strip()
    head = _parse_head(bullet)
    if isinstance(head, str):
        return RetainParse(None, (head,))
    invalid_at = None
    if mark is not None:
        invalid_at = mark.day or (written.isoformat() if written else INVALID_UNKNOWN)
    fact = RetainFact(
        kind=FACT_KINDS[head.letter],
        content=_render(head.rest),
        entities=find_entities(head.rest),
        confidence=head.confidence,
        occurred=stated_range(_without_mentions(head.rest), written, date_order, languages),
        bullet=" ".join(bullet.split()),
        invalid_at=invalid_at,
        invalid_reason=mark.reason if mark else None,
    )
    return RetainParse(fact, head.warnings)


def normalize_bullet(text: str) -> str:
    """'- W @Peter: x' or 'W @Peter: x' -> 'W @Peter: x' (one line, outer spaces trimmed)."""
    text = " ".join(text.strip().split())
    return BULLET_PREFIX_RE.sub("", text, count=1)


def validate_bullet(text: str) -> str | None:
    """Check a bullet for ``memory retain``: None if it may be written, else why it is refused.

    Stricter than parsing: what indexing would merely warn about (a confidence outside 0..1, a c= on a
    non-opinion) is refused here, as are line breaks and control characters, which would corrupt the
    Markdown list the bullet is appended to.
    """
    if not isinstance(text, str):
        return f"a Retain fact must be text, got {type(text).__name__}"
    if len(text) > MAX_FACT_CHARS:  # before any pattern runs over it (a 20 MB bullet took 6 s)
        return f"a Retain fact is at most {MAX_FACT_CHARS:,} characters; this one has {len(text):,}"
    stripped = text.strip()
    if "\n" in stripped or "\r" in stripped:
        return "a Retain fact must be a single line"
    if any(unicodedata.category(ch) == "Cc" and ch != "\t" for ch in stripped):
        return "a Retain fact must not contain control characters"
    head = _parse_head(stripped)
    if isinstance(head, str):
        return head
    return head.refusal
