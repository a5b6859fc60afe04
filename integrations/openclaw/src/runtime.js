// OpenClaw's memory runtime (capability.runtime) answered by the engine: what the gateway's
// `memory.search` RPC (the Control UI's Memories tab), `doctor.memory.status` and active-memory's
// trigger recall read. Each manager speaks to the workspace's engine child, the one the tools use;
// nothing here ranks, cuts or matches: the shapes are memory-core's, the answers the engine's.
import { EngineError } from "./engine.js";
import { classifyWorkspaceMemoryPaths } from "./provenance.js";
import { getArgs, getFailure, getResult, SNIPPET_MAX_CHARS } from "./mapping.js";
import { readCall } from "./tools.js";
import { authorizeSearchHits } from "./visibility.js";

export const PROVIDER = "workspace-memory";
/** Figures older than this are read again, in the background, by the next getMemorySearchManager. */
export const STATUS_MAX_AGE_MS = 30_000;

/**
 * The engine's recall hit as OpenClaw's MemorySearchResult (memory-core's shape: 700-character
 * snippets, the engine's 0..1 score, `sessions` for transcript hits).
 * @param {any} r one result of the engine's `recall --json` contract
 */
export function hitOf(r) {
  const path = r.path ?? String(r.source ?? "").split("#")[0];
  const startLine = r.start_line ?? 1;
  const endLine = r.end_line ?? startLine;
  let snippet = String(r.content ?? "");
  if (snippet.length > SNIPPET_MAX_CHARS) snippet = `${snippet.slice(0, SNIPPET_MAX_CHARS - 1)}…`;
  const source = path.startsWith("sessions/") ? "sessions" : "memory";
  const citation = startLine === endLine ? `${path}#L${startLine}` : `${path}#L${startLine}-L${endLine}`;
  return { path, startLine, endLine, score: typeof r.score === "number" ? r.score : 0, snippet, source, citation };
}

/**
 * One of the engine's trigger entries (memory_triggers without a message) as a trigger candidate:
 * `triggers` = its phrases (OpenClaw's lane one matches them against the message and injects at most
 * three, within 1,800 characters); score 0, so a phrase counts only when all its words are named;
 * curated memory (MEMORY.md, bank/), hence eligible for automatic injection ("agent", as memory-core
 * classifies MEMORY.md).
 * @param {any} e @param {number} nowMs
 */
export function triggerCandidateOf(e, nowMs) {
  return {
    path: e.path, startLine: e.start_line, endLine: e.end_line, score: 0, snippet: String(e.text ?? ""),
    source: "memory", triggers: (e.phrases ?? []).join("; "),
    provenance: { originClass: "agent", sessionKind: "interactive", observedAt: nowMs },
  };
}

/** @param {any} hit */
const spanKey = (hit) => `${hit.path}:${hit.startLine}:${hit.endLine}`;

/**
 * The engine's `memory status` as OpenClaw's MemoryProviderStatus (synchronous callers read it).
 * @param {any} s the engine's status @param {string} workspace
 */
export function statusOf(s, workspace) {
  const modes = Array.isArray(s?.modes) ? s.modes : ["lexical"];
  const semantic = modes.includes("semantic");
  const notices = Array.isArray(s?.notices) ? s.notices : [];
  const busy = notices.some((/** @type {unknown} */ n) => /being updated by another process/.test(String(n)));
  const model = s?.embedding_space?.model ?? (typeof s?.embedding === "string" ? s.embedding : undefined);
  return {
    backend: "builtin",
    provider: PROVIDER,
    ...(model ? { model } : {}),
    files: s?.files ?? 0,
    chunks: s?.chunks ?? 0,
    dirty: busy,
    workspaceDir: s?.workspace ?? workspace,
    ...(s?.index ? { dbPath: String(s.index).replace(/^\w+ /, "") } : {}),
    fts: { enabled: true, available: true },
    vector: { enabled: semantic, available: semantic, semanticAvailable: semantic },
    custom: {
      engine: PROVIDER,
      searchMode: semantic && modes.includes("hybrid") ? "hybrid" : "fts-only",
      modes,
      embedding: s?.embedding ?? null,
      entries: s?.chunks ?? 0,
      facts: s?.facts ?? 0,
      entities: s?.entities ?? 0,
      lastIndex: s?.last_sync ?? null,
      indexAgeSeconds: s?.index_age_seconds ?? null,
      stale: busy,
      warnings: Array.isArray(s?.warnings) ? s.warnings.length : 0,
      notices,
    },
  };
}

/** The engine's `source` for OpenClaw's `sources`. @param {string[] | undefined} sources */
function sourceArg(sources) {
  if (!Array.isArray(sources) || sources.length === 0) return undefined;
  const memory = sources.includes("memory");
  const sessions = sources.includes("sessions");
  return memory && sessions ? "all" : sessions ? "sessions" : memory ? "memory" : undefined;
}

/** A registered memory search manager over one engine (one workspace). */
export class EngineSearchManager {
  /** @param {import("./engine.js").Engine} engine */
  constructor(engine) {
    this.engine = engine;
    /** @type {any} */
    this.figures = null;
    this.figuresAt = 0;
    /** @type {Promise<void> | null} */
    this.refreshing = null;
    /** @type {Promise<any[]> | null} the latest trigger listing (lane one asks for it beside its search) */
    this.listing = null;
  }

  /** Ask the engine for its figures (one call at a time). */
  refreshStatus() {
    if (!this.refreshing) {
      this.refreshing = readCall(this.engine, "memory_status", {}).then((s) => {
        this.figures = s;
        this.figuresAt = Date.now();
      }).finally(() => { this.refreshing = null; });
    }
    return this.refreshing;
  }

  /** @param {string} query @param {any} [opts] */
  async search(query, opts = {}) {
    /** @type {Record<string, unknown>} */
    const args = { query: String(query ?? "").trim(), k: Math.max(1, Math.min(1000, Math.floor(opts.maxResults ?? 6))) };
    const source = sourceArg(opts.sources);
    if (source) args.source = source;
    if (opts.lexicalOnly) args.mode = "lexical"; // the reply path: no query embedding
    const recall = await readCall(this.engine, "memory_search", args, opts.signal);
    const minScore = typeof opts.minScore === "number" ? opts.minScore : -Infinity;
    let hits = (recall?.results ?? []).map(hitOf).filter((/** @type {any} */ h) => h.score >= minScore);
    if (opts.lexicalOnly && this.listing) {
      // A hit on a trigger entry's own lines keeps the entry's phrases: lane one merges its search
      // and its candidates by span, the later (the search) winning.
      const bySpan = new Map((await this.listing.catch(() => [])).map((c) => [spanKey(c), c]));
      hits = hits.map((/** @type {any} */ h) => {
        const c = bySpan.get(spanKey(h));
        return c ? { ...h, triggers: c.triggers, provenance: c.provenance } : h;
      });
    }
    return hits;
  }

  /** Every trigger entry of the engine, with its phrases. @param {{limit?: number}} [opts] */
  async listTriggerCandidates(opts = {}) {
    const limit = Number.isInteger(opts.limit) && /** @type {number} */ (opts.limit) > 0 ? opts.limit : undefined;
    this.listing = readCall(this.engine, "memory_triggers", {}).then((listed) => {
      const now = Date.now();
      return (listed?.results ?? []).slice(0, limit).map((/** @type {any} */ e) => triggerCandidateOf(e, now));
    });
    return await this.listing;
  }

  /** memory_get's read, confined as the tool is. @param {{relPath: string, from?: number, lines?: number}} params */
  async readFile(params) {
    const args = getArgs({ path: params.relPath, from: params.from, lines: params.lines });
    try {
      const page = getResult(await readCall(this.engine, "memory_get", args));
      return { status: "ok", text: page.text, path: page.path, from: page.from, lines: page.lines,
        truncated: page.truncated, ...(page.truncated ? { nextFrom: page.nextFrom } : {}) };
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      const failure = getFailure(String(args.path), err);
      if (failure.status === "not_found") return { status: "not_found", text: "", path: String(args.path) };
      throw err; // outside memory: the engine's one-line refusal
    }
  }

  status() {
    return statusOf(this.figures, this.engine.workspace);
  }

  /** Embedding availability as the engine's last status says it. */
  getCachedEmbeddingAvailability() {
    if (!this.figures) return null;
    const ok = (this.figures.modes ?? []).includes("semantic");
    return { ok, checked: true, cached: true, checkedAtMs: this.figuresAt,
      ...(ok ? {} : { error: "No embedding model: the engine searches lexically (FTS-only mode)" }) };
  }

  async probeEmbeddingAvailability() {
    await this.refreshStatus();
    return { .../** @type {any} */ (this.getCachedEmbeddingAvailability()), cached: false };
  }

  async probeVectorAvailability() {
    await this.refreshStatus();
    return (this.figures?.modes ?? []).includes("semantic");
  }

  /** The gateway closes a manager after each call; the engine child stays (the pool owns it). */
  async close() {}
}

/**
 * The runtime: one manager per engine; every member reads `deps`.
 * @param {{engineForAgent: (cfg: any, agentId: string) => import("./engine.js").Engine,
 *   sdk?: () => Promise<{visibility: any, hits: any}>}} deps
 */
export function createMemoryRuntime(deps) {
  /** @type {WeakMap<object, EngineSearchManager>} */
  const managers = new WeakMap();
  /** @param {any} cfg @param {string} agentId */
  const managerFor = (cfg, agentId) => {
    const engine = deps.engineForAgent(cfg, agentId);
    let manager = managers.get(engine);
    if (!manager) {
      manager = new EngineSearchManager(engine);
      managers.set(engine, manager);
      // A reply's trigger lookup has about a second and a half: have the engine read its trigger
      // entries once now, not on the first reply.
      manager.listTriggerCandidates().catch(() => {});
    }
    return manager;
  };
  return {
    supportsWorkspaceMemoryReadSources: /** @type {true} */ (true),
    /** @param {{cfg: any, agentId: string, purpose?: string}} params */
    async getMemorySearchManager(params) {
      const started = Date.now();
      const manager = managerFor(params.cfg, params.agentId);
      // The figures are read when asked for (doctor's status), at first, or when older than
      // STATUS_MAX_AGE_MS; a search never waits for a refresh (status() is synchronous: it answers
      // from the last figures).
      const stale = !manager.figures || Date.now() - manager.figuresAt > STATUS_MAX_AGE_MS;
      if (params.purpose === "status" || stale) {
        const figures = manager.refreshStatus();
        try {
          if (params.purpose === "status" || !manager.figures) await figures;
        } catch (err) {
          return { manager: null, error: oneLine(err) };
        }
        figures.catch(() => {});
      }
      return { manager, debug: { backend: /** @type {"builtin"} */ ("builtin"), purpose: /** @type {any} */ (params.purpose), managerMs: Date.now() - started } };
    },
    resolveMemoryBackendConfig() {
      return { backend: /** @type {"builtin"} */ ("builtin") };
    },
    /** @param {any} params */
    authorizeSearchHits: (params) => authorizeSearchHits(params, deps.sdk),
    classifyWorkspaceMemoryPaths,
    /** Managers hold no resources of their own (the engines belong to the service). */
    async closeMemorySearchManager() {},
    async closeAllMemorySearchManagers() {},
  };
}

/** @param {unknown} err */
function oneLine(err) {
  const text = err instanceof Error ? err.message : String(err);
  return text.split("\n").map((s) => s.trim()).filter(Boolean)[0] ?? "workspace-memory: the engine failed";
}
