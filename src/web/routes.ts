// The paths and the path → screen rule live in src/domain (SPEC §2), so the server can read them too
// (src/server/web/preload.ts) without importing the web app.
export * from '../domain/screens.js';
