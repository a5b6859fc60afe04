// Reflect on OpenClaw's own schedule: one managed job per agent workspace in the gateway's cron service
// (the service context's getCron(), as memory-core keeps its dreaming job), running the engine's
// `memory --workspace W reflect --since 7d` as a command job (no model turn): its one-line summary
// is the run's summary, a failure is the engine's one-line error. Reconciled idempotently at start
// and every minute (config changes); leaving the memory slot while the gateway runs removes the jobs
// (the gateway_stop hook of a plugin replacement). A plugin outside the slot is not loaded, so a slot
// changed while the gateway is down leaves the job until `openclaw cron rm`.
// memory-core stays loaded for its "consolidation lifecycle" and reads its dreaming settings from the
// slot owner's entry (plugins.entries.workspace-memory.config.dreaming): the plugin sets
// dreaming.enabled = false there once (an explicit value is kept) and removes memory-core's job.
import crypto from "node:crypto";

export const JOB_TAG = "[managed-by=workspace-memory.reflect]";
export const KEY_PREFIX = "workspace-memory:reflect:";
export const DEFAULT_FREQUENCY = "0 3 * * *"; // memory-core's dreaming default: nightly at 03:00
export const DEFAULT_SINCE = "7d";
export const RECONCILE_INTERVAL_MS = 60_000; // memory-core's runtime reconcile interval
export const JOB_TIMEOUT_SECONDS = 1_800;
const SINCE_RE = /^(\d{1,4}[dwmy]|\d{4}-\d{2}-\d{2})$/;
const DREAMING_KEY = "memory-core:memory-dreaming-promotion";

/**
 * @typedef {object} ReflectSchedule
 * @property {boolean} enabled
 * @property {string} frequency  a 5-field cron expression
 * @property {string} [timezone] IANA zone (default: agents.defaults.userTimezone)
 * @property {string} since      reflect's window (7d, 2w, 30d or YYYY-MM-DD)
 * @property {boolean} applyCore also append core proposals to MEMORY.md
 */

/**
 * The plugin's `reflect` settings (memory-core's dreaming names where they exist: enabled,
 * frequency, timezone), with their defaults; a bad value is refused by the config schema, and
 * falls back to the default here.
 * @param {any} raw plugins.entries.workspace-memory.config.reflect @param {any} [cfg] OpenClaw's config
 * @returns {ReflectSchedule}
 */
export function readReflectSchedule(raw, cfg) {
  const r = raw && typeof raw === "object" ? raw : {};
  const str = (/** @type {unknown} */ v) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
  const frequency = str(r.frequency);
  const timezone = str(r.timezone) ?? str(cfg?.agents?.defaults?.userTimezone);
  const since = str(r.since);
  return {
    enabled: r.enabled !== false,
    frequency: frequency && frequency.split(/\s+/).length === 5 ? frequency : DEFAULT_FREQUENCY,
    ...(timezone ? { timezone } : {}),
    since: since && SINCE_RE.test(since) ? since : DEFAULT_SINCE,
    applyCore: r.applyCore === true,
  };
}

/** Whether this plugin holds OpenClaw's memory slot in `cfg`. @param {any} cfg @param {string} pluginId */
export function holdsSlot(cfg, pluginId) {
  const plugins = cfg?.plugins;
  return plugins?.enabled !== false && plugins?.slots?.memory === pluginId
    && plugins?.entries?.[pluginId]?.enabled !== false && !(plugins?.deny ?? []).includes(pluginId);
}

/** @param {string} workspaceDir */
export function jobKey(workspaceDir) {
  return KEY_PREFIX + crypto.createHash("sha256").update(workspaceDir).digest("hex").slice(0, 12);
}

/**
 * The managed job for one workspace (a cron job create input).
 * @param {{workspaceDir: string, agentIds: string[]}} group @param {ReflectSchedule} schedule
 * @param {{command: string, env: Record<string,string>}} engine
 */
export function desiredJob(group, schedule, engine) {
  const argv = [engine.command, "--workspace", group.workspaceDir, "reflect", "--since", schedule.since,
    ...(schedule.applyCore ? ["--apply-core"] : [])];
  return {
    declarationKey: jobKey(group.workspaceDir),
    agentId: group.agentIds[0],
    name: `Memory Reflect (${group.agentIds.join(", ")})`,
    description: `${JOB_TAG} memory reflect --since ${schedule.since}${schedule.applyCore ? " --apply-core" : ""} in ${group.workspaceDir}: bank pages, opinions and core proposals from the new facts.`,
    enabled: true,
    schedule: { kind: "cron", expr: schedule.frequency, ...(schedule.timezone ? { tz: schedule.timezone } : {}) },
    sessionTarget: "isolated",
    wakeMode: "now",
    payload: { kind: "command", argv, env: engine.env, timeoutSeconds: JOB_TIMEOUT_SECONDS },
    delivery: { mode: "none" },
  };
}

/** Ours: our declaration key, or our tag in the description. @param {any} job */
export function isManagedReflectJob(job) {
  return String(job?.declarationKey ?? "").startsWith(KEY_PREFIX) || String(job?.description ?? "").includes(JOB_TAG);
}

/** memory-core's managed dreaming job (its declaration key, name and tag). @param {any} job */
export function isDreamingJob(job) {
  return job?.declarationKey === DREAMING_KEY || (job?.name === "Memory Dreaming Promotion"
    && String(job?.description ?? "").includes("[managed-by=memory-core.short-term-promotion]"));
}

/** What differs between a listed job and the desired one (null: nothing). @param {any} job @param {any} want */
export function jobPatch(job, want) {
  /** @type {Record<string, unknown>} */
  const patch = {};
  for (const key of ["name", "description", "enabled", "agentId", "sessionTarget", "wakeMode"]) {
    if (job[key] !== want[key]) patch[key] = want[key];
  }
  const same = (/** @type {any} */ a, /** @type {any} */ b) => JSON.stringify(a) === JSON.stringify(b);
  if (job.schedule?.kind !== "cron" || job.schedule?.expr !== want.schedule.expr || (job.schedule?.tz ?? undefined) !== want.schedule.tz) {
    patch.schedule = want.schedule;
  }
  const p = job.payload ?? {};
  if (p.kind !== "command" || !same(p.argv, want.payload.argv) || !same(p.env ?? {}, want.payload.env)
    || p.timeoutSeconds !== want.payload.timeoutSeconds) patch.payload = want.payload;
  if (job.delivery?.mode !== "none") patch.delivery = want.delivery;
  return Object.keys(patch).length ? patch : null;
}

/**
 * Bring the cron service to the desired jobs: add what is missing, update what differs, remove
 * duplicates and what is no longer wanted, and remove memory-core's dreaming job while `desired` is
 * managed by the slot owner. Returns what it did.
 * @param {any} cron the service context's getCron() @param {any[]} desired @param {{removeDreaming: boolean}} opts
 */
export async function reconcileJobs(cron, desired, opts) {
  const jobs = await cron.list({ includeDisabled: true });
  const done = { added: 0, updated: 0, removed: 0, dreamingRemoved: 0 };
  const wanted = new Map(desired.map((job) => [job.declarationKey, job]));
  const kept = new Set();
  for (const job of jobs.filter(isManagedReflectJob)) {
    const want = wanted.get(job.declarationKey);
    if (!want || kept.has(job.declarationKey)) {
      if ((await cron.remove(job.id))?.removed !== false) done.removed += 1;
      continue;
    }
    kept.add(job.declarationKey);
    const patch = jobPatch(job, want);
    if (patch) {
      await cron.update(job.id, patch);
      done.updated += 1;
    }
  }
  for (const [key, want] of wanted) {
    if (kept.has(key)) continue;
    await cron.add(want);
    done.added += 1;
  }
  if (opts.removeDreaming) {
    for (const job of jobs.filter(isDreamingJob)) {
      if ((await cron.remove(job.id))?.removed !== false) done.dreamingRemoved += 1;
    }
  }
  return done;
}

/**
 * The dreaming switch memory-core reads from the slot owner's entry: set dreaming.enabled = false
 * when nothing is set (memory-core's promotion would run beside reflect); an explicit value is the
 * user's and stays, and so is memory-core turned off (then it is not loaded). Returns whether it wrote.
 * @param {any} api @param {string} pluginId
 */
export async function disableMemoryCoreDreaming(api, pluginId) {
  const current = api.runtime?.config?.current?.() ?? api.config;
  if (current?.plugins?.entries?.[pluginId]?.config?.dreaming?.enabled !== undefined) return false;
  // memory-core turned off (what `memory openclaw install` writes) is not loaded at all: no dreaming to stop.
  if (current?.plugins?.entries?.["memory-core"]?.enabled === false) return false;
  if (typeof api.runtime?.config?.mutateConfigFile !== "function") return false;
  const alreadySet = new Error("dreaming.enabled is set in the file");
  try {
    await api.runtime.config.mutateConfigFile({
      afterWrite: { mode: "auto" },
      mutate: (/** @type {any} */ draft) => {
        // The file decides (the running config may lag behind a write not yet reloaded): a value
        // there is kept, and nothing is written, so a reload never triggers another write.
        if (draft?.plugins?.entries?.[pluginId]?.config?.dreaming?.enabled !== undefined) throw alreadySet;
        if (draft?.plugins?.entries?.["memory-core"]?.enabled === false) throw alreadySet;
        draft.plugins ??= {};
        draft.plugins.entries ??= {};
        draft.plugins.entries[pluginId] ??= {};
        const entry = draft.plugins.entries[pluginId];
        entry.config ??= {};
        entry.config.dreaming = { ...(entry.config.dreaming ?? {}), enabled: false };
      },
    });
  } catch (err) {
    if (err === alreadySet) return false;
    throw err;
  }
  return true;
}

/**
 * OpenClaw's config as the file has it now (the running config can lag behind a change being
 * applied): read through a config mutation that is abandoned before it writes.
 * @param {any} api @returns {Promise<any>}
 */
export async function readConfigFile(api) {
  if (typeof api.runtime?.config?.mutateConfigFile !== "function") return null;
  const abandon = new Error("read only");
  let seen = null;
  try {
    await api.runtime.config.mutateConfigFile({
      afterWrite: { mode: "auto" },
      mutate: (/** @type {any} */ draft) => {
        seen = structuredClone(draft);
        throw abandon;
      },
    });
  } catch (err) {
    if (err !== abandon) throw err;
  }
  return seen;
}

/**
 * The reflect schedule's service: reconciles with the gateway's cron service at start and every
 * RECONCILE_INTERVAL_MS; its gateway_stop hook removes the jobs when the plugin leaves the slot.
 * @param {any} api
 * @param {{pluginId: string, jobsFor: (cfg: any) => any[]}} deps jobsFor: the desired jobs for a config
 *   (empty when the plugin does not hold the slot or reflect is off)
 */
export function reflectScheduleService(api, deps) {
  /** @type {(() => any) | null} */
  let getCron = null;
  /** @type {NodeJS.Timeout | null} */
  let timer = null;
  /** @type {Promise<void>} */
  let running = Promise.resolve();
  const log = api.logger ?? {};
  const liveConfig = () => api.runtime?.config?.current?.() ?? api.config;

  /** One reconcile at a time (the timer, start and stop never interleave). @param {string} why
   * @param {any} [given] the config to reconcile with (a service restarted by a config reload gets the new
   *   one in its context, while api.runtime.config.current() still returns the old one) */
  const reconcile = (why, given) => {
    running = running.then(async () => {
      try {
        const cron = getCron?.();
        if (!cron || typeof cron.list !== "function") return;
        const cfg = given ?? liveConfig();
        const mine = holdsSlot(cfg, deps.pluginId);
        if (mine && await disableMemoryCoreDreaming(api, deps.pluginId)) {
          log.info?.(`${deps.pluginId}: set plugins.entries.${deps.pluginId}.config.dreaming.enabled=false (memory-core's dreaming job is replaced by the managed reflect job)`);
        }
        const done = await reconcileJobs(cron, mine ? deps.jobsFor(cfg) : [], { removeDreaming: mine });
        const changes = Object.entries(done).filter(([, n]) => n > 0).map(([k, n]) => `${k}=${n}`).join(", ");
        if (changes) log.info?.(`${deps.pluginId}: reflect schedule reconciled (${why}): ${changes}`);
      } catch (err) {
        log.warn?.(`${deps.pluginId}: reflect schedule not reconciled (${why}): ${/** @type {Error} */ (err).message}`);
      }
    });
    return running;
  };

  // Leaving the slot while the gateway runs: OpenClaw stops this plugin's services (their cron access
  // revoked, the running config still the old one), then runs its gateway_stop hooks ("plugin
  // replacement") with the gateway's cron: there, the config file says whether the slot is still ours.
  api.on?.("gateway_stop", async (/** @type {any} */ event, /** @type {any} */ ctx) => {
    if (event?.reason !== "plugin replacement" || typeof ctx?.getCron !== "function") return;
    try {
      const file = await readConfigFile(api);
      if (!file || holdsSlot(file, deps.pluginId)) return;
      const cron = ctx.getCron();
      if (!cron) return;
      const done = await reconcileJobs(cron, [], { removeDreaming: false });
      if (done.removed) log.info?.(`${deps.pluginId}: left the memory slot: removed ${done.removed} managed reflect job(s)`);
    } catch (err) {
      log.warn?.(`${deps.pluginId}: managed reflect job not removed on leaving the slot: ${/** @type {Error} */ (err).message}`);
    }
  });

  return {
    id: `${deps.pluginId}-reflect-schedule`,
    /** @param {any} ctx */
    async start(ctx) {
      if (!ctx?.getCron) return;
      getCron = ctx.getCron;
      await reconcile("start", ctx.config);
      timer = setInterval(() => { reconcile("config"); }, RECONCILE_INTERVAL_MS);
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
      getCron = null;
    },
  };
}
