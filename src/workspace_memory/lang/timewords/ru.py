"""Russian time words (see the package docstring): the commonest relative phrases."""

WORDS = {"вчера": "yesterday", "сегодня": "today", "завтра": "tomorrow", "позавчера": "2 days ago"}
REWRITES = (
    (r"на\s+прошлой\s+неделе", "last week"), (r"в\s+прошлом\s+месяце", "last month"),
    (r"на\s+следующей\s+неделе", "next week"), (r"на\s+этой\s+неделе", "this week"),
)
FUTURE = ("будет", "будем", "следующей", "завтра", "планируем")
PAST = ("было", "был", "была", "были", "вчера", "прошлой", "прошлом")
NOW = frozenset({"сейчас"})
