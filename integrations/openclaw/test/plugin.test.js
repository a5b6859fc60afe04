// The plugin's mapping and its engine handling, under node's test runner, with a recording fake api
// and a fake engine (fake-engine.mjs). The real gateway and engine: tests/test_openclaw_plugin.py.
import assert from "node:assert/strict";
import path from "node:path";
import { afterEach, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { runEngineCli } from "../src/cli.js";
import fs from "node:fs";
import os from "node:os";
import { Engine, EngineError, EnginePool } from "../src/engine.js";
import { FlushPromptCache } from "../src/flush.js";
import { RestartPolicy } from "../src/restart.js";
import { ENGINE_TOOLS } from "../src/schemas.js";
import { coreEditApplied, settleCutWrite } from "../src/writes.js";
import { promptSection, searchArgs } from "../src/mapping.js";
import { namedProviders, providerKeys } from "../src/keys.js";
import { byteSize, engineEnv, register, resolveWorkspace } from "../src/plugin.js";

const FAKE = path.join(path.dirname(fileURLToPath(import.meta.url)), "fake-engine.mjs");
const open = [];

function fakeApi(pluginConfig = { command: FAKE }, config = {}) {
  const api = {
    pluginConfig, config, tools: [], clis: [], services: [], capability: null,
    registerTool(factory, opts) { api.tools.push({ factory, opts }); },
    registerCli(registrar, opts) { api.clis.push({ registrar, opts }); },
    registerService(service) { api.services.push(service); },
    registerMemoryCapability(capability) { api.capability = capability; },
  };
  return api;
}

function setup(ctx = { workspaceDir: "/tmp/ws-a", sessionKey: "agent:main:main" }, config = {}, runtime = undefined) {
  const api = fakeApi({ command: FAKE }, config);
  if (runtime) api.runtime = runtime;
  const { pool } = register(api);
  open.push(pool);
  const tools = new Map();
  for (const { factory } of api.tools) {
    const made = factory(ctx);
    for (const tool of Array.isArray(made) ? made : [made]) tools.set(tool.name, tool);
  }
  return { api, pool, tools };
}

afterEach(() => {
  while (open.length) open.pop().closeAll();
});

describe("registration", () => {
  it("registers memory-core's tools, the engine's, the CLI and the service, and prints nothing", () => {
    const write = process.stdout.write;
    let printed = "";
    process.stdout.write = (chunk, ...rest) => { printed += chunk; return true; };
    let api;
    try {
      ({ api } = setup());
    } finally {
      process.stdout.write = write;
    }
    assert.equal(printed, "");
    const forAgents = ENGINE_TOOLS.map((t) => t.name).filter((n) => n !== "memory_triggers" && n !== "memory_status");
    assert.deepEqual(api.tools.map((t) => t.opts.names).flat().sort(), forAgents.sort(),
      "every tool of the engine's tools/list but the runtime's two, memory-core's two under their own names");
    assert.equal(api.clis[0].opts.descriptors[0].name, "memory");
    assert.equal(api.services[0].id, "workspace-memory-engine");
    assert.equal(typeof api.capability.promptBuilder, "function");
    assert.equal(typeof api.capability.flushPlanResolver, "function");
    assert.equal(api.capability.deterministicRecallToolName, "memory_search");
  });

  it("registers memory-core's standing intents (the tool, two hooks) only where OpenClaw lets it read the turn", () => {
    const store = { async withDatabase() {}, async agentOf() { return "main"; } };
    for (const allowed of [true, false]) {
      const config = { plugins: { entries: { "workspace-memory": { hooks: { allowConversationAccess: allowed } } } } };
      const api = { ...fakeApi({ command: FAKE }, config), hooks: [] };
      api.on = (name) => api.hooks.push(name);
      open.push(register(api, { intentStore: store }).pool);
      const names = api.tools.map((t) => t.opts.names).flat();
      assert.equal(names.includes("intent"), allowed);
      const turnHooks = api.hooks.filter((h) => h !== "gateway_stop"); // gateway_stop: the reflect job's (cron.js)
      assert.deepEqual(turnHooks, allowed ? ["before_prompt_build", "before_agent_reply"] : []);
    }
  });

  it("uses the plugin's workspace, else the agent's, else the configured default", () => {
    assert.equal(resolveWorkspace({ workspace: "/x/ws" }, { workspaceDir: "/y" }), "/x/ws");
    assert.equal(resolveWorkspace({}, { workspaceDir: "/y/ws" }), "/y/ws");
    assert.equal(resolveWorkspace({}, { agentId: "ops", config: { agents: { list: [{ id: "ops", workspace: "/o" }], defaults: { workspace: "/d" } } } }), "/o");
    assert.equal(resolveWorkspace({}, { config: { agents: { defaults: { workspace: "/d" } } } }), "/d");
  });
});

describe("OpenClaw's memory.search settings", () => {
  it("become the engine's config overlay, per-agent settings first", () => {
    assert.deepEqual(engineEnv({}), {});
    const cfg = {
      memory: { search: { extraPaths: ["~/notes"], sources: ["memory"], query: { minScore: 0.35 } } },
      agents: { entries: { ops: { memory: { search: { extraPaths: ["/srv/runbooks", "~/notes"], sources: ["memory", "sessions", "wiki"] } } } } },
    };
    assert.deepEqual(JSON.parse(engineEnv(cfg).MEMORY_CONFIG_OVERLAY), { extra_paths: ["~/notes"], recall: { sources: ["memory"] } });
    assert.deepEqual(JSON.parse(engineEnv(cfg, "ops").MEMORY_CONFIG_OVERLAY),
      { extra_paths: ["~/notes", "/srv/runbooks"], recall: { sources: ["memory", "sessions"] } });
  });

  it("give each distinct overlay its own engine, and the same one a shared engine", async () => {
    const ctxA = { workspaceDir: "/tmp/ws-o", agentId: "main" };
    const api = fakeApi({ command: FAKE }, { agents: { entries: { ops: { memory: { search: { extraPaths: ["/x"] } } } } } });
    const { pool } = register(api);
    open.push(pool);
    const search = (ctx) => api.tools[0].factory(ctx).execute("o", { query: "q" });
    await search(ctxA);
    await search({ ...ctxA });
    assert.equal(pool.engines.size, 1);
    await search({ workspaceDir: "/tmp/ws-o", agentId: "ops" });
    assert.equal(pool.engines.size, 2);
  });

  it("warm, at the gateway's start, the engine the default agent's calls get (its own settings too)", async () => {
    for (const agents of [{ entries: { main: { memory: { search: { extraPaths: ["/x"] } } } } },
      { list: [{ id: "ops" }, { id: "chat", default: true, memory: { search: { sources: ["memory"] } } }] }, undefined]) {
      const api = fakeApi({ command: FAKE }, { agents });
      const { pool } = register(api);
      open.push(pool);
      await api.services[0].start({ workspaceDir: "/tmp/ws-w", config: api.config });
      assert.equal(pool.engines.size, 1);
      const agentId = agents?.list ? "chat" : "main";
      await api.tools[0].factory({ workspaceDir: "/tmp/ws-w", agentId, config: api.config }).execute("w", { query: "q" });
      assert.equal(pool.engines.size, 1, `${agentId}'s first call is the warmed engine's (${JSON.stringify(agents)})`);
    }
  });
});

describe("memory_search", () => {
  it("maps memory-core's parameters onto the engine's and its result onto memory-core's shape", async () => {
    const { tools } = setup();
    const out = await tools.get("memory_search").execute("c1", { query: " Peter ", maxResults: 2, corpus: "sessions" });
    const d = out.details;
    assert.equal(JSON.parse(out.content[0].text).provider, "workspace-memory");
    assert.deepEqual(Object.keys(d).sort(), ["citations", "mode", "provider", "results"]);
    assert.equal(d.mode, "lexical");
    assert.equal(d.citations, "auto");
    const [first, second] = d.results;
    assert.deepEqual(
      { path: first.path, startLine: first.startLine, endLine: first.endLine, score: first.score, source: first.source, citation: first.citation },
      { path: "memory/2025-11-10.md", startLine: 7, endLine: 7, score: 0.9, source: "memory", citation: "memory/2025-11-10.md#L7" });
    assert.equal(first.snippet, "Peter lives in Vienna.\n\nSource: memory/2025-11-10.md#L7");
    assert.equal(second.citation, "memory/notes/long.md#L2-L4");
    assert.ok(second.snippet.split("\n\nSource:")[0].length <= 700);
  });

  it("passes only documented arguments, values as given, with corpus as the engine's source", () => {
    assert.deepEqual(searchArgs({ query: "q", maxResults: 3, corpus: "sessions", minScore: 0.5 }), { query: "q", k: 3, source: "sessions" });
    assert.deepEqual(searchArgs({ query: "q", corpus: "all" }), { query: "q", k: 6, source: "all" });
    // Out of range, not a number, an unknown corpus, an empty query: the engine refuses them, not the plugin.
    assert.deepEqual(searchArgs({ query: "q", corpus: "memory", maxResults: 5000 }), { query: "q", k: 5000, source: "memory" });
    assert.deepEqual(searchArgs({ query: "q", maxResults: "banana", corpus: "nope" }), { query: "q", k: "banana", source: "nope" });
    assert.deepEqual(searchArgs({ query: "  " }), { query: "", k: 6 });
    assert.deepEqual(searchArgs({ query: "q", corpus: "wiki" }), { query: "q", k: 6 });
  });

  it("answers an engine refusal with the engine's line, not memory-core's unavailable shape", async () => {
    const { tools, pool } = setup();
    await tools.get("memory_search").execute("w", { query: "warm" });
    const engine = [...pool.engines.values()][0];
    const call = engine.call.bind(engine);
    engine.call = (name, args, opts) => call(name === "memory_search" ? "refuse" : name, args, opts);
    const d = (await tools.get("memory_search").execute("r", { query: "q", maxResults: 0 })).details;
    assert.deepEqual(d, { results: [], provider: "workspace-memory", error: "refuse: bad arguments: k: Input should be greater than or equal to 1" });
  });

  it("filters by minScore and honours memory.citations off", async () => {
    const { tools } = setup(undefined, { memory: { citations: "off" } });
    const d = (await tools.get("memory_search").execute("c2", { query: "Peter", minScore: 0.5 })).details;
    assert.equal(d.results.length, 1);
    assert.equal(d.citations, "off");
    assert.equal(d.results[0].citation, undefined);
    assert.equal(d.results[0].snippet, "Peter lives in Vienna.");
  });

  it("leaves citations out of group chats in auto mode", async () => {
    const { tools } = setup({ workspaceDir: "/tmp/ws-a", sessionKey: "agent:main:telegram:group:42" });
    const d = (await tools.get("memory_search").execute("c3", { query: "Peter" })).details;
    assert.equal(d.results[0].citation, undefined);
  });
});

describe("memory_get", () => {
  it("maps from/lines and the page; a missing file is not_found; traversal is the engine's refusal", async () => {
    const { tools } = setup();
    const page = (await tools.get("memory_get").execute("g1", { path: "memory/a.md", from: 3, lines: 2 })).details;
    assert.deepEqual(page, { status: "ok", text: "a\nb", path: "memory/a.md", from: 3, lines: 2, truncated: true, nextFrom: 5 });
    const missing = (await tools.get("memory_get").execute("g2", { path: "memory/missing.md" })).details;
    assert.equal(missing.status, "not_found");
    const outside = (await tools.get("memory_get").execute("g3", { path: "../etc/passwd" })).details;
    assert.equal(outside.status, "error");
    assert.match(outside.error, /outside/);
    assert.equal(outside.text, "");
  });
});

describe("the engine process", () => {
  it("is one per workspace, shared by every tool", async () => {
    const { tools, pool } = setup();
    const a = (await tools.get("memory_search").execute("p1", { query: "x" })).details;
    await tools.get("memory_get").execute("p2", { path: "memory/a.md" });
    const b = (await tools.get("memory_search").execute("p3", { query: "y" })).details;
    assert.equal(pool.engines.size, 1);
    const engine = [...pool.engines.values()][0];
    assert.equal(engine.starts, 1);
    assert.ok(a.results.length && b.results.length);
  });

  it("killed mid-call: one clear error, then the next call starts a new engine", async () => {
    const engine = new Engine({ command: FAKE, workspace: "/tmp/ws-k" });
    open.push({ closeAll: () => engine.close() });
    await engine.call("memory_search", { query: "warm" });
    const first = engine.pid;
    const pending = engine.call("slow", {});
    setTimeout(() => process.kill(first, "SIGKILL"), 50);
    await assert.rejects(pending, (err) => err instanceof EngineError && /killed \(SIGKILL\); the next call starts a new one/.test(err.message));
    const again = await engine.call("memory_search", { query: "again" });
    assert.notEqual(again.pid, first);
    assert.equal(engine.starts, 2);
  });

  it("a search right after the engine died is retried once on a new engine", async () => {
    const { tools, pool } = setup();
    await tools.get("memory_search").execute("k1", { query: "warm" });
    const engine = [...pool.engines.values()][0];
    const first = engine.pid;
    process.kill(first, "SIGKILL");
    const d = (await tools.get("memory_search").execute("k2", { query: "after" })).details;
    assert.equal(d.results.length, 2);
    assert.equal(engine.starts, 2);
    assert.notEqual(engine.pid, first);
  });

  it("memory_search without an engine answers memory-core's unavailable shape, with the reason", async () => {
    const api = fakeApi({ command: "/nonexistent/memory" });
    open.push(register(api).pool);
    const tool = api.tools[0].factory({ workspaceDir: "/tmp/ws-u" });
    const d = (await tool.execute("u1", { query: "x" })).details;
    assert.equal(d.disabled, true);
    assert.equal(d.unavailable, true);
    assert.deepEqual(d.results, []);
    assert.match(d.error, /not found/);
    assert.match(d.action, /config\.command/);
    const get = api.tools[1].factory({ workspaceDir: "/tmp/ws-u" });
    assert.equal((await get.execute("u2", { path: "memory/a.md" })).details.status, "error");
  });

  it("an engine that exits reports its exit code", async () => {
    const engine = new Engine({ command: FAKE, workspace: "/tmp/ws-c" });
    open.push({ closeAll: () => engine.close() });
    await assert.rejects(engine.call("crash", {}), /exited with code 3/);
  });

  it("a call past its deadline fails alone; the engine keeps serving", async () => {
    const engine = new Engine({ command: FAKE, workspace: "/tmp/ws-t", timeoutMs: 300 });
    open.push({ closeAll: () => engine.close() });
    const started = Date.now();
    await assert.rejects(engine.call("slow", {}), /slow did not answer within/);
    assert.ok(Date.now() - started < 3000);
    const ok = await engine.call("memory_search", { query: "after" });
    assert.equal(ok.query, "after");
    assert.equal(engine.starts, 1);
  });

  it("a missing executable is one clear error naming the setting", async () => {
    const engine = new Engine({ command: "/nonexistent/memory", workspace: "/tmp/ws-m" });
    await assert.rejects(engine.call("memory_search", { query: "x" }),
      (err) => err.code === "missing" && /not found.*config\.command/.test(err.message));
  });

  it("a child that stops answering is killed and replaced; the read is answered by the new one", async () => {
    const engine = new Engine({ command: FAKE, workspace: "/tmp/ws-h", timeoutMs: 300, pingMs: 200 });
    open.push({ closeAll: () => engine.close() });
    await engine.call("memory_search", { query: "warm" });
    const first = engine.pid;
    process.kill(first, "SIGSTOP");
    await assert.rejects(engine.call("memory_search", { query: "hung" }),
      (err) => err.code === "exited" && /killed: memory_search got no answer within 0 s, nor a ping/.test(err.message));
    const again = await engine.call("memory_search", { query: "after" });
    assert.notEqual(again.pid, first);
    assert.throws(() => process.kill(first, 0), /ESRCH/, "the stopped child is gone");
  });

  it("restarts with a doubling wait and stops after the limit, with the reason", async () => {
    let now = 0;
    const waits = [];
    const policy = new RestartPolicy({ now: () => now, sleep: async (ms) => { waits.push(ms); }, limit: 3, coolDownMs: 10_000 });
    await policy.admit();
    for (let i = 0; i < 3; i += 1) {
      policy.failed("exited with code 3");
      if (i < 2) await policy.admit();
    }
    assert.deepEqual(waits, [250, 500]);
    await assert.rejects(policy.admit(), /failed 3 times in a row \(last: exited with code 3\); not restarting for 10 s/);
    now = 10_001;
    await policy.admit(); // one more try after the cool-down
    policy.succeeded();
    assert.equal(policy.waitMs(), 0);
  });

  it("a crash-looping engine is not restarted past the limit", async () => {
    const engine = new Engine({ command: FAKE, workspace: "/tmp/ws-l",
      restarts: new RestartPolicy({ sleep: async () => {}, limit: 2 }) });
    open.push({ closeAll: () => engine.close() });
    await assert.rejects(engine.call("crash", {}), /exited with code 3/);
    await assert.rejects(engine.call("crash", {}), /exited with code 3/);
    await assert.rejects(engine.call("memory_search", { query: "x" }), (err) => err.code === "gave-up" && /failed 2 times in a row/.test(err.message));
    assert.equal(engine.starts, 2);
  });

  it("a second error event of the child is handled, not thrown", async () => {
    const engine = new Engine({ command: FAKE, workspace: "/tmp/ws-e" });
    open.push({ closeAll: () => engine.close() });
    await engine.call("memory_search", { query: "warm" });
    engine.child.emit("error", new Error("kill EPERM"));
    engine.child.emit("error", new Error("write EPIPE"));
    assert.equal((await engine.call("memory_search", { query: "still" })).query, "still");
  });

  it("closing stops a stopped child too, and resolves when it is gone", async () => {
    const pool = new EnginePool({ command: FAKE });
    const engine = pool.get("/tmp/ws-s");
    await engine.call("memory_search", { query: "warm" });
    const pid = engine.pid;
    process.kill(pid, "SIGSTOP");
    await pool.closeAll();
    assert.throws(() => process.kill(pid, 0), /ESRCH/);
  });

  it("a write cut short says whether it was applied", async () => {
    const engine = new Engine({ command: FAKE, workspace: "/tmp/ws-w" });
    open.push({ closeAll: () => engine.close() });
    const died = new EngineError("workspace-memory: the engine was killed (SIGKILL); the next call starts a new one", { code: "exited" });
    const retained = await settleCutWrite(engine, "memory_retain", { bullet: "W @Peter: x." }, died);
    assert.equal(retained.applied, true);
    assert.match(retained.error, /killed/);
    const appended = await settleCutWrite(engine, "memory_core_append", { block: "Human", text: "- Likes tea." }, died);
    assert.deepEqual([appended.applied, /unchanged/.test(appended.detail)], [false, true]);
    assert.equal(coreEditApplied("memory_core_append", { text: "- Likes tea." }, "- Name: Peter\n- Likes tea."), true);
    assert.equal(coreEditApplied("memory_core_replace", { old: "Peter", new: "Pete" }, "- Name: Pete"), true);
    assert.equal(coreEditApplied("memory_core_replace", { old: "Peter", new: "Pete" }, "- Name: Peter"), false);
    assert.equal(coreEditApplied("memory_core_rethink", { text: "all new" }, "all new\n"), true);
    assert.equal((await settleCutWrite(engine, "memory_reflect", { apply: true }, died)).applied, null);
  });

  it("passes the engine's own tools only their documented arguments", async () => {
    const { tools } = setup();
    const d = (await tools.get("memory_retain").execute("r1", { bullet: "W @Peter: x.", extra: 1 })).details;
    assert.deepEqual(d, { tool: "memory_retain", received: { bullet: "W @Peter: x." } });
  });
});

describe("prompt and flush", () => {
  it("adds ## Memory Recall only when the tools are there", () => {
    assert.deepEqual(promptSection({ availableTools: new Set(["read"]) }), []);
    const lines = promptSection({ availableTools: new Set(["memory_search", "memory_get", "memory_retain"]) });
    assert.equal(lines[0], "## Memory Recall");
    assert.match(lines.join("\n"), /memory_search.*memory_get/s);
    assert.match(lines.join("\n"), /memory_retain/);
  });

  it("reads OpenClaw's byte sizes for forceFlushTranscriptBytes", () => {
    assert.equal(byteSize(2097152), 2097152);
    assert.equal(byteSize("2mb"), 2 * 1024 * 1024);
    assert.equal(byteSize("512 kb"), 512 * 1024);
    assert.equal(byteSize("100"), 100);
    assert.equal(byteSize("lots"), undefined);
    assert.equal(byteSize(-1), undefined);
  });

  it("fetches the engine's prompts ahead, without blocking; a cold ask runs the engine once", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flush-"));
    const script = path.join(dir, "memory");
    const calls = path.join(dir, "calls");
    fs.writeFileSync(script, `#!/bin/sh\necho "$@" >> ${calls}\necho '{"system": "S", "user": "U", "path": "memory/x.md"}'\n`, { mode: 0o755 });
    const cache = new FlushPromptCache({ command: script });
    cache.prefetch("/tmp/ws-f");
    assert.ok([...cache.entries.values()][0] instanceof Promise, "prefetch returns before the engine answers");
    await [...cache.entries.values()][0];
    assert.deepEqual(cache.get("/tmp/ws-f"), { system: "S", user: "U", path: "memory/x.md" });
    const cold = new FlushPromptCache({ command: script });
    assert.equal(cold.get("/tmp/ws-g").user, "U");
    const pending = (c) => [...c.entries.values()].filter((v) => v instanceof Promise);
    await Promise.all([...pending(cache), ...pending(cold)]); // the next days' prefetches finish
    const lines = fs.readFileSync(calls, "utf8").trim().split("\n");
    assert.equal(lines.filter((l) => l === "--workspace /tmp/ws-f flush-prompt --json").length, 1, "today fetched once");
    assert.ok(lines.some((l) => /--workspace \/tmp\/ws-f --now \d{4}-\d\d-\d\d flush-prompt --json/.test(l)), "tomorrow warmed");
  });

  it("is off when compaction.memoryFlush.enabled is false, and null without an engine", () => {
    const { api } = setup();
    assert.equal(api.capability.flushPlanResolver({ cfg: { agents: { defaults: { compaction: { memoryFlush: { enabled: false } } } } } }), null);
    const missing = fakeApi({ command: "/nonexistent/memory" });
    open.push(register(missing).pool);
    assert.equal(missing.capability.flushPlanResolver({ cfg: {} }), null);
  });
});

describe("OpenClaw's resolved provider keys", () => {
  /** A modelAuth that knows an API key for openai and google, an OAuth login for voyage, and fails for mistral. */
  const modelAuth = (asked = []) => ({
    async resolveApiKeyForProvider({ provider }) {
      asked.push(provider);
      if (provider === "openai") return { apiKey: "sk-oc-openai", source: "models.json", mode: "api-key" };
      if (provider === "google") return { apiKey: "oc-google", source: "profile", mode: "api-key" };
      if (provider === "voyage") return { apiKey: "oauth-token", source: "profile", mode: "oauth" };
      throw new Error(`No API key found for provider "${provider}"`);
    },
  });

  it("maps each engine provider to OpenClaw's (gemini is google) and keeps API keys only", async () => {
    const asked = [];
    const keys = await providerKeys({ modelAuth: modelAuth(asked) }, {});
    assert.deepEqual(asked, ["openai", "google", "voyage", "mistral"]);
    assert.deepEqual(keys, { OPENAI_API_KEY: "sk-oc-openai", GEMINI_API_KEY: "oc-google" });
  });

  it("uses memory.search.remote.apiKey for memory.search.provider, as OpenClaw's memory search does", async () => {
    const cfg = { memory: { search: { provider: "voyage", remote: { apiKey: "pa-own-voyage" } } } };
    const keys = await providerKeys({ modelAuth: modelAuth() }, cfg);
    assert.equal(keys.VOYAGE_API_KEY, "pa-own-voyage");
    assert.equal(keys.OPENAI_API_KEY, "sk-oc-openai");
    assert.deepEqual(await providerKeys(undefined, cfg), { VOYAGE_API_KEY: "pa-own-voyage" }, "no runtime: the config's key only");
  });

  it("are asked only for the providers the workspace's settings name", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "keys-"));
    assert.deepEqual([...namedProviders(dir)], []);
    fs.writeFileSync(path.join(dir, "memory.toml"), '[embedding]\nprovider = "local"\nfallback = ["gemini"]\n');
    assert.deepEqual([...namedProviders(dir)], ["gemini"]);
    assert.deepEqual([...namedProviders(dir, { MEMORY_EMBED_PROVIDER: "openai" })].sort(), ["gemini", "openai"]);
    assert.deepEqual([...namedProviders(dir, {}, { memory: { search: { provider: "voyage" } } })].sort(), ["gemini", "voyage"]);
  });

  it("reach the engine child in its environment, not its argv; the plugin's own env setting wins", async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), "keys-ws-"));
    fs.writeFileSync(path.join(ws, "memory.toml"), '[embedding]\nprovider = "openai"\nfallback = ["gemini", "voyage"]\n');
    const { tools, pool } = setup({ workspaceDir: ws, sessionKey: "agent:main:main" }, {}, { modelAuth: modelAuth() });
    await tools.get("memory_search").execute("k1", { query: "x" });
    const engine = [...pool.engines.values()][0];
    const seen = await engine.call("env", {});
    assert.equal(seen.env.OPENAI_API_KEY, "sk-oc-openai");
    assert.equal(seen.env.GEMINI_API_KEY, "oc-google");
    assert.equal(seen.env.VOYAGE_API_KEY, null);
    assert.ok(!JSON.stringify(seen.argv).includes("sk-oc-openai"));
    assert.ok(![...pool.engines.keys()].some((k) => k.includes("sk-oc-openai")), "not in the pool's key");
    const cli = await runEngineCli({ command: FAKE, workspace: "/tmp/ws-cli", secretEnv: async () => ({ OPENAI_API_KEY: "sk-cli" }) },
      ["print-env"], { capture: true });
    const printed = JSON.parse(cli.stdout);
    assert.equal(printed.OPENAI_API_KEY, "sk-cli", "`openclaw memory ...` commands get the keys too");
    assert.ok(!JSON.stringify(printed.argv).includes("sk-cli"));
    const own = new Engine({ command: FAKE, workspace: "/tmp/ws-own", env: { OPENAI_API_KEY: "sk-plugin-setting" },
      secretEnv: async () => ({ OPENAI_API_KEY: "sk-oc-openai" }) });
    try {
      assert.equal((await own.call("env", {})).env.OPENAI_API_KEY, "sk-plugin-setting");
    } finally {
      own.close();
    }
  });
});
