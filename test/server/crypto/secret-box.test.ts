import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, deriveKey, parseKey } from '../../../src/server/crypto/secret-box.js';

describe('secret box (AES-256-GCM)', () => {
  const key = randomBytes(32);
  const box = createSecretBox(key);

  it('round-trips text, with a fresh IV every time', () => {
    for (const plain of ['APP_USR-1234567890-abcdef', '', 'ñandú 🐦 Guadalajara', 'x'.repeat(5000)]) {
      const sealed = box.seal(plain);
      expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
      expect(box.open(sealed)).toBe(plain);
    }
    const a = box.seal('same');
    const b = box.seal('same');
    expect(a).not.toBe(b);
    expect(a).not.toContain('same');
  });

  it('detects tampering anywhere in the sealed text', () => {
    const sealed = box.seal('APP_USR-secret-token');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    for (const at of [0, 12, 28, raw.length - 1]) {
      const bent = Buffer.from(raw);
      bent[at] = (bent[at] as number) ^ 0x01;
      expect(() => box.open(`v1.${bent.toString('base64url')}`)).toThrow(/wrong key or tampered/);
    }
    expect(() => box.open(`v1.${raw.subarray(0, raw.length - 1).toString('base64url')}`)).toThrow(/wrong key or tampered/);
    expect(() => box.open('v1.abc')).toThrow(/too short/);
    expect(() => box.open(`v2.${sealed.slice(3)}`)).toThrow(/v1\. prefix/);
    expect(() => box.open('v1.not base64!')).toThrow(/base64url/);
  });

  it('refuses to open with another key', () => {
    const sealed = box.seal('APP_USR-secret-token');
    expect(() => createSecretBox(randomBytes(32)).open(sealed)).toThrow(/wrong key or tampered/);
  });

  it('needs a 32-byte key', () => {
    expect(() => createSecretBox(randomBytes(16))).toThrow(/32 bytes/);
    expect(() => createSecretBox(Buffer.alloc(0))).toThrow(/32 bytes/);
  });

  it('derives stable, separate 32-byte keys per purpose', () => {
    const k1 = deriveKey('session-secret-0123456789', 'mp-tokens');
    expect(k1).toHaveLength(32);
    expect(deriveKey('session-secret-0123456789', 'mp-tokens').equals(k1)).toBe(true);
    expect(deriveKey('session-secret-0123456789', 'other').equals(k1)).toBe(false);
    expect(deriveKey('another-secret', 'mp-tokens').equals(k1)).toBe(false);
    const sealed = createSecretBox(k1).seal('hola');
    expect(createSecretBox(deriveKey('session-secret-0123456789', 'mp-tokens')).open(sealed)).toBe('hola');
    expect(() => deriveKey('', 'mp-tokens')).toThrow();
  });

  it('parses keys written in hex, base64 and base64url', () => {
    const k = Buffer.from(`fb${'ff'.repeat(30)}fe`, 'hex'); // bytes that need + / (or - _) in base64
    expect(parseKey(k.toString('hex')).equals(k)).toBe(true);
    expect(parseKey(k.toString('hex').toUpperCase()).equals(k)).toBe(true);
    expect(parseKey(k.toString('base64')).equals(k)).toBe(true);
    expect(parseKey(k.toString('base64').replace(/=+$/, '')).equals(k)).toBe(true);
    expect(parseKey(k.toString('base64url')).equals(k)).toBe(true);
    expect(parseKey(`  ${k.toString('hex')}\n`).equals(k)).toBe(true);
  });

  it('refuses keys of the wrong size or format', () => {
    expect(() => parseKey(randomBytes(16).toString('hex'))).toThrow(/32 bytes/);
    expect(() => parseKey(randomBytes(31).toString('base64'))).toThrow(/32 bytes/);
    expect(() => parseKey(randomBytes(33).toString('base64'))).toThrow(/32 bytes/);
    expect(() => parseKey('z'.repeat(64))).toThrow(/32 bytes/);
    expect(() => parseKey('')).toThrow(/32 bytes/);
    expect(() => parseKey('correct horse battery staple')).toThrow(/32 bytes/);
  });
});
