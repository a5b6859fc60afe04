"""French time words (see the package docstring)."""

MONTHS = {"janvier": 1, "janv": 1, "février": 2, "fevrier": 2, "févr": 2, "mars": 3, "avril": 4, "avr": 4,
          "mai": 5, "juin": 6, "juillet": 7, "juil": 7, "août": 8, "aout": 8, "septembre": 9, "sept": 9,
          "octobre": 10, "oct": 10, "novembre": 11, "nov": 11, "décembre": 12, "decembre": 12, "déc": 12}
WEEKDAYS = {"lundi": 0, "mardi": 1, "mercredi": 2, "jeudi": 3, "vendredi": 4, "samedi": 5, "dimanche": 6}
NUMBERS = {"un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "six": 6, "sept": 7, "huit": 8,
           "neuf": 9, "dix": 10, "onze": 11, "douze": 12, "quinze": 15}
UNITS = {"jour": "day", "jours": "day", "semaine": "week", "semaines": "week", "mois": "month", "an": "year",
         "ans": "year", "année": "year", "années": "year"}
WORDS = {
    "hier": "yesterday", "demain": "tomorrow", "avant-hier": "2 days ago", "depuis": "since",
    "jusqu'au": "until", "pendant": "during", "en": "in", "vers": "around", "autour": "around",
    "semaine": "week", "mois": "month", "année": "year", "1er": "1",
}
REWRITES = (
    # A third of a month ("mid-October": its middle ten days).
    (r"\b(?:(?:à|a)\s+la\s+)?mi-{MONTH}\b", "mid {1:month}"),
    (r"\b(?:au\s+)?début\s+(?:d'|de\s+)?{MONTH}\b", "early {1:month}"),
    (r"\b(?:(?:à|a)\s+la\s+)?fin\s+(?:d'|de\s+)?{MONTH}\b", "late {1:month}"),
    (r"\b(?:tous\s+les|chaque|le)\s+{WEEKDAY}s?\b(?!\s+\d)(?!\s+(?:dernier|prochain))", ""),  # habits
    (r"\baujourd'hui\b", "today"), (r"\bce\s+matin\b", "this morning"),
    (r"\bil\s+y\s+a\s+{N}\s+{UNIT}\b", "{1:num} {2:unit}s ago"),
    (r"\bdans\s+{N}\s+{UNIT}\b", ""),  # "dans six mois": a duration ahead
    (r"\b(?:le\s+)?week-?end\s+dernier\b", "last weekend"), (r"\b(?:le\s+)?week-?end\s+prochain\b", "next weekend"),
    (r"\bce\s+week-?end\b", "this weekend"),
    (r"\b(?:la\s+)?semaine\s+derni[èe]re\b", "last week"), (r"\b(?:le\s+)?mois\s+dernier\b", "last month"),
    (r"\b(?:l')?ann[ée]e\s+derni[èe]re\b", "last year"),
    (r"\b(?:la\s+)?semaine\s+prochaine\b", "next week"), (r"\b(?:le\s+)?mois\s+prochain\b", "next month"),
    (r"\bcette\s+semaine\b", "this week"),
    (r"\b{WEEKDAY}\s+dernier\b", "last {1:weekday}"), (r"\b{WEEKDAY}\s+prochain\b", "next {1:weekday}"),
    (r"\b(?:du|depuis\s+le)\s+(\d{1,2})(?:er)?\s+(?:au|jusqu'au)\s+(\d{1,2})\s+{MONTH}\b", "from {1} to {2} {3:month}"),
    (r"\bentre\s+le\s+(\d{1,2})(?:er)?\s+et\s+le\s+(\d{1,2})\s+{MONTH}\b", "from {1} to {2} {3:month}"),
    (r"\b(?:le\s+)?{WEEKDAY}\s+(\d{1,2})(?:er)?\s+{MONTH}\b", "on {2} {3:month}"),
    (r"\b(?:le\s+)?(\d{1,2})(?:er)?\s+{MONTH}\b", "on {1} {2:month}"),
    (r"\b(?:autour|aux\s+alentours)\s+du\s+(\d{1,2})\b(?!\s*{MONTH})", "around the {1:th} ;"),
    (r"\bvers\s+le\s+(\d{1,2})\b(?!\s*{MONTH})", "around the {1:th} ;"),
    (r"\ble\s+(\d{1,2})(?:er)?\b(?!\s*(?:{MONTH}|[:h.,]\s*\d|km|%|€))", "on the {1:th} ;"),
    (r"\b{WEEKDAY}\b", "on {1:weekday}"),
)
FUTURE = ("réservé", "réservation", "sera", "serai", "seront", "va", "vais", "vont", "allons", "prévu", "prévue", "prévus", "prochain",
          "prochaine", "qu'il y a", "qu'y a-t-il", "demain", "aura", "viendra", "viendront")
PAST = ("s'est", "passé", "fait", "était", "étais", "ai", "avons", "as", "hier", "dernier", "dernière", "eu",
        "été", "fut")
# A past told in a line of notes (dates.lean.line_month_lean: "A quitté Paris en janvier" is the January
# gone by, "Passe chez Siemens en janvier" the coming one): a passé composé (an auxiliary, a participle).
NARRATED = (
    r"(?i)\b(?:ai|as|a|avons|avez|ont|avait|avaient|suis|es|est|sommes|êtes|sont|était|étaient)\s+"
    r"(?:(?:déjà|bien|enfin)\s+)?(?!lieu\b)[a-zàâçéèêëîïôûùüÿœ]{2,}(?:é|ée|és|ées|i|is|ie|u|ue|us|it)\b",
)
NOW = frozenset({"maintenant", "actuellement"})
