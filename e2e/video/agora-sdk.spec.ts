import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSession } from '../../test/support/factories.js';
import { startTestServer } from '../../test/support/server.js';
import { type E2eApp, root } from '../support/app.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';

/**
 * Agora's browser client in Chromium, on the built app with VIDEO_PROVIDER=agora (no internet here).
 *
 * The spec does not click through the Live Hub (its transmission panel is being rewritten), and
 * the app ships no test hook: it builds the app as `npm start` does, plus src/web/video/agora.ts as
 * a second entry whose exports are kept, and serves that build from the real server. A page of the
 * app then imports the module's chunk, so the SDK's own chunk, the app's CSP, cookies and API are
 * the real ones. The module hands over the SDK instance it publishes with (`agoraClient.loadSdk`),
 * and the spec wraps its `createClient` to see the client publishing creates and how it joins.
 *
 * Joining needs Agora's servers: here it must fail as a VideoClientError, without hanging, having
 * tried only hosts the CSP lets through, and leaving the seller's own tracks running.
 */

const APP_ID = '0123456789abcdef0123456789abcdef';
const ENV = { VIDEO_PROVIDER: 'agora', AGORA_APP_ID: APP_ID, AGORA_APP_CERTIFICATE: 'fedcba9876543210fedcba9876543210' };
const SELLER = { email: 'vera.video@ejemplo.mx', name: 'Vera Video' };
const BUYER = { email: 'beto.video@ejemplo.mx', name: 'Beto Video' };

/** The built module and the SDK inside the page: untyped there, checked by the assertions. */
// biome-ignore lint/suspicious/noExplicitAny: see above.
type Loose = any;

let app: E2eApp;
let browser: Browser;
let seller: E2eUser;
let sessionId: string;
let chunk: string;

let buildDir: string;

/** The production build with the module as an extra entry (same Vite config, same SDK chunking). */
async function buildWithAgoraEntry(outDir: string): Promise<void> {
  const { build } = await import('vite');
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root,
      configFile: path.join(root, 'vite.config.ts'),
      logLevel: 'error',
      mode: 'production',
      build: {
        outDir,
        emptyOutDir: true,
        sourcemap: false,
        rolldownOptions: {
          input: { index: path.join(root, 'index.html'), agora: path.join(root, 'src/web/video/agora.ts') },
          // An app build drops entry exports by default; the spec imports `agoraClient` by name.
          preserveEntrySignatures: 'exports-only',
        },
      },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

beforeAll(async () => {
  buildDir = mkdtempSync(path.join(os.tmpdir(), 'martillo-e2e-agora-'));
  await buildWithAgoraEntry(buildDir);
  const found = readdirSync(path.join(buildDir, 'assets')).filter((f) => /^agora-[\w-]+\.js$/.test(f));
  expect(found, 'exactly one chunk built from src/web/video/agora.ts').toHaveLength(1);
  chunk = `/assets/${found[0]}`;
  app = await startTestServer({ env: ENV, webDir: buildDir, jobs: 'all' });
  browser = await launchBrowser({ camera: true });
  seller = await prepareUser(app, { ...SELLER, roles: ['seller'], companyId: 'video-vera', companyName: 'Video Vera' });
  await prepareUser(app, { ...BUYER, roles: ['buyer'] });
  sessionId = (await buildSession(app.ctx.db, { sellerId: seller.id, companyId: 'video-vera' })).id;
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (buildDir) rmSync(buildDir, { recursive: true, force: true });
});

/** A page of the app, signed in as `user` (or not), that records CSP violations and the requests it makes. */
async function openApp(user: Pick<E2eUser, 'email' | 'name'> | null): Promise<{ page: Page; requests: string[] }> {
  const page = await newPage(browser);
  if (user) await signInPage(page, app, user);
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI} from ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`),
    );
  });
  // The Live Hub's path: only there may a page use the camera and microphone (Permissions-Policy).
  await page.goto(`${app.url}/admin/livehub`);
  return { page, requests };
}

/**
 * Imports the module's chunk into the page as `window.agoraModule`. The code is a string: Vitest
 * rewrites `import()` in the spec's own functions into a helper the page does not have.
 */
async function importModule(page: Page): Promise<void> {
  await page.evaluate(`import(${JSON.stringify(chunk)}).then((m) => { window.agoraModule = m; })`);
}

interface PublishOutcome {
  version: string;
  error: { name: string; reason: string; message: string } | null;
  statuses: string[];
  clients: { config: unknown; mode: string; roleAtJoin: string | null; joinArgs: unknown[]; stateAfter: string }[];
  trackStates: string[];
  /** Each video track publishing created: the SDK's optimization mode and encoder configuration. */
  videoTracks: { optimizationMode: unknown; encoderConfig: Record<string, unknown> }[];
  cspViolations: string[];
}

/** Calls the module's publish() as the Live Hub does, with the fake camera and microphone. */
async function publishFromPage(page: Page, opts: { sessionId: string }): Promise<PublishOutcome> {
  await importModule(page);
  return page.evaluate(async ({ sessionId }) => {
    const mod = (window as unknown as { agoraModule: Loose }).agoraModule;
    const client = mod.agoraClient;
    const sdk = await client.loadSdk();
    const clients: PublishOutcome['clients'] = [];
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's client, wrapped to watch its join.
    const created: { config: unknown; client: any; roleAtJoin: string | null; joinArgs: unknown[] }[] = [];
    const createClient = sdk.createClient.bind(sdk);
    sdk.createClient = (config: unknown) => {
      const c = createClient(config);
      const record = { config, client: c, roleAtJoin: null as string | null, joinArgs: [] as unknown[] };
      const join = c.join.bind(c);
      c.join = (...args: unknown[]) => {
        record.roleAtJoin = c.role;
        // appId, channel and account; the token is checked by the server tests.
        record.joinArgs = [args[0], args[1], args[3]];
        return join(...args);
      };
      created.push(record);
      return c;
    };
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's video tracks, to read the encoder configuration they keep.
    const videoTracks: any[] = [];
    const createCustomVideoTrack = sdk.createCustomVideoTrack.bind(sdk);
    sdk.createCustomVideoTrack = (config: unknown) => {
      const track = createCustomVideoTrack(config);
      videoTracks.push(track);
      return track;
    };
    const stream = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
    const statuses: string[] = [];
    let error: PublishOutcome['error'] = null;
    try {
      const handle = await client.publish({
        sessionId,
        stream,
        config: { provider: 'agora', iceServers: [] },
        socket: null,
        onStatus: (s: string) => statuses.push(s),
      });
      await handle.stop();
    } catch (e) {
      const err = e as { name: string; reason: string; message: string };
      error = { name: err.name, reason: err.reason, message: err.message };
    } finally {
      sdk.createClient = createClient;
      sdk.createCustomVideoTrack = createCustomVideoTrack;
    }
    for (const r of created) {
      clients.push({ config: r.config, mode: r.client.mode, roleAtJoin: r.roleAtJoin, joinArgs: r.joinArgs, stateAfter: r.client.connectionState });
    }
    const trackStates = stream.getTracks().map((t) => t.readyState);
    for (const t of stream.getTracks()) t.stop();
    return {
      version: sdk.VERSION,
      error,
      statuses,
      clients,
      trackStates,
      videoTracks: videoTracks.map((t) => ({ optimizationMode: t._optimizationMode, encoderConfig: { ...t._encoderConfig } })),
      cspViolations: (window as unknown as { cspViolations: string[] }).cspViolations,
    };
  }, opts);
}

describe("Agora's browser client", () => {
  it('loads the SDK on demand, joins as a live vp8 host, and fails offline as a VideoClientError', async () => {
    const { page, requests } = await openApp(seller);
    // The app's pages do not carry the 1.6 MB SDK until video is used.
    expect(requests.filter((u) => /agora|AgoraRTC/i.test(u))).toEqual([]);

    const outcome = await publishFromPage(page, { sessionId });
    expect(outcome.version).toBe('4.24.8');
    expect(
      requests.some((u) => /\/assets\/AgoraRTC[^/]*\.js$/.test(u)),
      'the SDK came as its own chunk',
    ).toBe(true);

    expect(outcome.clients).toHaveLength(1);
    const [client] = outcome.clients;
    // The SDK adds its defaults (audioCodec) to the object it is given.
    expect(client?.config).toMatchObject({ mode: 'live', codec: 'vp8' });
    expect(client?.mode).toBe('live');
    expect(client?.roleAtJoin).toBe('host');
    expect(client?.joinArgs).toEqual([APP_ID, sessionId, seller.id]);
    // Nothing is left connecting after the failure.
    expect(client?.stateAfter).toBe('DISCONNECTED');

    expect(outcome.error?.name).toBe('VideoClientError');
    expect(outcome.error?.reason).toBe('unavailable');
    expect(outcome.statuses).toEqual(['connecting']);
    // The tracks are the Hub's: a failed publish does not stop the seller's camera or microphone.
    expect(outcome.trackStates).toEqual(['live', 'live']);
    // A new encoder keeps the camera's resolution while it starts ('detail', encoder-start.ts), and
    // the SDK starts it from a bitrate of its own (bitrateMax, its x-google-start-bitrate) above the
    // 500 kb/s under which Chrome scales a 720p camera down before the first frame.
    expect(outcome.videoTracks).toHaveLength(1);
    expect(outcome.videoTracks[0]?.optimizationMode).toBe('detail');
    expect(outcome.videoTracks[0]?.encoderConfig.bitrateMax).toBeGreaterThanOrEqual(500);

    // The SDK did reach for Agora (and got no answer), and only at hosts the CSP lets through.
    expect(requests.some((u) => /^https:\/\/[^/]+\.(agora\.io|sd-rtn\.com|rtnsvc\.com|rtesvc\.com)\//.test(u))).toBe(true);
    // zod 4 probes whether eval is allowed (util.allowsEval) in the app's own chunk; the CSP says no, as it should.
    expect(outcome.cspViolations.filter((v) => !v.startsWith('script-src eval '))).toEqual([]);
    await page.context().close();
  });

  it("a buyer's publish is refused by the server: 'token', before any join", async () => {
    const { page } = await openApp(BUYER);
    const outcome = await publishFromPage(page, { sessionId });
    expect(outcome.error).toMatchObject({ name: 'VideoClientError', reason: 'token' });
    expect(outcome.clients.every((c) => c.roleAtJoin === null)).toBe(true);
    expect(outcome.trackStates).toEqual(['live', 'live']);
    await page.context().close();
  });

  it("a viewer's watch keeps retrying while Agora is out of reach, and stops when told", async () => {
    const { page } = await openApp(null);
    await importModule(page);
    const result = await page.evaluate(
      async ({ sessionId }) => {
        const mod = (window as unknown as { agoraModule: Loose }).agoraModule;
        const client = mod.agoraClient;
        const sdk = await client.loadSdk();
        // biome-ignore lint/suspicious/noExplicitAny: the SDK's clients, to see they are all left.
        const created: any[] = [];
        const createClient = sdk.createClient.bind(sdk);
        sdk.createClient = (config: unknown) => {
          const c = createClient(config);
          created.push(c);
          return c;
        };
        const statuses: string[] = [];
        const streams: (MediaStream | null)[] = [];
        const handle = client.watch({
          sessionId,
          config: { provider: 'agora', iceServers: [] },
          socket: null,
          onStream: (s: MediaStream | null) => streams.push(s),
          onStatus: (s: string) => statuses.push(s),
        });
        // The first join fails (offline): the viewer is told it is reconnecting, and a second try starts.
        await new Promise<void>((resolve) => {
          const poll = () => (statuses.includes('reconnecting') && created.length >= 2 ? resolve() : setTimeout(poll, 100));
          poll();
        });
        const roles = created.map((c) => c.role);
        handle.stop();
        // Wait until every client the watcher made has left.
        await new Promise<void>((resolve) => {
          const poll = () => (created.every((c) => c.connectionState === 'DISCONNECTED') ? resolve() : setTimeout(poll, 100));
          poll();
        });
        sdk.createClient = createClient;
        return { statuses, roles, streams: streams.length, statesAfter: created.map((c) => c.connectionState) };
      },
      { sessionId },
    );
    expect(result.statuses[0]).toBe('connecting');
    expect(result.statuses).toContain('reconnecting');
    expect(result.statuses).not.toContain('playing');
    expect(result.statuses).not.toContain('failed');
    expect(result.roles[0]).toBe('audience');
    expect(result.streams).toBe(0);
    expect(result.statesAfter.every((s) => s === 'DISCONNECTED')).toBe(true);
    await page.context().close();
  }, 120_000);
});
