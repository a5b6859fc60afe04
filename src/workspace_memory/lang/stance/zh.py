"""Chinese words of change and stance (workspace_memory.lang; see lang/stance/en.py for what each holds).

Chinese is written without spaces: patterns match anywhere, and the word lists are matched as
substrings (facts.stance reads a run of Han characters as overlapping pairs)."""

ATTRIBUTES = {
    "residence": (r"住在", r"住到", r"居住", r"定居", r"家在", r"安家", r"住址"),
    "move": (r"搬到", r"搬去", r"搬家", r"搬进", r"迁居", r"迁往"),
    "whereabouts": (r"去.{0,12}(看望|探望|旅行|旅游|度假|玩|听|参观|出差)", r"在.{1,12}(参加|出差|旅行|度假|开会)",
                    r"\d+月\d+日(至|到)", r"拜访", r"回到"),
    # 在 opening a clause says where its subject works ("在西门子当测试工程师"); inside one it is
    # only a place ("骑车去Fernwerk在克罗伊茨贝格的办公室上班" is a commute, not an employer).
    "employer": (r"(^|[，；。,;：:\s])在.{1,25}(工作|上班|任职|就职|当|做)", r"入职", r"加入", r"就职", r"任职", r"跳槽", r"离职", r"辞职",
                 r"新工作", r"全职", r"兼职", r"自由职业", r"签了.{0,20}合同", r"为.{1,20}(工作|做)"),
    "relationship": (r"谈恋爱", r"恋爱", r"结婚", r"订婚", r"女朋友", r"男朋友", r"伴侣", r"分手", r"离婚", r"在一起",
                     r"交往", r"约会"),
    "role": (r"升任", r"晋升", r"升职", r"提拔", r"任命", r"组长", r"经理", r"负责人", r"主管", r"总监", r"担任", r"职位"),
    "status": (r"测试阶段", r"暂停", r"取消", r"上线", r"恢复", r"完成", r"状态", r"停止", r"进行中", r"搁置", r"重启"),
    "date": (r"计划在", r"计划于", r"定于", r"定在", r"推迟", r"延期", r"延后", r"改到", r"提前到", r"改期", r"截止", r"日期"),
}
CHANGE = (r"不再", r"离开", r"离职", r"辞职", r"结束", r"退出", r"搬出")
ASKED = {
    "residence": (r"住", r"地址", r"家在"),
    "employer": (r"工作", r"上班", r"公司", r"职业"),
    "relationship": (r"恋爱", r"在一起", r"伴侣", r"对象", r"男朋友", r"女朋友", r"结婚"),
    "role": (r"职位", r"角色", r"头衔", r"担任"),
    "status": (r"状态", r"暂停", r"进展", r"进度"),
    "date": (r"什么时候", r"哪天", r"日期", r"何时", r"几号"),
}


POSITIVE = """
好 不错 喜欢 推荐 可靠 稳定 快 有用 值得 优秀 棒 满意 方便 简单 适合 高效
"""
NEGATIVE = """
差 糟 讨厌 慢 贵 难用 复杂 失望 麻烦 不好 高估 要命 烂 不稳定
"""
NEGATION = frozenset("不 没 没有 别 未".split())
NEGATION_PHRASES = ("不再",)
CHANGE_CUES = ("现在", "不再", "其实", "以后", "之后", "自从", "后来")
CLAUSE = frozenset("但 但是 不过 只是 虽然 可是".split())
EXCESS = frozenset({"太", "过于", "过分"})
ENOUGH = frozenset({"够", "足够"})
AGAIN = frozenset({"又", "还是", "仍然", "依然"})
COPULA = frozenset("很 挺 非常 真 比较 显得 是 相当 特别".split())
DEGREE = frozenset("很 挺 非常 真 比较 相当 特别 有点".split())
STOP = frozenset("的 了 是 在 和 他 她 它 我 我们 他们 这 那 就 也 都 又 还".split())
