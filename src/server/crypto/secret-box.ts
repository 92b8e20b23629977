import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (a seller's Mercado Pago tokens): AES-256-GCM with a random 12-byte IV per seal.
 * Sealed text is `v1.<base64url(iv | tag | ciphertext)>`, so the format can change later without
 * ambiguity. Opening checks the GCM tag: tampered text or a wrong key throws.
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

const VERSION = 'v1.';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function createSecretBox(key: Buffer): SecretBox {
  if (!Buffer.isBuffer(key) || key.length !== KEY_BYTES) throw new Error(`secret-box: the key must be ${KEY_BYTES} bytes`);
  // Keep a private copy: a caller that reuses or zeroes its buffer must not change our key.
  const k = Buffer.from(key);
  return {
    seal(plain: string): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', k, iv);
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return VERSION + Buffer.concat([iv, tag, ciphertext]).toString('base64url');
    },
    open(sealed: string): string {
      if (typeof sealed !== 'string' || !sealed.startsWith(VERSION)) throw new Error('secret-box: not a sealed value (expected the v1. prefix)');
      const body = sealed.slice(VERSION.length);
      if (!BASE64URL.test(body)) throw new Error('secret-box: the sealed value is not valid base64url');
      const raw = Buffer.from(body, 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('secret-box: the sealed value is too short');
      const iv = raw.subarray(0, IV_BYTES);
      const tag = raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
      const ciphertext = raw.subarray(IV_BYTES + TAG_BYTES);
      try {
        const decipher = createDecipheriv('aes-256-gcm', k, iv);
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch (cause) {
        throw new Error('secret-box: cannot open the sealed value (wrong key or tampered data)', { cause });
      }
    },
  };
}

/** A 32-byte key for one purpose from a longer-lived secret (HKDF-SHA256), so one secret can feed several keys. */
export function deriveKey(secret: string, purpose: string): Buffer {
  if (!secret) throw new Error('secret-box: cannot derive a key from an empty secret');
  if (!purpose) throw new Error('secret-box: a key needs a purpose');
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.from('martillo.secret-box', 'utf8'), Buffer.from(purpose, 'utf8'), KEY_BYTES));
}

/** A 32-byte key written as 64 hex characters, or as base64 / base64url (padded or not). */
export function parseKey(text: string): Buffer {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  // 32 bytes are 43 base64 characters, plus one '=' when padded.
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(t) && !(/[+/]/.test(t) && /[_-]/.test(t))) {
    const key = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length === KEY_BYTES) return key;
  }
  throw new Error('The key must be 32 bytes written as 64 hexadecimal characters or in base64');
}
