"""Japanese time words (see the package docstring). Dates are written with numbers: 12月4日."""

MONTHS: dict[str, int] = {}
WEEKDAYS = {"月": 0, "火": 1, "水": 2, "木": 3, "金": 4, "土": 5, "日": 6}  # before 曜(日)
NUMBERS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
UNITS = {"日": "day", "週間": "week", "週": "week", "か月": "month", "ヶ月": "month", "ヵ月": "month",
         "カ月": "month", "年": "year"}
WORDS = {"昨日": "yesterday", "今日": "today", "明日": "tomorrow", "一昨日": "2 days ago", "おととい": "2 days ago",
         "先週": "last week", "来週": "next week", "今週": "this week", "先月": "last month", "来月": "next month",
         "今月": "this month", "去年": "last year", "今年": "this year", "来年": "next year", "今朝": "this morning"}
_DAY = r"(\d{1,2})\s*日"
REWRITES = (
    (r"毎週{WEEKDAY}曜日?", ""), (r"毎週末", ""),  # habits
    (r"先週末", "last weekend"), (r"来週末", "next weekend"), (r"今週末", "this weekend"),
    (r"先週の?{WEEKDAY}曜日?", "last {1:weekday}"), (r"来週の?{WEEKDAY}曜日?", "next {1:weekday}"),
    (r"(\d{1,2})\s*月\s*" + _DAY + r"\s*(?:から|〜|~|-|–)\s*(?:(\d{1,2})\s*月\s*)?" + _DAY,
     "{1:month} {2} to {3:month} {4}"),
    (r"(\d{1,2})\s*月\s*" + _DAY + r"\s*(?:頃|ごろ|前後)", "around {1:month} {2}"),
    (r"(\d{1,2})\s*月\s*" + _DAY, "{1:month} {2}"),
    (_DAY + r"\s*(?:頃|ごろ|前後)", "around the {1:th} ;"),
    (r"(?<![\d月])" + _DAY + r"(?!\s*(?:間|前))", "on the {1:th} ;"),
    (r"{N}\s*{UNIT}前", "{1:num} {2:unit}s ago"),
    (r"{WEEKDAY}曜日?", "on {1:weekday}"),
)
FUTURE = ("予定", "つもり", "来週", "明日", "次の", "今度")
PAST = ("した", "でした", "だった", "ました", "先週", "昨日", "前")
NOW = frozenset({"今", "現在"})
