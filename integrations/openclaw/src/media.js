// OpenClaw's memory.search.multimodal as the engine's [media] table (docs/media.md, "OpenClaw").
// engineEnv (plugin.js) lays it into $MEMORY_CONFIG_OVERLAY as `media`.
// A per-agent setting wins over the defaults, key by key.

const MODALITIES = ["image", "audio"];

/**
 * memory.search.multimodal {enabled, modalities, maxFileBytes} -> [media] {enabled, modalities,
 * max_file_bytes}; undefined when OpenClaw sets none of it (memory.toml then decides).
 * OpenClaw's modalities are image and audio ("all", or none given, is every one): PDFs come with
 * "all" or an absent list, as the engine reads them beside images.
 * @param {any} defaults memory.search @param {any} own the agent's memory.search
 * @returns {{enabled: boolean, modalities?: string[], max_file_bytes?: number} | undefined}
 */
export function mediaOverlay(defaults, own) {
  const base = defaults?.multimodal ?? {};
  const mine = own?.multimodal ?? {};
  const merged = { ...base, ...mine };
  if (!Object.keys(merged).length) return undefined;
  /** @type {{enabled: boolean, modalities?: string[], max_file_bytes?: number}} */
  const media = { enabled: merged.enabled === true };
  const raw = merged.modalities;
  if (Array.isArray(raw) && !raw.includes("all")) {
    media.modalities = raw.filter((m) => MODALITIES.includes(m));
  }
  const size = merged.maxFileBytes;
  if (typeof size === "number" && Number.isFinite(size)) {
    media.max_file_bytes = Math.min(Math.max(1, Math.floor(size)), 1024 ** 3);
  }
  return media;
}
