#!/usr/bin/env node
// A stand-in for `memory --workspace W mcp` in the plugin's unit tests: MCP over stdio, newline JSON-RPC.
// memory_search answers with its own arguments echoed in `received`; "slow" never answers before it is
// killed or cancelled; "crash" exits; "env" shows the provider keys it was given. Nothing but protocol goes to stdout.
import readline from "node:readline";

const workspace = process.argv[process.argv.indexOf("--workspace") + 1];
if (process.argv.includes("print-env")) {
  // As a one-shot CLI command (cli.js runEngineCli): the key it was given, and its argv.
  process.stdout.write(JSON.stringify({ OPENAI_API_KEY: process.env.OPENAI_API_KEY ?? null, argv: process.argv }));
  process.exit(0);
}
const send = (msg) => process.stdout.write(`${JSON.stringify(msg)}\n`);
const ok = (id, structured) => send({ jsonrpc: "2.0", id, result: {
  content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured, isError: false } });
const fail = (id, text) => send({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }], isError: true } });

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.method === "initialize") {
    send({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} },
      serverInfo: { name: "fake-engine", version: "0" } } });
    return;
  }
  if (msg.method === "ping") {
    send({ jsonrpc: "2.0", id: msg.id, result: {} });
    return;
  }
  if (msg.method !== "tools/call") return;
  const { name, arguments: args } = msg.params;
  if (name === "memory_search") {
    ok(msg.id, { query: args.query, mode: "lexical", notices: [], received: args, workspace, pid: process.pid, results: [
      { kind: "world", content: "Peter lives in Vienna.", source: "memory/2025-11-10.md#L7", path: "memory/2025-11-10.md",
        start_line: 7, end_line: 7, score: 0.9, timestamp: "2025-11-10" },
      { kind: "note", content: "x".repeat(900), source: "memory/notes/long.md#L2-L4", path: "memory/notes/long.md",
        start_line: 2, end_line: 4, score: 0.2, timestamp: null },
    ] });
  } else if (name === "memory_get") {
    if (String(args.path).includes("..")) fail(msg.id, `${args.path}: outside the workspace's memory files`);
    else if (String(args.path).includes("missing")) fail(msg.id, `${args.path}: no such file`);
    else ok(msg.id, { path: args.path.split("#")[0], start_line: args.from_line ?? 1, end_line: (args.from_line ?? 1) + 1,
      total_lines: 10, text: "a\nb", next_from: (args.from_line ?? 1) + 2, received: args });
  } else if (name === "memory_status") {
    ok(msg.id, { workspace, index: `sqlite ${workspace}/.memory/index.sqlite`, files: 21, chunks: 54, facts: 18, entities: 5,
      last_sync: "2025-11-30T12:00:00+00:00", index_age_seconds: 3.5, modes: ["lexical", "semantic", "hybrid"],
      embedding: "local/use-multilingual-v3", embedding_space: { model: "use-multilingual-v3" }, warnings: [{}], notices: [] });
  } else if (name === "memory_triggers") {
    ok(msg.id, { results: [{ source: "MEMORY.md#L3-L4", path: "MEMORY.md", start_line: 3, end_line: 4,
      phrases: ["espresso machine", "coffee maker"], text: "## Kitchen\n- The espresso machine is broken." },
    { source: "memory/2025-11-10.md#L7", path: "memory/2025-11-10.md", start_line: 7, end_line: 7,
      phrases: ["vienna"], text: "Peter lives in Vienna." }], total: 2 });
  } else if (name === "env") {
    // What keys.js handed over: the child's environment, and its argv (which must not hold them).
    ok(msg.id, { env: Object.fromEntries(["OPENAI_API_KEY", "GEMINI_API_KEY", "VOYAGE_API_KEY", "MISTRAL_API_KEY"]
      .map((k) => [k, process.env[k] ?? null])), argv: process.argv });
  } else if (name === "crash") {
    process.exit(3);
  } else if (name === "memory_core_show") {
    ok(msg.id, { path: "MEMORY.md", exists: true, blocks: [{ label: "Human", value: process.env.FAKE_CORE_VALUE ?? "- Name: Peter" }] });
  } else if (name === "refuse") {
    fail(msg.id, "refuse: bad arguments: k: Input should be greater than or equal to 1");
  } else if (name === "slow") {
    // never answers
  } else {
    ok(msg.id, { tool: name, received: args });
  }
});
