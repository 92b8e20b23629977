import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WhatsAppConfig } from '../../config.js';

/**
 * The WhatsApp Cloud API (Meta's Graph API): template messages out, delivery statuses in by
 * webhook (signed with the app secret over the raw body). The base URL is configurable so tests
 * run against a local fake over real HTTP (test/support/fake-whatsapp.ts).
 */
export interface WhatsAppClient {
  readonly config: WhatsAppConfig;
  /** Sends an approved template with its body parameters, answering WhatsApp's message id (wamid). */
  sendTemplate(opts: { to: string; template: string; parameters: string[] }): Promise<{ messageId: string }>;
  /** X-Hub-Signature-256 (`sha256=<hex>`) against the raw body, compared in constant time. */
  isSignatureValid(rawBody: Buffer, header: string | undefined): boolean;
}

/** A send the Graph API refused or that never got an answer; its message is kept as the reminder's last error. */
export class WhatsAppSendError extends Error {
  override name = 'WhatsAppSendError';
}

const REQUEST_TIMEOUT_MS = 15_000;

export function createWhatsAppClient(config: WhatsAppConfig, opts: { fetch?: typeof fetch } = {}): WhatsAppClient {
  const doFetch = opts.fetch ?? fetch;
  return {
    config,
    async sendTemplate({ to, template, parameters }) {
      const body = {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: to.replace(/\D/g, ''),
        type: 'template',
        template: {
          name: template,
          language: { code: config.language },
          components: [{ type: 'body', parameters: parameters.map((text) => ({ type: 'text', text })) }],
        },
      };
      let res: Response;
      try {
        res = await doFetch(`${config.apiUrl}/${config.phoneNumberId}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${config.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (err) {
        throw new WhatsAppSendError(`Sin respuesta de WhatsApp: ${err instanceof Error ? err.message : String(err)}`);
      }
      const text = await res.text().catch(() => '');
      let json: unknown = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = null;
      }
      if (!res.ok) {
        const error = (json as { error?: { message?: unknown; code?: unknown } } | null)?.error;
        const detail = typeof error?.message === 'string' ? error.message : text.slice(0, 200);
        throw new WhatsAppSendError(`WhatsApp respondió ${res.status}${error?.code !== undefined ? ` (código ${String(error.code)})` : ''}: ${detail}`);
      }
      const id = (json as { messages?: { id?: unknown }[] } | null)?.messages?.[0]?.id;
      if (typeof id !== 'string' || id === '') throw new WhatsAppSendError('WhatsApp no devolvió el id del mensaje.');
      return { messageId: id };
    },
    isSignatureValid(rawBody, header) {
      if (!header?.startsWith('sha256=')) return false;
      const given = Buffer.from(header.slice('sha256='.length), 'hex');
      const expected = createHmac('sha256', config.appSecret).update(rawBody).digest();
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
