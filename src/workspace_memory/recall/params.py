"""The parameters of a recall, declared once: what `memory recall` takes, what the console
script's quick path reads, and what the MCP tool `memory_search` takes.

Each is a field of `recall.query.RecallRequest`. From this table:
- `cli/commands.py` builds recall's click options (`recall_options`);
- `cli/quick.py` builds its option table (the agent's `memory recall ... --json` without click);
- `mcp/tools.py` writes `memory_search`'s signature with these names, bounds, choices and
  descriptions; tests/test_recall_params.py compares the tool's published inputSchema, the click
  command, quick's table, RecallRequest and the OpenClaw plugin's mapping with this table.

A cold `memory recall` imports this module (the quick path does), so it stays plain: no click, no
dataclass, nothing but limits.py (docs/architecture.md, "The cold path").
"""

from __future__ import annotations

from .. import limits

MODES = ("auto", "lexical", "semantic", "hybrid")
SOURCES = ("memory", "sessions", "all")


class Param:
    """One recall parameter.

    `kind`: "text" (a string or None), "int" (in [low, high]; high None: no upper bound), "choice"
    (one of `choices`), "flag" (a bool, False unless given) or "multiple" (a tuple of strings, an
    option given again and again). `option`: the CLI's option ("--k"); None for the query, which is
    recall's argument. `limit`: the most characters of a text (limits.py). `help`: the CLI's help;
    `agent`: the MCP tool's description of it, None when the tool does not take it (the Postgres
    store's cross-workspace options and --explain are the CLI's).
    """

    __slots__ = ("name", "kind", "option", "default", "low", "high", "choices", "limit", "metavar", "help", "agent")

    def __init__(self, name: str, kind: str, help: str, *, option: str | None = "", default: object = None,
                 low: int | None = None, high: int | None = None, choices: tuple[str, ...] = (),
                 limit: int | None = None, metavar: str | None = None, agent: str | None = None) -> None:
        self.name = name
        self.kind = kind
        self.option = "--" + name.replace("_", "-") if option == "" else option
        self.default = default if default is not None else {"flag": False, "multiple": ()}.get(kind)
        self.low, self.high = low, high
        self.choices = choices
        self.limit = limit if limit is not None or kind != "text" else limits.MAX_ARG_CHARS
        self.metavar = metavar
        self.help = help
        self.agent = agent

    def __repr__(self) -> str:
        return f"Param({self.name!r}, {self.kind!r})"


_WHEN = "30d|2w|6m|1y|DATE|+7d"

PARAMS: tuple[Param, ...] = (
    Param("query", "text", "What to find.", option=None, default="", limit=limits.MAX_QUERY_CHARS,
          agent='What you want to know, in plain words ("where does Peter live"); time phrases work, past and '
                'ahead, in the model\'s languages ("last week", "in November 2025", "what\'s on Dec 4?", "next week").'),
    Param("k", "int", "Results to return.", default=10, low=limits.MIN_K, high=limits.MAX_K,
          agent="How many results (default 10)."),
    Param("since", "text", "Only entries written on or naming a day from this time on.", metavar=_WHEN,
          agent="Only entries written on or naming a day from this time on: 30d, 2w, 6m, 1y, YYYY-MM-DD, or "
                "ahead: tomorrow, +7d."),
    Param("until", "text", "Only entries written on or naming a day up to this time; ahead (+7d) alone: the "
          "coming days from today.", metavar=_WHEN,
          agent="Only entries written on or naming a day up to this time: 30d, 2w, 6m, 1y or YYYY-MM-DD; +7d "
                "(or +2w, +1m) alone asks what is coming: the entries about the days from today to then."),
    Param("kind", "text", "world|experience|opinion|observation|note|session (comma-separated).", metavar="KIND",
          agent="world, experience, opinion, observation or note (comma-separated)."),
    Param("entity", "text", "Only entries about this entity.", metavar="NAME",
          agent="Only entries about this person or project (@Slug, name or alias)."),
    Param("mode", "choice", "Search channels to use.", default="auto", choices=MODES,
          agent="Search channels: auto (default), lexical, semantic or hybrid."),
    Param("budget", "int", "Pack results into this many tokens.", low=1, high=limits.MAX_BUDGET, metavar="TOKENS",
          agent="Pack the results into about this many tokens."),
    Param("explain", "flag", "Show which channels found each result and every score factor."),
    Param("workspaces", "multiple", "Recall across these workspaces of the Postgres store (repeatable); results "
          "name theirs.", option="--workspace-name", metavar="NAME"),
    Param("all_workspaces", "flag", "Recall across every workspace of the Postgres store."),
    Param("source", "choice", "Search workspace memory, session transcripts, or both [default: memory.toml "
          "[recall] sources].", choices=SOURCES,
          agent="memory (the notes), sessions (past conversation transcripts, when configured) or all; default: "
                "the workspace's setting."),
    Param("include_invalid", "flag", "Also facts marked as no longer true (memory forget).",
          agent="Also facts marked as no longer true."),
)
BY_NAME: dict[str, Param] = {p.name: p for p in PARAMS}
