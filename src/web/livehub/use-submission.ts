import { useCallback, useRef, useState } from 'react';
import { newIdempotencyKey } from '../api/bids';
import { type Attempt, attemptFor, type SubmitLock, tryLock } from './submission';

export interface Submission {
  /** True from the click that submits until its answer: the form shows it at once. */
  isLocked: boolean;
  /**
   * Locks the form and gives the Idempotency-Key to send `body` under, or null when a submission is
   * already on its way (the second click of a double click).
   */
  begin: (body: unknown) => string | null;
  /** The answer arrived: unlock; a success also forgets the key (the next submission is a new record). */
  end: (outcome: 'success' | 'failure') => void;
  /** The form was edited: the next submission is a new attempt with a new key. */
  forget: () => void;
}

/**
 * A creating form's lock and key. The lock is a ref set in the click itself, with a state for the
 * screen: a mutation's isPending reaches the page a render later (TanStack Query notifies on a
 * timer), and a second click in that moment would have sent a second request.
 */
export function useSubmission(): Submission {
  const lock = useRef<SubmitLock>({ isLocked: false });
  const attempt = useRef<Attempt | null>(null);
  const [isLocked, setLocked] = useState(false);

  const begin = useCallback((body: unknown) => {
    if (!tryLock(lock.current)) return null;
    setLocked(true);
    attempt.current = attemptFor(attempt.current, body, newIdempotencyKey);
    return attempt.current.key;
  }, []);

  const end = useCallback((outcome: 'success' | 'failure') => {
    lock.current.isLocked = false;
    setLocked(false);
    if (outcome === 'success') attempt.current = null;
  }, []);

  const forget = useCallback(() => {
    attempt.current = null;
  }, []);

  return { isLocked, begin, end, forget };
}
