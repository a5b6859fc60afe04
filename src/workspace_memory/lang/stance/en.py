"""English words of change and stance (workspace_memory.lang; read by facts.supersession, facts.stance
and recall.supersession). Patterns are regular expressions, matched case-insensitively anywhere in
a fact's claim; word lists are lower-case."""

# -- supersession: which attribute of its entity a fact states --------------------------------------
ATTRIBUTES = {
    "residence": (r"\b(lives?|living|live) (in|at|with|near|on)\b", r"\bresid(es?|ing|ence)\b",
                  r"\b(based|settled) in\b", r"\bhome (is|was)\b",
                  r"\b(new|his|her|their) (flat|apartment|house|home) in\b"),
    # A move states where someone lives and is (unless what moved is a date: "the release moved to Dec 8").
    "move": (r"\b(moved|moves|moving|relocated|relocates|relocating)\b",),
    "whereabouts": (r"\bback (in|home)\b", r"\bstay(s|ing|ed)? (in|at|with)\b", r"\bvisit(s|ed|ing)?\b",
                    r"\barrived (in|at)\b", r"\btravell?(ing|ed|s)? to\b", r"\b(now|currently) in\b",
                    r"\b(trip|holiday|vacation|weekend) (in|to)\b", r"\bfor the weekend\b",
                    r"^(currently |now |still )?(in|at) (?-i:[A-Z])"),
    "employer": (r"\bwork(s|ing|ed)?( \S+){0,4} (at|for)\b", r"\b(joined|joins|joining)\b",
                 r"\bemployed\b", r"\bhired\b", r"\bstart(s|ed|ing)? (as|at)\b", r"\bnew job\b",
                 r"\bjob at\b", r"\bcontract (with|as|at)\b", r"\bresign(s|ed)?\b", r"\bquit\b",
                 r"\bfreelanc(e|er|ing)\b", r"\bleft @"),
    "relationship": (r"\bdating\b", r"\b(is |got )?(married|engaged)\b", r"\b(is|has|got|new|now)( an?| his| her| their)? ((girl|boy)friend|partner|wife|husband|fianc[ée]e?)\b", r"\b(split|broke) up\b", r"\bseparated\b",
                     r"\bdivorced?\b", r"\bseeing (?-i:[A-Z])", r"\bin a relationship\b", r"\btogether with\b"),
    "role": (r"\bpromot(ed|ion)\b", r"\bappointed\b", r"\b(head|lead) of\b", r"\bteam lead\b",
             r"\b(manager|director|cto|ceo|vp)\b", r"\b(new )?(role|title|position) (as|is|of)\b",
             r"\bstep(s|ped)? down\b", r"\bin charge of\b"),
    "status": (r"\b(in )?(alpha|beta)\b", r"\bpaused\b", r"\bon hold\b", r"\bcancell?ed\b", r"\bshipped\b",
               r"\blaunched\b", r"\bwent live\b", r"\bresumed\b", r"\bback on\b", r"\bhalted\b",
               r"\bblocked\b", r"\b(is |was )?(done|finished|completed)\b", r"\bstatus\b", r"\bin progress\b",
               r"\brolled out\b", r"\bshelved\b"),
    "date": (r"\b(planned|scheduled|set|due|booked) (for|on)\b", r"\bmoved (to|from) (\w+ )?\d",
             r"\bmoved again\b", r"\b(postponed|rescheduled|delayed|pushed|slipped|brought forward)\b",
             r"\bdeadline\b", r"\brelease date\b", r"\bnew date\b"),
}
# A state that ended: "no longer", "left", "quit" (rule 4 of facts.supersession).
CHANGE = (r"\bno longer\b", r"\bnot any ?more\b", r"\bstopped\b", r"\bquit\b", r"\bleft\b", r"\bmoved out\b",
          r"\bends?\b", r"\bended\b")
# What a question asks about: "where does Jonas live" asks about the residence.
ASKED = {
    "residence": (r"\b(live|lives|living|reside|resides|home|based|address|flat|apartment)\b",),
    "employer": (r"\b(work|works|working|job|employer|employed|company)\b",),
    "relationship": (r"\b(dating|date|married|partner|girlfriend|boyfriend|wife|husband|together|with)\b",),
    "role": (r"\b(role|title|position|job title|lead|manager)\b",),
    "status": (r"\b(status|state|paused|running|done|shipped|launched|progress)\b",),
    "date": (r"\b(when|date|day|planned|scheduled|ship|release)\b",),
}


# -- stance -------------------------------------------------------------------------------------------
# Evaluative word stems: a stem matches a word that starts with it (at least 4 letters, or the whole word).
POSITIVE = """
good great excellent love loves loved like likes liked enjoy prefer favou favorite fantastic awesome amazing
brilliant best better solid reliable stable fast fit useful helpful worth recommend happy fan nice wonderful
perfect impressive elegant clean simple productive pleasant fun easy works well trust support agree right
correct smart safe powerful ideal superb keen glad
"""
NEGATIVE = """
bad terrible awful horrible hate hates hated dislike avoid overhyp overrat overkill worse worst poor slow
buggy unreliable unstable useless pointless waste annoying painful clunky bloated messy broken fragile
disappoint frustrat mediocre meh boring hard difficult complicated confusing ugly wrong risky dangerous
expensive regret overpriced distrust oppose disagree reject kill hype nightmare mess
"""
NEGATION = frozenset("not never no nor cannot cant dont doesnt didnt isnt wasnt arent werent wont stopped quit "
                     "ceased hardly".split())
NEGATION_PHRASES = ("no longer", "not anymore", "not any more", "gave up on", "gave up")
CHANGE_CUES = ("changed my mind", "changed his mind", "changed her mind", "after all", "anymore", "any more",
               "these days", "nowadays", "no longer", "now", "after the", "since the")
CLAUSE = frozenset("but however although though yet while whereas if".split())
# A degree past what is wanted ("too optimistic", "too slow"): the word it qualifies is negative.
EXCESS = frozenset({"too", "overly", "excessively"})
# A degree that suffices ("fast enough", "good enough"): the word it qualifies is positive.
ENOUGH = frozenset({"enough", "sufficiently"})
# Words that say the statement holds again or still (a restatement, not a change).
AGAIN = frozenset({"again", "still"})
# A statement's verb of being: the word after it (and after a degree word) is what is said of the topic.
COPULA = frozenset("is are was were be been seems seem feels feel looks look sounds sound stays stay "
                   "remains remain got gets became becomes".split())
DEGREE = frozenset("very so quite rather really pretty fairly too overly bit little extremely somewhat".split())
STOP = frozenset("""
a an the and or of to in on at for with by from as is are was were be been being it its this that these those he
she they them his her their him i we you my our your me us so than then there here very really just also still
again any more much many some such about into over after before has have had do does did will would can could next near close
should may might must all most thinks think thought feels feel says said seems seem find finds found since
""".split())
