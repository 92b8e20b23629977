import type { Db } from '../../../db/connect.js';
import { type PassLoop, startPassLoop } from '../../../pass-loop.js';
import type { EdgeFeed } from '../../../providers/video/types.js';
import { broadcasting } from './publisher-watch.js';

/** How often each broadcast's forwarders to the edges are checked: a seller's new feed reaches the edges' viewers within it. */
export const EDGE_FEED_EVERY_MS = 1000;

/**
 * With Janus edges (JANUS_EDGES), every second: for each show broadcasting on Janus, the origin
 * forwards the seller's newest feed to every edge that answers (a reload's new feed, an edge back
 * with new ports), and stops the forwarders nobody reads. Janus holds the state: every instance
 * may run it; two adding the same forwarder at once leave one after the next pass.
 */
export function startEdgeFeed(opts: { db: Db; edges: EdgeFeed | undefined; log: { error(obj: { err: unknown }, msg: string): void } }): PassLoop {
  const { edges } = opts;
  return startPassLoop({
    name: 'edge-feed',
    log: opts.log,
    retryMs: EDGE_FEED_EVERY_MS,
    firstDelayMs: EDGE_FEED_EVERY_MS,
    unref: true,
    async pass() {
      // Without edges (or on another provider) there is nothing to feed: look again rarely.
      if (!edges) return 60_000;
      const sessions = await broadcasting(opts.db, 'janus');
      const failures: unknown[] = [];
      for (const s of sessions) await edges.feed(s.id).catch((err: unknown) => failures.push(err));
      if (failures.length > 0) throw failures[0];
      return EDGE_FEED_EVERY_MS;
    },
  });
}
