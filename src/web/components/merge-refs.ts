import { type Ref, type RefCallback, useMemo, useRef } from 'react';

/** The same array as last render while its refs are the same ones (upstream lists the refs as the deps). */
function useSameRefs<T>(refs: Array<Ref<T> | undefined>): Array<Ref<T> | undefined> {
  const last = useRef(refs);
  if (refs.length !== last.current.length || refs.some((ref, i) => ref !== last.current[i])) last.current = refs;
  return last.current;
}

/**
 * @floating-ui/react's useMergeRefs (MIT), the one thing Mantine's ScrollArea imports from it.
 * vite.config.ts points ScrollArea's import here: Modal brings ScrollArea, and through it the whole
 * of @floating-ui/react (about 13 KB gzip, there for the panel's popovers) would load with the
 * public pages' review dialog (issue 14). Same behaviour: cleanups of callback refs are honoured.
 */
export function useMergeRefs<T>(refs: Array<Ref<T> | undefined>): RefCallback<T> | null {
  const cleanupRef = useRef<(() => void) | undefined>(undefined);
  const same = useSameRefs(refs);
  return useMemo(() => {
    if (same.every((ref) => ref == null)) return null;
    const attach = (instance: T) => {
      const cleanups = same.map((ref) => {
        if (ref == null) return undefined;
        if (typeof ref === 'function') {
          const refCleanup = ref(instance);
          return typeof refCleanup === 'function' ? refCleanup : () => ref(null);
        }
        (ref as { current: T | null }).current = instance;
        return () => {
          (ref as { current: T | null }).current = null;
        };
      });
      return () => {
        for (const cleanup of cleanups) cleanup?.();
      };
    };
    return (value: T | null) => {
      if (cleanupRef.current) {
        cleanupRef.current();
        cleanupRef.current = undefined;
      }
      if (value != null) cleanupRef.current = attach(value);
    };
  }, [same]);
}
