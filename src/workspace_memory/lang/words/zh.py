"""Chinese: written here. The maintained lists hold single characters (人, 好, 上, 下) that are parts of
words (上海, 好像): a Chinese question is searched as its two-character pieces (recall.lexical), so what
matters is which pieces ask rather than name, and which characters are grammar."""

# Pieces of a question that ask, point or frame rather than name anything.
FRAME_PIECES = frozenset(
    """什么 怎么 怎样 怎么样 哪个 哪些 哪里 哪儿 哪家 哪位 为什么 是谁 谁是 多少 多久 多长 几个 几点 时候 什么时候
    有没 没有 是不 是否 可以 应该 一下 介绍 告诉 关于 一些 这个 那个 他们 她们 我们 你们 自己""".split()
)
# Characters of grammar: a two-character piece holding one names nothing ("的时", "什么", "我们").
GRAMMAR = frozenset("的了吗呢吧啊么们谁哪")
STOPWORDS = FRAME_PIECES
EVENT_WORDS = frozenset("发生 发生了 做了 干了 干什 做什 经历 事情 新鲜 新闻 情况".split())
QUESTION_STARTS = frozenset("谁 什么 哪 哪里 哪个 怎么 为什么 多少 几 是不是 有没有".split())
OPINION_WORDS = frozenset("喜欢 更喜欢 偏好 看法 觉得 认为 想法 怎么看 意见 讨厌 爱 观点 倾向".split())
NOW_WORDS = frozenset("现在 目前 如今 当前 最近".split())
# Chinese verbs carry no tense: a question (its question words) about a state (its verbs of being, living,
# having, doing, serving as; 还 "still") with no past or time word is about now (recall.query.asks_about_now).
QUESTION_WORDS = frozenset("谁 什么 哪 哪里 哪儿 哪个 怎么 怎样 怎么样 几 多少 吗 是不是 有没有".split())
PRESENT_WORDS = frozenset("是 在 住 有 做 当 担任 还".split())
# With the past words, the words of a named time (十月, 2024年, 上周, 当时): with no tense, a question about a
# named time is not about now, whether or not the time parser reads its phrase.
PAST_WORDS = frozenset("以前 之前 过去 曾经 原来 当初 起初 当时 那时 月 年 周 星期".split())
STEMMER = None  # no inflection; segmentation is recall.lexical.cjk_pieces on the question, trigrams on the notes

# A "where" question asks for a place (recall.place): its words, and what names a place in a note.
WHERE_WORDS = frozenset("哪里 哪儿 什么地方 在哪".split())
# Characters of place right before a name in Latin letters ("在Porto"; recall.place).
LOCATIVES_CJK = tuple("在去到从住于")
