"""Portuguese time words (see the package docstring)."""

MONTHS = {"janeiro": 1, "jan": 1, "fevereiro": 2, "fev": 2, "março": 3, "marco": 3, "mar": 3, "abril": 4,
          "abr": 4, "maio": 5, "mai": 5, "junho": 6, "jun": 6, "julho": 7, "jul": 7, "agosto": 8, "ago": 8,
          "setembro": 9, "outubro": 10, "novembro": 11, "nov": 11, "dezembro": 12, "dez": 12}
WEEKDAYS = {"segunda": 0, "segunda-feira": 0, "terça": 1, "terça-feira": 1, "terca": 1, "quarta": 2,
            "quarta-feira": 2, "quinta": 3, "quinta-feira": 3, "sexta": 4, "sexta-feira": 4, "sábado": 5,
            "sabado": 5, "domingo": 6}
NUMBERS = {"um": 1, "uma": 1, "dois": 2, "duas": 2, "três": 3, "tres": 3, "quatro": 4, "cinco": 5, "seis": 6,
           "sete": 7, "oito": 8, "nove": 9, "dez": 10}
UNITS = {"dia": "day", "dias": "day", "semana": "week", "semanas": "week", "mês": "month", "mes": "month",
         "meses": "month", "ano": "year", "anos": "year"}
WORDS = {"ontem": "yesterday", "hoje": "today", "amanhã": "tomorrow", "anteontem": "2 days ago",
         "desde": "since", "até": "until", "durante": "during", "semana": "week"}
REWRITES = (
    (r"\b(?:em|no\s+mês\s+de)\s+({MONTH})\b(?!\s*(?:de\s+)?\d)", "in {1:month}"),  # "em janeiro": a month
    (r"\b(?:todos\s+os|todas\s+as|aos|às|cada)\s+{WEEKDAY}s?(?:-feiras?)?\b", ""),  # habits
    (r"\besta\s+manhã\b", "this morning"),
    (r"\bh[áa]\s+{N}\s+{UNIT}\b", "{1:num} {2:unit}s ago"),
    (r"\b(?:o\s+|no\s+)?fim\s+de\s+semana\s+passado\b", "last weekend"),
    (r"\b(?:o\s+|no\s+)?(?:próximo|proximo)\s+fim\s+de\s+semana\b", "next weekend"),
    (r"\b(?:na\s+|a\s+)?semana\s+passada\b", "last week"), (r"\b(?:no\s+|o\s+)?mês\s+passado\b", "last month"),
    (r"\b(?:o\s+|no\s+)?ano\s+passado\b", "last year"),
    (r"\b(?:na\s+|a\s+)?(?:semana\s+que\s+vem|próxima\s+semana|proxima\s+semana)\b", "next week"),
    (r"\b(?:nesta|esta)\s+semana\b", "this week"),
    (r"\b(?:na\s+|no\s+)?{WEEKDAY}(?:-feira)?\s+passad[ao]\b", "last {1:weekday}"),
    (r"\b(?:na\s+|no\s+)?(?:próxima|próximo|proxima|proximo)\s+{WEEKDAY}\b", "next {1:weekday}"),
    (r"\b(?:de|desde\s+o)\s+(\d{1,2})\s+(?:a|até\s+o|ao)\s+(\d{1,2})\s+de\s+{MONTH}\b", "from {1} to {2} {3:month}"),
    (r"\bentre\s+(?:o\s+)?(\d{1,2})\s+e\s+(?:o\s+)?(\d{1,2})\s+de\s+{MONTH}\b", "from {1} to {2} {3:month}"),
    (r"\b(?:no\s+dia\s+|dia\s+|em\s+)?(\d{1,2})\s+de\s+{MONTH}(?:\s+de)?", "on {1} {2:month}"),
    (r"\b(?:no\s+)?dia\s+(\d{1,2})\b", "on the {1:th} ;"),
    (r"\b(?:na|no)\s+{WEEKDAY}(?:-feira)?\b", "on {1:weekday}"),
)
FUTURE = ("vai", "vou", "vamos", "vão", "será", "estará", "planejado", "planeado", "previsto", "próximo",
          "próxima", "que vem", "amanhã")
PAST = ("foi", "fui", "fomos", "fiz", "fez", "fizemos", "aconteceu", "estava", "esteve", "ontem", "passado",
        "passada")
# A past told in a line of notes (dates.lean.line_month_lean: "Mudou-se em janeiro" is the January gone
# by, "Muda para a Siemens em janeiro" the coming one): a preterite.
NARRATED = (
    r"(?i)\b(?!estou\b)[a-záéíóúâêôãõç]{3,}(?:ou|ei|aram|eram|iram|iu)\b",
)
NOW = frozenset({"agora", "atualmente"})
