// capability.publicArtifacts: the memory files other plugins may read (memory-core lists MEMORY.md
// and memory/*.md; with this engine the bank pages too), per workspace, never through a link.
import fs from "node:fs/promises";
import path from "node:path";

const MAX_ARTIFACTS = 10_000; // per workspace: a listing stays bounded on a huge folder

/** Markdown files under `dir` (relative to `root`), sorted, links skipped. @param {string} root @param {string} dir @param {string[]} out */
async function walk(root, dir, out) {
  let entries;
  try {
    entries = await fs.readdir(path.join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (out.length >= MAX_ARTIFACTS || entry.name.startsWith(".")) continue;
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) await walk(root, rel, out);
    else if (entry.isFile() && entry.name.endsWith(".md")) out.push(rel);
  }
}

/**
 * @param {{workspaceDir: string, agentIds: string[]}[]} workspaces
 * @returns {Promise<{kind: string, workspaceDir: string, relativePath: string, absolutePath: string, agentIds: string[], contentType: "markdown"}[]>}
 */
export async function listPublicArtifacts(workspaces) {
  const out = [];
  for (const { workspaceDir, agentIds } of workspaces) {
    /** @type {string[]} */
    const files = [];
    const root = await fs.lstat(path.join(workspaceDir, "MEMORY.md")).catch(() => null);
    if (root?.isFile()) files.push("MEMORY.md");
    await walk(workspaceDir, "memory", files);
    await walk(workspaceDir, "bank", files);
    for (const rel of files) {
      const kind = rel === "MEMORY.md" ? "memory-root" : rel.startsWith("bank/") ? "bank-page" : "daily-note";
      out.push({ kind, workspaceDir, relativePath: rel, absolutePath: path.join(workspaceDir, rel), agentIds: [...agentIds],
        contentType: /** @type {"markdown"} */ ("markdown") });
    }
  }
  return out;
}
