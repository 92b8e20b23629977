import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from '../../support/actors.js';
import { openRaw, type RawConnection } from '../../support/raw-http.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { eventually, sleep } from '../../support/wait.js';

let server: TestServer;
let seller: string;
beforeAll(async () => {
  // A 1 s body deadline for ordinary requests; uploads keep a long one.
  server = await startTestServer({ env: { REQUEST_TIMEOUT_SECONDS: '1', UPLOAD_TIMEOUT_SECONDS: '600' } });
  seller = (await signInAs(server, { email: 'vendedora@ejemplo.mx', roles: ['seller'], companyId: 'tienda' })).cookie;
});
afterAll(async () => server?.close());

const host = () => new URL(server.url).host;

/** Sends one body byte at a time until the server answers or closes; how many were sent. */
async function trickleUntilAnswered(conn: RawConnection, total: number): Promise<void> {
  while (conn.sent() < total && !conn.received() && !conn.isClosed()) {
    if (!(await conn.write(' '))) break;
    await sleep(50);
  }
}

describe('request timeouts', () => {
  it('cuts a client trickling a body with 408, while a normal request is answered', async () => {
    const total = 100_000;
    const slow = await openRaw(
      server.url,
      `POST /api/webhooks/sandbox HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`,
    );
    const trickling = trickleUntilAnswered(slow, total);
    // Another client on its own connection meanwhile: answered as usual.
    const normal = await fetch(`${server.url}/auth/dev`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email: 'rapida@ejemplo.mx', name: 'Rápida' }),
    });
    expect(normal.status).toBe(200);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    await trickling;
    await slow.closed;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(slow.received()).toContain('REQUEST_TIMEOUT');
    expect(slow.sent()).toBeLessThan(total);
  });

  it('gives an upload its longer deadline: it completes after an ordinary request has been cut', async () => {
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c0392b' } })
      .jpeg()
      .toBuffer();
    const boundary = `----martillo${randomUUID()}`;
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="foto.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      jpeg,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const upload = await openRaw(
      server.url,
      `POST /api/uploads HTTP/1.1\r\nHost: ${host()}\r\nCookie: ${seller}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    await upload.write(body.subarray(0, 10));

    // An ordinary request started after the upload is cut first...
    const slow = await openRaw(server.url, `POST /auth/dev HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`);
    await trickleUntilAnswered(slow, 1000);
    await slow.closed;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);

    // ...while the upload, slower still, is still open and then completes.
    expect(upload.isClosed()).toBe(false);
    expect(upload.received()).toBe('');
    await upload.write(body.subarray(10));
    await eventually(() => upload.received().includes('\r\n\r\n{'), { intervalMs: 20 });
    expect(upload.received()).toMatch(/^HTTP\/1\.1 201 /);
    upload.socket.destroy();
  });
});
