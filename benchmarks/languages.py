"""Recall in every language the model reads: one user's notes in seven languages, the same questions in each.

    python benchmarks/languages.py [--modes lexical,hybrid] [--langs en,de,es,fr,pt,zh,ja] [--workdir DIR]
                                   [--out FILE.json] [--verbose] [--constants "subject.SUBJECT_MISS=1.0"]
    python benchmarks/languages.py --langs en,it,nl,ru,ko

The workspace (languages_notes.py) is ten days of a user's notes, line for line the same in English,
German, Spanish, French, Portuguese, Chinese and Japanese, and (languages_more.py) Italian, Dutch,
Russian and Korean (the default --langs is the first seven); the 24 questions (languages_questions.py)
are asked in each language of that language's notes, with `[time] languages = ["en", <lang>]` in
memory.toml (default settings otherwise), and the English questions of every language's notes too
(the model reads across languages; the rules around it must not get in the way). For en, it, nl, ru
and ko, eight more questions about the coming days and about change (languages_more.COMING: a move, a
new job, a changed opinion) are reported on their own ("coming" rows).

A question is answered at n when one of its first n results covers an expected line. Reported per
language and per category: hit@1, hit@3, hit@5. The target of issue 40: English >= 21/24 at 3, and
every other language >= 0.9 x English.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from languages_more import COMING, COMING_LANGS
from languages_notes import FIRST_LANGS, LANGS, files
from languages_questions import CATEGORIES, NOW, QUESTIONS
from stats import hit_rank, patch_constants, question_set_args
from workspace_memory.api import Memory
from workspace_memory.recall.query import RecallRequest

K = 5


def build(root: Path, lang: str) -> Memory:
    """The workspace in `lang`, indexed (vectors too when a model is set up)."""
    for path, text in files(lang).items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    if lang != "en":
        (root / "memory.toml").write_text(f'[time]\nlanguages = ["en", "{lang}"]\n', encoding="utf-8")
    mem = Memory.open(str(root), now=NOW)
    mem.index()
    return mem


def expected_lines(questions: list = QUESTIONS) -> list[list[tuple[str, int | None]]]:
    """Each question's expected (path, 1-based line) in the English files; None: any line of the file."""
    english = files("en")
    out = []
    for _, _, sources in questions:
        found = []
        for path, fragment in sources:
            if fragment is None:
                found.append((path, None))
                continue
            lines = english[path].splitlines()
            number = next(i for i, line in enumerate(lines, 1) if fragment in line)
            found.append((path, number))
        out.append(found)
    return out


def ask(mem: Memory, mode: str, question_lang: str, expected: list, verbose: bool, label: str,
        questions: list = QUESTIONS, langs: tuple = LANGS) -> list[int | None]:
    """The rank of each question (in `question_lang`) in this workspace."""
    at = langs.index(question_lang)
    ranks = []
    for (category, texts, _), wanted in zip(questions, expected, strict=True):
        results = mem.recall(RecallRequest(texts[at], k=K, mode=mode))["results"]
        rank = hit_rank(results, wanted)
        ranks.append(rank)
        if verbose and (rank is None or rank > 1):
            print(f"  [{label} {mode}] {rank or '-'} {category:10} {texts[at]}")
            for r in results[:3]:
                print(f"        {r['score']:.3f} {r['path']}:{r['start_line']} {r['content'][:70]}")
    return ranks


def summary(ranks: list[int | None], questions: list = QUESTIONS, categories: tuple = CATEGORIES) -> dict:
    """hit@1/3/5 overall and hit@3 per category."""
    def hits(n: int, rs: list[int | None]) -> int:
        return sum(1 for r in rs if r is not None and r <= n)
    per_category = {c: hits(3, [r for (cat, _, _), r in zip(questions, ranks, strict=True) if cat == c])
                    for c in categories}
    return {"at1": hits(1, ranks), "at3": hits(3, ranks), "at5": hits(5, ranks), "n": len(ranks),
            "at3_by_category": per_category}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modes", default="lexical,hybrid")
    ap.add_argument("--langs", default=",".join(FIRST_LANGS))
    ap.add_argument("--out", help="write the figures as JSON here")
    question_set_args(ap, "each miss and each rank below 1, with the top 3", "subject.SUBJECT_MISS=1.0")
    args = ap.parse_args()
    patch_constants(args.constants)
    expected = expected_lines()
    expected_coming = expected_lines(COMING)
    report: dict = {}
    coming: dict = {}
    langs = args.langs.split(",")
    ask_coming = set(COMING_LANGS) & set(langs) - {"en"}  # only when a language of languages_more.py runs
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(args.workdir or tmp)
        for lang in langs:
            mem = build(workdir / lang, lang)
            for mode in args.modes.split(","):
                native = summary(ask(mem, mode, lang, expected, args.verbose, lang))
                report.setdefault(mode, {})[lang] = native
                if lang != "en":
                    english = summary(ask(mem, mode, "en", expected, args.verbose, f"en->{lang}"))
                    report[mode][f"en->{lang}"] = english
                if ask_coming and lang in COMING_LANGS:
                    for asked in dict.fromkeys((lang, "en")):
                        name = lang if asked == lang else f"en->{lang}"
                        ranks = ask(mem, mode, asked, expected_coming, args.verbose, f"{name} coming", COMING,
                                    COMING_LANGS)
                        coming.setdefault(mode, {})[name] = summary(ranks, COMING, ("coming", "change"))
            mem.close()
    cats = " ".join(f"{c[:6]:>6}" for c in CATEGORIES)
    for mode, rows in report.items():
        print(f"\n{mode}: hit@1 hit@3 hit@5 of {len(QUESTIONS)}; hit@3 by category (of 4): {cats}")
        base = rows.get("en", {}).get("at3")
        for name, s in rows.items():
            ratio = f"{s['at3'] / base:.2f}x en" if base else ""
            by_cat = " ".join(f"{v:>6}" for v in s["at3_by_category"].values())
            print(f"  {name:7} {s['at1']:3} {s['at3']:5} {s['at5']:5}   {by_cat}   {ratio}")
    for mode, rows in coming.items():
        print(f"\n{mode}, coming days and change: hit@1 hit@3 hit@5 of {len(COMING)}; hit@3 (of 4): coming change")
        for name, s in rows.items():
            by_cat = " ".join(f"{v:>6}" for v in s["at3_by_category"].values())
            print(f"  {name:7} {s['at1']:3} {s['at3']:5} {s['at5']:5}   {by_cat}")
    if args.out:
        Path(args.out).write_text(json.dumps({**report, **({"coming": coming} if coming else {})}, indent=2),
                                  encoding="utf-8")


if __name__ == "__main__":
    main()
