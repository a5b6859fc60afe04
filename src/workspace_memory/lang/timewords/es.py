"""Spanish time words (see the package docstring)."""

MONTHS = {"enero": 1, "ene": 1, "febrero": 2, "feb": 2, "marzo": 3, "mar": 3, "abril": 4, "abr": 4, "mayo": 5,
          "may": 5, "junio": 6, "jun": 6, "julio": 7, "jul": 7, "agosto": 8, "septiembre": 9,
          "setiembre": 9, "sep": 9, "sept": 9, "octubre": 10, "oct": 10, "noviembre": 11, "nov": 11,
          "diciembre": 12, "dic": 12}
WEEKDAYS = {"lunes": 0, "martes": 1, "miércoles": 2, "miercoles": 2, "jueves": 3, "viernes": 4, "sábado": 5,
            "sabado": 5, "domingo": 6}
NUMBERS = {"un": 1, "una": 1, "uno": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7,
           "ocho": 8, "nueve": 9, "diez": 10, "once": 11, "doce": 12}
UNITS = {"día": "day", "días": "day", "dia": "day", "dias": "day", "semana": "week", "semanas": "week",
         "mes": "month", "meses": "month", "año": "year", "años": "year"}
WORDS = {
    "ayer": "yesterday", "hoy": "today", "mañana": "tomorrow", "anteayer": "2 days ago", "anoche": "last night",
    "desde": "since", "hasta": "until", "durante": "during", "en": "in", "alrededor": "around",
    "semana": "week", "mes": "month", "año": "year",
}
REWRITES = (
    # A third of a month ("mid-October": its middle ten days).
    (r"\b(?:a\s+)?mediados\s+de\s+{MONTH}\b", "mid {1:month}"),
    (r"\b(?:a\s+)?principios\s+de\s+{MONTH}\b", "early {1:month}"),
    (r"\b(?:a\s+)?(?:finales|fines)\s+de\s+{MONTH}\b", "late {1:month}"),
    (r"\b(?:todos\s+los|cada|los)\s+{WEEKDAY}s?\b", ""),  # habits: "los domingos", "cada lunes"
    (r"\b(?:esta|por\s+la)\s+mañana\b", "this morning"),
    (r"\bhace\s+{N}\s+{UNIT}\b", "{1:num} {2:unit}s ago"),
    (r"\bdentro\s+de\s+{N}\s+{UNIT}\b", ""),  # "dentro de seis meses": a duration ahead
    (r"\b(?:el\s+)?fin\s+de\s+semana\s+pasado\b", "last weekend"),
    (r"\b(?:el\s+)?(?:próximo|proximo)\s+fin\s+de\s+semana\b", "next weekend"),
    (r"\b(?:el\s+)?fin\s+de\s+semana\s+que\s+viene\b", "next weekend"),
    (r"\b(?:este|el)\s+fin\s+de\s+semana\b", "this weekend"),
    (r"\b(?:la\s+)?semana\s+pasada\b", "last week"), (r"\b(?:el\s+)?mes\s+pasado\b", "last month"),
    (r"\b(?:el\s+)?año\s+pasado\b", "last year"),
    (r"\b(?:la\s+)?semana\s+que\s+viene\b", "next week"), (r"\b(?:la\s+)?(?:próxima|proxima)\s+semana\b", "next week"),
    (r"\b(?:el\s+)?mes\s+que\s+viene\b", "next month"), (r"\besta\s+semana\b", "this week"),
    (r"\b(?:el\s+)?{WEEKDAY}\s+pasado\b", "last {1:weekday}"),
    (r"\b(?:el\s+)?{WEEKDAY}\s+que\s+viene\b", "next {1:weekday}"),
    (r"\b(?:el\s+)?(?:próximo|proximo)\s+{WEEKDAY}\b", "next {1:weekday}"),
    (r"\b(?:del|desde\s+el)\s+(\d{1,2})\s+(?:al|hasta\s+el)\s+(\d{1,2})\s+de\s+{MONTH}\b", "from {1} to {2} {3:month}"),
    (r"\bentre\s+el\s+(\d{1,2})\s+y\s+el\s+(\d{1,2})\s+de\s+{MONTH}\b", "from {1} to {2} {3:month}"),
    (r"\b(?:el\s+)?{WEEKDAY}\s+(\d{1,2})\s+de\s+{MONTH}\b", "on {2} {3:month}"),
    (r"\b(?:el\s+)?(?:día\s+)?(\d{1,2})\s+de\s+{MONTH}(?:\s+de)?", "on {1} {2:month}"),
    (r"\balrededor\s+del\s+(?:día\s+)?(\d{1,2})\b(?!\s*de\s)", "around the {1:th} ;"),
    (r"\bel\s+(?:día\s+)?(\d{1,2})\b(?!\s*(?:de\s|[:.,]\d))", "on the {1:th} ;"),
    (r"\b(?:el|este)\s+{WEEKDAY}\b", "on {1:weekday}"),
)
FUTURE = ("reservé", "reservado", "reserva", "será", "estará", "estarán", "va a", "vas a", "van a", "voy a", "vamos a", "planeado", "planeada",
          "previsto", "prevista", "próximo", "próxima", "que viene", "qué hay", "que hay", "mañana", "tendré",
          "habrá")
PAST = ("pasó", "hice", "hizo", "hicimos", "fue", "fueron", "fuimos", "estuvo", "estuve", "era", "había", "ayer",
        "pasado", "pasada", "hace")
# A past told in a line of notes (dates.lean.line_month_lean: "Se mudó en enero" is the January gone
# by, "Se cambia a Siemens en enero" the coming one): a preterite or a perfect.
NARRATED = (
    r"(?i)\b[a-záéíóúñ]{2,}(?:ó|aron|ieron)\b",
    r"(?i)\b(?:he|ha|has|hemos|han|había|habían)\s+[a-záéíóúñ]+(?:ado|ido)\b",
)
NOW = frozenset({"ahora", "actualmente"})
