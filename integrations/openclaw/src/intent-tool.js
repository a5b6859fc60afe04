// memory-core's standing intents, provided by this plugin: the `intent` tool (create, list, cancel),
// the prompt hook that adds a triggered intent to a user turn, and the lifecycle sweep on heartbeat and
// cron turns; names, parameters, checks, defaults and answers as memory-core 2026.9.6's, over the
// same rows (intents.js). The agent's database is opened through OpenClaw's own SQLite runtime (its
// write admission and its schema), loaded on first use (`host.store`, index.js).
import { randomUUID } from "node:crypto";
import { defaultAgentId } from "./agents.js";
import {
  DEFAULT_COOLDOWN_SECONDS, DEFAULT_EXPIRY_MS, DEFAULT_MAX_FIRES, STATUSES, cancelIntent, createIntent, eligibleTurn,
  encodeChannelScope, encodeSenderScope, intentContext, listIntents, matchIntents, sweepIntents,
} from "./intents.js";

const DESCRIPTION_MAX = 500;
const KEYWORD_MAX_COUNT = 24;
const KEYWORD_MAX = 120;
const AUTOMATION = "The system injects the reminder automatically when it triggers. Do not deliver it early or cancel it unless the user asks.";
const SCOPES = "Use \"channel\" (the default) for any \"whenever I mention X\" request. Use \"conversation\" only when the user explicitly limits the reminder to the current thread. Use \"anywhere\" when the user asks for it everywhere.";

export const INTENT_PARAMETERS = {
  type: "object",
  properties: {
    action: { type: "string", enum: ["create", "list", "cancel"] },
    id: { type: "string" },
    description: { type: "string", maxLength: DESCRIPTION_MAX },
    triggerKeywords: { type: "array", items: { type: "string", maxLength: KEYWORD_MAX }, maxItems: KEYWORD_MAX_COUNT },
    scope: { type: "string", enum: ["conversation", "channel", "anywhere"], default: "channel", description: SCOPES },
    senderScope: { type: "string", enum: ["sender", "anyone"], default: "sender" },
    expiresAt: { type: "string" },
    maxFires: { type: "integer", minimum: 1 },
    cooldownSeconds: { type: "integer", minimum: 0 },
    status: { type: "string", enum: STATUSES },
  },
  required: ["action"],
  additionalProperties: false,
};

/**
 * @typedef {{withDatabase: (agentId: string, work: (db: any) => any, assertCurrent?: () => void) => Promise<any>,
 *   agentOf: (p: {sessionKey?: string, agentId?: string, config: any}) => Promise<string>, now?: () => number}} IntentStore
 */

/**
 * The store over OpenClaw's SQLite runtime and agent scope (the two SDK modules, loaded on first use).
 * @param {() => Promise<{sqlite: any, scope: any}>} load
 * @returns {IntentStore}
 */
export function openClawIntentStore(load) {
  return {
    async withDatabase(agentId, work, assertCurrent) {
      const { sqlite } = await load();
      assertCurrent?.();
      return sqlite.withOpenClawAgentDatabaseWrite({ agentId }, (/** @type {any} */ { db }) => {
        assertCurrent?.();
        sqlite.ensureOpenClawAgentStandingIntentsSchema(db);
        return work(db);
      });
    },
    async agentOf(p) {
      const { scope } = await load();
      return scope.resolveSessionAgentIdStrict(p);
    },
  };
}

/** @param {unknown} value @param {string} field @param {number} max */
function required(value, field, max) {
  if (typeof value !== "string" || !value.trim()) throw new Error(`${field} is required`);
  const trimmed = value.trim();
  if (trimmed.length > max) throw new Error(`${field} must be at most ${max} characters`);
  return trimmed;
}

/** @param {unknown} value @param {string} field @param {number} fallback @param {number} min */
function integer(value, field, fallback, min) {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw new Error(`${field} must be a ${min > 0 ? "positive" : "non-negative"} integer`);
  }
  return value;
}

/** @param {unknown} value */
function keywords(value) {
  if (!Array.isArray(value) || value.length === 0) throw new Error("triggerKeywords must be a non-empty string array");
  const unique = [...new Set(value.map((e) => required(e, "triggerKeywords entry", KEYWORD_MAX).toLowerCase()))];
  if (unique.length > KEYWORD_MAX_COUNT) throw new Error(`triggerKeywords must contain at most ${KEYWORD_MAX_COUNT} entries`);
  return unique;
}

/** @param {unknown} value @param {number} now */
function expiry(value, now) {
  if (value === undefined) return now + DEFAULT_EXPIRY_MS;
  if (typeof value !== "string") throw new Error("expiresAt must be an ISO 8601 timestamp");
  const parsed = Date.parse(value);
  if (!Number.isFinite(parsed) || parsed <= now) throw new Error("expiresAt must be a future ISO 8601 timestamp");
  return parsed;
}

/** @param {unknown} value @param {string} field @param {string[]} allowed @param {string} [fallback] */
function oneOf(value, field, allowed, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !allowed.includes(value)) throw new Error(`${field} must be one of: ${allowed.join(", ")}`);
  return value;
}

/** @param {unknown} payload */
const json = (payload) => ({ content: [{ type: "text", text: JSON.stringify(payload, null, 2) }], details: payload });

/**
 * The `intent` tool for one turn: offered to the owner only (memory-core's rule), creation only
 * from an authenticated channel and sender.
 * @param {any} ctx OpenClaw's tool context (version 2) @param {IntentStore} store @param {(ctx: any) => any} configOf
 */
export function createIntentTool(ctx, store, configOf) {
  if (ctx?.senderIsOwner !== true) return null;
  const provider = ctx.messageChannel?.trim();
  const senderId = ctx.requesterSenderId?.trim();
  const now = () => (store.now ?? Date.now)();
  /** @param {(db: any) => any} work */
  const withDb = async (work) => {
    const config = configOf(ctx);
    const agentId = await store.agentOf({ sessionKey: ctx.sessionKey, agentId: ctx.agentId, config })
      .catch(() => ctx.agentId ?? defaultAgentId(config));
    return store.withDatabase(agentId, work, ctx.assertInvocationCurrent);
  };
  return {
    label: "Standing Intent",
    name: "intent",
    description: `Create, list, or explicitly cancel event-conditioned standing intents. Creating an intent arms it immediately. ${AUTOMATION} ${SCOPES} Use scheduled tasks for time-based reminders; use this tool only for events expressed by trigger keywords.`,
    parameters: INTENT_PARAMETERS,
    /** @param {string} _id @param {any} raw */
    async execute(_id, raw) {
      const params = raw ?? {};
      if (params.action === "create") {
        if (!provider || !senderId) {
          throw new Error(`authenticated ${!provider ? (senderId ? "channel" : "channel and sender") : "sender"} identity is unavailable for this turn; retry from an authenticated channel conversation`);
        }
        const at = now();
        const scope = oneOf(params.scope, "scope", ["conversation", "channel", "anywhere"], "channel");
        const senderScope = oneOf(params.senderScope, "senderScope", ["sender", "anyone"], "sender");
        const fields = {
          id: randomUUID(), description: required(params.description, "description", DESCRIPTION_MAX),
          triggerKeywords: keywords(params.triggerKeywords),
          channelScope: scope === "anywhere" ? null : encodeChannelScope({ scope: /** @type {any} */ (scope), provider,
            accountId: ctx.agentAccountId, conversationId: ctx.nativeChannelId }),
          senderScope: senderScope === "anyone" ? null : encodeSenderScope({ provider, accountId: ctx.agentAccountId, senderId }),
          creatorSender: senderId, expiresAt: expiry(params.expiresAt, at),
          maxFires: integer(params.maxFires, "maxFires", DEFAULT_MAX_FIRES, 1),
          cooldownSeconds: integer(params.cooldownSeconds, "cooldownSeconds", DEFAULT_COOLDOWN_SECONDS, 0),
          sourceSessionId: ctx.sessionId, now: at,
        };
        const intent = await withDb((db) => createIntent(db, fields));
        const where = scope === "channel" ? "for this channel" : scope === "conversation" ? "for this conversation" : "everywhere";
        return json({ intent, message: `Intent is armed ${where}. ${AUTOMATION}` });
      }
      if (params.action === "list") {
        const status = oneOf(params.status, "status", STATUSES);
        return json({ intents: await withDb((db) => listIntents(db, { status, now: now() })) });
      }
      if (params.action === "cancel") {
        const id = required(params.id, "id", 200);
        const intent = await withDb((db) => cancelIntent(db, { id }));
        return json({ cancelled: intent !== null, intent });
      }
      throw new Error("action must be create, list, or cancel");
    },
  };
}

/**
 * The prompt hook and the lifecycle sweep, as memory-core registers them.
 * @param {any} api @param {IntentStore} store @param {() => any} liveConfig
 */
export function registerIntentHooks(api, store, liveConfig) {
  const now = () => (store.now ?? Date.now)();
  api.on("before_prompt_build", async (/** @type {any} */ event, /** @type {any} */ ctx) => {
    if (ctx?.trigger !== "user") return undefined;
    try {
      const invocation = ctx.hookInvocation;
      if (!invocation) throw new Error("prompt hook invocation support is required; intent matching skipped");
      if (!eligibleTurn(ctx)) return undefined;
      const config = liveConfig();
      const agentId = await store.agentOf({ sessionKey: ctx.sessionKey, config, agentId: ctx.agentId });
      const fired = await store.withDatabase(agentId, (db) => matchIntents(db, {
        prompt: String(event?.prompt ?? ""), channel: ctx.channelId ?? ctx.chatId, provider: ctx.channel ?? ctx.messageProvider,
        accountId: ctx.accountId, senderId: ctx.senderId, now: now(),
      }), invocation.assertActive);
      const prependContext = intentContext(fired);
      return prependContext ? { prependContext } : undefined;
    } catch (err) {
      api.logger?.warn?.(`workspace-memory: standing intent matching failed: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  });
  api.on("before_agent_reply", async (/** @type {any} */ _event, /** @type {any} */ ctx) => {
    if (ctx?.trigger !== "heartbeat" && ctx?.trigger !== "cron") return;
    try {
      const agentId = await store.agentOf({ sessionKey: ctx.sessionKey, config: liveConfig(), agentId: ctx.agentId });
      await store.withDatabase(agentId, (db) => sweepIntents(db, now()));
    } catch (err) {
      api.logger?.warn?.(`workspace-memory: standing intent maintenance failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }, { eligibleTriggers: ["heartbeat", "cron"] });
}
