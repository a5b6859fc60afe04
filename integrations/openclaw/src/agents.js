// The agents OpenClaw's config names, grouped by the workspace their memory lives in (cron.js keeps
// one reflect job per workspace; artifacts.js lists each workspace's files once).

/** Agent ids in OpenClaw's config (agents.list, agents.entries), else OpenClaw's default "main". @param {any} cfg */
export function agentIds(cfg) {
  const agents = cfg?.agents;
  const ids = [
    ...(Array.isArray(agents?.list) ? agents.list.map((/** @type {any} */ a) => a?.id) : []),
    ...(agents?.entries && typeof agents.entries === "object" ? Object.keys(agents.entries) : []),
  ].filter((id) => typeof id === "string" && id.trim()).map((id) => id.trim().toLowerCase());
  return ids.length ? [...new Set(ids)] : ["main"];
}

/**
 * The agent a call without one goes to, as OpenClaw picks it: the one marked `default: true`, else the
 * only or first configured one, else "main". The gateway's service warms this agent's engine.
 * @param {any} cfg
 */
export function defaultAgentId(cfg) {
  const listed = [
    ...(Array.isArray(cfg?.agents?.list) ? cfg.agents.list : []),
    ...Object.entries(cfg?.agents?.entries && typeof cfg.agents.entries === "object" ? cfg.agents.entries : {})
      .map(([id, entry]) => ({ ...(entry && typeof entry === "object" ? entry : {}), id })),
  ].filter((a) => a && typeof a.id === "string" && a.id.trim());
  const marked = listed.filter((a) => a.default === true);
  return (marked.length === 1 ? marked[0].id : agentIds(cfg)[0]).trim().toLowerCase();
}

/**
 * Workspaces with the agents that use each, in the order of their first agent.
 * @param {any} cfg @param {(agentId: string) => string} workspaceOf
 * @returns {{workspaceDir: string, agentIds: string[]}[]}
 */
export function agentWorkspaces(cfg, workspaceOf) {
  /** @type {Map<string, string[]>} */
  const byDir = new Map();
  for (const id of agentIds(cfg)) {
    const dir = workspaceOf(id);
    byDir.set(dir, [...(byDir.get(dir) ?? []), id]);
  }
  return [...byDir].map(([workspaceDir, ids]) => ({ workspaceDir, agentIds: ids }));
}
