import { liveSessions } from './src/server/db/schema.js';
import { buildAuction, buildSession } from './test/support/factories.js';
import { startTestServer } from './test/support/server.js';

const server = await startTestServer({ webDir: new URL('./dist/web', import.meta.url).pathname, listen: false });
if (!server.app.hasRoute({ method: 'GET', url: '/api/home' })) {
  server.app.get('/api/home', async () => {
    const rows = await server.ctx.db.select().from(liveSessions).limit(20);
    return { live: [], upcoming: rows.map((r) => ({ id: r.id, title: r.title, scheduledAt: r.scheduledAt.getTime() })), categories: [] };
  });
}
for (let i = 0; i < 20; i++) await buildSession(server.ctx.db, { title: `Show ${i}`, scheduledAt: new Date(Date.now() + 86_400_000) });
const auction = await buildAuction(server.ctx.db, { status: 'active', name: 'Reloj' });
async function time(url: string, n = 300) {
  const times: number[] = [];
  for (let i = 0; i < 20; i++) await server.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    const res = await server.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (res.statusCode !== 200) throw new Error(String(res.statusCode));
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.floor(q * (times.length - 1))]?.toFixed(2);
  console.log(url, 'mean', (times.reduce((a, b) => a + b, 0) / n).toFixed(2), 'p50', p(0.5), 'p95', p(0.95), 'ms');
}
await time('/api/home');
await time('/');
await time(`/auctions/${auction.id}`);
await time('/buscar');
await server.close();
