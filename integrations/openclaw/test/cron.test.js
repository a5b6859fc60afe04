// The managed reflect job (src/cron.js) against a recording fake cron service and config runtime.
// The real gateway's cron: tests/test_openclaw_cron.py.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  DEFAULT_FREQUENCY, desiredJob, disableMemoryCoreDreaming, holdsSlot, jobKey, jobPatch, readConfigFile,
  readReflectSchedule, reconcileJobs, reflectScheduleService,
} from "../src/cron.js";

const GROUP = { workspaceDir: "/ws/a", agentIds: ["main", "ops"] };
const ENGINE = { command: "/venv/bin/memory", env: { MEMORY_CONFIG_OVERLAY: "{}" } };

/** A cron service holding jobs in memory, recording each call. */
function fakeCron(jobs = []) {
  let next = 1;
  const calls = [];
  return {
    calls, jobs,
    async list() { calls.push("list"); return structuredClone(jobs); },
    async add(input) { calls.push(`add ${input.declarationKey}`); jobs.push({ id: `job-${next++}`, ...structuredClone(input) }); },
    async update(id, patch) { calls.push(`update ${id} ${Object.keys(patch).join(",")}`); Object.assign(jobs.find((j) => j.id === id), structuredClone(patch)); },
    async remove(id) { calls.push(`remove ${id}`); jobs.splice(jobs.findIndex((j) => j.id === id), 1); return { removed: true }; },
  };
}

describe("the reflect schedule", () => {
  it("reads memory-core's dreaming names with reflect's defaults, and falls back on bad values", () => {
    assert.deepEqual(readReflectSchedule(undefined), { enabled: true, frequency: DEFAULT_FREQUENCY, since: "7d", applyCore: false });
    assert.deepEqual(readReflectSchedule({ enabled: false, frequency: "30 4 * * 1", timezone: "Europe/Vienna", since: "14d", applyCore: true }),
      { enabled: false, frequency: "30 4 * * 1", timezone: "Europe/Vienna", since: "14d", applyCore: true });
    assert.deepEqual(readReflectSchedule({ frequency: "nightly", since: "a week" }, { agents: { defaults: { userTimezone: "Asia/Tokyo" } } }),
      { enabled: true, frequency: DEFAULT_FREQUENCY, timezone: "Asia/Tokyo", since: "7d", applyCore: false });
  });

  it("is one command job per workspace, running the engine's reflect", () => {
    const job = desiredJob(GROUP, readReflectSchedule({ applyCore: true, timezone: "UTC" }), ENGINE);
    assert.equal(job.declarationKey, jobKey("/ws/a"));
    assert.notEqual(jobKey("/ws/a"), jobKey("/ws/b"));
    assert.equal(job.name, "Memory Reflect (main, ops)");
    assert.deepEqual(job.schedule, { kind: "cron", expr: "0 3 * * *", tz: "UTC" });
    assert.deepEqual(job.payload, { kind: "command", argv: ["/venv/bin/memory", "--workspace", "/ws/a", "reflect", "--since", "7d", "--apply-core"],
      env: ENGINE.env, timeoutSeconds: 1800 });
    assert.deepEqual([job.sessionTarget, job.delivery.mode, job.agentId], ["isolated", "none", "main"]);
  });

  it("knows whether the plugin holds the memory slot", () => {
    const cfg = { plugins: { slots: { memory: "workspace-memory" }, entries: { "workspace-memory": { enabled: true } } } };
    assert.equal(holdsSlot(cfg, "workspace-memory"), true);
    assert.equal(holdsSlot({ plugins: { slots: { memory: "memory-core" } } }, "workspace-memory"), false);
    assert.equal(holdsSlot({ ...cfg, plugins: { ...cfg.plugins, deny: ["workspace-memory"] } }, "workspace-memory"), false);
  });
});

describe("reconciling with the cron service", () => {
  it("adds, then does nothing, updates in place, removes duplicates, the unwanted and memory-core's dreaming job", async () => {
    const dreaming = { id: "d1", declarationKey: "memory-core:memory-dreaming-promotion", name: "Memory Dreaming Promotion" };
    const other = { id: "h1", declarationKey: "heartbeat:main", name: "heartbeat-main" };
    const cron = fakeCron([dreaming, other]);
    const want = desiredJob(GROUP, readReflectSchedule({}), ENGINE);
    assert.deepEqual(await reconcileJobs(cron, [want], { removeDreaming: true }), { added: 1, updated: 0, removed: 0, dreamingRemoved: 1 });
    assert.deepEqual(cron.jobs.map((j) => j.id), ["h1", "job-1"]);
    assert.deepEqual(await reconcileJobs(cron, [want], { removeDreaming: true }), { added: 0, updated: 0, removed: 0, dreamingRemoved: 0 });
    const later = desiredJob(GROUP, readReflectSchedule({ frequency: "0 5 * * *", since: "30d" }), ENGINE);
    assert.deepEqual(jobPatch(cron.jobs[1], later), { schedule: later.schedule, description: later.description, payload: later.payload });
    await reconcileJobs(cron, [later], { removeDreaming: true });
    assert.equal(cron.jobs[1].id, "job-1");
    assert.equal(cron.jobs[1].schedule.expr, "0 5 * * *");
    cron.jobs.push({ ...structuredClone(cron.jobs[1]), id: "dup" });
    const tidy = await reconcileJobs(cron, [later], { removeDreaming: false });
    assert.equal(tidy.removed, 1);
    assert.deepEqual(await reconcileJobs(cron, [], { removeDreaming: false }), { added: 0, updated: 0, removed: 1, dreamingRemoved: 0 });
    assert.deepEqual(cron.jobs.map((j) => j.id), ["h1"]);
  });
});

describe("memory-core's dreaming switch", () => {
  /** A config runtime over an in-memory "file". */
  function configApi(file, running = file) {
    const writes = [];
    return {
      writes,
      runtime: { config: {
        current: () => running,
        async mutateConfigFile({ mutate }) {
          const draft = structuredClone(file);
          await mutate(draft);
          writes.push(draft);
          Object.assign(file, draft);
        },
      } },
    };
  }

  it("is set to false once in the plugin's own entry; an explicit value, in the file or running, stays", async () => {
    const file = { plugins: { entries: { "workspace-memory": { config: { command: "memory" } } } } };
    const api = configApi(file);
    assert.equal(await disableMemoryCoreDreaming(api, "workspace-memory"), true);
    assert.deepEqual(file.plugins.entries["workspace-memory"].config, { command: "memory", dreaming: { enabled: false } });
    const lagging = configApi(file, { plugins: {} }); // the running config not reloaded yet
    assert.equal(await disableMemoryCoreDreaming(lagging, "workspace-memory"), false);
    assert.equal(lagging.writes.length, 0);
    const chosen = configApi({ plugins: { entries: { "workspace-memory": { config: { dreaming: { enabled: true } } } } } });
    assert.equal(await disableMemoryCoreDreaming(chosen, "workspace-memory"), false);
    assert.deepEqual(await readConfigFile(configApi({ a: 1 })), { a: 1 });
  });
});

describe("the schedule's service", () => {
  it("starts with the config it is handed: a reload restarts it before the running config has the edit", async () => {
    const slot = (frequency) => ({ plugins: { slots: { memory: "workspace-memory" },
      entries: { "workspace-memory": { config: { dreaming: { enabled: false }, reflect: { frequency, timezone: "UTC" } } } } } });
    const before = slot("0 3 * * *");
    const edited = slot("30 4 * * 1");
    const jobsFor = (cfg) => [desiredJob(GROUP, readReflectSchedule(cfg.plugins.entries["workspace-memory"].config.reflect), ENGINE)];
    const cron = fakeCron();
    await reconcileJobs(cron, jobsFor(before), { removeDreaming: true });
    const api = { runtime: { config: { current: () => before } } }; // still the old config
    const service = reflectScheduleService(api, { pluginId: "workspace-memory", jobsFor });
    await service.start({ getCron: () => cron, config: edited });
    await service.stop();
    assert.equal(cron.jobs.length, 1);
    assert.equal(cron.jobs[0].schedule.expr, "30 4 * * 1");
  });
});
