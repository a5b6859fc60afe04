"""English: only the words that say which way a question or a line looks (the grammar is dates.points)."""

FUTURE = ("will", "'ll", "going to", "gonna", "next", "upcoming", "coming", "planned", "plan", "plans",
          "planning", "scheduled", "due", "tomorrow", "what's on", "what is on", "whats on", "expected",
          "expecting", "shall", "booked", "book", "booking", "reserved", "reservation")
PAST = ("did", "was", "were", "had", "happened", "went", "ago", "last", "yesterday", "previously", "used to",
        "earlier")
# "moved the appointment from Nov 27 to Dec 2" names two days, not a range (dates.parse.named_times)
MOVED = ("moved", "moves", "move", "postponed", "rescheduled", "pushed", "shifted", "changed", "brought")
