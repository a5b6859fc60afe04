// memory-core's tool contract (names, parameters, result shape) onto the engine's MCP tools.
// Only renaming and reshaping here: the ranking, the snippets and the paths are the engine's.

export const DEFAULT_MAX_RESULTS = 6; // memory-core's default
export const SNIPPET_MAX_CHARS = 700;

/** @param {any} cfg OpenClaw's config @returns {"auto"|"on"|"off"} */
export function citationsMode(cfg) {
  const mode = cfg?.memory?.citations;
  return mode === "on" || mode === "off" ? mode : "auto";
}

/** memory-core's rule: auto shows citations in direct chats, not in groups and channels. @param {string} mode @param {unknown} sessionKey */
export function includeCitations(mode, sessionKey) {
  if (mode === "on") return true;
  if (mode === "off") return false;
  const rest = String(sessionKey ?? "").toLowerCase().split(":");
  return !(rest.includes("group") || rest.includes("channel"));
}

/**
 * memory_search's parameters as the engine's memory_search arguments, values as given: the engine
 * checks them (an empty or long query, maxResults out of 1..1000 or not a number, an unknown corpus)
 * and its one-line refusal is the answer, as `memory recall --k` refuses.
 * @param {{query?: unknown, maxResults?: unknown, minScore?: number, corpus?: unknown}} params
 */
export function searchArgs(params) {
  /** @type {Record<string, unknown>} */
  const args = { query: typeof params?.query === "string" ? params.query.trim() : params?.query ?? "",
    k: params?.maxResults ?? DEFAULT_MAX_RESULTS };
  const corpus = params?.corpus;
  if (corpus !== undefined && corpus !== "wiki") args.source = corpus; // memory, sessions, all; else the engine refuses
  return args;
}

/** @param {{start_line?: number, end_line?: number, path: string}} r */
function citationOf(r) {
  const start = r.start_line ?? 1;
  const end = r.end_line ?? start;
  return start === end ? `${r.path}#L${start}` : `${r.path}#L${start}-L${end}`;
}

/**
 * The engine's recall result in memory-core's memory_search shape.
 * @param {any} recall the engine's `recall --json` contract
 * @param {{minScore?: number, mode?: "auto"|"on"|"off", include?: boolean}} opts
 */
export function searchResult(recall, opts = {}) {
  const minScore = typeof opts.minScore === "number" ? opts.minScore : -Infinity;
  const include = opts.include ?? true;
  const results = [];
  for (const r of recall?.results ?? []) {
    if (typeof r.score === "number" && r.score < minScore) continue;
    const path = r.path ?? String(r.source ?? "").split("#")[0];
    const startLine = r.start_line ?? 1;
    const endLine = r.end_line ?? startLine;
    const citation = citationOf({ path, start_line: startLine, end_line: endLine });
    let snippet = String(r.content ?? "");
    if (snippet.length > SNIPPET_MAX_CHARS) snippet = `${snippet.slice(0, SNIPPET_MAX_CHARS - 1)}…`;
    const source = path.startsWith("sessions/") ? "sessions" : "memory";
    /** @type {Record<string, unknown>} */
    const hit = { path, startLine, endLine, score: r.score, snippet, source, corpus: source };
    if (include) {
      hit.citation = citation;
      hit.snippet = `${snippet.trimEnd()}\n\nSource: ${citation}`;
    }
    if (r.kind) hit.kind = r.kind;
    if (r.timestamp) hit.updatedAt = r.timestamp;
    results.push(hit);
  }
  /** @type {Record<string, unknown>} */
  const out = { results, provider: "workspace-memory", mode: recall?.mode, citations: opts.mode ?? "auto" };
  if (recall?.notices?.length) out.warnings = recall.notices;
  return out;
}

/**
 * memory_get's parameters as the engine's memory_get arguments, values as given (the engine checks them).
 * @param {{path?: unknown, from?: unknown, lines?: unknown}} params
 */
export function getArgs(params) {
  /** @type {Record<string, unknown>} */
  const args = { path: typeof params?.path === "string" ? params.path.trim() : params?.path ?? "" };
  if (params?.from !== undefined) args.from_line = params.from;
  if (params?.lines !== undefined) args.lines = params.lines;
  return args;
}

/** The engine's page in memory-core's memory_get shape. @param {any} page */
export function getResult(page) {
  const from = page.start_line ?? 1;
  const lines = Math.max(0, (page.end_line ?? from - 1) - from + 1);
  const truncated = page.next_from !== null && page.next_from !== undefined;
  /** @type {Record<string, unknown>} */
  const out = { status: "ok", text: page.text ?? "", path: page.path, from, lines, truncated };
  if (truncated) out.nextFrom = page.next_from;
  return out;
}

/** memory_get's answer for an engine refusal: not_found for a missing file, error otherwise. @param {string} path @param {Error} err */
export function getFailure(path, err) {
  const message = err.message;
  const status = /** @type {any} */ (err).code === "tool" && /no such file|not found/i.test(message) ? "not_found" : "error";
  return { status, path, text: "", error: message };
}

/** The "## Memory Recall" prompt section (memory-core's wording, our tools). @param {{availableTools: Set<string>, citationsMode?: string}} params */
export function promptSection(params) {
  const tools = params.availableTools;
  const search = tools.has("memory_search");
  const get = tools.has("memory_get");
  if (!search && !get) return [];
  const lines = ["## Memory Recall"];
  lines.push(search
    ? `Before answering anything about prior work, decisions, dates, people, preferences, or todos: run memory_search${get ? "; for hits, use memory_get with the result's citation to pull only the needed lines" : ""}. If low confidence after search, say you checked.`
    : "Before answering anything about prior work, decisions, dates, people, preferences, or todos that point to a specific memory file: run memory_get to pull only the needed lines.");
  if (tools.has("memory_retain")) {
    lines.push("When you learn a durable fact (a decision, a preference, something about a person or project), store it with memory_retain as one Retain bullet, e.g. \"W @Peter: Lives in Vienna.\"");
  }
  lines.push(params.citationsMode === "off"
    ? "Citations are disabled: do not mention file paths or line numbers in replies unless the user explicitly asks."
    : "Citations: include Source: <path#line> when it helps the user verify memory snippets.");
  lines.push("");
  return lines;
}
