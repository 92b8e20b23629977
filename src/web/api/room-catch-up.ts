import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';

/** A cached query a room keeps current, and how to read the version it holds (null: nothing to follow, e.g. a 404). */
export interface FollowedQuery {
  key: QueryKey;
  versionOf: (data: unknown) => number | null;
}

/**
 * The refetch after joining a room, only when something was missed. The join's answer carries the
 * record's version read after the join (RoomAck); a query holding an older one refetches, once.
 * A query still loading is checked when its answer arrives: a fetch served before the change is
 * refetched too, so no update is lost between the first load and the join. `version` null means
 * the server could not tell: refetch to be safe.
 */
export function useRoomCatchUp(queryClient: QueryClient, followed: FollowedQuery[]): (version: number | null, only?: QueryKey[]) => void {
  /** The newest version the room has told of, per query hash, until a query holds it. */
  const wanted = useRef(new Map<string, number>());
  const followedRef = useRef(followed);
  followedRef.current = followed;

  const check = useCallback(
    (target: FollowedQuery) => {
      const hash = hashKey(target.key);
      const want = wanted.current.get(hash);
      if (want === undefined) return;
      const state = queryClient.getQueryState(target.key);
      // Not loaded yet, or loading: its answer is checked when it arrives.
      if (!state || state.data === undefined || state.fetchStatus === 'fetching') return;
      const held = target.versionOf(state.data);
      wanted.current.delete(hash);
      if (held !== null && held < want) void queryClient.invalidateQueries({ queryKey: target.key, exact: true });
    },
    [queryClient],
  );

  // A followed query that settles is checked against what the room told of meanwhile.
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'success') return;
        const target = followedRef.current.find((f) => hashKey(f.key) === event.query.queryHash);
        if (target) check(target);
      }),
    [queryClient, check],
  );

  return useCallback(
    (version: number | null, only?: QueryKey[]) => {
      const hashes = only?.map((k) => hashKey(k));
      for (const target of followedRef.current) {
        const hash = hashKey(target.key);
        if (hashes && !hashes.includes(hash)) continue;
        const want = version ?? Number.POSITIVE_INFINITY;
        wanted.current.set(hash, Math.max(wanted.current.get(hash) ?? 0, want));
        check(target);
      }
    },
    [check],
  );
}
