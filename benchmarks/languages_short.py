"""Short questions in a workspace that names no language: the notes alone say what they are written in.

    python benchmarks/languages_short.py [--modes lexical,hybrid] [--langs en,de,es,fr,it,nl] [--workdir DIR]
                                         [--verbose] [--constants "..."]

The workspace is benchmarks/languages.py's (languages_notes.py, ten days of notes line for line the same
in each language), but with no memory.toml (no `[time] languages`) and the locale unset (LANG=C.UTF-8):
as a new user starts. Asked of each language's notes:

- SHORT, below: questions as a user types them, most holding none, one or two of the small words
  lang/identify.py tells a language by ("Wann zieht Peter um?": only "wann"): moves, where someone
  lives, returns, starts; and a noun for a verb of the notes ("¿Mudanza de Peter?", "¿Cuándo es la
  mudanza de Peter?" of "Se muda a Múnich"). Written on 2026-12-06 before the change they measure (h40e), in de, es, fr, it and nl,
  with English for the English notes.
- the 24 questions of languages_questions.py, in the notes' language ("native").

A question is answered at n when one of its first n results covers an expected line (benchmarks/
languages.py's hit_rank). Reported per language: hit@1, hit@3, hit@5 of each set.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from languages import ask, expected_lines, summary
from languages_notes import LANGS, files
from languages_questions import NOW, QUESTIONS
from stats import patch_constants, question_set_args
from workspace_memory.api import Memory

D18, D20, D21, D24, D25 = (f"memory/2025-11-{d}.md" for d in (18, 20, 21, 24, 25))
PETER, PRIYA = "bank/entities/Peter.md", "bank/entities/Priya.md"
MOVE = [(D24, "Moves to Munich on December 15"), (PETER, "Moving from Vienna to Munich")]
LIVES = [(D18, "Lives in Vienna"), (PETER, "Moving from Vienna to Munich")]
RETURN = [(D25, "Returns from parental leave")]
STARTS = [(D21, "Signed the contract"), (PRIYA, "Leaves Nordbank for Fernwerk")]
DENTIST = [(D20, "Dentist appointment")]
SHORT_LANGS = ("en", "de", "es", "fr", "it", "nl")
# (kind, {lang: question}, expected sources); a language missing from a row has no such question.
SHORT = [
    ("move", {"en": "When does Peter move?", "de": "Wann zieht Peter um?", "es": "¿Cuándo se muda Peter?",
              "fr": "Quand déménage Peter ?", "it": "Quando si trasferisce Peter?", "nl": "Wanneer verhuist Peter?"},
     MOVE),
    ("move", {"en": "Peter's move?", "de": "Peters Umzug?", "es": "¿Mudanza de Peter?",
              "fr": "Le déménagement de Peter ?", "it": "Il trasloco di Peter?", "nl": "Verhuizing van Peter?"},
     MOVE),
    ("move", {"en": "When is Peter's move?", "de": "Wann ist Peters Umzug?", "es": "¿Cuándo es la mudanza de Peter?",
              "fr": "C'est quand, le déménagement de Peter ?", "it": "Quando è il trasloco di Peter?",
              "nl": "Wanneer is de verhuizing van Peter?"},
     MOVE),
    ("where", {"en": "Where does Peter live?", "de": "Wo wohnt Peter?", "es": "¿Dónde vive Peter?",
               "fr": "Où vit Peter ?", "it": "Dove vive Peter?", "nl": "Waar woont Peter?"},
     LIVES),
    ("return", {"en": "When does Lea come back?", "de": "Wann kommt Lea zurück?", "es": "¿Cuándo vuelve Lea?",
                "fr": "Quand revient Lea ?", "it": "Quando rientra Lea?", "nl": "Wanneer keert Lea terug?"},
     RETURN),
    ("start", {"en": "When does Priya start at Fernwerk?", "de": "Wann beginnt Priya bei Fernwerk?",
               "es": "¿Cuándo empieza Priya en Fernwerk?", "fr": "Priya commence quand chez Fernwerk ?",
               "it": "Quando inizia Priya da Fernwerk?", "nl": "Wanneer begint Priya bij Fernwerk?"},
     STARTS),
    ("dentist", {"en": "Dentist when?", "de": "Wann Zahnarzt?", "es": "¿Cuándo el dentista?",
                 "fr": "Dentiste quand ?", "it": "Quando il dentista?", "nl": "Wanneer tandarts?"},
     DENTIST),
]


def build(root: Path, lang: str) -> Memory:
    """The workspace in `lang`, with no memory.toml, indexed (vectors too when a model is set up)."""
    for path, text in files(lang).items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    mem = Memory.open(str(root), now=NOW)
    mem.index()
    return mem


def short_questions(lang: str) -> list[tuple[str, tuple[str, ...], list]]:
    """SHORT in languages.py's question shape for `lang`: (kind, texts in LANGS order, sources)."""
    out = []
    for kind, texts, sources in SHORT:
        if lang in texts:
            row = tuple(texts.get(code, texts["en"]) for code in LANGS)
            out.append((kind, row, sources))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modes", default="lexical,hybrid")
    ap.add_argument("--langs", default=",".join(SHORT_LANGS))
    question_set_args(ap, "each miss and each rank below 1, with the top 3", "subject.SUBJECT_MISS=1.0")
    args = ap.parse_args()
    patch_constants(args.constants)
    for name in ("LC_ALL", "LC_TIME"):
        os.environ.pop(name, None)
    os.environ["LANG"] = "C.UTF-8"  # the locale names no language: only the notes do
    expected_native = expected_lines()
    kinds = tuple(dict.fromkeys(kind for kind, _, _ in SHORT))
    rows: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(args.workdir or tmp)
        for lang in args.langs.split(","):
            mem = build(workdir / lang, lang)
            questions = short_questions(lang)
            for mode in args.modes.split(","):
                ranks = ask(mem, mode, lang, expected_lines(questions), args.verbose, f"{lang} short", questions)
                native = ask(mem, mode, lang, expected_native, args.verbose, f"{lang} native")
                rows.setdefault(mode, {})[lang] = (summary(ranks, questions, kinds), summary(native))
            mem.close()
    for mode, by_lang in rows.items():
        print(f"\n{mode}: short questions hit@1 hit@3 hit@5 of {len(SHORT)}  |  native questions of {len(QUESTIONS)}")
        for lang, (short, native) in by_lang.items():
            print(f"  {lang:4} {short['at1']:3} {short['at3']:5} {short['at5']:5}   |  "
                  f"{native['at1']:3} {native['at3']:5} {native['at5']:5}")


if __name__ == "__main__":
    main()
