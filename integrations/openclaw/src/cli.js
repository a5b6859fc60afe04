// `openclaw memory ...`: the engine's own CLI, run in the workspace with stdio passed through, so the
// output, --json and the exit codes are the engine's. `search` is memory-core's alias, in its shape.
import { spawn } from "node:child_process";
import { searchResult } from "./mapping.js";

/** Subcommands that run `memory <same name> ...` as they are. */
export const PASSED = {
  recall: "Find what memory says about QUERY, with sources as path#Lline (--k --since --until --entity --kind --mode --explain --json)",
  reflect: "Update entity pages, opinions and lists from recent facts (--since --dry-run --apply-core --json)",
  get: "Read a memory file page by page, or the lines a citation points to (--from --lines --json)",
  status: "Files, chunks, facts, entities and warnings of the workspace index",
  index: "Index changed Markdown files (--rebuild for all)",
  doctor: "Check the workspace and its index (--fix)",
  forget: "Mark a fact as no longer true (it stays, struck through)",
  retain: "Validate a fact (\"W @Peter: ...\") and append it to today's log",
  entity: "Tell me about NAME: its page, its facts, its opinions",
  core: "Core memory: the ## blocks of MEMORY.md",
  "flush-prompt": "The prompts sent before a session is compacted",
};

/** memory-core subcommands with no counterpart here, and where they went. */
export const GONE = {
  promote: "`openclaw memory reflect --apply-core` (proposals from reflect replace short-term promotion)",
  "promote-explain": "`openclaw memory reflect --json` (each proposal lists its supporting facts)",
  "rem-harness": "`openclaw memory reflect --dry-run`",
  "rem-backfill": "`openclaw memory reflect --since <date>`",
  "session-backfill": "`[sessions] paths` in memory.toml, then `openclaw memory index`",
  reset: "`openclaw memory index --rebuild` (the index is derived from the Markdown files)",
};

/**
 * @typedef {{command: string, workspace: string, env?: Record<string,string>,
 *   secretEnv?: () => Promise<Record<string,string>>}} EngineCli  secretEnv: keys.js, the child's environment only
 */

/**
 * Run the engine's CLI; resolve with its exit code (stdio inherited unless capture).
 * @param {EngineCli} eng @param {string[]} args @param {{capture?: boolean}} [opts]
 * @returns {Promise<{code: number, stdout: string}>}
 */
export async function runEngineCli(eng, args, opts = {}) {
  const secret = eng.secretEnv ? await eng.secretEnv().catch(() => ({})) : {};
  return new Promise((resolve) => {
    const child = spawn(eng.command, ["--workspace", eng.workspace, ...args], {
      stdio: ["inherit", opts.capture ? "pipe" : "inherit", "inherit"],
      env: { ...process.env, ...secret, ...(eng.env ?? {}) },
    });
    let stdout = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (c) => { stdout += c; });
    child.on("error", (err) => {
      process.stderr.write(`workspace-memory: cannot run \`${eng.command}\`: ${err.message} (install workspace-memory, or set plugins.entries.workspace-memory.config.command)\n`);
      resolve({ code: 127, stdout });
    });
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), stdout }));
  });
}

/** @param {string[]} argv @param {string} name */
function takeOption(argv, name) {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const value = argv[i + 1];
  argv.splice(i, 2);
  return value;
}

/**
 * memory-core's `memory search [query] [--query] [--max-results N] [--min-score X] [--json]` over `memory recall --json`.
 * @param {EngineCli} eng @param {string[]} raw
 */
export async function runSearch(eng, raw) {
  const argv = [...raw];
  const json = argv.includes("--json");
  if (json) argv.splice(argv.indexOf("--json"), 1);
  const max = takeOption(argv, "--max-results");
  const min = takeOption(argv, "--min-score");
  const q = takeOption(argv, "--query");
  takeOption(argv, "--agent");
  const query = q ?? argv.join(" ");
  if (!query.trim()) {
    process.stderr.write("openclaw memory search: a query is required\n");
    return 2;
  }
  const { code, stdout } = await runEngineCli(eng, ["recall", query, "--k", String(max ?? 6), "--json"], { capture: true });
  if (code !== 0) return code;
  const shaped = searchResult(JSON.parse(stdout), { minScore: min === undefined ? undefined : Number(min), include: false });
  if (json) {
    process.stdout.write(`${JSON.stringify({ results: shaped.results }, null, 2)}\n`);
    return 0;
  }
  if (shaped.results.length === 0) {
    process.stdout.write("No matches.\n");
    return 0;
  }
  const lines = [];
  for (const r of shaped.results) {
    lines.push(`${Number(r.score).toFixed(3)} ${r.path}:${r.startLine}-${r.endLine}`, String(r.snippet), "");
  }
  process.stdout.write(`${lines.join("\n").trim()}\n`);
  return 0;
}

/**
 * Register `openclaw memory` and its subcommands on commander's program.
 * @param {any} program @param {(agent?: string) => EngineCli} engineFor
 */
export function registerMemoryCli(program, engineFor) {
  const memory = program.command("memory")
    .description("Recall, reflect, search and inspect workspace memory (workspace-memory engine)");
  /** @param {string} name @param {string} description @param {(eng: any, args: string[]) => Promise<number>} run */
  const passThrough = (name, description, run) => {
    memory.command(name)
      .description(description)
      .helpOption(false)
      .allowUnknownOption(true)
      .allowExcessArguments(true)
      .argument("[args...]")
      .action(async (/** @type {string[]} */ args) => {
        const argv = [...(args ?? [])];
        const agent = takeOption(argv, "--agent");
        process.exitCode = await run(engineFor(agent), argv);
      });
  };
  for (const [name, description] of Object.entries(PASSED)) {
    passThrough(name, description, async (eng, argv) => (await runEngineCli(eng, [name, ...argv])).code);
  }
  passThrough("search", "Search memory (memory-core's alias: --max-results, --min-score, --json)", runSearch);
  for (const [name, where] of Object.entries(GONE)) {
    memory.command(name, { hidden: true })
      .allowUnknownOption(true)
      .allowExcessArguments(true)
      .helpOption(false)
      .action(() => {
        process.stderr.write(`openclaw memory ${name}: not in workspace-memory; use ${where}\n`);
        process.exitCode = 2;
      });
  }
  return memory;
}
