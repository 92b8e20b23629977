import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local WhatsApp Cloud API (Graph API) for tests: a real HTTP server on 127.0.0.1 answering
 * `POST /{phone-number-id}/messages` with a wamid, recording each message, able to fail the next
 * N sends with 500, and signing webhook bodies as Meta does (X-Hub-Signature-256 with the app
 * secret). Point WHATSAPP_API_URL at `url`.
 */
export interface FakeWhatsApp {
  url: string;
  token: string;
  phoneNumberId: string;
  appSecret: string;
  /** Messages accepted, in order (failed sends are not recorded here). */
  readonly messages: SentMessage[];
  /** Every send request received, failed or not. */
  readonly attempts: number;
  /** The next `n` sends answer 500. */
  failNext(n: number): void;
  /** The environment that points the app at this fake. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** A status webhook body about one message, and its signature header (with `secret`, default the app's). */
  statusWebhook(opts: { wamid: string; status: string; timestamp: number; secret?: string }): { body: string; headers: Record<string, string> };
  sign(body: string, secret?: string): string;
  close(): Promise<void>;
}

export interface SentMessage {
  id: string;
  to: string;
  authorization: string | null;
  body: {
    messaging_product: string;
    type: string;
    template: { name: string; language: { code: string }; components: { type: string; parameters: { type: string; text: string }[] }[] };
  };
}

export async function startFakeWhatsApp(): Promise<FakeWhatsApp> {
  const token = `EAAtest${randomBytes(8).toString('hex')}`;
  const phoneNumberId = '109876543210987';
  const appSecret = randomBytes(16).toString('hex');
  const messages: SentMessage[] = [];
  let attempts = 0;
  let failures = 0;

  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (req.method !== 'POST' || path !== `/${phoneNumberId}/messages`) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Unknown path', code: 100 } }));
        return;
      }
      attempts++;
      if (req.headers.authorization !== `Bearer ${token}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Invalid OAuth access token', code: 190 } }));
        return;
      }
      if (failures > 0) {
        failures--;
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Service temporarily unavailable', code: 2 } }));
        return;
      }
      const body = JSON.parse(raw) as SentMessage['body'] & { to: string };
      const id = `wamid.${randomBytes(12).toString('base64url')}`;
      messages.push({ id, to: body.to, authorization: req.headers.authorization ?? null, body });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id }] }));
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sign = (body: string, secret = appSecret) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

  return {
    url,
    token,
    phoneNumberId,
    appSecret,
    messages,
    get attempts() {
      return attempts;
    },
    failNext(n) {
      failures = n;
    },
    env(extra = {}) {
      return {
        WHATSAPP_TOKEN: token,
        WHATSAPP_PHONE_NUMBER_ID: phoneNumberId,
        WHATSAPP_APP_SECRET: appSecret,
        WHATSAPP_VERIFY_TOKEN: 'verifica-martillo',
        WHATSAPP_API_URL: url,
        WHATSAPP_TEMPLATE_BILL: 'cuenta_del_show',
        WHATSAPP_TEMPLATE_REMINDER: 'recordatorio_pago',
        WHATSAPP_TEMPLATE_DEADLINE: 'pago_vence_pronto',
        ...extra,
      };
    },
    statusWebhook({ wamid, status, timestamp, secret }) {
      const body = JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: '1234567890',
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  metadata: { display_phone_number: '5215550000000', phone_number_id: phoneNumberId },
                  statuses: [
                    {
                      id: wamid,
                      status,
                      timestamp: String(timestamp),
                      recipient_id: '5213312345678',
                      ...(status === 'failed' ? { errors: [{ code: 131026, title: 'Message undeliverable' }] } : {}),
                    },
                  ],
                },
              },
            ],
          },
        ],
      });
      return { body, headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(body, secret) } };
    },
    sign,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
