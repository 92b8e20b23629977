import { ZAuctionInput } from '../../src/domain/auctions.js';
import type { Db } from '../../src/server/db/connect.js';
import { createAuction } from '../../src/server/features/auctions/service.js';
import { saveUploadedImage } from '../../src/server/features/media/service.js';
import type { Storage } from '../../src/server/providers/storage/types.js';
import type { SeededPerson } from './accounts.js';
import { createArtRenderer } from './art.js';
import type { PlannedAuction } from './plan.js';

/**
 * Each listing is made as a seller would: its pictures go through the upload pipeline
 * (re-encoded, thumbnailed, stored, recorded) and the auction through createAuction, so the
 * search columns, checks and audit entry are the real ones. An auction that will be shown as
 * ended is created pending without an end time (the service refuses a past end time); the
 * history step closes it.
 */
export async function createListings(
  db: Db,
  storage: Storage,
  opts: {
    auctions: PlannedAuction[];
    people: Map<string, SeededPerson>;
    categoryIds: Map<string, string>;
    now: number;
    concurrency: number;
    onProgress?: (done: number) => void;
  },
): Promise<{ ids: string[]; images: number }> {
  const art = createArtRenderer();
  const ids: string[] = new Array(opts.auctions.length);
  let images = 0;
  let done = 0;
  let cursor = 0;

  async function createOne(plan: PlannedAuction): Promise<void> {
    const seller = opts.people.get(plan.sellerKey);
    if (!seller?.companyId) throw new Error(`demo seller ${plan.sellerKey} has no company`);
    const urls: string[] = [];
    for (const image of plan.images) {
      const bytes = await art.render({
        categoryKey: plan.category.key,
        categoryName: plan.category.name,
        palette: plan.category.palette,
        shape: plan.category.shape,
        view: image.view,
        title: image.title,
        subtitle: image.subtitle,
      });
      const saved = await saveUploadedImage(db, storage, { owner: { id: seller.id, companyId: seller.companyId }, kind: 'auction_image', bytes });
      urls.push(saved.url);
      images++;
    }
    const isOpen = plan.kind === 'active';
    const endTime = plan.kind === 'ended' || plan.endTime === null ? null : opts.now + plan.endTime;
    const input = ZAuctionInput.parse({
      name: plan.name,
      description: plan.description,
      categoryId: opts.categoryIds.get(plan.category.key),
      startingPrice: plan.startingPrice,
      buyNowPrice: plan.buyNowPrice,
      condicion: plan.condicion,
      marca: plan.marca,
      envio: plan.envio,
      endTime,
      images: urls,
      status: isOpen ? 'active' : 'pending',
    });
    const actor = { id: seller.id, roles: seller.roles, profileCompanyId: seller.companyId, companyId: seller.companyId };
    // Seeding runs before any server: there is no one to publish the events to.
    const { row } = await createAuction(db, { actor, input });
    ids[plan.index] = row.id;
    done++;
    opts.onProgress?.(done);
  }

  // A few listings at a time: sharp works on libuv's thread pool while the database takes the inserts.
  // After a failure the workers stop taking listings, so nothing still runs when the caller closes the database.
  let failure: { error: unknown } | null = null;
  async function worker(): Promise<void> {
    while (!failure && cursor < opts.auctions.length) {
      const plan = opts.auctions[cursor++] as PlannedAuction;
      try {
        await createOne(plan);
      } catch (error) {
        failure ??= { error };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
  return { ids, images };
}
