/**
 * The layers' dependency check (`npm run depcheck`, a step of `npm test`): dependency-cruiser over
 * src/. Type-only imports count (tsPreCompilationDeps): a type pulled from another layer ties the
 * two as much as a value does.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other, directly or through others: one of them must move below the other.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'web-not-to-server',
      severity: 'error',
      comment: 'The web app talks to the server over HTTP and Socket.IO only; what both need lives in src/domain.',
      from: { path: '^src/web/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'web-shared-not-to-screens',
      severity: 'error',
      comment:
        'Screens are the folders App.tsx loads by path (admin, livehub, public, invitations) and rehearsal/ (the rehearsal banner both the Hub and the live page show now lives in components/). A screen may use the shared code; the shared code (components, lib, api, i18n, and video: the camera and player providers both the Live Hub and the live page use) never imports a screen, so a piece two screens need lives in it, not in one of them.',
      from: { path: '^src/web/(components|lib|api|i18n|video)/' },
      to: { path: '^src/web/(admin|livehub|public|invitations|rehearsal)/' },
    },
    {
      name: 'server-not-to-web',
      severity: 'error',
      comment: 'The server does not import the web app; what both need lives in src/domain.',
      from: { path: '^src/server/' },
      to: { path: '^src/web/' },
    },
    {
      name: 'domain-stands-alone',
      severity: 'error',
      comment: 'src/domain is the pure rules both sides share: it imports nothing from src/server or src/web.',
      from: { path: '^src/domain/' },
      to: { path: '^src/(server|web)/' },
    },
    {
      name: 'server-runs-on-production-dependencies',
      severity: 'error',
      comment:
        'The built release is installed with npm ci --omit=dev: what the server and the domain import at run time must be a dependency, not a devDependency. Types vanish in the build; the web build helpers (bundle.ts builds it in development, precompress.ts is a Vite plugin) run only where Vite is installed.',
      from: { path: '^src/(server|domain)/', pathNot: '^src/server/web/(bundle|precompress)[.]ts$' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    // The server's features stand in layers: below them db/, http/, realtime/, bidding/, reads/,
    // providers/ and the rest never name a feature, and features reach one another without a circle
    // and only through each one's public file.
    {
      name: 'features-no-folder-cycles',
      severity: 'error',
      comment:
        'No circle between feature folders, even when no single file is in one (auctions uses live, live uses auctions): one of them must stop, or what both need moves below the features (src/server/reads/, src/server/bidding/). Checked on whole folders, subfolders included.',
      scope: 'folder',
      from: { path: '^src/server/features/[^/]+$' },
      to: { path: '^src/server/features/[^/]+$', circular: true },
    },
    {
      name: 'lower-layers-not-to-features',
      severity: 'error',
      comment:
        'What stands below the features (db, http, realtime, bidding, reads, providers, policies, sessions, cli, context.ts...) never imports a feature: features are built on it, not it on them. The composition root is the exception: app.ts, main.ts, jobs.ts and reactions.ts put the features together.',
      from: { path: '^src/server/', pathNot: '^src/server/(features/|(app|main|jobs|reactions)[.]ts$)' },
      to: { path: '^src/server/features/' },
    },
    {
      name: 'features-not-to-composition-root',
      severity: 'error',
      comment:
        'The composition root (app.ts, main.ts, jobs.ts, reactions.ts) puts the features together; a feature never imports it back: what a feature needs of it (a type, a setting) lives in a lower layer.',
      from: { path: '^src/server/features/' },
      to: { path: '^src/server/(app|main|jobs|reactions)[.]ts$' },
    },
    {
      name: 'features-through-public-file',
      severity: 'error',
      comment:
        "A feature uses another only through that feature's public file (features/<name>/index.ts), so what a feature offers the others is written in one place. The composition root (app.ts and its kin) may import a feature's route plugins, jobs and setup directly: it is not a feature.",
      from: { path: '^src/server/features/([^/]+)/' },
      to: { path: '^src/server/features/', pathNot: '^src/server/features/($1/|[^/]+/index[.]ts$)' },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'An import the check cannot follow would hide its dependencies from the rules above.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
