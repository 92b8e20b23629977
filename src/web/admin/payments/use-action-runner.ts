import { useCallback } from 'react';
import type { useBillingNotices } from './use-billing-notices';
import type { useInFlight } from './use-in-flight';

export type BillingNotices = ReturnType<typeof useBillingNotices>;

/** What one action says: on success (optional) and on failure (which may read the error); onFailure runs first. */
export interface ActionMessages {
  success?: string;
  failure: string | ((error: unknown) => string);
  onFailure?: () => void;
}

/** One request with SPEC §8's notices: the success message (if any), or the failure with the server's reason. Null when it failed. */
export type RunAction = <T>(fn: () => Promise<T>, messages: ActionMessages) => Promise<{ value: T } | null>;

/** What every billing action shares: one task per busy key, the request with its notices, the notices themselves. */
export interface ActionTools {
  run: ReturnType<typeof useInFlight>['run'];
  runAction: RunAction;
  notices: BillingNotices;
}

export function useActionRunner(notices: BillingNotices): RunAction {
  return useCallback(
    async <T>(fn: () => Promise<T>, messages: ActionMessages): Promise<{ value: T } | null> => {
      try {
        const value = await fn();
        if (messages.success) notices.success(messages.success);
        return { value };
      } catch (error) {
        messages.onFailure?.();
        notices.failure(typeof messages.failure === 'function' ? messages.failure(error) : messages.failure, error);
        return null;
      }
    },
    [notices],
  );
}
