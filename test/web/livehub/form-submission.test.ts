import { describe, expect, it } from 'vitest';
import { attemptFor, tryLock } from '../../../src/web/livehub/submission';

describe('a creating form submission', () => {
  let n = 0;
  const newKey = () => `key-${++n}`;

  it('locks in the click that submits: a second click before the answer is refused', () => {
    const lock = { isLocked: false };
    expect(tryLock(lock)).toBe(true);
    expect(tryLock(lock)).toBe(false);
    lock.isLocked = false;
    expect(tryLock(lock)).toBe(true);
  });

  it('sends a retry of the same body under the same Idempotency-Key', () => {
    const body = { title: 'Relojes', scheduledAt: 1 };
    const first = attemptFor(null, body, newKey);
    expect(attemptFor(first, { title: 'Relojes', scheduledAt: 1 }, newKey).key).toBe(first.key);
  });

  it('makes a new key for another body (an edit, or the same lot now reopening its session)', () => {
    const first = attemptFor(null, { name: 'Collar', startingPrice: 250 }, newKey);
    const edited = attemptFor(first, { name: 'Collar de perlas', startingPrice: 250 }, newKey);
    expect(edited.key).not.toBe(first.key);
    const reopening = attemptFor(first, { name: 'Collar', startingPrice: 250, reopen: true }, newKey);
    expect(reopening.key).not.toBe(first.key);
    // After a success the form forgets its attempt: the same values again are a new record.
    expect(attemptFor(null, { name: 'Collar', startingPrice: 250 }, newKey).key).not.toBe(first.key);
  });
});
