"""English: only the words that say which way a question or a line looks (the grammar is timepoints)."""

FUTURE = ("will", "'ll", "going to", "gonna", "next", "upcoming", "coming", "planned", "plan", "plans",
          "planning", "scheduled", "due", "tomorrow", "what's on", "what is on", "whats on", "expected",
          "expecting", "shall")
PAST = ("did", "was", "were", "had", "happened", "went", "ago", "last", "yesterday", "previously", "used to",
        "earlier")
