"""Recall over session transcripts: planted facts, told once among many messages (issue 27).

    python benchmarks/session_recall.py [--modes lexical,hybrid] [--workdir DIR] [--json FILE]

Writes a workspace (3 days of notes) and TRANSCRIPTS OpenClaw JSONL transcripts of
benchmarks/sessions.py's shape (user and assistant messages, thinking blocks, tool calls, tool
results), deterministic and offline. Most messages are filler: ordinary requests and answers about
software work, and sessions.py's word salad. Planted among them, each told once, are the FACTS
below, in one of three placements:

- `short`: a message of its own (a user's remark, an assistant's confirmation);
- `buried`: one sentence in the middle of a long assistant answer (after 500-900 characters of
  other sentences, with more after it), as a fact said in passing in a long reply;
- `reply`: a short answer whose subject is only in the user's question just before it ("Where
  did you book the offsite?" / "Porto, the second week of May."): the evidence is the answer's
  line (the question's line counts too).

Each fact has two questions: `lexical` shares its rare words, `paraphrase` shares none of them
(only stop words and common words), so that only a vector can find it. The evidence is the JSONL
line of the planted message (`sessions/<file>#L<line>`). The set was written before any scheme of
vectors for transcripts was chosen, and is not changed to suit one.

The workspace is indexed with the configured embedder (default: the default model) and every
question asked with `--source sessions`, k = 10. Reported per mode: hit@1, @5, @10 (the evidence
among the first k results) and r@2000c (among the results that fit in 2,000 characters of their
text, as benchmarks/locomo.py), for all questions and by kind and placement; and the index's wall
and CPU seconds. `--workdir` keeps the index, so a second run with the same code only asks.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from sessions import sentence
from workspace_gen import PLACES, PROJECTS, TOPICS, entities, generate

NOW = "2025-07-01T18:00"
TRANSCRIPTS = 3
MESSAGES = 1_100  # lines of each transcript, before the planted ones
KS = (1, 5, 10)
BUDGET_CHARS = 2_000

# (placement, role of the fact's message, fact, lexical question, paraphrase question). For `reply`,
# the fact is "user question || assistant answer".
FACTS: list[tuple[str, str, str, str, str]] = [
    ("short", "user", "My sister Ingrid adopted a retired greyhound called Biscuit last weekend.",
     "what is Ingrid's greyhound called", "what name did my sibling give the racing dog she took home"),
    ("short", "user", "I'm allergic to shellfish, so never book the seafood place for team dinners.",
     "shellfish allergy seafood place", "which food makes me ill when we eat out together"),
    ("short", "assistant", "Done: the staging database password now rotates every 45 days, as Tomasz asked.",
     "how often does the staging database password rotate", "how long until the credentials for the pre-production store change again"),
    ("short", "user", "Remind me that my passport expires in March, I need to renew it before the Tokyo trip.",
     "when does my passport expire", "by what month must my travel document be renewed"),
    ("short", "user", "Our landlord is raising the office rent by 12 percent from October.",
     "how much is the landlord raising the office rent", "by how much will the workplace lease cost go up"),
    ("short", "assistant", "Noted: Priya prefers to be called Pri, and she is off every Friday for her pottery class.",
     "when is Priya's pottery class", "which weekday is our colleague away for her ceramics hobby"),
    ("short", "user", "I switched my running plan: marathon training three mornings a week with Coach Delgado.",
     "who is my marathon coach", "who helps me prepare for the long-distance race"),
    ("short", "user", "The espresso machine in the kitchen is broken again, the grinder jams on dark roast.",
     "why is the espresso machine broken", "what is wrong with the coffee maker at work"),
    ("short", "assistant", "I cancelled the Heroku subscription; billing for it stops on the 14th.",
     "when does Heroku billing stop", "when will we stop paying for the hosting platform we dropped"),
    ("short", "user", "My daughter Lena starts violin lessons on Tuesdays at the conservatory.",
     "when are Lena's violin lessons", "which day does my child learn to play her string instrument"),
    ("short", "user", "Please stop suggesting Vim keybindings, I use Emacs and always will.",
     "which editor do I use instead of Vim", "what text editing program do I prefer"),
    ("short", "assistant", "Your dentist appointment with Dr. Okafor moved to 9:30 on the 22nd.",
     "when is my appointment with Dr. Okafor", "what time do I see the person who checks my teeth"),
    ("buried", "assistant", "By the way, Marek mentioned that his wife is expecting twins in November.",
     "Marek wife expecting twins", "whose family will grow by two babies later this year"),
    ("buried", "assistant", "Also, the insurance company approved the claim for the flooded basement, 3,400 euros.",
     "insurance claim flooded basement amount", "how much money did we get back for the water damage downstairs"),
    ("buried", "assistant", "One more thing: the Kraków meetup is now hosted by Zofia at the Forum hotel.",
     "who hosts the Kraków meetup", "who organises the community gathering in that Polish city"),
    ("buried", "assistant", "Separately, your gym membership at FitZone renews automatically on the first of August.",
     "when does the FitZone membership renew", "when will the fitness club charge me again"),
    ("buried", "assistant", "Unrelated, but Hannah said the new puppy chewed through the router cable twice.",
     "puppy chewed router cable", "what did the young dog destroy at home"),
    ("buried", "assistant", "I also booked the car service for the Volvo, Thursday at the garage on Elm Street.",
     "when is the Volvo car service", "when does my vehicle go in for maintenance"),
    ("buried", "assistant", "For the record, Jonas quit smoking in April and has been using nicotine patches.",
     "when did Jonas quit smoking", "which friend gave up cigarettes this spring"),
    ("buried", "assistant", "Note that the auditors from Keller & Roth arrive on Monday to review the 2024 accounts.",
     "when do the Keller & Roth auditors arrive", "when is the external financial review starting"),
    ("buried", "assistant", "Oh, and the wedding photographer Sven needs the deposit of 800 by Friday.",
     "deposit for the wedding photographer Sven", "what payment is due for the person taking pictures at the marriage ceremony"),
    ("buried", "assistant", "Meanwhile, your mother's hip surgery went well and she is home from the clinic.",
     "how did the hip surgery go", "how is my mum after her operation"),
    ("buried", "assistant", "I should mention that the solar panels on the roof produced 410 kWh in June.",
     "how many kWh did the solar panels produce", "how much energy did the rooftop installation generate last month"),
    ("buried", "assistant", "Before I forget, Olga from accounting is leaving for a job at Spotify.",
     "where is Olga from accounting going", "which finance colleague is changing employers"),
    ("reply", "assistant", "Where did you end up booking the offsite for the platform team? || "
     "Porto, the second week of May, at a hotel by the river.",
     "platform team offsite booking", "what city will the infrastructure group meet in"),
    ("reply", "assistant", "What did the vet say about Milo's limp? || "
     "Torn ligament; he needs surgery and six weeks of rest.",
     "what did the vet say about Milo's limp", "what is wrong with my pet's leg"),
    ("reply", "assistant", "Which laptop did procurement approve for the new hires? || "
     "The ThinkPad X1, 32 GB, delivered in batches of ten.",
     "laptop procurement approved for new hires", "what computer will the people joining us get"),
    ("reply", "user", "How much did the kitchen renovation end up costing? || "
     "About 18,500 in total, 2,000 over the quote.",
     "how much did the kitchen renovation cost", "what was the final price of redoing the cooking area"),
    ("reply", "assistant", "Who is covering on-call while Rafael is on leave? || "
     "Mei takes the pager until the 30th, then Ade.",
     "who covers on-call while Rafael is on leave", "who answers production alerts during the vacation"),
    ("reply", "user", "What did your brother decide about the apartment in Ghent? || "
     "He signed the lease, moving in on the first of September.",
     "brother apartment in Ghent lease", "when is my sibling moving into his new flat in Belgium"),
    ("reply", "assistant", "Which caterer did we choose for the anniversary party? || "
     "Saffron Table, the Lebanese one, for 60 guests.",
     "caterer for the anniversary party", "who is providing the food for the celebration"),
    ("reply", "user", "Why did the school call you yesterday? || "
     "Noah got into a fight at recess, nothing serious, but I have to meet the principal.",
     "why did the school call about Noah", "what happened with my son at his classes"),
]

# Near misses: the same subjects with other details, so that the first hit is earned.
DISTRACTORS = [
    "My neighbour has a greyhound too, a grey one that hates the rain.",
    "The production database password is managed by the vault, never rotate it by hand.",
    "Marek's brother moved to Gdańsk last year.",
    "The solar panels at the Lisbon office are still waiting for the permit.",
    "Olga sent the quarterly invoices to the bank this morning.",
    "The vet clinic on Elm Street closes at six on weekdays.",
    "Procurement wants three quotes before approving any monitors.",
    "The school newsletter says the autumn term starts on the 3rd.",
    "Coach bookings for the team trip are confirmed.",
    "The insurance renewal for the office is due in December.",
]

USER = [
    "Can you check why {topic} broke after the last merge in {project}?",
    "Please summarise what changed in {topic} for {name}.",
    "What did {name} say about {topic} yesterday?",
    "Let's move {project} to the {place} region next week.",
    "Run the tests for {project} again, they were red this morning.",
    "ok", "thanks!", "Yes, go ahead.", "No, leave it as it is for now.",
    "Is {project} still pinned to the old version of {topic}?",
    "Draft a short note to {name} about {topic}, keep it friendly.",
    "How long did the last deploy of {project} take?",
    "I'm in {place} until Thursday, schedule the review after that.",
    "Why is the latency of {project} so high today?",
    "Can you open a ticket for {topic} and assign it to {name}?",
]
ASSISTANT = [
    "I looked at {topic} in {project}: the handler retries {n} times before giving up, which hides the real error.",
    "The build of {project} passed on the second try; the first failure was a flaky test in {topic}.",
    "{name} asked to keep {topic} behind a feature flag until the {place} team has tried it.",
    "I updated the config of {project} and restarted the workers; the queue drained in {n} minutes.",
    "There are {n} open issues about {topic}; most of them are duplicates of the timeout report.",
    "The migration for {project} is ready, but it locks the table for about {n} seconds.",
    "I wrote the summary for {name}: {topic} is on track, the risk is the {place} rollout.",
    "The logs show {n} errors from the {place} region, all from the same client version.",
    "I rebased the branch of {project} on main and fixed the conflicts in {topic}.",
    "The dashboard for {project} now shows the p95 latency next to the error budget.",
    "I could not reproduce the failure in {topic} locally; it only happens under load.",
    "{name} reviewed the change to {topic} and left two comments about naming.",
]


def fill(template: str, rng: random.Random, names: list[str]) -> str:
    return template.format(topic=rng.choice(TOPICS), project=rng.choice(PROJECTS), place=rng.choice(PLACES),
                           name=rng.choice(names), n=rng.randint(2, 90))


def filler_text(role: str, rng: random.Random, names: list[str], ents: list[str]) -> str:
    """An ordinary message: templates about software work, sometimes sessions.py's word salad."""
    if rng.random() < 0.3:
        return " ".join(sentence(rng, ents, rng.randint(8, 30)) for _ in range(1 if role == "user" else rng.randint(1, 4)))
    if role == "user":
        return fill(rng.choice(USER), rng, names)
    return " ".join(fill(rng.choice(ASSISTANT), rng, names) for _ in range(rng.randint(1, 5)))


def long_answer(fact: str, rng: random.Random, names: list[str]) -> str:
    """A long assistant answer with `fact` in its middle: 500-900 characters before, more after."""
    before: list[str] = []
    while sum(len(s) + 1 for s in before) < rng.randint(500, 900):
        before.append(fill(rng.choice(ASSISTANT), rng, names))
    after = [fill(rng.choice(ASSISTANT), rng, names) for _ in range(rng.randint(2, 4))]
    return " ".join([*before, fact, *after])


def message(role: str, text: str, rng: random.Random, at: datetime, ents: list[str]) -> dict:
    """One JSONL line of OpenClaw's shape; assistants think first and sometimes call a tool."""
    stamp = at.strftime("%Y-%m-%dT%H:%M:%S.000Z")
    content: list[dict] = [{"type": "text", "text": text}]
    if role == "assistant":
        content.insert(0, {"type": "thinking", "thinking": sentence(rng, ents, rng.randint(20, 60))})
        if rng.random() < 0.3:
            content.append({"type": "toolCall", "id": f"call_{rng.getrandbits(32):x}", "name": "exec",
                            "arguments": {"command": "git log -5 " + rng.choice(PROJECTS).lower()}})
    return {"type": "message", "id": f"{rng.getrandbits(32):08x}", "timestamp": stamp,
            "message": {"role": role, "content": content, "timestamp": int(at.timestamp() * 1000)}}


def tool_result(rng: random.Random, at: datetime, ents: list[str]) -> dict:
    return {"type": "message", "timestamp": at.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "message": {
        "role": "toolResult", "toolCallId": "call", "toolName": "exec",
        "content": [{"type": "text", "text": "\n".join(sentence(rng, ents, 12) for _ in range(rng.randint(3, 12)))}]}}


def write_transcripts(folder: Path, seed: int = 11) -> list[dict]:
    """The transcripts, with the facts and distractors planted; returns the questions with their evidence."""
    rng = random.Random(seed)
    ents, names = entities(50), [n for n in entities(30) if n not in PROJECTS]
    folder.mkdir(parents=True, exist_ok=True)
    # Which transcript and message position each fact and distractor goes to, spread evenly.
    items = list(range(len(FACTS) + len(DISTRACTORS)))
    rng.shuffle(items)
    slots: dict[int, tuple[int, int]] = {}
    for t in range(TRANSCRIPTS):
        mine = items[t::TRANSCRIPTS]
        slots.update(zip(mine, ((t, pos) for pos in rng.sample(range(20, MESSAGES - 20), len(mine))), strict=True))
    questions: list[dict] = []
    for t in range(TRANSCRIPTS):
        name = f"session-{t + 1}.jsonl"
        at = datetime(2025, 6, 2 + 9 * t, 8, tzinfo=UTC)
        lines: list[dict] = [{"type": "session", "version": 3, "id": f"s{t + 1}", "timestamp":
                              at.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "cwd": "/home/peter"}]
        planted = {pos: i for i, (tr, pos) in slots.items() if tr == t}
        role = "user"
        for pos in range(MESSAGES):
            at += timedelta(seconds=rng.randint(5, 240))
            if pos in planted and planted[pos] >= len(FACTS):
                lines.append(message("user", DISTRACTORS[planted[pos] - len(FACTS)], rng, at, ents))
            elif pos in planted:
                placement, fact_role, fact, lexical, paraphrase = FACTS[planted[pos]]
                if placement == "reply":
                    asked, answer = fact.split(" || ")
                    asker = "user" if fact_role == "assistant" else "assistant"
                    lines.append(message(asker, asked, rng, at, ents))
                    lines.append(message(fact_role, answer, rng, at + timedelta(seconds=20), ents))
                    evidence = [len(lines) - 1, len(lines)]  # 1-based lines: the question and the answer
                else:
                    text = long_answer(fact, rng, names) if placement == "buried" else fact
                    lines.append(message(fact_role, text, rng, at, ents))
                    evidence = [len(lines)]
                for kind, question in (("lexical", lexical), ("paraphrase", paraphrase)):
                    questions.append({"question": question, "kind": kind, "placement": placement,
                                      "evidence": [f"sessions/{name}#L{line}" for line in evidence]})
            else:
                lines.append(message(role, filler_text(role, rng, names, ents), rng, at, ents))
            if role == "assistant" and rng.random() < 0.35:
                lines.append(tool_result(rng, at, ents))
            role = "assistant" if role == "user" else "user"
        (folder / name).write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    return questions


def cited(result: dict) -> str:
    return f"{result['path']}#L{result['start_line']}"


def score(results: list[dict], evidence: list[str]) -> dict[str, float]:
    """hit@k and hit within BUDGET_CHARS of result text for one question."""
    out = {f"hit@{k}": float(any(cited(r) in evidence for r in results[:k])) for k in KS}
    used, within = 0, []
    for r in results:
        used += len(r["content"])
        if used > BUDGET_CHARS:
            break
        within.append(r)
    out[f"r@{BUDGET_CHARS}c"] = float(any(cited(r) in evidence for r in within))
    return out


def build(root: Path) -> tuple[list[dict], float, float]:
    """The workspace and its transcripts under `root`, indexed (reused when already there)."""
    from workspace_memory.api import Memory

    questions_file = root / "questions.json"
    if not questions_file.exists():
        shutil.rmtree(root, ignore_errors=True)
        generate(root / "ws", 3, 10)
        questions = write_transcripts(root / "sessions")
        (root / "ws" / "memory.toml").write_text(f'[sessions]\npaths = ["{root / "sessions"}"]\n', encoding="utf-8")
        questions_file.write_text(json.dumps(questions, indent=1), encoding="utf-8")
    questions = json.loads(questions_file.read_text(encoding="utf-8"))
    t0, cpu0 = time.perf_counter(), time.process_time()
    mem = Memory.open(str(root / "ws"), NOW)
    mem.index()
    mem.close()
    return questions, time.perf_counter() - t0, time.process_time() - cpu0


def evaluate(root: Path, questions: list[dict], mode: str) -> dict[str, dict[str, float]]:
    """Mean scores of `mode` over all questions, by kind and by placement."""
    from workspace_memory.api import Memory
    from workspace_memory.recall.query import RecallRequest

    mem = Memory.open(str(root / "ws"), NOW)
    groups: dict[str, list[dict[str, float]]] = {}
    try:
        for q in questions:
            out = mem.recall(RecallRequest(q["question"], k=10, mode=mode, source="sessions"))
            results = out["results"]
            s = score(results, q["evidence"])
            for group in ("all", q["kind"], f"{q['kind']} {q['placement']}"):
                groups.setdefault(group, []).append(s)
    finally:
        mem.close()
    return {g: {**{m: sum(s[m] for s in ss) / len(ss) for m in ss[0]}, "n": len(ss)} for g, ss in groups.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--modes", default="lexical,hybrid")
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    root = args.workdir or Path(tempfile.mkdtemp(prefix="wm-session-recall-"))
    questions, wall, cpu = build(root)
    print(f"{len(questions)} questions over {TRANSCRIPTS} transcripts; index {wall:.1f} s wall, {cpu:.1f} s CPU")
    report: dict = {"index_wall_s": wall, "index_cpu_s": cpu}
    for mode in args.modes.split(","):
        report[mode] = evaluate(root, questions, mode)
        print(f"\n## {mode}")
        for group, s in report[mode].items():
            print(f"{group:22s} n={int(s['n']):3d}  " + "  ".join(f"{m} {v:.3f}" for m, v in s.items() if m != "n"))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")
    if args.workdir is None:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
