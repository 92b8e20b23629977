import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A throwaway database on the DATABASE_URL server, dropped afterwards. */
export async function withScratchPostgres<T>(adminUrl: string, fn: (url: string) => Promise<T>): Promise<T> {
  const name = `martillo_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return await fn(url.href);
  } finally {
    await admin(`drop database if exists "${name}" with (force)`);
  }
}
