import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rows } from './connect.js';

/** One PostgreSQL function per file, named as the function in kebab case (place-bids.sql: place_bids). */
export const FUNCTIONS_DIR = fileURLToPath(new URL('./functions', import.meta.url));

export interface FunctionFile {
  name: string;
  file: string;
  sha256: string;
  text: string;
}

/** The function files in the order they are applied: by file name, so every instance agrees. */
export function readFunctionFiles(dir: string = FUNCTIONS_DIR): FunctionFile[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => {
      const text = readFileSync(path.join(dir, file), 'utf8');
      return { name: file.slice(0, -'.sql'.length).replaceAll('-', '_'), file, text, sha256: createHash('sha256').update(text).digest('hex') };
    });
}

/**
 * Repeatable migrations (as Flyway calls them): after the drizzle migrations and under the same
 * advisory lock, each function file whose content differs from the one recorded in
 * martillo_functions, or whose function is no longer as that file left it (a migration dropped or
 * redefined it), is applied with `create or replace`, in its own transaction. Any other
 * overload of the same name is then dropped, so a changed signature leaves no stale function
 * behind. Answers the names applied. A changed return type (or OUT parameters) cannot be replaced:
 * drop the function in a new drizzle migration, which runs first.
 */
export async function applyFunctions(db: Db, dir: string = FUNCTIONS_DIR): Promise<string[]> {
  // definition_md5: the definition as the file left it, so that a migration redefining the function is caught.
  await db.execute(
    sql`create table if not exists martillo_functions (name text primary key, sha256 text not null, definition_md5 text, applied_at timestamptz not null default now())`,
  );
  // One read at start-up: what each file was, and what its function is now.
  const recorded = new Map(
    rows<{ name: string; sha256: string; same: boolean }>(
      await db.execute(sql`select f.name, f.sha256, f.definition_md5 is not distinct from ${definitionMd5(sql`f.name`)} as same from martillo_functions f`),
    ).map((r) => [r.name, r]),
  );
  const applied: string[] = [];
  for (const fn of readFunctionFiles(dir)) {
    const before = recorded.get(fn.name);
    if (before?.sha256 === fn.sha256 && before.same) continue;
    if (!/^\s*(--[^\n]*\n\s*)*create or replace function/i.test(fn.text)) {
      throw new Error(`${fn.file}: a function file holds one CREATE OR REPLACE FUNCTION`);
    }
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw(fn.text));
      // Every overload of this name; `fresh` marks the one this transaction just wrote (its pg_proc row's xmin).
      const overloads = rows<{ signature: string; fresh: boolean }>(
        await tx.execute(
          sql`select p.oid::regprocedure::text as signature, p.xmin::text = (pg_current_xact_id()::text::bigint % 4294967296)::text as fresh
              from pg_proc p where p.proname = ${fn.name} and p.pronamespace = 'public'::regnamespace`,
        ),
      );
      if (!overloads.some((o) => o.fresh)) throw new Error(`${fn.file} must define the function ${fn.name}`);
      for (const o of overloads.filter((o) => !o.fresh)) await tx.execute(sql.raw(`drop function ${o.signature}`));
      await tx.execute(
        sql`insert into martillo_functions (name, sha256, definition_md5) values (${fn.name}, ${fn.sha256}, ${definitionMd5(sql`${fn.name}`)})
            on conflict (name) do update set sha256 = excluded.sha256, definition_md5 = excluded.definition_md5, applied_at = now()`,
      );
    });
    applied.push(fn.name);
  }
  return applied;
}

/** The md5 of every definition of the function so named (null when there is none), as SQL. */
function definitionMd5(name: SQL): SQL {
  return sql`(select md5(string_agg(pg_get_functiondef(p.oid), E'\n' order by p.oid::regprocedure::text))
              from pg_proc p where p.proname = ${name} and p.pronamespace = 'public'::regnamespace)`;
}
