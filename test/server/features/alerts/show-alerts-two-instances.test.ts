import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../../src/server/app.js';
import { connectDatabase, type Database, rows } from '../../../../src/server/db/connect.js';
import { BATCH } from '../../../../src/server/features/alerts/fan-out.js';
import { createEmptyPostgresDatabase, engine } from '../../../support/db.js';
import { buildCompany, buildSeller, buildSession } from '../../../support/factories.js';
import { testConfig } from '../../../support/server.js';
import { eventually } from '../../../support/wait.js';

/**
 * Two instances on one PostgreSQL database, both running the show-alerts job: each buyer is told
 * once per show, and each push subscription gets one delivery. On PGlite the database is one
 * process's own, so two instances cannot share it: this runs with TEST_DATABASE_URL only.
 */

describe.skipIf(engine !== 'postgresql')('two instances on one PostgreSQL (needs TEST_DATABASE_URL: PGlite is one process)', () => {
  it('tell each follower and bookmarker once per show, and queue one push per subscription', async () => {
    const target = await createEmptyPostgresDatabase();
    if (!target) throw new Error('no PostgreSQL');
    const databases: Database[] = [];
    const apps: Awaited<ReturnType<typeof buildApp>>[] = [];
    // What the alerts looked like last, for the message of a wait that times out.
    let poll: NodeJS.Timeout | undefined;
    try {
      const config = testConfig();
      for (let i = 0; i < 2; i++) {
        const database = await connectDatabase({ kind: 'postgresql', url: target.url }, { poolSize: 5 });
        databases.push(database);
        apps.push(await buildApp({ config, database, logger: false, jobs: ['show-alerts'] }));
      }
      const db = (apps[0] as (typeof apps)[0]).ctx.db;
      await buildCompany(db, { id: 'dos-instancias', name: 'Dos Instancias' });
      const seller = await buildSeller(db, { companyId: 'dos-instancias' });
      // Tomorrow's shows, so only their going live (no 'soon') is told.
      const shows = await Promise.all(
        Array.from({ length: 3 }, (_, i) =>
          buildSession(db, { sellerId: seller.id, companyId: 'dos-instancias', title: `Show ${i + 1}`, scheduledAt: new Date(Date.now() + 86_400_000) }),
        ),
      );
      const followers = 2 * BATCH + 500;
      // Followers; every third also bookmarked each show; every fifth has two push subscriptions.
      await db.execute(sql`
        with made as (
          insert into users (email) select 'dos-' || g || '@instancias.mx' from generate_series(1, ${followers}::int) g returning id, email
        ), profiles as (
          insert into user_profiles (user_id, email, first_name) select id, email, 'Seguidor' from made returning user_id
        )
        insert into seller_follows (follower_id, seller_id) select user_id, ${seller.id}::uuid from profiles`);
      for (const show of shows) {
        await db.execute(sql`
          insert into session_reminders (user_id, session_id)
          select u.id, ${show.id}::uuid from users u
          where u.email like 'dos-%' and (regexp_replace(u.email, '[^0-9]', '', 'g'))::int % 3 = 0`);
      }
      await db.execute(sql`
        insert into push_subscriptions (user_id, endpoint, p256dh, auth)
        select u.id, 'https://push.ejemplo.mx/' || u.id || '/' || k, 'p', 'a'
        from users u cross join generate_series(1, 2) k
        where u.email like 'dos-%' and (regexp_replace(u.email, '[^0-9]', '', 'g'))::int % 5 = 0`);
      const subscriptionCount = rows<{ n: number }>(await db.execute(sql`select count(*)::int as n from push_subscriptions`))[0]?.n ?? 0;
      expect(subscriptionCount).toBe(2 * Math.floor(followers / 5));

      let statusSeen: unknown = null;
      poll = setInterval(() => {
        void db.execute(sql`select session_id, kind, fanned_out_at from show_alerts`).then((r) => {
          statusSeen = rows(r);
        });
      }, 500);
      // All three go live at once, while both instances' jobs run.
      await db.execute(sql`update live_sessions set status = 'live' where seller_id = ${seller.id}::uuid`);
      const total = async () => rows<{ n: number }>(await db.execute(sql`select count(*)::int as n from notifications`))[0]?.n ?? 0;
      let seen = 0;
      await eventually(
        async () => {
          seen = await total();
          return seen === 3 * followers;
        },
        { timeoutMs: 60_000, what: () => `${3 * followers} notifications (saw ${seen}; alerts ${JSON.stringify(statusSeen)})` },
      );
      await eventually(async () => {
        const [left] = rows<{ n: number }>(await db.execute(sql`select count(*)::int as n from show_alerts where fanned_out_at is null`));
        return left?.n === 0;
      });

      expect(await total()).toBe(3 * followers);
      const [twice] = rows<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from (select 1 from notifications group by user_id, kind, session_id having count(*) > 1) d`),
      );
      expect(twice?.n).toBe(0);
      const [perShow] = rows<{ shows: number; min: number; max: number }>(
        await db.execute(
          sql`select count(distinct session_id)::int as shows, min(c)::int as min, max(c)::int as max from (select session_id, count(*) as c from notifications group by session_id) d`,
        ),
      );
      expect(perShow).toEqual({ shows: 3, min: followers, max: followers });
      const [pushes] = rows<{ n: number; distinct: number }>(
        await db.execute(sql`select count(*)::int as n, count(distinct (notification_id, subscription_id))::int as distinct from push_deliveries`),
      );
      expect(pushes).toEqual({ n: 3 * subscriptionCount, distinct: 3 * subscriptionCount });
    } finally {
      clearInterval(poll);
      for (const app of apps) await app.app.close();
      for (const database of databases) await database.close();
      await target.drop();
    }
  }, 120_000);
});
