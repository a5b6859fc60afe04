// One long-lived `memory mcp` child per workspace, spoken to over MCP on stdio
// (newline-delimited JSON-RPC). No recall logic here: every answer is the engine's.
import { spawn } from "node:child_process";
import path from "node:path";
import { RestartPolicy } from "./restart.js";

export const DEFAULT_TIMEOUT_MS = 30_000;
const PROTOCOL_VERSION = "2025-06-18";
const STDERR_TAIL = 2_000;
const PING_MS = 5_000; // after a call's deadline: a child that does not answer a ping within this is hung
const KILL_GRACE_MS = 2_000; // close(): SIGTERM, then SIGKILL when the child is still there
const START_MS = 60_000; // the handshake's deadline: a cold start on a loaded machine takes seconds

/**
 * Every live child of this process, killed when the process exits however it exits (a stopped child
 * included). One set and one exit listener per process, however often OpenClaw loads this module
 * (it loads plugins again for tool discovery and for each registry).
 * @type {Set<import("node:child_process").ChildProcess>}
 */
const LIVE = (() => {
  const key = Symbol.for("workspace-memory.engine-children");
  const holder = /** @type {any} */ (globalThis);
  if (!holder[key]) {
    const live = new Set();
    holder[key] = live;
    process.once("exit", () => {
      for (const child of live) {
        try {
          child.kill("SIGKILL");
        } catch { /* already gone */ }
      }
    });
  }
  return holder[key];
})();

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
 * @property {RestartPolicy} [restarts] when to start again after a death (restart.js)
 * @property {number} [pingMs] how long a ping may take before a silent child counts as hung
 */

/**
 * A `memory --workspace W mcp` child, started on first use and restarted after it dies. A call past its
 * deadline is cancelled; when the child then does not answer a ping either (hung, stopped), it is
 * killed and the next call starts another, with the waits and the limit of restart.js.
 */
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
    /** @type {Map<number, {resolve: Function, reject: Function, touch: () => void}>} */
    this.pending = new Map();
    this.stderr = "";
    this.starts = 0;
    this.restarts = opts.restarts ?? new RestartPolicy();
    this.pingMs = opts.pingMs ?? PING_MS;
    /** why the last child was killed by us (its exit then says so) */
    this.killedFor = "";
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
    try {
      await this.restarts.admit();
    } catch (err) {
      throw new EngineError(/** @type {Error} */ (err).message, { code: "gave-up" });
    }
    try {
      await this.#start();
    } catch (err) {
      // A death while starting was counted by its exit; a spawn error or a silent start is counted here.
      if (/** @type {any} */ (err).code !== "exited") this.restarts.failed(/** @type {Error} */ (err).message.replace(/^workspace-memory: /, ""));
      if (this.child) this.#kill(this.child, "it did not finish starting");
      throw err;
    }
  }

  async #start() {
    this.starts += 1;
    this.killedFor = "";
    this.stderr = "";
    const secret = this.secretEnv ? await this.secretEnv().catch(() => ({})) : {};
    const child = this.spawnFn(this.command, ["--workspace", this.workspace, "mcp"], {
      stdio: ["pipe", "pipe", "pipe"],
      // The plugin's own `env` setting wins over a resolved key (an explicit choice).
      env: { ...process.env, ...secret, ...this.env },
    });
    this.child = child;
    LIVE.add(child);
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
    // Every stream and the child itself may report errors more than once (EPIPE after a death, a failed
    // kill): all are handled here, none reaches the gateway as an uncaught exception.
    child.stdin.on("error", () => {});
    child.stdout.on("error", () => {});
    child.stderr.on("error", () => {});
    let started = false;
    const spawned = new Promise((resolve, reject) => {
      child.once("spawn", () => {
        started = true;
        resolve(undefined);
      });
      child.on("error", (err) => {
        if (started) {
          this.stderr = `${this.stderr}\n${err.message}`.slice(-STDERR_TAIL);
          return;
        }
        LIVE.delete(child);
        if (this.child === child) this.child = null;
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
    }, Math.max(this.timeoutMs, START_MS));
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
    if (msg.method === "notifications/progress") {
      this.pending.get(msg.params?.progressToken)?.touch(); // progress: the call's deadline starts again
      return;
    }
    if (msg.id === undefined || msg.method) return; // another notification, or a request from the server
    const waiter = this.pending.get(msg.id);
    if (!waiter) return;
    this.pending.delete(msg.id);
    if (msg.error) waiter.reject(new EngineError(`workspace-memory: ${msg.error.message ?? "engine error"}`));
    else waiter.resolve(msg.result);
  }

  /** @param {import("node:child_process").ChildProcess} child @param {number|null} code @param {string|null} signal */
  #onExit(child, code, signal) {
    LIVE.delete(child);
    if (this.child !== child) return;
    this.child = null;
    this.ready = null;
    const tail = this.stderr.trim().split("\n").slice(-1)[0] ?? "";
    const why = this.killedFor ? `was killed: ${this.killedFor}`
      : `${signal ? `was killed (${signal})` : `exited with code ${code}`}${tail ? `: ${tail}` : ""}`;
    this.restarts.failed(why);
    const err = new EngineError(`workspace-memory: the engine ${why}; the next call starts a new one`, { code: "exited" });
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
    const what = method === "tools/call" ? /** @type {any} */ (params).name : method;
    const child = this.child;
    return new Promise((resolve, reject) => {
      const cancel = (/** @type {EngineError} */ err) => {
        if (!this.pending.delete(id)) return;
        try {
          this.#send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: err.message } });
        } catch { /* the child is gone */ }
        reject(err);
      };
      const expire = () => {
        const seconds = Math.round(timeoutMs / 1000);
        if (method === "ping" || !child) {
          cancel(new EngineError(`workspace-memory: ${what} did not answer within ${seconds} s`, { code: "timeout" }));
          return;
        }
        // Busy or hung? A live server answers a ping at once, even while a tool runs.
        this.#request("ping", {}, this.pingMs).then(
          () => cancel(new EngineError(`workspace-memory: ${what} did not answer within ${seconds} s`, { code: "timeout" })),
          () => this.#kill(child, `${what} got no answer within ${seconds} s, nor a ping within ${Math.round(this.pingMs / 1000)} s`),
        );
      };
      let timer = setTimeout(expire, timeoutMs);
      const touch = () => {
        clearTimeout(timer);
        timer = setTimeout(expire, timeoutMs);
      };
      const onAbort = () => cancel(new EngineError("workspace-memory: the call was cancelled", { code: "aborted" }));
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        touch,
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
    const id = this.nextId; // the request's id, also its progress token
    const result = await this.#request("tools/call", { name, arguments: args, _meta: { progressToken: id } },
      opts.timeoutMs ?? this.timeoutMs, opts.signal);
    this.restarts.succeeded();
    /** @type {{type?: string, text?: string}[]} */
    const content = result?.content ?? [];
    const text = content.filter((c) => c?.type === "text").map((c) => c.text).join("\n");
    if (result?.isError) throw new EngineError(text || `workspace-memory: ${name} failed`, { code: "tool" });
    if (result?.structuredContent !== undefined && result.structuredContent !== null) return result.structuredContent;
    try {
      return JSON.parse(text);
    } catch {
      return { text };
    }
  }

  /**
   * Kill a hung child (SIGKILL: a stopped process ignores SIGTERM until continued); its exit fails the
   * pending calls with `reason`, and the next call starts a new child.
   * @param {import("node:child_process").ChildProcess} child @param {string} reason
   */
  #kill(child, reason) {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (this.child === child) this.killedFor = reason;
    try {
      child.kill("SIGKILL");
    } catch { /* gone meanwhile */ }
  }

  /**
   * Stop the child (the service's stop, or the pool closing): EOF and SIGTERM, SIGCONT in case it was
   * stopped, then SIGKILL after a grace; resolves when it is gone.
   * @returns {Promise<void>}
   */
  close() {
    const child = this.child;
    this.child = null;
    this.ready = null;
    for (const waiter of this.pending.values()) waiter.reject(new EngineError("workspace-memory: the engine was stopped", { code: "stopped" }));
    this.pending.clear();
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        LIVE.delete(child);
        resolve();
      };
      const timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
      }, KILL_GRACE_MS);
      timer.unref?.();
      child.once("exit", done);
      try {
        child.stdin?.end();
        child.kill("SIGTERM");
        child.kill("SIGCONT");
      } catch {
        done();
      }
    });
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

  /** Stop every engine; resolves when all children are gone. */
  closeAll() {
    const closing = [...this.engines.values()].map((engine) => engine.close());
    this.engines.clear();
    return Promise.all(closing).then(() => undefined);
  }
}
