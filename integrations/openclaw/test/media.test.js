import { test } from "node:test";
import assert from "node:assert/strict";

import { mediaOverlay } from "../src/media.js";

test("memory.search.multimodal maps onto [media]", () => {
  assert.equal(mediaOverlay({}, {}), undefined);
  assert.deepEqual(mediaOverlay({ multimodal: { enabled: true } }, {}), { enabled: true });
  assert.deepEqual(mediaOverlay({ multimodal: { enabled: true, modalities: ["image", "video"], maxFileBytes: 2048.7 } }, {}),
    { enabled: true, modalities: ["image"], max_file_bytes: 2048 });
  assert.deepEqual(mediaOverlay({ multimodal: { enabled: true, modalities: ["all"] } }, {}), { enabled: true });
  // an agent's own setting wins, key by key
  assert.deepEqual(mediaOverlay({ multimodal: { enabled: true, maxFileBytes: 5 } }, { multimodal: { enabled: false } }),
    { enabled: false, max_file_bytes: 5 });
  assert.deepEqual(mediaOverlay({ multimodal: { enabled: true, maxFileBytes: 1e12 } }, {}), { enabled: true, max_file_bytes: 1024 ** 3 });
});

test("OpenClaw's gemini-embedding-2 choice embeds the media files as themselves", () => {
  const search = { provider: "gemini", model: "gemini-embedding-2", outputDimensionality: 768,
    multimodal: { enabled: true, modalities: ["image"] } };
  assert.deepEqual(mediaOverlay(search, {}), { enabled: true, modalities: ["image"], embedding: "gemini",
    embedding_model: "gemini-embedding-2", embedding_dimensions: 768 });
  assert.deepEqual(mediaOverlay({ ...search, model: "models/gemini-embedding-2-preview", outputDimensionality: 64 }, {}),
    { enabled: true, modalities: ["image"], embedding: "gemini", embedding_model: "gemini-embedding-2-preview" });
  // another model, another provider, or multimodal off: nothing leaves the machine
  assert.equal(mediaOverlay({ ...search, model: "gemini-embedding-001" }, {}).embedding, undefined);
  assert.equal(mediaOverlay({ ...search, provider: "openai" }, {}).embedding, undefined);
  assert.equal(mediaOverlay(search, { multimodal: { enabled: false } }).embedding, undefined);
});
