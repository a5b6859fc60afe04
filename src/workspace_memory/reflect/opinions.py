"""Opinions whose confidence moves with evidence: the update rule and the pure engine that applies it.

Update rule (docs/reflect.md)
--------------------
Every ``O`` fact creates or updates an opinion. A new fact is matched to an existing opinion
when they share an entity (or both name none) and their claims are similar
(``textmatch.similarity`` >= MATCH_THRESHOLD, fuzzy.SAME_TOPIC; world/experience facts need
EVIDENCE_MATCH_THRESHOLD, fuzzy.SAME_CLAIM). With `[reflect] embeddings = true` in memory.toml the score is
0.5 * lexical + 50 * cosine of the workspace's embeddings. The best match wins; ties go to the
opinion listed first.
A matched fact *contradicts* when its polarity differs (negation, "no longer", "stopped",
antonyms such as prefers/avoids, likes/dislikes) or when it restates the opinion with a
confidence at least LOW_RESTATEMENT_GAP = 0.3 below the current one; otherwise it *reinforces*.

With ``c`` the current confidence and ``s`` in [0, 1] the strength of the evidence
(an O fact: its stated confidence, default 0.7; a low-confidence restatement: the gap
``c - c_fact``; a W or B fact: WEAK_STRENGTH = 0.5):

    reinforce:  c' = min(1, c + min(MAX_UP,   UP_RATE   * s * (1 - c)))     MAX_UP   = 0.10, UP_RATE   = 0.25
    contradict: c' = max(0, c - min(MAX_DOWN, DOWN_RATE * s * c))           MAX_DOWN = 0.20, DOWN_RATE = 0.50

so one reinforcing fact raises confidence by at most 0.1, one contradicting fact lowers it by
at most 0.2, and confidence stays in [0, 1] (stored to 4 decimals, shown to 2). A new opinion
starts at its fact's confidence.

Which side a matched fact is on is its *stance* toward the opinion (facts.stance: topic,
polarity of the evaluative words, negation, refinement), and each evidence records the signal
that decided ("polarity: overhyped vs good"). A fact matches an opinion about the same entity
when the stance finds them on one topic (a shared topic word, or similar claims); a world or
experience fact also needs similarity >= EVIDENCE_MATCH_THRESHOLD.

The statement is replaced only when O facts of opposite polarity have contradicted it on at
least REPLACE_DAYS = 2 different days since it was set *and* confidence has fallen to
REPLACE_BELOW = 0.5 or less. Short of that, a *changed mind*: when a contradicting O fact leaves
the opinion at REPLACE_BELOW or less and its own confidence is higher than what is left, the fact
forms a new opinion, the current one, and the old one is marked superseded by it (its statement,
confidence and history stay, it takes no more evidence; entity pages show it as what the entity
used to think, and recall ranks it below the new one). "Rust is overhyped" at 0.6, contradicted
by "Rust is a good fit for backend services" at 0.8: 0.6 -> 0.4, and the new view is current. The newest contradicting fact becomes the statement, the old one
goes into the opinion's history, the confidence is re-expressed for the new statement as
``1 - c`` (the same belief seen from the other side, not new evidence), and the evidence lists
swap sides (what supported the old statement contradicts the new one). World and experience
facts move confidence but never replace a statement.

Hand edits (handled by ``opinions_md``): a statement or confidence changed by a human is the
new baseline (recorded in history); a deleted opinion leaves a tombstone, and only O facts
written after the day the deletion was noticed may create it again.

Every fact is applied at most once: its evidence hash (path + text) is kept in the opinion's
ledger in bank/opinions.md, so re-indexing or re-running never counts it twice.

A fact marked as no longer true (`memory forget`) is never applied. Evidence already applied
whose fact is now invalid is *withdrawn*: it stays listed, struck through, and its step on the
confidence is taken back (``c -= after - before``, the values the ledger kept; the fact that
formed the opinion counts from the neutral WITHDRAWN_BASE = 0.5). When the mark is taken back
(`memory forget --undo`) the step is applied again. Both are recorded in the history.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..facts.model import Fact
from ..facts.stance import Stance, stance
from ..facts.textmatch import Claim, analyze, similarity
from ..fuzzy import SAME_CLAIM, SAME_TOPIC
from ..markdown.retain import DEFAULT_OPINION_CONFIDENCE, slugify

MAX_UP = 0.10
MAX_DOWN = 0.20
UP_RATE = 0.25
DOWN_RATE = 0.50
WEAK_STRENGTH = 0.5
LOW_RESTATEMENT_GAP = 0.3
REPLACE_DAYS = 2
REPLACE_BELOW = 0.5
WITHDRAWN_BASE = 0.5  # the confidence an opinion would have with no evidence either way
MATCH_THRESHOLD = SAME_TOPIC
EVIDENCE_MATCH_THRESHOLD = SAME_CLAIM

_KIND_LETTER = {"opinion": "O", "world": "W", "experience": "B", "observation": "S"}


def clamp(value: float) -> float:
    """Round to 4 decimals and keep within [0, 1]."""
    return round(min(1.0, max(0.0, value)), 4)


def reinforce(c: float, s: float) -> float:
    """Confidence after one reinforcing fact of strength `s` (raises by at most MAX_UP)."""
    s = min(1.0, max(0.0, s))
    return clamp(c + min(MAX_UP, UP_RATE * s * (1.0 - c)))


def contradict(c: float, s: float) -> float:
    """Confidence after one contradicting fact of strength `s` (lowers by at most MAX_DOWN)."""
    s = min(1.0, max(0.0, s))
    return clamp(c - min(MAX_DOWN, DOWN_RATE * s * c))


@dataclass
class Evidence:
    """One applied fact: its identity (hash), where it was last seen, and which side it is on."""

    hash: str
    path: str
    line: int
    day: str  # written day, "" for undated
    role: str  # "+" supports the current statement, "-" contradicts it
    kind: str = "O"  # O | W | B
    # The confidence this fact left, in the current statement (re-expressed as 1 - c when the statement
    # is replaced, as `role` swaps sides); None: applied before reflect kept it.
    after: float | None = None
    withdrawn: str | None = None  # the day its fact stopped being true: it no longer counts
    signal: str | None = None  # which signal decided its side (facts.stance), e.g. "polarity: overhyped vs good"


@dataclass
class HistoryEntry:
    """A change to an opinion's statement or baseline: formed, replaced, edited (by hand), set (by hand),
    withdrawn / restored (evidence whose fact was marked invalid, or valid again)."""

    day: str
    event: str
    statement: str  # the statement before the event ("formed": the statement formed)
    confidence: float  # the confidence before the event
    value: float | None = None  # "set": the confidence a human gave it
    note: str | None = None  # "withdrawn" / "restored": the evidence (path#Lline)


@dataclass
class Opinion:
    """A belief: statement, entities (keys), confidence and its evidence ledger."""

    key: str
    statement: str
    entities: list[str]
    confidence: float
    last_updated: str
    since: str  # day the current statement was set (creation, replacement or hand edit)
    pending: list[str] = field(default_factory=list)  # days of contradictions since `since`
    evidence: list[Evidence] = field(default_factory=list)
    history: list[HistoryEntry] = field(default_factory=list)
    # A changed mind: the key of the newer opinion that holds the current view, and the day it
    # formed. A superseded opinion is history: it takes no new evidence.
    superseded_by: str | None = None
    until: str | None = None


@dataclass
class Tombstone:
    """An opinion a human deleted: recreated only by O facts written after `day`."""

    key: str
    day: str
    entities: list[str]
    statement: str
    hashes: list[str] = field(default_factory=list)


@dataclass
class UpdateStats:
    """Which opinions a run created or moved, and how many facts it left out on purpose."""

    new: set[str] = field(default_factory=set)
    reinforced: set[str] = field(default_factory=set)
    contradicted: set[str] = field(default_factory=set)
    replaced: set[str] = field(default_factory=set)
    suppressed: int = 0  # facts that matched a deleted opinion and were older than its deletion
    relinked: int = 0  # ledger entries whose fact was edited in place and found again by its line
    applied: int = 0  # facts applied as evidence
    withdrawn: set[str] = field(default_factory=set)  # opinions that lost evidence to an invalid fact
    restored: set[str] = field(default_factory=set)  # opinions that got such evidence back
    unclear: set[str] = field(default_factory=set)  # opinions a newer one may contradict (stance unclear)

    @property
    def changed(self) -> set[str]:
        return (self.new | self.reinforced | self.contradicted | self.replaced | self.withdrawn | self.restored
                | self.unclear)


NamesOf = Callable[[tuple[str, ...]], tuple[str, ...]]
EmbedSimilarity = Callable[[str, str], float]  # 0..1 cosine, when embeddings are available
# (opinion, newer statement) -> (label, who judged), or None: a configured model judges an unclear stance
StanceJudge = Callable[[str, str], "tuple[str, str] | None"]


def _no_names(keys: tuple[str, ...]) -> tuple[str, ...]:
    return ()


@dataclass
class Engine:
    """Applies facts to opinions with the rule above; no I/O (the caller reads and writes the file)."""

    opinions: list[Opinion]
    tombstones: list[Tombstone]
    today: str
    names_of: NamesOf = _no_names
    embed_similarity: EmbedSimilarity | None = None
    judge: StanceJudge | None = None
    stats: UpdateStats = field(default_factory=UpdateStats)
    # Which opinions (by position) name each entity ("" for those naming none), built by `apply`:
    # a fact is compared only with the opinions it could match, not with every opinion, so a
    # run over n facts and m opinions costs n x (opinions per entity), not n x m.
    _by_entity: dict[str, list[int]] | None = field(default=None, repr=False)
    _taken: set[str] | None = field(default=None, repr=False)

    def claim(self, text: str, entities: tuple[str, ...] | list[str]) -> Claim:
        return analyze(text, self.names_of(tuple(entities)))

    def score(self, a: str, a_entities: list[str] | tuple[str, ...], b: str,
              b_entities: list[str] | tuple[str, ...]) -> float:
        """Similarity 0..100 of two claims (blended 50/50 with embeddings when present)."""
        lexical = similarity(self.claim(a, a_entities), self.claim(b, b_entities))
        if self.embed_similarity is None:
            return lexical
        return 0.5 * lexical + 50.0 * self.embed_similarity(a, b)

    # -- ledger ------------------------------------------------------------------------------
    def applied_hashes(self) -> set[str]:
        out = {e.hash for op in self.opinions for e in op.evidence}
        for tomb in self.tombstones:
            out.update(tomb.hashes)
        return out

    def refresh_ledger(self, facts: list[Fact]) -> None:
        """Follow moved facts (same hash, new line) and facts edited in place (same line, new hash)."""
        by_hash: dict[str, Fact] = {}
        for f in sorted(facts, key=lambda f: f.order):
            by_hash.setdefault(f.hash, f)  # the same bullet twice in one file is one fact: its first line
        by_line = {(f.path, f.line): f for f in facts}
        applied = self.applied_hashes()
        for op in self.opinions:
            for ev in op.evidence:
                fact = by_hash.get(ev.hash)
                if fact is not None:
                    ev.line = fact.line
                    continue
                # Trigger: the ledger's fact is gone, yet a fact sits on its old line. Why: a human
                # fixed a typo in it. Outcome: the ledger adopts it, so it is not counted again.
                edited = by_line.get((ev.path, ev.line))
                if edited is not None and edited.hash not in applied and _KIND_LETTER[edited.kind] == ev.kind:
                    ev.hash = edited.hash
                    applied.add(edited.hash)
                    self.stats.relinked += 1

    def withdraw_invalid(self, facts: list[Fact]) -> None:
        """Withdraw the evidence whose fact is now invalid, restore the evidence whose fact is valid again."""
        invalid = {f.hash: f.invalid_at or "" for f in facts if not f.valid}
        valid = {f.hash for f in facts if f.valid}
        for op in self.opinions:
            for index, ev in enumerate(op.evidence):
                if ev.withdrawn is None and ev.hash in invalid:
                    op.history.append(HistoryEntry(self.today, "withdrawn", op.statement, op.confidence,
                                                   note=f"{ev.path}#L{ev.line}"))
                    op.confidence = clamp(op.confidence - _step(op, index))
                    ev.withdrawn = invalid[ev.hash] or self.today
                    self.stats.withdrawn.add(op.key)
                elif ev.withdrawn is not None and ev.hash in valid:
                    op.history.append(HistoryEntry(self.today, "restored", op.statement, op.confidence,
                                                   note=f"{ev.path}#L{ev.line}"))
                    ev.withdrawn = None
                    op.confidence = clamp(op.confidence + _step(op, index))
                    self.stats.restored.add(op.key)

    # -- applying facts ------------------------------------------------------------------------
    def apply(self, facts: list[Fact]) -> UpdateStats:
        """Apply every not-yet-applied, valid O, W and B fact, oldest first."""
        applied = self.applied_hashes()
        self._by_entity = {}
        for position, op in enumerate(self.opinions):
            self._index(position, op)
        self._taken = {op.key for op in self.opinions} | {t.key for t in self.tombstones}
        try:
            for fact in sorted(facts, key=lambda f: f.order):
                if fact.kind not in ("opinion", "world", "experience") or fact.hash in applied or not fact.valid:
                    continue
                applied.add(fact.hash)
                self._apply_one(fact)
        finally:
            self._by_entity = self._taken = None
        return self.stats

    def _index(self, position: int, op: Opinion) -> None:
        assert self._by_entity is not None
        for key in dict.fromkeys(op.entities or [""]):
            self._by_entity.setdefault(key, []).append(position)

    def _opinions_for(self, fact: Fact) -> list[Opinion]:
        """The opinions whose entities overlap the fact's (both none counts), in list order: the
        same ones `_entities_overlap` keeps, so ties still go to the opinion listed first."""
        if self._by_entity is None:
            return self.opinions
        keys = fact.entities or ("",)
        if len(keys) == 1:
            positions = self._by_entity.get(keys[0], [])
        else:
            positions = sorted({p for key in keys for p in self._by_entity.get(key, [])})
        return [self.opinions[p] for p in positions]

    def _best(self, fact: Fact, candidates: list[Opinion] | list[Tombstone]):
        """The best-scoring candidate about the same entity and topic (facts.stance), its score and stance."""
        best, best_score, best_stance = None, -1.0, None
        for cand in candidates:
            if not _entities_overlap(fact.entities, cand.entities) or (isinstance(cand, Opinion) and cand.superseded_by):
                continue
            names = self.names_of(tuple(dict.fromkeys((*cand.entities, *fact.entities))))
            view = stance(cand.statement, fact.content, names)
            if view.label == "unrelated":
                continue
            value = self.score(fact.content, fact.entities, cand.statement, cand.entities)
            if value > best_score:
                best, best_score, best_stance = cand, value, view
        return best, best_score, best_stance

    def _apply_one(self, fact: Fact) -> None:
        op, value, view = self._best(fact, self._opinions_for(fact))
        if op is not None and view is not None and view.label == "unclear" and self.judge is not None:
            judged = self.judge(op.statement, fact.content)
            if judged is not None:  # the model's decision, recorded with the rule's evidence
                label, who = judged
                view = Stance(label, f"model {who}", view.describe(), view.change_cue)
                if label == "unrelated":
                    if fact.kind == "opinion":
                        self._create(fact)
                    return
        if op is not None and view is not None and view.label == "unclear":
            # Similarity alone is never agreement: the stance is unclear, so the newer opinion stands
            # on its own and the two are linked as "may contradict" for a person to settle.
            if fact.kind == "opinion":
                self._may_contradict(op, self._create(fact), fact.day_s or self.today, view)
            return
        # An opinion takes any statement about its topic (facts.stance); a world or experience
        # fact counts as evidence only when its claim is close to the opinion's.
        if op is not None and view is not None and (fact.kind == "opinion" or value >= EVIDENCE_MATCH_THRESHOLD):
            self._update(op, fact, view)
            return
        if fact.kind != "opinion":
            return  # world and experience facts are evidence only; they never form an opinion
        tomb, tomb_value, _ = self._best(fact, self.tombstones)
        if tomb is not None and tomb_value >= MATCH_THRESHOLD and (fact.day_s or "") <= tomb.day:
            self.stats.suppressed += 1
            return
        self._create(fact)

    def _may_contradict(self, op: Opinion, newer: Opinion, day: str, view: Stance) -> None:
        """Link two opinions whose stance is unclear, both ways, in their history (shown on the page)."""
        newer.evidence[0].signal = f"may contradict: {view.describe()}"
        op.history.append(HistoryEntry(day, "may contradict", op.statement, op.confidence, note=newer.statement))
        newer.history.append(HistoryEntry(day, "may contradict", newer.statement, newer.confidence, note=op.statement))
        self.stats.unclear.add(op.key)

    def _create(self, fact: Fact) -> Opinion:
        taken = self._taken if self._taken is not None else \
            {op.key for op in self.opinions} | {t.key for t in self.tombstones}
        day = fact.day_s or self.today
        c = clamp(fact.confidence if fact.confidence is not None else DEFAULT_OPINION_CONFIDENCE)
        op = Opinion(
            key=unique_key(opinion_key(fact.content, fact.entities), taken), statement=_one_line(fact.content),
            entities=list(fact.entities), confidence=c, last_updated=day, since=day,
            evidence=[Evidence(fact.hash, fact.path, fact.line, fact.day_s, "+", "O", c)],
            history=[HistoryEntry(day, "formed", _one_line(fact.content), c)],
        )
        self.opinions.append(op)
        taken.add(op.key)
        if self._by_entity is not None:
            self._index(len(self.opinions) - 1, op)
        self.stats.new.add(op.key)
        self.stats.applied += 1
        return op

    def _update(self, op: Opinion, fact: Fact, view: Stance) -> None:
        role, strength, counts, signal = classify(view, op.confidence, fact)
        day = fact.day_s or self.today
        evidence = Evidence(fact.hash, fact.path, fact.line, fact.day_s, role, _KIND_LETTER[fact.kind],
                            signal=signal)
        op.evidence.append(evidence)
        op.last_updated = max(op.last_updated, day)
        self.stats.applied += 1
        if role == "+":
            op.confidence = evidence.after = reinforce(op.confidence, strength)
            self.stats.reinforced.add(op.key)
            return
        op.confidence = evidence.after = contradict(op.confidence, strength)
        self.stats.contradicted.add(op.key)
        if not counts:
            # A low-confidence restatement lowers confidence but never replaces the statement:
            # it says the same thing, and replacing would swap in the statement itself with 1 - c.
            return
        if day not in op.pending:
            op.pending.append(day)
        if len(op.pending) >= REPLACE_DAYS and op.confidence <= REPLACE_BELOW:
            replace_statement(op, _one_line(fact.content), day)
            self.stats.replaced.add(op.key)
        elif op.confidence <= REPLACE_BELOW and strength > op.confidence:
            # A changed mind: the opinion has fallen to REPLACE_BELOW or less, and the new view is
            # held more firmly than what is left of it. The new view becomes an opinion of its own,
            # the current one; the old keeps its statement and history and takes no more evidence.
            newer = self._create(fact)
            newer.evidence[0].signal = signal
            op.superseded_by, op.until = newer.key, day
            op.history.append(HistoryEntry(day, "superseded", op.statement, op.confidence, note=newer.statement))
            self.stats.replaced.add(op.key)


def _step(op: Opinion, index: int) -> float:
    """How far the evidence at `index` moved the confidence when it was applied (0 when unknown)."""
    ev = op.evidence[index]
    if ev.after is None:
        return 0.0
    before = WITHDRAWN_BASE if index == 0 else op.evidence[index - 1].after
    return 0.0 if before is None else ev.after - before


def classify(view: Stance, c: float, fact: Fact) -> tuple[str, float, bool, str]:
    """(role, strength, counts toward replacement, the signal that decided) of a matched fact; see the
    module's rule. `view` is the fact's stance toward the opinion (facts.stance)."""
    strength = evidence_strength(_KIND_LETTER[fact.kind], fact.confidence)
    if view.label == "contradiction":
        return "-", strength, fact.kind == "opinion", view.describe()
    if fact.kind == "opinion" and fact.confidence is not None and fact.confidence <= c - LOW_RESTATEMENT_GAP:
        return "-", c - fact.confidence, False, f"confidence: restated at {fact.confidence:.2f} against {c:.2f}"
    return "+", strength, False, view.describe()


def evidence_strength(kind: str, fact_confidence: float | None) -> float:
    """The strength `s` of an evidence of kind O, W or B whose fact states `fact_confidence`."""
    if kind != "O":
        return WEAK_STRENGTH
    return DEFAULT_OPINION_CONFIDENCE if fact_confidence is None else fact_confidence


def confidence_trail(op: Opinion, fact_confidence: Callable[[str], float | None]) -> list[tuple[float, bool]]:
    """(confidence after it, estimated?) for each of the opinion's evidence, in the order applied.

    Values are confidences in the current statement. Reflect keeps the exact value
    (`Evidence.after`). Evidence applied before it did gets an estimate: the rule replayed from the
    previous value, on the side the evidence is on now, with the strength of its fact
    (`fact_confidence(evidence hash)`); a replacement or a hand edit in between is not replayed.
    The fact that formed the opinion is exact: the formed confidence.
    """
    formed = next((h.confidence for h in op.history if h.event == "formed"), None)
    if formed is not None and sum(h.event == "replaced" for h in op.history) % 2:
        formed = clamp(1.0 - formed)  # the formed belief, seen from the current statement
    out: list[tuple[float, bool]] = []
    for index, ev in enumerate(op.evidence):
        if ev.after is not None:
            out.append((ev.after, False))
            continue
        if index == 0 and formed is not None:
            out.append((formed, False))
            continue
        strength = evidence_strength(ev.kind, fact_confidence(ev.hash))
        if not out:
            out.append((clamp(strength), True))  # a recovered opinion: as if this fact formed it
            continue
        previous = out[-1][0]
        out.append((reinforce(previous, strength) if ev.role == "+" else contradict(previous, strength), True))
    return out


def replace_statement(op: Opinion, statement: str, day: str) -> None:
    """Swap in a new statement after repeated contradiction, keeping the old one in history."""
    op.history.append(HistoryEntry(day, "replaced", op.statement, op.confidence))
    op.statement = statement
    op.confidence = clamp(1.0 - op.confidence)
    for ev in op.evidence:
        ev.role = "-" if ev.role == "+" else "+"
        if ev.after is not None:
            ev.after = clamp(1.0 - ev.after)
    op.pending = []
    op.since = day


def opinion_key(content: str, entities: tuple[str, ...]) -> str:
    """A readable, stable key: the first entity and the first words of the claim."""
    words = content.split()[:7]
    base = slugify(" ".join(words)).lower()
    if entities and not base.startswith(entities[0]):
        base = f"{entities[0]}-{base}"
    return (base[:60].rstrip("-") or "opinion").lower()


def unique_key(base: str, taken: set[str]) -> str:
    """`base`, or `base-2`, `base-3`... so keys never collide (tombstones included)."""
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def _entities_overlap(a: tuple[str, ...] | list[str], b: list[str]) -> bool:
    return bool(set(a) & set(b)) if (a or b) else True


def _one_line(text: str) -> str:
    return " ".join(text.split()).replace("<!--", "<!-").replace("-->", "->")
