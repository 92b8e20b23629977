/** Types of scripts/server-build.mjs (plain JavaScript: scripts/start.mjs runs it before any TypeScript loader). */
export declare function buildServer(root: string, outdir: string, opts?: { rootDefine?: string }): Promise<{ files: number }>;
export declare function ensureDevServerBuild(root: string): Promise<{ dir: string; built: boolean }>;
