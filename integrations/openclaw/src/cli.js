// `openclaw memory ...`: the engine's own CLI, run in the workspace with stdio passed through, so the
// output, --json and the exit codes are the engine's. `search` is memory-core's alias, in its shape.
import { spawn } from "node:child_process";
import os from "node:os";
import { searchResult } from "./mapping.js";

/**
 * Subcommands that run `memory <same name> ...` as they are: every command of the engine's CLI
 * (tests/test_openclaw_plugin.py checks this list against the engine's), `openclaw` excepted (it
 * installs this plugin).
 */
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
  entities: "List the known entities with their fact counts, most facts first",
  opinions: "List the opinions with confidence, history and evidence",
  core: "Core memory: the ## blocks of MEMORY.md",
  triggers: "Core entries whose trigger phrases a message names",
  "flush-prompt": "The prompts sent before a session is compacted",
  export: "Write every fact with its kind, entities, confidence, time and source (JSONL or CSV)",
  import: "Append exported facts as Retain bullets to their days",
  init: "Lay out a workspace from the bank templates (never overwrites a file)",
  store: "The store that holds the index (SQLite under .memory/ or Postgres)",
  watch: "Keep the index fresh as files change, until stopped",
  ui: "Browse memory in a web page (offline)",
  mcp: "Serve the memory tools over MCP (stdio, or streamable HTTP)",
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
    child.on("close", (code, signal) => {
      if (signal) process.stderr.write(`workspace-memory: \`memory ${args.find((a) => !a.startsWith("-")) ?? ""}\` was killed (${signal}) before it finished\n`);
      // A signal's exit code as a shell reports it (128 + its number), never 0.
      resolve({ code: code ?? 128 + (os.constants.signals[/** @type {NodeJS.Signals} */ (signal)] ?? 0), stdout });
    });
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
 * memory-core's `memory search [query] [--query Q] [--max-results N] [--min-score X] [--json]` over
 * `memory recall --json`; any other option is recall's (--since, --entity, --mode...). The query and
 * the options are the engine's to check: its refusal and exit code are the command's.
 * @param {EngineCli} eng @param {string[]} raw
 */
export async function runSearch(eng, raw) {
  const argv = [...raw];
  const json = argv.includes("--json");
  if (json) argv.splice(argv.indexOf("--json"), 1);
  const max = takeOption(argv, "--max-results");
  const min = takeOption(argv, "--min-score");
  const q = takeOption(argv, "--query");
  const recallArgs = q === undefined ? argv : [q, ...argv];
  const { code, stdout } = await runEngineCli(eng, ["recall", ...recallArgs, "--k", String(max ?? 6), "--json"], { capture: true });
  if (code !== 0) return code;
  const shaped = searchResult(JSON.parse(stdout), { minScore: min === undefined ? undefined : Number(min), include: false });
  const results = /** @type {any[]} */ (shaped.results);
  if (json) {
    process.stdout.write(`${JSON.stringify({ results }, null, 2)}\n`);
    return 0;
  }
  if (results.length === 0) {
    process.stdout.write("No matches.\n");
    return 0;
  }
  const lines = [];
  for (const r of results) {
    lines.push(`${Number(r.score).toFixed(3)} ${r.path}:${r.startLine}-${r.endLine}`, String(r.snippet), "");
  }
  process.stdout.write(`${lines.join("\n").trim()}\n`);
  return 0;
}

/**
 * Register `openclaw memory` and its subcommands on commander's program.
 *
 * `recall` is an alias of `search` (one commander command; the name typed picks the output: recall's
 * own, or memory-core's shape). OpenClaw runs its config guard (the state-migration preflight: seconds
 * of CPU, several worker processes) before every command except those its command catalog exempts,
 * and for `openclaw memory` it exempts only `search` and `status` (dist/command-path-policy-*.mjs:
 * `commandPath: ["memory", "search"], exact: true, policy: {configGuard: "skip"}`). The path it looks
 * up is the names of the commander commands that handle the call (program-*.mjs, the preAction hook:
 * `getCommanderCommandPath(actionCommand)`), so an alias of `search` is `memory search` to it. None of
 * the engine's commands reads or writes OpenClaw's state, which is what the guard migrates.
 * @param {any} program @param {(agent?: string) => EngineCli} engineFor
 */
export function registerMemoryCli(program, engineFor) {
  const memory = program.command("memory")
    .description("Recall, reflect, search and inspect workspace memory (workspace-memory engine)");
  /**
   * @param {string} name @param {string} description @param {(eng: any, args: string[], invoked: string) => Promise<number>} run
   * @param {string[]} [aliases]
   */
  const passThrough = (name, description, run, aliases = []) => {
    memory.command(name)
      .aliases(aliases)
      .description(description)
      .helpOption(false)
      .allowUnknownOption(true)
      .allowExcessArguments(true)
      .argument("[args...]")
      .action(async (/** @type {string[]} */ args, /** @type {unknown} */ _opts, /** @type {any} */ command) => {
        const argv = [...(args ?? [])];
        const agent = takeOption(argv, "--agent");
        // The name typed (commander keeps the parent's operands in `args`): `recall` or `search`.
        const invoked = aliases.includes(command?.parent?.args?.[0]) ? command.parent.args[0] : name;
        process.exitCode = await run(engineFor(agent), argv, invoked);
      });
  };
  // OpenClaw's help lists a command by its name alone: show `recall, search` for this one.
  const help = memory.configureHelp();
  const term = help.subcommandTerm;
  memory.configureHelp({ ...help, subcommandTerm: (/** @type {any} */ cmd) => {
    const shown = term ? term(cmd) : cmd.name();
    return cmd.aliases().length ? `${cmd.aliases().join(", ")}, ${shown}` : shown;
  } });
  passThrough("search", `${PASSED.recall}; \`search\` is memory-core's alias (--max-results, --min-score, --json)`,
    (eng, argv, invoked) => (invoked === "recall" ? runEngineCli(eng, ["recall", ...argv]).then((r) => r.code) : runSearch(eng, argv)),
    ["recall"]);
  for (const [name, description] of Object.entries(PASSED)) {
    if (name !== "recall") passThrough(name, description, async (eng, argv) => (await runEngineCli(eng, [name, ...argv])).code);
  }
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
