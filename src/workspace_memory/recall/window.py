"""A time phrase in the question is evidence about *when*, never a filter (DESIGN §3).

People tell of an event a day or a week after it ("yesterday I..." written on Tuesday about
Monday), "the last day of school" is no date, and a parse can be wrong. So the window a phrase
names (recall.query) does three things, and only --since/--until filter:

1. **A candidate pool of its own**, as an entity is: the best lexical matches inside the window
   join the candidates even when better matches elsewhere fill the global pool. A question that
   names nothing but events ("what happened around Nov 27", "what did we do last week",
   "anything yesterday?") takes the entries inside the window instead, up to PER_DAY of each day;
   when no entry lies inside ("on Sep 25", a day nothing was written), those of the EMPTY_WIDEN
   days on each side, which the factor below ranks by how near they are.
2. **A factor** on entries outside it, scaled by how sure the parse is (timeparse confidence c):

       window = miss + (1 - miss) x 0.5 ^ (gap / half_life),     miss = 1 - (1 - WINDOW_MISS) x c

   where gap is the number of days between the entry's day (or the range its fact states) and
   the window, and half_life is AFTER_HALF_LIFE days after the window (an event is told a day or
   a week later) or BEFORE_HALF_LIFE before it (plans told ahead). Inside, the factor is 1; far
   away, `miss` (0.7 for a sure phrase, nearer 1 for a doubtful one); undated entries (MEMORY.md,
   bank pages) count as far away.

   **Stated beats written.** An entry whose nearest day to the window is one it *states* (a range
   its fact states, "In Porto (Mar 3–9)", or a day it names, "Dec 4 is the deep-dive") is placed
   in time by what it says; one whose nearest day is the day it was written, only by when it was
   told, which is not when it happened ("Lena is travelling less this spring", written in March,
   says nothing of March). The second gets a factor of its own, `told = 1 - (1 - TOLD) x c`
   (and one that states a range reaching far beyond the window, "ends in October" for mid-October,
   the same in proportion to its days outside):
   inside the window a stated date counts more than a written day and a shared word, and the
   order among entries placed by their written day is as before, inside the window or out. Not
   for an events-only question ("what happened last weekend?"): it asks for the days' entries,
   and what was written on a day is what happened on it.
3. **An order** for events-only questions: the entries inside rank first, the best of each day
   first (then each day's second best, ...), so the list covers the days asked about; around a
   day ("anything around Nov 20?"), that day first in each round, then its neighbours by distance.
"""

from __future__ import annotations

from datetime import date, timedelta

from ..index.base import ChunkRow, Term
from .candidates import Candidate

WINDOW_MISS = 0.7  # the factor of an entry far outside a sure window
TOLD = 0.9  # the factor's share for an entry that states no date (only written on a day): see the docstring
AFTER_HALF_LIFE = 2.0  # days after the window at which an entry keeps half the way to 1 (told later)
BEFORE_HALF_LIFE = 1.0  # days before it (plans, "tomorrow we fly")
PER_DAY = 12  # entries of each day an events-only question takes from the window
EMPTY_WIDEN = timedelta(days=7)  # a window that holds no entry is browsed this much wider
EVENTS_FLOOR = 0.5  # relevance of an entry inside the window for an events-only question
# Relevance of an entry inside the window that matched no word of a question whose other entries
# inside did (recall.engine: "who is travelling next week?"): below those, and below a match outside
# the window of relevance above WINDOW_FLOOR / WINDOW_MISS. Fitted on the en and de questions of
# benchmarks/time_questions.py, reported on es, fr and zh (docs/recall.md).
WINDOW_FLOOR = 0.3

Window = tuple[date | None, date | None]


def without_plan_words(terms: list[Term], language: str | None) -> list[Term]:
    """The question's terms without the words that ask for what is planned ("what's planned next week?",
    "Was ist für nächste Woche geplant?", "下周有什么安排？"): with a time phrase, such a question asks
    for the window's events as "what happened" does. The words are the language's FUTURE words
    (lang/timewords/<code>.py), a language without them none."""
    from .. import lang

    table = lang.table("timewords", language) if language else None
    plans = frozenset(w for w in getattr(table, "FUTURE", ()) if " " not in w)
    if not plans:
        return terms
    return [t for t in terms if not (t.label in plans if t.cjk else all(w in plans for w in t.words))]


def browsed(window: Window, empty: bool) -> Window:
    """The days an events-only question browses: the window, or around it when it holds no entry."""
    if not empty:
        return window
    start, end = window
    return (start - EMPTY_WIDEN if start else None, end + EMPTY_WIDEN if end else None)


def gap_days(row: ChunkRow, window: Window) -> float:
    """Days between the entry and the window; 0 inside. The entry's days are its own (the day it was
    written, or the range its fact states) and those it names ("Dec 4 is the API deep-dive": Dec 4);
    the nearest counts.

    Negative when the entry lies before the window, positive after it, infinite when undated.
    """
    return placed(row, window)[0]


def _gap(t_start_s: str | None, t_end_s: str | None, window: Window) -> float:
    if not t_start_s:
        return float("inf")
    start, end = window
    t_start, t_end = _day(t_start_s), _day(t_end_s or t_start_s)
    if end is not None and t_start is not None and t_start > end:
        return float((t_start - end).days)
    if start is not None and t_end is not None and t_end < start:
        return -float((start - t_end).days)
    return 0.0


def _states_own_range(row: ChunkRow) -> bool:
    """Whether the entry's own days are a range its fact states ("In Porto (Mar 3–9)"), not the day it
    was written."""
    own = row.get("t_start")
    return own is not None and (row.get("day") != own or row.get("t_end") != own)


def how_inside(row: ChunkRow, window: Window) -> str | None:
    """What puts the entry inside the window, for --explain: "written 2025-11-10" (its own day or the
    range its fact states), "names 2025-12-04" (a day the line names), or None (outside)."""
    if _gap(row.get("t_start"), row.get("t_end"), window) == 0:
        own = row.get("t_start") or ""
        return f"states {own}..{row.get('t_end')}" if _states_own_range(row) else f"written {own}"
    for start, end in row.get("named") or ():
        if _gap(start, end, window) == 0:
            return f"names {start}" if start == end else f"names {start}..{end}"
    return None


def _day_inside(row: ChunkRow, window: Window) -> str:
    """The day the entry is filed under when it lies inside the window: the first day of its own that
    does (the day it was written, or of the range its fact states: "Dentist on Dec 8", written on
    Dec 4, is filed under Dec 8 for "next week"), else the first day it names that does."""
    if _gap(row.get("t_start"), row.get("t_end"), window) == 0:
        if _states_own_range(row):
            return _first_inside(row.get("t_start") or "", window)
        return row.get("day") or row.get("t_start") or ""
    for start, end in row.get("named") or ():
        if _gap(start, end, window) == 0:
            return _first_inside(start, window)
    return ""


def _first_inside(start: str, window: Window) -> str:
    """The first day of a range that starts at `start` (ISO) and reaches into the window."""
    return max(start, window[0].isoformat()) if window[0] is not None else start


def agenda_day(row: ChunkRow, today: date, until: date) -> str:
    """For a browse that looks ahead (`--until` after today, no words): the first day from today to
    `until` the entry states or names ("Dentist on Dec 7", "In Lisbon Dec 4-6"), or a day after today
    it was filed under (a log dated ahead is a plan); "" when none: an entry only written today or
    before is no plan for those days."""
    days = []
    own_start, own_end = row.get("t_start"), row.get("t_end")
    if own_start and (_states_own_range(row) or own_start > today.isoformat()):
        days.append((own_start, own_end or own_start))
    days += list(row.get("named") or ())
    inside = [max(start, today.isoformat()) for start, end in days if _gap(start, end, (today, until)) == 0]
    return min(inside, default="")


def _day(text: str) -> date | None:
    try:
        return date.fromisoformat(text)  # open ends are far dates (index.base.OPEN_START, OPEN_END)
    except ValueError:
        return None


def told(row: ChunkRow, window: Window, confidence: float, events_only: bool = False) -> float:
    """The "stated beats written" factor of the module docstring, `1 - (1 - TOLD) x c x vague` (`placed`):
    1.0 for an entry that states a time inside the window, TOLD for one placed by the day it was
    written (a sure phrase); 1.0 for every entry of an events-only question."""
    if events_only:
        return 1.0
    return 1.0 - (1.0 - TOLD) * confidence * placed(row, window)[1]  # a doubtful phrase: less


def placed(row: ChunkRow, window: Window) -> tuple[float, float]:
    """(gap_days, vague): the gap to the window from the entry's nearest day, and how vaguely that day
    places the entry in the window: 1.0 for the day it was written (when it was told, not when it
    happened); for a range its fact states or a day it names, the share of that range's days that lie
    outside the window ("ends in October" for mid-October: 0.68; "Mar 3-9" for March: 0); 0 for a
    range wholly outside (it states another time, which the window factor measures)."""
    own = (row.get("t_start"), row.get("t_end"))
    best = (_gap(*own, window), _vague(*own, window) if _states_own_range(row) else 1.0)
    for start, end in row.get("named") or ():
        named = (_gap(start, end, window), _vague(start, end, window))
        if abs(named[0]) < abs(best[0]) or abs(named[0]) == abs(best[0]) and named[1] < best[1]:
            best = named
    return best


def _vague(t_start_s: str | None, t_end_s: str | None, window: Window) -> float:
    """The share of a stated range's days outside the window (0 when the range lies wholly outside)."""
    start, end = _day(t_start_s or ""), _day(t_end_s or t_start_s or "")
    if start is None or end is None or end < start or _gap(t_start_s, t_end_s, window) != 0:
        return 0.0
    low, high = max(start, window[0] or start), min(end, window[1] or end)
    return 1.0 - ((high - low).days + 1) / ((end - start).days + 1)


def factor(row: ChunkRow, window: Window, confidence: float) -> float:
    """The window factor of the module docstring (1.0 inside the window)."""
    gap = gap_days(row, window)
    if gap == 0:
        return 1.0
    miss = 1.0 - (1.0 - WINDOW_MISS) * confidence
    half_life = AFTER_HALF_LIFE if gap > 0 else BEFORE_HALF_LIFE
    near = 0.5 ** (abs(gap) / half_life) if half_life > 0 else 0.0
    return miss + (1.0 - miss) * near


def by_day_order(candidates: list[Candidate], window: Window,
                 center: tuple[date, date] | None = None) -> dict[int, tuple[int, int]]:
    """For an events-only question: each candidate inside the window -> (its rank within its day,
    its day's distance from `center`).

    `candidates` must be best first. Sorting by this key and then the score lists every day's
    best entry before any day's second best; around a day ("anything around Nov 20?"), that day
    comes first in each round, then its neighbours by distance (without a center, 0 for every day).
    """
    rank: dict[int, tuple[int, int]] = {}
    seen: dict[str, int] = {}
    for cand in candidates:
        if gap_days(cand.row, window) != 0:
            continue
        day = _day_inside(cand.row, window)
        distance = abs(int(gap_days(cand.row, center))) if center is not None else 0
        rank[cand.chunk_id] = (seen.get(day, 0), distance)
        seen[day] = rank[cand.chunk_id][0] + 1
    return rank
