import { count, eq } from 'drizzle-orm';
import type { Category } from '../../../domain/categories.js';
import { isUuid } from '../../../domain/ids.js';
import { foldText } from '../../../domain/text.js';
import { recordAudit } from '../../audit.js';
import type { Db, Tx } from '../../db/connect.js';
import { pgError, UNIQUE_VIOLATION } from '../../db/errors.js';
import { auctions, categories } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { refreshAuctionSearchText } from '../../reads/search-text.js';

/** Only the platform's admins change categories (routes.ts); the audit log needs no more of them than their id. */
type Actor = Acting<{ id: string }>;

const byName = new Intl.Collator('es-MX', { sensitivity: 'base', numeric: true });
const notFound = () => new AppError('NOT_FOUND', messages.errors.notFound);

/** GET /api/categories: every category in Spanish alphabetical order, with its auction count for admins. */
export async function listCategories(db: Db, opts: { withCounts: boolean }): Promise<Category[]> {
  const found = opts.withCounts
    ? await db
        .select({ id: categories.id, name: categories.name, auctionCount: count(auctions.id) })
        .from(categories)
        .leftJoin(auctions, eq(auctions.categoryId, categories.id))
        .groupBy(categories.id)
    : (await db.select({ id: categories.id, name: categories.name }).from(categories)).map((c) => ({ ...c, auctionCount: null }));
  return found.sort((a, b) => byName.compare(foldText(a.name), foldText(b.name)) || a.id.localeCompare(b.id));
}

export async function createCategory(db: Db, opts: Actor & { name: string }): Promise<Category> {
  const name = cleanName(opts.name);
  return duplicateAsConflict(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(categories)
        .values({ name, nameKey: foldText(name) })
        .returning();
      if (!row) throw new Error('category insert returned nothing');
      await recordAudit(tx, {
        by: opts,
        action: 'category.create',
        entityType: 'category',
        entityId: row.id,
        after: { name },
      });
      return { id: row.id, name: row.name, auctionCount: 0 };
    }),
  );
}

/** Renames a category and refreshes the search text of its auctions, which include the name. */
export async function renameCategory(db: Db, opts: Actor & { categoryId: string; name: string }): Promise<Category> {
  if (!isUuid(opts.categoryId)) throw notFound();
  const name = cleanName(opts.name);
  return duplicateAsConflict(() =>
    db.transaction(async (tx) => {
      const before = await lockCategory(tx, opts.categoryId);
      if (before.name !== name) {
        await tx
          .update(categories)
          .set({ name, nameKey: foldText(name) })
          .where(eq(categories.id, before.id));
        await refreshAuctionSearchText(tx, { categoryId: before.id });
        await recordAudit(tx, {
          by: opts,
          action: 'category.rename',
          entityType: 'category',
          entityId: before.id,
          before: { name: before.name },
          after: { name },
        });
      }
      return { id: before.id, name, auctionCount: await countAuctions(tx, before.id) };
    }),
  );
}

/** Deletes a category no auction uses; one in use is refused with the number of auctions. */
export async function deleteCategory(db: Db, opts: Actor & { categoryId: string }): Promise<{ id: string }> {
  if (!isUuid(opts.categoryId)) throw notFound();
  return db.transaction(async (tx) => {
    // The row lock also holds back auctions being saved with this category until we are done.
    const before = await lockCategory(tx, opts.categoryId);
    const inUse = await countAuctions(tx, before.id);
    if (inUse > 0) {
      const message = inUse === 1 ? messages.categories.inUseOne : fill(messages.categories.inUse, { count: inUse });
      throw new AppError('CONFLICT', message);
    }
    await tx.delete(categories).where(eq(categories.id, before.id));
    await recordAudit(tx, {
      by: opts,
      action: 'category.delete',
      entityType: 'category',
      entityId: before.id,
      before: { name: before.name },
    });
    return { id: before.id };
  });
}

function cleanName(name: string): string {
  return name.trim().replace(/\s+/g, ' ');
}

async function lockCategory(tx: Tx, categoryId: string) {
  const [row] = await tx.select().from(categories).where(eq(categories.id, categoryId)).for('update');
  if (!row) throw notFound();
  return row;
}

async function countAuctions(tx: Tx, categoryId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(auctions).where(eq(auctions.categoryId, categoryId));
  return row?.n ?? 0;
}

/** Replaces `{{key}}` placeholders of a catalogue message. */
function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** The unique index on name_key decides duplicates, so two admins racing to add one name still get 409. */
async function duplicateAsConflict<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isDuplicateName(err)) throw new AppError('CONFLICT', messages.categories.duplicate);
    throw err;
  }
}

function isDuplicateName(err: unknown): boolean {
  const found = pgError(err);
  return found?.code === UNIQUE_VIOLATION && (found.constraint === undefined || found.constraint === 'categories_name_key');
}
