"""Query understanding: what to search for, and which filters and preferences apply.

Explicit options (--since, --until, --kind, --entity) are the only hard filters. From the
query text itself:
- a time phrase ("last week", "in November 2025", "around Nov 27", "On Friday before
  10.01.2024") is evidence about *when*, not a filter (DESIGN §3): the window it names is a
  candidate pool of its own and entries inside it rank higher, by as much as the parse is
  sure (dates.parse's confidence); a strong match outside is never dropped. A sure phrase
  leaves the search text; a doubtful one ("on Friday", "03/04/2024" without a configured
  date order) keeps its words there too. A window that no entry falls in gets a notice;
- entity names (`@Peter`, a bare name or alias, fuzzy for typos) boost entries about them;
- "what does Peter prefer / think of / like" marks an opinion question: Peter's
  opinions join the candidates and rank first;
- every rule that reads words reads those of the question's language (lang.identify: its script,
  its small words, `[time] languages` and the languages the workspace's notes are written in, as
  the index measured them), from lang/words/<code>.py; a language without data for a
  rule leaves the rule out (neutral), never the English one;
- a question about the present state ("where does Peter live", "what is Peter's address")
  lets a newer fact replace an older one (recall.supersession); a bare keyword or a
  question about the past does not.
"""

from __future__ import annotations

from datetime import date, datetime

from .. import lang
from ..dates.parse import DOUBTFUL, extract_time_window, parse_since
from ..errors import UserError
from ..facts.entities import mentioned, resolve
from ..index.base import Filters, Store
from ..markdown.names import CJK, WORD_NOT_CJK, ScriptPattern
from ..values import Value
from .settings import parse_sources

KINDS = ("world", "experience", "opinion", "observation", "note", "session")
_KIND_ALIASES = {"w": "world", "b": "experience", "o": "opinion", "s": "observation", "opinions": "opinion",
                 "facts": "fact", "notes": "note"}
_NONE: frozenset[str] = frozenset()


def _words(text: str) -> list[str]:
    """Lower-cased words; a name glued to CJK text is a word of its own ("Priyaって誰" -> priya, って誰)."""
    return _WORD.findall(text.lower().replace("’", "'"))


# (ScriptPattern: the CJK class is compiled only for a text that may hold CJK.)
_WORD = ScriptPattern(r"(?:\w|')+", rf"(?:{WORD_NOT_CJK}|')+|[{CJK}]+")


# A plain class, not a dataclass: `dataclasses` imports `inspect` (with ast, dis and tokenize),
# about a sixth of a cold `memory recall` on this project's machine (docs/benchmarks.md, "Working record: cold start",
# fifth pass). values.Value gives it equality, repr and `replace()`; `as_dict()` gives its fields.
class RecallRequest(Value):
    """What the caller asked for (CLI options, MCP arguments, library call)."""

    __slots__ = ("query", "k", "since", "until", "kind", "entity", "mode", "budget", "explain", "workspaces",
                 "all_workspaces", "source", "include_invalid")
    __hash__ = None  # type: ignore[assignment] - mutable, like the dataclass it was

    def __init__(self, query: str, k: int = 10, since: str | None = None, until: str | None = None,
                 kind: str | None = None, entity: str | None = None, mode: str = "auto", budget: int | None = None,
                 explain: bool = False, workspaces: tuple[str, ...] = (), all_workspaces: bool = False,
                 source: str | None = None, include_invalid: bool = False) -> None:
        self.query = query
        self.k = k
        self.since = since
        self.until = until
        self.kind = kind
        self.entity = entity
        self.mode = mode
        self.budget = budget
        self.explain = explain
        # Recall across workspaces of a Postgres store (results then name their `workspace`).
        self.workspaces = workspaces
        self.all_workspaces = all_workspaces
        self.source = source  # memory | sessions | all (comma-separated allowed); None: [recall] sources
        self.include_invalid = include_invalid  # also facts struck as no longer true (`memory forget`)


# A plain class, not a dataclass: creating a dataclass costs about a millisecond at import, and
# every cold recall imports this module. `understand` fills it in; the class attributes are the
# defaults of what it does not set.
class Understood:
    """The query after understanding: search text plus filters and boosts."""

    since: date | None = None
    until: date | None = None
    window: tuple[date | None, date | None] | None = None  # the days a time phrase names (evidence)
    window_center: tuple[date, date] | None = None  # "around Nov 20": Nov 20 (the window is Nov 17-23)
    entity_filter: tuple[str, ...] = ()  # entity keys (lower-cased slugs)
    entity_boost: tuple[str, ...] = ()  # entities the query names (@Peter, Peter, an alias)
    entity_names: dict[str, frozenset[str]] = {}  # never mutated; each boosted entity's names
    # The question's words that name those entities, or only ask for an opinion ("what does Pete
    # like", "who is Petr"): a question of nothing else asks about the entity as a whole.
    about_words: frozenset[str] = frozenset()
    opinion = False  # the question asks what someone prefers / thinks / likes
    where = False  # the question asks for a place (recall.place)
    present = False  # the question asks how things are now (supersession applies)
    time_phrase: str | None = None
    window_confidence = 0.0  # how sure the time phrase's reading is (dates.parse)
    window_empty = False  # no entry that the filters let through lies inside the window
    sources: tuple[str, ...] = ()  # empty: every source
    language: str | None = None  # the question's language (lang.identify), None: nothing says
    words = None  # that language's lang/words table (a module), None: no data, every rule neutral
    languages: tuple[str, ...] = ("en",)  # the workspace's `[time] languages` (a line's language is one of them)

    def __init__(self, text: str, kinds: tuple[str, ...] = (), include_invalid: bool = False) -> None:
        self.text = text
        self.kinds = kinds
        self.include_invalid = include_invalid
        self.notices: list[str] = []

    def filters(self) -> Filters:
        """The hard filters, as the store boundary takes them."""
        return Filters(self.since, self.until, self.kinds, self.entity_filter, sources=self.sources,
                       include_invalid=self.include_invalid)


def parse_kind(value: str | None) -> tuple[str, ...]:
    """--kind world|experience|opinion|observation|note|fact (comma-separated allowed)."""
    if not value:
        return ()
    kinds = []
    for part in value.split(","):
        name = _KIND_ALIASES.get(part.strip().lower(), part.strip().lower())
        if name not in KINDS and name != "fact":
            raise UserError(f"--kind {part!r}: expected one of {', '.join(KINDS)} (or fact)")
        kinds.append(name)
    return tuple(kinds)


def understand(req: RecallRequest, now: datetime, store: Store, date_order: str | None = None,
               languages: tuple[str, ...] = ("en",)) -> Understood:
    """Apply the rules in the module docstring to a request (`date_order` and `languages`: the
    workspace's `[time]`, to which the languages its notes are written in are added, as the index
    measured them; a question with no English time phrase may hold one in another of `languages`,
    read by dates.languages)."""
    from ..lang.identify import question_language, workspace_languages

    languages = workspace_languages(languages, store.languages())
    u = Understood(text=req.query.strip(), kinds=parse_kind(req.kind), include_invalid=req.include_invalid)
    if req.source:
        try:
            u.sources = parse_sources(req.source)
        except ValueError as exc:
            raise UserError(str(exc)) from None
    try:
        u.since = parse_since(req.since, now) if req.since else None
        u.until = parse_since(req.until, now) if req.until else None
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if u.until is not None and u.since is None and u.until > now.date():
        u.since = now.date()  # `--until +7d` alone: the coming days, from today (not every day before)
    if u.since and u.until and u.since > u.until:
        raise UserError(f"--since {req.since} is after --until {req.until}")
    entities = store.entities()
    if req.entity:
        key = resolve(entities, req.entity)
        if key is None:
            raise UserError(f"--entity {req.entity!r}: no such entity (`memory entities` lists them)")
        u.entity_filter = (key,)
    question = u.text
    window, rest = extract_time_window(u.text, now, date_order)
    if window is None:
        # Another language's time words (dates.languages): read only when the question shows that language
        # (its script, its small words, or a month or weekday name beside a digit), or `[time] languages`.
        from ..dates.languages import extract_window  # lazy: a question with an English phrase never needs it

        window, rest = extract_window(u.text, now, languages)
    if window is not None:
        u.time_phrase = window.phrase
        u.window = (window.start, window.end)
        u.window_confidence = window.confidence
        u.window_center = window.center
        if window.confidence >= DOUBTFUL:
            u.text = rest  # a sure phrase has said all it says; a doubtful one's words may be plain words
        u.window_empty = not store.holds_entries(u.filters().within(u.window))
        if u.window_empty:
            u.notices.append(f"no entry is written on or names {window.phrase!r}; entries from the days around "
                             "it rank first")
    u.languages = languages
    u.language = question_language(question, languages)
    u.words = lang.table("words", u.language) if u.language else None
    u.entity_boost = tuple(mentioned(entities, u.text))
    opinion_words = getattr(u.words, "OPINION_WORDS", _NONE)
    if u.entity_boost:
        named = [e for e in entities if e.key in u.entity_boost]
        u.entity_names = {e.key: e.forms() for e in named}
        u.about_words = _about_words(u.text, named, opinion_words)
    u.opinion = holds_any(u.text, opinion_words)
    u.where = holds_any(question, getattr(u.words, "WHERE_WORDS", _NONE))  # asks for a place (recall.place)
    u.present = window is None and not req.since and not req.until and asks_about_now(question, u.words)
    return u


def holds_any(text: str, words: frozenset[str]) -> bool:
    """Whether `text` holds one of `words`: as a word, or inside a run of Chinese or Japanese (no spaces).
    An entry of several words is held when each of them is, in any order: a verb whose particle
    stands apart ("zieht vor", prefers, in "Was zieht Peter vor?"; not "Wann zieht Peter um?", moves)."""
    if not words:
        return False
    found = set(_words(text))
    if not words.isdisjoint(found):
        return True
    if any(" " in w and found.issuperset(w.split()) for w in words):
        return True
    return not text.isascii() and any(w in text for w in words if _is_cjk(w))


def _is_cjk(word: str) -> bool:
    """Kana, Han or Hangul: a word of a script whose words a text may hold glued to others."""
    return any("\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" for ch in word)


def _about_words(text: str, named: list, opinion_words: frozenset[str]) -> frozenset[str]:  # [EntityInfo]
    """The words of `text` that name one of `named` (a word of a form; a capitalised near miss, as
    facts.entities.mentioned reads "Petr") or only ask for an opinion (lower-cased)."""
    name_words = {w for e in named for form in e.forms() for w in _words(form)}
    found = set()
    for raw in _WORD.findall(text.replace("’", "'")):
        word = raw.lower()
        if word in opinion_words or word in name_words or (
                raw[:1].isupper() and len(word) >= 4 and resolve(named, word) is not None):
            found.add(word)
    return frozenset(found)


def asks_about_now(question: str, table=None) -> bool:  # table: a lang/words module or None
    """True for a question about how things are now: "where does Peter live", "what is Peter's
    address", "Peter's current employer", "wo wohnt Peter", "Peter现在住在哪里"; False for a bare keyword
    ("Naschmarkt"), the past ("where did Peter live", "what was his first job"), and a language
    whose table has none of these words (neutral)."""
    if table is None:
        return False
    words = _words(question)
    spaced = " ".join(words)

    def has(name: str) -> bool:
        return holds_any(question, getattr(table, name, _NONE))

    if has("PAST_WORDS") or any(p in spaced for p in getattr(table, "PAST_PHRASES", ())):
        return False
    if has("NOW_WORDS") or any(p in spaced for p in getattr(table, "NOW_PHRASES", ())):
        return True
    leading = getattr(table, "LEADING_VERBS", _NONE)
    question_like = bool(words) and (words[0] in leading or has("QUESTION_WORDS"))
    return question_like and has("PRESENT_WORDS")
