import type { MantineColor } from '@mantine/core';
import type { MpConnectionStatus } from '../../../domain/payments.js';
import { isApiError, NETWORK_ERROR_STATUS } from '../../api/client';

/**
 * The payment-provider section's decisions (SPEC §2, §8), apart from the billing rules so the
 * sidebar's 'Mercado Pago' section does not bring them in (Zod, the phone metadata).
 */

export type MpBadge = { label: 'connectedProd' | 'connectedTest' | 'notConnected'; color: MantineColor };

/** SPEC §2 and §9: 'Conectado (prod)', 'Conectado (test)' when not live mode, or 'No conectado'. */
export function mpBadge(status: Pick<MpConnectionStatus, 'connected' | 'liveMode'>): MpBadge {
  if (!status.connected) return { label: 'notConnected', color: 'gray' };
  return status.liveMode === false ? { label: 'connectedTest', color: 'yellow' } : { label: 'connectedProd', color: 'green' };
}

/** SPEC §8 'Payment connection': which message a failed connect shows. */
export type ConnectFailure = { kind: 'status'; status: number; body: string } | { kind: 'network' } | { kind: 'other'; message: string };

export function connectFailure(error: unknown): ConnectFailure {
  if (isApiError(error)) return error.status === NETWORK_ERROR_STATUS ? { kind: 'network' } : { kind: 'status', status: error.status, body: error.message };
  if (error instanceof Error) return { kind: 'other', message: error.message };
  return { kind: 'other', message: String(error) };
}

/** The http(s) URL from /api/mp/connect (absolute, or relative to `base`), or null when there is none worth opening. */
export function connectUrl(answer: unknown, base: string): string | null {
  if (typeof answer !== 'object' || answer === null) return null;
  const url = (answer as { url?: unknown }).url;
  if (typeof url !== 'string' || !url.trim()) return null;
  try {
    const parsed = new URL(url, base);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}
