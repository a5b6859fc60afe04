// Standing intents ("when X comes up, remind me of Y"), as memory-core keeps them, so that they keep
// working with this plugin in the memory slot and memory-core off: the same rows (the
// `standing_intents` table and its FTS index in the agent's database,
// $OPENCLAW_STATE_DIR/agents/<id>/agent/openclaw-agent.sqlite), the same lifecycle and the same
// matching as OpenClaw 2026.9.6's extensions/memory-core/src/standing-intents.ts, so a user's
// intents are kept (and are memory-core's again if it is turned back on). Functions over one open
// node:sqlite database; opening it (OpenClaw's write admission, its schema) is store.js's.

export const DEFAULT_COOLDOWN_SECONDS = 86400;
export const DEFAULT_MAX_FIRES = 3;
export const DEFAULT_EXPIRY_MS = 7776e6; // 90 days
const CANDIDATE_BATCH = 32;
const CANDIDATE_LIMIT = 256; // a noisy trigger set cannot stall the reply path
const INJECTION_MAX_COUNT = 3;
const INJECTION_MAX_CHARS = 1200;
const LIVE = ["pending", "armed", "fired"];
export const STATUSES = ["pending", "armed", "fired", "done", "cancelled", "expired"];

/** @param {string} value @param {string} field @param {boolean} [lowercase] */
function scopeIdentity(value, field, lowercase = false) {
  const normalized = String(value ?? "").trim();
  if (!normalized) throw new Error(`${field} is unavailable for this creating turn`);
  return lowercase ? normalized.toLowerCase() : normalized;
}

/** @param {string} [accountId] */
const accountOf = (accountId) => accountId?.trim() || "default";

/**
 * A channel scope as memory-core stores it: ["v1", scope, provider, account, channel or conversation].
 * @param {{scope: "channel"|"conversation", provider: string, accountId?: string, conversationId?: string}} p
 */
export function encodeChannelScope(p) {
  const provider = scopeIdentity(p.provider, "channel identity", true);
  const identity = p.scope === "channel" ? provider : scopeIdentity(p.conversationId ?? "", "conversation identity");
  return JSON.stringify(["v1", p.scope, provider, accountOf(p.accountId), identity]);
}

/** @param {{provider: string, accountId?: string, senderId: string}} p */
export function encodeSenderScope(p) {
  return JSON.stringify(["v1", scopeIdentity(p.provider, "channel identity", true), accountOf(p.accountId),
    scopeIdentity(p.senderId, "sender identity")]);
}

/** @param {string|null} value */
function channelScopeOf(value) {
  if (value === null) return { scope: "anywhere", identity: null };
  try {
    const v = JSON.parse(value);
    if (Array.isArray(v) && v.length === 5 && v[0] === "v1" && (v[1] === "channel" || v[1] === "conversation")
      && v.slice(2).every((e) => typeof e === "string" && e.length > 0)) return { scope: v[1], identity: v[4] };
  } catch { /* not memory-core's encoding: anywhere */ }
  return { scope: "anywhere", identity: null };
}

/** @param {string|null} value */
function senderOf(value) {
  if (value === null) return null;
  try {
    const v = JSON.parse(value);
    return Array.isArray(v) && v.length === 4 && v[0] === "v1" && v.slice(1).every((e) => typeof e === "string" && e.length > 0) ? v[3] : null;
  } catch {
    return null;
  }
}

/** @param {string|null|undefined} value */
function knownSender(value) {
  const s = value?.trim();
  return s && s.toLowerCase() !== "unknown" ? s : null;
}

/** @param {string} value @returns {string[]} */
function keywordsOf(value) {
  try {
    const v = JSON.parse(value);
    return Array.isArray(v) ? v.filter((e) => typeof e === "string" && Boolean(e)) : [];
  } catch {
    return [];
  }
}

/** A row as the intent tool shows it (memory-core's field names). @param {any} row */
export function rowToIntent(row) {
  const channel = channelScopeOf(row.channel_scope);
  return {
    id: row.id, description: row.description, triggerKeywords: keywordsOf(row.trigger_keywords),
    triggerEmbedding: row.trigger_embedding, scope: channel.scope, channelScope: channel.identity,
    senderScope: senderOf(row.sender_scope), creatorSender: knownSender(row.creator_sender), status: row.status,
    expiresAt: row.expires_at, maxFires: row.max_fires, fireCount: row.fire_count, cooldownSeconds: row.cooldown_seconds,
    lastFiredAt: row.last_fired_at, createdAt: row.created_at, sourceSessionId: row.source_session_id,
  };
}

/** Expire what is past its expiry; re-arm a fired intent whose cooldown is over. @param {any} db @param {number} now */
function maintain(db, now) {
  db.prepare("UPDATE standing_intents SET status = 'expired' WHERE status IN ('pending', 'armed', 'fired') AND expires_at <= ?").run(now);
  db.prepare(`UPDATE standing_intents SET status = 'armed' WHERE status = 'fired' AND expires_at > ? AND fire_count < max_fires
    AND last_fired_at IS NOT NULL AND last_fired_at + cooldown_seconds * 1000 <= ?`).run(now, now);
}

/** One immediate transaction (the caller holds OpenClaw's write admission). @template T @param {any} db @param {() => T} work @returns {T} */
function transaction(db, work) {
  if (db.isTransaction) return work();
  db.exec("BEGIN IMMEDIATE");
  try {
    const out = work();
    db.exec("COMMIT");
    return out;
  } catch (err) {
    db.exec("ROLLBACK");
    throw err;
  }
}

/**
 * @param {any} db
 * @param {{id: string, description: string, triggerKeywords: string[], channelScope: string|null, senderScope: string|null,
 *   creatorSender: string, expiresAt: number, maxFires: number, cooldownSeconds: number, sourceSessionId?: string, now: number}} p
 */
export function createIntent(db, p) {
  const creator = knownSender(p.creatorSender);
  if (!creator) throw new Error("creating sender is unavailable for this turn");
  const row = {
    id: p.id, description: p.description, trigger_keywords: JSON.stringify(p.triggerKeywords), trigger_embedding: null,
    channel_scope: p.channelScope, sender_scope: p.senderScope, creator_sender: creator, status: "armed",
    expires_at: p.expiresAt, max_fires: p.maxFires, fire_count: 0, cooldown_seconds: p.cooldownSeconds,
    last_fired_at: null, created_at: p.now, source_session_id: p.sourceSessionId ?? null,
  };
  transaction(db, () => db.prepare(`INSERT INTO standing_intents (id, description, trigger_keywords, trigger_embedding,
    channel_scope, sender_scope, creator_sender, status, expires_at, max_fires, fire_count, cooldown_seconds, last_fired_at,
    created_at, source_session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(...Object.values(row)));
  return rowToIntent(row);
}

/** @param {any} db @param {{status?: string, now: number}} p */
export function listIntents(db, p) {
  return transaction(db, () => {
    maintain(db, p.now);
    const where = p.status ? "WHERE status = ?" : "";
    return db.prepare(`SELECT * FROM standing_intents ${where} ORDER BY created_at ASC, id ASC`)
      .all(...(p.status ? [p.status] : [])).map(rowToIntent);
  });
}

/** @param {any} db @param {{id: string}} p */
export function cancelIntent(db, p) {
  return transaction(db, () => {
    const { changes } = db.prepare("UPDATE standing_intents SET status = 'cancelled' WHERE id = ? AND status IN ('pending', 'armed', 'fired')").run(p.id);
    if (Number(changes) === 0) return null;
    const row = db.prepare("SELECT * FROM standing_intents WHERE id = ?").get(p.id);
    return row ? rowToIntent(row) : null;
  });
}

/** @param {any} db @param {number} now */
export function sweepIntents(db, now) {
  transaction(db, () => maintain(db, now));
}

/** @param {string} text */
const tokens = (text) => String(text).toLowerCase().match(/[\p{L}\p{N}_-]+/gu) ?? [];

/** @param {any} row @param {Set<string>} words a trigger fires when every word of one of its keywords is in the turn */
function triggerMatches(row, words) {
  return keywordsOf(row.trigger_keywords).map(tokens).some((kw) => kw.length > 0 && kw.every((t) => words.has(t)));
}

/** @param {any} row @param {number} now */
function canFire(row, now) {
  return row.status === "armed" && row.expires_at > now && row.fire_count < row.max_fires
    && (row.last_fired_at === null || row.last_fired_at + row.cooldown_seconds * 1000 <= now);
}

/** @param {{createdAt: number, description: string}[]} intents */
function render(intents) {
  const lines = intents.map((i) => `Standing intent (created ${new Date(i.createdAt).toISOString().slice(0, 10)}): ${i.description}`);
  return `<standing_intents>\n${lines.join("\n")}\n</standing_intents>`;
}

/** @param {{createdAt: number, description: string}[]} intents */
const fits = (intents) => intents.length <= INJECTION_MAX_COUNT && render(intents).length <= INJECTION_MAX_CHARS;

/**
 * The armed intents a user turn's prompt triggers, in the turn's channel and sender scope; each one
 * found is fired (its count and time recorded, "done" at its last fire), at most three and 1,200
 * characters of context.
 * @param {any} db
 * @param {{prompt: string, channel?: string, provider?: string, accountId?: string, senderId?: string, now: number}} p
 */
export function matchIntents(db, p) {
  const words = new Set(tokens(p.prompt));
  if (words.size === 0) return [];
  const fts = [...words].map((t) => `"${t.replaceAll('"', '""')}"`).join(" OR ");
  const channel = p.channel?.trim() || undefined;
  const provider = p.provider?.trim().toLowerCase() || undefined;
  const senderId = p.senderId?.trim() || undefined;
  const channelScopes = new Set();
  if (provider) {
    channelScopes.add(encodeChannelScope({ scope: "channel", provider, accountId: p.accountId }));
    if (channel) channelScopes.add(encodeChannelScope({ scope: "conversation", provider, accountId: p.accountId, conversationId: channel }));
  }
  const senderScope = provider && senderId ? encodeSenderScope({ provider, accountId: p.accountId, senderId }) : undefined;
  return transaction(db, () => {
    maintain(db, p.now);
    const scopes = [...channelScopes];
    const channelWhere = scopes.length ? `(i.channel_scope IS NULL OR i.channel_scope IN (${scopes.map(() => "?").join(", ")}))` : "i.channel_scope IS NULL";
    const senderWhere = senderScope ? "(i.sender_scope IS NULL OR i.sender_scope = ?)" : "i.sender_scope IS NULL";
    const page = db.prepare(`SELECT i.* FROM standing_intents AS i JOIN standing_intents_fts AS f ON f.rowid = i.intent_key
      WHERE f.trigger_keywords MATCH ? AND i.status = 'armed' AND i.creator_sender IS NOT NULL AND i.expires_at > ?
        AND i.fire_count < i.max_fires AND ${channelWhere} AND ${senderWhere}
        AND (i.created_at > ? OR (i.created_at = ? AND i.id > ?))
      ORDER BY i.created_at ASC, i.id ASC LIMIT ?`);
    const fire = db.prepare("UPDATE standing_intents SET fire_count = ?, last_fired_at = ?, status = ? WHERE id = ? AND status = 'armed'");
    /** @type {any[]} */
    const fired = [];
    let scanned = 0;
    let cursor = { createdAt: -1, id: "" };
    while (fired.length < INJECTION_MAX_COUNT && scanned < CANDIDATE_LIMIT) {
      const batch = page.all(fts, p.now, ...scopes, ...(senderScope ? [senderScope] : []), cursor.createdAt, cursor.createdAt,
        cursor.id, Math.min(CANDIDATE_BATCH, CANDIDATE_LIMIT - scanned));
      if (batch.length === 0) break;
      scanned += batch.length;
      const last = batch.at(-1);
      cursor = { createdAt: last.created_at, id: last.id };
      for (const row of batch) {
        if (fired.length >= INJECTION_MAX_COUNT) break;
        if (!knownSender(row.creator_sender) || !canFire(row, p.now) || !triggerMatches(row, words)) continue;
        const count = row.fire_count + 1;
        const status = count >= row.max_fires ? "done" : "fired";
        const intent = rowToIntent({ ...row, fire_count: count, last_fired_at: p.now, status });
        if (!fits([...fired, intent])) continue;
        fire.run(count, p.now, status, row.id);
        fired.push(intent);
      }
      if (batch.length < CANDIDATE_BATCH) break;
    }
    return fired;
  });
}

/** The hidden context block a fired intent adds to the turn. @param {{createdAt: number, description: string}[]} intents */
export function intentContext(intents) {
  const included = [];
  for (const intent of intents.slice(0, INJECTION_MAX_COUNT)) if (fits([...included, intent])) included.push(intent);
  return included.length ? render(included) : undefined;
}

/** A user turn in a conversation (webchat or a channel), as memory-core decides. @param {any} ctx */
export function eligibleTurn(ctx) {
  if (ctx?.trigger !== "user" || (!ctx.sessionKey && !ctx.sessionId)) return false;
  return ctx.messageProvider?.trim().toLowerCase() === "webchat" || Boolean(ctx.channelId?.trim() || ctx.chatId?.trim());
}
