// The tools' schemas, taken from the engine: src/engine-tools.json is `memory mcp`'s tools/list
// (written and checked against the real server by tests/test_openclaw_schemas.py, which fails on
// drift). The engine's own tools are passed through with its names, descriptions and input schemas;
// memory-core's memory_search / memory_get keep memory-core's parameter names with the engine's bounds.
import fs from "node:fs";

/**
 * @typedef {{type?: string, description?: string, minimum?: number, maximum?: number, maxLength?: number,
 *   enum?: string[], default?: unknown}} PropertySchema
 * @typedef {{type: "object", properties: Record<string, PropertySchema>, required?: string[],
 *   additionalProperties: false}} ObjectSchema
 * @typedef {{name: string, description: string, inputSchema: ObjectSchema}} EngineTool
 */

/** @type {EngineTool[]} */
export const ENGINE_TOOLS = JSON.parse(fs.readFileSync(new URL("./engine-tools.json", import.meta.url), "utf8"));

/** @param {string} name @returns {EngineTool} */
export function engineTool(name) {
  const tool = ENGINE_TOOLS.find((t) => t.name === name);
  if (!tool) throw new Error(`workspace-memory: the engine has no tool ${name} (src/engine-tools.json)`);
  return tool;
}

/** A property of an engine tool's input schema. @param {string} tool @param {string} prop @returns {PropertySchema} */
function prop(tool, prop) {
  const schema = engineTool(tool).inputSchema.properties[prop];
  if (!schema) throw new Error(`workspace-memory: the engine's ${tool} has no argument ${prop}`);
  return schema;
}

/** Only the bounds of a property (not its description or default, which are the engine's wording). @param {PropertySchema} p */
function bounds(p) {
  /** @type {PropertySchema} */
  const out = {};
  for (const key of /** @type {const} */ (["type", "minimum", "maximum", "maxLength", "enum"])) {
    if (p[key] !== undefined) /** @type {any} */ (out)[key] = p[key];
  }
  return out;
}

/** memory-core's memory_search parameters, bounded as the engine's memory_search. @type {ObjectSchema} */
export const MEMORY_SEARCH_PARAMETERS = {
  type: "object",
  properties: {
    query: { ...bounds(prop("memory_search", "query")), description: prop("memory_search", "query").description },
    maxResults: { ...bounds(prop("memory_search", "k")), description: "How many results (default 6)." },
    minScore: { type: "number", description: "Leave out results scored below this (0..1)." },
    corpus: { type: "string", enum: ["memory", "wiki", "all", "sessions"],
      description: "memory (the notes), sessions (past conversation transcripts), all; wiki is not served here." },
  },
  required: ["query"],
  additionalProperties: false,
};

/** memory-core's memory_get parameters, bounded as the engine's memory_get. @type {ObjectSchema} */
export const MEMORY_GET_PARAMETERS = {
  type: "object",
  properties: {
    path: { ...bounds(prop("memory_get", "path")), description: prop("memory_get", "path").description },
    from: { ...bounds(prop("memory_get", "from_line")), description: "First line to read (1-based)." },
    lines: { ...bounds(prop("memory_get", "lines")), description: "How many lines to read." },
    corpus: { type: "string", enum: ["memory", "wiki", "all"], description: "memory (default) or all; wiki is not served here." },
  },
  required: ["path"],
  additionalProperties: false,
};

/** "memory_core_append" -> "Memory Core Append". @param {string} name */
export function labelOf(name) {
  return name.split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
}
