// The registration of workspace-memory as OpenClaw's memory plugin (index.js is the entry; this
// module does not import OpenClaw, so node's test runner drives it with a recording fake api).
// A thin shell: the tools, the prompt, the flush and `openclaw memory ...` all ask the engine
// (`memory mcp`, one long-lived child per workspace; the `memory` CLI for the command line).
// Registration writes nothing to stdout (it would break every `openclaw ... --json`).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { agentWorkspaces, defaultAgentId } from "./agents.js";
import { listPublicArtifacts } from "./artifacts.js";
import { registerMemoryCli } from "./cli.js";
import { desiredJob, readReflectSchedule, reflectScheduleService } from "./cron.js";
import { DEFAULT_TIMEOUT_MS, EnginePool } from "./engine.js";
import { FlushPromptCache, byteSize, flushPlan } from "./flush.js";
import { createIntentTool, openClawIntentStore, registerIntentHooks } from "./intent-tool.js";
import { namedProviders, providerKeys } from "./keys.js";
import { citationsMode, promptSection } from "./mapping.js";
import { mediaOverlay } from "./media.js";
import { createMemoryRuntime } from "./runtime.js";
import { TOOL_NAMES, createGetTool, createPassThroughTools, createSearchTool } from "./tools.js";

export const PLUGIN_ID = "workspace-memory";
/** How long a service start waits for the engine's warm-up search (see the service's start). */
export const WARM_WAIT_MS = 3000;

/**
 * @typedef {object} PluginConfig
 * @property {string} command
 * @property {string} [workspace]
 * @property {Record<string,string>} [env]
 * @property {number} [timeoutMs]
 */

/** @param {unknown} raw @returns {PluginConfig} */
export function readPluginConfig(raw) {
  const cfg = raw && typeof raw === "object" ? /** @type {Record<string, any>} */ (raw) : {};
  /** @type {Record<string,string>} */
  const env = {};
  for (const [k, v] of Object.entries(cfg.env ?? {})) if (typeof v === "string") env[k] = v;
  return {
    command: typeof cfg.command === "string" && cfg.command.trim() ? cfg.command.trim() : "memory",
    workspace: typeof cfg.workspace === "string" && cfg.workspace.trim() ? cfg.workspace.trim() : undefined,
    env,
    timeoutMs: Number.isInteger(cfg.timeoutMs) && cfg.timeoutMs >= 1000 ? cfg.timeoutMs : DEFAULT_TIMEOUT_MS,
  };
}

/** @param {string} p */
function expandHome(p) {
  return p === "~" || p.startsWith("~/") ? path.join(os.homedir(), p.slice(1)) : p;
}

/**
 * The workspace an agent's memory lives in: the plugin's override, else the agent's workspaceDir,
 * else the configured agent or default workspace, else OpenClaw's default.
 * @param {{workspace?: string}} pc @param {{workspaceDir?: string, agentId?: string, config?: any}} ctx
 */
export function resolveWorkspace(pc, ctx = {}) {
  if (pc.workspace) return path.resolve(expandHome(pc.workspace));
  if (ctx.workspaceDir) return path.resolve(ctx.workspaceDir);
  const configured = agentEntry(ctx.config, ctx.agentId)?.workspace ?? ctx.config?.agents?.defaults?.workspace;
  if (typeof configured === "string" && configured) return path.resolve(expandHome(configured));
  return path.join(stateDir(), "workspace");
}

/** OpenClaw's per-agent config (agents.entries.<id>, or the agents.list entry with that id). @param {any} cfg @param {string} [agentId] */
export function agentEntry(cfg, agentId) {
  if (!agentId) return undefined;
  const agents = cfg?.agents;
  const entry = agents?.entries && typeof agents.entries === "object" ? agents.entries[agentId] : undefined;
  if (entry) return entry;
  return Array.isArray(agents?.list) ? agents.list.find((/** @type {any} */ a) => a?.id === agentId) : undefined;
}

function stateDir() {
  return process.env.OPENCLAW_STATE_DIR ? expandHome(process.env.OPENCLAW_STATE_DIR) : path.join(os.homedir(), ".openclaw");
}

/**
 * OpenClaw's memory.search settings (per-agent ones first) as the engine's config overlay
 * ($MEMORY_CONFIG_OVERLAY, laid over the workspace's memory.toml): extraPaths -> extra_paths,
 * sources -> [recall] sources, and with "sessions" the agent's transcripts -> [sessions] paths: its
 * SQLite store (agents/<id>/agent/openclaw-agent.sqlite) and its JSONL folder, those that exist. Empty
 * when OpenClaw sets none of them.
 * @param {any} cfg @param {string} [agentId] @returns {Record<string,string>}
 */
export function engineEnv(cfg, agentId) {
  const defaults = cfg?.memory?.search ?? {};
  const own = agentEntry(cfg, agentId)?.memory?.search ?? {};
  /** @type {Record<string, unknown>} */
  const overlay = {};
  const extra = [...(defaults.extraPaths ?? []), ...(own.extraPaths ?? [])].filter((p) => typeof p === "string" && p.trim());
  if (extra.length) overlay.extra_paths = [...new Set(extra)];
  const configured = own.sources ?? defaults.sources;
  const sources = Array.isArray(configured) ? configured.filter((s) => s === "memory" || s === "sessions") : [];
  if (sources.length) {
    overlay.recall = { sources };
    // The agent's transcripts: OpenClaw 2026.9's SQLite store, and the JSONL folder of older installs.
    const agentDir = path.join(stateDir(), "agents", agentId || "main");
    const found = [path.join(agentDir, "agent", "openclaw-agent.sqlite"), path.join(agentDir, "sessions")].filter((p) => fs.existsSync(p));
    if (sources.includes("sessions") && found.length) overlay.sessions = { paths: found };
  }
  const media = mediaOverlay(defaults, own); // memory.search.multimodal as the engine's [media]
  if (media) overlay.media = media;
  return Object.keys(overlay).length ? { MEMORY_CONFIG_OVERLAY: JSON.stringify(overlay) } : {};
}

export { byteSize, flushPlan };

/**
 * The registration, separate from definePluginEntry so the node tests drive it with a fake api.
 * @param {any} api
 * @param {{sdk?: () => Promise<{visibility: any, hits: any}>, intents?: () => Promise<{sqlite: any, scope: any}>,
 *   intentStore?: import("./intent-tool.js").IntentStore}} [host] what index.js loads from OpenClaw (a test gives a store)
 */
export function register(api, host = {}) {
  const pc = readPluginConfig(api.pluginConfig);
  const pool = new EnginePool({ command: pc.command, env: pc.env, timeoutMs: pc.timeoutMs });
  const liveConfig = () => (api.runtime?.config?.current ? api.runtime.config.current() : api.config);
  /** @param {any} ctx */
  const configOf = (ctx) => ctx?.getRuntimeConfig?.() ?? ctx?.runtimeConfig ?? ctx?.config ?? liveConfig();
  /** OpenClaw's resolved provider keys, for one engine child's environment (keys.js). @param {any} cfg @param {string} [agentId] @param {string} [workspaceDir] */
  const keysFor = (cfg, agentId, workspaceDir) => () => providerKeys(api.runtime, cfg, { agent: agentEntry(cfg, agentId), workspaceDir,
    providers: workspaceDir ? namedProviders(workspaceDir, { ...pc.env, ...engineEnv(cfg, agentId) }, cfg) : undefined });
  const flushCache = new FlushPromptCache({ command: pc.command, env: pc.env });
  /** @param {any} ctx */
  const engineFor = (ctx) => {
    const cfg = configOf(ctx);
    const workspace = resolveWorkspace(pc, { ...ctx, config: cfg });
    return pool.get(workspace, engineEnv(cfg, ctx?.agentId), keysFor(cfg, ctx?.agentId, workspace));
  };
  const deps = { engineFor, configOf };
  /** Each agent's workspace in `cfg`, grouped (artifacts, the reflect schedule). @param {any} cfg */
  const workspacesOf = (cfg) => agentWorkspaces(cfg, (agentId) => resolveWorkspace(pc, { agentId, config: cfg }));

  api.registerMemoryCapability({
    deterministicRecallToolName: "memory_search",
    promptBuilder: (/** @type {any} */ params) => promptSection({
      availableTools: params.availableTools, citationsMode: params.citationsMode ?? citationsMode(liveConfig()),
    }),
    flushPlanResolver: (/** @type {any} */ params = {}) => {
      const cfg = params.cfg ?? liveConfig();
      return flushPlan(flushCache, resolveWorkspace(pc, { config: cfg }), cfg);
    },
    // memory.search, doctor's memory status, the Control UI's Memories tab, trigger recall (runtime.js)
    runtime: createMemoryRuntime({ engineForAgent: (cfg, agentId) => engineFor({ agentId, config: cfg }), sdk: host.sdk }),
    publicArtifacts: { listArtifacts: (/** @type {any} */ params) => listPublicArtifacts(workspacesOf(params?.cfg ?? liveConfig())) },
  });

  api.registerTool((/** @type {any} */ ctx) => {
    // A turn's tools are made before its pre-compaction flush can run: fetch the flush prompts now.
    flushCache.prefetch(resolveWorkspace(pc, { ...ctx, config: configOf(ctx) }));
    return createSearchTool(ctx, deps);
  }, { names: ["memory_search"] });
  api.registerTool((/** @type {any} */ ctx) => createGetTool(ctx, deps), { names: ["memory_get"] });
  api.registerTool((/** @type {any} */ ctx) => createPassThroughTools(ctx, deps), { names: TOOL_NAMES.slice(2) });

  // memory-core's standing intents, over the same rows in the agent's database (intent-tool.js). Their
  // prompt hook reads the turn, which OpenClaw lets a non-bundled plugin do only with
  // plugins.entries.workspace-memory.hooks.allowConversationAccess (the install sets it): without
  // it, no `intent` tool either (an intent that could never fire).
  const intentStore = host.intentStore ?? (host.intents ? openClawIntentStore(host.intents) : undefined);
  if (intentStore && api.config?.plugins?.entries?.[PLUGIN_ID]?.hooks?.allowConversationAccess === true) {
    api.registerTool({ contextVersion: 2, create: (/** @type {any} */ ctx) => createIntentTool(ctx, intentStore, configOf) },
      { names: ["intent"] });
    registerIntentHooks(api, intentStore, liveConfig);
  }

  api.registerService({
    id: "workspace-memory-engine",
    /**
     * Start the default agent's engine with the gateway and warm it with one search (its model,
     * vectors and index loaded): OpenClaw awaits a service's start before it reports ready, so the
     * first memory_search after "ready" is a warm one. The engine is the one that agent's tool calls
     * get (its workspace and its own memory.search settings: another overlay is another engine).
     * Awaited for at most WARM_WAIT_MS: when the plugin is replaced on a config reload, OpenClaw gives
     * a service's start 5 s (PLUGIN_SERVICE_REPLACEMENT_STOP_TIMEOUT_MS) and fails the reload past it;
     * a first index of a big workspace, or a loaded machine, takes longer, so the rest of the warm-up
     * goes on unawaited.
     * @param {any} ctx
     */
    async start(ctx) {
      const agentId = defaultAgentId(ctx?.config);
      const workspace = resolveWorkspace(pc, { workspaceDir: ctx?.workspaceDir, agentId, config: ctx?.config });
      const engine = engineFor({ workspaceDir: ctx?.workspaceDir, agentId, config: ctx?.config });
      flushCache.prefetch(workspace);
      const warm = engine.call("memory_search", { query: "warm up", k: 1 })
        .catch((/** @type {Error} */ err) => ctx?.logger?.warn?.(err.message));
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let timer;
      await Promise.race([warm, new Promise((resolve) => { timer = setTimeout(resolve, WARM_WAIT_MS); })]);
      clearTimeout(timer);
    },
    async stop() {
      await pool.closeAll();
    },
  });

  // The managed reflect job in OpenClaw's cron, one per agent workspace (cron.js), from the live config.
  api.registerService(reflectScheduleService(api, {
    pluginId: PLUGIN_ID,
    jobsFor: (/** @type {any} */ cfg) => {
      const raw = cfg?.plugins?.entries?.[PLUGIN_ID]?.config ?? api.pluginConfig;
      const schedule = readReflectSchedule(raw?.reflect, cfg);
      if (!schedule.enabled) return [];
      const live = readPluginConfig(raw);
      return workspacesOf(cfg).map((group) => desiredJob(group, schedule, {
        command: live.command, env: { ...live.env, ...engineEnv(cfg, group.agentIds[0]) } }));
    },
  }));

  api.registerCli((/** @type {any} */ ctx) => {
    registerMemoryCli(ctx.program, (agent) => {
      const workspace = resolveWorkspace(pc, { workspaceDir: agent ? undefined : ctx.workspaceDir, agentId: agent, config: ctx.config });
      return { command: pc.command, env: { ...pc.env, ...engineEnv(ctx.config, agent) }, workspace,
        secretEnv: keysFor(ctx.config, agent, workspace) };
    });
  }, {
    descriptors: [{
      name: "memory",
      description: "Recall, reflect, search and inspect workspace memory (workspace-memory engine)",
      hasSubcommands: true,
    }],
  });
  return { pool };
}
