// runtime.authorizeSearchHits: hits from session transcripts follow OpenClaw's session visibility
// (tools.sessions.visibility, agent-to-agent policy), through the plugin SDK's own checks, as
// memory-core's runtime does; memory hits pass. Without a requester session, or when OpenClaw's
// checks cannot be loaded, no transcript hit is shown (OpenClaw's rule for a runtime without this).

/**
 * @param {{cfg: any, agentId: string, requesterSessionKey?: string, sandboxed?: boolean, hits: any[]}} params
 * @param {(() => Promise<{visibility: any, hits: any}>) | undefined} sdk OpenClaw's plugin-sdk/session-visibility and
 *   plugin-sdk/session-transcript-hit, loaded on first use (index.js; the node tests run without OpenClaw)
 */
export async function authorizeSearchHits(params, sdk) {
  const hits = params.hits ?? [];
  if (!hits.some((h) => h.source === "sessions")) return hits;
  const memoryOnly = hits.filter((h) => h.source !== "sessions");
  const requester = params.requesterSessionKey?.trim();
  if (!requester || !sdk) return memoryOnly;
  let mods;
  try {
    mods = await sdk();
  } catch {
    return memoryOnly;
  }
  const { createSessionVisibilityGuard, resolveEffectiveSessionToolsVisibility, createAgentToAgentPolicy } = mods.visibility;
  const { loadCombinedSessionStoreForGateway, extractTranscriptIdentityFromSessionsMemoryHit, resolveTranscriptStemToSessionKeys } = mods.hits;
  const guard = await createSessionVisibilityGuard({
    action: "history", requesterSessionKey: requester, requesterAgentId: params.agentId,
    visibility: resolveEffectiveSessionToolsVisibility({ cfg: params.cfg, sandboxed: Boolean(params.sandboxed) }),
    a2aPolicy: createAgentToAgentPolicy(params.cfg),
  });
  const { store } = loadCombinedSessionStoreForGateway(params.cfg, params.agentId ? { agentId: params.agentId } : {});
  return hits.filter((hit) => {
    if (hit.source !== "sessions") return true;
    const identity = extractTranscriptIdentityFromSessionsMemoryHit(hit.path);
    if (!identity) return false;
    const keys = resolveTranscriptStemToSessionKeys({ store, stem: identity.stem, archivedOwnerAgentId: identity.ownerAgentId });
    return keys.some((/** @type {string} */ key) => guard.check(key)?.allowed === true);
  });
}
