"""A realistic multi-month workspace for the recall-understanding suites, and small helpers.

"Now" is Wednesday 2025-12-03 18:00 (NOW): "yesterday" is Tue 2025-12-02, "since Monday" starts
Mon 2025-12-01, "last week" is Mon 2025-11-24 .. Sun 2025-11-30, "around Nov 27" boosts
2025-11-24 .. 2025-11-30.

The daily logs run from September to December 2025 (plus one March note), with `## Retain`
sections of W/B/O/S facts about @Peter, @Mara and @Orchard; the entity pages carry display names
and aliases in their frontmatter.
"""

from __future__ import annotations

import json
import os
import tempfile
from datetime import date
from pathlib import Path
from typing import Any

from conftest import run_ok, write_files

NOW = "2025-12-03T18:00"
TODAY = date(2025, 12, 3)

LONG_PARAGRAPH = (
    "Dunning design notes for the billing rewrite: the first reminder goes out three days after a "
    "failed charge, the second after seven days, and the account is paused after fourteen days unless "
    "the customer updates the card in the portal. Every reminder links to the hosted payment page, "
    "carries the invoice number and the amount due in the customer's currency, and is logged in the "
    "audit trail with the template version. Retries use the smart schedule from the payment provider "
    "and never run on weekends for business accounts. Finance wants a weekly digest of paused accounts "
    "and a monthly export of write-offs, and support wants a one-click resume button that also retries "
    "the last failed charge. Open question: should partial payments reset the reminder clock?"
)
assert 700 < len(LONG_PARAGRAPH) < 800, len(LONG_PARAGRAPH)

CJK_NOTE = "发票导出已经完成，明天检查所有客户的账单金额和税率是否正确无误，并通知财务团队和设计团队，确认下个月的发布计划。"

FILES: dict[str, str] = {
    "MEMORY.md": """\
# Core memory

## Human
- Name: Peter Steinberger, founder of the Orchard project.
- Timezone: Europe/London
""",
    "bank/world.md": """\
# World

- The office wifi password rotates every quarter.
- Orchard invoices are generated nightly at 02:00 UTC.
""",
    "bank/entities/Peter.md": """\
---
name: Peter Steinberger
aliases: [Pete, steipete]
---
# Peter

Founder of the Orchard project. Reachable on Signal.
""",
    "bank/entities/Mara.md": """\
---
name: Mara Okafor
aliases: [Okafor, the designer]
---
# Mara

Product designer on Orchard; owns the design system.
""",
    "bank/entities/Orchard.md": """\
---
name: Orchard
aliases: [the billing rewrite]
---
# Orchard

The billing rewrite: invoices, dunning and the customer portal.
""",
    "memory/2025-03-10.md": """\
# 2025-03-10

## Notes
- Filed ticket OPS-4471 about the flaky nightly backup of the media bucket.

## Retain
- W @Peter: Lives in Vienna with his partner.
""",
    "memory/2025-09-02.md": """\
# 2025-09-02

## Notes
- Kickoff for the billing rewrite with Peter and Mara.

## Retain
- W @Orchard: The billing rewrite starts with the invoice generator.
- B @Orchard: I set up the Orchard repository and the CI pipeline.
""",
    "memory/2025-09-15.md": """\
# 2025-09-15

## Retain
- O(c=0.7) @Peter: Thinks Rust is overkill for the Orchard CLI; Go is enough.
- W @Mara: Joined the Orchard team as product designer.
""",
    "memory/2025-09-29.md": """\
# 2025-09-29

## Notes
- Staging deploy of Orchard went fine after the schema fix.

## Retain
- S @Peter: Reviews pull requests late in the evening.
""",
    "memory/2025-10-08.md": """\
# 2025-10-08

## Retain
- W @Mara: On parental leave (Oct 20–Nov 15, 2025); design reviews wait for her return.
- O(c=0.4) @Mara: Prefers Figma over Sketch for the design system.
""",
    "memory/2025-10-20.md": """\
# 2025-10-20

## Retain
- W @Peter: Moved to London for the new office.
""",
    "memory/2025-10-27.md": f"""\
# 2025-10-27

## Notes
{LONG_PARAGRAPH}

## Retain
- B @Orchard: I migrated the invoice tables to Postgres 16.
""",
    "memory/2025-11-03.md": """\
# 2025-11-03

## Retain
- O(c=0.9) @Peter: Prefers green tea over coffee in the afternoon.
- W @Orchard: Dunning emails go out three days after a failed charge.
""",
    "memory/2025-11-05.md": """\
# 2025-11-05

## Notes
- The portal deploy freeze for December was announced.

## Retain
- B @Orchard: I fixed the invoice rounding bug for Swiss francs.
""",
    "memory/2025-11-12.md": f"""\
# 2025-11-12

## Notes
- {CJK_NOTE}

## Retain
- W @Peter: Speaks at the Berlin fintech meetup on Nov 20, 2025.
""",
    "memory/2025-11-20.md": """\
# 2025-11-20

## Retain
- B @Peter: I drafted the meetup slides about Orchard for Peter.
""",
    "memory/2025-11-27.md": """\
# 2025-11-27

## Notes
- Portal deploy to production went out; smoke tests passed.

## Retain
- W @Peter: In Lisbon (Nov 27–Nov 29, 2025) for a workshop.
""",
    "memory/2025-11-28.md": """\
# 2025-11-28

## Retain
- B @Mara: I reviewed the new invoice templates with Mara.
""",
    "memory/2025-12-01.md": """\
# 2025-12-01

## Notes
- Weekly planning: focus on the Orchard tax export.

## Retain
- W @Orchard: The tax export must support reverse charge for EU customers.
""",
    "memory/2025-12-02.md": """\
# 2025-12-02

## Notes
- Portal deploy rollback drill rehearsed with the on-call team.

## Retain
- B @Mara: I paired with Mara on the invoice PDF layout.
""",
}

FAKE_TOML = '[embedding]\nprovider = "fake"\n'


def build(root: Path, files: dict[str, str] | None = None, toml: str | None = None) -> Path:
    """Write the workspace (and an optional memory.toml) under `root`; not indexed."""
    root.mkdir(parents=True, exist_ok=True)
    write_files(root, FILES if files is None else files)
    if toml is not None:
        (root / "memory.toml").write_text(toml, encoding="utf-8")
    return root


def recall(ws: Path, query: str, *args: Any, mode: str = "lexical", env: dict[str, str | None] | None = None,
           now: str = NOW) -> dict[str, Any]:
    """`memory recall QUERY --json --mode MODE ARGS` as a dict (exit code 0 asserted)."""
    out = run_ok(ws, "recall", query, "--json", "--mode", mode, *args, now=now, env=env)
    return json.loads(out)


def batch(ws: Path, specs: list[dict[str, Any]], *, mode: str = "lexical",
          env: dict[str, str | None] | None = None, now: str = NOW) -> list[dict[str, Any]]:
    """Several recalls in one process (`recall --batch`); each spec is a RecallRequest as a dict."""
    fd, name = tempfile.mkstemp(suffix=".jsonl")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(spec, ensure_ascii=False) + "\n" for spec in specs)
        out = run_ok(ws, "recall", "--batch", name, "--json", "--mode", mode, now=now, env=env)
    finally:
        os.unlink(name)
    answers = [json.loads(line) for line in out.strip("\n").split("\n")]
    assert len(answers) == len(specs)
    for spec, answer in zip(specs, answers, strict=True):
        assert "error" not in answer, (spec, answer)
    return answers


def day_of(hit: dict[str, Any]) -> date | None:
    return date.fromisoformat(hit["timestamp"]) if hit["timestamp"] else None


def about(hit: dict[str, Any], name: str, page: str) -> bool:
    """The result mentions the entity (display name in `entities`) or is the entity's page."""
    return name in hit["entities"] or hit["path"] == page


def contents(hits: list[dict[str, Any]]) -> list[str]:
    return [h["content"] for h in hits]


def rank_of(hits: list[dict[str, Any]], needle: str) -> int | None:
    """0-based rank of the first result whose content contains `needle`."""
    return next((i for i, h in enumerate(hits) if needle in h["content"]), None)
