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
