"""Korean time words (see the package docstring): the commonest relative phrases."""

WORDS = {"어제": "yesterday", "오늘": "today", "내일": "tomorrow", "그저께": "2 days ago"}
REWRITES = (
    (r"지난\s?주말", "last weekend"), (r"다음\s?주말", "next weekend"),
    (r"지난\s?주", "last week"), (r"지난\s?달", "last month"), (r"다음\s?주", "next week"), (r"이번\s?주", "this week"),
)
FUTURE = ("예정", "다음", "내일", "할")
PAST = ("했", "었", "았", "지난", "어제")
NOW = frozenset({"지금"})
