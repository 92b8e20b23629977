import { z } from 'zod';
import { zText } from './text.js';

/** SPEC §5: a category name must be non-empty after trimming. Codes are catalogue keys under `categories.errors`. */
export const ZCategoryInput = z.object({
  name: zText({ error: 'categoryNameRequired' }).trim().min(1, { error: 'categoryNameRequired' }).max(60, { error: 'tooLong' }),
});
export type CategoryInput = z.input<typeof ZCategoryInput>;

export interface Category {
  id: string;
  name: string;
  /**
   * How many auctions use it (a category in use cannot be deleted). Counted only for admins, who
   * manage categories; the public list leaves it null so it stays cheap at any number of auctions.
   */
  auctionCount: number | null;
}
