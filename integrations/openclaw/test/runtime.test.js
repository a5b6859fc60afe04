// The memory runtime (src/runtime.js: what memory.search, doctor's memory status and trigger recall
// read), the provenance classes, the artifacts and the agents' workspaces, against the fake engine.
// The real gateway: tests/test_openclaw_plugin.py.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { agentWorkspaces } from "../src/agents.js";
import { listPublicArtifacts } from "../src/artifacts.js";
import { EnginePool } from "../src/engine.js";
import { classifyWorkspaceMemoryPaths, originClassOf } from "../src/provenance.js";
import { createMemoryRuntime, hitOf, statusOf } from "../src/runtime.js";
import { authorizeSearchHits } from "../src/visibility.js";

const FAKE = path.join(path.dirname(fileURLToPath(import.meta.url)), "fake-engine.mjs");
const pools = [];

function runtime(command = FAKE) {
  const pool = new EnginePool({ command, timeoutMs: 5000 });
  pools.push(pool);
  return createMemoryRuntime({ engineForAgent: (cfg, agentId) => pool.get(`/tmp/ws-${agentId}`) });
}

afterEach(() => {
  while (pools.length) pools.pop().closeAll();
});

describe("the memory runtime", () => {
  it("searches with memory-core's hit shape, the engine's scores, its sources and minScore", async () => {
    const { manager } = await runtime().getMemorySearchManager({ cfg: {}, agentId: "main", purpose: "cli" });
    const hits = await manager.search("where does Peter live", { maxResults: 3, minScore: 0.5, sources: ["memory", "sessions"] });
    assert.deepEqual(hits, [{ path: "memory/2025-11-10.md", startLine: 7, endLine: 7, score: 0.9,
      snippet: "Peter lives in Vienna.", source: "memory", citation: "memory/2025-11-10.md#L7" }]);
    const [, long] = await manager.search("x", {});
    assert.equal(long.snippet.length, 700);
    assert.equal(hitOf({ path: "sessions/abc.jsonl", start_line: 2, content: "hi", score: 0.1 }).source, "sessions");
  });

  it("asks the engine lexically on the reply path, and keeps a trigger entry's phrases on its own lines", async () => {
    const { manager } = await runtime().getMemorySearchManager({ cfg: {}, agentId: "main" });
    const listing = manager.listTriggerCandidates({});
    const hits = await manager.search("Vienna?", { lexicalOnly: true, sources: ["memory"], maxResults: 24, minScore: 0 });
    const candidates = await listing;
    assert.deepEqual(candidates.map((c) => [c.path, c.startLine, c.endLine, c.triggers, c.score, c.provenance.originClass]), [
      ["MEMORY.md", 3, 4, "espresso machine; coffee maker", 0, "agent"], ["memory/2025-11-10.md", 7, 7, "vienna", 0, "agent"]]);
    assert.equal(hits[0].triggers, "vienna");
    assert.equal(hits[1].triggers, undefined);
    const plain = await manager.search("Vienna?", {});
    assert.equal(plain[0].triggers, undefined);
  });

  it("reads files as memory_get does: ok with paging, not_found, and the engine's refusal", async () => {
    const { manager } = await runtime().getMemorySearchManager({ cfg: {}, agentId: "main" });
    assert.deepEqual(await manager.readFile({ relPath: "memory/2025-11-10.md", from: 3, lines: 2 }),
      { status: "ok", text: "a\nb", path: "memory/2025-11-10.md", from: 3, lines: 2, truncated: true, nextFrom: 5 });
    assert.deepEqual(await manager.readFile({ relPath: "memory/missing.md" }), { status: "not_found", text: "", path: "memory/missing.md" });
    await assert.rejects(manager.readFile({ relPath: "../../etc/passwd.md" }), /outside the workspace/);
  });

  it("gives the engine's figures as OpenClaw's status, synchronously", async () => {
    const { manager } = await runtime().getMemorySearchManager({ cfg: {}, agentId: "main", purpose: "status" });
    const status = manager.status();
    assert.equal(status.provider, "workspace-memory");
    assert.equal(status.model, "use-multilingual-v3");
    assert.deepEqual([status.files, status.chunks, status.custom.facts, status.custom.searchMode, status.custom.lastIndex],
      [21, 54, 18, "hybrid", "2025-11-30T12:00:00+00:00"]);
    assert.equal(status.dbPath, "/tmp/ws-main/.memory/index.sqlite");
    assert.deepEqual(await manager.probeEmbeddingAvailability(), { ok: true, checked: true, cached: false, checkedAtMs: manager.figuresAt });
    assert.equal(await manager.probeVectorAvailability(), true);
    assert.equal(statusOf({ modes: ["lexical"] }, "/w").custom.searchMode, "fts-only");
  });

  it("says in one line why there is no manager when the engine cannot start", async () => {
    const got = await runtime("/no/such/memory").getMemorySearchManager({ cfg: {}, agentId: "main", purpose: "status" });
    assert.equal(got.manager, null);
    assert.match(got.error, /^workspace-memory: the engine `\/no\/such\/memory` was not found/);
    assert.ok(!got.error.includes("\n"));
  });

  it("keeps one manager per engine, and closing it leaves the engine running", async () => {
    const rt = runtime();
    const a = (await rt.getMemorySearchManager({ cfg: {}, agentId: "main" })).manager;
    await a.close();
    const b = (await rt.getMemorySearchManager({ cfg: {}, agentId: "main" })).manager;
    assert.equal(a, b);
    assert.ok(b.engine.pid);
    assert.notEqual((await rt.getMemorySearchManager({ cfg: {}, agentId: "ops" })).manager, a);
  });
});

describe("visibility and provenance", () => {
  it("shows transcript hits only to a requester OpenClaw's session checks allow", async () => {
    const hits = [{ path: "MEMORY.md", source: "memory" }, { path: "sessions/s1.jsonl", source: "sessions" },
      { path: "sessions/s2.jsonl", source: "sessions" }];
    assert.deepEqual(await authorizeSearchHits({ cfg: {}, agentId: "main", hits }, undefined), [hits[0]]);
    const sdk = async () => ({
      visibility: {
        createSessionVisibilityGuard: async () => ({ check: (key) => ({ allowed: key === "agent:main:one" }) }),
        resolveEffectiveSessionToolsVisibility: () => "tree", createAgentToAgentPolicy: () => ({}),
      },
      hits: {
        loadCombinedSessionStoreForGateway: () => ({ store: { "agent:main:one": { sessionId: "s1" }, "agent:main:two": { sessionId: "s2" } } }),
        extractTranscriptIdentityFromSessionsMemoryHit: (p) => ({ stem: path.basename(p, ".jsonl") }),
        resolveTranscriptStemToSessionKeys: ({ store, stem }) => Object.keys(store).filter((k) => store[k].sessionId === stem),
      },
    });
    assert.deepEqual(await authorizeSearchHits({ cfg: {}, agentId: "main", requesterSessionKey: "agent:main:one", hits }, sdk),
      [hits[0], hits[1]]);
    assert.deepEqual(await authorizeSearchHits({ cfg: {}, agentId: "main", hits }, sdk), [hits[0]]);
    assert.deepEqual(await authorizeSearchHits({ cfg: {}, agentId: "main", requesterSessionKey: "x", hits },
      async () => { throw new Error("no sdk"); }), [hits[0]]);
  });

  it("classifies the engine's memory files as agent memory, anything else as untrusted", async () => {
    for (const p of ["MEMORY.md", "USER.md", "memory/2025-11-10.md", "memory/notes/a.md", "bank/entities/Peter.md", "users/ann/USER.md"]) {
      assert.equal(originClassOf(p), "agent", p);
    }
    for (const p of ["SOUL.md", "../MEMORY.md", "/etc/MEMORY.md", "memory/a.txt", ".memory/index.md", "memory/../x.md", "bank/.hidden/a.md"]) {
      assert.equal(originClassOf(p), "untrusted", p);
    }
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), "wm-prov-"));
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "wm-out-"));
    fs.writeFileSync(path.join(ws, "MEMORY.md"), "# Core\n");
    fs.writeFileSync(path.join(outside, "x.md"), "x\n");
    fs.mkdirSync(path.join(ws, "memory"));
    fs.symlinkSync(path.join(outside, "x.md"), path.join(ws, "memory", "link.md"));
    const got = await classifyWorkspaceMemoryPaths({ workspaceDir: ws, relativePaths: ["MEMORY.md", "memory/link.md", "USER.md"] });
    assert.deepEqual(got.map((c) => c.originClass), ["agent", "untrusted", "untrusted"]);
    const read = await classifyWorkspaceMemoryPaths({ workspaceDir: ws, relativePaths: ["MEMORY.md", "USER.md"],
      readSources: [{ relativePath: "MEMORY.md", canonicalRelativePath: "MEMORY.md" }, { relativePath: "USER.md" }] });
    assert.deepEqual(read.map((c) => c.originClass), ["agent", "untrusted"]);
  });
});

describe("workspaces and artifacts", () => {
  it("groups agents by workspace and lists each workspace's memory files once", async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), "wm-art-"));
    for (const rel of ["MEMORY.md", "memory/2025-11-10.md", "bank/entities/Peter.md", "memory/notes.txt", ".memory/x.md"]) {
      fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
      fs.writeFileSync(path.join(ws, rel), "x\n");
    }
    const cfg = { agents: { list: [{ id: "main" }, { id: "ops" }, { id: "Lab" }] } };
    const groups = agentWorkspaces(cfg, (id) => (id === "lab" ? "/elsewhere" : ws));
    assert.deepEqual(groups, [{ workspaceDir: ws, agentIds: ["main", "ops"] }, { workspaceDir: "/elsewhere", agentIds: ["lab"] }]);
    assert.deepEqual(agentWorkspaces({}, () => ws), [{ workspaceDir: ws, agentIds: ["main"] }]);
    const listed = await listPublicArtifacts(groups);
    assert.deepEqual(listed.map((a) => [a.kind, a.relativePath, a.agentIds.join(",")]), [
      ["memory-root", "MEMORY.md", "main,ops"], ["daily-note", "memory/2025-11-10.md", "main,ops"],
      ["bank-page", "bank/entities/Peter.md", "main,ops"]]);
  });
});
