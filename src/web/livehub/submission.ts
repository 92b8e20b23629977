/**
 * The Idempotency-Key of a creating form ('Crear sesión', 'Agregar subasta rápida'), pure so it is
 * tested without a browser. A key belongs to one submission attempt: a retry of the same body
 * (after no answer, say) sends the same key, so the server creates one record however many times
 * it arrives; a success or an edit of the form forgets it, so the next submission is a new one.
 */
export interface Attempt {
  key: string;
  /** The body the key was made for, as sent. */
  body: string;
}

/** The attempt to send `body` under: the held one when it is a retry of the same body, else a new one. */
export function attemptFor(held: Attempt | null, body: unknown, newKey: () => string): Attempt {
  const text = JSON.stringify(body);
  if (held && held.body === text) return held;
  return { key: newKey(), body: text };
}

/**
 * The lock of a form in the click that submits: `begin` answers false while a submission is on its
 * way (a second click in the same moment, before any re-render), `end` frees it.
 */
export interface SubmitLock {
  isLocked: boolean;
}

export function tryLock(lock: SubmitLock): boolean {
  if (lock.isLocked) return false;
  lock.isLocked = true;
  return true;
}
