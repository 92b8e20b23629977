/**
 * `npm run seed:demo [-- --size N]`: fills an empty Martillo database with a demo marketplace.
 * Uses the same configuration as `npm start` (.env, DATA_DIR, DATABASE_URL), runs the migrations
 * first, and refuses to touch a database that already has users or auctions.
 */

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { type Config, ConfigError, loadConfig } from '../src/server/config.js';
import { connectDatabase, type Database, DatabaseInUseError } from '../src/server/db/connect.js';
import { migrateDatabase } from '../src/server/db/migrate.js';
import { createStorage } from '../src/server/providers/index.js';
import type { SeededPerson } from './demo/accounts.js';
import { DEFAULT_SIZE } from './demo/plan.js';
import { DemoSeedRefused, type SeedDemoResult, seedDemo } from './demo/seed.js';

/** As src/server/main.ts: ./.env when present; variables already set in the environment win. */
function loadDotEnv(): void {
  const file = path.resolve('.env');
  if (!existsSync(file)) return;
  for (const [key, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) {
    if (process.env[key] === undefined) process.env[key] = value;
  }
}

function sizeFromArgs(argv: string[]): number {
  const i = argv.indexOf('--size');
  if (i === -1) return DEFAULT_SIZE;
  const size = Number(argv[i + 1]);
  if (!Number.isInteger(size) || size < 1 || size > 5000) throw new ConfigError('--size must be a whole number of auctions between 1 and 5000');
  return size;
}

const ROLE_LABEL = (p: SeededPerson): string => {
  if (p.roles.includes('admin')) return p.companyId ? `admin de ${p.companyName}` : 'admin de la plataforma (todas las empresas)';
  if (p.roles.includes('seller')) return `vendedor(a) de ${p.companyName}`;
  return `comprador(a), ${p.city}`;
};

/** As the start-up banner: relative to the working directory when inside it, else absolute. */
function shownPath(dir: string): string {
  const relative = path.relative(process.cwd(), dir);
  return relative && !relative.startsWith('..') ? relative : dir;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const n = (value: number) => value.toLocaleString('es-MX');

function summary(result: SeedDemoResult, config: Config, where: string): string {
  const a = result.auctions;
  const width = Math.max(...result.people.map((p) => p.email.length)) + 2;
  const t = result.timings;
  return [
    '',
    `Listo / done in ${seconds(t.total)} (cuentas ${seconds(t.accounts)}, subastas e imágenes ${seconds(t.listings)}, pujas y pagos ${seconds(t.history)}) → ${where}`,
    `  ${result.categories} categorías · ${result.people.length} cuentas · ${n(a.total)} subastas (${a.pending} pendientes, ${a.active} activas, ${a.ended} terminadas)`,
    `  ${n(result.images)} imágenes · ${n(result.bids)} pujas · ${a.endedWithWinner} subastas ganadas: ${result.payments.paidAuctions} pagadas en ${result.payments.paid} pagos, ${result.payments.pendingAuctions} pendientes de pago`,
    `  ${result.liveSessions} transmisiones en vivo programadas para esta noche (Live Hub, /live)`,
    `  ${result.rehearsals} ensayo con postores simulados (sólo en el Live Hub de su vendedor)`,
    ...(result.pastShows
      ? [`  ${result.pastShows} show de anoche terminado, con ganadores por cobrar (Resumen del show y Cobrar el show en el Live Hub)`]
      : []),
    '',
    'Cuentas / accounts (sign-in de desarrollo, sin contraseña):',
    ...result.people.map((p) => `  ${p.email.padEnd(width)}${ROLE_LABEL(p)}`),
    '',
    `Inicia con \`npm start\`, abre ${new URL('/auth/dev', config.publicUrl).href} y elige una cuenta.`,
    `Start with \`npm start\`, open ${new URL('/auth/dev', config.publicUrl).href} and pick an account.`,
    '',
  ].join('\n');
}

async function main(): Promise<number> {
  loadDotEnv();
  let config: Config;
  let size: number;
  try {
    config = loadConfig(process.env, { persistSecret: false });
    size = sizeFromArgs(process.argv.slice(2));
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
  const where = `${config.database.kind === 'embedded' ? `PGlite in ${shownPath(config.database.dir ?? '')}` : 'PostgreSQL'}, uploads in ${shownPath(path.join(config.dataDir, 'uploads'))}`;
  let database: Database;
  try {
    database = await connectDatabase(config.database, { poolSize: 6 });
  } catch (err) {
    if (err instanceof DatabaseInUseError) {
      console.error(`${err.message}\nEl demo necesita la base de datos para él solo: detén \`npm start\` primero.`);
      return 1;
    }
    throw err;
  }
  try {
    await migrateDatabase(database);
    const result = await seedDemo({ db: database.db, storage: createStorage(config), size, log: (line) => console.log(line) });
    console.log(summary(result, config, where));
    return 0;
  } catch (err) {
    if (err instanceof DemoSeedRefused) {
      const example = 'DATA_DIR=./data-demo npm run seed:demo';
      const fresh =
        config.database.kind === 'embedded'
          ? [
              `Para empezar de cero, detén Martillo y borra ${config.dataDir}, o usa otro DATA_DIR (p. ej. ${example}).`,
              `To start fresh, stop Martillo and delete ${config.dataDir}, or use another DATA_DIR (e.g. ${example}).`,
            ]
          : [
              'Para empezar de cero, apunta DATABASE_URL a una base de datos nueva y vacía (p. ej. createdb martillo_demo).',
              'To start fresh, point DATABASE_URL at a new, empty database (e.g. createdb martillo_demo).',
            ];
      console.error([err.message, ...fresh].join('\n'));
      return 1;
    }
    throw err;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('El demo no se pudo cargar / the demo could not be seeded:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
