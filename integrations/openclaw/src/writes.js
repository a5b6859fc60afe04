// A write cut short: the engine died (or was killed as hung) while a write tool ran. The engine's
// writes are atomic (a whole file replaced, under a lock), so the write either happened or did not;
// this module asks a new engine which, and says so in the answer: `applied: true | false`, or
// `applied: null` with the reason when it cannot be told.
//
//   memory_retain          retried: the engine stores a bullet once (a second time is a no-op,
//                          `duplicate: true`), so the retry's answer is the truth.
//   memory_core_*          read back with memory_core_show: the block holds the edit or not.
//   memory_reflect         not retried (it may be what hung the engine): unknown, and safe to run
//                          again (it rewrites the same pages from the same facts).

/** @typedef {import("./engine.js").Engine} Engine */

/** @param {any} shown memory_core_show's answer @param {string} label @returns {string | null} */
function blockValue(shown, label) {
  const block = (shown?.blocks ?? []).find((/** @type {any} */ b) => String(b.label).toLowerCase() === String(label).toLowerCase());
  return block ? String(block.value ?? "") : null;
}

/**
 * Whether a core edit is in the block now. null when the block is gone.
 * @param {string} tool @param {Record<string, any>} args @param {string | null} value
 * @returns {boolean | null}
 */
export function coreEditApplied(tool, args, value) {
  if (value === null) return null;
  const text = String(args.text ?? "").trim();
  switch (tool) {
    case "memory_core_append":
    case "memory_core_insert":
      return value.includes(text);
    case "memory_core_rethink":
      return value.trim() === text;
    case "memory_core_replace": {
      const old = String(args.old ?? "");
      const neu = String(args.new ?? "");
      return !value.includes(old) && (neu === "" || value.includes(neu));
    }
    default:
      return null;
  }
}

/**
 * The answer for a write whose engine died under it: the death's one line, and whether it was applied.
 * @param {Engine} engine @param {string} tool @param {Record<string, any>} args @param {Error} err
 * @param {AbortSignal} [signal]
 */
export async function settleCutWrite(engine, tool, args, err, signal) {
  const base = { error: err.message };
  try {
    if (tool === "memory_retain") {
      const again = await engine.call(tool, args, { signal });
      return { ...again, ...base, applied: true,
        detail: again?.duplicate ? "it had been stored before the engine died" : "stored by a new engine (retried: storing a bullet twice is a no-op)" };
    }
    if (tool.startsWith("memory_core_")) {
      const applied = coreEditApplied(tool, args, blockValue(await engine.call("memory_core_show", {}, { signal }), args.block));
      return { ...base, applied,
        detail: applied === null ? `core block ${args.block} not found; see memory_core_show`
          : applied ? "the edit is in the block (read back with memory_core_show)" : "the block is unchanged; the edit can be made again" };
    }
  } catch (again) {
    return { ...base, applied: null, detail: `could not be checked: ${/** @type {Error} */ (again).message}` };
  }
  return { ...base, applied: null, detail: `${tool} is not retried; it is safe to run again (it rewrites the same pages from the same facts)` };
}
