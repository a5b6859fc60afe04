"""Dutch time words (see the package docstring)."""

MONTHS = {"januari": 1, "jan": 1, "februari": 2, "feb": 2, "maart": 3, "mrt": 3, "april": 4, "apr": 4,
          "mei": 5, "juni": 6, "jun": 6, "juli": 7, "jul": 7, "augustus": 8, "aug": 8, "september": 9,
          "sep": 9, "oktober": 10, "okt": 10, "november": 11, "nov": 11, "december": 12, "dec": 12}
WEEKDAYS = {"maandag": 0, "dinsdag": 1, "woensdag": 2, "donderdag": 3, "vrijdag": 4, "zaterdag": 5, "zondag": 6}
NUMBERS = {"een": 1, "één": 1, "twee": 2, "drie": 3, "vier": 4, "vijf": 5, "zes": 6, "zeven": 7, "acht": 8,
           "negen": 9, "tien": 10}
UNITS = {"dag": "day", "dagen": "day", "week": "week", "weken": "week", "maand": "month", "maanden": "month",
         "jaar": "year", "jaren": "year"}
WORDS = {"gisteren": "yesterday", "vandaag": "today", "morgen": "tomorrow", "eergisteren": "2 days ago",
         "op": "on", "sinds": "since", "tot": "to", "van": "from", "rond": "around", "tijdens": "during",
         "vorige": "last", "afgelopen": "last", "volgende": "next", "volgend": "next", "komende": "next",
         "deze": "this", "dit": "this", "maand": "month", "jaar": "year"}
REWRITES = (
    (r"\b(?:elke|iedere)\s+{WEEKDAY}\w*", ""), (r"\b(?:maandags|dinsdags|woensdags|donderdags|vrijdags|zaterdags|zondags)\b", ""),
    (r"\bvanochtend\b", "this morning"),
    (r"\b{N}\s+{UNIT}\s+geleden\b", "{1:num} {2:unit}s ago"),
    (r"\bop\s+de\s+(\d{1,2})(?:e|ste|de)\b", "on the {1:th} ;"),
    (r"\brond\s+de\s+(\d{1,2})(?:e|ste|de)\b", "around the {1:th} ;"),
    (r"\b{WEEKDAY}\b", "on {1:weekday}"),  # "wat gebeurde er maandag?": a weekday alone is that day
)
FUTURE = ("zal", "zullen", "gaat", "gaan", "ga", "gepland", "volgende", "volgend", "komende", "morgen")
PAST = ("was", "waren", "gebeurde", "gebeurd", "gedaan", "deed", "deden", "gisteren", "vorige", "afgelopen",
        "geleden")
# A past told in a line of notes (dates.lean.line_month_lean: "Is in januari verhuisd" is the January
# gone by, "Stapt in januari over naar Siemens" the coming one): a perfect (an auxiliary, a participle).
NARRATED = (
    r"(?i)\b(?:is|zijn|ben|bent|heeft|hebben|heb|hebt|had|hadden|was|waren)\b.*"
    r"\b(?:ge[a-z]{3,}|(?:ver|be|ont|her)[a-z]{3,})(?:d|t|en)\b",
)
NOW = frozenset({"nu"})
