// workspace-memory as OpenClaw's memory plugin (plugins.slots.memory = "workspace-memory").
// A thin shell: the tools, the prompt, the flush and `openclaw memory ...` all ask the engine
// (`memory mcp`, one long-lived child per workspace; the `memory` CLI for the command line).
// Registration writes nothing to stdout (it would break every `openclaw ... --json`).
import { definePluginEntry } from "openclaw/plugin-sdk/plugin-entry";
import { PLUGIN_ID, register } from "./src/plugin.js";

export default definePluginEntry({
  id: PLUGIN_ID,
  name: "Workspace Memory",
  description: "Offline memory engine: memory_search/memory_get, retain, reflect, core memory, and `openclaw memory recall|reflect`",
  kind: "memory",
  register(api) {
    register(api, {
      // OpenClaw's session-visibility checks, for transcript hits (src/visibility.js), loaded on first use.
      sdk: async () => {
        const [visibility, hits] = await Promise.all([
          import("openclaw/plugin-sdk/session-visibility"), import("openclaw/plugin-sdk/session-transcript-hit"),
        ]);
        return { visibility, hits };
      },
      // memory-core's standing intents live in the agent's database: OpenClaw's SQLite runtime opens it.
      intents: async () => {
        const [sqlite, scope] = await Promise.all([
          import("openclaw/plugin-sdk/sqlite-runtime"), import("openclaw/plugin-sdk/agent-scope-runtime"),
        ]);
        return { sqlite, scope };
      },
    });
  },
});
