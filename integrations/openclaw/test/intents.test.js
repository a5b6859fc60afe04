// Standing intents (src/intents.js, src/intent-tool.js) over a real SQLite database with OpenClaw
// 2026.9.6's standing_intents schema; the real agent database in the gateway: tests/test_openclaw_intents.py.
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { describe, it } from "node:test";
import { createIntentTool, registerIntentHooks } from "../src/intent-tool.js";

// OpenClaw 2026.9.6's table, FTS index and triggers (dist/openclaw-agent-board-schema-*.mjs).
const SCHEMA = `
CREATE TABLE standing_intents (intent_key INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, description TEXT NOT NULL,
  trigger_keywords TEXT NOT NULL, trigger_embedding TEXT, channel_scope TEXT, sender_scope TEXT,
  creator_sender TEXT CHECK (creator_sender IS NULL OR length(trim(creator_sender)) > 0),
  status TEXT NOT NULL CHECK (status IN ('pending', 'armed', 'fired', 'done', 'cancelled', 'expired')),
  expires_at INTEGER NOT NULL, max_fires INTEGER NOT NULL CHECK (max_fires > 0),
  fire_count INTEGER NOT NULL DEFAULT 0 CHECK (fire_count >= 0),
  cooldown_seconds INTEGER NOT NULL DEFAULT 86400 CHECK (cooldown_seconds >= 0), last_fired_at INTEGER,
  created_at INTEGER NOT NULL, source_session_id TEXT) STRICT;
CREATE VIRTUAL TABLE standing_intents_fts USING fts5(trigger_keywords, content = 'standing_intents',
  content_rowid = 'intent_key', tokenize = 'unicode61 remove_diacritics 2');
CREATE TRIGGER standing_intents_fts_after_insert AFTER INSERT ON standing_intents BEGIN
  INSERT INTO standing_intents_fts(rowid, trigger_keywords) VALUES (new.intent_key, new.trigger_keywords); END;
CREATE TRIGGER standing_intents_fts_after_update AFTER UPDATE OF trigger_keywords ON standing_intents BEGIN
  INSERT INTO standing_intents_fts(standing_intents_fts, rowid, trigger_keywords) VALUES ('delete', old.intent_key, old.trigger_keywords);
  INSERT INTO standing_intents_fts(rowid, trigger_keywords) VALUES (new.intent_key, new.trigger_keywords); END;`;

const DAY = 86400e3;
const T0 = Date.parse("2026-12-01T09:00:00Z");

function harness() {
  const db = new DatabaseSync(":memory:");
  db.exec(SCHEMA);
  const clock = { now: T0 };
  const agents = [];
  const store = {
    now: () => clock.now,
    async withDatabase(agentId, work) { agents.push(agentId); return work(db); },
    async agentOf(p) { return p.agentId ?? "main"; },
  };
  const hooks = {};
  const api = { on(name, handler) { hooks[name] = handler; }, logger: { warn: (m) => { throw new Error(m); } } };
  registerIntentHooks(api, store, () => ({}));
  const turn = (prompt, extra = {}) => hooks.before_prompt_build({ prompt }, {
    trigger: "user", sessionKey: "agent:main:main", messageProvider: "telegram", channel: "telegram", channelId: "chat-7",
    senderId: "u1", hookInvocation: { assertActive() {} }, ...extra });
  const owner = { senderIsOwner: true, messageChannel: "telegram", requesterSenderId: "u1", nativeChannelId: "chat-7",
    agentId: "main", sessionKey: "agent:main:main", sessionId: "s1", assertInvocationCurrent() {} };
  const tool = createIntentTool(owner, store, () => ({}));
  return { db, clock, hooks, turn, tool, owner, store, agents };
}

describe("standing intents", () => {
  it("an intent the owner creates fires on a later turn that names its trigger, then waits its cooldown", async () => {
    const h = harness();
    const made = (await h.tool.execute("c", { action: "create", description: "Ask who owns the rollback.",
      triggerKeywords: ["Launch checklist"] })).details;
    assert.equal(made.intent.status, "armed");
    assert.match(made.message, /^Intent is armed for this channel\./);
    assert.equal(await h.turn("what about the launch plan?"), undefined, "one keyword's every word must be named");
    const fired = await h.turn("Is the launch checklist done?");
    assert.equal(fired.prependContext,
      "<standing_intents>\nStanding intent (created 2026-12-01): Ask who owns the rollback.\n</standing_intents>");
    assert.equal(await h.turn("the launch checklist again"), undefined, "cooling down for a day");
    h.clock.now += DAY + 1;
    assert.ok(await h.turn("the launch checklist again"), "armed again after the cooldown");
    const [row] = (await h.tool.execute("l", { action: "list" })).details.intents;
    assert.equal(row.fireCount, 2);
    assert.equal(row.status, "fired");
  });

  it("keeps an intent memory-core stored: same rows, same scopes, same lifecycle", async () => {
    const h = harness();
    // A row as memory-core 2026.9.6 writes it (createStandingIntent), for channel telegram and sender u1.
    h.db.prepare(`INSERT INTO standing_intents (id, description, trigger_keywords, channel_scope, sender_scope, creator_sender,
      status, expires_at, max_fires, fire_count, cooldown_seconds, created_at) VALUES (?, ?, ?, ?, ?, ?, 'armed', ?, 1, 0, 0, ?)`)
      .run("mc-1", "Remind me to water the ficus.", JSON.stringify(["ficus"]), JSON.stringify(["v1", "channel", "telegram", "default", "telegram"]),
        JSON.stringify(["v1", "telegram", "default", "u1"]), "u1", T0 + 10 * DAY, T0 - DAY);
    assert.equal(await h.turn("the ficus looks sad", { senderId: "someone-else" }), undefined, "another sender's turn");
    assert.equal(await h.turn("the ficus looks sad", { channel: "discord", messageProvider: "discord" }), undefined, "another channel");
    assert.match((await h.turn("the ficus looks sad")).prependContext, /created 2026-11-30\): Remind me to water the ficus\./);
    assert.equal(h.db.prepare("SELECT status FROM standing_intents WHERE id = 'mc-1'").get().status, "done", "its one fire spent");
    h.clock.now = T0 + 11 * DAY;
    await h.hooks.before_agent_reply({}, { trigger: "cron", agentId: "main" });
    assert.deepEqual((await h.tool.execute("l", { action: "list", status: "done" })).details.intents.map((i) => i.id), ["mc-1"]);
  });

  it("is offered to the owner only, creates only from an authenticated channel, and cancels on request", async () => {
    const h = harness();
    assert.equal(createIntentTool({ ...h.owner, senderIsOwner: false }, h.store, () => ({})), null);
    const cli = createIntentTool({ ...h.owner, messageChannel: undefined, requesterSenderId: undefined }, h.store, () => ({}));
    await assert.rejects(cli.execute("x", { action: "create", description: "d", triggerKeywords: ["k"] }),
      /authenticated channel and sender identity is unavailable/);
    await assert.rejects(h.tool.execute("x", { action: "create", description: "d", triggerKeywords: [] }), /non-empty/);
    await assert.rejects(h.tool.execute("x", { action: "create", description: "d", triggerKeywords: ["k"], expiresAt: "2020-01-01" }),
      /future ISO 8601/);
    const { intent } = (await h.tool.execute("c", { action: "create", description: "d", triggerKeywords: ["k"], scope: "anywhere" })).details;
    assert.deepEqual((await h.tool.execute("x", { action: "cancel", id: intent.id })).details.cancelled, true);
    assert.deepEqual((await h.tool.execute("x", { action: "cancel", id: intent.id })).details, { cancelled: false, intent: null });
    assert.equal(await h.turn("k"), undefined, "a cancelled intent never fires");
  });

  it("skips a turn that is not a conversation's user turn, and fires at most three in 1,200 characters", async () => {
    const h = harness();
    for (let i = 0; i < 5; i += 1) {
      await h.tool.execute(`c${i}`, { action: "create", description: `Reminder ${i}: ${"x".repeat(200)}`, triggerKeywords: ["deploy"] });
    }
    assert.equal(await h.turn("deploy", { trigger: "heartbeat" }), undefined);
    assert.equal(await h.turn("deploy", { channelId: undefined, messageProvider: "cli" }), undefined);
    const { prependContext } = await h.turn("deploy now");
    assert.equal(prependContext.match(/Standing intent/g).length, 3);
    assert.ok(prependContext.length <= 1200);
  });
});
