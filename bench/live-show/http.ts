/** HTTP from the live show's load processes: keep-alive requests signed in by session cookie. */
import http from 'node:http';
import { SESSION_COOKIE } from '../../src/server/sessions/store.js';

export interface Answer {
  status: number;
  body: string;
}

export function requester(base: string, maxSockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const url = new URL(base);
  function request(method: 'GET' | 'POST' | 'PUT', pathname: string, cookie: string | null, body?: unknown) {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise<Answer>((resolve, reject) => {
      const headers: Record<string, string | number> = {};
      if (cookie) headers.cookie = `${SESSION_COOKIE}=${cookie}`;
      if (payload !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(payload);
      }
      const req = http.request({ agent, host: url.hostname, port: url.port, method, path: pathname, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }
  return { request, close: () => agent.destroy() };
}

export async function expectOk(answer: Promise<Answer>, what: string): Promise<string> {
  const res = await answer;
  if (res.status < 200 || res.status >= 300) throw new Error(`${what}: ${res.status} ${res.body.slice(0, 300)}`);
  return res.body;
}

/** The API's refusal code (`error.code`), or HTTP_<status> when the body says none. */
export function errorCode(res: Answer): string {
  try {
    return (JSON.parse(res.body) as { error?: { code?: string } }).error?.code ?? `HTTP_${res.status}`;
  } catch {
    return `HTTP_${res.status}`;
  }
}
