"""German time words (see the package docstring)."""

MONTHS = {"januar": 1, "jänner": 1, "jan": 1, "februar": 2, "feb": 2, "märz": 3, "maerz": 3, "mär": 3,
          "april": 4, "apr": 4, "mai": 5, "juni": 6, "jun": 6, "juli": 7, "jul": 7, "august": 8, "aug": 8,
          "september": 9, "sept": 9, "sep": 9, "oktober": 10, "okt": 10, "november": 11, "nov": 11,
          "dezember": 12, "dez": 12}
WEEKDAYS = {"montag": 0, "mo": 0, "dienstag": 1, "di": 1, "mittwoch": 2, "donnerstag": 3, "freitag": 4,
            "samstag": 5, "sonnabend": 5, "sonntag": 6}
NUMBERS = {"ein": 1, "einem": 1, "einer": 1, "eine": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6,
           "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwölf": 12}
UNITS = {"tag": "day", "tage": "day", "tagen": "day", "woche": "week", "wochen": "week", "monat": "month",
         "monate": "month", "monaten": "month", "jahr": "year", "jahre": "year", "jahren": "year"}
WORDS = {
    "gestern": "yesterday", "heute": "today", "morgen": "tomorrow", "vorgestern": "2 days ago",
    "am": "on", "an": "", "im": "in", "in": "in", "seit": "since", "ab": "since", "vom": "from", "von": "from",
    "bis": "to", "zum": "", "während": "during", "um": "around", "herum": "", "gegen": "around",
    "letzte": "last", "letzten": "last", "letztes": "last", "letzter": "last", "vorige": "last",
    "vorigen": "last", "voriges": "last", "vergangene": "last", "vergangenen": "last",
    "nächste": "next", "nächsten": "next", "nächstes": "next", "kommende": "next", "kommenden": "next",
    "kommendes": "next", "diese": "this", "diesen": "this", "dieses": "this", "dieser": "this",
    "woche": "week", "wochenende": "weekend", "monat": "month", "jahr": "year",
}
REWRITES = (
    # A third of a month ("mid-October": its middle ten days).
    (r"\bmitte\s+{MONTH}\b", "mid {1:month}"),
    (r"\banfang\s+{MONTH}\b", "early {1:month}"),
    (r"\bende\s+{MONTH}\b", "late {1:month}"),
    (r"\b(?:jeden|jede|jedes|immer)\s+{WEEKDAY}\w*", ""),  # habits: "jeden Sonntag(morgen)"
    (r"\b(?:montags|dienstags|mittwochs|donnerstags|freitags|samstags|sonntags)\b", ""),
    (r"\bheute\s+(?:morgen|früh|abend|nachmittag)\b", "this morning"),
    (r"\bvor\s+{N}\s+{UNIT}\b", "{1:num} {2:unit}s ago"),
    (r"\bin\s+{N}\s+{UNIT}\b", ""),  # "in sechs Monaten": a duration ahead, not a day
    (r"\bzwischen\s+(?:dem\s+)?(\d{1,2})\.?\s+und\s+(?:dem\s+)?(\d{1,2})\.", "from {1} to {2}"),
    (r"\bum\s+den\s+(\d{1,2})\.(?!\s*(?:\d|{MONTH}\b))", "around the {1:th} ;"),
    (r"\b(?:am|den|dem|zum)\s+(\d{1,2})\.(?!\s*(?:\d|{MONTH}\b|bis\b|und\b))", "on the {1:th} ;"),
    # "Montag, den 23. November": the article of a date in a letter's style is no word of the phrase
    (r"\b(?:den|dem)\s+(?=\d{1,2}\.\s*{MONTH}\b)", ""),
    (r"(\d{1,2})\.(?=\s*(?:{MONTH}\b|bis\b|und\b|[-–]))", "{1}"),
    (r"\b{WEEKDAY}(?:abend|morgen|nachmittag|vormittag|mittag)\b", "{1:weekday}"),
)
FUTURE = ("gebucht", "reserviert", "wird", "werde", "wirst", "werden", "geplant", "plane", "planen", "steht", "stehen", "ansteht",
          "nächste", "nächsten", "nächstes", "kommende", "kommenden", "morgen", "vorhaben")
PAST = ("war", "waren", "hatte", "hatten", "gemacht", "passiert", "passierte", "gewesen", "letzte", "letzten",
        "letztes", "gestern", "habe", "haben", "hast")
# A past told in a line of notes (dates.lean.line_month_lean: "Ist im Januar umgezogen" is the January
# gone by, "Wechselt im Januar zu Siemens" the coming one): a perfect (an auxiliary, then a participle,
# lower-case as a participle is and a noun is not) or a common preterite.
NARRATED = (
    r"\b(?:[Hh]at|[Hh]atte|[Hh]aben|[Hh]abe|[Hh]ast|[Ii]st|[Ss]ind|[Bb]in|[Ww]ar|[Ww]aren)\b.*"
    r"\b(?:[a-zäöü]*ge[a-zäöüß]{3,}(?:t|en)|(?:ver|be|er|ent|zer)[a-zäöüß]{3,}(?:t|en)|[a-zäöü]{3,}iert)\b",
    r"(?i)\b(?:zog|zogen|kam|kamen|ging|gingen|fing|begann|wechselte|wechselten|kündigte|heiratete)\b",
)
NOW = frozenset({"jetzt", "gerade", "momentan"})
