import { randomUUID } from 'node:crypto';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../../../src/domain/uploads.js';
import { uploads } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { signInAs } from '../../../support/actors.js';
import { openRaw, type RawConnection } from '../../../support/raw-http.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

let server: TestServer;
let seller: string;
beforeAll(async () => {
  server = await startTestServer();
  seller = (await signInAs(server, { email: 'vendedora@ejemplo.mx', roles: ['seller'], companyId: 'tienda' })).cookie;
});
afterAll(async () => server?.close());

const boundary = `----martillo${randomUUID()}`;
const partHead = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="enorme.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
const head = (length: string) =>
  `POST /api/uploads HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nCookie: ${seller}\r\n` +
  `Content-Type: multipart/form-data; boundary=${boundary}\r\n${length}\r\n`;

const answered = (conn: RawConnection) => conn.received().includes('\r\n\r\n{') || conn.isClosed();

async function rows(): Promise<number> {
  const [row] = await server.ctx.db.select({ n: count() }).from(uploads);
  return row?.n ?? 0;
}

describe('POST /api/uploads: size limits before reading', () => {
  it('answers 413 from Content-Length alone, without reading any body, and closes', async () => {
    const conn = await openRaw(server.url, head(`Content-Length: ${3 * 1024 ** 3}\r\n`));
    await conn.closed;
    expect(conn.sent()).toBe(0);
    expect(conn.received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(conn.received()).toContain(JSON.stringify(messages.uploads.tooLarge));
  });

  it('stops reading a streamed part as soon as it passes the limit, answering 413 before the client has sent it all', async () => {
    const total = 200 * 1024 * 1024;
    const conn = await openRaw(server.url, head('Transfer-Encoding: chunked\r\n'));
    const chunked = (data: Buffer | string) =>
      conn.write(Buffer.concat([Buffer.from(`${Buffer.byteLength(data).toString(16)}\r\n`), Buffer.from(data), Buffer.from('\r\n')]));
    await chunked(partHead);
    const block = Buffer.alloc(64 * 1024, 0xff);
    // Writes until the server answers; a client that reads the answer stops there.
    while (conn.sent() < total && !answered(conn)) {
      if (!(await chunked(block))) break;
    }
    await conn.closed;
    expect(conn.received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(conn.received()).toContain(JSON.stringify(messages.uploads.tooLarge));
    // Socket buffers let some bytes past the limit; nowhere near the whole part.
    expect(conn.sent()).toBeGreaterThan(MAX_UPLOAD_BYTES);
    expect(conn.sent()).toBeLessThan(total / 4);
    expect(await rows()).toBe(0);
  });

  it('still takes an image under the limit', async () => {
    const res = await fetch(`${server.url}/api/uploads`, {
      method: 'POST',
      headers: { cookie: seller, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: `${partHead}no es imagen\r\n--${boundary}--\r\n`,
    });
    // Read whole and judged on its bytes: a refusal of the content, not of the size.
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toBe(messages.uploads.notAnImage);
  });
});
