"""Italian time words (see the package docstring)."""

MONTHS = {"gennaio": 1, "gen": 1, "febbraio": 2, "feb": 2, "marzo": 3, "mar": 3, "aprile": 4, "apr": 4,
          "maggio": 5, "giugno": 6, "giu": 6, "luglio": 7, "agosto": 8, "ago": 8,
          "settembre": 9, "ottobre": 10, "ott": 10, "novembre": 11, "nov": 11, "dicembre": 12, "dic": 12}
WEEKDAYS = {"lunedì": 0, "lunedi": 0, "martedì": 1, "martedi": 1, "mercoledì": 2, "mercoledi": 2, "giovedì": 3,
            "giovedi": 3, "venerdì": 4, "venerdi": 4, "sabato": 5, "domenica": 6}
NUMBERS = {"un": 1, "una": 1, "uno": 1, "due": 2, "tre": 3, "quattro": 4, "cinque": 5, "sei": 6, "sette": 7,
           "otto": 8, "nove": 9, "dieci": 10}
UNITS = {"giorno": "day", "giorni": "day", "settimana": "week", "settimane": "week", "mese": "month",
         "mesi": "month", "anno": "year", "anni": "year"}
WORDS = {"ieri": "yesterday", "oggi": "today", "domani": "tomorrow", "dal": "since", "fino": "until",
         "durante": "during", "settimana": "week"}
REWRITES = (
    (r"\b(?:a|ad|in|nel\s+mese\s+di)\s+({MONTH})\b(?!\s*\d)", "in {1:month}"),  # "a gennaio": a month
    (r"\b(?:ogni|tutte\s+le|tutti\s+i|la|il)\s+{WEEKDAY}\b(?!\s+\d)(?!\s+(?:scors[ao]|prossim[ao]))", ""),  # habits
    (r"\bl'altro\s+ieri\b", "2 days ago"), (r"\bstamattina\b", "this morning"),
    (r"\b{N}\s+{UNIT}\s+fa\b", "{1:num} {2:unit}s ago"),
    (r"\b(?:lo\s+)?scorso\s+(?:fine\s+settimana|weekend)\b", "last weekend"),
    (r"\b(?:il\s+)?(?:fine\s+settimana|weekend)\s+scorso\b", "last weekend"),
    (r"\b(?:il\s+)?prossimo\s+(?:fine\s+settimana|weekend)\b", "next weekend"),
    (r"\b(?:questo|quest')\s*(?:fine\s+settimana|weekend)\b", "this weekend"),
    (r"\b(?:la\s+)?settimana\s+scorsa\b", "last week"), (r"\b(?:il\s+)?mese\s+scorso\b", "last month"),
    (r"\b(?:l')?anno\s+scorso\b", "last year"),
    (r"\b(?:la\s+)?(?:settimana\s+prossima|prossima\s+settimana)\b", "next week"),
    (r"\bquesta\s+settimana\b", "this week"),
    (r"\b{WEEKDAY}\s+scors[oa]\b", "last {1:weekday}"), (r"\b{WEEKDAY}\s+prossim[oa]\b", "next {1:weekday}"),
    (r"\bdal\s+(\d{1,2})\s+al\s+(\d{1,2})\s+{MONTH}\b", "from {1} to {2} {3:month}"),
    (r"\btra\s+il\s+(\d{1,2})\s+e\s+il\s+(\d{1,2})\s+{MONTH}\b", "from {1} to {2} {3:month}"),
    (r"\b(?:il\s+|l')?(\d{1,2})\s+{MONTH}\b", "on {1} {2:month}"),
    (r"\b(?:il|l')\s*(\d{1,2})\b(?!\s*(?:[:.,]\d|km|%))", "on the {1:th} ;"),
    (r"\b{WEEKDAY}\b", "on {1:weekday}"),
)
FUTURE = ("sarà", "saranno", "previsto", "prevista", "prossimo", "prossima", "domani", "andrà", "farò",
          "faremo", "vado", "andiamo")
PAST = ("è successo", "successo", "fatto", "era", "erano", "stato", "stata", "ieri", "scorso", "scorsa", "fa",
        "ho", "abbiamo")
# A past told in a line of notes (dates.lean.line_month_lean: "Si è trasferito a gennaio" is the January
# gone by, "Passa a Siemens a gennaio" the coming one): a passato prossimo (an auxiliary, a participle).
NARRATED = (
    r"(?i)\b(?:ho|hai|ha|abbiamo|avete|hanno|sono|sei|è|siamo|siete|era|erano|aveva)\s+(?:già\s+)?"
    r"[a-zàèéìòù]{2,}(?:ato|ata|ati|ate|ito|ita|iti|ite|uto|uta|uti|ute)\b",
)
NOW = frozenset({"ora", "adesso"})
