// One long-lived `memory mcp` child per workspace, spoken to over MCP on stdio
// (newline-delimited JSON-RPC). No recall logic here: every answer is the engine's.
import { spawn } from "node:child_process";
import path from "node:path";

export const DEFAULT_TIMEOUT_MS = 30_000;
const PROTOCOL_VERSION = "2025-06-18";
const STDERR_TAIL = 2_000;

/** A failure the agent or the CLI user should read as one line. */
export class EngineError extends Error {
  /** @param {string} message @param {{code?: string}} [opts] */
  constructor(message, opts = {}) {
    super(message);
    this.name = "EngineError";
    this.code = opts.code ?? "engine";
  }
}

/**
 * @typedef {object} EngineOptions
 * @property {string} command     the `memory` executable
 * @property {string} workspace   absolute workspace folder
 * @property {Record<string,string>} [env]  extra environment
 * @property {() => Promise<Record<string,string>>} [secretEnv]  keys for the child's environment only
 *   (keys.js), asked at each start: never in argv, the pool's key, a file or a message
 * @property {number} [timeoutMs] per-call deadline
 * @property {typeof spawn} [spawnFn] injected in tests
 */

/** A `memory --workspace W mcp` child, started on first use and restarted after it dies. */
export class Engine {
  /** @param {EngineOptions} opts */
  constructor(opts) {
    this.command = opts.command;
    this.workspace = opts.workspace;
    this.env = opts.env ?? {};
    this.secretEnv = opts.secretEnv;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.spawnFn = opts.spawnFn ?? spawn;
    /** @type {import("node:child_process").ChildProcess | null} */
    this.child = null;
    /** @type {Promise<void> | null} */
    this.ready = null;
    this.nextId = 1;
    /** @type {Map<number, {resolve: Function, reject: Function}>} */
    this.pending = new Map();
    this.stderr = "";
    this.starts = 0;
  }

  /** The child's pid while it runs (tests kill it to check the restart). */
  get pid() {
    return this.child?.pid ?? null;
  }

  /** Start the child and finish the MCP handshake (once; again after the child died). */
  start() {
    if (this.ready) return this.ready;
    this.ready = this.#spawn().catch((err) => {
      this.ready = null;
      throw err;
    });
    return this.ready;
  }

  async #spawn() {
    this.starts += 1;
    this.stderr = "";
    const secret = this.secretEnv ? await this.secretEnv().catch(() => ({})) : {};
    const child = this.spawnFn(this.command, ["--workspace", this.workspace, "mcp"], {
      stdio: ["pipe", "pipe", "pipe"],
      // The plugin's own `env` setting wins over a resolved key (an explicit choice).
      env: { ...process.env, ...secret, ...this.env },
    });
    this.child = child;
    let buffer = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line) this.#onLine(line);
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL);
    });
    child.stdin.on("error", () => {});
    const spawned = new Promise((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", (err) => {
        const missing = /** @type {any} */ (err).code === "ENOENT";
        reject(new EngineError(missing
          ? `workspace-memory: the engine \`${this.command}\` was not found (install workspace-memory, or set plugins.entries.workspace-memory.config.command)`
          : `workspace-memory: cannot start \`${this.command}\`: ${err.message}`, { code: missing ? "missing" : "spawn" }));
      });
    });
    child.once("exit", (code, signal) => this.#onExit(child, code, signal));
    await spawned;
    await this.#request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "openclaw-workspace-memory", version: "0.1.0" },
    }, this.timeoutMs);
    this.#send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  /** @param {string} line */
  #onLine(line) {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      return; // not protocol: the engine logs to stderr, never here
    }
    if (msg.id === undefined || msg.method) return; // a notification or a request from the server
    const waiter = this.pending.get(msg.id);
    if (!waiter) return;
    this.pending.delete(msg.id);
    if (msg.error) waiter.reject(new EngineError(`workspace-memory: ${msg.error.message ?? "engine error"}`));
    else waiter.resolve(msg.result);
  }

  /** @param {import("node:child_process").ChildProcess} child @param {number|null} code @param {string|null} signal */
  #onExit(child, code, signal) {
    if (this.child !== child) return;
    this.child = null;
    this.ready = null;
    const why = signal ? `was killed (${signal})` : `exited with code ${code}`;
    const tail = this.stderr.trim().split("\n").slice(-1)[0] ?? "";
    const err = new EngineError(`workspace-memory: the engine ${why}${tail ? `: ${tail}` : ""}; the next call restarts it`,
      { code: "exited" });
    for (const waiter of this.pending.values()) waiter.reject(err);
    this.pending.clear();
  }

  /** @param {object} msg */
  #send(msg) {
    if (!this.child?.stdin?.writable) throw new EngineError("workspace-memory: the engine is not running", { code: "exited" });
    this.child.stdin.write(`${JSON.stringify(msg)}\n`);
  }

  /** @param {string} method @param {object} params @param {number} timeoutMs @param {AbortSignal} [signal] */
  #request(method, params, timeoutMs, signal) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const cancel = (/** @type {EngineError} */ err) => {
        if (!this.pending.delete(id)) return;
        try {
          this.#send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: err.message } });
        } catch { /* the child is gone */ }
        reject(err);
      };
      const timer = setTimeout(() => cancel(new EngineError(
        `workspace-memory: ${method === "tools/call" ? params.name : method} did not answer within ${Math.round(timeoutMs / 1000)} s`,
        { code: "timeout" })), timeoutMs);
      const onAbort = () => cancel(new EngineError("workspace-memory: the call was cancelled", { code: "aborted" }));
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        resolve: (/** @type {any} */ v) => { clearTimeout(timer); signal?.removeEventListener("abort", onAbort); resolve(v); },
        reject: (/** @type {any} */ e) => { clearTimeout(timer); signal?.removeEventListener("abort", onAbort); reject(e); },
      });
      try {
        this.#send({ jsonrpc: "2.0", id, method, params });
      } catch (err) {
        this.pending.get(id)?.reject(err);
        this.pending.delete(id);
      }
    });
  }

  /**
   * Call one engine tool; the structured result, or an EngineError with the engine's one-line message.
   * @param {string} name @param {Record<string, unknown>} args @param {{signal?: AbortSignal, timeoutMs?: number}} [opts]
   * @returns {Promise<any>}
   */
  async call(name, args, opts = {}) {
    await this.start();
    const result = await this.#request("tools/call", { name, arguments: args }, opts.timeoutMs ?? this.timeoutMs, opts.signal);
    const text = (result?.content ?? []).filter((c) => c?.type === "text").map((c) => c.text).join("\n");
    if (result?.isError) throw new EngineError(text || `workspace-memory: ${name} failed`, { code: "tool" });
    if (result?.structuredContent !== undefined && result.structuredContent !== null) return result.structuredContent;
    try {
      return JSON.parse(text);
    } catch {
      return { text };
    }
  }

  /** Stop the child (the service's stop, or the pool closing). */
  close() {
    const child = this.child;
    this.child = null;
    this.ready = null;
    for (const waiter of this.pending.values()) waiter.reject(new EngineError("workspace-memory: the engine was stopped", { code: "stopped" }));
    this.pending.clear();
    if (child && child.exitCode === null) {
      child.stdin?.end();
      child.kill("SIGTERM");
    }
  }
}

/** One Engine per workspace folder, shared by every tool call of the process. */
export class EnginePool {
  /** @param {Omit<EngineOptions, "workspace">} opts */
  constructor(opts) {
    this.opts = opts;
    /** @type {Map<string, Engine>} */
    this.engines = new Map();
  }

  /**
   * @param {string} workspace @param {Record<string,string>} [env] settings for this workspace's engine
   * @param {() => Promise<Record<string,string>>} [secretEnv] its keys (not part of the pool's key)
   */
  get(workspace, env = {}, secretEnv = undefined) {
    const root = path.resolve(workspace);
    const key = `${root}\n${JSON.stringify(env)}`;
    let engine = this.engines.get(key);
    if (!engine) {
      engine = new Engine({ ...this.opts, workspace: root, env: { ...(this.opts.env ?? {}), ...env }, secretEnv });
      this.engines.set(key, engine);
    }
    return engine;
  }

  closeAll() {
    for (const engine of this.engines.values()) engine.close();
    this.engines.clear();
  }
}
