// OpenClaw's plugin-sdk modules that ship JavaScript without type declarations (2026.9): what the
// plugin imports from them is typed `any` where it is used (index.js, src/visibility.js).
declare module "openclaw/plugin-sdk/session-visibility";
declare module "openclaw/plugin-sdk/session-transcript-hit";
declare module "openclaw/plugin-sdk/sqlite-runtime";
declare module "openclaw/plugin-sdk/agent-scope-runtime";
