// The agent's tools: memory-core's memory_search / memory_get, then the engine's own tools
// passed through with their documented arguments. Each call goes to the workspace's engine.
import { EngineError } from "./engine.js";
import { citationsMode, getArgs, getFailure, getResult, includeCitations, searchArgs, searchResult } from "./mapping.js";
import { ENGINE_TOOLS, MEMORY_GET_PARAMETERS, MEMORY_SEARCH_PARAMETERS, labelOf } from "./schemas.js";
import { settleCutWrite } from "./writes.js";

/** @param {unknown} payload */
export function jsonResult(payload) {
  return { content: [{ type: "text", text: JSON.stringify(payload, null, 2) }], details: payload };
}

/** The engine's tools that serve OpenClaw's memory runtime (runtime.js), not the agent. */
const RUNTIME_ONLY = new Set(["memory_triggers", "memory_status"]);

/** The engine's own tools, as its MCP server lists them (src/engine-tools.json): name, description, schema. */
export const PASS_THROUGH = ENGINE_TOOLS
  .filter((t) => t.name !== "memory_search" && t.name !== "memory_get" && !RUNTIME_ONLY.has(t.name))
  .map((t) => ({ name: t.name, label: labelOf(t.name), description: t.description, parameters: t.inputSchema }));

/** The engine's read-only tools: retried once after an engine death, like search and get. */
const READ_ONLY = new Set(["memory_entity", "memory_entities", "memory_core_show"]);

export const TOOL_NAMES = ["memory_search", "memory_get", ...PASS_THROUGH.map((t) => t.name)];

/** Only the documented arguments go to the engine (its tools refuse others). @param {{properties: object}} schema @param {any} params */
function pick(schema, params) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const key of Object.keys(schema.properties)) if (params?.[key] !== undefined) out[key] = params[key];
  return out;
}

/**
 * A read-only call, retried once when the engine died under it (the retry starts a new engine);
 * writes are never retried: their error says the engine died, and the next call restarts it.
 * @param {import("./engine.js").Engine} engine @param {string} name @param {Record<string, unknown>} args @param {AbortSignal} [signal]
 */
export async function readCall(engine, name, args, signal) {
  try {
    return await engine.call(name, args, { signal });
  } catch (err) {
    if (/** @type {any} */ (err)?.code !== "exited") throw err;
    return await engine.call(name, args, { signal });
  }
}

/**
 * memory_search's answer to an engine error: the engine's refusal (a bad query, maxResults, corpus) as its
 * one line, or memory-core's unavailable shape when the engine cannot answer at all.
 * @param {EngineError} err
 */
export function searchFailure(err) {
  if (err.code === "tool") return { results: [], provider: "workspace-memory", error: err.message };
  return unavailable(err);
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
      return engineCall(ctx, deps, "memory_search", args, signal, searchFailure, (recall) => {
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
    description: "Read lines of a memory file (MEMORY.md, memory/*.md, bank/**.md), or what a memory_search citation points to (memory/2025-11-27.md#L7 or #L7-L9). from: first line (1-based); lines: how many. status=ok with text; not_found when the file does not exist; truncated with nextFrom when there is more.",
    parameters: MEMORY_GET_PARAMETERS,
    /** @param {string} _id @param {any} params @param {AbortSignal} [signal] */
    async execute(_id, params, signal) {
      const args = getArgs(params);
      return engineCall(ctx, deps, "memory_get", args, signal, (err) => getFailure(String(args.path), err), getResult);
    },
  };
}

/**
 * The engine's own tools, unchanged. A refusal is the engine's one line (`error`); a write whose engine
 * died under it says whether it was applied (writes.js).
 * @param {any} ctx @param {ToolDeps} deps
 */
export function createPassThroughTools(ctx, deps) {
  return PASS_THROUGH.map((spec) => ({
    ...spec,
    /** @param {string} _id @param {any} params @param {AbortSignal} [signal] */
    async execute(_id, params, signal) {
      const engine = deps.engineFor(ctx);
      const args = pick(spec.parameters, params);
      try {
        return jsonResult(READ_ONLY.has(spec.name) ? await readCall(engine, spec.name, args, signal)
          : await engine.call(spec.name, args, { signal }));
      } catch (err) {
        if (!(err instanceof EngineError) || err.code === "aborted") throw err;
        if (err.code === "exited" && !READ_ONLY.has(spec.name)) return jsonResult(await settleCutWrite(engine, spec.name, args, err, signal));
        return jsonResult({ error: err.message });
      }
    },
  }));
}
