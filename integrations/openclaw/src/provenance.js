// OpenClaw's provenance classes for workspace memory files (runtime.classifyWorkspaceMemoryPaths):
// OpenClaw puts MEMORY.md / USER.md into an agent's context only when their class is "owner" or
// "agent", so a memory runtime must answer for them. Classes as memory-core gives them, with this
// engine's layout: its memory files (MEMORY.md, memory/**.md, bank/**.md, USER.md) are "agent";
// anything else, outside the workspace, or reached through a link out of it, is "untrusted".
import fs from "node:fs/promises";
import path from "node:path";

/**
 * The class of one workspace-relative path (pure: the path as OpenClaw resolved it).
 * @param {string} rel @returns {"agent" | "untrusted"}
 */
export function originClassOf(rel) {
  if (!rel || rel.includes("\\") || rel.includes("\0") || path.posix.isAbsolute(rel) || path.win32.isAbsolute(rel)
    || path.posix.normalize(rel) !== rel || rel === "." || rel === ".." || rel.startsWith("../")) return "untrusted";
  const parts = rel.split("/");
  if (parts.length === 1) return ["MEMORY.md", "memory.md", "USER.md"].includes(parts[0]) ? "agent" : "untrusted";
  if (!rel.endsWith(".md") || parts.some((p) => p.startsWith("."))) return "untrusted";
  if (/^users\/[a-zA-Z0-9][a-zA-Z0-9_-]{0,127}\/USER\.md$/.test(rel)) return "agent";
  return parts[0] === "memory" || parts[0] === "bank" ? "agent" : "untrusted";
}

/**
 * runtime.classifyWorkspaceMemoryPaths: with `readSources` (files OpenClaw already read) the
 * canonical path it read decides; otherwise the real path, which must stay inside the workspace.
 * @param {{workspaceDir: string, relativePaths: string[], readSources?: readonly {relativePath: string, canonicalRelativePath?: string}[]}} params
 */
export async function classifyWorkspaceMemoryPaths(params) {
  const root = await fs.realpath(params.workspaceDir).catch(() => null);
  return await Promise.all(params.relativePaths.map(async (relativePath) => {
    if (params.readSources !== undefined) {
      const read = params.readSources.find((s) => s.relativePath === relativePath)?.canonicalRelativePath;
      return { relativePath, originClass: read ? originClassOf(read) : "untrusted" };
    }
    const real = root ? await fs.realpath(path.resolve(params.workspaceDir, relativePath)).catch(() => null) : null;
    const inside = real && root && real.startsWith(root + path.sep);
    return { relativePath, originClass: inside ? originClassOf(path.relative(root, real).split(path.sep).join("/")) : "untrusted" };
  }));
}
