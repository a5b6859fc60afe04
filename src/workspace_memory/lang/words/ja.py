"""Japanese: written here (the maintained list of 44 words is pronouns and demonstratives; kept below).
A question is searched as its kanji and katakana runs and their two-character pieces (recall.lexical);
hiragana beside them is grammar and left out."""

FRAME_PIECES = frozenset(
    """何 何を 何が 誰 誰が いつ どこ どれ どの どう どんな なぜ 何故 いくら 何時 何人 何日 教え 教えて 思う 思って
    あそこ あの あのかた あの人 あれ ここ こちら この これ そこ その それ だれ どこ どの なに なん 我々 貴方 私
    私達 彼 彼女 について""".split()
)
STOPWORDS = FRAME_PIECES
EVENT_WORDS = frozenset("何 何が 何を あった した 起きた 起こった 出来事 こと 事 新しい ニュース".split())
QUESTION_STARTS = frozenset("誰 何 いつ どこ どれ どの どう なぜ".split())
OPINION_WORDS = frozenset("好き 好む 好み 嫌い 苦手 思う 思って 考え 考えて 意見 感想 どう思".split())
NOW_WORDS = frozenset("今 現在 最近 目下".split())
PAST_WORDS = frozenset("以前 前 昔 かつて 元 最初".split())
STEMMER = None  # no stemming: the trigram index finds a run wherever it stands

# A "where" question asks for a place (recall.place): its words, and what names a place in a note.
WHERE_WORDS = frozenset("どこ".split())
# Particles of place right after a name in Latin letters ("Portoで"; recall.place).
LOCATIVES_CJK_AFTER = tuple("でにへ")
