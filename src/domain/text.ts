import { z } from 'zod';

/** Lower-case and strip accents, so 'Bicicléta' and 'bicicleta' compare equal. */
export function foldText(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** SPEC §5: up to 10 lower-cased words of a name, used by the auction picker. */
export function nameTokens(name: string, limit = 10): string[] {
  const words = foldText(name)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return [...new Set(words)].slice(0, limit);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** No NUL and no UTF-16 surrogate without its other half: no one types them, and PostgreSQL refuses NUL. */
export function isSafeText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/**
 * Every text field of the shared schemas starts here: a string without NUL or lone surrogates,
 * else the issue code `textInvalid` (a catalogue key), before any other check of the field.
 */
export function zText(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine(isSafeText, { error: 'textInvalid', abort: true });
}
