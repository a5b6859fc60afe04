"""Chinese time words (see the package docstring). Dates are written with numbers: 12月4日, 20号; a month
alone in digits or numerals: 10月, 十月份."""

MONTHS: dict[str, int] = {}  # months are numbers (12月): REWRITES read them
WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}  # after 周 / 星期 / 礼拜
NUMBERS = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
UNITS = {"天": "day", "周": "week", "星期": "week", "礼拜": "week",
         "月": "month", "年": "year"}
WORDS = {"昨天": "yesterday", "今天": "today", "明天": "tomorrow", "前天": "2 days ago", "昨晚": "last night",
         "上周": "last week", "上星期": "last week", "上个星期": "last week", "下周": "next week", "下星期": "next week",
         "下个星期": "next week", "这周": "this week", "本周": "this week", "这个星期": "this week",
         "上个月": "last month", "下个月": "next month", "这个月": "this month", "本月": "this month",
         "去年": "last year", "今年": "this year", "明年": "next year", "今天早上": "this morning",
         "今早": "this morning"}
_DAY = r"(\d{1,2})\s*[日号號]"
_MONTH = r"(?<![\d一二三四五六七八九十个])(\d{1,2}|十[一二]?|[一二三四五六七八九])\s*月份?"
REWRITES = (
    (r"(?:每个?|每逢)(?:周|星期|礼拜){WEEKDAY}", ""), (r"每个?(?:周末|星期天|礼拜天)", ""),  # habits
    (r"上(?:个)?周末", "last weekend"), (r"下(?:个)?周末", "next weekend"), (r"(?:这个?|本)周末", "this weekend"),
    (r"上(?:个)?(?:周|星期|礼拜){WEEKDAY}", "last {1:weekday}"),
    (r"下(?:个)?(?:周|星期|礼拜){WEEKDAY}", "next {1:weekday}"),
    (r"(?:这个?|本)(?:周|星期|礼拜){WEEKDAY}", "this {1:weekday}"),
    (r"(\d{1,2})\s*月\s*" + _DAY + r"\s*(?:到|至|-|–|~|～)\s*(?:(\d{1,2})\s*月\s*)?" + _DAY,
     "{1:month} {2} to {3:month} {4}"),
    (r"(\d{1,2})\s*月\s*" + _DAY + r"\s*前后", "around {1:month} {2}"),
    (r"(\d{1,2})\s*月\s*" + _DAY, "{1:month} {2}"),
    (_DAY + r"\s*前后", "around the {1:th} ;"), (_DAY + r"\s*左右", "around the {1:th} ;"),
    (r"(?<![\d月])" + _DAY, "on the {1:th} ;"),
    (r"{N}\s*(?:个)?{UNIT}(?:以)?前", "{1:num} {2:unit}s ago"),
    (r"(?:周|星期|礼拜){WEEKDAY}", "on {1:weekday}"),
    # A month alone, in digits or numerals ("10月", "十月份"), or a third of it ("十月中旬": mid-October).
    (_MONTH + r"\s*(?:上旬|初)", "early {1:month}"), (_MONTH + r"\s*中旬", "mid {1:month}"),
    (_MONTH + r"\s*(?:下旬|底|末)", "late {1:month}"), (_MONTH + r"(?!\s*\d)", "in {1:month}"),
)
FUTURE = ("预订", "订了", "将", "会", "要", "打算", "计划", "安排", "准备", "预定", "预约", "下周", "下个", "明天", "即将")
PAST = ("了", "过去", "曾", "已经", "昨天", "上周", "以前", "之前")
NOW = frozenset({"现在", "目前"})
