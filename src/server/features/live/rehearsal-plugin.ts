import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { createRehearsalDriver, restoreAndTell } from './rehearsal-driver.js';

/** How often the rehearsal driver looks at the open rehearsals' lots. */
const TICK_MS = 1000;

/**
 * Rehearsals ('Ensayo') at run time: the driver (simulated bidders and viewers, rehearsal-driver.ts)
 * ticks on every instance, and a rehearsal that ends on this instance is put back at once, after
 * its end is published (rehearsal.ts); the driver's tick puts back any that an instance missed.
 */
export async function rehearsalPlugin(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const deps = { db: ctx.db, present: ctx.bidding.present, publish: (events: Parameters<typeof ctx.publisher.publish>[0]) => ctx.publisher.publish(events) };
  const unsubscribe = ctx.publisher.subscribe('sessionChanged', async ({ state }) => {
    if (state.session.rehearsal && state.session.status === 'ended') await restoreAndTell(deps, state.session.id);
  });
  const driver = createRehearsalDriver({ ...deps, viewers: ctx.realtime });
  driver.start(TICK_MS, (err) => fastify.log.error({ err }, 'rehearsal driver tick failed'));
  fastify.addHook('preClose', async () => {
    unsubscribe();
    await driver.stop();
  });
}
