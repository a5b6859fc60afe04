// The client side of benchmarks/openclaw_runtime.py: over one connection to a running gateway, each
// query once as the gateway's `memory.search` RPC (the Control UI's Memories tab) and once as the
// agent's memory_search tool (POST /tools/invoke), in alternating order; prints the latencies (ms).
//   node benchmarks/openclaw_rpc.mjs PORT TOKEN QUERIES.json K
// Runs with .node/bin/node; OpenClaw's GatewayClient is loaded from .node/node_modules/openclaw.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const [port, token, queriesFile, kArg] = process.argv.slice(2);
const k = Number(kArg ?? 6);
const queries = JSON.parse(fs.readFileSync(queriesFile, "utf8"));
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sdk = await import(pathToFileURL(path.join(repo, ".node/node_modules/openclaw/dist/plugin-sdk/gateway-runtime.js")).href);

async function tool(query) {
  const res = await fetch(`http://127.0.0.1:${port}/tools/invoke`, {
    method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ tool: "memory_search", args: { query, maxResults: k } }),
  });
  const answer = await res.json();
  if (!answer.ok) throw new Error(JSON.stringify(answer));
  return answer.result.details.results.length;
}

const client = new sdk.GatewayClient({
  url: `ws://127.0.0.1:${port}`, token, clientName: "cli", mode: "cli", scopes: ["operator.read", "operator.write", "operator.admin"],
  onConnectError: (err) => { console.error(`cannot connect: ${err.message}`); process.exit(1); },
  onHelloOk: async () => {
    const rpc = async (query) => (await client.request("memory.search", { query, maxResults: k })).results.length;
    const out = { rpc_ms: [], tool_ms: [], rpc_hits: 0, tool_hits: 0 };
    const time = async (fn, query) => { const t = performance.now(); const n = await fn(query); return [performance.now() - t, n]; };
    try {
      for (const q of queries.slice(0, 3)) { await rpc(q); await tool(q); } // warm both paths
      for (const [i, q] of queries.entries()) {
        const order = i % 2 ? [["tool", tool], ["rpc", rpc]] : [["rpc", rpc], ["tool", tool]];
        for (const [name, fn] of order) {
          const [ms, n] = await time(fn, q);
          out[`${name}_ms`].push(ms);
          out[`${name}_hits`] += n;
        }
      }
      console.log(JSON.stringify(out));
    } catch (err) {
      console.error(err.message);
      process.exitCode = 1;
    }
    client.stop();
    setTimeout(() => process.exit(process.exitCode ?? 0), 100);
  },
});
client.start();
