"""Korean time words (see the package docstring). Dates are written with numbers: 12월 3일; weekdays
as a syllable before 요일 (월요일: Monday); "이번 주말", "다음 주", "지난달"."""

MONTHS: dict[str, int] = {}  # months are numbers (12월): REWRITES read them
WEEKDAYS = {"월": 0, "화": 1, "수": 2, "목": 3, "금": 4, "토": 5, "일": 6}  # before 요일
NUMBERS = {"한": 1, "하루": 1, "두": 2, "이틀": 2, "세": 3, "사흘": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7,
           "여덟": 8, "아홉": 9, "열": 10}
UNITS = {"일": "day", "주": "week", "주일": "week", "달": "month", "개월": "month", "년": "year"}
WORDS = {"어제": "yesterday", "오늘": "today", "내일": "tomorrow", "그저께": "2 days ago", "그제": "2 days ago",
         "작년": "last year", "올해": "this year", "내년": "next year", "오늘 아침": "this morning"}
_DAY = r"(\d{1,2})\s*일"
REWRITES = (
    (r"매주\s*{WEEKDAY}요일", ""), (r"{WEEKDAY}요일\s*(?:아침|오전|오후|저녁|밤)?\s*마다", ""), (r"주말마다", ""),  # habits
    (r"지난\s?주말", "last weekend"), (r"다음\s?주말", "next weekend"), (r"이번\s?주말", "this weekend"),
    (r"지난\s?주\s*{WEEKDAY}요일", "last {1:weekday}"), (r"다음\s?주\s*{WEEKDAY}요일", "next {1:weekday}"),
    (r"이번\s?주\s*{WEEKDAY}요일", "this {1:weekday}"),
    (r"지난\s?주", "last week"), (r"지난\s?달", "last month"), (r"다음\s?주", "next week"), (r"이번\s?주", "this week"),
    (r"다음\s?달", "next month"), (r"이번\s?달", "this month"),
    (r"(\d{1,2})\s*월\s*" + _DAY + r"\s*(?:부터|~|-|–)\s*(?:(\d{1,2})\s*월\s*)?" + _DAY + r"\s*까지",
     "{1:month} {2} to {3:month} {4}"),
    (r"(\d{1,2})\s*월\s*" + _DAY + r"\s*(?:쯤|경|전후)", "around {1:month} {2}"),
    (r"(\d{1,2})\s*월\s*" + _DAY, "{1:month} {2}"),
    (r"(?<!\d)(\d{1,2})\s*월(?!\s*\d)", "in {1:month}"),
    (r"{N}\s*{UNIT}\s*전", "{1:num} {2:unit}s ago"),
    (r"(\d{1,2})\s*{UNIT}\s*전", "{1} {2:unit}s ago"),
    (r"{WEEKDAY}요일", "on {1:weekday}"),
)
FUTURE = ("예정", "다음", "내일", "할", "내년", "곧", "계획")
PAST = ("했", "었", "았", "지난", "어제", "작년")
NOW = frozenset({"지금"})
