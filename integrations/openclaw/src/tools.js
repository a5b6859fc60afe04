// The agent's tools: memory-core's memory_search / memory_get, then the engine's own tools
// passed through with their documented arguments. Each call goes to the workspace's engine.
import { EngineError } from "./engine.js";
import {
  MEMORY_GET_PARAMETERS, MEMORY_SEARCH_PARAMETERS, citationsMode, getArgs, getFailure, getResult,
  includeCitations, searchArgs, searchResult,
} from "./mapping.js";

/** @param {unknown} payload */
export function jsonResult(payload) {
  return { content: [{ type: "text", text: JSON.stringify(payload, null, 2) }], details: payload };
}

const str = { type: "string" };

/** The engine's own tools, with the arguments its MCP server documents. */
export const PASS_THROUGH = [
  {
    name: "memory_retain",
    label: "Memory Retain",
    description: "Store one durable fact in today's log (memory/YYYY-MM-DD.md, under \"## Retain\"). bullet: one fact in the Retain grammar: \"W @Peter: Lives in Vienna.\" (world fact), \"B @warelay: I fixed the reconnect bug.\" (what you did), \"O(c=0.8) @Peter: Prefers short replies.\" (opinion with confidence), \"S @Peter: Travels often.\" (observation). Mention people/projects as @Slug. day: YYYY-MM-DD for another day's log. Storing the same fact twice is a no-op.",
    parameters: { type: "object", properties: { bullet: str, day: str }, required: ["bullet"], additionalProperties: false },
  },
  {
    name: "memory_reflect",
    label: "Memory Reflect",
    description: "Consolidate recent facts into the bank pages (entity pages, opinions with confidence, world/experience lists) and list facts proposed for core memory. A dry run unless apply=true; apply_core=true also appends the proposals to MEMORY.md. since: 7d, 2w, 30d or YYYY-MM-DD.",
    parameters: { type: "object", properties: { since: str, apply: { type: "boolean" }, apply_core: { type: "boolean" } }, additionalProperties: false },
  },
  {
    name: "memory_entity",
    label: "Memory Entity",
    description: "Everything memory holds about one person, project or place: its page, its facts (newest first, with sources) and the opinions about it. name: @Slug, name or alias.",
    parameters: { type: "object", properties: { name: str }, required: ["name"], additionalProperties: false },
  },
  {
    name: "memory_core_show",
    label: "Core Memory Show",
    description: "Show core memory: the blocks of MEMORY.md with their size, limit and read-only flag. Call it before editing a block.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
  },
  {
    name: "memory_core_append",
    label: "Core Memory Append",
    description: "Add text at the end of a core memory block (a lasting preference, a standing instruction). Refused when the block would exceed its limit or is read-only.",
    parameters: { type: "object", properties: { block: str, text: str }, required: ["block", "text"], additionalProperties: false },
  },
  {
    name: "memory_core_replace",
    label: "Core Memory Replace",
    description: "Replace the text `old` (which must occur exactly once in the block) by `new` in a core memory block. An empty `new` deletes it.",
    parameters: { type: "object", properties: { block: str, old: str, new: str }, required: ["block", "old", "new"], additionalProperties: false },
  },
  {
    name: "memory_core_insert",
    label: "Core Memory Insert",
    description: "Insert text into a core memory block so that it starts at `line` of the block (1 = first line; -1 = after the last).",
    parameters: { type: "object", properties: { block: str, text: str, line: { type: "integer" } }, required: ["block", "text", "line"], additionalProperties: false },
  },
  {
    name: "memory_core_rethink",
    label: "Core Memory Rethink",
    description: "Rewrite a whole core memory block with new text, keeping everything that is still true.",
    parameters: { type: "object", properties: { block: str, text: str }, required: ["block", "text"], additionalProperties: false },
  },
];

/** The engine's read-only tools: retried once after an engine death, like search and get. */
const READ_ONLY = new Set(["memory_entity", "memory_core_show"]);

export const TOOL_NAMES = ["memory_search", "memory_get", ...PASS_THROUGH.map((t) => t.name)];

/** Only the documented arguments go to the engine (its tools refuse others). @param {object} schema @param {any} params */
function pick(schema, params) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const key of Object.keys(schema.properties)) if (params?.[key] !== undefined) out[key] = params[key];
  return out;
}

/**
 * A read-only call, retried once when the engine died under it (the retry starts a new engine);
 * writes are never retried: their error says the engine died, and the next call restarts it.
 * @param {import("./engine.js").Engine} engine @param {string} name @param {object} args @param {AbortSignal} [signal]
 */
export async function readCall(engine, name, args, signal) {
  try {
    return await engine.call(name, args, { signal });
  } catch (err) {
    if (/** @type {any} */ (err)?.code !== "exited") throw err;
    return await engine.call(name, args, { signal });
  }
}

/** memory-core's answer when search cannot run (the reason for the model, and what to do). @param {Error} err */
export function unavailable(err) {
  const timedOut = /** @type {any} */ (err)?.code === "timeout";
  const missing = /** @type {any} */ (err)?.code === "missing";
  return {
    results: [], disabled: true, unavailable: true, ...(timedOut ? { timedOut: true } : {}), error: err.message,
    warning: timedOut ? "Memory search did not finish within its time limit." : "Memory search is unavailable: the workspace-memory engine failed.",
    action: missing ? "Install workspace-memory (the `memory` command) or set plugins.entries.workspace-memory.config.command, then retry memory_search."
      : "Retry memory_search; if it keeps failing, run: openclaw memory doctor",
  };
}

/**
 * @typedef {object} ToolDeps
 * @property {(ctx: any) => import("./engine.js").Engine} engineFor
 * @property {(ctx: any) => any} configOf
 */

/**
 * A read call to the engine in memory-core's result shape: `shape` the engine's answer, or, when the
 * engine fails (not when the caller aborts), `failure` the error, so the agent gets a result, not a throw.
 * @param {any} ctx @param {ToolDeps} deps @param {string} tool @param {any} args @param {AbortSignal | undefined} signal
 * @param {(err: EngineError) => any} failure @param {(answer: any) => any} shape
 */
async function engineCall(ctx, deps, tool, args, signal, failure, shape) {
  let answer;
  try {
    answer = await readCall(deps.engineFor(ctx), tool, args, signal);
  } catch (err) {
    if (!(err instanceof EngineError) || err.code === "aborted") throw err;
    return jsonResult(failure(err));
  }
  return jsonResult(shape(answer));
}

/** memory_search with memory-core's contract. @param {any} ctx @param {ToolDeps} deps */
export function createSearchTool(ctx, deps) {
  return {
    name: "memory_search",
    label: "Memory Search",
    description: "Mandatory recall step: search long-term memory (MEMORY.md, memory/*.md, the bank pages, and session transcripts when configured) before answering questions about prior work, decisions, dates, people, preferences, or todos. Results are small cited entries (path#Lline), best first. corpus=sessions searches past conversation transcripts; corpus=all both.",
    parameters: MEMORY_SEARCH_PARAMETERS,
    /** @param {string} _id @param {any} params @param {AbortSignal} [signal] */
    async execute(_id, params, signal) {
      if (params?.corpus === "wiki") {
        return jsonResult({ results: [], provider: "workspace-memory", disabled: true, warning: "corpus=wiki is not served by workspace-memory; use corpus=memory or all" });
      }
      const args = searchArgs(params);
      return engineCall(ctx, deps, "memory_search", args, signal, unavailable, (recall) => {
        const mode = citationsMode(deps.configOf(ctx));
        return searchResult(recall, { minScore: params?.minScore, mode, include: includeCitations(mode, ctx?.sessionKey) });
      });
    },
  };
}

/** memory_get with memory-core's contract; a path outside memory is refused by the engine. @param {any} ctx @param {ToolDeps} deps */
export function createGetTool(ctx, deps) {
  return {
    name: "memory_get",
    label: "Memory Get",
    description: "Read lines of a memory file (MEMORY.md, memory/*.md, bank/**.md), or what a memory_search citation points to (memory/2025-11-27.md#L7 or #L7-L9). from: first line (1-based); lines: how many (at most 120). status=ok with text; not_found when the file does not exist; truncated with nextFrom when there is more.",
    parameters: MEMORY_GET_PARAMETERS,
    /** @param {string} _id @param {any} params @param {AbortSignal} [signal] */
    async execute(_id, params, signal) {
      const args = getArgs(params);
      return engineCall(ctx, deps, "memory_get", args, signal, (err) => getFailure(String(args.path), err), getResult);
    },
  };
}

/** The engine's own tools, unchanged. @param {any} ctx @param {ToolDeps} deps */
export function createPassThroughTools(ctx, deps) {
  return PASS_THROUGH.map((spec) => ({
    ...spec,
    /** @param {string} _id @param {any} params @param {AbortSignal} [signal] */
    async execute(_id, params, signal) {
      const engine = deps.engineFor(ctx);
      const args = pick(spec.parameters, params);
      return jsonResult(READ_ONLY.has(spec.name) ? await readCall(engine, spec.name, args, signal)
        : await engine.call(spec.name, args, { signal }));
    },
  }));
}
