// The pre-compaction flush plan, with the engine's prompts (`memory flush-prompt --json`), per
// workspace and day.
//
// OpenClaw asks for the plan synchronously (agent-runner-memory: `resolveMemoryFlushPlan(...)
// ?.reserveTokensFloor`), so the prompts are fetched ahead, without blocking the event loop: when the
// gateway's service starts, when a memory tool is made for a turn, and the next day's whenever a day's
// plan is read. Only a plan asked before any of these (a fresh `openclaw agent --local` process, the
// first flush of a day that nothing warmed) runs the engine synchronously, once per workspace and day
// (about 0.4 s of the engine's start).
import { execFile, execFileSync } from "node:child_process";

const FETCH_TIMEOUT_MS = 15_000;

/** @typedef {{system: string, user: string, path: string}} FlushPrompts */

/** YYYY-MM-DD of a Date (UTC, as the engine's default day). @param {Date} d */
function dayOf(d) {
  return d.toISOString().slice(0, 10);
}

/** The engine's flush prompts per (workspace, day), fetched ahead in the background. */
export class FlushPromptCache {
  /** @param {{command: string, env?: Record<string,string>}} pc */
  constructor(pc) {
    this.pc = pc;
    /** @type {Map<string, FlushPrompts | Promise<FlushPrompts | null>>} */
    this.entries = new Map();
  }

  /** @param {string} workspace @param {string} day @returns {string[]} */
  #argv(workspace, day) {
    const today = dayOf(new Date());
    return ["--workspace", workspace, ...(day === today ? [] : ["--now", day]), "flush-prompt", "--json"];
  }

  /** Fetch a day's prompts in the background (no-op when known or on its way). @param {string} workspace @param {string} [day] */
  prefetch(workspace, day = dayOf(new Date())) {
    const key = `${workspace}\n${day}`;
    if (this.entries.has(key)) return;
    const fetching = new Promise((resolve) => {
      const child = execFile(this.pc.command, this.#argv(workspace, day), {
        env: { ...process.env, ...this.pc.env }, encoding: "utf8", timeout: FETCH_TIMEOUT_MS,
      }, (err, stdout) => {
        let prompts = null;
        try {
          prompts = err ? null : JSON.parse(stdout);
        } catch { /* not the engine's JSON */ }
        if (prompts) this.entries.set(key, prompts);
        else this.entries.delete(key); // a later ask tries again
        resolve(prompts);
      });
      child.on("error", () => {}); // reported through the callback
    });
    this.entries.set(key, /** @type {Promise<FlushPrompts | null>} */ (fetching));
  }

  /**
   * A day's prompts now: from the cache, else (nothing warmed it) the engine synchronously; null
   * without an engine. Reading a day warms the next.
   * @param {string} workspace @param {Date} [now] @returns {FlushPrompts | null}
   */
  get(workspace, now = new Date()) {
    const day = dayOf(now);
    const key = `${workspace}\n${day}`;
    let prompts = this.entries.get(key);
    if (!prompts || prompts instanceof Promise) {
      try {
        const out = execFileSync(this.pc.command, this.#argv(workspace, day), {
          env: { ...process.env, ...this.pc.env }, encoding: "utf8", timeout: FETCH_TIMEOUT_MS, stdio: ["ignore", "pipe", "ignore"],
        });
        prompts = /** @type {FlushPrompts} */ (JSON.parse(out));
        this.entries.set(key, prompts);
      } catch {
        return null; // no engine: no flush (the tools say why when called)
      }
    }
    this.prefetch(workspace, dayOf(new Date(now.getTime() + 86_400_000)));
    return prompts;
  }
}

/**
 * The plan OpenClaw's flush runs with: the engine's prompts, OpenClaw's hints, memory-core's thresholds.
 * @param {FlushPromptCache} cache @param {string} workspace @param {any} cfg
 */
export function flushPlan(cache, workspace, cfg) {
  const defaults = cfg?.agents?.defaults?.compaction?.memoryFlush;
  if (defaults?.enabled === false) return null;
  const prompts = cache.get(workspace);
  if (!prompts) return null;
  const hints = openclawFlushHints(prompts.path);
  const soft = Number.isInteger(defaults?.softThresholdTokens) && defaults.softThresholdTokens >= 0 ? defaults.softThresholdTokens : 4000;
  return {
    softThresholdTokens: soft,
    forceFlushTranscriptBytes: byteSize(defaults?.forceFlushTranscriptBytes) ?? 2 * 1024 * 1024,
    reserveTokensFloor: 20_000,
    model: typeof defaults?.model === "string" && defaults.model.trim() ? defaults.model.trim() : undefined,
    prompt: `${prompts.user}\n\n${hints}`,
    systemPrompt: `${prompts.system}\n\n${hints}`,
    relativePath: prompts.path,
  };
}

/**
 * What OpenClaw's flush turn needs besides the engine's prompt: its tools there are read and write
 * (write may only append to today's log, memory_retain is not offered), and memory-core's safety hints.
 * @param {string} rel the log's path, memory/YYYY-MM-DD.md
 */
export function openclawFlushHints(rel) {
  return [
    `In this flush turn the tools are read and write, and write may only append to ${rel}: append the facts there as a "## Retain" section, one bullet per fact (e.g. "- W @Peter: Lives in Vienna.").`,
    `Store durable memories only in ${rel} (create memory/ if needed).`,
    `If ${rel} already exists, APPEND new content only and do not overwrite existing entries.`,
    "Treat workspace bootstrap/reference files such as MEMORY.md, DREAMS.md, SOUL.md, and AGENTS.md as read-only during this flush; never overwrite, replace, or edit them.",
  ].join("\n");
}

/** A byte size as OpenClaw writes it: 2097152, "2mb", "512kb", "100b". @param {unknown} v */
export function byteSize(v) {
  if (typeof v === "number") return Number.isFinite(v) && v >= 0 ? Math.floor(v) : undefined;
  const m = typeof v === "string" ? /^\s*(\d+(?:\.\d+)?)\s*(b|kb|k|mb|m|gb|g)?\s*$/i.exec(v) : null;
  if (!m) return undefined;
  /** @type {Record<string, number>} */
  const units = { b: 1, k: 1024, kb: 1024, m: 1024 ** 2, mb: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3 };
  return Math.floor(Number(m[1]) * (units[(m[2] ?? "b").toLowerCase()] ?? 1));
}
