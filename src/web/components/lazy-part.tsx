import { type ComponentType, lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { LoadErrorBoundary, LoadFailed } from './load-error-boundary';

/**
 * A component whose code is fetched on demand, made anew on `retry`: React keeps a lazy
 * component's failed load for good, so without a new one a part whose code did not arrive
 * (offline, or a deploy replaced the file) could never show. `load` must be the same function
 * from one render to the next (a module-level constant): a new one fetches again.
 */
export function useRetryableLazy<P extends object>(load: () => Promise<ComponentType<P>>) {
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` makes the lazy component anew on a retry.
  const Loaded = useMemo(() => lazy(() => load().then((component) => ({ default: component }))), [load, attempt]);
  return { Loaded, attempt, retry: () => setAttempt((n) => n + 1) };
}

interface LazyPartProps<P extends object> {
  /** The part's code; a module-level constant (see useRetryableLazy). */
  load: () => Promise<ComponentType<P>>;
  props: P;
  /** Shown while the code arrives: the part's own size, so nothing below it jumps. */
  loading: ReactNode;
  /** What did not load, said above 'Reintentar' if the code does not arrive. */
  failedMessage: string;
}

/** A part of a page loaded on demand: `loading` while it arrives, and if it does not, why and 'Reintentar'. */
export function LazyPart<P extends object>({ load, props, loading, failedMessage }: LazyPartProps<P>) {
  const { Loaded, attempt, retry } = useRetryableLazy(load);
  const failed = (reset: () => void) => (
    <LoadFailed
      message={failedMessage}
      onRetry={() => {
        retry();
        reset();
      }}
    />
  );
  return (
    <LoadErrorBoundary key={attempt} fallback={failed}>
      <Suspense fallback={loading}>
        <Loaded {...props} />
      </Suspense>
    </LoadErrorBoundary>
  );
}
