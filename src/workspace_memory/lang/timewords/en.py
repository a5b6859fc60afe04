"""English: only the words that say which way a question or a line looks (the grammar is dates.points)."""

FUTURE = ("will", "'ll", "going to", "gonna", "next", "upcoming", "coming", "planned", "plan", "plans",
          "planning", "scheduled", "due", "tomorrow", "what's on", "what is on", "whats on", "expected",
          "expecting", "shall", "booked", "book", "booking", "reserved", "reservation")
PAST = ("did", "was", "were", "had", "happened", "went", "ago", "last", "yesterday", "previously", "used to",
        "earlier")
# A past told in a line of notes (dates.lean.line_month_lean: "Moved to Berlin in January" is the January
# gone by, "Switches to Siemens in January" the coming one): a past form of a verb. Regular expressions
# over the line as written; FUTURE words win ("planned", "booked").
NARRATED = (
    r"(?i)\b(?!(?:need|feed|speed|seed|bed|red|shed|breed|hundred|interested|excited|tired|married|based|"
    r"supposed|used|worried|scared|bored|pleased|closed|limited)\b)[A-Za-z]{2,}ed\b",
    r"(?i)\b(?:left|began|came|got|took|made|bought|sold|quit|became|met|gave|found|lost|spent|sent|won|"
    r"wrote|told|said|saw|ran|flew|drove|knew|felt|kept|paid|broke|chose)\b",
)
# "moved the appointment from Nov 27 to Dec 2" names two days, not a range (dates.parse.named_times)
MOVED = ("moved", "moves", "move", "postponed", "rescheduled", "pushed", "shifted", "changed", "brought")
