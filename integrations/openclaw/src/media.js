// OpenClaw's memory.search.multimodal as the engine's [media] table (docs/media.md, "OpenClaw").
// engineEnv (plugin.js) lays it into $MEMORY_CONFIG_OVERLAY as `media`.
// A per-agent setting wins over the defaults, key by key.

const MODALITIES = ["image", "audio"];
// Gemini's multimodal embedding models (OpenClaw's GEMINI_EMBEDDING_2_MODELS).
const MEDIA_MODELS = ["gemini-embedding-2", "gemini-embedding-2-preview"];

/**
 * memory.search.multimodal {enabled, modalities, maxFileBytes} -> [media] {enabled, modalities,
 * max_file_bytes}; undefined when OpenClaw sets none of it (memory.toml then decides).
 * OpenClaw's modalities are image and audio ("all", or none given, is every one): PDFs come with
 * "all" or an absent list, as the engine reads them beside images.
 * With OpenClaw's own multimodal choice (memory.search.provider "gemini", model gemini-embedding-2),
 * the files are also embedded as themselves: `embedding = "gemini"`, its model and
 * outputDimensionality (the key reaches the engine as GEMINI_API_KEY: keys.js).
 * @param {any} defaults memory.search @param {any} own the agent's memory.search
 * @returns {{enabled: boolean, modalities?: string[], max_file_bytes?: number, embedding?: string,
 *   embedding_model?: string, embedding_dimensions?: number} | undefined}
 */
export function mediaOverlay(defaults, own) {
  const base = defaults?.multimodal ?? {};
  const mine = own?.multimodal ?? {};
  const merged = { ...base, ...mine };
  if (!Object.keys(merged).length) return undefined;
  /** @type {{enabled: boolean, modalities?: string[], max_file_bytes?: number, embedding?: string,
   *   embedding_model?: string, embedding_dimensions?: number}} */
  const media = { enabled: merged.enabled === true };
  const raw = merged.modalities;
  if (Array.isArray(raw) && !raw.includes("all")) {
    media.modalities = raw.filter((m) => MODALITIES.includes(m));
  }
  const size = merged.maxFileBytes;
  if (typeof size === "number" && Number.isFinite(size)) {
    media.max_file_bytes = Math.min(Math.max(1, Math.floor(size)), 1024 ** 3);
  }
  const search = { ...(defaults ?? {}), ...(own ?? {}) };
  const model = String(search.model ?? "").trim().replace(/^models\//, "").replace(/^(gemini|google)\//, "");
  if (media.enabled && search.provider === "gemini" && MEDIA_MODELS.includes(model)) {
    media.embedding = "gemini";
    media.embedding_model = model;
    const dims = search.outputDimensionality;
    if (Number.isInteger(dims) && dims >= 128 && dims <= 3072) media.embedding_dimensions = dims;
  }
  return media;
}
