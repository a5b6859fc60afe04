"""The agent's hot call, `memory recall ... --json`, without importing click.

An agent runs `memory recall "..." --json` many times a day, each in a new process. Importing
click (with inspect, uuid, platform and gettext, which it pulls in) is about a fifth of such a
cold recall on this project's machine (docs/benchmarks.md, "Working record: cold start", fifth pass). So the console
script first tries this reader: it takes the plain cases of that one command and hands every
other command line to click, unchanged.

It never decides a failure itself. Help, an unknown or repeated option, a value click would
reject or convert (an out-of-range --k, a --mode not in the list, an unreadable --since, --until
or --now (cli/option_values), a value that starts with a dash), human output, --batch, a blank query without a filter, or an output stream that is not
UTF-8: for all of these it answers None and click parses the line, with click's own messages.
A line it takes yields the same RecallRequest that click would build: the option table below
is made from recall/params.py, as click's options are, and tests/test_cli_quick.py checks it
against recall's click command and the output against click's path on the same lines.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence

from ..recall.params import PARAMS
from .option_values import RECALL_CHECKS, now_problem

COMMAND = "recall"
GLOBAL_OPTIONS = {"--workspace": "workspace", "--now": "now"}  # with their environment variables:
GLOBAL_ENV = {"workspace": "MEMORY_WORKSPACE", "now": "MEMORY_NOW"}
# recall's options by kind (recall/params.py), and --json, the one option of the CLI's own this path reads.
FLAGS = {p.option: p.name for p in PARAMS if p.kind == "flag"} | {"--json": "as_json"}
TEXT = {p.option: p.name for p in PARAMS if p.kind == "text" and p.option}
NUMBERS = {p.option: (p.name, p.low, p.high) for p in PARAMS if p.kind == "int"}  # an int in [low, high]
CHOICES = {p.option: (p.name, p.choices) for p in PARAMS if p.kind == "choice"}
MULTIPLE = {p.option: p.name for p in PARAMS if p.kind == "multiple"}

Parsed = tuple[dict[str, str | None], dict[str, object]]  # (global options, RecallRequest fields)


def parse(args: Sequence[str], environ: Mapping[str, str]) -> Parsed | None:
    """The global options and the recall fields of a plain `memory [--workspace D] [--now T]
    recall QUERY [options] --json` line; None for anything click must read."""
    options: dict[str, str | None] = {name: environ.get(var) or None for name, var in GLOBAL_ENV.items()}
    fields: dict[str, object] = {}
    query: str | None = None
    command = False
    seen: set[str] = set()
    i = 0
    while i < len(args):
        token = args[i]
        i += 1
        if not token.startswith("-"):
            if not command:
                if token != COMMAND:
                    return None
                command = True
            elif query is None:
                query = token
            else:
                return None  # a second argument: click's error
            continue
        name, eq, inline = token.partition("=")
        if name in seen and name not in MULTIPLE:
            return None  # which one wins is click's to say
        seen.add(name)
        if command and name in FLAGS:
            if eq:
                return None
            fields[FLAGS[name]] = True
            continue
        if not (name in GLOBAL_OPTIONS or command and (name in TEXT or name in NUMBERS or name in CHOICES
                                                       or name in MULTIPLE)):
            return None  # help, --version, --batch, a short or unknown option, "--", "-"
        if eq:
            value = inline
        elif i < len(args) and not args[i].startswith("-"):
            value = args[i]
            i += 1
        else:
            return None
        if not _take(name, value, options, fields):
            return None
    if not command or not fields.pop("as_json", False):
        return None
    fields["query"] = query = query or ""
    if not query.strip() and not any(fields.get(f) for f in ("since", "until", "entity", "kind")):
        return None  # click's usage error
    if options["now"] and now_problem("--now", options["now"]):
        return None  # an unreadable --now or MEMORY_NOW: click's usage error, exit 2
    return options, fields


def _take(name: str, value: str, options: dict[str, str | None], fields: dict[str, object]) -> bool:
    """Store one option's value as click would convert it; False where click must judge it."""
    if name in GLOBAL_OPTIONS:
        options[GLOBAL_OPTIONS[name]] = value
    elif name in TEXT:
        if TEXT[name] in RECALL_CHECKS and RECALL_CHECKS[TEXT[name]](name, value):
            return False  # an unreadable --since/--until: click's usage error, exit 2
        fields[TEXT[name]] = value
    elif name in MULTIPLE:
        fields[MULTIPLE[name]] = (*fields.get(MULTIPLE[name], ()), value)  # type: ignore[misc]
    elif name in NUMBERS:
        field, low, high = NUMBERS[name]
        if not (value.isascii() and value.isdigit()) or not low <= int(value) <= (high or int(value)):
            return False
        fields[field] = int(value)
    else:
        field, choices = CHOICES[name]
        if value not in choices:
            return False
        fields[field] = value
    return True


def runner(args: Sequence[str], environ: Mapping[str, str]) -> Callable[[], None] | None:
    """The whole invocation, ready to run, when `args` is a line this path takes; else None.

    Called by the console script with the collector off: what the recall needs is imported here.
    """
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    parsed = parse(args, environ) if encoding == "utf8" else None
    if parsed is None:
        return None
    from ..api import Memory
    from ..recall.query import RecallRequest
    from .leave import leave
    from .process import guarded, json_text, one_blas_thread

    options, fields = parsed

    def recall() -> None:
        memory = Memory.open(options["workspace"], options["now"])
        try:
            result = memory.recall(RecallRequest(**fields))  # type: ignore[arg-type]
        finally:
            memory.close()
        sys.stdout.write(json_text(result) + "\n")

    def run() -> None:
        import gc

        one_blas_thread()
        code = guarded(recall)
        gc.freeze()
        leave(code, COMMAND)

    return run
