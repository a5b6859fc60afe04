// OpenClaw's resolved provider keys for the engine's remote embedding providers.
//
// OpenClaw resolves a provider's key from its auth profiles, `models.providers.<id>.apiKey` and the
// environment; a plugin reads the result through the plugin SDK's
// `api.runtime.modelAuth.resolveApiKeyForProvider({provider, cfg})` (openclaw/dist/plugin-entry-*.d.ts,
// PluginRuntime["modelAuth"]), the call OpenClaw's own memory search makes for its embeddings
// (memory-core-host-engine-embeddings: `memory.search.remote.apiKey` first, then the provider's key).
//
// The keys go to the engine child through its environment only, under the variable the engine reads
// for that provider (embed/wire.py): never in argv (visible in `ps`), never in a file, never in a
// log or an error message. Nothing here writes them anywhere else.
import fs from "node:fs";
import path from "node:path";

/**
 * The engine's remote providers (the names of `[embedding] provider` and of OpenClaw's
 * `memory.search.provider`), OpenClaw's provider id for their keys (Gemini's key is OpenClaw's
 * `google`, as its memory search resolves it), and the variable the engine reads.
 */
export const KEY_VARS = Object.freeze({
  openai: ["openai", "OPENAI_API_KEY"],
  gemini: ["google", "GEMINI_API_KEY"],
  voyage: ["voyage", "VOYAGE_API_KEY"],
  mistral: ["mistral", "MISTRAL_API_KEY"],
});

/**
 * The providers of KEY_VARS that the engine may use for a workspace: those named in its memory.toml,
 * in the file $MEMORY_CONFIG names, in $MEMORY_EMBED_PROVIDER or the config overlay, or OpenClaw's
 * memory.search.provider. Asking OpenClaw for a key costs about a second (its auth store is read in
 * child processes), so a workspace whose settings name no remote provider asks for none. A file that
 * cannot be read counts as naming them all (the lookup then runs as before).
 * @param {string} workspace @param {Record<string,string>} env the engine's extra environment @param {any} [cfg]
 * @returns {Set<string>}
 */
export function namedProviders(workspace, env = {}, cfg = undefined) {
  const all = new Set(Object.keys(KEY_VARS));
  const texts = [env.MEMORY_EMBED_PROVIDER ?? process.env.MEMORY_EMBED_PROVIDER ?? "",
    env.MEMORY_CONFIG_OVERLAY ?? "", String(cfg?.memory?.search?.provider ?? "")];
  const configFile = env.MEMORY_CONFIG ?? process.env.MEMORY_CONFIG;
  for (const file of [path.join(workspace, "memory.toml"), ...(configFile ? [configFile] : [])]) {
    try {
      texts.push(fs.readFileSync(file, "utf8"));
    } catch (err) {
      if (/** @type {any} */ (err).code !== "ENOENT") return all;
    }
  }
  const words = new Set(texts.join("\n").toLowerCase().split(/[^a-z0-9_-]+/));
  return new Set([...all].filter((name) => words.has(name)));
}

/** OpenClaw's memory.search settings, the agent's own over the defaults. @param {any} cfg @param {any} own */
function searchSettings(cfg, own) {
  return { ...(cfg?.memory?.search ?? {}), ...(own?.memory?.search ?? {}) };
}

/**
 * {VARIABLE: key} for every provider of KEY_VARS that OpenClaw has an API key for: the memory search's
 * own `remote.apiKey` for its `provider` (as OpenClaw's memory search uses it), else what
 * `modelAuth.resolveApiKeyForProvider` resolves. Only API keys ("api-key" mode): an OAuth or
 * token login of a chat subscription is not an embeddings key. A provider that resolves nothing, or
 * whose lookup fails, is left out (the engine then says it has no key, naming the variable).
 * @param {any} runtime api.runtime @param {any} cfg OpenClaw's config
 * @param {{agent?: any, workspaceDir?: string, providers?: Set<string>}} [opts] providers: only these (namedProviders)
 * @returns {Promise<Record<string,string>>}
 */
export async function providerKeys(runtime, cfg, opts = {}) {
  /** @type {Record<string,string>} */
  const out = {};
  const search = searchSettings(cfg, opts.agent);
  const remoteKey = typeof search.remote?.apiKey === "string" ? search.remote.apiKey.trim() : "";
  const resolve = runtime?.modelAuth?.resolveApiKeyForProvider;
  for (const [engineProvider, [provider, variable]] of Object.entries(KEY_VARS)) {
    if (opts.providers && !opts.providers.has(engineProvider)) continue;
    if (remoteKey && search.provider === engineProvider) {
      out[variable] = remoteKey;
      continue;
    }
    if (typeof resolve !== "function") continue;
    try {
      const auth = await resolve({ provider, cfg, workspaceDir: opts.workspaceDir });
      if (auth?.mode === "api-key" && typeof auth.apiKey === "string" && auth.apiKey.trim()) out[variable] = auth.apiKey.trim();
    } catch {
      // No key for this provider (OpenClaw throws for some): the engine reports a missing key itself.
    }
  }
  return out;
}
