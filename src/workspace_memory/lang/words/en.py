"""English: the engine's own lists, measured on LoCoMo and the natural-question sets (docs/recall.md).

Written by hand, not taken from a maintained list: the `stop-words` package's English list (1,333 words)
holds content words ("computer", "big", "changes", "information") that a question asks about.
"""

STOPWORDS = frozenset(
    """a an and are as at be been but by can could did do does doing done for from had has have having he her
    hers him his how i if in into is it its me my of on or our ours she so than that the their them then there
    these they this those to too us was we were what when where which who whom why will with would you your
    yours about after again all also am any because before being between both during each few further here
    just more most no nor not now off once only other out over own same should some such through under until
    up very tell know""".split()
)
EVENT_WORDS = frozenset(
    """happen happened happens happening anything something everything events event going go went new news
    stuff things thing done doing up""".split()
)
QUESTION_STARTS = frozenset(
    """who what where which when how whose whom why is are am was were does do did has have had can could
    will would should shall may might""".split()
)
QUESTION_WORDS = frozenset("who what where which when how whose whom".split())
LEADING_VERBS = frozenset("is are does do has have can could".split())
PRESENT_WORDS = frozenset("is are am does do has have what's where's who's how's that's it's he's she's".split())
NOW_WORDS = frozenset("currently current now nowadays".split())
PAST_WORDS = frozenset("was were did had previously formerly before earlier originally once former ago first".split())
NOW_PHRASES = ("these days", "at the moment")
PAST_PHRASES = ("used to", "back then", "at first")
OPINION_WORDS = frozenset(
    """prefer prefers preference preferences think thinks thought opinion opinions like likes dislike dislikes
    love loves hate hates favorite favourite feel feels believe believes view views stance enjoy enjoys want
    wants rather""".split()
)
LABELS = frozenset(
    """note notes todo to-do fixme update updates decision decisions status summary idea ideas question questions
    answer q a action actions result results error warning fixed done next goal goals plan plans problem issue
    reason context outcome tip important reminder follow-up followup why what how when where who source sources
    link links see example update log date time today yesterday tomorrow morning afternoon evening night
    monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
    september october november december""".split()
)
STEMMER = None  # FTS5's own Porter stems English on both sides (index and query)

# A "where" question asks for a place (recall.place): its words, and what names a place in a note.
WHERE_WORDS = frozenset("where where's whereabouts".split())
# Prepositions of place right before a bare capitalised name ("in Porto"; recall.place).
LOCATIVES = frozenset("in at from near".split())
